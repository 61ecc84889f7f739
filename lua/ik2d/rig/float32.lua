-- ik2d.rig.float32: a number rounded to the nearest 32-bit float, as a
-- double.  Spine's runtimes keep timeline keys and curve samples as 32-bit
-- floats; a reader that rounds them the same way plays what they play.
--
-- Four ways, the same bits for every double (spec/rig_float32_spec.lua):
-- a float cdata under LuaJIT and string.pack("f") (Lua 5.3, 5.4), both C's
-- double-to-float conversion (round to nearest, ties to even); `pure`, the
-- definition in plain arithmetic; and `split`, plain arithmetic too, which
-- float32.round uses where LuaJIT does not compile the FFI's: on Lua 5.4
-- it takes a sixth of string.pack's time (a pack and an unpack make a
-- string a number), which is most of a large rig's reading there.  The C conversion is undefined
-- for values beyond the float range: those never reach it (they round to
-- an infinity here, as IEEE 754 says).

local float32 = { _VERSION = require("ik2d.api").version }

local floor, huge, type = math.floor, math.huge, type

-- The largest float is (2 - 2^-23) 2^127; halfway from it to 2^128 is
-- (2 - 2^-24) 2^127, and a tie there goes to the even neighbour, 2^128:
-- from that magnitude on, the nearest float is an infinity.
local OVERFLOW = (2 - 2 ^ -24) * 2 ^ 127
-- the spacing of floats in [2^-126, 2^-125) and below (the subnormals)
local SMALLEST_SPACING = 2 ^ -149
local LOG2 = math.log(2)

-- Pure arithmetic: the spacing q of floats at |x| is 2^(e - 23) for
-- 2^e <= |x| < 2^(e + 1) (e >= -126), 2^-149 below; |x| / q is exact (a
-- power of two), rounding it to a whole number ties to even, and times q
-- is exact again.  A carry to 2^24 lands on 2^(e + 1), a float too.
local function pure(x)
  if x ~= x or x == 0 then return x end
  local a = x < 0 and -x or x
  if a >= OVERFLOW then return x < 0 and -huge or huge end
  local spacing
  if a < 2 ^ -126 then
    spacing = SMALLEST_SPACING
  else
    local e = floor(math.log(a) / LOG2)
    -- the logarithm may be off by one either way near powers of two
    if 2 ^ e > a then e = e - 1 elseif 2 ^ (e + 1) <= a then e = e + 1 end
    spacing = 2 ^ (e - 23)
  end
  local r = a / spacing
  local whole = floor(r)
  local rest = r - whole
  if rest > 0.5 or (rest == 0.5 and whole % 2 == 1) then whole = whole + 1 end
  local rounded = whole * spacing
  if x < 0 then return -rounded end
  return rounded
end

-- Veltkamp's split: with c = 2^s + 1 and t = x c (rounded), t - (t - x)
-- is x rounded to nearest to 53 - s significant bits; s = 29 leaves a
-- float's 24.  Its ties may go either way: a tie is an x that 25 bits hold and 24
-- do not, and then the answer is whichever neighbour, hi or 2x - hi, has
-- an even last bit, the one 23 bits hold.  Normal floats only (below
-- 2^-126 the float's bits thin out): the rest goes to pure.
local function split_at(x, c)
  local t = x * c
  return t - (t - x)
end
local KEEP_24, KEEP_25, KEEP_23 = 2 ^ 29 + 1, 2 ^ 28 + 1, 2 ^ 30 + 1
local SMALLEST_NORMAL, LARGEST_SPLIT = 2 ^ -126, 2 ^ 127

local function split(x)
  local a = x < 0 and -x or x
  if not (a >= SMALLEST_NORMAL and a < LARGEST_SPLIT) then return pure(x) end
  local hi = split_at(x, KEEP_24)
  if hi == x or split_at(x, KEEP_25) ~= x then return hi end
  if split_at(hi, KEEP_23) == hi then return hi end
  return 2 * x - hi
end

local function in_range(x)
  return x == x and x < OVERFLOW and x > -OVERFLOW
end

local pack, unpack = string.pack, string.unpack
local packed
if pack and unpack then
  packed = function(x)
    if not in_range(x) then return pure(x) end
    return (unpack("<f", pack("<f", x)))
  end
end

local through_ffi
do
  local ok, ffi = pcall(require, "ffi")
  if ok and type(ffi) == "table" and ffi.cast then
    local cast = ffi.cast
    through_ffi = function(x)
      if not in_range(x) then return pure(x) end
      return tonumber(cast("float", x))
    end
  end
end

--- float32.ways: each way there is here, by name ("ffi", "pack", "split",
-- "pure"); float32.way: the name of the one float32.round uses.
float32.ways = { pack = packed, ffi = through_ffi, split = split, pure = pure }
-- The FFI's conversion is one instruction in compiled code, but makes a
-- cdata in LuaJIT's interpreter (its JIT off, as on iOS): five times the
-- split's time there.
local jit_lib = rawget(_G, "jit")
local compiling = type(jit_lib) == "table" and type(jit_lib.status) == "function" and jit_lib.status()
float32.way = (through_ffi and compiling) and "ffi" or "split"

--- float32.round(x) -> the 32-bit float nearest x (ties to even), as a
-- number; nan stays nan, magnitudes past the float range become inf.
float32.round = float32.ways[float32.way]

return float32
