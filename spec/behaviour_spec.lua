local ik2d = require "ik2d"
local behaviour = require "ik2d.behaviour"
local helpers = require "spec.helpers"

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

    it("rate() is the current state's smoothing rate, or the default", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { rate = 7 })
      assert.are.equal(7, b:rate())
      b:set_state("pickup")
      assert.are.equal(15, b:rate())
    end)

    it("uses the state's own smoothing rate when it has one", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "aim" })
      b:set_state("pickup")               -- rate = 15
      b:update(DT)
      local x = s:target()
      assert.near(40 + 20 * (1 - math.exp(-15 * DT)), x, 1e-12)
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

  describe("states without a target", function()
    it("hold the chain's tip where the state began, not the solver's stale target", function()
      local arm, s = rig()
      arm:set_base(200, 100)              -- the chain moved after its solver was made (attach does this)
      s:solve()                           -- weight 0: the result is the pose, at the new base
      local tx, ty = arm:tip()
      local b = behaviour.new(s, states{ 60, 30 })
      local gx, gy = b:goal()
      assert.near(tx, gx, 0)
      assert.near(ty, gy, 0)
      local x, y = s:target()
      assert.near(tx, x, 0)
      assert.near(ty, y, 0)
      b:set_state("aim")                  -- and the hand leaves from there, not from (84, 0)
      b:update(DT)
      x, y = s:target()
      local k = 1 - math.exp(-12 * DT)
      assert.near(tx + (40 - tx) * k, x, 1e-9)
      assert.near(ty + (-60 - ty) * k, y, 1e-9)
    end)

    it("switching to one holds the tip at the switch, whatever the chain does next", function()
      local arm, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "pickup" })
      step(b, s, 60)
      arm:set_base(200, 0)                -- (60, 30) is now out of reach
      s:solve()
      local tx, ty = arm:tip()
      assert.is_true(dist(tx, ty, 60, 30) > 40)
      b:set_state("idle")
      for _ = 1, 30 do
        arm:set_base(-50, 0)
        b:update(DT)
        s:solve()
      end
      local gx, gy = b:goal()
      assert.near(tx, gx, 0)
      assert.near(ty, gy, 0)
    end)
  end)

  describe("entering a reach state after the chain has moved", function()
    local k = 1 - math.exp(-12 * DT)

    it("smooths from the hand, not from the stale target where the chain was made (set_base)", function()
      local arm, s = rig(1)
      local item = { 260, 130 }
      local b = behaviour.new(s, states(item))          -- idle: holds the tip at (86, 47)
      local x0, y0 = s:target()
      for _ = 1, 10 do
        arm:set_base(200, 100)                          -- the body carries the arm away
        b:update(DT)
        s:solve()
      end
      local hx, hy = arm:tip()                          -- the hand, drawn (weight 0: the pose)
      assert.is_true(dist(hx, hy, x0, y0) > 100)
      b:set_state("pickup")
      local tx, ty = b:target()
      assert.near(hx, tx, 1e-12)
      assert.near(hy, ty, 1e-12)
      b:update(DT)
      tx, ty = s:target()
      local k15 = 1 - math.exp(-15 * DT)                -- pickup's rate
      assert.near(hx + (260 - hx) * k15, tx, 1e-9)
      assert.near(hy + (130 - hy) * k15, ty, 1e-9)
    end)

    it("smooths from the hand when ik2d.attach moved the chain", function()
      local torso = ik2d.chain{ x = 0, y = 0, { length = 40 } }
      local arm, s = rig(1)
      local b = behaviour.new(s, { idle = { weight = 0 }, aim = { target = { 100, 80 } } })
      local rig2 = ik2d.attach.new():add(arm, torso)
      local tsolver = ik2d.solver(torso)
      local x0, y0 = b:target()
      for f = 1, 20 do
        tsolver:set_target(30 + f, 25)
        tsolver:solve()
        rig2:update()
        b:update(DT)
        s:solve()
      end
      local hx, hy = arm:tip()
      assert.is_true(dist(hx, hy, x0, y0) > 20)
      b:set_state("aim")
      b:update(DT)
      local tx, ty = s:target()
      assert.near(hx + (100 - hx) * k, tx, 1e-9)
      assert.near(hy + (80 - hy) * k, ty, 1e-9)
    end)

    it("with no state before, smooths from the solver's target (the tip until set_target)", function()
      local arm, s = rig(1)
      local b = behaviour.new(s, { reach = { target = { 240, 60 } } })
      assert.is_nil(b:state())
      arm:set_base(200, 100)
      s:solve()
      local hx, hy = arm:tip()
      b:set_state("reach")
      b:update(DT)
      local tx, ty = s:target()
      assert.near(hx + (240 - hx) * k, tx, 1e-9)
      assert.near(hy + (60 - hy) * k, ty, 1e-9)
    end)

    it("from a state with weight, keeps smoothing from the target it gave (no jump in the solve)", function()
      local arm, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "pickup" })
      step(b, s, 5)
      local tx0, ty0 = b:target()
      arm:set_base(5, 5)
      b:set_state("aim")
      local tx, ty = b:target()
      assert.are.equal(tx0, tx)
      assert.are.equal(ty0, ty)
    end)
  end)

  describe("set_target", function()
    it("moves the target and the goal: a state without a target stays there", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 })
      b:set_target(-10, 5)
      for _ = 1, 30 do b:update(DT) end
      local x, y = s:target()
      assert.near(-10, x, 0)
      assert.near(5, y, 0)
      local gx, gy = b:goal()
      assert.near(-10, gx, 0)
      assert.near(5, gy, 0)
    end)

    it("in a state with a target, the next update reads the source again and smooths from there", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "pickup" })
      b:set_target(-10, 5)
      local x, y = s:target()
      assert.near(-10, x, 0)
      assert.near(5, y, 0)
      b:update(DT)
      x = s:target()
      assert.near(-10 + 70 * (1 - math.exp(-15 * DT)), x, 1e-12)
      local gx, gy = b:goal()
      assert.near(60, gx, 0)
      assert.near(30, gy, 0)
    end)
  end)

  describe("finite targets", function()
    it("recovers from a source swinging between 1e308 and -1e308 with rate = math.huge", function()
      local _, s = rig(1)
      local v = 1e308
      local b = behaviour.new(s, { wild = { target = function() return v, 0 end, rate = math.huge } },
        { initial = "wild" })
      for i = 1, 30 do
        v = i % 2 == 0 and 1e308 or -1e308
        b:update(DT)
        s:solve()
      end
      v = 40
      b:update(DT)
      local x, y = s:target()
      assert.are.equal(40, x)
      assert.are.equal(0, y)
    end)

    it("a target giving NaN is an error naming the behaviour and the state, at the caller's line", function()
      local _, s = rig()
      local bad = { x = 1, y = 2 }
      local b = behaviour.new(s, { idle = {}, aim = { target = function() return 0 / 0, 1 end },
        carry = { target = bad } })
      assert.are.equal("ik2d.behaviour: set_state: state 'aim': target must give finite numbers x, y, got nan",
        helpers.caller_error(function() b:set_state("aim") end))
      assert.are.equal("idle", b:state())
      b:set_state("carry")
      bad.y = math.huge
      assert.are.equal("ik2d.behaviour: update: state 'carry': target must give finite numbers x, y, got inf",
        helpers.caller_error(function() b:update(DT) end))
      assert.are.equal("ik2d.behaviour: new: state 'aim': target must give finite numbers x, y, got nan",
        helpers.caller_error(function() behaviour.new(s, { aim = { target = function() return 0 / 0, 1 end } },
          { initial = "aim" }) end))
    end)
  end)

  describe("chain sources", function()
    it("are checked at new and at set_state, naming the state and the field", function()
      local arm, s = rig()
      local err = helpers.caller_error
      assert.are.equal("ik2d.behaviour: new: state 'climb': target joint must be a whole number in 1..3, got 9",
        err(function() behaviour.new(s, { climb = { target = { chain = arm, joint = 9 } } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'climb': target joint must be a whole number in 1..3, got 1.5",
        err(function() behaviour.new(s, { climb = { target = { chain = arm, joint = 1.5 } } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'climb': target dx must be a finite number, got nan",
        err(function() behaviour.new(s, { climb = { target = { chain = arm, dx = 0 / 0 } } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'climb': target chain must be an ik2d chain, got table",
        err(function() behaviour.new(s, { climb = { target = { chain = {} } } }) end))
      local src = { chain = arm, joint = 2 }
      local b = behaviour.new(s, { idle = {}, climb = { target = src } })
      src.joint = 0
      assert.are.equal("ik2d.behaviour: set_state: state 'climb': target joint must be a whole number in 1..3, got 0",
        err(function() b:set_state("climb") end))
      assert.are.equal("idle", b:state())
    end)
  end)

  describe("all or nothing", function()
    local function observe(b, s)
      local x, y = b:target()
      local gx, gy = b:goal()
      local tx, ty = s:target()
      return { b:state(), b:previous(), b:time(), b:weight(), b:blending(), x, y, gx, gy, tx, ty, s:weight() }
    end

    -- A real solver behind a proxy whose methods raise when told to.
    local function fragile(s)
      local p = { fail = {} }
      for _, m in ipairs{ "target", "set_target", "weight", "set_weight", "result", "tolerance", "chain", "solve" } do
        p[m] = function(self, ...)
          if self.fail[m] then error(m .. " refuses", 0) end
          return s[m](s, ...)
        end
      end
      return p
    end

    local fail
    local function source()
      if fail then error("source down", 0) end
      return 40, -60
    end
    local function aim_states(extra)
      local t = { idle = { weight = 0 }, aim = { weight = 0.7, blend = 0.2, target = source } }
      for k, v in pairs(extra or {}) do t.aim[k] = v end
      return t
    end

    it("an update whose source raises leaves time, state, goal, weight and target as they were", function()
      fail = false
      local _, s = rig()
      local b = behaviour.new(s, aim_states())
      b:set_state("aim")
      step(b, s, 3)                        -- mid-blend, target moving
      local before = observe(b, s)
      fail = true
      assert.has_error(function() b:update(DT) end, "source down")
      assert.are.same(before, observe(b, s))
      fail = false
      b:update(DT)
      assert.near(before[3] + DT, b:time(), 1e-15)
    end)

    it("an update whose solver raises in set_weight puts the target back", function()
      fail = false
      local _, real = rig()
      local s = fragile(real)
      local b = behaviour.new(s, aim_states())
      b:set_state("aim")
      b:update(DT)
      local before = observe(b, s)
      s.fail.set_weight = true
      assert.has_error(function() b:update(DT) end, "set_weight refuses")
      s.fail.set_weight = false
      assert.are.same(before, observe(b, s))
    end)

    it("a set_state whose source raises does not switch", function()
      fail = true
      local _, s = rig()
      local b = behaviour.new(s, aim_states())
      local before = observe(b, s)
      assert.has_error(function() b:set_state("aim") end, "source down")
      assert.are.same(before, observe(b, s))
      fail = false
      assert.is_true(b:set_state("aim"))
    end)

    for _, which in ipairs{ "on_enter", "on_exit" } do
      it("a raising " .. which .. " undoes the switch, the instant weight included", function()
        fail = false
        local _, s = rig()
        local raise = true
        local st = aim_states()
        local cb = function() if raise then error(which .. " fails", 0) end end
        if which == "on_enter" then st.aim.on_enter = cb else st.idle.on_exit = cb end
        local b = behaviour.new(s, st)
        local before = observe(b, s)
        assert.has_error(function() b:set_state("aim", true) end, which .. " fails")
        assert.are.same(before, observe(b, s))
        raise = false
        assert.is_true(b:set_state("aim", true))
        assert.are.equal(0.7, s:weight())
      end)
    end
  end)

  describe("callbacks", function()
    it("on_exit(h, next) then on_enter(h, previous), in the new state; the first state's on_enter at new", function()
      local _, s = rig()
      local log = {}
      local function rec(tag)
        return function(h, other) log[#log + 1] = { tag, h:state(), other or "-" } end
      end
      local b = behaviour.new(s, {
        idle = { weight = 0, on_enter = rec("enter idle"), on_exit = rec("exit idle") },
        aim = { target = { 1, 2 }, on_enter = rec("enter aim"), on_exit = rec("exit aim") },
      })
      assert.are.same({ { "enter idle", "idle", "-" } }, log)
      b:set_state("aim")
      b:set_state("aim")                   -- no change, no callbacks
      b:set_state("idle")
      assert.are.same({ { "enter idle", "idle", "-" },
        { "exit idle", "aim", "aim" }, { "enter aim", "aim", "idle" },
        { "exit aim", "idle", "idle" }, { "enter idle", "idle", "aim" } }, log)
    end)

    it("a switch made from on_enter runs its own callbacks, nested", function()
      local _, s = rig()
      local log = {}
      local b = behaviour.new(s, {
        idle = { on_exit = function(_, nxt) log[#log + 1] = "exit idle -> " .. nxt end },
        hop = { on_enter = function(h) log[#log + 1] = "enter hop"; h:set_state("land") end,
                on_exit = function(_, nxt) log[#log + 1] = "exit hop -> " .. nxt end },
        land = { on_enter = function(_, prev) log[#log + 1] = "enter land from " .. prev end },
      })
      b:set_state("hop")
      assert.are.equal("land", b:state())
      assert.are.equal("hop", b:previous())
      assert.are.same({ "exit idle -> hop", "enter hop", "exit hop -> land", "enter land from hop" }, log)
    end)

    -- Has the state arrived, by the definition on_reached uses: weight
    -- blend done, the solver's target within its tolerance of the goal,
    -- and the solver reporting reached.
    local function arrived(b, s)
      local tx, ty = s:target()
      local gx, gy = b:goal()
      return not b:blending() and dist(tx, ty, gx, gy) <= s:tolerance() and (s:result())
    end

    local function reach_rig(solve, item)
      local arm, s = rig()
      local fired = {}
      local st = states(item)
      st.pickup.on_reached = function(h)
        local x, y = arm:tip()
        fired[#fired + 1] = { state = h:state(), weight = s:weight(), tip = dist(x, y, item[1], item[2]),
                              frame = h.frame }
      end
      local b = behaviour.new(s, st, { solve = solve })
      b:set_state("pickup")
      return b, s, fired
    end

    it("on_reached runs once when the state arrives, from update when it solves (solve = true)", function()
      local item = { 60, 30 }
      local b, s, fired = reach_rig(true, item)
      local first
      for frame = 1, 120 do
        b.frame = frame
        b:update(DT)
        if not first and arrived(b, s) then first = frame end
      end
      assert.are.equal(1, #fired)
      assert.are.equal(first, fired[1].frame)
      assert.are.equal("pickup", fired[1].state)
      assert.are.equal(1, fired[1].weight)
      assert.is_true(fired[1].tip <= 2 * s:tolerance())
    end)

    it("with solve = false it reads your solve after the previous update: one update later", function()
      local item = { 60, 30 }
      local b, s, fired = reach_rig(false, item)
      local first
      for frame = 1, 120 do
        b.frame = frame
        b:update(DT)
        s:solve()
        if not first and arrived(b, s) then first = frame end
      end
      assert.are.equal(1, #fired)
      assert.are.equal(first + 1, fired[1].frame)
    end)

    it("runs again after the state has lost its goal and arrived again", function()
      local item = { 60, 30 }
      local b, _, fired = reach_rig(true, item)
      for _ = 1, 120 do b:update(DT) end
      item[1], item[2] = 300, 0           -- out of reach: not reached
      for _ = 1, 60 do b:update(DT) end
      assert.are.equal(1, #fired)
      item[1], item[2] = 60, 30
      for _ = 1, 120 do b:update(DT) end
      assert.are.equal(2, #fired)
    end)

    it("never counts a solve made for the previous state", function()
      local _, s = rig()
      local n = 0
      local b = behaviour.new(s, {
        idle = { weight = 0 },
        a = { target = { 60, 30 } },
        b = { target = { 60, 30 }, on_reached = function() n = n + 1 end },
      })
      b:set_state("a")
      step(b, s, 120)
      assert.is_true((s:result()))
      b:set_state("b")
      b:update(DT)                         -- reads the solve made in state a
      assert.are.equal(0, n)
      s:solve()
      b:update(DT)
      assert.are.equal(1, n)
    end)

    it("a raising on_reached leaves everything as before; the next update runs it again", function()
      local _, s = rig()
      local n, raise = 0, true
      local b = behaviour.new(s, {
        idle = { weight = 0 },
        b = { target = { 60, 30 }, on_reached = function() n = n + 1; if raise then error("nope", 0) end end },
      })
      b:set_state("b")
      local before
      for _ = 1, 120 do
        local x, y = b:target()
        local tx, ty = s:target()
        before = { b:time(), b:weight(), x, y, tx, ty }
        local ok = pcall(b.update, b, DT)
        if not ok then break end
        s:solve()
      end
      assert.are.equal(1, n)
      local x, y = b:target()
      local tx, ty = s:target()
      assert.are.same(before, { b:time(), b:weight(), x, y, tx, ty })
      raise = false
      b:update(DT)
      assert.are.equal(2, n)
    end)
  end)

  describe("on_reached in a state whose weight is below 1", function()
    -- A chain from `def`, posed at `pose`, and a solver on it with `opts`.
    local function limb(def, pose, opts)
      local c = ik2d.chain(def)
      for i, a in ipairs(pose) do c:set_pose(i, a) end
      return c, ik2d.solver(c, opts)
    end

    -- Does the IK solution for target (x, y) reach, judged by a twin at
    -- weight 1 solved from the same pose with the same options?
    local function twin_reaches(def, pose, opts, x, y)
      local o = {}
      for k, v in pairs(opts) do o[k] = v end
      o.weight = 1
      local _, s = limb(def, pose, o)
      s:set_target(x, y)
      return (s:solve())
    end

    local ARM = { x = 0, y = 0, { length = 50, angle = 0.3 }, { length = 50, angle = 0.4 } }
    local CASES = {
      { "ccd", ARM, { 0.3, 0.4 }, {} },
      { "fabrik", ARM, { 0.3, 0.4 }, { method = "fabrik" } },
      { "two_bone", ARM, { 0.3, 0.4 }, { method = "two_bone" } },
      { "limits, posed outside them", { x = 10, y = -5, angle = 0.4,
          { length = 40, min = -1, max = 1 }, { length = 30, min = -2.5, max = 0.1 }, { length = 20 } },
        { 3, 2.8, -1 }, {} },
      { "flipped", { x = 0, y = 0, flip = true, { length = 50, angle = 0.3 }, { length = 50 } },
        { 0.3, 0.4 }, {} },
      { "one bone stretching", { x = 0, y = 0, { length = 40 } }, { 0 }, { stretch = 2 } },
    }

    for _, case in ipairs(CASES) do
      local what, def, pose, opts = case[1], case[2], case[3], case[4]
      for _, solve in ipairs{ true, false } do
        it(("fires once when the IK solution reaches, the drawn tip short of it (%s, solve = %s)")
          :format(what, tostring(solve)), function()
          local c, s = limb(def, pose, opts)
          local bx, by = c:base()
          local goal = { bx + (c:flip() and -45 or 45), by + 40 }
          if what == "one bone stretching" then goal = { bx + 60, by + 20 } end
          assert.is_true(twin_reaches(def, pose, { warm_start = false, method = opts.method,
            stretch = opts.stretch }, goal[1], goal[2]))
          local fired = {}
          local b = behaviour.new(s, {
            idle = { weight = 0 },
            aim = { weight = 0.6, blend = 0.1, target = goal, rate = 30,
                    on_reached = function(h)
                      local x, y = c:tip()
                      fired[#fired + 1] = { weight = s:weight(), tip = dist(x, y, goal[1], goal[2]),
                                            state = h:state() }
                    end },
          }, { solve = solve })
          b:set_state("aim")
          for _ = 1, 120 do
            b:update(DT)
            if not solve then s:solve() end
          end
          assert.are.equal(1, #fired)
          assert.are.equal(0.6, fired[1].weight)
          assert.are.equal("aim", fired[1].state)
          -- what is drawn is 0.6 of the way in angles: not at the target
          assert.is_true(fired[1].tip > s:tolerance())
        end)
      end
    end

    it("fires as the IK solution arrives, not a frame early, with warm_start = false too", function()
      for _, warm in ipairs{ true, false } do
        local arm, s = rig()
        s:set_options{ warm_start = warm }
        local item = { 60, 30 }
        local n, first = 0, nil
        local twin_arm, twin = rig(1)
        twin:set_options{ warm_start = warm }
        local st = states(item)
        st.aim.on_reached = function() n = n + 1 end
        local b = behaviour.new(s, st, { solve = true })
        b:set_state("aim")
        -- the twin solves each frame's target at weight 1 from the same start
        for frame = 1, 120 do
          b:update(DT)
          twin_arm:set_pose(1, 0.3)
          twin_arm:set_pose(2, 0.4)
          if not warm then twin:forget() end
          twin:set_target(s:target())
          local twin_reached = twin:solve()
          local gx, gy = b:goal()
          local tx, ty = s:target()
          if not first and twin_reached and not b:blending() and dist(tx, ty, gx, gy) <= s:tolerance() then
            first = frame
          end
          if first == frame then assert.are.equal(1, n, "frame " .. frame) end
          if not first then assert.are.equal(0, n, "frame " .. frame) end
        end
        assert.is_number(first)
        assert.are.equal(1, n)
        local x, y = arm:tip()
        assert.is_true(dist(x, y, 40, -60) > 1)       -- the drawn hand is 0.7 of the way
      end
    end)

    it("never fires while the IK solution cannot reach", function()
      local _, s = rig()
      local n = 0
      local b = behaviour.new(s, { idle = { weight = 0 },
        aim = { weight = 0.5, target = { 150, 40 }, on_reached = function() n = n + 1 end } }, { solve = true })
      b:set_state("aim")
      for _ = 1, 120 do b:update(DT) end
      assert.are.equal(0, n)
    end)

    it("the follow method: fires once the drag has run (its solution always puts the tip on the target)", function()
      local snake = ik2d.chain{ x = 0, y = 0, { length = 12 }, { length = 12 }, { length = 12 } }
      local head = ik2d.solver(snake, { method = "follow", weight = 0 })
      local n = 0
      local b = behaviour.new(head, { idle = { weight = 0 },
        crawl = { weight = 0.5, blend = 0.1, target = { 80, 20 }, rate = math.huge,
                  on_reached = function() n = n + 1 end } }, { solve = true })
      b:set_state("crawl")
      for _ = 1, 30 do b:update(DT) end
      assert.are.equal(1, n)
      assert.is_true(helpers.tip_distance(snake, 80, 20) > 1)
    end)

    it("solve = false: a chain moved between your solve and the next update still arrives", function()
      -- the arm rides on a swaying torso (ik2d.attach moves its base before
      -- each update, after the solve the update checks)
      local torso = ik2d.chain{ x = 0, y = 0, { length = 30 } }
      local arm, s = rig()
      local rig2 = ik2d.attach.new():add(arm, torso)
      local n = 0
      local b = behaviour.new(s, { idle = { weight = 0 },
        aim = { weight = 0.6, blend = 0.1, target = { 70, 60 }, rate = 30, on_reached = function() n = n + 1 end } })
      b:set_state("aim")
      for frame = 1, 120 do
        torso:set_base(0, 0, 0.2 * math.sin(frame * 0.05))
        rig2:update()
        b:update(DT)
        s:solve()
      end
      assert.are.equal(1, n)
    end)

    it("a weight 0 state still fires when the drawn pose reaches (nothing is solved there)", function()
      local _, s = rig()
      local n = 0
      local b = behaviour.new(s, { idle = { weight = 0, on_reached = function() n = n + 1 end } },
        { solve = true })
      for _ = 1, 30 do b:update(DT) end   -- idle holds the tip, where the pose puts it
      assert.are.equal(1, n)
    end)
  end)

  describe("solve option", function()
    it("solve = true: update also solves", function()
      local arm, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { solve = true, initial = "pickup" })
      for _ = 1, 90 do b:update(DT) end
      local x, y = arm:tip()
      assert.near(0, dist(x, y, 60, 30), 0.01 + 1e-6)
    end)

    it("by default update does not solve: the chain stays put", function()
      local arm, s = rig()
      local b = behaviour.new(s, states{ 60, 30 }, { initial = "pickup" })
      local x0, y0 = arm:tip()
      for _ = 1, 10 do b:update(DT) end
      local x, y = arm:tip()
      assert.are.equal(x0, x)
      assert.are.equal(y0, y)
      assert.is_false((s:result()))
    end)
  end)

  describe("refused calls", function()
    local err = helpers.caller_error

    it("refuses bad arguments at the caller's line, naming the function and the argument", function()
      local _, s = rig()
      local b = behaviour.new(s, states{ 60, 30 })
      assert.are.equal("ik2d.behaviour: update: dt must be a finite number >= 0, got nil",
        err(function() b:update() end))
      assert.are.equal("ik2d.behaviour: update: dt must be a finite number >= 0, got inf",
        err(function() b:update(math.huge) end))
      assert.are.equal("ik2d.behaviour: set_state: name must be one of the states (aim, idle, pickup), got \"jump\"",
        err(function() b:set_state("jump") end))
      assert.are.equal("ik2d.behaviour: set_state: instant must be a boolean or nil, got 1",
        err(function() b:set_state("aim", 1) end))
      assert.are.equal("ik2d.behaviour: set_target: y must be a finite number, got nan",
        err(function() b:set_target(1, 0 / 0) end))
      assert.are.equal("ik2d.behaviour: update: self must be a behaviour (call it with a colon), got 0.1",
        err(function() b.update(0.1) end))
    end)

    it("refuses bad solvers, states and options to new", function()
      local _, s = rig()
      assert.are.equal("ik2d.behaviour: new: solver must be an ik2d solver (target, set_target, weight, "
        .. "set_weight, result, tolerance, chain), got nil",
        err(function() behaviour.new(nil, {}) end))
      assert.are.equal("ik2d.behaviour: new: states must be a table of named states, got 5",
        err(function() behaviour.new(s, 5) end))
      assert.are.equal("ik2d.behaviour: new: state 'a': weight must be a number in [0, 1], got 2",
        err(function() behaviour.new(s, { a = { weight = 2 } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'a': blend must be a finite number >= 0, got -1",
        err(function() behaviour.new(s, { a = { blend = -1 } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'a': rate must be a number >= 0 (math.huge: at once), got nan",
        err(function() behaviour.new(s, { a = { rate = 0 / 0 } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'a': target must give finite numbers x, y, got \"x\"",
        err(function() behaviour.new(s, { a = { target = { "x" } } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'a': target must be a point table, a function, "
        .. "{ chain = c } or { skeleton = sk, bone = b }, got 7",
        err(function() behaviour.new(s, { a = { target = 7 } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'a': on_reached must be a function or nil, got true",
        err(function() behaviour.new(s, { a = { on_reached = true } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'a' has an unknown field (known: blend, on_enter, on_exit, "
        .. "on_reached, rate, target, weight), got \"wieght\"",
        err(function() behaviour.new(s, { a = { wieght = 1 } }) end))
      assert.are.equal("ik2d.behaviour: new: opts.initial must be one of the states (a), got \"run\"",
        err(function() behaviour.new(s, { a = {} }, { initial = "run" }) end))
      assert.are.equal("ik2d.behaviour: new: opts.solve must be a boolean or nil, got \"yes\"",
        err(function() behaviour.new(s, { a = {} }, { solve = "yes" }) end))
      assert.are.equal("ik2d.behaviour: new: opts has an unknown field (known: group, initial, rate, solve, "
        .. "targets), got \"inital\"",
        err(function() behaviour.new(s, { a = {} }, { inital = "a" }) end))
    end)
  end)
end)

describe("ik2d.behaviour: targets on bones", function()
  -- the README's rifleman: a rifle in the front hand, the back hand
  -- driven by a behaviour toward a grip on the rifle
  local function rifleman(flip)
    local sk = ik2d.skeleton{ x = 300, y = 300, flip = flip,
      { name = "hip", length = 0 },
      { name = "spine", parent = "hip", length = 32, angle = -1.57, min = -0.7, max = 0.5 },
      { name = "chest", parent = "spine", length = 28, min = -0.5, max = 0.35 },
      { name = "upper_b", parent = "chest", length = 26, x = 24, y = 0, angle = 2.77, min = -2.9, max = 1.2 },
      { name = "fore_b", parent = "upper_b", length = 26, min = -2.6, max = 0 },
      { name = "upper_f", parent = "chest", length = 26, x = 24, y = 0, angle = 2.77, min = -2.9, max = 1.2 },
      { name = "fore_f", parent = "upper_f", length = 26, min = -2.6, max = 0 },
      { name = "rifle", parent = "fore_f", length = 44, angle = -0.4 },
    }
    local back = ik2d.solver(sk:chain("spine", "fore_b"), { iterations = 20, weight = 0 })
    local front = ik2d.solver(sk:chain("spine", "fore_f"), { iterations = 20 })
    front:set_target(flip and 265 or 335, 240)
    sk:solve()
    return sk, back, front
  end

  -- point (px, py) of a bone's space in the world, as a flipped skeleton draws it
  local function point(sk, bone, px, py)
    local x, y, a = sk:world(bone)
    local side = sk:flip() and -1 or 1
    return x + math.cos(a) * px - math.sin(a) * side * py, y + math.sin(a) * px + math.cos(a) * side * py
  end

  it("over a solver given set_target_bone, a state without a target keeps the bone", function()
    local sk = ik2d.skeleton{ x = 0, y = 0,
      { name = "a", length = 30 }, { name = "b", parent = "a", length = 30 },
      { name = "c", length = 30, angle = 1 }, { name = "gun", parent = "c", length = 40 } }
    local hand = ik2d.solver(sk:chain("a", "b"))
    hand:set_target_bone(sk, "gun", 20, 0)
    local h = behaviour.new(hand, { hold = { weight = 1 }, rest = { weight = 0 } }, { initial = "hold" })
    assert.are.same({ sk, "gun", 20, 0 }, { hand:target_bone() })
    for _ = 1, 30 do
      h:update(DT)
      sk:solve()
    end
    assert.are.same({ sk, "gun", 20, 0 }, { hand:target_bone() })
    local gx, gy = point(sk, "gun", 20, 0)
    local tx, ty = sk:chain("a", "b"):tip()
    assert.near(0, dist(tx, ty, gx, gy), 0.01 + 1e-9)
    local x, y = h:goal()
    assert.near(gx, x, 1e-9)
    assert.near(gy, y, 1e-9)
  end)

  for _, flip in ipairs{ false, true } do
    it(("a state's target may be a bone: the hand moves there smoothly, then holds it as the bone moves%s")
        :format(flip and ", flipped" or ""), function()
      local sk, back, front = rifleman(flip)
      local grip = { skeleton = sk, bone = "rifle", x = 22, y = 2 }
      local h = behaviour.new(back, { idle = { weight = 0 }, grip = { blend = 0.2, rate = 15, target = grip } })
      local hx, hy = sk:tip("fore_b")         -- the hand, weight 0: where the target leaves from
      local gx0, gy0 = point(sk, "rifle", 22, 2)
      h:set_state("grip")
      -- the first update: 1 - exp(-15 dt) of the way from the hand
      h:update(DT)
      local k = 1 - math.exp(-15 * DT)
      local px, py = back:target()
      assert.near(hx + (gx0 - hx) * k, px, 1e-9)
      assert.near(hy + (gy0 - hy) * k, py, 1e-9)
      sk:solve()
      -- then on the rifle, swaying: the offset on it closes by the same
      -- share every frame, wherever the rifle goes
      local _, _, ox, oy = back:target_bone()
      for f = 2, 120 do
        front:set_target((flip and 265 or 335) + 10 * math.sin(f / 10), 240 + 5 * math.sin(f / 7))
        h:update(DT)
        sk:solve()
        local _, _, dx, dy = back:target_bone()
        assert.near(ox + (22 - ox) * k, dx, 1e-9)
        assert.near(oy + (2 - oy) * k, dy, 1e-9)
        ox, oy = dx, dy
      end
      local bsk, bone, dx, dy = back:target_bone()
      assert.are.equal(sk, bsk)
      assert.are.equal("rifle", bone)
      assert.near(22, dx, 1e-9)
      assert.near(2, dy, 1e-9)
      -- the hand on the grip where this frame's solve put the rifle
      local gx, gy = point(sk, "rifle", 22, 2)
      hx, hy = sk:tip("fore_b")
      assert.near(0, dist(hx, hy, gx, gy), 0.01 + 1e-9)
      local x, y = h:goal()
      assert.near(gx, x, 1e-9)
      assert.near(gy, y, 1e-9)
      x, y = h:target()
      assert.near(gx, x, 1e-6)
      assert.near(gy, y, 1e-6)
    end)
  end

  it("at rate math.huge the target is on the bone at once; leaving it smooths from there", function()
    local sk, back = rifleman(false)
    local h = behaviour.new(back, {
      idle = { weight = 0 },
      grip = { blend = 0, rate = math.huge, target = { skeleton = sk, bone = "rifle", x = 22, y = 2 } },
      wave = { target = { 250, 200 }, rate = 12 } })
    h:set_state("grip")
    h:update(DT)
    assert.are.same({ sk, "rifle", 22, 2 }, { back:target_bone() })
    sk:solve()
    local gx, gy = point(sk, "rifle", 22, 2)
    h:set_state("wave")
    h:update(DT)
    assert.is_nil(back:target_bone())
    local tx, ty = back:target()
    local k = 1 - math.exp(-12 * DT)
    assert.near(gx + (250 - gx) * k, tx, 1e-9)
    assert.near(gy + (200 - gy) * k, ty, 1e-9)
  end)

  it("set_target in a bone state holds that world point on the bone", function()
    local sk, back = rifleman(false)
    local h = behaviour.new(back, { grip = { target = { skeleton = sk, bone = "rifle", x = 22, y = 2 } } },
      { initial = "grip" })
    local gx, gy = point(sk, "rifle", 10, -3)
    h:set_target(gx, gy)
    local _, _, dx, dy = back:target_bone()
    assert.near(10, dx, 1e-9)
    assert.near(-3, dy, 1e-9)
  end)

  it("bone sources are checked at new and at set_state, naming the state and the field", function()
    local sk, back = rifleman(false)
    local err = helpers.caller_error
    local function new(target) return behaviour.new(back, { idle = {}, grip = { target = target } }) end
    assert.are.equal("ik2d.behaviour: new: state 'grip': target skeleton must be an ik2d skeleton, got table",
      err(function() new{ skeleton = {}, bone = "rifle" } end))
    assert.are.equal("ik2d.behaviour: new: state 'grip': target bone must be a bone of the skeleton "
      .. "(a name or an index in 1..8), got \"gun\"", err(function() new{ skeleton = sk, bone = "gun" } end))
    assert.are.equal("ik2d.behaviour: new: state 'grip': target bone must be a bone of the skeleton "
      .. "(a name or an index in 1..8), got 9", err(function() new{ skeleton = sk, bone = 9 } end))
    assert.are.equal("ik2d.behaviour: new: state 'grip': target x must be a finite number, got nan",
      err(function() new{ skeleton = sk, bone = "rifle", x = 0 / 0 } end))
    assert.are.equal("ik2d.behaviour: new: state 'grip': target has an unknown field (known: bone, skeleton, x, y), "
      .. "got \"dx\"", err(function() new{ skeleton = sk, bone = "rifle", dx = 1 } end))
    local proxy = {}
    for _, m in ipairs{ "target", "set_target", "weight", "set_weight", "result", "tolerance", "chain" } do
      proxy[m] = function(_, ...) return back[m](back, ...) end
    end
    assert.are.equal("ik2d.behaviour: new: state 'grip': a target on a bone needs a solver with set_target_bone and "
      .. "target_bone, got table",
      err(function() behaviour.new(proxy, { grip = { target = { skeleton = sk, bone = "rifle" } } }) end))
    local src = { skeleton = sk, bone = "rifle" }
    local b = new(src)
    src.bone = "barrel"
    assert.are.equal("ik2d.behaviour: set_state: state 'grip': target bone must be a bone of the skeleton "
      .. "(a name or an index in 1..8), got \"barrel\"", err(function() b:set_state("grip") end))
    assert.are.equal("idle", b:state())
  end)

  it("all or nothing: a raising callback or source leaves the solver's bone target as it was", function()
    local sk, back = rifleman(false)
    local fail = false
    local src = { skeleton = sk, bone = "rifle", x = 22, y = 2 }
    local h = behaviour.new(back, {
      idle = { weight = 0 },
      grip = { target = src, rate = 10, on_enter = function() if fail then error("no", 0) end end },
      wave = { target = function() if fail then error("down", 0) end return 250, 200 end } })
    fail = true
    assert.has_error(function() h:set_state("grip") end, "no")
    assert.is_nil(back:target_bone())
    fail = false
    h:set_state("grip")
    for _ = 1, 5 do h:update(DT) end
    local before = { back:target_bone() }
    local tx, ty = h:target()
    h:set_state("wave")
    fail = true
    assert.has_error(function() h:update(DT) end, "down")
    assert.are.same(before, { back:target_bone() })
    local x, y = h:target()
    assert.near(tx, x, 1e-9)
    assert.near(ty, y, 1e-9)
  end)
end)

describe("ik2d.behaviour over a set of named solvers", function()
  -- Two arms, at (0, 0) and (100, 0), each reaching 100, and their solvers.
  local function hands(opts)
    local function arm(x)
      local c = ik2d.chain{ x = x, y = 0, { length = 50, angle = 0.3 }, { length = 50, angle = 0.4 } }
      c:set_pose(1, 0.3)
      c:set_pose(2, 0.4)
      local o = { weight = 0, iterations = 20, tolerance = 0.01 }
      for k, v in pairs(opts or {}) do o[k] = v end
      return c, ik2d.solver(c, o)
    end
    local lc, ls = arm(0)
    local rc, rs = arm(100)
    return { left = ls, right = rs }, lc, rc
  end

  local box = { left = { 40, 60 }, right = { 60, 60 } }

  -- idle: both hands off; lift: each hand to its handle; wave: the left
  -- hand alone, the right one off
  local function set_states(extra)
    local t = {
      idle = { weight = 0, blend = 0.2 },
      lift = { blend = 0.3, rate = 15, left = { target = box.left }, right = { target = box.right } },
      wave = { left = { weight = 0.8, target = function() return -30, -40 end, blend = 0.1 },
               right = { weight = 0 } },
    }
    for k, v in pairs(extra or {}) do t.lift[k] = v end
    return t
  end

  local function step_both(b, s, n)
    for _ = 1, n do
      b:update(DT)
      s.left:solve()
      s.right:solve()
    end
  end

  it("starts both solvers in the initial state at once", function()
    local s = hands{ weight = 1 }
    local b = behaviour.new(s, set_states())
    assert.are.equal("idle", b:state())
    assert.are.equal(0, s.left:weight())
    assert.are.equal(0, s.right:weight())
    assert.are.equal(0, b:weight("left"))
    assert.is_false(b:blending())
    assert.are.same({ "left", "right" }, b:solvers())
    assert.are.equal(s.right, b:solver("right"))
  end)

  it("one set_state switches them together, each to its own weight and target", function()
    local s = hands()
    local b = behaviour.new(s, set_states())
    assert.is_true(b:set_state("lift"))
    step_both(b, s, 9)                                    -- 0.15 s of 0.3: half way, both
    assert.near(0.5, s.left:weight(), 1e-9)
    assert.near(0.5, s.right:weight(), 1e-9)
    assert.is_true(b:blending())
    assert.is_true(b:blending("right"))
    assert.are.equal(15, b:rate("left"))
    local gx, gy = b:goal("right")
    assert.are.same({ 60, 60 }, { gx, gy })
    step_both(b, s, 120)
    assert.are.equal(1, s.left:weight())
    assert.are.equal(1, b:weight("right"))
    assert.is_false(b:blending())
    local lx, ly = s.left:chain():tip()
    local rx, ry = s.right:chain():tip()
    assert.is_true(dist(lx, ly, 40, 60) <= 0.01 + 1e-9)
    assert.is_true(dist(rx, ry, 60, 60) <= 0.01 + 1e-9)
    local tx, ty = b:target("left")
    local sx, sy = s.left:target()
    assert.are.same({ sx, sy }, { tx, ty })
  end)

  it("a state's own weight, blend, rate and target are every solver's defaults", function()
    local s = hands()
    local point = { 50, 50 }
    local b = behaviour.new(s, { idle = { weight = 0 },
      both = { weight = 0.5, blend = 0, rate = math.huge, target = point, right = { weight = 0.25 } } })
    b:set_state("both")
    b:update(DT)
    assert.are.equal(0.5, s.left:weight())
    assert.are.equal(0.25, s.right:weight())
    for _, name in ipairs{ "left", "right" } do
      local x, y = s[name]:target()
      assert.are.same({ 50, 50 }, { x, y })
      assert.are.equal(math.huge, b:rate(name))
    end
  end)

  it("a solver a state leaves out takes the state's fields (weight 1 holding its tip by default)", function()
    local s, _, rc = hands()
    local b = behaviour.new(s, { idle = { weight = 0 }, left_only = { left = { target = { 30, 30 } } } })
    local rx, ry = rc:tip()
    b:set_state("left_only", true)
    b:update(DT)
    assert.are.equal(1, s.right:weight())
    local tx, ty = s.right:target()
    assert.are.same({ rx, ry }, { tx, ty })
  end)

  it("solve = true solves every solver in the set, in the order of their names", function()
    local s, lc, rc = hands()
    local order = {}
    local proxy = {}
    for name, sv in pairs(s) do
      proxy[name] = setmetatable({}, { __index = function(_, m)
        if m == "solve" then return function() order[#order + 1] = name; return sv:solve() end end
        return function(_, ...) return sv[m](sv, ...) end
      end })
    end
    local b = behaviour.new(proxy, set_states(), { solve = true })
    b:set_state("lift")
    for _ = 1, 120 do b:update(DT) end
    assert.are.same({ "left", "right" }, { order[1], order[2] })
    assert.is_true(helpers.tip_distance(lc, 40, 60) <= 0.01 + 1e-9)
    assert.is_true(helpers.tip_distance(rc, 60, 60) <= 0.01 + 1e-9)
  end)

  describe("on_reached", function()
    -- Has one solver arrived, as on_reached judges it: weight blend done,
    -- its target within tolerance of the goal (x, y), its solve reached.
    local function arrived(b, s, name, x, y)
      local tx, ty = s:target()
      return not b:blending(name) and dist(tx, ty, x, y) <= s:tolerance() and (s:result())
    end

    for _, solve in ipairs{ true, false } do
      it("fires once when every solver with a weight above 0 has arrived, not before (solve = "
         .. tostring(solve) .. ")", function()
        local s, lc, rc = hands()
        local fired, left_first, right_first = {}, nil, nil
        local right_handle = { 60, 60 }
        local b = behaviour.new(s, { idle = { weight = 0 },
          lift = { blend = 0.3, rate = 15, left = { target = box.left }, right = { target = right_handle, rate = 4 },
                   on_reached = function(h) fired[#fired + 1] = h.frame end } }, { solve = solve })
        b:set_state("lift")
        for frame = 1, 240 do
          b.frame = frame
          b:update(DT)
          if not solve then s.left:solve(); s.right:solve() end
          if not left_first and arrived(b, s.left, "left", 40, 60) then left_first = frame end
          if not right_first and arrived(b, s.right, "right", 60, 60) then right_first = frame end
        end
        assert.is_number(left_first)
        assert.is_number(right_first)
        assert.is_true(right_first > left_first + 10)       -- the right hand is slower
        assert.are.equal(1, #fired)
        -- the left hand alone was not enough; solve = false reads the solve a frame late
        assert.are.equal(solve and right_first or right_first + 1, fired[1])
        assert.is_true(helpers.tip_distance(lc, 40, 60) <= 0.02)
        assert.is_true(helpers.tip_distance(rc, 60, 60) <= 0.02)
      end)
    end

    it("ignores the solvers at weight 0 in the state; the others may be below 1", function()
      local s = hands()
      local n = 0
      local st = set_states()
      st.wave.on_reached = function() n = n + 1 end
      local b = behaviour.new(s, st, { solve = true })
      b:set_state("wave")
      for _ = 1, 120 do b:update(DT) end
      assert.are.equal(1, n)
      assert.are.equal(0, s.right:weight())
      assert.are.equal(0.8, s.left:weight())
    end)

    it("in a state where every weight is 0, fires when every solver arrives (as for one solver)", function()
      local s = hands()
      local n = 0
      local st = set_states()
      st.idle.on_reached = function() n = n + 1 end
      local b = behaviour.new(s, st, { solve = true })
      for _ = 1, 10 do b:update(DT) end
      assert.are.equal(1, n)
    end)
  end)

  describe("entering a reach state after the chains have moved", function()
    it("each solver's target leaves from its hand", function()
      local s, lc, rc = hands{ weight = 1 }
      local b = behaviour.new(s, set_states())
      for _ = 1, 5 do
        lc:set_base(-20, 30)
        rc:set_base(130, 10)
        step_both(b, s, 1)
      end
      local lx, ly = lc:tip()
      local rx, ry = rc:tip()
      b:set_state("lift")
      local x, y = b:target("left")
      assert.are.same({ lx, ly }, { x, y })
      x, y = b:target("right")
      assert.are.same({ rx, ry }, { x, y })
    end)
  end)

  describe("set_target", function()
    it("takes the solver's name first", function()
      local s = hands()
      local b = behaviour.new(s, set_states())
      assert.are.equal(b, b:set_target("right", -10, 5))
      local x, y = s.right:target()
      assert.are.same({ -10, 5 }, { x, y })
      x, y = b:goal("right")
      assert.are.same({ -10, 5 }, { x, y })
      local lx = s.left:target()
      assert.are_not.equal(-10, lx)
      b:set_target(7, 8, "left")                    -- the name may come last
      x, y = s.left:target()
      assert.are.same({ 7, 8 }, { x, y })
    end)
  end)

  describe("all or nothing", function()
    local function observe(b, s)
      local t = { b:state() or "-", b:previous() or "-", b:time(), b:blending() }
      for _, name in ipairs{ "left", "right" } do
        local x, y = b:target(name)
        local gx, gy = b:goal(name)
        local tx, ty = s[name]:target()
        for _, v in ipairs{ b:weight(name), b:blending(name), b:rate(name), x, y, gx, gy, tx, ty, s[name]:weight() } do
          t[#t + 1] = v
        end
      end
      return t
    end

    it("a raising source of the second solver leaves the first as it was too", function()
      local s = hands()
      local fail = false
      local b = behaviour.new(s, { idle = { weight = 0 }, lift = { left = { target = { 40, 60 } },
        right = { target = function() if fail then error("handle gone", 0) end return 60, 60 end } } })
      b:set_state("lift")
      step_both(b, s, 3)
      local before = observe(b, s)
      fail = true
      assert.has_error(function() b:update(DT) end, "handle gone")
      assert.are.same(before, observe(b, s))
      assert.has_error(function() b:set_state("idle"); b:set_state("lift") end, "handle gone")
      assert.are.equal("idle", b:state())
      fail = false
      b:set_state("lift")
      assert.are.equal("lift", b:state())
    end)

    it("a raising callback undoes the switch of every solver, instant weights included", function()
      local s = hands()
      local raise = true
      local b = behaviour.new(s, set_states{ on_enter = function() if raise then error("no", 0) end end })
      local before = observe(b, s)
      assert.has_error(function() b:set_state("lift", true) end, "no")
      assert.are.same(before, observe(b, s))
      raise = false
      b:set_state("lift", true)
      assert.are.equal(1, s.left:weight())
      assert.are.equal(1, s.right:weight())
    end)

    it("a raising on_reached leaves both solvers' targets and weights as they were", function()
      local s = hands()
      local raise, calls = true, 0
      local b = behaviour.new(s, set_states{ on_reached = function()
        calls = calls + 1
        if raise then error("busy", 0) end
      end })
      b:set_state("lift")
      local before
      for _ = 1, 240 do
        before = observe(b, s)
        local ok = pcall(b.update, b, DT)
        if not ok then break end
        s.left:solve(); s.right:solve()
      end
      assert.are.equal(1, calls)
      assert.are.same(before, observe(b, s))
      raise = false
      b:update(DT)
      assert.are.equal(2, calls)
    end)
  end)

  describe("refused calls", function()
    local err = helpers.caller_error

    it("refuses bad solver sets, naming the solver", function()
      local s = hands()
      assert.are.equal("ik2d.behaviour: new: solver 'right' must be an ik2d solver (target, set_target, weight, "
        .. "set_weight, result, tolerance, chain), got 5",
        err(function() behaviour.new({ left = s.left, right = 5 }, {}) end))
      assert.are.equal("ik2d.behaviour: new: a solver set must map names (strings) to solvers, got 1",
        err(function() behaviour.new({ s.left, s.right }, {}) end))
      assert.are.equal("ik2d.behaviour: new: a solver cannot be named as a state field (blend, on_enter, "
        .. "on_exit, on_reached, rate, target, weight), got \"blend\"",
        err(function() behaviour.new({ blend = s.left }, {}) end))
      assert.are.equal("ik2d.behaviour: new: solvers 'a' and 'b' are the same solver",
        err(function() behaviour.new({ a = s.left, b = s.left }, {}) end))
      assert.are.equal("ik2d.behaviour: new: solver must be an ik2d solver (target, set_target, weight, "
        .. "set_weight, result, tolerance, chain) or a table of named solvers, got an empty table",
        err(function() behaviour.new({}, {}) end))
      assert.are.equal("ik2d.behaviour: new: solver 'left' must be an ik2d solver (target, set_target, weight, "
        .. "set_weight, result, tolerance, chain, solve), got table",
        err(function() behaviour.new({ left = { target = true } }, {}, { solve = true }) end))
    end)

    it("refuses bad per-solver fields, naming the state and the solver", function()
      local s = hands()
      assert.are.equal("ik2d.behaviour: new: state 'lift': left: weight must be a number in [0, 1], got 2",
        err(function() behaviour.new(s, { lift = { left = { weight = 2 } } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'lift': right has an unknown field (known: blend, rate, "
        .. "target, weight), got \"on_reached\"",
        err(function() behaviour.new(s, { lift = { right = { on_reached = print } } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'lift': right must be a table or nil, got 3",
        err(function() behaviour.new(s, { lift = { right = 3 } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'lift' has an unknown field (known: blend, left, on_enter, "
        .. "on_exit, on_reached, rate, right, target, weight), got \"middle\"",
        err(function() behaviour.new(s, { lift = { middle = {} } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'lift': left: target must give finite numbers x, y, got nan",
        err(function() behaviour.new(s, { lift = { left = { target = { 0 / 0, 1 } } } }) end))
      assert.are.equal("ik2d.behaviour: new: state 'lift': target must be a point table, a function, "
        .. "{ chain = c } or { skeleton = sk, bone = b }, got 7",
        err(function() behaviour.new(s, { lift = { target = 7 } }) end))
      local bad = { 1, 2 }
      local b = behaviour.new(s, { idle = {}, lift = { right = { target = bad } } })
      bad[2] = math.huge
      assert.are.equal("ik2d.behaviour: set_state: state 'lift': right: target must give finite numbers x, y, got inf",
        err(function() b:set_state("lift") end))
      assert.are.equal("idle", b:state())
    end)

    it("asks for a solver's name in a set, and for none with one solver", function()
      local s = hands()
      local b = behaviour.new(s, set_states())
      assert.are.equal("ik2d.behaviour: target: name must be one of the solvers (left, right), got nil",
        err(function() b:target() end))
      assert.are.equal("ik2d.behaviour: weight: name must be one of the solvers (left, right), got \"middle\"",
        err(function() b:weight("middle") end))
      assert.are.equal("ik2d.behaviour: set_target: name must be one of the solvers (left, right), got 1",
        err(function() b:set_target(1, 2) end))
      assert.are.equal("ik2d.behaviour: set_target: y must be a finite number, got nil",
        err(function() b:set_target("left", 1) end))
      local one = behaviour.new(s.left, { idle = {} })
      assert.are.equal("ik2d.behaviour: goal: name must be nil (the behaviour drives one solver), got \"left\"",
        err(function() one:goal("left") end))
      assert.are.same({}, one:solvers())
      assert.are.equal(s.left, one:solver())
    end)
  end)
end)
