-- Zero garbage in the helpers' frame loop: blend, smooth, behaviour and
-- attach updates allocate nothing in steady state (the all-or-nothing
-- snapshots and checks included).  Measured as spec/garbage_spec.lua
-- measures the core: helpers.steady_growth.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local DT = 1 / 60
local growth = helpers.steady_growth

local function arm(x)
  return ik2d.chain{ x = x or 0, y = 0,
    { length = 40 }, { length = 30, min = -2, max = 0.2 }, { length = 10 } }
end

-- n frames per measured run, a fifth of them under make test (the long
-- runs under IK2D_LONG=1)
local function frames(n, frame)
  n = helpers.size(math.floor(n / 5), n)
  return function()
    for i = 1, n do frame(i) end
  end
end

describe("the helpers in a steady frame loop", function()
  it("blend:update allocates nothing, with a solver and standalone", function()
    local s = ik2d.solver(arm())
    local b, lone = ik2d.blend.new(s), ik2d.blend.new(0)
    b:to(0, 1e9, "cubicinout")
    lone:to(1, 1e9, function(t) return t end)
    assert.are.equal(0, growth(frames(5000, function()
      b:update(DT)
      lone:update(DT)
    end)))
  end)

  it("smooth:set_goal + update allocates nothing", function()
    local f = ik2d.smooth.new{ rate = 8 }
    assert.are.equal(0, growth(frames(5000, function(i)
      f:set_goal(100 * math.cos(i * 0.01), 50)
      f:update(DT)
    end)))
  end)

  for _, solve in ipairs{ false, true } do
    it("behaviour:update allocates nothing, with every kind of source (solve = " .. tostring(solve) .. ")",
      function()
        local ledge = arm(100)
        local point = { 30, 20 }
        local behaviours, solvers = {}, {}
        local reached = 0
        local sources = {
          none = false,
          point = point,
          named = { x = 20, y = -10 },
          fn = function() return 25 + math.sin(reached), 15 end,
          chain = { chain = ledge, joint = 3, dx = 1, dy = -1 },
        }
        for _, src in pairs(sources) do
          local s = ik2d.solver(arm(), { weight = 0 })
          solvers[#solvers + 1] = s
          behaviours[#behaviours + 1] = ik2d.behaviour.new(s, {
            idle = { weight = 0 },
            go = { weight = 0.8, blend = 1e9, target = src or nil, rate = 6,
                   on_reached = function() reached = reached + 1 end },
          }, { solve = solve })
          behaviours[#behaviours]:set_state("go")
        end
        assert.are.equal(0, growth(frames(2000, function(i)
          point[1] = 30 + math.cos(i * 0.02)
          for k = 1, #behaviours do
            behaviours[k]:update(DT)
            if not solve then solvers[k]:solve() end
          end
        end)))
      end)
  end

  for _, warm in ipairs{ true, false } do
    it("behaviour:update allocates nothing judging arrival below weight 1 (warm_start = " .. tostring(warm) .. ")",
      function()
        -- a still goal the IK solution reaches: every update checks arrival,
        -- without a warm start by working the solution out of the chain
        local s = ik2d.solver(arm(), { weight = 0, warm_start = warm })
        local reached = 0
        local b = ik2d.behaviour.new(s, {
          idle = { weight = 0 },
          aim = { weight = 0.6, blend = 0, target = { 30, 40 }, rate = math.huge,
                  on_reached = function() reached = reached + 1 end },
        })
        b:set_state("aim")
        for _ = 1, 3 do b:update(DT); s:solve() end
        assert.are.equal(1, reached)
        assert.are.equal(0, growth(frames(3000, function()
          b:update(DT)
          s:solve()
        end)))
        assert.are.equal(1, reached)
      end)
  end

  for _, solve in ipairs{ false, true } do
    it("behaviour:update of a solver set allocates nothing (solve = " .. tostring(solve) .. ")", function()
      local point = { 30, 20 }
      local s = { left = ik2d.solver(arm(), { weight = 0 }), right = ik2d.solver(arm(50), { weight = 0 }),
                  head = ik2d.solver(arm(20), { weight = 0 }) }
      local reached = 0
      local b = ik2d.behaviour.new(s, {
        idle = { weight = 0 },
        lift = { blend = 0.2, rate = 6, left = { target = point },
                 right = { target = function() return 60 + math.sin(reached), 25 end, weight = 0.6 },
                 head = { weight = 0 },
                 on_reached = function() reached = reached + 1 end },
      }, { solve = solve })
      b:set_state("lift")
      assert.are.equal(0, growth(frames(2000, function(i)
        point[1] = 30 + 0.001 * math.cos(i * 0.02)
        b:update(DT)
        if not solve then
          s.left:solve(); s.right:solve(); s.head:solve()
        end
      end)))
    end)
  end

  for _, solve in ipairs{ false, true } do
    it("behaviour:update allocates nothing with targets on bones (solve = " .. tostring(solve) .. ")", function()
      local sk = ik2d.skeleton{ x = 0, y = 0,
        { name = "a", length = 30 }, { name = "b", parent = "a", length = 30 },
        { name = "c", length = 30, angle = 1 }, { name = "gun", parent = "c", length = 40 },
        { name = "d", length = 30, angle = 2 }, { name = "e", parent = "d", length = 30 } }
      local hand = ik2d.solver(sk:chain("a", "b"), { weight = 0 })
      local other = ik2d.solver(sk:chain("d", "e"))
      other:set_target_bone(sk, "gun", 30, 0)                     -- kept by its behaviour
      local grip = { skeleton = sk, bone = "gun", x = 20, y = 0 }
      local reached = 0
      local b = ik2d.behaviour.new(hand, { idle = { weight = 0 },
        hold = { weight = 0.9, blend = 1e9, target = grip, rate = 6,
                 on_reached = function() reached = reached + 1 end } }, { solve = solve })
      local kept = ik2d.behaviour.new(other, { hold = {} }, { solve = solve })
      b:set_state("hold")
      assert.are.equal(0, growth(frames(2000, function(i)
        sk:set_pose("c", 1 + 0.3 * math.sin(i * 0.01))
        b:update(DT)
        kept:update(DT)
        if not solve then sk:solve() end
      end)))
    end)
  end

  it("behaviour:update and smooth:update allocate nothing writing into a group's table", function()
    local solvers = { ik2d.solver(arm(), { weight = 0 }), ik2d.solver(arm(50)) }
    local group, targets = ik2d.group(solvers), {}
    local point = { 30, 20 }
    local b = ik2d.behaviour.new(solvers[1], { idle = { weight = 0 },
      go = { weight = 0.8, blend = 1e9, target = point, rate = 6 } }, { group = group, targets = targets })
    b:set_state("go")
    local f = ik2d.smooth.new{ x = 50, y = 40, rate = 8 }
    assert.are.equal(0, growth(frames(2000, function(i)
      point[1] = 30 + math.cos(i * 0.02)
      b:update(DT)
      f:set_goal(60 + math.sin(i * 0.01), 30)
      targets[3], targets[4] = f:update(DT)
      group:set_targets(targets)
      group:solve()
    end)))
  end)

  it("attach:update allocates nothing", function()
    local torso, a, b = arm(), arm(), arm()
    local rig = ik2d.attach.new():add(a, torso, 3, 0.2):add(b, torso, 1, 0, { inherit = "position" })
    local s = ik2d.solver(torso)
    assert.are.equal(0, growth(frames(3000, function(i)
      s:set_target(40 + 10 * math.cos(i * 0.01), 30)
      s:solve()
      rig:update()
    end)))
  end)
end)
