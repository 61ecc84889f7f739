-- ik2d.rig.float32: every way of rounding a double to the nearest 32-bit
-- float (LuaJIT's FFI, string.pack, plain arithmetic by definition and by
-- Veltkamp's split) gives the same bits, ties to even, subnormals and the
-- overflow boundary included, so a rig reads the same on every Lua.

local float32 = require "ik2d.rig.float32"
local helpers = require "spec.helpers"

local FLT_MAX = (2 - 2 ^ -23) * 2 ^ 127
local inf = math.huge

-- the same number, -0 told from 0 and nan equal to nan
local function same(a, b)
  if a ~= a then return b ~= b end
  if a == 0 and b == 0 then return 1 / a == 1 / b end
  return a == b
end

local function all_ways(x)
  local reference = float32.ways.pure(x)
  for name, way in pairs(float32.ways) do
    local got = way(x)
    if not same(got, reference) then
      return false, ("%s(%.17g) = %.17g, pure gives %.17g"):format(name, x, got, reference)
    end
  end
  return true
end

describe("ik2d.rig.float32", function()
  it("uses the FFI under LuaJIT compiling and the arithmetic split elsewhere, string.pack where Lua has it", function()
    if helpers.is_luajit and jit.status() then
      assert.are.equal("ffi", float32.way)
    else
      assert.are.equal("split", float32.way)
    end
    assert.are.equal(string.pack ~= nil, float32.ways.pack ~= nil)
    assert.are.equal(float32.ways[float32.way], float32.round)
  end)

  it("rounds known values as IEEE 754 single precision does, ties to even", function()
    local round = float32.round
    assert.are.equal(13421773 * 2 ^ -27, round(0.1))                -- 0.100000001490116...
    assert.are.equal(13176795 * 2 ^ -22, round(3.1415927))          -- 3.1415927410125732
    assert.are.equal(1, round(1 + 2 ^ -24))                         -- a tie: to the even 1
    assert.are.equal(1 + 2 ^ -22, round(1 + 3 * 2 ^ -24))           -- a tie: to the even 1 + 2^-22
    assert.are.equal(1 + 2 ^ -23, round(1 + 2 ^ -24 + 2 ^ -40))     -- past the tie: up
    assert.are.equal(2, round(2 - 2 ^ -25))                         -- a carry into the exponent
    assert.are.equal(16777216, round(16777217))                     -- 2^24 + 1: a tie, to even
    assert.are.equal(-(2 ^ 25 + 8), round(-(2 ^ 25 + 6)))           -- spacing 4 there: a tie, to even
    assert.are.equal(FLT_MAX, round(FLT_MAX))
    assert.are.equal(FLT_MAX, round((2 - 2 ^ -24) * 2 ^ 127 - 2 ^ 100))   -- below the midpoint
    assert.are.equal(inf, round((2 - 2 ^ -24) * 2 ^ 127))           -- the midpoint: to even, 2^128
    assert.are.equal(-inf, round(-1e39))
    assert.are.equal(2 ^ -149, round(2 ^ -149))                     -- the smallest subnormal
    assert.are.equal(0, round(2 ^ -150))                            -- a tie with 0: to even, 0
    assert.are.equal(2 ^ -148, round(3 * 2 ^ -150))                 -- a tie: to even, 2 x 2^-149
    assert.are.equal(2 ^ -126, round(2 ^ -126 * (1 - 2 ^ -25)))     -- up into the normals
    assert.is_true(same(-0.0, round(-0.0)))
    assert.is_true(round(0 / 0) ~= round(0 / 0))
    assert.are.equal(inf, round(inf))
  end)

  it("gives the same bits every way on edge values", function()
    local values = { 0, -0.0, 1, -1, 0.5, 2 ^ -126, 2 ^ -127, 2 ^ -149, 2 ^ -150, 3 * 2 ^ -150, 2 ^ -160,
                     -2 ^ -149 * 1.5, FLT_MAX, -FLT_MAX, 2 ^ 127, 2 ^ 128, 1e39, inf, -inf, 0 / 0,
                     (2 - 2 ^ -24) * 2 ^ 127, 16777217, 1 + 2 ^ -24, 1 + 3 * 2 ^ -24, 2 - 2 ^ -25,
                     2 ^ -126 * (1 - 2 ^ -24), 2 ^ -126 * (1 - 2 ^ -25), 0.1, 1 / 3, 3.1415927, 1e-45, 1e-46 }
    for _, x in ipairs(values) do
      local ok, message = all_ways(x)
      assert(ok, message)
    end
  end)

  it("gives the same bits every way on random doubles of every exponent and on ties", function()
    local next_unit = helpers.random(1234).next
    local count = helpers.size(20000, 400000)
    for _ = 1, count do
      local e = math.floor(next_unit() * 300) - 160
      local ok, message = all_ways((next_unit() - 0.5) * 2 ^ e)
      assert(ok, message)
      -- a 25-bit odd significand: exactly halfway between two floats
      local tie = (math.floor(next_unit() * 2 ^ 24) * 2 + 1) * 2 ^ (math.floor(next_unit() * 200) - 130)
      ok, message = all_ways(tie)
      assert(ok, message)
      ok, message = all_ways(-tie)
      assert(ok, message)
    end
  end)
end)
