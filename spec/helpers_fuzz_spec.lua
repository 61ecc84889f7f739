-- The helpers under random calls with random and hostile arguments (nil,
-- NaN, +-inf, +-1e308, the largest double, denormals, strings, tables,
-- booleans), raising sources, raising callbacks and raising subjects,
-- with a fixed seed (helpers.random: the same sequence on Lua 5.4 and
-- LuaJIT).  After every call, whatever it did:
--   * every value read back through the public getters is finite (no
--     helper ever stores a non-finite value);
--   * a call that raised changed nothing those getters (and the subject's
--     getters) can see, and its error is either the helpers' own
--     ("ik2d.<helper>: ...") or the one injected, never an error from
--     inside a helper ("attempt to compare number with nil").
-- Subjects are fakes in plain Lua where a real solver is not needed (they
-- can be told to raise on their next call), and real ik2d solvers and
-- chains (behind a proxy that can raise) elsewhere.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local MAX = 1.7976931348623157e308
local NIL = {}                    -- stands for nil in the lists below
local HOSTILE = { NIL, 0 / 0, math.huge, -math.huge, 1e308, -1e308, MAX, -MAX,
                  4.9e-324, -1, 0, "1", "idle", {}, true, false }
local STEPS = helpers.size(1000, 3000)   -- random calls per run (IK2D_LONG=1: the long runs)

local function is_finite(v)
  return type(v) == "number" and v == v and v ~= math.huge and v ~= -math.huge
end

local function injected()
  error("injected", 0)
end

-- A fuzzing context: its random numbers and argument makers.
local function context(seed)
  local rng = helpers.random(seed)
  local c = { rng = rng }
  function c.chance(p) return rng.next() < p end
  function c.int(lo, hi) return lo + math.floor(rng.next() * (hi - lo + 1)) end
  function c.pick(list)
    local v = list[c.int(1, #list)]
    if v == NIL then return nil end
    return v
  end
  -- a hostile value a third of the time, else a number in [lo, hi]
  function c.number(lo, hi)
    if c.chance(1 / 3) then return c.pick(HOSTILE) end
    return rng.range(lo, hi)
  end
  return c
end

-- Runs `steps` random actions; after each, observe() must give finite
-- numbers, and a failed action must leave observe() as it was.
local function fuzz(c, actions, observe, steps)
  local failed, passed = 0, 0
  for step = 1, steps do
    local k = c.int(1, #actions)
    local name, act = actions[k][1], actions[k][2]
    local before = observe()
    local ok, err = pcall(act)
    local after = observe()
    for i, v in ipairs(after) do
      if type(v) == "number" then
        assert(is_finite(v), ("step %d (%s): value %d is %s"):format(step, name, i, tostring(v)))
      end
    end
    if ok then
      passed = passed + 1
    else
      failed = failed + 1
      local msg = tostring(err)
      assert(msg == "injected" or msg:find("ik2d%.%a+: "),
        ("step %d (%s): an error from inside a helper: %s"):format(step, name, msg))
      assert.are.same(before, after, ("step %d (%s) failed with %q and changed state"):format(step, name, msg))
    end
  end
  -- the fuzz reached both kinds of call
  assert.is_true(failed > steps / 20, "too few failing calls: " .. failed)
  assert.is_true(passed > steps / 5, "too few passing calls: " .. passed)
end

-- A subject for blend: weight/set_weight in plain Lua; set_weight raises
-- (changing nothing) when told to.
local function fake_subject()
  local s = { w = 0.5, raise = false }
  function s.weight(self) return self.w end
  function s.set_weight(self, w)
    if self.raise then injected() end
    self.w = w < 0 and 0 or w > 1 and 1 or w
  end
  return s
end

-- A chain in plain Lua with 3 bones whose joints the fuzz moves (#ch is
-- 3 through its array part: LuaJIT's tables have no __len).
local function fake_chain(c)
  local ch = { true, true, true, pts = { 0, 0, 10, 0, 20, 0, 30, 0 } }
  function ch.joint(self, i) return self.pts[2 * i - 1], self.pts[2 * i] end
  function ch.tip(self) return self:joint(4) end
  function ch.move()
    for i = 1, 8 do ch.pts[i] = c.chance(0.05) and c.number(-1e3, 1e3) or c.rng.range(-500, 500) end
    for i = 1, 8 do if not is_finite(ch.pts[i]) and c.chance(0.5) then ch.pts[i] = 0 end end
  end
  return ch
end

-- A solver in plain Lua: any method in `raise` raises (changing nothing).
local function fake_solver(c, chain)
  local s = { tx = 0, ty = 0, w = 0, reached = false, raise = {} }
  local function guard(self, m) if self.raise[m] then injected() end end
  function s.target(self) return self.tx, self.ty end
  function s.set_target(self, x, y)
    guard(self, "set_target")
    assert(is_finite(x) and is_finite(y), "a helper gave the solver a non-finite target")
    self.tx, self.ty = x, y
  end
  function s.weight(self) return self.w end
  function s.set_weight(self, w)
    guard(self, "set_weight")
    assert(is_finite(w), "a helper gave the solver a non-finite weight")
    self.w = w < 0 and 0 or w > 1 and 1 or w
  end
  function s.result(self) return self.reached, 0, 0 end
  function s.tolerance() return 0.5 end
  function s.chain() return chain end
  function s.solve(self)
    guard(self, "solve")
    self.reached = c.chance(0.5)
  end
  return s
end

-- A real object behind a proxy whose methods raise when told to (#p is
-- #obj, through the array part under LuaJIT).
local function fragile(obj)
  local p = { raise = {} }
  if type(obj) == "userdata" and debug.getmetatable(obj).__len then
    for i = 1, #obj do p[i] = true end
  end
  return setmetatable(p, {
    __len = function() return #obj end,
    __index = function(_, m)
      return function(self, ...)
        if self.raise[m] then injected() end
        return obj[m](obj, ...)
      end
    end,
  })
end

local EASINGS = { NIL, "linear", "smoothstep", "quadin", "quadout", "quadinout", "cubicin",
                  "cubicout", "cubicinout", "bogus", 7 }

describe("helpers fuzz", function()
  it("blend: random calls on a fake subject, a real solver and standalone", function()
    local c = context(1401)
    local subject = fake_subject()
    local solver = fragile(ik2d.solver(ik2d.chain{ { length = 1 } }))
    local blends = { ik2d.blend.new(subject), ik2d.blend.new(solver), ik2d.blend.new(0.3) }
    local b = blends[1]
    local function easing()
      if c.chance(0.2) then
        local mode = c.int(1, 3)
        if mode == 1 then return function() injected() end end
        local v = c.number(-0.5, 1.5)
        if mode == 2 then return function() return v end end
        return function(t) return t * t end
      end
      return c.pick(EASINGS)
    end
    local function callback()
      local mode = c.int(1, 5)
      if mode == 1 then return injected end
      if mode == 2 then return function(self) self:to(c.number(0, 1), c.number(0, 1)) end end
      if mode == 3 then return c.pick(HOSTILE) end
      if mode == 4 then return nil end
      return function() end
    end
    local actions = {
      { "switch blend", function() b = blends[c.int(1, #blends)] end },
      { "to", function() b:to(c.number(-0.5, 1.5), c.number(0, 2), easing()) end },
      { "to, raising subject", function()
        subject.raise, solver.raise.set_weight = true, true
        local ok, err = pcall(b.to, b, c.number(0, 1), c.pick{ 0, NIL, 0.5 })
        subject.raise, solver.raise.set_weight = false, false
        if not ok then error(err, 0) end
      end },
      { "update", function() b:update(c.number(0, 0.2)) end },
      { "update, raising subject", function()
        subject.raise, solver.raise.set_weight = true, true
        local ok, err = pcall(b.update, b, c.rng.range(0, 0.3))
        subject.raise, solver.raise.set_weight = false, false
        if not ok then error(err, 0) end
      end },
      { "on_done", function() b:on_done(callback()) end },
      { "new", function() ik2d.blend.new(c.number(0, 1)) end },
      { "someone else sets the weight", function() subject.w = c.rng.next() end },
    }
    fuzz(c, actions, function()
      local t = {}
      for _, x in ipairs(blends) do
        t[#t + 1] = x:value(); t[#t + 1] = x:target(); t[#t + 1] = x:done(); t[#t + 1] = x:progress()
      end
      t[#t + 1] = subject.w
      t[#t + 1] = solver:weight()
      return t
    end, STEPS)
  end)

  it("smooth: random calls with hostile numbers", function()
    local c = context(2718)
    local f = ik2d.smooth.new{ rate = 5 }
    local actions = {
      { "set_goal", function() f:set_goal(c.number(-MAX, MAX), c.number(-1e3, 1e3)) end },
      { "set_goal huge", function() f:set_goal(c.pick{ 1e308, -1e308, MAX, -MAX, 0 }, c.pick{ MAX, -MAX, 0 }) end },
      { "set_position", function() f:set_position(c.number(-MAX, MAX), c.number(-MAX, MAX)) end },
      { "update", function() f:update(c.number(0, 1)) end },
      { "set_rate", function() f:set_rate(c.pick{ 0, math.huge, 1, 1e308, 4.9e-324 } or c.number(0, 50)) end },
      { "hostile rate", function() f:set_rate(c.number(0, 50)) end },
      { "snap", function() f:snap() end },
      { "new", function() ik2d.smooth.new{ x = c.number(-1, 1), y = c.number(-1, 1), rate = c.number(0, 9) } end },
    }
    fuzz(c, actions, function()
      local x, y = f:position()
      local gx, gy = f:goal()
      local d, rate = f:distance(), f:rate()
      assert(d == d and d >= 0, "distance is " .. tostring(d))
      -- math.huge is a rate (at once), not an overflow
      return { x, y, gx, gy, rate == math.huge and "at once" or rate }
    end, STEPS)
  end)

  -- The states every behaviour in the fuzz has: every kind of source, and
  -- callbacks that raise or switch state when told to.
  local function behaviour_states(c, chain, flags)
    local point = { 10, 20 }
    local named = { x = 5, y = -5 }
    local function cb(kind)
      return function(h)
        if flags.raise == kind then injected() end
        if flags.depth < 2 and c.chance(0.2) then
          flags.depth = flags.depth + 1
          local ok, err = pcall(h.set_state, h, c.pick{ "idle", "point", "fn", "ledge" })
          flags.depth = flags.depth - 1
          if not ok then error(err, 0) end
        end
      end
    end
    local function with(t)
      t.on_enter, t.on_exit, t.on_reached = cb("enter"), cb("exit"), cb("reached")
      return t
    end
    return {
      idle = with{ weight = 0, blend = 0.2 },
      point = with{ weight = 1, blend = 0.3, target = point, rate = 8 },
      named = with{ weight = 0.5, blend = 0, target = named, rate = math.huge },
      fn = with{ weight = 0.7, target = function()
        if flags.raise == "source" then injected() end
        return flags.fx, flags.fy
      end },
      ledge = with{ target = { chain = chain, joint = 2, dx = 1 } },
    }, point, named
  end

  local function behaviour_actions(c, h, flags, point, named, solver, chain_move)
    return {
      { "set_state", function() h:set_state(c.pick{ "idle", "point", "named", "fn", "ledge", "nope", NIL, 3 },
                                            c.pick{ NIL, true, false, 1 }) end },
      { "update", function() h:update(c.number(0, 0.1)) end },
      { "update again", function() h:update(c.rng.range(0, 0.05)) end },
      { "set_target", function() h:set_target(c.number(-1e3, 1e3), c.number(-1e3, 1e3)) end },
      { "move the point source", function()
        point[1], point[2] = c.number(-1e3, 1e3), c.number(-1e3, 1e3)
        named.x = c.number(-MAX, MAX)
      end },
      { "calm the point source", function() point[1], point[2], named.x = 1, 2, 3 end },
      { "the function source returns", function() flags.fx, flags.fy = c.number(-MAX, MAX), c.number(-9, 9) end },
      { "a raising source or callback", function()
        flags.raise = c.pick{ false, false, "source", "enter", "exit", "reached" }
      end },
      { "a raising solver", function()
        solver.raise = {}
        if c.chance(0.5) then solver.raise[c.pick{ "set_target", "set_weight", "solve" }] = true end
      end },
      { "the chain moves", chain_move },
    }
  end

  local function behaviour_observe(h, solver)
    return function()
      local x, y = h:target()
      local gx, gy = h:goal()
      local tx, ty = solver:target()
      return { h:state() or "-", h:previous() or "-", h:time(), h:weight(), h:blending(),
               x, y, gx, gy, tx, ty, solver:weight() }
    end
  end

  for _, solve in ipairs{ false, true } do
    it("behaviour: random calls on a fake solver (solve = " .. tostring(solve) .. ")", function()
      local c = context(solve and 3141 or 1618)
      local chain = fake_chain(c)
      local solver = fake_solver(c, chain)
      local flags = { raise = false, depth = 0, fx = 1, fy = 2 }
      local states, point, named = behaviour_states(c, chain, flags)
      local h = ik2d.behaviour.new(solver, states, { solve = solve })
      local actions = behaviour_actions(c, h, flags, point, named, solver, function()
        chain.move()
        solver.reached = c.chance(0.5)
      end)
      fuzz(c, actions, behaviour_observe(h, solver), STEPS)
    end)

    it("behaviour: random calls on a real solver and chains (solve = " .. tostring(solve) .. ")", function()
      local c = context(solve and 4669 or 2502)
      local arm = ik2d.chain{ x = 0, y = 0, { length = 50 }, { length = 40, min = -2, max = 0.3 } }
      local ledge = ik2d.chain{ x = 60, y = 10, { length = 20 }, { length = 20 } }
      local real = ik2d.solver(arm, { weight = 0 })
      local solver = fragile(real)
      local flags = { raise = false, depth = 0, fx = 1, fy = 2 }
      local states, point, named = behaviour_states(c, ledge, flags)
      local h = ik2d.behaviour.new(solver, states, { solve = solve })
      local actions = behaviour_actions(c, h, flags, point, named, solver, function()
        ledge:set_base(c.rng.range(-200, 200), c.rng.range(-200, 200), c.rng.range(-4, 4))
        arm:set_base(c.rng.range(-200, 200), c.rng.range(-200, 200))
        if not solve then real:solve() end
      end)
      fuzz(c, actions, behaviour_observe(h, solver), STEPS)
    end)
  end

  for _, solve in ipairs{ false, true } do
    it("behaviour: random calls on a set of two solvers, fake and real (solve = " .. tostring(solve) .. ")",
      function()
        local c = context(solve and 7919 or 6007)
        local fchain = fake_chain(c)
        local fake = fake_solver(c, fchain)
        local arm = ik2d.chain{ x = 0, y = 0, { length = 50 }, { length = 40, min = -2, max = 0.3 } }
        local real = ik2d.solver(arm, { weight = 0 })
        local proxy = fragile(real)
        local flags = { raise = false, depth = 0, fx = 1, fy = 2 }
        local base = behaviour_states(c, fchain, flags)
        -- the same states, each solver given its own part of some
        local point, named = { 10, 20 }, { x = 5, y = -5 }
        local states = {
          idle = base.idle,
          point = { weight = 1, blend = 0.3, rate = 8, a = { target = point }, b = { target = named, weight = 0.5 },
                    on_enter = base.point.on_enter, on_exit = base.point.on_exit,
                    on_reached = base.point.on_reached },
          named = { weight = 0.5, blend = 0, target = named, rate = math.huge, b = { weight = 0 },
                    on_reached = base.named.on_reached },
          fn = base.fn,
          ledge = { a = { target = { chain = fchain, joint = 2, dx = 1 } }, b = { weight = 0.25, blend = 0.1 },
                    on_enter = base.ledge.on_enter, on_reached = base.ledge.on_reached },
        }
        local solvers = { a = fake, b = proxy }
        local h = ik2d.behaviour.new(solvers, states, { solve = solve })
        local actions = behaviour_actions(c, h, flags, point, named, fake, function()
          fchain.move()
          fake.reached = c.chance(0.5)
          arm:set_base(c.rng.range(-200, 200), c.rng.range(-200, 200))
          if not solve then real:solve() end
        end)
        for k, act in ipairs(actions) do
          if act[1] == "set_target" then
            actions[k] = { "set_target", function()
              h:set_target(c.pick{ "a", "b", "c", NIL, 1 }, c.number(-1e3, 1e3), c.number(-1e3, 1e3))
            end }
          elseif act[1] == "a raising solver" then
            actions[k] = { "a raising solver", function()
              fake.raise, proxy.raise = {}, {}
              if c.chance(0.5) then
                local which = c.pick{ fake, proxy }
                which.raise[c.pick{ "set_target", "set_weight", "solve" }] = true
              end
            end }
          end
        end
        fuzz(c, actions, function()
          local t = { h:state() or "-", h:previous() or "-", h:time(), h:blending() }
          for _, name in ipairs{ "a", "b" } do
            local x, y = h:target(name)
            local gx, gy = h:goal(name)
            local tx, ty = solvers[name]:target()
            local rate = h:rate(name)
            if rate == math.huge then rate = "at once" end      -- a rate, not an overflow
            for _, v in ipairs{ h:weight(name), h:blending(name), rate, x, y, gx, gy, tx, ty,
                                solvers[name]:weight() } do
              t[#t + 1] = v
            end
          end
          return t
        end, STEPS)
      end)
  end

  it("attach: random links, removals and updates, with a chain that raises", function()
    local c = context(5772)
    local chains = {}
    for k = 1, 4 do
      chains[k] = ik2d.chain{ x = 10 * k, y = 0, angle = 0.1 * k, { length = 10 }, { length = 8 } }
    end
    local proxy = fragile(ik2d.chain{ { length = 5 } })
    chains[5] = proxy
    local rig = ik2d.attach.new()
    local function any() return c.chance(0.9) and chains[c.int(1, #chains)] or c.pick(HOSTILE) end
    local actions = {
      { "add", function()
        rig:add(any(), any(), c.pick{ NIL, 1, 2, 3, 4, 1.5, 0 / 0 }, c.pick{ NIL, 0, 0.3, -2, 0 / 0, 1e308 },
          c.pick{ NIL, { flip = false }, { inherit = "position" }, { inherit = "rotation", flip = true },
                  { inherit = "x" }, { flip = 1 }, 5 })
      end },
      { "remove", function() rig:remove(any()) end },
      { "update", function() rig:update() end },
      { "update, raising chain", function()
        proxy.raise.set_base = c.chance(0.7)
        local ok, err = pcall(rig.update, rig)
        proxy.raise.set_base = false
        if not ok then error(err, 0) end
      end },
      { "apply", function() rig:apply(c.pick{ 1, 2, 3, 0, NIL, 1.5 }) end },
      { "move a chain", function()
        local ch = chains[c.int(1, 4)]
        ch:set_base(c.rng.range(-100, 100), c.rng.range(-100, 100), c.rng.range(-7, 7))
        ch:set_flip(c.chance(0.5))
        ch:set_pose(1, c.rng.range(-3, 3))
      end },
    }
    fuzz(c, actions, function()
      local t = { rig:count() }
      for _, ch in ipairs(chains) do
        local x, y, a = ch:base()
        t[#t + 1] = x; t[#t + 1] = y; t[#t + 1] = a; t[#t + 1] = ch:flip()
      end
      return t
    end, STEPS)
  end)
end)
