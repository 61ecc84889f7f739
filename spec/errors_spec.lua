-- Bad input: every case raises an error that names the argument and
-- what was wrong, and a failed call changes nothing.
--
-- Argument numbers follow Lua's own convention (luaL_argerror): in a
-- call written with a colon, self is not counted, so in
-- s:set_target(1, nil) the nil is "bad argument #2 to 'set_target'".
-- In a call written with a dot, such as arm.tip(s), self is #1.

local ik2d = require "ik2d"
local helpers = require "spec.helpers"

local nan, inf = helpers.nan, helpers.inf
local bad = helpers.bad_argument

-- The expectations for the n-th argument written after the colon of a
-- method call, s:set_target(1, nil) -> "bad argument #2".  This is the
-- numbering of Lua's own luaL_argerror (it does not count self in a
-- colon call) and of the contract's example.
local function method_arg(n, fname, ...)
  return bad(n, fname, ...)
end

local FINITE = { any = { "finite", "nan", "inf" } }
-- "bone index 4 out of range (1..3)": the index given and the range
local function out_of_range(what, i, last)
  return ("%s index %d out of range (1..%d)"):format(what, i, last)
end
local NOT_WHOLE = { any = { "whole", "integer", "out of range" } }

-- The objects every case starts from: a posed, solved chain with a
-- constraint on bone 2, its solver and that constraint.
local function fixture()
  local arm = ik2d.chain{ x = 1, y = 2, angle = 0.1,
    { length = 60, angle = 0.2 },
    { length = 50, angle = 0.3, min = -0.17, max = 2.27 },
    { length = 20 } }
  arm:set_pose(1, 0.25)
  local s = ik2d.solver(arm)
  s:set_target(40, 70)
  s:solve()
  return arm, s, arm:constraint(2)
end

local function snapshot(arm, s, c)
  return { chain = helpers.chain_state(arm), solver = helpers.solver_state(s),
           constraint = helpers.constraint_state(c) }
end

-- The objects still do their job after the failed call.
local function still_works(arm, s, c)
  s:set_iterations(100)
  s:set_target(30, 80)
  local reached, distance = s:solve()
  assert.is_true(reached, "solve after the error: distance " .. tostring(distance))
  assert.truthy(helpers.max_violation(arm) <= 1e-9)
  c:set_limits(-0.5, 0.5)
  local min, max = c:limits()
  assert.are.equal(-0.5, min)
  assert.are.equal(0.5, max)
  local x, y = arm:tip()
  assert.are.equal("number", type(x))
  assert.are.equal("number", type(y))
end

-- One `it` per case: the call must raise; state is compared first (so
-- a wrong message does not hide a changed object), then the message.
local function cases(list)
  for _, case in ipairs(list) do
    local name, call, expect = case[1], case[2], case[3]
    it(name, function()
      local arm, s, c = fixture()
      local before = snapshot(arm, s, c)
      local msg = helpers.error_of(call, arm, s, c)
      assert.are.same(before, snapshot(arm, s, c))
      still_works(arm, s, c)
      helpers.check_message(msg, expect)
    end)
  end
end

local function bones(n)
  local t = {}
  for i = 1, n do t[i] = { length = 1 } end
  return t
end

describe("errors", function()
  describe("ik2d.chain", function()
    cases{
      { "rejects a number instead of the table",
        function() ik2d.chain(5) end, bad(1, "chain", "table expected, got number") },
      { "rejects a missing table",
        function() ik2d.chain() end, bad(1, "chain", "table expected, got no value") },
      { "rejects zero bones",
        function() ik2d.chain{ x = 1 } end,
        { "bone", { any = { "1 to 64", "1..64", "at least 1", "at least one", "no bones" } } } },
      { "rejects 65 bones (more than 64)",
        function() ik2d.chain(bones(65)) end, { "bone", "64" } },
      { "rejects a bone that is not a table",
        function() ik2d.chain{ { length = 1 }, 5 } end, { "bone 2", "table" } },
      { "rejects length 0: 'bone 2: length must be > 0'",
        function() ik2d.chain{ { length = 1 }, { length = 0 } } end,
        { "bone 2: length must be > 0" } },
      { "rejects a negative length",
        function() ik2d.chain{ { length = 1 }, { length = -3 } } end,
        { "bone 2: length must be > 0" } },
      { "rejects a missing length",
        function() ik2d.chain{ { length = 1 }, { angle = 1 } } end, { "bone 2: length" } },
      { "rejects a length that is a string",
        function() ik2d.chain{ { length = 1 }, { length = "long" } } end,
        { "bone 2: length", { any = { "number" } } } },
      { "rejects a nan length",
        function() ik2d.chain{ { length = 1 }, { length = nan } } end, { "bone 2: length", FINITE } },
      { "rejects an infinite length",
        function() ik2d.chain{ { length = 1 }, { length = inf } } end, { "bone 2: length", FINITE } },
      { "rejects a nan rest angle",
        function() ik2d.chain{ { length = 1 }, { length = 1, angle = nan } } end,
        { "bone 2: rest angle", FINITE } },
      { "rejects an infinite rest angle",
        function() ik2d.chain{ { length = 1 }, { length = 1, angle = -inf } } end,
        { "bone 2: rest angle", FINITE } },
      { "rejects a nan min",
        function() ik2d.chain{ { length = 1 }, { length = 1, min = nan, max = 1 } } end,
        { "bone 2: min", FINITE } },
      { "rejects an infinite max",
        function() ik2d.chain{ { length = 1 }, { length = 1, min = 0, max = inf } } end,
        { "bone 2: max", FINITE } },
      { "rejects bone limits with min > max",
        function() ik2d.chain{ { length = 1 }, { length = 1, min = 1, max = 0 } } end,
        { "bone 2: min > max" } },
      { "rejects a nan base x",
        function() ik2d.chain{ x = nan, { length = 1 } } end, { { pattern = "%f[%w]x%f[%W]" }, FINITE } },
      { "rejects an infinite base y",
        function() ik2d.chain{ y = inf, { length = 1 } } end, { { pattern = "%f[%w]y%f[%W]" }, FINITE } },
      { "rejects a nan base angle",
        function() ik2d.chain{ angle = nan, { length = 1 } } end, { "angle", FINITE } },
    }
  end)

  describe("ik2d.constraint", function()
    cases{
      { "rejects a number instead of the table",
        function() ik2d.constraint(4) end, bad(1, "constraint", "table expected, got number") },
      { "rejects min > max",
        function() ik2d.constraint{ min = 1, max = 0 } end, { "min > max" } },
      { "rejects a nan min",
        function() ik2d.constraint{ min = nan, max = 0 } end, { "min", FINITE } },
      { "rejects an infinite max",
        function() ik2d.constraint{ min = 0, max = inf } end, { "max", FINITE } },
      { "rejects an infinite min",
        function() ik2d.constraint{ min = -inf, max = 0 } end, { "min", FINITE } },
    }
  end)

  describe("ik2d.solver", function()
    cases{
      { "rejects a missing chain",
        function() ik2d.solver(nil) end, bad(1, "solver", "ik2d.Chain expected") },
      { "rejects a constraint in place of the chain",
        function(_, _, c) ik2d.solver(c) end, bad(1, "solver", "ik2d.Chain expected") },
      { "rejects options that are not a table",
        function(arm) ik2d.solver(arm, 5) end, bad(2, "solver", "table expected, got number") },
      { "rejects iterations 0 in the options",
        function(arm) ik2d.solver(arm, { iterations = 0 }) end,
        bad(2, "solver", "iterations", { any = { ">= 1", "at least 1" } }) },
      { "rejects negative iterations in the options",
        function(arm) ik2d.solver(arm, { iterations = -4 }) end,
        bad(2, "solver", "iterations", { any = { ">= 1", "at least 1" } }) },
      { "rejects nan iterations in the options",
        function(arm) ik2d.solver(arm, { iterations = nan }) end, bad(2, "solver", "iterations") },
      { "rejects a negative tolerance in the options",
        function(arm) ik2d.solver(arm, { tolerance = -0.5 }) end,
        bad(2, "solver", "tolerance", { any = { ">= 0", "negative" } }) },
      { "rejects a nan tolerance in the options",
        function(arm) ik2d.solver(arm, { tolerance = nan }) end, bad(2, "solver", "tolerance", FINITE) },
      { "rejects an infinite tolerance in the options",
        function(arm) ik2d.solver(arm, { tolerance = inf }) end, bad(2, "solver", "tolerance", FINITE) },
      { "rejects a nan weight in the options",
        function(arm) ik2d.solver(arm, { weight = nan }) end, bad(2, "solver", "weight", FINITE) },
      { "rejects an unknown method",
        function(arm) ik2d.solver(arm, { method = "nope" }) end, bad(2, "solver", "method") },
    }
  end)

  describe("chain methods", function()
    describe("wrong types", function()
      cases{
        { "set_base(nil, 2, 3): #1 number expected, got nil",
          function(arm) arm:set_base(nil, 2, 3) end, method_arg(1, "set_base", "number expected, got nil") },
        { "set_base(1, 'y', 3): #2 number expected, got string",
          function(arm) arm:set_base(1, "y", 3) end, method_arg(2, "set_base", "number expected, got string") },
        { "set_base(1, 2, {}): #3 number expected, got table",
          function(arm) arm:set_base(1, 2, {}) end, method_arg(3, "set_base", "number expected, got table") },
        { "set_pose(1, true): #2 number expected, got boolean",
          function(arm) arm:set_pose(1, true) end, method_arg(2, "set_pose", "number expected, got boolean") },
        { "set_pose('one', 1): #1 number expected, got string",
          function(arm) arm:set_pose("one", 1) end, method_arg(1, "set_pose", "number expected, got string") },
        { "pose(): #1 number expected, got no value (or nil)",
          function(arm) arm:pose() end,
          method_arg(1, "pose", "number expected, got ", { any = { "got no value", "got nil" } }) },
        { "set_constraint(2, 5): #2 ik2d.Constraint expected",
          function(arm) arm:set_constraint(2, 5) end, method_arg(2, "set_constraint", "ik2d.Constraint expected") },
        { "set_constraint(2, chain): #2 ik2d.Constraint expected",
          function(arm) arm:set_constraint(2, arm) end, method_arg(2, "set_constraint", "ik2d.Constraint expected") },
        { "arm.tip(solver): #1 ik2d.Chain expected",
          function(arm, s) arm.tip(s) end, bad(1, "tip", "ik2d.Chain expected") },
        { "arm.set_pose(constraint, 1, 0): #1 ik2d.Chain expected",
          function(arm, _, c) arm.set_pose(c, 1, 0) end, bad(1, "set_pose", "ik2d.Chain expected") },
      }
    end)

    describe("non-finite numbers", function()
      local list = {}
      -- tostring(0/0) is "-nan" or "nan" depending on the platform
      for _, bad_value in ipairs{ { nan, "nan" }, { inf, "inf" }, { -inf, "-inf" } } do
        local v, vname = bad_value[1], bad_value[2]
        for pos = 1, 3 do
          local args, names = { 5, 6, 0.5 }, { "5", "6", "0.5" }
          args[pos], names[pos] = v, vname
          list[#list + 1] = {
            ("set_base(%s, %s, %s) raises for #%d and leaves the base alone")
              :format(names[1], names[2], names[3], pos),
            function(arm) arm:set_base(args[1], args[2], args[3]) end,
            method_arg(pos, "set_base", FINITE) }
        end
        list[#list + 1] = { ("set_pose(1, %s)"):format(vname),
          function(arm) arm:set_pose(1, v) end, method_arg(2, "set_pose", FINITE) }
        list[#list + 1] = { ("set_pose(%s, 0.5) (index)"):format(vname),
          function(arm) arm:set_pose(v, 0.5) end,
          method_arg(1, "set_pose", { any = { "whole", "integer", "range", "finite" } }) }
      end
      cases(list)
    end)

    describe("bone index out of range", function()
      local list = {}
      local getters = { "pose", "angle", "world_angle", "length", "rest", "constraint" }
      for _, name in ipairs(getters) do
        for _, i in ipairs{ 0, 4, -1 } do
          list[#list + 1] = { ("%s(%d) of a 3-bone chain"):format(name, i),
            -- a call written arm[name](arm, i) is no colon call: Lua counts self
            function(arm) local v = arm[name](arm, i); return v end, bad(2, name, out_of_range("bone", i, 3)) }
        end
        list[#list + 1] = { ("%s(1.5)"):format(name),
          function(arm) local v = arm[name](arm, 1.5); return v end, bad(2, name, NOT_WHOLE) }
      end
      for _, i in ipairs{ 0, 4 } do
        list[#list + 1] = { ("set_pose(%d, 0.5)"):format(i),
          function(arm) arm:set_pose(i, 0.5) end, method_arg(1, "set_pose", out_of_range("bone", i, 3)) }
        list[#list + 1] = { ("set_constraint(%d, c)"):format(i),
          function(arm, _, c) arm:set_constraint(i, c) end,
          method_arg(1, "set_constraint", out_of_range("bone", i, 3)) }
      end
      list[#list + 1] = { "set_pose(1.5, 0.5)",
        function(arm) arm:set_pose(1.5, 0.5) end, method_arg(1, "set_pose", NOT_WHOLE) }
      list[#list + 1] = { "set_constraint(1.5, c)",
        function(arm, _, c) arm:set_constraint(1.5, c) end, method_arg(1, "set_constraint", NOT_WHOLE) }
      list[#list + 1] = { "set_constraint(4, nil)",
        function(arm) arm:set_constraint(4, nil) end, method_arg(1, "set_constraint", out_of_range("bone", 4, 3)) }
      -- joints run 1..#arm + 1
      for _, i in ipairs{ 0, 5 } do
        list[#list + 1] = { ("joint(%d) of a 3-bone chain (joints 1..4)"):format(i),
          -- no tail call: it would hide the colon from the error's numbering
          function(arm) local x = arm:joint(i); return x end, method_arg(1, "joint", out_of_range("joint", i, 4)) }
      end
      list[#list + 1] = { "joint(1.5)",
        function(arm) local x = arm:joint(1.5); return x end, method_arg(1, "joint", NOT_WHOLE) }
      cases(list)
    end)
  end)

  describe("solver methods", function()
    describe("wrong types", function()
      it("set_target(1, nil) says: bad argument #2 to 'set_target' (number expected, got nil)", function()
        local arm, s, c = fixture()
        local before = snapshot(arm, s, c)
        local msg = helpers.error_of(function() s:set_target(1, nil) end)
        assert.are.same(before, snapshot(arm, s, c))
        if helpers.is_luajit then
          helpers.check_message(msg, { "bad argument #2", "(number expected, got nil)" })
        else
          helpers.check_message(msg, { "bad argument #2 to 'set_target' (number expected, got nil)" })
        end
      end)

      cases{
        { "set_target(nil, 1): #1 number expected, got nil",
          function(_, s) s:set_target(nil, 1) end, method_arg(1, "set_target", "number expected, got nil") },
        -- a missing argument: PUC Lua says "no value"; a function written in
        -- Lua (such as a LuaJIT FFI fast path) can only see nil
        { "set_target(1): #2 number expected, got no value (or nil)",
          function(_, s) s:set_target(1) end,
          method_arg(2, "set_target", "number expected, got ", { any = { "got no value", "got nil" } }) },
        { "set_weight('heavy'): #1 number expected, got string",
          function(_, s) s:set_weight("heavy") end, method_arg(1, "set_weight", "number expected, got string") },
        { "set_weight(nil): #1 number expected, got nil",
          function(_, s) s:set_weight(nil) end, method_arg(1, "set_weight", "number expected, got nil") },
        { "set_iterations(nil): #1 number expected, got nil",
          function(_, s) s:set_iterations(nil) end, method_arg(1, "set_iterations", "number expected, got nil") },
        { "set_tolerance({}): #1 number expected, got table",
          function(_, s) s:set_tolerance({}) end, method_arg(1, "set_tolerance", "number expected, got table") },
        { "s.solve(chain): #1 ik2d.Solver expected",
          function(arm, s) s.solve(arm) end, bad(1, "solve", "ik2d.Solver expected") },
      }
    end)

    describe("bad values", function()
      cases{
        { "set_target(nan, 0)", function(_, s) s:set_target(nan, 0) end, method_arg(1, "set_target", FINITE) },
        { "set_target(inf, 0)", function(_, s) s:set_target(inf, 0) end, method_arg(1, "set_target", FINITE) },
        { "set_target(5, nan) leaves x alone",
          function(_, s) s:set_target(5, nan) end, method_arg(2, "set_target", FINITE) },
        { "set_target(5, -inf) leaves x alone",
          function(_, s) s:set_target(5, -inf) end, method_arg(2, "set_target", FINITE) },
        { "set_weight(nan)", function(_, s) s:set_weight(nan) end,
          method_arg(1, "set_weight", { any = { "nan", "finite" } }) },
        { "set_iterations(0): iterations < 1",
          function(_, s) s:set_iterations(0) end,
          method_arg(1, "set_iterations", { any = { ">= 1", "at least 1" } }) },
        { "set_iterations(-3): iterations < 1",
          function(_, s) s:set_iterations(-3) end,
          method_arg(1, "set_iterations", { any = { ">= 1", "at least 1" } }) },
        { "set_iterations(1.5)",
          function(_, s) s:set_iterations(1.5) end, method_arg(1, "set_iterations", { any = { "whole", "integer" } }) },
        { "set_iterations(nan)",
          function(_, s) s:set_iterations(nan) end,
          method_arg(1, "set_iterations", { any = { "whole", "integer", "finite", ">= 1" } }) },
        { "set_iterations(inf)",
          function(_, s) s:set_iterations(inf) end,
          method_arg(1, "set_iterations", { any = { "whole", "integer", "finite", ">= 1" } }) },
        { "set_tolerance(-0.01): negative tolerance",
          function(_, s) s:set_tolerance(-0.01) end,
          method_arg(1, "set_tolerance", { any = { ">= 0", "negative" } }) },
        { "set_tolerance(nan)", function(_, s) s:set_tolerance(nan) end, method_arg(1, "set_tolerance", FINITE) },
        { "set_tolerance(inf)", function(_, s) s:set_tolerance(inf) end, method_arg(1, "set_tolerance", FINITE) },
      }
    end)
  end)

  describe("constraint methods", function()
    cases{
      { "set_limits(1, 0): min > max, limits unchanged",
        function(_, _, c) c:set_limits(1, 0) end, { "min > max" } },
      { "set_limits(nil, 1): #1 number expected, got nil",
        function(_, _, c) c:set_limits(nil, 1) end, method_arg(1, "set_limits", "number expected, got nil") },
      { "set_limits(0, 'x'): #2 number expected, got string",
        function(_, _, c) c:set_limits(0, "x") end, method_arg(2, "set_limits", "number expected, got string") },
      { "set_limits(nan, 0)", function(_, _, c) c:set_limits(nan, 0) end, method_arg(1, "set_limits", FINITE) },
      { "set_limits(0.1, nan) leaves min alone",
        function(_, _, c) c:set_limits(0.1, nan) end, method_arg(2, "set_limits", FINITE) },
      { "set_limits(-inf, 0)", function(_, _, c) c:set_limits(-inf, 0) end, method_arg(1, "set_limits", FINITE) },
      { "set_limits(0, inf)", function(_, _, c) c:set_limits(0, inf) end, method_arg(2, "set_limits", FINITE) },
      { "c.limits(chain): #1 ik2d.Constraint expected",
        function(arm, _, c) c.limits(arm) end, bad(1, "limits", "ik2d.Constraint expected") },
    }
  end)

  describe("values that are not errors", function()
    it("set_weight clamps infinities instead of raising", function()
      local _, s = fixture()
      s:set_weight(inf)
      assert.are.equal(1, s:weight())
      s:set_weight(-inf)
      assert.are.equal(0, s:weight())
    end)

    it("joint(#arm + 1) is the tip, not an error", function()
      local arm = fixture()
      local x, y = arm:joint(4)
      local tx, ty = arm:tip()
      assert.are.equal(tx, x)
      assert.are.equal(ty, y)
    end)
  end)
end)
