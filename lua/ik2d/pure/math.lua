--- ik2d.pure.math: the maths every layer of the pure-Lua core shares,
-- mirroring src/ik2d_math.{h,c}, so that both give the same bits.
--
-- Rotations are unit complex numbers (c, s) held as two numbers, never
-- tables (the solve allocates nothing): callers write the products out,
-- with the operands in the C code's order.  Every transcendental is
-- ik2d_math.c's own, operation for operation (+, -, *, / and sqrt, which
-- every platform rounds alike), so the bits are the C core's everywhere;
-- Lua's math library serves only for sqrt, abs, floor and fmod, which
-- are exact.
local M = {}

local abs, sqrt, fmod = math.abs, math.sqrt, math.fmod
local huge = math.huge
-- two arguments: math.atan since 5.3, math.atan2 before

local PI = 3.14159265358979323846
local TWO_PI = 6.28318530717958647692
local DBL_MAX = 1.7976931348623157e308
M.PI, M.TWO_PI, M.DBL_MAX = PI, TWO_PI, DBL_MAX

--- angle wrapped to [-pi, pi), as ik2d_wrap: fmod is exact, so the
-- result is in range for any finite angle
--- whether a and b are the same double to the bit (0.0 and -0.0 are not;
-- finite values): a value set again that is the one kept changes nothing
function M.same_bits(a, b)
  return a == b and (a ~= 0.0 or 1.0 / a == 1.0 / b)
end

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

-- copysign(v, s) for v >= 0: the sign of s, that of 1 / s for a zero
local function copysign(v, s)
  if s < 0.0 or (s == 0.0 and 1.0 / s < 0.0) then return -v end
  return v
end

-- atan2 on an axis, at the zeros and infinities: C99's Annex F, as
-- ik2d_atan2 (the signs of zero; pi/4 and 3 pi/4 when both are infinite)
local function atan2_edge(y, x, ax, ay)
  if x ~= x or y ~= y then return x + y end
  if ay == 0.0 then
    if x > 0.0 or (x == 0.0 and 1.0 / x > 0.0) then return y end
    return copysign(PI_HI, y)
  end
  if ax == 0.0 then return copysign(HALF_PI_HI, y) end
  if ay > DBL_MAX then
    if ax > DBL_MAX then
      if x > 0.0 then return copysign(0.7853981633974483, y) end
      return copysign(2.356194490192345, y)
    end
    return copysign(HALF_PI_HI, y)
  end
  if x > 0.0 then return copysign(0.0, y) end
  return copysign(PI_HI, y)
end

--- atan2(y, x) as ik2d_atan2 computes it (within 2 ulps of libm's):
-- the octant, then atan(k/8) plus the series of a small rest; on an axis,
-- at the zeros and infinities atan2_edge.  M.atan2 is this or
-- M.atan2_flat, whichever the runtime runs faster.
function M.atan2_branches(y, x)
  -- |x|, |y| without calls (a zero or NaN goes to atan2_edge either way)
  local ax, ay = x, y
  if x < 0.0 then ax = -x end
  if y < 0.0 then ay = -y end
  if not (ax > 0.0 and ay > 0.0 and ax <= DBL_MAX and ay <= DBL_MAX) then
    return atan2_edge(y, x, ax, ay)
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

--- atan2(y, x) with the bits of M.atan2_branches, its octant chosen by arithmetic
-- rather than branches: LuaJIT compiles each branch that goes both ways
-- into a side trace, which copies the rest of its loop with every later
-- branch, and with the signs and steepness of rotations at random the
-- side traces multiply.  Here the choices are factors 0 or 1 (from min
-- and max, which it compiles without a branch): the steep case's
-- (HALF_PI_HI - angle) + HALF_PI_LO is written
-- (f * HALF_PI_HI + (1 - 2 f) * angle) + f * HALF_PI_LO, which for
-- f = 0 is (0 + angle) + 0 = angle and for f = 1 the same operations as
-- M.atan2_branches'; a negative y multiplies by -1 (exactly the negation), the
-- sign taken from 1 / y so that y = -0 counts as negative.  The axes but
-- the origin take the same path: with x or y zero, t = 0 and the angle is
-- 0, then pi/2 or pi, atan2_edge's values.  The origin, infinities and NaN
-- go to atan2_edge.
function M.atan2_flat(y, x)
  local ax, ay = abs(x), abs(y)
  if not (ax <= DBL_MAX and ay <= DBL_MAX and ax + ay > 0.0) then
    return atan2_edge(y, x, ax, ay)
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
  -- |y| <= DBL_MAX: 1 / y is not zero (at least 2^-1024)
  local below = min(max(-(1.0 / y), 0.0) * ABOVE_1 * ABOVE_2, 1.0)
  return angle * (1.0 - 2.0 * below)
end

-- LuaJIT's compiler takes the flat atan2 and rot; an interpreter (PUC
-- Lua, or LuaJIT with the compiler off when this loads, as on iOS) takes
-- a branch for less than the flat ones' min and max cost it.  Both give
-- the same bits (spec/math_spec.lua checks each on every runtime).
local JIT = rawget(_G, "jit") ~= nil and rawget(_G, "jit").status()

M.atan2 = JIT and M.atan2_flat or M.atan2_branches

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

-- ---- sin, cos, exp, expm1, hypot, acos: ik2d_math.c's, step for step --

local floor = math.floor

-- pi/2 as P1 + P2 + P3 (P1, P2 of 33 bits) and as PIO2_HI + PIO2_LO
local P1, P2, P3 = 1.5707963267341256, 6.077100506303966e-11, 2.0222662487959506e-21
local PIO2_HI, PIO2_LO = 1.5707963267948966, 6.123233995736766e-17
local INV_PIO2 = 1.0 / PIO2_HI
local MEDIUM_MAX = 1.6e6
local TWO_24, TWO_53 = 16777216.0, 9007199254740992.0
local INV_TWO_24 = 1.0 / TWO_24

-- 2/pi in digits of 24 bits (index k + 1): ik2d_math.c's two_over_pi
local two_over_pi = {
  10680707, 7228996, 1387004, 2578385, 16069853, 12639074, 9804092,
  4427841, 16666979, 11263675, 12935607, 2387514, 4345298, 14681673,
  3074569, 13734428, 16653803, 1880361, 10960616, 8533493, 3062596,
  8710556, 7349940, 6258241, 3772886, 3769171, 3798172, 8675211,
  12450088, 3874808, 9961438, 366607, 15675153, 9132554, 7151469,
  3571407, 2607881, 12013382, 4155038, 6285869, 7677882, 13102053,
  15825725, 473591, 9065106, 15363067, 6271263, 9264392, 5636912,
  4652155, 7056368, 13614112
}
M.TWO_OVER_PI = two_over_pi

-- 2^k for -1074 <= k <= 1023 at index k + POW2_AT, each from the last by
-- an exact doubling or halving (the C core's power_of_two squares: the
-- same exact values).  One dense array from index 1: negative keys would
-- put half of it in the hash part, which LuaJIT looks up more slowly.
local POW2_AT = 1075
local pow2 = {}
do
  local v = 1.0
  for k = 0, -1074, -1 do pow2[k + POW2_AT] = v; v = v * 0.5 end
  v = 1.0
  for k = 0, 1023 do pow2[k + POW2_AT] = v; v = v * 2.0 end
end
local TWO_1000, TWO_600, TWO_M600 = pow2[1000 + POW2_AT], pow2[600 + POW2_AT], pow2[-600 + POW2_AT]

-- y 2^k rounded once, as scale_by_power_of_two
local function scale_by_power_of_two(y, k)
  if k > 1000 then return y * TWO_1000 * pow2[k - 1000 + POW2_AT] end
  if k < -1000 then return y * pow2[k + 600 + POW2_AT] * TWO_M600 end
  return y * pow2[k + POW2_AT]
end

-- x - n pi/2 as hi + lo for pi/4 < x < MEDIUM_MAX; n mod 4 first
local function reduce_medium(x)
  -- floor without the call: v > 0, and v % 1 is exact
  local v0 = x * INV_PIO2 + 0.5
  local n = v0 - v0 % 1.0
  local t, w = x - n * P1, -(n * P2)
  -- two-sum of t and w
  local head = t + w
  local v = head - t
  local rest = (t - (head - v)) + (w - v)
  rest = rest - n * P3
  local hi = head + rest
  return n % 4, hi, (head - hi) + rest
end

-- S_k: the sum of X_i two_over_pi[k + i] over the digits that exist
local function digit_sum(k, x0, x1, x2)
  local sum = 0.0
  if k >= 0 then sum = sum + x0 * two_over_pi[k + 1] end
  if k + 1 >= 0 then sum = sum + x1 * two_over_pi[k + 2] end
  if k + 2 >= 0 then sum = sum + x2 * two_over_pi[k + 3] end
  return sum
end

-- Payne and Hanek for x >= MEDIUM_MAX (ik2d_math.c says how)
local function reduce_large(x)
  local mantissa, e, step = x, 0, 512
  while step >= 1 do
    if mantissa >= TWO_53 * pow2[step - 1 + POW2_AT] then
      mantissa = mantissa * pow2[-step + POW2_AT]
      e = e + step
    end
    step = step / 2
  end
  step = 32
  while step >= 1 do
    if mantissa < TWO_53 * pow2[-step + POW2_AT] then
      mantissa = mantissa * pow2[step + POW2_AT]
      e = e - step
    end
    step = step / 2
  end
  local carry = floor(mantissa * INV_TWO_24)
  local x0 = mantissa - carry * TWO_24
  local x2 = floor(carry * INV_TWO_24)
  local x1 = carry - x2 * TWO_24
  local d0 = floor((e - 2) / 24.0)
  local w0 = e - 24 * (d0 + 1)
  local s0, s1, s2, s3, s4, s5, s6, s7, s8 =
    digit_sum(d0, x0, x1, x2), digit_sum(d0 + 1, x0, x1, x2), digit_sum(d0 + 2, x0, x1, x2),
    digit_sum(d0 + 3, x0, x1, x2), digit_sum(d0 + 4, x0, x1, x2), digit_sum(d0 + 5, x0, x1, x2),
    digit_sum(d0 + 6, x0, x1, x2), digit_sum(d0 + 7, x0, x1, x2), digit_sum(d0 + 8, x0, x1, x2)
  carry = floor(s8 * INV_TWO_24); s7 = s7 + carry
  carry = floor(s7 * INV_TWO_24); s7 = s7 - carry * TWO_24; s6 = s6 + carry
  carry = floor(s6 * INV_TWO_24); s6 = s6 - carry * TWO_24; s5 = s5 + carry
  carry = floor(s5 * INV_TWO_24); s5 = s5 - carry * TWO_24; s4 = s4 + carry
  carry = floor(s4 * INV_TWO_24); s4 = s4 - carry * TWO_24; s3 = s3 + carry
  carry = floor(s3 * INV_TWO_24); s3 = s3 - carry * TWO_24; s2 = s2 + carry
  carry = floor(s2 * INV_TWO_24); s2 = s2 - carry * TWO_24; s1 = s1 + carry
  carry = floor(s1 * INV_TWO_24); s1 = s1 - carry * TWO_24; s0 = s0 + carry
  local modulus = pow2[2 - w0 + POW2_AT]
  s0 = s0 - floor(s0 / modulus) * modulus
  local a = (s0 * TWO_24 + s1) * pow2[w0 - 24 + POW2_AT]
  local b = (s2 * TWO_24 + s3) * pow2[w0 - 72 + POW2_AT]
  local c = (s4 * TWO_24 + s5) * pow2[w0 - 120 + POW2_AT] + (s6 * TWO_24 + s7) * pow2[w0 - 168 + POW2_AT]
  local n = floor(a)
  local f = a - n
  if f >= 0.5 then
    n = n + 1.0
    f = f - 1.0
  end
  local head = f + b
  local v = head - f
  local rest = (f - (head - v)) + (b - v)
  rest = rest + c
  f = head + rest
  rest = (head - f) + rest
  -- (f + rest) pi/2 to double-double, f PIO2_HI by Dekker's product
  local cf = 134217729.0 * f
  local f_hi = cf - (cf - f)
  local f_lo = f - f_hi
  local cp = 134217729.0 * PIO2_HI
  local p_hi = cp - (cp - PIO2_HI)
  local p_lo = PIO2_HI - p_hi
  local product = f * PIO2_HI
  local product_lo = ((f_hi * p_hi - product) + f_hi * p_lo + f_lo * p_hi) + f_lo * p_lo
  product_lo = product_lo + (f * PIO2_LO + rest * PIO2_HI)
  local hi = product + product_lo
  return n % 4, hi, (product - hi) + product_lo
end

local S3, S5, S7, S9 = -1.0 / 6, 1.0 / 120, -1.0 / 5040, 1.0 / 362880
local S11, S13, S15, S17 = -1.0 / 39916800, 1.0 / 6227020800.0, -1.0 / 1307674368000.0,
  1.0 / 355687428096000.0
local C4, C6, C8, C10 = 1.0 / 24, -1.0 / 720, 1.0 / 40320, -1.0 / 3628800
local C12, C14, C16 = 1.0 / 479001600, -1.0 / 87178291200.0, 1.0 / 20922789888000.0
local QUARTER_PI, TINY_ANGLE = 0.7853981633974483, 7.450580596923828e-9

--- (cos angle, sin angle) as ik2d_rot_angle: one range reduction for both
function M.rot_branches(angle)
  local ax = angle
  if angle < 0.0 then ax = -angle end
  if not (ax <= DBL_MAX) then return angle - angle, angle - angle end
  if ax < TINY_ANGLE then return 1.0, angle end
  local quadrant, hi, lo = 0, ax, 0.0
  if ax > QUARTER_PI then
    if ax < MEDIUM_MAX then
      quadrant, hi, lo = reduce_medium(ax)
    else
      quadrant, hi, lo = reduce_large(ax)
    end
  end
  local z = hi * hi
  local p = S3 + z * (S5 + z * (S7 + z * (S9 + z * (S11 + z * (S13 + z * (S15 + z * S17))))))
  local s = hi + ((hi * z) * p + lo * (1.0 - 0.5 * z))
  local half = 0.5 * z
  local w = 1.0 - half
  local q = C4 + z * (C6 + z * (C8 + z * (C10 + z * (C12 + z * (C14 + z * C16)))))
  local c = w + (((1.0 - w) - half) + (z * z * q - hi * lo))
  if quadrant == 1 then
    s, c = c, -s
  elseif quadrant == 2 then
    s, c = -s, -c
  elseif quadrant == 3 then
    s, c = -c, s
  end
  if angle < 0.0 then return c, -s end
  return c, s
end
local rot_branches = M.rot_branches

-- the quadrant's turn of (c, s), the rotation by quadrant pi/2, as
-- factors 0 and +-1 (index quadrant + 1): cos = TURN_C c - TURN_S s,
-- sin = TURN_S c + TURN_C s
local TURN_C, TURN_S = { 1.0, 0.0, -1.0, 0.0 }, { 0.0, 1.0, 0.0, -1.0 }

--- M.rot_branches's bits without its branches (LuaJIT: see M.atan2_flat),
-- for |angle| < MEDIUM_MAX; the rest goes to M.rot_branches.  Why each
-- step gives the same bits:
-- * up to pi/4 the reduction runs with n = 0 (a factor 0 or 1 of n), and
--   gives hi = ax, lo = 0 exactly (ax - 0, ax + -0, then rest 0); below
--   2^-27 the kernels then give s = ax and c = 1 exactly (the terms they
--   add are below a quarter of an ulp), the C code's early return.
-- * the quadrant's turn: 1 c - 0 s is c (|c| > 0.7, 0 s is a zero), and
--   0 c + 1 s is s, 0 c - 1 s is -s (0 c = +0; s is -0 only at angle -0,
--   quadrant 0, and is 0 in no other quadrant: no double is a multiple of
--   pi/2).
-- * the sign: times -1 where 1 / angle < 0, so angle = -0 gives -0.
function M.rot_flat(angle)
  local ax = abs(angle)
  if not (ax < MEDIUM_MAX) then return rot_branches(angle) end
  local n = floor(ax * INV_PIO2 + 0.5) * min(max(ax - QUARTER_PI, 0.0) * ABOVE_1 * ABOVE_2, 1.0)
  -- reduce_medium
  local t, w = ax - n * P1, -(n * P2)
  local head = t + w
  local v = head - t
  local rest = (t - (head - v)) + (w - v)
  rest = rest - n * P3
  local hi = head + rest
  local lo = (head - hi) + rest
  -- the kernels
  local z = hi * hi
  local p = S3 + z * (S5 + z * (S7 + z * (S9 + z * (S11 + z * (S13 + z * (S15 + z * S17))))))
  local s = hi + ((hi * z) * p + lo * (1.0 - 0.5 * z))
  local half = 0.5 * z
  w = 1.0 - half
  local q = C4 + z * (C6 + z * (C8 + z * (C10 + z * (C12 + z * (C14 + z * C16)))))
  local c = w + (((1.0 - w) - half) + (z * z * q - hi * lo))
  local k = n % 4 + 1
  local below = min(max(-(1.0 / angle), 0.0) * ABOVE_1 * ABOVE_2, 1.0)
  local tc, ts = TURN_C[k], TURN_S[k]
  return tc * c - ts * s, (ts * c + tc * s) * (1.0 - 2.0 * below)
end

M.rot = JIT and M.rot_flat or rot_branches
local rot = M.rot

function M.sin(x)
  local _, s = rot(x)
  return s
end

function M.cos(x)
  return (rot(x))
end

local E2, E3, E4, E5, E6, E7, E8 = 0.5, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
  1.0 / 40320
local E9, E10, E11, E12 = 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600
local E13, E14, E15 = 1.0 / 6227020800.0, 1.0 / 87178291200.0, 1.0 / 1307674368000.0
local LN2_HI, LN2_LO = 0.6931471805598903, 5.497923018708371e-14
local INV_LN2, HALF_LN2 = 1.4426950408889634, 0.34657359027997264
local EXP_OVERFLOW = 709.782712893384
-- ik2d_math.c's #defines, which spec/math_spec.lua compares
M.CONSTANTS = { P1 = P1, P2 = P2, P3 = P3, PIO2_HI = PIO2_HI, PIO2_LO = PIO2_LO,
  MEDIUM_MAX = MEDIUM_MAX, TWO_24 = TWO_24, TWO_53 = TWO_53,
  LN2_HI = LN2_HI, LN2_LO = LN2_LO, HALF_LN2 = HALF_LN2, EXP_OVERFLOW = EXP_OVERFLOW }

local function kernel_expm1(r)
  return r + (r * r) * (E2 + r * (E3 + r * (E4 + r * (E5 + r * (E6 + r * (E7 + r * (E8 +
    r * (E9 + r * (E10 + r * (E11 + r * (E12 + r * (E13 + r * (E14 + r * E15)))))))))))))
end

-- e^r - 1 of x = k ln2 + r, and k
local function expm1_reduced(x)
  local n = floor(x * INV_LN2 + 0.5)
  local hi, lo = x - n * LN2_HI, n * LN2_LO
  local r = hi - lo
  local c = (hi - r) - lo
  local e = kernel_expm1(r)
  return e + (c + c * e), n
end

function M.exp(x)
  if x ~= x then return x end
  if x > EXP_OVERFLOW then return huge end
  if x < -746.0 then return 0.0 end
  local e, k = expm1_reduced(x)
  return scale_by_power_of_two(1.0 + e, k)
end

function M.expm1(x)
  if x ~= x then return x end
  if x > EXP_OVERFLOW then return huge end
  if abs(x) < 5.551115123125783e-17 then return x end
  if x < -40.0 then return -1.0 end
  if abs(x) <= HALF_LN2 then return kernel_expm1(x) end
  local e, k = expm1_reduced(x)
  if k > 56 then return scale_by_power_of_two(1.0 + e, k) - 1.0 end
  local t = pow2[k + POW2_AT]
  return (t - 1.0) + t * e
end

--- hypot as ik2d_hypot: sqrt(x^2 + y^2), scaled where squares overflow
-- or underflow; an infinity wins over NaN
function M.hypot(x, y)
  local ax, ay = abs(x), abs(y)
  if ax == huge or ay == huge then return huge end
  if ax ~= ax or ay ~= ay then return x + y end
  local big, small
  if ax > ay then big, small = ax, ay else big, small = ay, ax end
  if small == 0.0 then return big end
  local scale = 1.0
  if big > 1e150 then scale = TWO_600 elseif big < 1e-150 then scale = TWO_M600 end
  big, small = big / scale, small / scale
  return sqrt(big * big + small * small) * scale
end

local atan2 = M.atan2

--- acos as ik2d_acos: atan2(sqrt((1 - x)(1 + x)), x)
function M.acos(x)
  return atan2(sqrt((1.0 - x) * (1.0 + x)), x)
end

return M
