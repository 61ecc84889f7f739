-- Options are table-driven: an unknown key raises
-- naming it; enum strings match whole; a setter (s:set_tolerance(v)), the
-- option in set_options and the option in ik2d.solver accept the same
-- values and refuse the others with the same words; s:options() gives
-- every option back; booleans are booleans.  And the tables ik2d.chain
-- and ik2d.constraint read refuse fields they do not know.

local ik2d = require "ik2d"

local nan, inf = 0 / 0, math.huge
local unpack = table.unpack or unpack

local OPTIONS = { "method", "iterations", "tolerance", "weight", "damping", "warm_start",
                  "exact", "sweep", "bend", "softness", "stretch", "softness_curve", "compress",
                  "uniform", "tip_angle", "tip_weight", "pole", "priority", "together", "aim" }

local function two_bones()
  return ik2d.chain{ { length = 2 }, { length = 1 } }
end

-- The message of a call that must raise, and the part in parentheses.
local function raise(f, ...)
  local ok, msg = pcall(f, ...)
  assert(not ok, "expected an error, the call returned")
  return tostring(msg), tostring(msg):match("%((.*)%)$")
end

local function options_of(s)
  local t = s:options()
  t.tolerance_bits = ("%.17g"):format(t.tolerance)
  return t
end

describe("solver options", function()
  describe("an unknown key", function()
    it("ik2d.solver(c, { iteration = 5 }) raises naming 'iteration'", function()
      local msg = raise(function() return ik2d.solver(two_bones(), { iteration = 5 }) end)
      assert.truthy(msg:find("bad argument #2 to 'solver' (unknown option 'iteration')", 1, true), msg)
    end)

    it("s:set_options{ itertions = 1 } raises naming 'itertions' and changes nothing", function()
      local s = ik2d.solver(two_bones(), { iterations = 7 })
      local before = options_of(s)
      local msg = raise(function() s:set_options{ iterations = 3, itertions = 1 } end)
      assert.truthy(msg:find("bad argument #1 to 'set_options' (unknown option 'itertions')", 1, true), msg)
      assert.are.same(before, options_of(s))
      assert.are.equal(7, s:iterations())
    end)

    it("a key that is no string raises, saying option names are strings", function()
      local s = ik2d.solver(two_bones())
      local _, inner = raise(function() s:set_options{ [1] = 3 } end)
      assert.are.equal("option names are strings, got number", inner)
      _, inner = raise(function() s:set_options{ [true] = 3 } end)
      assert.are.equal("option names are strings, got boolean", inner)
    end)

    it("is refused for each known name misspelt by case", function()
      local s = ik2d.solver(two_bones())
      for _, name in ipairs(OPTIONS) do
        local _, inner = raise(function() s:set_options{ [name:upper()] = 1 } end)
        assert.are.equal(("unknown option '%s'"):format(name:upper()), inner)
      end
    end)
  end)

  describe("enum strings match whole", function()
    local METHOD = 'method must be "ccd", "fabrik", "two_bone" or "follow"'
    local SWEEP = 'sweep must be "root" or "tip"'

    for _, case in ipairs{
      { "method", "fabrik\0junk", METHOD }, { "method", "fabrik ", METHOD },
      { "method", "FABRIK", METHOD }, { "method", "fab", METHOD }, { "method", "", METHOD },
      { "method", 1, METHOD }, { "sweep", "tip\0junk", SWEEP }, { "sweep", "root\0", SWEEP },
      { "sweep", "Tip", SWEEP }, { "sweep", true, SWEEP },
    } do
      local name, value, words = case[1], case[2], case[3]
      it(("%s = %q is refused, nothing changed"):format(name, tostring(value)), function()
        local s = ik2d.solver(two_bones())
        local before = options_of(s)
        local _, inner = raise(function() s:set_options{ [name] = value } end)
        assert.are.equal(words, inner)
        _, inner = raise(function() return ik2d.solver(two_bones(), { [name] = value }) end)
        assert.are.equal(words, inner)
        assert.are.same(before, options_of(s))
      end)
    end

    it("every listed string is accepted and read back", function()
      local s = ik2d.solver(two_bones())
      for _, m in ipairs{ "fabrik", "two_bone", "ccd" } do
        s:set_options{ method = m }
        assert.are.equal(m, s:method())
        assert.are.equal(m, s:options().method)
      end
      for _, w in ipairs{ "tip", "root" } do
        s:set_options{ sweep = w }
        assert.are.equal(w, s:options().sweep)
      end
    end)
  end)

  describe("a setter and its option: the same values, the same words", function()
    -- value, and what the getter reads after it when it is accepted
    local VALUES = {
      { "2^31 - 1", 2 ^ 31 - 1 }, { "2^31", 2 ^ 31 }, { "-2^31", -2 ^ 31 },
      { '"0.5"', "0.5" }, { '"10"', "10" }, { '"0x10"', "0x10" }, { '"abc"', "abc" },
      { "0.5", 0.5 }, { "0", 0 }, { "1", 1 }, { "-1", -1 }, { "1.5", 1.5 }, { "3", 3 },
      { "1e300", 1e300 }, { "nan", nan }, { "inf", inf }, { "-inf", -inf },
      { "true", true }, { "a table", {} }, { "nil", nil },
    }
    -- colon calls, as a game writes them: the value is argument #1 of both
    local SETTERS = {
      weight = { "set_weight", function(s, v) s:set_weight(v) end },
      iterations = { "set_iterations", function(s, v) s:set_iterations(v) end },
      tolerance = { "set_tolerance", function(s, v) s:set_tolerance(v) end },
    }
    local function set_options(s, name, v) s:set_options{ [name] = v } end

    for name, setter in pairs(SETTERS) do
      for _, v in ipairs(VALUES) do
        it(("s:%s(%s) and set_options{ %s = %s } agree"):format(setter[1], v[1], name, v[1]), function()
          local a, b = ik2d.solver(two_bones()), ik2d.solver(two_bones())
          local ok_a, err_a = pcall(setter[2], a, v[2])
          local ok_b, err_b = pcall(set_options, b, name, v[2])
          if v[2] == nil then
            -- an option set to nil is no option at all: set_options{} works
            assert.is_false(ok_a)
            assert.is_true(ok_b)
            assert.are.equal(("%s: number expected, got nil"):format(name),
                             tostring(err_a):match("%((.*)%)$"))
            return
          end
          assert.are.equal(ok_a, ok_b)
          if ok_a then
            assert.are.equal(a[name](a), b[name](b))
            assert.are.same(options_of(a), options_of(b))
          else
            -- the same words, on argument #1 of each
            local words = tostring(err_a):match("%((.*)%)$")
            assert.are.equal(words, tostring(err_b):match("%((.*)%)$"))
            assert.truthy(tostring(err_a):find(("bad argument #1 to '%s' (%s)"):format(setter[1], words), 1,
                                               true), err_a)
            assert.truthy(tostring(err_b):find(("bad argument #1 to 'set_options' (%s)"):format(words), 1,
                                               true), err_b)
          end
        end)
      end
    end

    it("iterations 2^31 - 1 is accepted both ways, 2^31 refused both ways", function()
      local s = ik2d.solver(two_bones())
      s:set_iterations(2 ^ 31 - 1)
      assert.are.equal(2147483647, s:iterations())
      s:set_iterations(10)
      s:set_options{ iterations = 2 ^ 31 - 1 }
      assert.are.equal(2147483647, s:iterations())
      assert.are.equal(2147483647, ik2d.solver(two_bones(), { iterations = 2 ^ 31 - 1 }):iterations())
      local words = "iterations must be a whole number within +-2147483647"
      assert.are.equal(words, select(2, raise(function() s:set_iterations(2 ^ 31) end)))
      assert.are.equal(words, select(2, raise(function() s:set_options{ iterations = 2 ^ 31 } end)))
    end)

    it('tolerance "0.5" is accepted both ways (0.5), "abc" refused both ways', function()
      local s = ik2d.solver(two_bones())
      s:set_tolerance("0.5")
      assert.are.equal(0.5, s:tolerance())
      s:set_tolerance(0.01)
      s:set_options{ tolerance = "0.5" }
      assert.are.equal(0.5, s:tolerance())
      assert.are.equal(0.5, ik2d.solver(two_bones(), { tolerance = "0.5" }):tolerance())
      local words = "tolerance: number expected, got string"
      assert.are.equal(words, select(2, raise(function() s:set_tolerance("abc") end)))
      assert.are.equal(words, select(2, raise(function() s:set_options{ tolerance = "abc" } end)))
    end)
  end)

  describe("ik2d.solver and set_options: the same values, the same words", function()
    local VALUES = { 0, 1, -1, 2, 0.5, 1.5, 1e300, nan, inf, -inf, "0.5", "2", "x", true, false,
                     "ccd", "fabrik", "two_bone", "root", "tip", {} }
    for _, name in ipairs(OPTIONS) do
      it(name, function()
        for _, v in ipairs(VALUES) do
          local s = ik2d.solver(two_bones())
          local ok_new, new = pcall(ik2d.solver, two_bones(), { [name] = v })
          local ok_set, err_set = pcall(s.set_options, s, { [name] = v })
          local label = ("%s = %s"):format(name, tostring(v))
          assert.are.equal(ok_new, ok_set, label)
          if ok_new then
            assert.are.same(options_of(new), options_of(s), label)
          else
            assert.are.equal(tostring(new):match("%((.*)%)$"), tostring(err_set):match("%((.*)%)$"),
                             label)
          end
        end
      end)
    end
  end)

  describe("s:options()", function()
    it("returns every option, and nothing else", function()
      local t = ik2d.solver(two_bones()):options()
      local keys = {}
      for k in pairs(t) do keys[#keys + 1] = k end
      table.sort(keys)
      local want = { unpack(OPTIONS) }
      table.sort(want)
      assert.are.same(want, keys)
    end)

    it("gives the defaults of a new solver", function()
      assert.are.same({ method = "ccd", iterations = 10, tolerance = 0.01, weight = 1, damping = 0,
                        warm_start = true, exact = true, sweep = "root", bend = 1, softness = 0,
                        softness_curve = "smooth", stretch = 1, compress = 1, uniform = false,
                        tip_angle = false, tip_weight = 1, pole = false, priority = 1,
                        together = true, aim = false },
                      ik2d.solver(two_bones()):options())
    end)

    it("gives back what was set, and set_options takes it back unchanged", function()
      local set = { method = "two_bone", iterations = 37, tolerance = 0.125, weight = 0.25,
                    damping = 0.5, warm_start = false, exact = false, sweep = "tip", bend = -1,
                    softness = 0.75, softness_curve = "spine", stretch = 1.5, compress = 0.5,
                    uniform = true, tip_angle = 0.25, tip_weight = 0.5, pole = { 3, 4 },
                    priority = 2.5, together = false, aim = false }
      local s = ik2d.solver(two_bones(), set)
      assert.are.same(set, s:options())
      local other = ik2d.solver(two_bones())
      other:set_options(s:options())
      assert.are.same(set, other:options())
    end)

    it("fills the table it is given and returns it", function()
      local t = { keep = "me" }
      assert.are.equal(t, ik2d.solver(two_bones()):options(t))
      assert.are.equal(10, t.iterations)
      assert.are.equal("me", t.keep)
    end)
  end)

  describe("booleans", function()
    for _, name in ipairs{ "warm_start", "exact" } do
      for _, v in ipairs{ 1, 0, "true", "false", {} } do
        it(("%s = %s is refused: it must be true or false"):format(name, tostring(v)), function()
          local s = ik2d.solver(two_bones())
          local _, inner = raise(function() s:set_options{ [name] = v } end)
          assert.are.equal(("%s must be true or false, got %s"):format(name, type(v)), inner)
          assert.is_true(s:options()[name])
        end)
      end
      it(name .. " = false is kept as false", function()
        local s = ik2d.solver(two_bones(), { [name] = false })
        assert.is_false(s:options()[name])
        s:set_options{ [name] = true }
        assert.is_true(s:options()[name])
      end)
    end
  end)

  describe("set_options is all or nothing", function()
    it("a bad value after good ones leaves every option as it was", function()
      local s = ik2d.solver(two_bones(), { iterations = 12 })
      local before = options_of(s)
      raise(function()
        s:set_options{ iterations = 99, tolerance = 0.5, weight = 0.5, method = "fabrik", bend = 0 }
      end)
      assert.are.same(before, options_of(s))
    end)
  end)
end)

describe("chain and constraint tables", function()
  it("ik2d.chain{ { length = 1e308 }, { length = 1e308 } } names the overflowing sum", function()
    local _, inner = raise(function() return ik2d.chain{ { length = 1e308 }, { length = 1e308 } } end)
    assert.are.equal("the bone lengths add up beyond the largest number", inner)
    -- each length alone is fine, and so is a sum just below the largest
    assert.are.equal(1e308, ik2d.chain{ { length = 1e308 } }:reach())
    assert.are.equal(1.7e308, ik2d.chain{ { length = 1e308 }, { length = 0.7e308 } }:reach())
  end)

  for _, case in ipairs{
    { "a misspelt chain field", function() return ik2d.chain{ { length = 1 }, z = 1 } end,
      "unknown field 'z'" },
    { "a chain field in another case", function() return ik2d.chain{ { length = 1 }, X = 1 } end,
      "unknown field 'X'" },
    { "a bone past the sequence", function() return ik2d.chain{ { length = 1 }, [3] = { length = 1 } } end,
      "unknown field [3]" },
    { "a fractional key", function() return ik2d.chain{ { length = 1 }, [1.5] = 1 } end,
      "unknown field [1.5]" },
    { "a boolean key", function() return ik2d.chain{ { length = 1 }, [true] = 1 } end,
      "unknown field of type boolean" },
    { "a misspelt bone field", function() return ik2d.chain{ { length = 1 }, { length = 1, lenght = 2 } } end,
      "bone 2: unknown field 'lenght'" },
    { "a bone field meant for the chain", function() return ik2d.chain{ { length = 1, flip = true } } end,
      "bone 1: unknown field 'flip'" },
    { "a misspelt constraint field", function() return ik2d.constraint{ min = -1, max = 1, inverted = true } end,
      "unknown field 'inverted'" },
    { "a constraint with a bone's field", function() return ik2d.constraint{ min = -1, max = 1, length = 1 } end,
      "unknown field 'length'" },
  } do
    it(case[1] .. " is refused, naming it", function()
      local msg, inner = raise(case[2])
      assert.are.equal(case[3], inner)
      assert.truthy(msg:find("bad argument #1 to '", 1, true), msg)
    end)
  end
end)
