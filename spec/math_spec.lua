-- The pure-Lua core's transcendentals (lua/ik2d/pure/math.lua) are the C
-- core's (src/ik2d_math.c) operation for operation: spec/math/dump.c
-- prints the C results, bit for bit, and each must come out the same in
-- Lua.  The C core's results are the same on every platform (make
-- test-platforms), so the pure core's are too.

local helpers = require "spec.helpers"
local m = require "ik2d.pure.math"

local q = helpers.shell_quote

-- the double of IEEE-754 bits hi (top 32) and lo (bottom 32), by exact
-- scalings: the value is a double, so no product below rounds
local function from_bits(hi, lo)
  local negative = hi >= 2147483648
  if negative then hi = hi - 2147483648 end
  local exponent = (hi - hi % 1048576) / 1048576
  local mantissa = (hi % 1048576) * 4294967296 + lo
  local value
  if exponent == 2047 then
    value = mantissa == 0 and math.huge or 0 / 0
  else
    local k = exponent == 0 and -1074 or exponent - 1075
    if exponent ~= 0 then mantissa = mantissa + 4503599627370496 end
    local scale = 1.0
    local step = k < 0 and 0.5 or 2.0
    for _ = 1, math.abs(k) do scale = scale * step end
    value = mantissa * scale
  end
  if negative then return -value end
  return value
end

local function same(a, b)
  if a ~= a then return b ~= b end
  return a == b and (a ~= 0 or 1 / a == 1 / b)
end

describe("ik2d.pure.math", function()
  local built, program, output

  setup(function()
    built, program = helpers.build_core_program { "spec/math/dump.c" }
    if built then
      local _
      _, output = helpers.run(q(program) .. " 1500")
      os.remove(program)
    end
  end)

  -- every line of the dump computed by the pure core, a description of
  -- each mismatch (the first five) and the count of lines and of the
  -- lines the dump says it printed; rot and atan2 through each variant
  -- (branches for PUC Lua, flat for LuaJIT: both checked on every runtime)
  local function compare(rot, atan2)
    local lines, printed, mismatches = 0, nil, {}
    for line in output:gmatch("[^\n]+") do
      local name, rest = line:match("^(%a+%d?)(.*)$")
      if name == "lines" then
        printed = tonumber(rest)
      else
        local v = {}
        for hi, lo in rest:gmatch("(%d+) (%d+)") do v[#v + 1] = from_bits(tonumber(hi), tonumber(lo)) end
        local got, want
        if name == "rot" then
          local c, s = rot(v[1])
          got, want = { c, s }, { v[2], v[3] }
        elseif name == "atan2" then
          got, want = { atan2(v[1], v[2]) }, { v[3] }
        elseif name == "hypot" then
          got, want = { m.hypot(v[1], v[2]) }, { v[3] }
        else
          got, want = { m[name](v[1]) }, { v[2] }
        end
        for i = 1, #want do
          if not same(got[i], want[i]) and #mismatches < 5 then
            local args = #want == 1 and #v == 3 and ("%.17g, %.17g"):format(v[1], v[2]) or ("%.17g"):format(v[1])
            mismatches[#mismatches + 1] = ("%s(%s): %.17g, C %.17g"):format(name, args, got[i], want[i])
          end
        end
        lines = lines + 1
      end
    end
    return mismatches, lines, printed
  end

  it("gives the C core's bits for sin, cos, exp, expm1, hypot, atan2 and acos", function()
    assert(built, program)
    local mismatches, lines, printed = compare(m.rot, m.atan2)
    assert.equal(printed, lines)
    assert.truthy(lines > 1500 * 7, lines)
    assert.same({}, mismatches)
  end)

  it("gives the C core's bits for rot and atan2 with branches and without", function()
    assert(built, program)
    for _, variant in ipairs{ { m.rot_branches, m.atan2_branches }, { m.rot_flat, m.atan2_flat } } do
      local mismatches, lines, printed = compare(variant[1], variant[2])
      assert.equal(printed, lines)
      assert.same({}, mismatches)
    end
  end)

  it("takes its tables from ik2d_math.c (2/pi's digits, pi/2 and ln 2 in parts)", function()
    local file = assert(io.open(helpers.repo_root() .. "/src/ik2d_math.c"))
    local source = file:read("*a")
    file:close()
    local digits = {}
    for n in source:match("two_over_pi%[%d+%] = {(.-)}"):gmatch("%d+") do digits[#digits + 1] = tonumber(n) end
    assert.same(digits, m.TWO_OVER_PI)
    local count = 0
    for name, literal in source:gmatch("#define ([%u%d_]+) ([%d%.e%-]+)") do
      assert.equal(tonumber(literal), m.CONSTANTS[name], name)
      count = count + 1
    end
    for name in pairs(m.CONSTANTS) do
      assert.truthy(source:find("#define " .. name .. " "), name)
    end
    assert.equal(count, #(function() local t = {} for k in pairs(m.CONSTANTS) do t[#t + 1] = k end return t end)())
  end)

  it("gives sin(-0) = -0, expm1(-0) = -0 and the right zeros and infinities", function()
    assert.truthy(same(m.sin(-0.0), -0.0))
    assert.truthy(same(m.expm1(-0.0), -0.0))
    assert.equal(1.0, m.cos(0.0))
    assert.equal(0.0, m.exp(-math.huge))
    assert.equal(math.huge, m.hypot(math.huge, 0 / 0))
    assert.equal(-1.0, m.expm1(-math.huge))
    assert.near(-1.0, m.sin(3 * math.pi / 2), 1e-15)
  end)
end)
