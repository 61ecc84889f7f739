local ik2d = require "ik2d"
local behaviour = require "ik2d.behaviour"

local DT = 1 / 60

local function dist(x1, y1, x2, y2)
  return math.sqrt((x2 - x1) ^ 2 + (y2 - y1) ^ 2)
end

-- A two-bone arm at the origin (reach 100) with its solver.
local function rig(weight)
  local arm = ik2d.chain{ x = 0, y = 0,
    { length = 50, angle = 0.3 }, { length = 50, angle = 0.4 } }
  arm:set_pose(1, 0.3)
  arm:set_pose(2, 0.4)
  return arm, ik2d.solver(arm, { weight = weight or 0, iterations = 20, tolerance = 0.01 })
end

local function states(item)
  return {
    idle = { weight = 0, blend = 0.25 },
    pickup = { weight = 1, blend = 0.3, target = item, rate = 15 },
    aim = { weight = 0.7, blend = 0.2, target = function() return 40, -60 end },
  }
end

local function step(b, s, n)
  for _ = 1, n do b:update(DT); s:solve() end
end

describe("ik2d.behaviour", function()
  describe("new", function()
    it("starts in 'idle' when there is one, applying its weight at once", function()
      local _, s = rig(1)
      local b = behaviour.new(s, states{ 60, 30 })
      assert.are.equal("idle", b:state())
      assert.are.equal(0, s:weight())
      assert.is_false(b:blending())
    end)

    it("starts in opts.initial and snaps the target to its source", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "pickup" })
      local tx, ty = s:target()
      assert.near(60, tx, 0)
      assert.near(30, ty, 0)
      assert.are.equal(1, s:weight())
      assert.is_nil(b:previous())
    end)

    it("raises on unknown initial states and bad state tables", function()
      local _, s = rig()
      assert.has_error(function() behaviour.new(s, states{ 1, 2 }, { initial = "run" }) end,
        "bad argument #3 to 'new' (unknown initial state 'run')")
      assert.has_error(function() behaviour.new(s, { a = { weight = 2 } }) end,
        "state 'a': weight must be a number in [0, 1]")
      assert.has_error(function() behaviour.new(s, { a = { blend = -1 } }) end,
        "state 'a': blend must be seconds >= 0")
      assert.has_error(function() behaviour.new(s, { a = { target = { "x" } } }) end,
        "state 'a': target point needs numbers {x, y} or {x =, y =}")
      assert.has_error(function() behaviour.new(nil, {}) end,
        "bad argument #1 to 'new' (solver expected, got nil)")
    end)
  end)

  describe("switching state", function()
    it("blends the weight over the state's blend time to its exact value", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 })
      assert.is_true(b:set_state("pickup"))
      step(b, s, 9)                       -- 0.15 s: half way, smoothstep(0.5)
      assert.near(0.5, s:weight(), 1e-9)
      assert.is_true(b:blending())
      step(b, s, 10)                      -- past 0.3 s
      assert.are.equal(1, s:weight())
      assert.are.equal(1, b:weight())
      assert.is_false(b:blending())
    end)

    it("reaches partial weights exactly (aim at 0.7)", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 })
      b:set_state("aim")
      step(b, s, 13)
      assert.are.equal(0.7, s:weight())
    end)

    it("retargets without a jump: the target moves by 1 - exp(-rate dt) of the gap per frame", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "pickup" })
      b:set_state("aim")                  -- source jumps from (60, 30) to (40, -60)
      local x0, y0 = s:target()
      b:update(DT)
      local x1, y1 = s:target()
      local k = 1 - math.exp(-12 * DT)    -- default rate 12
      assert.near(60 + (40 - 60) * k, x1, 1e-12)
      assert.near(30 + (-60 - 30) * k, y1, 1e-12)
      -- the step is a fraction of the 92-unit gap, far from a jump
      assert.is_true(dist(x0, y0, x1, y1) < 0.2 * dist(60, 30, 40, -60))
      for _ = 1, 120 do b:update(DT) end
      local x, y = s:target()
      assert.near(40, x, 1e-3)
      assert.near(-60, y, 1e-3)
    end)

    it("uses the state's own smoothing rate when it has one", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "aim" })
      b:set_state("pickup")               -- rate = 15
      b:update(DT)
      local x = s:target()
      assert.near(40 + 20 * (1 - math.exp(-15 * DT)), x, 1e-12)
    end)

    it("a state without a target keeps the last goal", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "pickup" })
      b:set_state("idle")
      for _ = 1, 60 do b:update(DT) end
      local gx, gy = b:goal()
      assert.near(60, gx, 0)
      assert.near(30, gy, 0)
    end)

    it("setting the current state again does nothing and keeps the blend running", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 })
      b:set_state("pickup")
      step(b, s, 9)
      assert.is_false(b:set_state("pickup"))
      step(b, s, 10)
      assert.are.equal(1, s:weight())
    end)

    it("remembers the previous state and the time in the current one", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 })
      b:set_state("aim")
      for _ = 1, 30 do b:update(DT) end
      assert.near(0.5, b:time(), 1e-12)
      b:set_state("pickup")
      assert.are.equal("aim", b:previous())
      assert.near(0, b:time(), 0)
    end)

    it("set_target places the smoothed target at once, keeping the goal", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "pickup" })
      b:set_target(-10, 5)
      local x, y = s:target()
      assert.near(-10, x, 0)
      assert.near(5, y, 0)
      local gx, gy = b:goal()
      assert.near(60, gx, 0)
      assert.near(30, gy, 0)
      b:update(DT)                        -- and smooths on from there
      x = s:target()
      assert.near(-10 + 70 * (1 - math.exp(-15 * DT)), x, 1e-12)
    end)

    it("raises on an unknown state", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 })
      assert.has_error(function() b:set_state("jump") end,
        "bad argument #1 to 'set_state' (unknown state 'jump')")
    end)

    it("an interrupted blend continues from the current weight", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 })
      b:set_state("pickup")
      step(b, s, 9)                       -- weight 0.5
      b:set_state("idle")
      b:update(DT)
      assert.is_true(math.abs(s:weight() - 0.5) < 0.01)
      step(b, s, 20)
      assert.are.equal(0, s:weight())
    end)
  end)

  describe("target sources", function()
    it("reads a point table on every update, so moving it moves the target", function()
      local _, s = rig()
      local item = { x = 10, y = 10 }
      local b = behaviour.new(s, { carry = { target = item, rate = math.huge } },
        { initial = "carry" })
      item.x, item.y = 25, -5
      b:update(DT)
      local x, y = s:target()
      assert.near(25, x, 0)
      assert.near(-5, y, 0)
    end)

    it("follows another chain's joint plus an offset", function()
      local _, s = rig()
      local ledge = ik2d.chain{ x = 30, y = 40, { length = 20 } }
      local b = behaviour.new(s, {
        climb = { target = { chain = ledge, joint = 2, dx = 1, dy = -2 }, rate = math.huge },
      }, { initial = "climb" })
      local x, y = s:target()
      assert.near(51, x, 1e-12)
      assert.near(38, y, 1e-12)
      ledge:set_base(0, 0, math.pi / 2)   -- the ledge moves: tip now (0, 20)
      b:update(DT)
      x, y = s:target()
      assert.near(1, x, 1e-12)
      assert.near(18, y, 1e-12)
    end)

    it("defaults a chain source to its tip", function()
      local _, s = rig()
      local other = ik2d.chain{ x = 5, y = 5, { length = 10 }, { length = 10 } }
      behaviour.new(s, { a = { target = { chain = other } } }, { initial = "a" })
      local x, y = s:target()
      assert.near(25, x, 1e-12)
      assert.near(5, y, 1e-12)
    end)

    it("calls a function source with the behaviour", function()
      local _, s = rig()
      local seen
      local b = behaviour.new(s, { a = { target = function(self) seen = self; return 3, 4 end } },
        { initial = "a" })
      assert.are.equal(b, seen)
    end)
  end)

  describe("driving a real solver", function()
    it("pickup: the hand reaches a reachable item within the solver tolerance", function()
      local arm, s = rig()
      local item = { 60, 30 }
      local b = behaviour.new(s, states(item))
      b:set_state("pickup")
      step(b, s, 90)                      -- 1.5 s
      local x, y = arm:tip()
      assert.near(0, dist(x, y, 60, 30), 0.01 + 1e-6)
      local reached = s:solve()
      assert.is_true(reached)
    end)

    it("idle (weight 0): the result is exactly the animated pose", function()
      local arm, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "pickup" })
      b:set_state("idle")
      step(b, s, 20)
      assert.are.equal(0, s:weight())
      assert.near(0.3, arm:angle(1), 0)
      assert.near(0.4, arm:angle(2), 0)
    end)
  end)
end)
