-- Garbage-collector torture: every API path with a
-- collector step between every two calls, under an incremental collector
-- that never pauses and (on 5.4) a generational one that collects on
-- every allocation; a solver whose chain went out of scope; a constraint
-- shared by chains that die in every order; constraints removed and
-- replaced between the solves of a running frame loop; and __gc in any
-- order at lua_close, in a child interpreter that must exit cleanly.
--
-- Run under `make test-asan` or `make test-valgrind`, a use after free
-- here is a sanitizer error, not just a wrong number.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local abs, huge = math.abs, math.huge
local unpack = table.unpack or unpack
local is_54 = not helpers.is_luajit and helpers.lua_version == "5.4"

local function finite(x)
  return type(x) == "number" and x == x and x ~= huge and x ~= -huge
end

-- ------------------------------------------------------------------
-- collector modes
-- ------------------------------------------------------------------

local function step()
  collectgarbage("step", 0)
end

local function full()
  collectgarbage()
  collectgarbage()
end

-- Each mode: name, enter(), leave().  Incremental with pause 0 starts a
-- new cycle as soon as one ends, so every step does real work (the step
-- size stays the default: more steps per cycle, more interleavings).
local MODES = {
  { name = "incremental collector, pause 0",
    enter = function()
      if is_54 then collectgarbage("incremental") end
      collectgarbage("setpause", 0)
    end,
    leave = function()
      collectgarbage("setpause", 200)
    end },
}
if is_54 then
  MODES[#MODES + 1] = {
    name = "generational collector, minor collection on every 1% growth",
    enter = function() collectgarbage("generational", 1, 100) end,
    leave = function() collectgarbage("incremental", 200, 100) end }
end

-- ------------------------------------------------------------------
-- objects and checks
-- ------------------------------------------------------------------

local function make_arm(limits)
  local t = { x = 1, y = 2, angle = 0.1,
    { length = 3, angle = 0.2 }, { length = 2 }, { length = 1 } }
  if limits then t[2].min, t[2].max = -0.5, 1.5 end
  return ik2d.chain(t)
end

-- The chain is whole: finite joints a bone length apart, limits kept.
local function assert_sane(arm)
  local x0, y0 = arm:joint(1)
  assert(finite(x0) and finite(y0))
  for i = 1, #arm do
    local x1, y1 = arm:joint(i + 1)
    assert(finite(x1) and finite(y1), "joint not finite")
    assert(abs(helpers.distance(x0, y0, x1, y1) - arm:length(i)) <= 1e-9 * arm:length(i),
           "bone " .. i .. " changed length")
    x0, y0 = x1, y1
  end
  assert(helpers.max_violation(arm) <= 1e-9, "limit broken")
end

-- Plain assert: luassert allocates, and under a pause-0 collector every
-- allocation buys collector work over the whole of busted's heap.
local function eq(expected, got)
  if expected ~= got then
    error(("expected %s, got %s"):format(tostring(expected), tostring(got)), 2)
  end
end

-- One call of every method, with valid arguments.  ctx holds the objects;
-- a method without a recipe fails the spec (see the first test).
local RECIPES = {
  Chain = {
    set_base = function(c) c.arm:set_base(1.5, 2.5, 0.2) end,
    base = function(c) assert(finite((c.arm:base()))) end,
    set_flip = function(c) c.arm:set_flip(not c.arm:flip()) end,
    flip = function(c) c.arm:flip() end,
    set_pose = function(c) c.arm:set_pose(2, 0.4) eq(0.4, c.arm:pose(2)) end,
    pose = function(c) assert(finite(c.arm:pose(2))) end,
    angle = function(c) assert(finite(c.arm:angle(3))) end,
    world_angle = function(c) assert(finite(c.arm:world_angle(3))) end,
    length = function(c) eq(2, c.arm:length(2)) end,
    rest = function(c) eq(0.2, c.arm:rest(1)) end,
    reach = function(c) eq(6, c.arm:reach()) end,
    scale = function(c) eq(1, c.arm:scale()) end,
    uniform = function(c) eq(false, c.arm:uniform()) end,
    joint = function(c) assert(finite((c.arm:joint(4)))) end,
    tip = function(c) assert(finite((c.arm:tip()))) end,
    joints = function(c) eq(8, #c.arm:joints(c.scratch)) end,
    reset = function(c) c.arm:reset() end,
    set_constraint = function(c)
      -- a new constraint each time: the old one becomes garbage
      c.arm:set_constraint(2, ik2d.constraint{ min = -0.5, max = 1.5 })
    end,
    constraint = function(c) assert(c.arm:constraint(2)) end,
    skeleton = function(c) eq(nil, (c.arm:skeleton())) end,
    set_length = function(c) c.arm:set_length(3, 1.5) eq(6.5, c.arm:reach()) c.arm:set_length(3, 1) end,
    set_rest = function(c) c.arm:set_rest(3, 0.1) eq(0.1, c.arm:rest(3)) c.arm:set_rest(3, 0) end,
  },
  Constraint = {
    set_limits = function(c) c.c:set_limits(-1, 1) eq(-1, (c.c:limits())) end,
    limits = function(c) assert(finite((c.c:limits()))) end,
    invert = function(c) eq(false, c.c:invert()) end,
    arc = function(c) assert(finite((c.c:arc()))) end,
    space = function(c) eq("parent", c.c:space()) end,
  },
  Solver = {
    chain = function(c) eq(c.arm, c.s:chain()) end,
    set_target = function(c) c.s:set_target(2, 3) eq(2, (c.s:target())) end,
    target = function(c) assert(finite((c.s:target()))) end,
    set_weight = function(c) c.s:set_weight(0.75) eq(0.75, c.s:weight()) end,
    weight = function(c) assert(finite(c.s:weight())) end,
    set_iterations = function(c) c.s:set_iterations(20) eq(20, c.s:iterations()) end,
    iterations = function(c) eq("number", type(c.s:iterations())) end,
    set_tolerance = function(c) c.s:set_tolerance(0.001) eq(0.001, c.s:tolerance()) end,
    tolerance = function(c) assert(finite(c.s:tolerance())) end,
    set_options = function(c)
      c.s:set_options{ method = "fabrik", weight = 1 }
      eq("fabrik", c.s:method())
    end,
    method = function(c) eq("string", type(c.s:method())) end,
    options = function(c) eq(c.s:iterations(), c.s:options(c.scratch).iterations) end,
    set_tip_angle = function(c) c.s:set_tip_angle(0.5, 0.5) eq(0.5, (c.s:tip_angle())) end,
    tip_angle = function(c) c.s:tip_angle() end,
    clear_tip_angle = function(c) c.s:clear_tip_angle() eq(nil, (c.s:tip_angle())) end,
    set_pole = function(c) c.s:set_pole(3, -2) eq(3, (c.s:pole())) end,
    pole = function(c) c.s:pole() end,
    clear_pole = function(c) c.s:clear_pole() eq(nil, (c.s:pole())) end,
    -- a skeleton only the solver holds: alive through the steps, solves
    -- and reads after it
    set_target_bone = function(c)
      c.s:set_target_bone(ik2d.skeleton{ x = 2, { name = "a", length = 2 },
                                         { name = "b", parent = "a", length = 1 } }, "b", 0.5, 0)
      step()
      local sk, bone = c.s:target_bone()
      eq("b", bone)
      eq(2, #sk)
      eq(4.5, (c.s:target()))
    end,
    target_bone = function(c) c.s:target_bone() end,
    clear_target_bone = function(c) c.s:clear_target_bone() eq(nil, (c.s:target_bone())) end,
    -- an aim and a tip angle one at a time: the aim cleared again after
    set_aim = function(c)
      c.s:clear_tip_angle()
      c.s:set_aim(1, 0, 0.5)
      eq(0.5, select(3, c.s:aim()))
      c.s:clear_aim()
    end,
    aim = function(c) c.s:aim() end,
    clear_aim = function(c) c.s:clear_aim() eq(nil, (c.s:aim())) end,
    forget = function(c) c.s:forget() end,
    solve = function(c) assert(finite(select(2, c.s:solve()))) assert_sane(c.arm) end,
    result = function(c) assert(finite(select(2, c.s:result()))) end,
  },
  Group = {
    solver = function(c) eq(c.s, c.g:solver(1)) end,
    solve = function(c) assert(c.g:solve() >= 0) assert_sane(c.arm) end,
    set_targets = function(c)
      c.g:set_targets{ 40, 20, "3", 1 }
      eq(40, (c.s:target()))
      eq(3, (c.s2:target()))
    end,
    joints = function(c) eq(16, #c.g:joints(c.scratch)) end,
    joint_offset = function(c) eq(8, c.g:joint_offset(2)) end,
    -- the arrays where LuaJIT's FFI makes them, an error elsewhere
    target_array = function(c)
      local ok, array = pcall(c.g.target_array, c.g)
      if helpers.is_luajit then assert(finite(ok and array[3])) else eq(false, ok) end
    end,
    joint_array = function(c)
      local ok, array = pcall(c.g.joint_array, c.g)
      if helpers.is_luajit then assert(finite(ok and array[15])) else eq(false, ok) end
    end,
    solvers = function(c) eq(c.s2, c.g:solvers(c.scratch)[2]) end,
    set_tip_angles = function(c) c.g:set_tip_angles{ 0.5, "0.25" } end,
    set_poles = function(c) c.g:set_poles{ 1, 2, "3", 4 } end,
    tip_angle_array = function(c)
      local ok, array = pcall(c.g.tip_angle_array, c.g)
      if helpers.is_luajit then assert(ok and array ~= nil) else eq(false, ok) end
    end,
    pole_array = function(c)
      local ok, array = pcall(c.g.pole_array, c.g)
      if helpers.is_luajit then assert(ok and array ~= nil) else eq(false, ok) end
    end,
    -- a group of skeletons' own: a group of solvers raises
    skeleton = function(c) eq(false, (pcall(c.g.skeleton, c.g, 1))) end,
    set_bases = function(c) eq(false, (pcall(c.g.set_bases, c.g, {}))) end,
    transforms = function(c) eq(false, (pcall(c.g.transforms, c.g))) end,
    transform_offset = function(c) eq(false, (pcall(c.g.transform_offset, c.g, 1))) end,
    base_array = function(c) eq(false, (pcall(c.g.base_array, c.g))) end,
    transform_array = function(c) eq(false, (pcall(c.g.transform_array, c.g))) end,
    matrices = function(c) eq(false, (pcall(c.g.matrices, c.g))) end,
    matrix_array = function(c) eq(false, (pcall(c.g.matrix_array, c.g))) end,
  },
}

local ORDER = { "Constraint", "Chain", "Solver", "Group" }

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- Builds the objects with a step between every constructor call.
local function build()
  local c = {}
  c.arm = make_arm(true)
  step()
  c.c = ik2d.constraint{ min = -1, max = 1 }
  step()
  c.arm:set_constraint(1, c.c)
  step()
  c.s = ik2d.solver(c.arm, { iterations = 20 })
  step()
  c.arm2 = ik2d.chain{ { length = 2 }, { length = 2 }, { length = 1 } }
  step()
  c.s2 = ik2d.solver(c.arm2)
  step()
  if ik2d.group then
    c.g = ik2d.group{ c.s, c.s2 }
    step()
  end
  c.scratch = {}
  return c
end

local function every_path(rounds)
  for _ = 1, rounds do
    local c = build()
    for _, kind in ipairs(ORDER) do
      local recipes = RECIPES[kind]
      if kind ~= "Group" or c.g then
        for _, name in ipairs(sorted_keys(recipes)) do
          recipes[name](c)
          step()
          -- and the objects as strings and lengths, which are API too
          local _ = tostring(c.arm) .. tostring(c.s) .. tostring(c.c) .. #c.arm
          step()
        end
      end
    end
    c.s:set_target(3, 3)
    c.s:solve()
    step()
    assert_sane(c.arm)
  end
end

-- ------------------------------------------------------------------
-- child interpreters for lua_close
-- ------------------------------------------------------------------

local run_child = helpers.run_lua

-- The child script's prelude: finaliser(fn) (helpers.FINALISER_SOURCE),
-- poke and objects.
local PRELUDE = [[
local ik2d = require "ik2d"
]] .. helpers.FINALISER_SOURCE .. [[
-- every method of every object, with pcall: after __gc each must raise
-- (or work), never crash
local function poke(objects)
  local results = {}
  local calls = {
    function() return objects.arm:tip() end,
    function() return objects.arm:joints({}) end,
    function() return objects.arm:set_pose(1, 0.5) end,
    function() return objects.arm:set_constraint(1, objects.c) end,
    function() return objects.arm:constraint(1) end,
    function() return #objects.arm end,
    function() return tostring(objects.arm) end,
    function() return objects.s:solve() end,
    function() return objects.s:chain() end,
    function() return objects.s:set_target(1, 1) end,
    function() return tostring(objects.s) end,
    function() return objects.c:set_limits(-1, 1) end,
    function() return objects.c:limits() end,
    function() return tostring(objects.c) end,
  }
  if objects.g then
    calls[#calls + 1] = function() return objects.g:solve() end
    calls[#calls + 1] = function() return objects.g:joints({}) end
    calls[#calls + 1] = function() return objects.g:solver(1) end
    calls[#calls + 1] = function() return #objects.g end
    calls[#calls + 1] = function() return tostring(objects.g) end
  end
  for i, call in ipairs(calls) do
    local ok, err = pcall(call)
    if not ok and not tostring(err):find("collected", 1, true) then
      io.write("unexpected error from call ", i, ": ", tostring(err), "\n")
    end
  end
end
local function objects()
  local o = {}
  o.c = ik2d.constraint{ min = -1, max = 1 }
  o.arm = ik2d.chain{ { length = 3 }, { length = 2, min = -0.5, max = 0.5 }, { length = 1 } }
  o.arm:set_constraint(1, o.c)
  o.s = ik2d.solver(o.arm)
  o.s:set_target(2, 2)
  o.s:solve()
  if ik2d.group then o.g = ik2d.group{ o.s } end
  return o
end
]]

-- The ways the objects meet lua_close.  Each prints "done" at its end;
-- the finalisers run after that, during lua_close.
local CLOSE_SCRIPTS = {
  { "objects left in globals", [[
    keep = objects()
    print("done")
  ]] },
  { "objects in a cycle through a table they do not know", [[
    local o = objects()
    o.self = o
    setmetatable(o, { __index = o })
    keep = { o }
    print("done")
  ]] },
  { "a finaliser created before the objects (runs after their __gc) uses them", [[
    local box = {}
    keep_first = finaliser(function() poke(box.o) end)
    box.o = objects()
    print("done")
  ]] },
  { "a finaliser created after the objects (runs before their __gc) uses them", [[
    local o = objects()
    keep_last = finaliser(function() poke(o) end)
    print("done")
  ]] },
  { "finalisers before, between and after, 200 object sets", [[
    local sets = {}
    for i = 1, 200 do
      sets[i] = objects()
      local o = sets[i]
      sets[i].f = finaliser(function() poke(o) end)
    end
    print("done")
  ]] },
  { "os.exit(0, true) with live objects", [[
    local o = objects()
    keep = finaliser(function() poke(o) end)
    print("done")
    os.exit(0, true)
  ]] },
}

-- __gc called by hand, in every order over chain, solver and group, and
-- every method after it: an error, never a crash (a finalised object
-- stays reachable from Lua in a finaliser, or by a script calling __gc).
local function manual_gc_script(order)
  return ([[
    local o = objects()
    local order = { %s }
    for _, name in ipairs(order) do
      if o[name] then debug.getmetatable(o[name]).__gc(o[name]) end
      poke(o)
    end
    collectgarbage()
    poke(o)
    print("done")
  ]]):format(order)
end

local function permutations(list)
  local out = {}
  local function walk(prefix, rest)
    if #rest == 0 then out[#out + 1] = prefix return end
    for i = 1, #rest do
      local p = { unpack(prefix) }
      p[#p + 1] = rest[i]
      local r = { unpack(rest) }
      table.remove(r, i)
      walk(p, r)
    end
  end
  walk({}, list)
  return out
end

local function assert_child(ok, out, code)
  assert(ok, ("the child exited with %s:\n%s"):format(tostring(code), out))
  assert(out:find("done", 1, true), "the child did not finish:\n" .. out)
  assert(not out:find("unexpected error", 1, true), out)
end

-- ------------------------------------------------------------------
-- specs
-- ------------------------------------------------------------------

describe("garbage-collector torture", function()
  it("has a recipe for every method of every type", function()
    local c = build()
    for kind, recipes in pairs(RECIPES) do
      local o = kind == "Chain" and c.arm or kind == "Constraint" and c.c
                or kind == "Solver" and c.s or c.g
      if o then
        for name in pairs(debug.getmetatable(o).__index) do
          assert(recipes[name], ("%s:%s has no recipe in the GC torture"):format(kind, name))
        end
      end
    end
  end)

  for _, mode in ipairs(MODES) do
    describe(mode.name, function()
      setup(mode.enter)
      teardown(mode.leave)

      it("runs every API path with a collector step between every two calls", function()
        every_path(helpers.size(5, 20))
      end)

      it("keeps a chain alive through its solver after the chain went out of scope", function()
        local function solver_only()
          local arm = make_arm(true)
          local s = ik2d.solver(arm, { iterations = 30, tolerance = 1e-6 })
          arm = nil -- luacheck: ignore
          return s
        end
        local solvers, weak = {}, setmetatable({}, { __mode = "v" })
        for k = 1, 20 do
          solvers[k] = solver_only()
          weak[k] = solvers[k]:chain()
          step()
        end
        full()
        for k = 1, 20 do
          local s = solvers[k]
          s:set_target(5, 3.5 + k / 40)
          assert((s:solve()))
          step()
          assert_sane(s:chain())
          eq(weak[k], s:chain())
        end
        -- once the solvers go, so do the chains
        solvers = nil -- luacheck: ignore
        full()
        assert.is_nil(next(weak))
      end)

      it("keeps a shared constraint working while its chains die in every order", function()
        for _, order in ipairs(permutations{ 1, 2, 3 }) do
          local c = ik2d.constraint{ min = -0.25, max = 0.25 }
          local chains, solvers = {}, {}
          for k = 1, 3 do
            chains[k] = make_arm(false)
            chains[k]:set_constraint(2, c)
            solvers[k] = ik2d.solver(chains[k])
            step()
          end
          local weak = setmetatable({ c = c }, { __mode = "v" })
          c = nil -- luacheck: ignore  -- only the chains hold it now
          for n, k in ipairs(order) do
            chains[k], solvers[k] = nil, nil
            full()
            for j = 1, 3 do
              if solvers[j] then
                solvers[j]:set_target(-4, 1)
                solvers[j]:solve()
                assert_sane(chains[j])
                -- the constraint is the same object, and still edits
                eq(weak.c, chains[j]:constraint(2))
                weak.c:set_limits(-0.2 - n / 100, 0.2)
                solvers[j]:solve()
                assert_sane(chains[j])
              end
            end
          end
          full()
          assert.is_nil(weak.c, "the constraint outlived every chain")
        end
      end)

      it("takes constraints removed and replaced between the solves of a frame loop", function()
        local arm = make_arm(false)
        local s = ik2d.solver(arm, { iterations = 20 })
        local weak = setmetatable({}, { __mode = "k" })
        for frame = 1, 300 do
          if frame % 3 == 0 then
            arm:set_constraint(2, nil)
          else
            local c = ik2d.constraint{ min = -0.1 * (frame % 7), max = 0.1 * (frame % 5) }
            weak[c] = true
            arm:set_constraint(2, c)
          end
          step()
          s:set_target(3 * math.cos(frame / 10), 3 * math.sin(frame / 10))
          s:solve()
          step()
          assert_sane(arm)
          if frame % 50 == 0 then full() end
        end
        arm:set_constraint(2, nil)
        full()
        assert.is_nil(next(weak), "removed constraints were not collected")
        s:solve()
        assert_sane(arm)
      end)

      it("lets a group outlive every other reference to its solvers and chains", function()
        if not ik2d.group then return end
        local function group_only()
          local list = {}
          for k = 1, 5 do list[k] = ik2d.solver(make_arm(true)) end
          return ik2d.group(list)
        end
        local g = group_only()
        full()
        for frame = 1, 50 do
          for k = 1, #g do g:solver(k):set_target(2, frame / 25) end
          step()
          g:solve()
          step()
          eq(5 * 8, #g:joints())
        end
        for k = 1, #g do assert_sane(g:solver(k):chain()) end
      end)
    end)
  end

  describe("lua_close in a child interpreter", function()
    local envs = { { "", "" } }
    if helpers.is_luajit then
      envs = { { "", "FFI methods, " }, { "IK2D_NO_FFI=1", "classic methods, " } }
    end
    for _, env in ipairs(envs) do
      for _, script in ipairs(CLOSE_SCRIPTS) do
        it(env[2] .. script[1] .. ": exits cleanly", function()
          assert_child(run_child(PRELUDE .. script[2], env[1]))
        end)
      end
      it(env[2] .. "__gc called by hand in every order, then every method: errors, no crash",
         function()
           for _, order in ipairs(permutations{ '"arm"', '"s"', '"g"' }) do
             local ok, out, code = run_child(PRELUDE .. manual_gc_script(table.concat(order, ", ")),
                                             env[1])
             assert(ok, ("order %s: the child exited with %s:\n%s")
                        :format(table.concat(order, ", "), tostring(code), out))
             assert_child(ok, out, code)
           end
         end)
    end
  end)
end)
