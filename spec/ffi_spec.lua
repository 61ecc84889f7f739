-- The LuaJIT FFI fast path gives the same answers and the same errors as
-- the classic C API methods.  On Lua 5.4 there is no FFI: ik2d.ffi is false.
local ik2d = require "ik2d"
local helpers = require "spec.helpers"

-- A frame loop over a limited 4-bone arm and a group, recording every
-- number it reads, to the last bit (%.17g).
local function record()
  local out = {}
  local function put(...)
    for i = 1, select("#", ...) do out[#out + 1] = string.format("%.17g", (select(i, ...))) end
  end
  local arm = ik2d.chain{ x = 5, y = -3, angle = 0.3,
    { length = 3 }, { length = 2, min = -0.5, max = 2 }, { length = 2, min = -1, max = 1 }, { length = 1 } }
  local s = ik2d.solver(arm, { tolerance = 1e-4 })
  local other = ik2d.solver(ik2d.chain{ { length = 2 }, { length = 2 } }, { method = "two_bone" })
  local g = ik2d.group{ s, other }
  local tail = ik2d.chain{ x = 1, y = 2, angle = 1.5, { length = 4 }, { length = 3, min = -0.4, max = 0.4 },
    { length = 2 } }
  local sp = ik2d.spring(tail, { gravity = { 0, 50 }, damping = 2 })
  local random = helpers.random(42)
  local t = {}
  for frame = 1, 200 do
    tail:set_base(1, 2, 1.5 + random.range(-1, 1))
    sp:update(frame % 7 == 0 and 0 or random.range(0, 0.05))
    for _, v in ipairs(tail:joints(t)) do put(v) end
    put(tail:angle(2), sp:velocity(3))
    s:set_target(5 + random.range(-9, 9), -3 + random.range(-9, 9))
    other:set_target(random.range(-3, 3), random.range(-3, 3))
    if frame % 2 == 0 then
      local reached, distance, iterations = s:solve()
      put(reached and 1 or 0, distance, iterations)
    else
      put(g:solve())
    end
    put(s:target())
    put(arm:tip())
    put(arm:joint(3))
    put(arm:angle(2), arm:pose(2), arm:base())
    for _, v in ipairs(arm:joints(t)) do put(v) end
    for _, v in ipairs(g:joints(t)) do put(v) end
    local reached, distance, iterations = other:result()
    put(reached and 1 or 0, distance, iterations, s:weight())
  end
  return table.concat(out, " ")
end

local function message(f)
  local ok, msg = pcall(f)
  assert.is_false(ok)
  return msg
end

describe("the FFI fast path", function()
  if ik2d.backend == "lua" then
    it("is off with the pure-Lua core, which has no C to call", function()
      assert.is_false(ik2d.ffi)
      assert.is_false(ik2d.use_ffi(true))
      assert.are.equal("lua", ik2d.backend)
    end)
    return
  end
  if not helpers.is_luajit then
    it("is off on Lua 5.4, which has no FFI", function()
      assert.is_false(ik2d.ffi)
      assert.is_false(ik2d.use_ffi(true))
    end)
    return
  end

  after_each(function() ik2d.use_ffi(true) end)

  -- LuaJIT's x64 backend fused a read of the fast path's shared output
  -- buffer into the instruction that used it, after the next call had
  -- written the buffer again: two reads in one expression were equal
  it("gives each of two reads in one compiled expression its own value", function()
    local ch = ik2d.chain{ { length = 1, angle = 0.3 }, { length = 1, angle = 0.5 } }
    local s1 = ik2d.solver(ch)
    local s2 = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } })
    local sk = ik2d.skeleton{ { name = "a", length = 1 }, { name = "b", parent = "a", length = 1 } }
    local same = 0
    for k = 1, 3000 do
      s1:set_target(k, 1)
      s2:set_target(-k, 2)
      sk:set_pose("b", 0.001 * k)
      if ch:angle(1) == ch:angle(2) then same = same + 1 end
      if s1:target() == s2:target() then same = same + 1 end
      local a = sk:matrix("a")
      if a == sk:matrix("b") then same = same + 1 end
    end
    assert.are.equal(0, same)
  end)

  it("is on by default under LuaJIT", function()
    if os.getenv("IK2D_NO_FFI") then return end
    assert.is_true(ik2d.ffi)
  end)

  it("gives bit-identical answers to the classic methods", function()
    assert.is_true(ik2d.use_ffi(true))
    local fast = record()
    assert.is_false(ik2d.use_ffi(false))
    local classic = record()
    assert.are.equal(classic, fast)
  end)

  it("raises the same errors as the classic methods", function()
    local arm = ik2d.chain{ { length = 1 }, { length = 1 } }
    local s = ik2d.solver(arm)
    local g = ik2d.group{ s }
    local cases = {
      function() s:set_target(nil, 1) end,
      function() s:set_target(1, 0 / 0) end,
      function() s:set_target(1, math.huge) end,
      function() s.set_target(s, "x", 1) end,
      function() local x = arm:joint(4); return x end,
      function() local x = arm:joint(1.5); return x end,
      function() local x = arm:angle(0); return x end,
      function() local x = arm:pose("a"); return x end,
      function() arm:joints(5) end,
      function() s.solve(arm) end,
      function() arm.tip(s) end,
      function() g.solve(s) end,
      function() g:joints(true) end,
      function() g:set_targets(5) end,
      function() g:set_targets{ 1 } end,
      function() g:set_targets{ 0 / 0, 1 } end,
      function() g.set_targets(s, { 1, 2 }) end,
      function() ik2d.spring(arm):update(0 / 0) end,
      function() ik2d.spring(arm):update(-1) end,
      function() ik2d.spring(arm):update() end,
      function() ik2d.spring(arm):update("x") end,
      function() local sp = ik2d.spring(arm); sp.update(s, 1) end,
    }
    for i, f in ipairs(cases) do
      ik2d.use_ffi(true)
      local fast = message(f)
      ik2d.use_ffi(false)
      local classic = message(f)
      assert.are.equal(classic, fast, "case " .. i)
    end
  end)

  it("reports a group member finalised before the group as the classic path does", function()
    -- __gc called by hand (as at lua_close): on the chain of one member,
    -- on the solver of another; the group's view made before and after
    for _, view_first in ipairs{ true, false } do
      local arm, arm2 = ik2d.chain{ { length = 1 } }, ik2d.chain{ { length = 1 }, { length = 2 } }
      local s, s2 = ik2d.solver(arm), ik2d.solver(arm2)
      local g = ik2d.group{ s2, s }
      if view_first then
        ik2d.use_ffi(true)
        g:joints({})
      end
      local messages = {}
      for _, victim in ipairs{ arm, s2 } do
        debug.getmetatable(victim).__gc(victim)
        for _, on in ipairs{ true, false } do
          ik2d.use_ffi(on)
          messages[on] = message(function() g:joints({}) end)
        end
        assert.are.equal(messages[false], messages[true])
        assert.truthy(messages[true]:find("was collected", 1, true))
      end
    end
  end)

  it("reports a spring whose chain was finalised as the classic path does", function()
    local arm = ik2d.chain{ { length = 1 } }
    local sp = ik2d.spring(arm)
    ik2d.use_ffi(true)
    sp:update(0.01)
    debug.getmetatable(arm).__gc(arm)
    local update = function() sp:update(0.01) end
    local fast = message(update)
    ik2d.use_ffi(false)
    assert.are.equal(message(update), fast)
    assert.truthy(fast:find("chain was collected", 1, true))
  end)

  it("accepts numeric strings where the classic methods do", function()
    ik2d.spring(ik2d.chain{ { length = 1 } }):update("0.016")
    local s = ik2d.solver(ik2d.chain{ { length = 1 } })
    s:set_target("0.5", "0.25")
    local x, y = s:target()
    assert.are.equal(0.5, x)
    assert.are.equal(0.25, y)
  end)
end)

-- Message parity: every documented error of every method that
-- has a LuaJIT FFI fast path raises, through the FFI path
-- (ik2d.use_ffi(true)) and through the classic C API methods
-- (ik2d.use_ffi(false)), the same full message: the "file:line:" of the
-- caller, the argument number, the function's name and the problem.
-- Each error is raised from the same call site on both paths, written
-- five ways: a colon call, a dot call, a method handed to pcall, a tail
-- call (`return o:m(...)`) in a function called from Lua, and that tail
-- call made straight from pcall.  The first four are also checked
-- against the message they must give; the fifth only for parity (LuaJIT
-- keeps no call site for it: see spec/solver_spec.lua).
--
-- Also: joints(t) writes t raw on both paths, never calling a __newindex.

local unpack = table.unpack or unpack
local nan, inf = 0 / 0, math.huge

-- A chain, a solver and a group made only to find the method tables (the
-- FFI switch swaps the functions inside these same tables).
local Chain = debug.getmetatable(ik2d.chain{ { length = 1 } }).__index
local Solver = debug.getmetatable(ik2d.solver(ik2d.chain{ { length = 1 } })).__index
local Group = debug.getmetatable(ik2d.group{}).__index

-- ------------------------------------------------------------------
-- the call sites, one line each: its line is the message's "file:line:"
-- ------------------------------------------------------------------

local COLON = {
  set_target = function(o, ...) local a = o:set_target(...) return a end,
  set_tip_angle = function(o, ...) local a = o:set_tip_angle(...) return a end,
  set_pole = function(o, ...) local a = o:set_pole(...) return a end,
  target = function(o, ...) local a = o:target(...) return a end,
  solve = function(o, ...) local a = o:solve(...) return a end,
  result = function(o, ...) local a = o:result(...) return a end,
  joint = function(o, ...) local a = o:joint(...) return a end,
  tip = function(o, ...) local a = o:tip(...) return a end,
  angle = function(o, ...) local a = o:angle(...) return a end,
  pose = function(o, ...) local a = o:pose(...) return a end,
  base = function(o, ...) local a = o:base(...) return a end,
  joints = function(o, ...) local a = o:joints(...) return a end,
  group_solve = function(o, ...) local a = o:solve(...) return a end,
  set_targets = function(o, ...) local a = o:set_targets(...) return a end,
  group_joints = function(o, ...) local a = o:joints(...) return a end,
}

local DOT = {
  set_target = function(...) local a = Solver.set_target(...) return a end,
  set_tip_angle = function(...) local a = Solver.set_tip_angle(...) return a end,
  set_pole = function(...) local a = Solver.set_pole(...) return a end,
  target = function(...) local a = Solver.target(...) return a end,
  solve = function(...) local a = Solver.solve(...) return a end,
  result = function(...) local a = Solver.result(...) return a end,
  joint = function(...) local a = Chain.joint(...) return a end,
  tip = function(...) local a = Chain.tip(...) return a end,
  angle = function(...) local a = Chain.angle(...) return a end,
  pose = function(...) local a = Chain.pose(...) return a end,
  base = function(...) local a = Chain.base(...) return a end,
  joints = function(...) local a = Chain.joints(...) return a end,
  group_solve = function(...) local a = Group.solve(...) return a end,
  set_targets = function(...) local a = Group.set_targets(...) return a end,
  group_joints = function(...) local a = Group.joints(...) return a end,
}

local TAIL = {
  set_target = function(o, ...) return o:set_target(...) end,
  set_tip_angle = function(o, ...) return o:set_tip_angle(...) end,
  set_pole = function(o, ...) return o:set_pole(...) end,
  target = function(o, ...) return o:target(...) end,
  solve = function(o, ...) return o:solve(...) end,
  result = function(o, ...) return o:result(...) end,
  joint = function(o, ...) return o:joint(...) end,
  tip = function(o, ...) return o:tip(...) end,
  angle = function(o, ...) return o:angle(...) end,
  pose = function(o, ...) return o:pose(...) end,
  base = function(o, ...) return o:base(...) end,
  joints = function(o, ...) return o:joints(...) end,
  group_solve = function(o, ...) return o:solve(...) end,
  set_targets = function(o, ...) return o:set_targets(...) end,
  group_joints = function(o, ...) return o:joints(...) end,
}

-- the Lua function that calls a tail-calling function
local function via_lua(f, ...) local a = f(...) return a end

local function where(f)
  local info = debug.getinfo(f, "S")
  return info.short_src .. ":" .. info.linedefined .. ": "
end

local METHODS = {
  set_target = { Solver, "set_target" }, target = { Solver, "target" },
  set_tip_angle = { Solver, "set_tip_angle" }, set_pole = { Solver, "set_pole" },
  solve = { Solver, "solve" }, result = { Solver, "result" },
  joint = { Chain, "joint" }, tip = { Chain, "tip" }, angle = { Chain, "angle" },
  pose = { Chain, "pose" }, base = { Chain, "base" }, joints = { Chain, "joints" },
  group_solve = { Group, "solve" }, set_targets = { Group, "set_targets" },
  group_joints = { Group, "joints" },
}

-- ------------------------------------------------------------------
-- the objects, fresh for every case
-- ------------------------------------------------------------------

local function collect(o)
  debug.getmetatable(o).__gc(o)
end

local function fixture()
  local fx = {}
  fx.arm = ik2d.chain{ { length = 3 }, { length = 2, min = -1, max = 1 }, { length = 1 } }
  fx.s = ik2d.solver(fx.arm)
  fx.s:set_target(2, 3)
  fx.s:solve()
  fx.s2 = ik2d.solver(ik2d.chain{ { length = 1 }, { length = 1 } })
  fx.g = ik2d.group{ fx.s, fx.s2 }
  return fx
end

-- self values: name, make(fx) -> value, text(type), and whether a colon
-- call can be written on it (it has the methods)
local SELVES = {
  { "no self", none = true, text = function(t) return t .. " expected, got no value" end },
  { "nil", make = function() return nil end,
    text = function(t) return t .. " expected, got nil" end },
  { "a number", make = function() return 5 end,
    text = function(t) return t .. " expected, got number" end },
  { "a plain table", make = function() return {} end,
    text = function(t) return t .. " expected, got table" end },
  { "a table with the type's metatable", colon = true,
    make = function(fx, kind) return setmetatable({}, debug.getmetatable(fx[kind])) end,
    text = function(t) return t .. " expected, got table" end },
  { "an object of another type", make = function(fx, kind)
      return kind == "arm" and fx.s or fx.arm
    end,
    text = function(t, kind)
      return t .. " expected, got " .. (kind == "arm" and "ik2d.Solver" or "ik2d.Chain")
    end },
  { "a collected object", colon = true,
    make = function(fx, kind) collect(fx[kind]) return fx[kind] end,
    text = function(_, kind)
      return ({ arm = "chain", s = "solver", g = "group" })[kind] .. " was collected"
    end },
}

local TYPES = { arm = "ik2d.Chain", s = "ik2d.Solver", g = "ik2d.Group" }

-- ------------------------------------------------------------------
-- the cases: { method, what, self(fx), args (after self), argn counted
-- with self as #1, text }
-- ------------------------------------------------------------------

local function args(...) return { n = select("#", ...), ... } end

local CASES = {}

local function add(method, what, self, arguments, argn, text)
  CASES[#CASES + 1] = { method = method, what = what, self = self, args = arguments,
                        argn = argn, text = text }
  return CASES[#CASES]
end

local OWNER = { set_target = "s", target = "s", solve = "s", result = "s",
  set_tip_angle = "s", set_pole = "s",
  joint = "arm", tip = "arm", angle = "arm", pose = "arm", base = "arm", joints = "arm",
  group_solve = "g", set_targets = "g", group_joints = "g" }

-- the arguments each method takes when valid, after self
local VALID = { set_target = args(1, 2), set_tip_angle = args(0.5), set_pole = args(1, 2),
  joint = args(1), angle = args(1), pose = args(1),
  joints = args({}), set_targets = args({ 1, 2, 3, 4 }), group_joints = args({}) }

for method, kind in pairs(OWNER) do
  for _, bad in ipairs(SELVES) do
    local self
    if not bad.none then
      self = function(fx) return bad.make(fx, kind) end
    end
    add(method, "self is " .. bad[1], self, VALID[method] or args(), 1,
        bad.text(TYPES[kind], kind)).colon = bad.colon or false
  end
end

-- a solver whose chain was finalised; a group whose member (or its chain) was
local function chain_collected(fx) collect(fx.arm) return fx.s end
for _, method in ipairs{ "set_target", "target", "solve", "result", "set_tip_angle", "set_pole" } do
  add(method, "the solver's chain was collected", chain_collected, VALID[method] or args(), 1,
      "chain was collected")
end
for _, method in ipairs{ "group_solve", "set_targets", "group_joints" } do
  add(method, "member 2 was collected", function(fx) collect(fx.s2) return fx.g end,
      VALID[method] or args(), 1, "solver 2 was collected")
  add(method, "member 1's chain was collected", function(fx) collect(fx.arm) return fx.g end,
      VALID[method] or args(), 1, "solver 1: chain was collected")
end

local function solver(fx) return fx.s end
local function chain(fx) return fx.arm end
local function group(fx) return fx.g end

-- set_target(x, y)
add("set_target", "set_target(1): y missing", solver, args(1), 3, "number expected, got no value")
add("set_target", "set_target(): x missing", solver, args(), 2, "number expected, got no value")
add("set_target", "x nil", solver, args(nil, 1), 2, "number expected, got nil")
add("set_target", "y nil", solver, args(1, nil), 3, "number expected, got nil")
add("set_target", "x a word", solver, args("x", 1), 2, "number expected, got string")
add("set_target", "y a table", solver, args(1, {}), 3, "number expected, got table")
add("set_target", "y a boolean", solver, args(1, true), 3, "number expected, got boolean")
add("set_target", "x nan", solver, args(nan, 0), 2, "target x must be finite")
add("set_target", "x inf", solver, args(inf, 0), 2, "target x must be finite")
add("set_target", "x '1e999'", solver, args("1e999", 0), 2, "target x must be finite")
add("set_target", "y nan", solver, args(0, nan), 3, "target y must be finite")
add("set_target", "y -inf", solver, args(0, -inf), 3, "target y must be finite")
add("set_target", "both nan: x first", solver, args(nan, nan), 2, "target x must be finite")

-- set_tip_angle(angle [, weight]), set_pole(x, y)
add("set_tip_angle", "angle missing", solver, args(), 2, "number expected, got no value")
add("set_tip_angle", "angle a word", solver, args("up"), 2, "number expected, got string")
add("set_tip_angle", "angle nan", solver, args(nan), 2, "tip angle must be finite")
add("set_tip_angle", "angle inf", solver, args(inf, 1), 2, "tip angle must be finite")
add("set_tip_angle", "weight a word", solver, args(1, "w"), 3, "number expected, got string")
add("set_tip_angle", "weight 2", solver, args(1, 2), 3, "tip weight must be within [0, 1]")
add("set_tip_angle", "weight nan", solver, args(1, nan), 3, "tip weight must be within [0, 1]")
add("set_pole", "set_pole(1): y missing", solver, args(1), 3, "number expected, got no value")
add("set_pole", "x a table", solver, args({}, 1), 2, "number expected, got table")
add("set_pole", "x nan", solver, args(nan, 1), 2, "pole x must be finite")
add("set_pole", "y -inf", solver, args(1, -inf), 3, "pole y must be finite")

-- joint(i), angle(i), pose(i): a whole index in range
local INDEX_CASES = {
  { "missing", args(), "%s: number expected, got no value" },
  { "nil", args(nil), "%s: number expected, got nil" },
  { "a word", args("one"), "%s: number expected, got string" },
  { "a table", args({}), "%s: number expected, got table" },
  { "'1e999'", args("1e999"), "%s must be a whole number" },
  -- LuaJIT reads "inf" and "nan" as numbers (Lua 5.4 does not)
  { "'inf'", args("inf"), "%s must be a whole number" },
  { "'nan'", args("nan"), "%s must be a whole number" },
  { "nan", args(nan), "%s must be a whole number" },
  { "inf", args(inf), "%s must be a whole number" },
  { "-inf", args(-inf), "%s must be a whole number" },
  { "1.5", args(1.5), "%s must be a whole number" },
  { "2^31", args(2 ^ 31), "%s must be a whole number within +-2147483647" },
  { "0", args(0), "%s 0 out of range (1..%d)" },
  { "-1", args(-1), "%s -1 out of range (1..%d)" },
  { "'0'", args("0"), "%s 0 out of range (1..%d)" },
}
for _, method in ipairs{ "joint", "angle", "pose" } do
  local what, last = method == "joint" and "joint" or "bone", method == "joint" and 4 or 3
  for _, c in ipairs(INDEX_CASES) do
    add(method, "index " .. c[1], chain, c[2], 2, c[3]:format(what .. " index", last))
  end
  add(method, "index one past the last", chain, args(last + 1), 2,
      ("%s index %d out of range (1..%d)"):format(what, last + 1, last))
end

-- joints(t)
for _, method in ipairs{ "joints", "group_joints" } do
  local self = method == "joints" and chain or group
  add(method, "t a number", self, args(5), 2, "table expected, got number")
  add(method, "t a string", self, args("t"), 2, "table expected, got string")
  add(method, "t false", self, args(false), 2, "table expected, got boolean")
  add(method, "t a chain", self, args(ik2d.chain{ { length = 1 } }), 2,
      "table expected, got ik2d.Chain")
end

-- set_targets(t): 2 members
local LENGTH = "4 numbers expected (x, y for each of 2 solvers), got %d"
add("set_targets", "t missing", group, args(), 2, "table expected, got no value")
add("set_targets", "t nil", group, args(nil), 2, "table expected, got nil")
add("set_targets", "t a number", group, args(5), 2, "table expected, got number")
add("set_targets", "t empty", group, args({}), 2, LENGTH:format(0))
add("set_targets", "t too short", group, args({ 1, 2, 3 }), 2, LENGTH:format(3))
add("set_targets", "t too long", group, args({ 1, 2, 3, 4, 5 }), 2, LENGTH:format(5))
add("set_targets", "item 1 a word", group, args({ "x", 2, 3, 4 }), 2,
    "item 1: number expected, got string")
add("set_targets", "item 4 a table", group, args({ 1, 2, 3, {} }), 2,
    "item 4: number expected, got table")
add("set_targets", "item 3 true", group, args({ 1, 2, true, 4 }), 2,
    "item 3: number expected, got boolean")
add("set_targets", "item 1 nan", group, args({ nan, 2, 3, 4 }), 2, "item 1: target x must be finite")
add("set_targets", "item 2 inf", group, args({ 1, inf, 3, 4 }), 2, "item 2: target y must be finite")
add("set_targets", "item 3 -inf", group, args({ 1, 2, -inf, 4 }), 2, "item 3: target x must be finite")
add("set_targets", "item 4 '1e999'", group, args({ 1, 2, 3, "1e999" }), 2,
    "item 4: target y must be finite")

-- ------------------------------------------------------------------
-- running a case
-- ------------------------------------------------------------------

-- Runs call(fx) on a fresh fixture with the path on; returns the message.
local function raise(on, call)
  ik2d.use_ffi(on)
  local fx = fixture()
  local ok, msg = pcall(call, fx)
  ik2d.use_ffi(true)
  assert(not ok, "expected an error, the call returned")
  return tostring(msg)
end

-- The forms of a case: name, call(fx), the message it must give (nil:
-- parity only).
local function forms(case)
  local method, argn, text = case.method, case.argn, case.text
  local name = METHODS[method][2]
  local n = case.args.n
  local function self_and_args(fx)
    if not case.self then return {}, 0 end
    local list = { case.self(fx) }
    for i = 1, n do list[i + 1] = case.args[i] end
    return list, n + 1
  end
  local function numbered(shift)
    if argn - shift == 0 then return ("calling '%s' on bad self (%s)"):format(name, text) end
    return ("bad argument #%d to '%s' (%s)"):format(argn - shift, name, text)
  end
  local list = {}
  if case.colon ~= false and case.self then
    list[#list + 1] = { "colon call", function(fx)
      local a, k = self_and_args(fx)
      return COLON[method](unpack(a, 1, k))
    end, where(COLON[method]) .. numbered(1) }
    list[#list + 1] = { "tail call in a function called from Lua", function(fx)
      local a, k = self_and_args(fx)
      return via_lua(TAIL[method], unpack(a, 1, k))
    end, where(via_lua) .. numbered(1) }
    list[#list + 1] = { "tail call straight from pcall", function(fx)
      local a, k = self_and_args(fx)
      local ok, msg = pcall(TAIL[method], unpack(a, 1, k))
      if not ok then error(msg, 0) end
    end }
  end
  list[#list + 1] = { "dot call", function(fx)
    local a, k = self_and_args(fx)
    return DOT[method](unpack(a, 1, k))
  end, where(DOT[method]) .. numbered(0) }
  list[#list + 1] = { "method handed to pcall", function(fx)
    local a, k = self_and_args(fx)
    local f = METHODS[method][1][name]
    local ok, msg = pcall(f, unpack(a, 1, k))
    if not ok then error(msg, 0) end
  end, numbered(0) }
  return list
end

describe("FFI and classic paths: the same full message", function()
  if ik2d.backend == "lua" then
    pending("the pure-Lua core has one path; spec/pure_diff_spec.lua compares its messages with "
            .. "the C core's")
    return
  end
  if not helpers.is_luajit then
    pending("Lua 5.4 has no FFI path (ik2d.ffi is false): nothing to compare")
    return
  end

  setup(function() assert.is_true(ik2d.use_ffi(true)) end)
  teardown(function() ik2d.use_ffi(true) end)

  it("covers every method that has an FFI fast path", function()
    -- the methods the FFI switch replaces, read from the switch itself
    local replaced = {}
    local before = {}
    for kind, t in pairs{ Chain = Chain, Solver = Solver, Group = Group } do
      for name, f in pairs(t) do before[kind .. "." .. name] = f end
    end
    ik2d.use_ffi(false)
    for kind, t in pairs{ Chain = Chain, Solver = Solver, Group = Group } do
      for name, f in pairs(t) do
        if before[kind .. "." .. name] ~= f then replaced[#replaced + 1] = kind .. "." .. name end
      end
    end
    ik2d.use_ffi(true)
    table.sort(replaced)
    local covered = {}
    for _, m in pairs(METHODS) do
      local kind = m[1] == Chain and "Chain" or m[1] == Solver and "Solver" or "Group"
      covered[#covered + 1] = kind .. "." .. m[2]
    end
    table.sort(covered)
    assert.are.same(covered, replaced)
  end)

  for _, case in ipairs(CASES) do
    local kind = ({ arm = "Chain", s = "Solver", g = "Group" })[OWNER[case.method]]
    describe(("%s:%s, %s"):format(kind, METHODS[case.method][2], case.what), function()
      for _, form in ipairs(forms(case)) do
        it(form[1], function()
          local fast = raise(true, form[2])
          local classic = raise(false, form[2])
          assert.are.equal(classic, fast)
          if form[3] then assert.are.equal(form[3], fast) end
        end)
      end
    end)
  end

  describe("joints(t) with a __newindex on t", function()
    local function watched()
      local calls = { n = 0 }
      local t = setmetatable({}, { __newindex = function(t, k, v)
        calls.n = calls.n + 1
        rawset(t, k, v)
      end })
      return t, calls
    end

    for _, on in ipairs{ true, false } do
      it(("writes raw and never calls it (%s path)"):format(on and "FFI" or "classic"), function()
        ik2d.use_ffi(on)
        local fx = fixture()
        local t, calls = watched()
        local got = fx.arm:joints(t)
        local tg, gcalls = watched()
        local gotg = fx.g:joints(tg)
        -- and over a longer table, whose tail is cleared raw too
        local long, lcalls = watched()
        for i = 1, 12 do rawset(long, i, -i) end
        fx.arm:joints(long)
        ik2d.use_ffi(true)
        assert.are.equal(t, got)
        assert.are.equal(tg, gotg)
        assert.are.equal(0, calls.n)
        assert.are.equal(0, gcalls.n)
        assert.are.equal(0, lcalls.n)
        assert.are.equal(8, #t)
        assert.are.equal(8 + 6, #tg)
        assert.are.equal(8, #long)
        assert.is_nil(rawget(long, 9))
        assert.are.same(helpers.joints_of(fx.arm), { unpack(t, 1, 8) })
      end)
    end

    it("fills the same numbers on both paths", function()
      local out = {}
      for _, on in ipairs{ true, false } do
        ik2d.use_ffi(on)
        local fx = fixture()
        out[on] = { fx.arm:joints(setmetatable({}, { __newindex = error })),
                    fx.g:joints(setmetatable({}, { __newindex = error })) }
      end
      ik2d.use_ffi(true)
      assert.are.same(out[false], out[true])
    end)
  end)
end)

-- use_ffi takes a boolean; no argument asks, as use_isa() does
describe("ik2d.use_ffi", function()
  local caller_error = helpers.caller_error
  for _, case in ipairs{ { "false", "string" }, { 0, "number" }, { {}, "table" } } do
    it(("use_ffi(%q) is refused: boolean expected, got %s, changing nothing"):format(
         tostring(case[1]), case[2]), function()
      local ffi, backend = ik2d.ffi, ik2d.backend
      assert.are.equal(("bad argument #1 to 'use_ffi' (boolean expected, got %s)"):format(case[2]),
        caller_error(function() local r = ik2d.use_ffi(case[1]) return r end))
      assert.are.equal(ffi, ik2d.ffi)
      assert.are.equal(backend, ik2d.backend)
    end)
  end

  it("use_ffi() and use_ffi(nil) change nothing and say whether the FFI path is on", function()
    local can = ik2d.use_ffi(true)
    assert.are.equal(can, ik2d.use_ffi())
    assert.are.equal(can, ik2d.use_ffi(nil))
    assert.are.equal(can, ik2d.ffi)
    assert.is_false(ik2d.use_ffi(false))
    assert.is_false(ik2d.use_ffi())
    assert.is_false(ik2d.ffi)
    assert.are.equal(ik2d.backend == "lua" and "lua" or "c", ik2d.backend)
    assert.are.equal(can, ik2d.use_ffi(true))
    assert.are.equal(helpers.is_luajit and ik2d.backend ~= "lua", can)
  end)
end)
