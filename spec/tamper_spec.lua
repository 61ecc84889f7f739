-- Tampering from plain Lua: short of the debug library,
-- no script can make ik2d read freed memory or change a finalised object.
--
--   * A skeleton finalised (its __gc run while its chains are in use:
--     through the debug library here, a finaliser at lua_close or one that
--     keeps the chains): the chains it lets go keep the bones' limits, so
--     their solvers, groups and springs go on as with those limits held.
--   * Tables given to ik2d (options, a pole, gravity, definitions) are read
--     raw and options(t) writes raw: no metamethod runs inside an ik2d
--     call, so none can finalise the object in use, yield half-way, or
--     call ik2d again in the middle of a call; both cores alike.
--   * The metatables are protected: getmetatable(obj) gives the type's
--     name, never the table holding __gc.
--   * The pure core keeps each call's new settings in a table of that
--     call: a call nested in another (from a debug hook here; a finaliser
--     could do it) cannot mix them.
--
-- Under `make test-asan` a read of freed memory here is an ASan error.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

-- the real metatable, past __metatable
local raw_metatable = debug.getmetatable

local function finalise(o) raw_metatable(o).__gc(o) end

local function full()
  for _ = 1, 4 do collectgarbage() end
end

-- Allocates and frees enough for freed memory to be reused.
local function churn()
  local junk = {}
  for i = 1, 2000 do junk[i] = ik2d.constraint{ min = -1 - i * 1e-4, max = 3 } end
  for i = 1, 2000 do junk[i] = nil end
  full()
  for i = 1, 2000 do junk[i] = string.rep("x", 40) .. i end
  return junk
end

local function angles(chain)
  local out = {}
  for i = 1, #chain do out[i] = chain:angle(i) end
  return out
end

local function error_of(f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error, but the call succeeded")
  return tostring(err)
end

-- A metatable whose every read and write is counted (and does nothing).
local function spy()
  local seen = { reads = 0, writes = 0 }
  local mt = {
    __index = function() seen.reads = seen.reads + 1 end,
    __newindex = function() seen.writes = seen.writes + 1 end,
  }
  return seen, mt
end

describe("a skeleton finalised while its chains are in use", function()
  -- a limited arm of 3 bones and a limited tail of 2, all on one skeleton:
  -- s on the arm, g a group of a second solver on the arm, sp a spring on
  -- the tail
  local function rig()
    local o = {}
    o.sk = ik2d.skeleton{
      { name = "a", length = 1 },
      { name = "b", parent = "a", length = 1, min = -0.5, max = 0.5 },
      { name = "c", parent = "b", length = 1, min = -0.5, max = 0.5 },
      { name = "t1", parent = "a", length = 1, angle = 2 },
      { name = "t2", parent = "t1", length = 1, min = -0.25, max = 0.25 },
    }
    o.arm = o.sk:chain("a", "c")
    o.s = ik2d.solver(o.arm, { iterations = 30 })
    o.arm2 = o.sk:chain("a", "c")
    o.s2 = ik2d.solver(o.arm2, { method = "fabrik", iterations = 30 })
    o.g = ik2d.group{ o.s2 }
    o.tail = o.sk:chain("t1", "t2")
    o.sp = ik2d.spring(o.tail, { stiffness = 50, damping = 2, gravity = { 0, 30 } })
    return o
  end

  -- what the objects give after the skeleton was finalised and its memory
  -- reused; keep: with the bones' constraints held here (the reference)
  local function run(keep)
    local o = rig()
    local held = keep and { o.sk:constraint("b"), o.sk:constraint("c"), o.sk:constraint("t2") }
    finalise(o.sk)
    o.sk = nil
    full()
    local junk = churn()
    o.s:set_target(0.3, 2.9)
    o.s:solve()
    o.s2:set_target(-0.4, 2.8)
    o.g:solve()
    for _ = 1, 30 do o.sp:update(1 / 60) end
    return { arm = angles(o.arm), arm2 = angles(o.arm2), tail = angles(o.tail),
             held = held and #held, junk = #junk }
  end

  helpers.on_both_paths(ik2d, function()
    it("its chains keep the bones' limits: solver, group and spring give what they give with them held",
      function()
        local dropped, kept = run(false), run(true)
        assert.are.equal(3, kept.held)
        for _, name in ipairs{ "arm", "arm2", "tail" } do
          assert.are.same(kept[name], dropped[name], name)
        end
        -- and the limits held: the reach of 0.3, 2.9 needs more than 0.5 rad
        for _, name in ipairs{ "arm", "arm2" } do
          for i = 2, 3 do
            assert.is_true(math.abs(dropped[name][i]) <= 0.5 + 1e-12, name .. " bone " .. i)
          end
        end
        assert.is_true(math.abs(dropped.tail[2]) <= 0.25 + 1e-12)
      end)
  end)
end)

describe("option tables are read raw", function()
  local function solver()
    local chain = ik2d.chain{ { length = 1 }, { length = 1 } }
    return ik2d.solver(chain, { iterations = 12, weight = 0.75 })
  end

  local function settings(s)
    local t = s:options()
    t.pole = { s:pole() }
    return t
  end

  it("s:set_options: a pole's __index never runs, not even to finalise the solver mid-call", function()
    local s = solver()
    local calls = 0
    local pole = setmetatable({}, { __index = function(_, k)
      calls = calls + 1
      if k == "x" then
        finalise(s)
        full()
        churn()
      end
      return 1
    end })
    local before = settings(s)
    local err = error_of(s.set_options, s, { method = "two_bone", pole = pole })
    assert.truthy(err:find("pole x: number expected, got nil", 1, true), err)
    assert.are.equal(0, calls)
    assert.are.same(before, settings(s))
    s:set_target(1, 1)
    local _, distance = s:solve()
    assert.is_true(distance < 1)
  end)

  it("s:set_options and ik2d.solver: only the table's own fields count", function()
    local seen, mt = spy()
    local s = solver()
    s:set_options(setmetatable({ iterations = 3, pole = setmetatable({ 4, 5 }, mt) }, mt))
    assert.are.equal(3, s:iterations())
    assert.are.same({ 4, 5 }, { s:pole() })
    s:set_options{ pole = setmetatable({ x = 6, y = 7 }, mt) }
    assert.are.same({ 6, 7 }, { s:pole() })
    -- an inherited option is not an option
    s:set_options(setmetatable({}, { __index = { weight = 0.25 } }))
    assert.are.equal(0.75, s:weight())
    local made = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } },
                             setmetatable({ tolerance = 0.5 }, { __index = { iterations = 2 } }))
    assert.are.equal(0.5, made:tolerance())
    assert.are.equal(10, made:iterations())
    assert.are.same({ reads = 0, writes = 0 }, seen)
  end)

  it("ik2d.solver: an options table's __index never runs, not even to finalise the chain", function()
    local chain = ik2d.chain{ { length = 1 }, { length = 1 } }
    local calls = 0
    local options = setmetatable({ pole = setmetatable({}, { __index = function()
      calls = calls + 1
      finalise(chain)
      return 1
    end }) }, {})
    local err = error_of(ik2d.solver, chain, options)
    assert.truthy(err:find("pole x: number expected, got nil", 1, true), err)
    assert.are.equal(0, calls)
    assert.are.equal(2, #chain)
  end)

  it("sp:set_options and ik2d.spring: __index never runs, not even to finalise the spring", function()
    local sp = ik2d.spring(ik2d.chain{ { length = 1 }, { length = 1, min = -0.5, max = 0.5 } })
    local calls = 0
    local before = sp:options()
    local options = setmetatable({}, { __index = function(_, k)
      calls = calls + 1
      if k == "stiffness" then
        finalise(sp)
        full()
        churn()
      end
      return 7
    end })
    sp:set_options(options)
    assert.are.equal(0, calls)
    assert.are.same(before, sp:options())
    sp:update(1 / 60)
    -- own fields only, gravity's too
    local seen, mt = spy()
    sp:set_options(setmetatable({ damping = 3, gravity = setmetatable({ 1, 2 }, mt) }, mt))
    assert.are.same({ 3, 1, 2 }, { sp:options().damping, sp:gravity() })
    local made = ik2d.spring(ik2d.chain{ { length = 1 } },
                             setmetatable({ mass = 2 }, { __index = { weight = 0.5 } }))
    assert.are.same({ 2, 1 }, { made:options().mass, made:weight() })
    assert.are.same({ reads = 0, writes = 0 }, seen)
  end)

  it("sp:set_options' per-bone arrays and sp:set_colliders read raw: no metamethod runs", function()
    local seen, mt = spy()
    local sp = ik2d.spring(ik2d.chain{ { length = 1 }, { length = 2 } })
    sp:set_options(setmetatable({ stiffness = setmetatable({ 5, 6 }, mt),
                                  wind = setmetatable({ 1, 2 }, mt) }, mt))
    assert.are.same({ 5, 6 }, sp:options().stiffness)
    sp:set_colliders(setmetatable({ setmetatable({ x = 1, y = 2, radius = 3 }, mt),
                                    setmetatable({ x1 = 0, y1 = 0, x2 = 1, y2 = 1 }, mt) }, mt))
    assert.are.same({ { x = 1, y = 2, radius = 3 }, { x1 = 0, y1 = 0, x2 = 1, y2 = 1 } }, sp:colliders())
    -- a circle's missing radius is not looked up either
    local msg = helpers.error_of(sp.set_colliders, sp,
                                 { setmetatable({ x = 1, y = 2 }, { __index = { radius = 3 } }) })
    helpers.check_message(msg, { "colliders[1].radius: number expected, got nil" })
    assert.are.same({ reads = 0, writes = 0 }, seen)
  end)

  it("s:options(t) and sp:options(t) write t raw, and read t.gravity raw", function()
    local seen, mt = spy()
    local t = setmetatable({}, mt)
    assert.are.equal(t, solver():options(t))
    assert.are.equal(12, rawget(t, "iterations"))
    assert.are.equal("ccd", rawget(t, "method"))
    local sp = ik2d.spring(ik2d.chain{ { length = 1 } }, { gravity = { 3, 4 } })
    local u = setmetatable({}, mt)
    sp:options(u)
    assert.are.same({ 3, 4 }, rawget(u, "gravity"))
    assert.are.equal(100, rawget(u, "stiffness"))
    assert.are.same({ reads = 0, writes = 0 }, seen)
  end)

  it("definitions: chain, skeleton and constraint tables' metatables are not consulted", function()
    local seen, mt = spy()
    local chain = ik2d.chain(setmetatable({ x = 2,
      setmetatable({ length = 1, min = -1, max = 1 }, mt) }, mt))
    assert.are.same({ 2, 0, 0 }, { chain:base() })
    local sk = ik2d.skeleton(setmetatable({ setmetatable({ name = "a", length = 1 }, mt),
      setmetatable({ name = "b", parent = "a", length = 2 }, mt) }, mt))
    assert.are.equal(2, sk:length("b"))
    ik2d.constraint(setmetatable({ min = -1, max = 1 }, mt))
    assert.are.same({ reads = 0, writes = 0 }, seen)
    local inherited = { __index = { length = 1 } }
    local err = error_of(ik2d.chain, { setmetatable({}, inherited) })
    assert.truthy(err:find("bone 1: length: number expected, got nil", 1, true), err)
    err = error_of(ik2d.skeleton, { setmetatable({ name = "a" }, inherited) })
    assert.truthy(err:find('bone "a": length: number expected, got nil', 1, true), err)
  end)

  it("a pole whose __index would yield: set_options raises at once, nothing changes", function()
    local s = solver()
    local before = settings(s)
    local co = coroutine.create(function()
      return pcall(s.set_options, s, { method = "fabrik", pole = setmetatable({}, {
        __index = function() coroutine.yield("suspended inside set_options") return 1 end }) })
    end)
    local resumed, ok, err = coroutine.resume(co)
    assert.is_true(resumed)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("pole x: number expected, got nil", 1, true), tostring(err))
    assert.are.equal("dead", coroutine.status(co))
    assert.are.same(before, settings(s))
  end)

  it("a nested call from a pole's __index cannot mix two solvers' settings", function()
    local s1 = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } },
                           { method = "ccd", iterations = 10, weight = 1 })
    local s2 = ik2d.solver(ik2d.chain{ { length = 2 }, { length = 2 } },
                           { method = "fabrik", iterations = 3, weight = 0.2 })
    local pole = setmetatable({}, { __index = function(_, k)
      if k == "x" then s2:set_tolerance(0.5) end
      return 1
    end })
    local before1, before2 = settings(s1), settings(s2)
    error_of(s1.set_options, s1, { pole = pole })
    assert.are.same(before1, settings(s1))
    assert.are.same(before2, settings(s2))
  end)
end)

describe("the metatables", function()
  local function objects()
    local chain = ik2d.chain{ { length = 1 }, { length = 1 } }
    local sk = ik2d.skeleton{ { name = "a", length = 1 }, { name = "b", parent = "a", length = 1 } }
    local s = ik2d.solver(chain)
    return { Constraint = ik2d.constraint{ min = -1, max = 1 }, Chain = chain, Solver = s,
             Group = ik2d.group{ s }, Skeleton = sk, Spring = ik2d.spring(chain),
             SkeletonChain = sk:chain("a", "b") }
  end

  it("are protected: getmetatable gives the type's name, which has no __gc to take", function()
    for kind, o in pairs(objects()) do
      local name = "ik2d." .. (kind == "SkeletonChain" and "Chain" or kind)
      assert.are.equal(name, getmetatable(o), kind)
      assert.is_nil(getmetatable(o).__gc, kind)
      assert.has_error(function() getmetatable(o).__gc = function() end end)
      -- the pure core's objects may be tables: their metatable stays
      if type(o) == "table" then
        assert.has_error(function() setmetatable(o, {}) end)
      end
      assert.are.equal(name, raw_metatable(o).__name)
    end
  end)

  -- in a child: before the fix the chain type's __gc was replaced for good
  it("a skeleton chain dropped after an attempt to replace its __gc leaves the skeleton's lists",
    function()
      local ok, out, code = helpers.run_lua([[
        local ik2d = require "ik2d"
        local sk = ik2d.skeleton{ { name = "a", length = 1 }, { name = "b", parent = "a", length = 1 } }
        print("replaced", (pcall(function() getmetatable(sk:chain("a", "b")).__gc = function() end end)))
        do local _ = sk:chain("a", "b") end
        for _ = 1, 4 do collectgarbage() end
        local junk = {}
        for i = 1, 5000 do junk[i] = { i, i, i, i } end
        for k = 1, 100 do sk:set_pose("b", k * 0.01) end
        local keep = sk:chain("a", "b")
        sk:set_pose("b", 0.25)
        print("angles", sk:angle(2), keep:angle(2), #junk)
      ]], ik2d.ffi and "" or "IK2D_NO_FFI=1")
      assert(ok, ("the child exited with %s:\n%s"):format(tostring(code), out))
      assert.truthy(out:find("replaced\tfalse\n", 1, true), out)
      assert.truthy(out:find("angles\t0.25\t0.25\t5000\n", 1, true), out)
    end)

  if helpers.is_luajit and ik2d.ffi ~= nil and ik2d.backend ~= "lua" then
    it("an FFI method given the pure core's object of the same type name refuses it", function()
      local pure = require "ik2d.pure.core"
      local chain = pure.chain{ { length = 1 } }
      local c_chain = ik2d.chain{ { length = 1 } }
      local was = ik2d.ffi
      for _, on in ipairs{ true, false } do
        ik2d.use_ffi(on)
        local ok, err = pcall(c_chain.tip, chain)
        assert.is_false(ok)
        assert.truthy(tostring(err):find("ik2d.Chain expected", 1, true), tostring(err))
      end
      ik2d.use_ffi(was)
    end)
  end
end)

describe("a call nested in another (a debug hook here, a finaliser could do it)", function()
  -- Runs f with a hook called at every Lua instruction that runs nested()
  -- once, inside the function inside (on the stack when the hook runs;
  -- with at, only while at runs): in the pure core's own code, never
  -- inside a C function.  Returns whether nested ran.
  local function nested_inside(inside, f, nested, at)
    local jit = rawget(_G, "jit")
    if jit then jit.off() jit.flush() end
    local ran = false
    debug.sethook(function()
      if ran then return end
      if at and debug.getinfo(2, "f").func ~= at then return end
      for level = 2, 40 do
        local info = debug.getinfo(level, "f")
        if not info then return end
        if info.func == inside then
          ran = true
          nested()
          return
        end
      end
    end, "", 1)
    local ok, err = pcall(f)
    debug.sethook()
    if jit then jit.on() end
    assert(ok, err)
    return ran
  end

  -- the pure core's conversion of a value read: a call has taken its
  -- copy of the settings then (nil on the C core)
  local number_at = ik2d.backend == "lua" and require("ik2d.pure.binding").number_at or nil
  local PURE = ik2d.backend == "lua"

  local function two_solvers()
    local s1 = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } },
                           { method = "ccd", iterations = 10, weight = 1 })
    local s2 = ik2d.solver(ik2d.chain{ { length = 2 }, { length = 2 } },
                           { method = "fabrik", iterations = 3, weight = 0.2 })
    return s1, s2
  end

  it("a setter of another solver inside set_options, setters and ik2d.solver: each keeps its own",
    function()
      local s1, s2 = two_solvers()
      local ran = nested_inside(s1.set_options, function()
        s1:set_options{ iterations = 7, pole = { 1, 2 } }
      end, function() s2:set_tolerance(0.5) end, number_at)
      assert.are.same({ "ccd", 7, 1, 0.01, 1, 2 },
                      { s1:method(), s1:iterations(), s1:weight(), s1:tolerance(), s1:pole() })
      assert.are.same({ "fabrik", 3, 0.2, ran and 0.5 or 0.01 },
                      { s2:method(), s2:iterations(), s2:weight(), s2:tolerance() })
      assert.are.equal(PURE, ran)

      s1, s2 = two_solvers()
      ran = nested_inside(s1.set_weight, function() s1:set_weight(0.5) end,
                          function() s2:set_options{ iterations = 4 } end, number_at)
      assert.are.equal(PURE, ran)
      assert.are.same({ "ccd", 10, 0.5 }, { s1:method(), s1:iterations(), s1:weight() })
      assert.are.same({ "fabrik", ran and 4 or 3, 0.2 }, { s2:method(), s2:iterations(), s2:weight() })

      local made
      s1, s2 = two_solvers()
      ran = nested_inside(ik2d.solver, function()
        made = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } }, { iterations = 5 })
      end, function() s2:set_weight(0.3) end, number_at)
      assert.are.equal(PURE, ran)
      assert.are.same({ "ccd", 5, 1 }, { made:method(), made:iterations(), made:weight() })
      assert.are.same({ "fabrik", 3, ran and 0.3 or 0.2 }, { s2:method(), s2:iterations(), s2:weight() })
    end)

  it("another spring's set_options inside set_options and ik2d.spring: each keeps its own", function()
    local sp1 = ik2d.spring(ik2d.chain{ { length = 1 } }, { stiffness = 100, damping = 10 })
    local sp2 = ik2d.spring(ik2d.chain{ { length = 1 } }, { stiffness = 5, damping = 1, mass = 3 })
    local ran = nested_inside(sp1.set_options, function() sp1:set_options{ damping = 4 } end,
                              function() sp2:set_options{ weight = 0.5 } end, number_at)
    assert.are.equal(PURE, ran)
    local o1, o2 = sp1:options(), sp2:options()
    assert.are.same({ 100, 4, 1, 1 }, { o1.stiffness, o1.damping, o1.mass, o1.weight })
    assert.are.same({ 5, 1, 3, ran and 0.5 or 1 }, { o2.stiffness, o2.damping, o2.mass, o2.weight })
    local made
    ran = nested_inside(ik2d.spring, function()
      made = ik2d.spring(ik2d.chain{ { length = 1 } }, { mass = 2 })
    end, function() sp2:set_options{ stiffness = 9 } end, number_at)
    assert.are.equal(PURE, ran)
    o1 = made:options()
    assert.are.same({ 100, 10, 2, 1 }, { o1.stiffness, o1.damping, o1.mass, o1.weight })
  end)

  it("the object finalised while set_options reads its table: the call raises, nothing is kept",
    function()
      local s1 = two_solvers()
      local ok, err
      local ran = nested_inside(s1.set_options, function()
        ok, err = pcall(s1.set_options, s1, { iterations = 7 })
      end, function() finalise(s1) end, number_at)
      assert.are.equal(PURE, ran)
      if ran then
        assert.is_false(ok)
        assert.truthy(tostring(err):find("solver was collected", 1, true), tostring(err))
      else
        assert.is_true(ok)
        assert.are.equal(7, s1:iterations())
      end
      local sp = ik2d.spring(ik2d.chain{ { length = 1 } })
      ran = nested_inside(sp.set_options, function()
        ok, err = pcall(sp.set_options, sp, { mass = 2 })
      end, function() finalise(sp) end, number_at)
      assert.are.equal(PURE, ran)
      if ran then
        assert.is_false(ok)
        assert.truthy(tostring(err):find("spring was collected", 1, true), tostring(err))
      else
        assert.is_true(ok)
        assert.are.equal(2, sp:options().mass)
      end
    end)
end)
