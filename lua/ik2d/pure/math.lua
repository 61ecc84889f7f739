--- ik2d.pure.math: the maths every layer of the pure-Lua core shares,
-- mirroring src/ik2d_math.{h,c} and the few libm functions the C core
-- calls, so that both give the same bits.
--
-- Rotations are unit complex numbers (c, s) held as two numbers, never
-- tables (the solve allocates nothing): callers write the products out,
-- with the operands in the C code's order.  libm functions that Lua has
-- (sqrt, cos, sin, exp, acos, fmod, atan2) are called as the C core calls
-- them; the rest (hypot, fmin, fmax) are written here as the C library
-- computes them.
local M = {}

local abs, sqrt, fmod = math.abs, math.sqrt, math.fmod
local huge = math.huge
-- two arguments: math.atan since 5.3, math.atan2 before
local libm_atan2 = math.atan2 or math.atan -- luacheck: ignore 143

local PI = 3.14159265358979323846
local TWO_PI = 6.28318530717958647692
local DBL_MAX = 1.7976931348623157e308
M.PI, M.TWO_PI, M.DBL_MAX = PI, TWO_PI, DBL_MAX
M.libm_atan2 = libm_atan2

--- angle wrapped to [-pi, pi), as ik2d_wrap: fmod is exact, so the
-- result is in range for any finite angle
function M.wrap(angle)
  if angle >= -PI and angle < PI then return angle end
  local r = fmod(angle, TWO_PI)
  if r >= PI then return r - TWO_PI end
  if r < -PI then return r + TWO_PI end
  return r
end

-- atan(k / 8), k = 0..8 (index k + 1), the C table's literals
local atan_eighths = {
  0.0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225,
  0.4636476090008061, 0.5585993153435624, 0.6435011087932844,
  0.7188299996216245, 0.7853981633974483
}
local A3, A5, A7, A9, A11 = -1.0 / 3, 1.0 / 5, -1.0 / 7, 1.0 / 9, -1.0 / 11
local A13, A15, A17, A19 = 1.0 / 13, -1.0 / 15, 1.0 / 17, -1.0 / 19
local HALF_PI_HI, HALF_PI_LO = 1.5707963267948966, 6.123233995736766e-17
local PI_HI, PI_LO = 3.141592653589793, 1.2246467991473532e-16
-- for code that writes M.atan2 out in its own body (ik2d.pure.kernel)
M.ATAN2 = { eighths = atan_eighths, A3 = A3, A5 = A5, A7 = A7, A9 = A9, A11 = A11, A13 = A13,
  A15 = A15, A17 = A17, A19 = A19, HALF_PI_HI = HALF_PI_HI, HALF_PI_LO = HALF_PI_LO,
  PI_HI = PI_HI, PI_LO = PI_LO }

--- atan2(y, x) as ik2d_atan2 computes it (within 2 ulps of libm's):
-- the octant, then atan(k/8) plus the series of a small rest; on an axis
-- the exact answers, infinities and NaN from libm.
function M.atan2(y, x)
  -- |x|, |y| without calls (a zero or NaN goes to libm either way)
  local ax, ay = x, y
  if x < 0.0 then ax = -x end
  if y < 0.0 then ay = -y end
  if not (ax > 0.0 and ay > 0.0 and ax <= DBL_MAX and ay <= DBL_MAX) then
    -- on an axis the exact answers of C99's Annex F (copysign's sign of a
    -- zero y is that of 1 / y)
    if ay == 0.0 and ax > 0.0 and ax <= DBL_MAX then
      if x > 0.0 then return y end
      if 1.0 / y < 0.0 then return -PI_HI end
      return PI_HI
    end
    if ax == 0.0 and ay > 0.0 and ay <= DBL_MAX then
      if y < 0.0 then return -HALF_PI_HI end
      return HALF_PI_HI
    end
    return libm_atan2(y, x)
  end
  local steep = ay > ax
  local t
  if steep then t = ax / ay else t = ay / ax end
  local k = 8.0 * t
  k = k - k % 1.0 -- t >= 0: the C cast's truncation
  local c = 0.125 * k
  local u = (t - c) / (1.0 + t * c)
  local u2 = u * u
  local angle = atan_eighths[k + 1] + u * (1.0 + u2 * (A3 + u2 * (A5 + u2 * (A7 +
    u2 * (A9 + u2 * (A11 + u2 * (A13 + u2 * (A15 + u2 * (A17 + u2 * A19)))))))))
  if steep then angle = (HALF_PI_HI - angle) + HALF_PI_LO end
  if x < 0.0 then angle = (PI_HI - angle) + PI_LO end
  if y < 0.0 then return -angle end
  return angle
end

-- 1 for d > 0, 0 for d <= 0 (d not NaN): the smallest d > 0, 2^-1074,
-- times 2^600 and 2^474 is 1; larger ones overflow toward infinity
local ABOVE_1, ABOVE_2 = 2.0 ^ 600, 2.0 ^ 474
local min, max = math.min, math.max

--- atan2(y, x) with the bits of M.atan2, its octant chosen by arithmetic
-- rather than branches: LuaJIT compiles the branches of M.atan2 into a
-- side trace each, and with the signs and steepness of rotations at
-- random a loop calling it leaves its trace often.  Here the choices are
-- factors 0 or 1 (from min and max, which it compiles without a branch):
-- the steep case's (HALF_PI_HI - angle) + HALF_PI_LO is written
-- (f * HALF_PI_HI + (1 - 2 f) * angle) + f * HALF_PI_LO, which for
-- f = 0 is (0 + angle) + 0 = angle and for f = 1 the same operations as
-- M.atan2's; a negative y multiplies by -1 (exactly the negation).  The
-- axes, infinities and NaN go to M.atan2.
function M.atan2_flat(y, x)
  local ax, ay = abs(x), abs(y)
  if not (ax > 0.0 and ay > 0.0 and ax <= DBL_MAX and ay <= DBL_MAX) then
    return M.atan2(y, x)
  end
  -- ay > ax: ax / ay, else ay / ax (equal, they are one number)
  local t = min(ax, ay) / max(ax, ay)
  local k = 8.0 * t
  k = k - k % 1.0
  local c = 0.125 * k
  local u = (t - c) / (1.0 + t * c)
  local u2 = u * u
  local angle = atan_eighths[k + 1] + u * (1.0 + u2 * (A3 + u2 * (A5 + u2 * (A7 +
    u2 * (A9 + u2 * (A11 + u2 * (A13 + u2 * (A15 + u2 * (A17 + u2 * A19)))))))))
  local steep = min(max(ay - ax, 0.0) * ABOVE_1 * ABOVE_2, 1.0)
  angle = (steep * HALF_PI_HI + (1.0 - 2.0 * steep) * angle) + steep * HALF_PI_LO
  local left = min(max(-x, 0.0) * ABOVE_1 * ABOVE_2, 1.0)
  angle = (left * PI_HI + (1.0 - 2.0 * left) * angle) + left * PI_LO
  local below = min(max(-y, 0.0) * ABOVE_1 * ABOVE_2, 1.0)
  return angle * (1.0 - 2.0 * below)
end

--- a weight into [0, 1] (ik2d_clamp_weight)
function M.clamp_weight(weight)
  if weight < 0.0 then return 0.0 end
  if weight > 1.0 then return 1.0 end
  return weight
end

--- fmin and fmax as the C library computes them on x86-64 (minsd and
-- maxsd): NaN gives the other operand, and equal operands (0 and -0)
-- the second.
function M.fmin(x, y)
  if x ~= x then return y end
  if y ~= y then return x end
  if x < y then return x end
  return y
end

function M.fmax(x, y)
  if x ~= x then return y end
  if y ~= y then return x end
  if x > y then return x end
  return y
end

-- hypot: glibc's (2.35 on, built without FMA, as on x86-64): Borges'
-- correction of sqrt(x^2 + y^2), with scaling at the extremes.  Lua has
-- no hypot; this gives glibc's bits (the README's pure-Lua section says
-- where the C core would need a hypot of its own instead).
local SCALE, LARGE_VAL, TINY_VAL, EPS = 2 ^ -600, 2 ^ 511, 2 ^ -459, 2 ^ -54

local function kernel(ax, ay)
  local h = sqrt(ax * ax + ay * ay)
  local t1, t2
  if h <= 2.0 * ay then
    local delta = h - ay
    t1 = ax * (2.0 * delta - ax)
    t2 = (delta - 2.0 * (ax - ay)) * delta
  else
    local delta = h - ax
    t1 = 2.0 * delta * (ax - 2.0 * ay)
    t2 = (4.0 * delta - ay) * ay + delta * delta
  end
  return h - (t1 + t2) / (2.0 * h)
end

function M.hypot(x, y)
  if not (x - x == 0.0 and y - y == 0.0) then -- not both finite
    if x == huge or x == -huge or y == huge or y == -huge then return huge end
    return x + y
  end
  x, y = abs(x), abs(y)
  local ax, ay
  if x < y then ax, ay = y, x else ax, ay = x, y end
  if ax > LARGE_VAL then
    if ay <= ax * EPS then return ax + ay end
    return kernel(ax * SCALE, ay * SCALE) / SCALE
  end
  if ay < TINY_VAL then
    if ax >= ay / EPS then return ax + ay end
    return kernel(ax / SCALE, ay / SCALE) * SCALE
  end
  if ay <= ax * EPS then return ax + ay end
  return kernel(ax, ay)
end

-- expm1: under LuaJIT the C library's own, through the FFI; elsewhere
-- glibc's code written out (fdlibm's; the high-word tests as comparisons
-- of |x|, the exponent edits as exact scalings).  Where glibc runs an
-- FMA build of that code (x86-64 with FMA) the two can part in the last
-- bit: the README's pure-Lua section says what the C core would need.
local function high_word(h)
  -- the double whose high word is h and low word 0 (h < 0x7ff00000)
  local e = (h - h % 0x100000) / 0x100000
  return (1.0 + (h % 0x100000) / 0x100000) * 2.0 ^ (e - 1023)
end
local BIG_X = high_word(0x4043687A)   -- 56 ln 2
local HUGE_X = high_word(0x40862E42)  -- 709.78
local HALF_LN2 = high_word(0x3fd62e43) -- |x| > 0.5 ln 2 from here
local THREE_HALF_LN2 = high_word(0x3FF0A2B2)
local TINY_X = 2.0 ^ -54
local O_THRESHOLD = 7.09782712893383973096e+02
local LN2_HI, LN2_LO = 6.93147180369123816490e-01, 1.90821492927058770002e-10
local INVLN2 = 1.44269504088896338700e+00
local Q1, Q2, Q3 = -3.33333333333331316428e-02, 1.58730158725481460165e-03,
  -7.93650757867487942473e-05
local Q4, Q5 = 4.00821782732936239552e-06, -2.01099218183624371326e-07

local function lua_expm1(x)
  local negative = x < 0.0 or (x == 0.0 and 1.0 / x < 0.0)
  local y = negative and -x or x
  if y ~= y then return x + x end
  if y >= BIG_X then
    if y >= HUGE_X then
      if y == huge then
        if negative then return -1.0 end
        return x
      end
      if x > O_THRESHOLD then return huge end
    end
    if negative then return 1.0e-300 - 1.0 end
  end
  local k, c = 0, 0.0
  if y >= HALF_LN2 then
    local hi, lo
    if y < THREE_HALF_LN2 then
      if not negative then
        hi, lo, k = x - LN2_HI, LN2_LO, 1
      else
        hi, lo, k = x + LN2_HI, -LN2_LO, -1
      end
    else
      local v = INVLN2 * x + (negative and -0.5 or 0.5)
      k = v - v % 1.0 -- the C cast truncates toward 0
      if v < 0.0 and v % 1.0 ~= 0.0 then k = k + 1.0 end
      hi = x - k * LN2_HI
      lo = k * LN2_LO
    end
    x = hi - lo
    c = (hi - x) - lo
  elseif y < TINY_X then
    local t = 1.0e300 + x
    return x - (t - (1.0e300 + x))
  end
  -- x is now in primary range
  local hfx = 0.5 * x
  local hxs = x * hfx
  local r1_ = 1.0 + hxs * Q1
  local h2 = hxs * hxs
  local r2 = Q2 + hxs * Q3
  local h4 = h2 * h2
  local r3 = Q4 + hxs * Q5
  local r1 = r1_ + h2 * r2 + h4 * r3
  local t = 3.0 - r1 * hfx
  local e = hxs * ((r1 - t) / (6.0 - x * t))
  if k == 0 then return x - (x * e - hxs) end
  e = (x * (e - c) - c)
  e = e - hxs
  if k == -1 then return 0.5 * (x - e) - 0.5 end
  if k == 1 then
    if x < -0.25 then return -2.0 * (e - (x + 0.5)) end
    return 1.0 + 2.0 * (x - e)
  end
  local twopk = 2.0 ^ k
  if k <= -2 or k > 56 then
    y = 1.0 - (e - x)
    return y * twopk - 1.0
  end
  if k < 20 then
    y = (1.0 - 2.0 ^ -k) - (e - x)
  else
    y = x - (e + 2.0 ^ -k)
    y = y + 1.0
  end
  return y * twopk
end

M.expm1 = lua_expm1
M.lua_expm1 = lua_expm1 -- (the FFI's stands in for it under LuaJIT)
if rawget(_G, "jit") then
  local ok, ffi = pcall(require, "ffi")
  if ok and pcall(ffi.cdef, "double expm1(double x);") or ok then
    local found, f = pcall(function() return ffi.C.expm1 end)
    if found then M.expm1 = f end
  end
end

return M
