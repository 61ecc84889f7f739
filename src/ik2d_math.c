/*
** ik2d_math.c: the core's own transcendentals: atan2, sin and cos, exp
** and expm1, hypot, acos.
*/
#include <float.h>
#include <math.h>

#include "ik2d_math.h"

/* atan(k / 8), k = 0..8, rounded to nearest */
const double ik2d_atan_eighths[9] = {
  0.0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225,
  0.4636476090008061, 0.5585993153435624, 0.6435011087932844,
  0.7188299996216245, 0.7853981633974483
};

/* The octant by symmetry, then atan(t) = atan(k/8) + atan(u) with
** u = (t - k/8) / (1 + t k/8), 0 <= u < 1/8, by the series.  pi/2 and pi
** are added as two parts each so that their rounding does not count.
** On an axis the exact answers C99's Annex F gives (a bone's rotation is
** (1, 0) whenever it lines up with its parent), and at the zeros and
** infinities what Annex F asks too (the signs of zero, pi/4 and 3 pi/4
** when both are infinite); NaN in, NaN out. */
double ik2d_atan2(double y, double x) {
  const double half_pi_hi = 1.5707963267948966, half_pi_lo = 6.123233995736766e-17;
  const double pi_hi = 3.141592653589793, pi_lo = 1.2246467991473532e-16;
  double ax = fabs(x), ay = fabs(y), t, c, angle;
  int k, steep;
  if (!(ax > 0.0 && ay > 0.0 && ax <= DBL_MAX && ay <= DBL_MAX)) {
    if (x != x || y != y) return x + y;
    if (ay == 0.0) return x > 0.0 || (x == 0.0 && copysign(1.0, x) > 0.0) ? y : copysign(pi_hi, y);
    if (ax == 0.0) return copysign(half_pi_hi, y);
    if (ay > DBL_MAX) {
      if (ax > DBL_MAX) return copysign(x > 0.0 ? 0.7853981633974483 : 2.356194490192345, y);
      return copysign(half_pi_hi, y);
    }
    return x > 0.0 ? copysign(0.0, y) : copysign(pi_hi, y);
  }
  steep = ay > ax;
  t = steep ? ax / ay : ay / ax;
  k = (int)(8.0 * t); /* rounded down: both parts >= 0, nothing cancels */
  c = 0.125 * k;
  angle = ik2d_atan_eighths[k] + ik2d_atan_small((t - c) / (1.0 + t * c));
  if (steep) angle = (half_pi_hi - angle) + half_pi_lo;
  if (x < 0.0) angle = (pi_hi - angle) + pi_lo;
  return y < 0.0 ? -angle : angle;
}

/* ---- sin, cos, exp, expm1, hypot, acos -------------------------------
** libm's results differ in the last bit between platforms (glibc with and
** without FMA, msvcrt, aarch64), so the core computes every transcendental
** with +, -, *, / and sqrt alone, which IEEE 754 rounds alike everywhere.
** The pure-Lua core (lua/ik2d/pure/math.lua) runs the same operations in
** the same order; spec/core/libm.c measures the distance to libm. */

/* pi/2 as P1 + P2 + P3: P1 and P2 of 33 bits, so n P1 and n P2 are exact
** for n < 2^20; P3 the next 53 bits.  And pi/2 as PIO2_HI + PIO2_LO. */
#define P1 1.5707963267341256
#define P2 6.077100506303966e-11
#define P3 2.0222662487959506e-21
#define PIO2_HI 1.5707963267948966
#define PIO2_LO 6.123233995736766e-17
#define MEDIUM_MAX 1.6e6 /* below (2^20 - 1/2) pi/2: n < 2^20 */
#define TWO_24 16777216.0
#define TWO_53 9007199254740992.0

/* 2/pi = sum of two_over_pi[k] 2^(-24 (k + 1)): 1248 bits, enough to
** reduce the largest double (exponent 971 for an integer mantissa) */
static const double two_over_pi[52] = {
  10680707, 7228996, 1387004, 2578385, 16069853, 12639074, 9804092,
  4427841, 16666979, 11263675, 12935607, 2387514, 4345298, 14681673,
  3074569, 13734428, 16653803, 1880361, 10960616, 8533493, 3062596,
  8710556, 7349940, 6258241, 3772886, 3769171, 3798172, 8675211,
  12450088, 3874808, 9961438, 366607, 15675153, 9132554, 7151469,
  3571407, 2607881, 12013382, 4155038, 6285869, 7677882, 13102053,
  15825725, 473591, 9065106, 15363067, 6271263, 9264392, 5636912,
  4652155, 7056368, 13614112
};

/* 2^k for -1022 <= k <= 1023, by squaring exact powers of two */
static double power_of_two(int k) {
  double result = 1.0, base = k < 0 ? 0.5 : 2.0;
  int n = k < 0 ? -k : k;
  while (n > 0) {
    if (n & 1) result *= base;
    base *= base;
    n >>= 1;
  }
  return result;
}

/* y 2^k, rounded once (y in [0.5, 2], -1080 <= k <= 1025): the first
** product stays normal and exact, the second rounds */
static double scale_by_power_of_two(double y, int k) {
  if (k > 1000) return y * power_of_two(1000) * power_of_two(k - 1000);
  if (k < -1000) return y * power_of_two(k + 600) * power_of_two(-600);
  return y * power_of_two(k);
}

/* s + t exactly as hi + lo (Knuth's two-sum: any order of magnitude) */
static double two_sum(double s, double t, double *lo) {
  double hi = s + t, v = hi - s;
  *lo = (s - (hi - v)) + (t - v);
  return hi;
}

/* a b exactly as hi + lo (Dekker: Veltkamp's split into 26-bit halves) */
static double two_product(double a, double b, double *lo) {
  double ca = 134217729.0 * a, cb = 134217729.0 * b;
  double a_hi = ca - (ca - a), a_lo = a - a_hi;
  double b_hi = cb - (cb - b), b_lo = b - b_hi;
  double hi = a * b;
  *lo = ((a_hi * b_hi - hi) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo;
  return hi;
}

/* x >= pi/4, x < MEDIUM_MAX: x - n pi/2 as hi + lo, n mod 4 returned.
** x - n P1 is exact (Sterbenz: x and n P1 within a factor 2), n P2 too;
** the two-sum keeps what t - n P2 rounds away, and pi/2's error beyond
** P3 is below n 2^-120, far under an ulp of any remainder a double
** below 2^21 leaves. */
static int reduce_medium(double x, double *hi, double *lo) {
  double n = floor(x * (1.0 / PIO2_HI) + 0.5);
  double t = x - n * P1, rest, head;
  head = two_sum(t, -(n * P2), &rest);
  rest -= n * P3;
  *hi = head + rest;
  *lo = (head - *hi) + rest;
  return (int)n & 3; /* 0 <= n < 2^20 */
}

/* x >= MEDIUM_MAX, finite (Payne and Hanek): x = M 2^e with M an
** integer of 53 bits, in three digits of 24 bits X0 + X1 2^24 + X2 2^48.
** Then x 2/pi = sum over d of S_d 2^(e - 24 (d + 1)), S_d the sum of
** X_i two_over_pi[d + i] (each product below 2^48, exact).  Terms whose
** weight is 2^2 or more are multiples of 4, which the quadrant ignores:
** the sum starts at d0 = floor((e - 2) / 24), and 9 terms leave an error
** below 2^-160 of the fraction. */
static int reduce_large(double x, double *hi, double *lo) {
  /* mantissa: halved while 2^(53 + step - 1) or more, doubled while
  ** doubling keeps it below 2^53: it ends in [2^52, 2^53) */
  double mantissa = x, digits[3], sum[9], carry, modulus, a, b, c, f, n;
  double head, rest, product, product_lo;
  int e = 0, step, d0, d, i, w0;
  for (step = 512; step >= 1; step >>= 1) {
    if (mantissa >= TWO_53 * power_of_two(step - 1)) {
      mantissa *= power_of_two(-step);
      e += step;
    }
  }
  for (step = 32; step >= 1; step >>= 1) {
    if (mantissa < TWO_53 * power_of_two(-step)) {
      mantissa *= power_of_two(step);
      e -= step;
    }
  }
  carry = floor(mantissa * (1.0 / TWO_24));
  digits[0] = mantissa - carry * TWO_24;
  digits[2] = floor(carry * (1.0 / TWO_24));
  digits[1] = carry - digits[2] * TWO_24;
  d0 = (int)floor((e - 2) / 24.0);
  w0 = e - 24 * (d0 + 1); /* in [-22, 1] */
  for (d = 0; d < 9; d++) {
    sum[d] = 0.0;
    for (i = 0; i < 3; i++) {
      if (d0 + d + i >= 0) sum[d] += digits[i] * two_over_pi[d0 + d + i];
    }
  }
  for (d = 8; d > 0; d--) { /* carries: every digit below 2^24 */
    carry = floor(sum[d] * (1.0 / TWO_24));
    sum[d] -= carry * TWO_24;
    sum[d - 1] += carry;
  }
  modulus = power_of_two(2 - w0); /* sum[0] 2^w0 mod 4 */
  sum[0] -= floor(sum[0] / modulus) * modulus;
  a = (sum[0] * TWO_24 + sum[1]) * power_of_two(w0 - 24);
  b = (sum[2] * TWO_24 + sum[3]) * power_of_two(w0 - 72);
  c = (sum[4] * TWO_24 + sum[5]) * power_of_two(w0 - 120) +
      (sum[6] * TWO_24 + sum[7]) * power_of_two(w0 - 168);
  n = floor(a);
  f = a - n;
  if (f >= 0.5) {
    n += 1.0;
    f -= 1.0;
  }
  head = two_sum(f, b, &rest);
  rest += c;
  f = head + rest;
  rest = (head - f) + rest;
  /* (f + rest) pi/2, to double-double */
  product = two_product(f, PIO2_HI, &product_lo);
  product_lo += f * PIO2_LO + rest * PIO2_HI;
  *hi = product + product_lo;
  *lo = (product - *hi) + product_lo;
  return (int)n & 3;
}

/* sin(x + y) and cos(x + y) for |x| <= pi/4, |y| below an ulp of x: the
** Taylor series to x^17 and x^16 (the next terms are below 2^-62 of the
** result), y by the first order: sin + y cos ~ sin + y (1 - x^2/2),
** cos - y sin ~ cos - x y.  cos = w + ((1 - w) - x^2/2) + ... keeps what
** w = 1 - x^2/2 rounds away. */
static double kernel_sin(double x, double y) {
  double z = x * x;
  double p = -1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 +
             z * (-1.0 / 39916800 + z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0 +
             z * (1.0 / 355687428096000.0)))))));
  return x + ((x * z) * p + y * (1.0 - 0.5 * z));
}

static double kernel_cos(double x, double y) {
  double z = x * x, half = 0.5 * z, w = 1.0 - half;
  double q = 1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800 +
             z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0))))));
  return w + (((1.0 - w) - half) + (z * z * q - x * y));
}

/* |angle| - n pi/2 as hi + lo, n mod 4 returned; for finite angles of
** 2^-27 or more */
static int reduce(double ax, double *hi, double *lo) {
  if (ax <= 0.7853981633974483) {
    *hi = ax;
    *lo = 0.0;
    return 0;
  }
  if (ax < MEDIUM_MAX) return reduce_medium(ax, hi, lo);
  return reduce_large(ax, hi, lo);
}

ik2d_rot ik2d_rot_angle(double angle) {
  double ax = fabs(angle), hi, lo, s, c;
  int quadrant;
  if (!(ax <= DBL_MAX)) return ik2d_rot_of(angle - angle, angle - angle);
  if (ax < 7.450580596923828e-9) return ik2d_rot_of(1.0, angle); /* 2^-27 */
  quadrant = reduce(ax, &hi, &lo);
  s = kernel_sin(hi, lo);
  c = kernel_cos(hi, lo);
  switch (quadrant) {
    case 1: hi = c; c = -s; s = hi; break;
    case 2: s = -s; c = -c; break;
    case 3: hi = -c; c = s; s = hi; break;
    default: break;
  }
  return ik2d_rot_of(c, angle < 0.0 ? -s : s);
}

/* one kernel of ik2d_rot_angle's two, the same bits */
double ik2d_sin(double x) {
  double ax = fabs(x), hi, lo, s;
  int quadrant;
  if (!(ax <= DBL_MAX)) return x - x;
  if (ax < 7.450580596923828e-9) return x;
  quadrant = reduce(ax, &hi, &lo);
  s = quadrant & 1 ? kernel_cos(hi, lo) : kernel_sin(hi, lo);
  if (quadrant >= 2) s = -s;
  return x < 0.0 ? -s : s;
}

double ik2d_cos(double x) {
  double ax = fabs(x), hi, lo, c;
  int quadrant;
  if (!(ax <= DBL_MAX)) return x - x;
  if (ax < 7.450580596923828e-9) return 1.0;
  quadrant = reduce(ax, &hi, &lo);
  c = quadrant & 1 ? kernel_sin(hi, lo) : kernel_cos(hi, lo);
  return quadrant == 1 || quadrant == 2 ? -c : c;
}

/* e^r - 1 for |r| <= ln2/2 (a little more after rounding): the Taylor
** series to r^15, whose next term is below 2^-60 of the result */
static double kernel_expm1(double r) {
  return r + (r * r) * (0.5 + r * (1.0 / 6 + r * (1.0 / 24 + r * (1.0 / 120 +
         r * (1.0 / 720 + r * (1.0 / 5040 + r * (1.0 / 40320 + r * (1.0 / 362880 +
         r * (1.0 / 3628800 + r * (1.0 / 39916800 + r * (1.0 / 479001600 +
         r * (1.0 / 6227020800.0 + r * (1.0 / 87178291200.0 + r * (1.0 / 1307674368000.0))))))))))))));
}

/* ln 2 as LN2_HI (42 bits: k LN2_HI exact for |k| < 2^11) + LN2_LO */
#define LN2_HI 0.6931471805598903
#define LN2_LO 5.497923018708371e-14
#define HALF_LN2 0.34657359027997264
#define EXP_OVERFLOW 709.782712893384 /* the largest x with e^x finite */

/* x = k ln2 + r, |r| <= ln2/2: e^r - 1 of r as hi - lo, with what
** hi - lo rounds away (c) carried by the first order */
static double expm1_reduced(double x, int *k) {
  double n = floor(x * 1.4426950408889634 + 0.5);
  double hi = x - n * LN2_HI, lo = n * LN2_LO, r = hi - lo, c = (hi - r) - lo;
  double e = kernel_expm1(r);
  *k = (int)n;
  return e + (c + c * e);
}

double ik2d_exp(double x) {
  int k;
  double e;
  if (x != x) return x;
  if (x > EXP_OVERFLOW) return HUGE_VAL;
  if (x < -746.0) return 0.0;
  e = expm1_reduced(x, &k);
  return scale_by_power_of_two(1.0 + e, k);
}

double ik2d_expm1(double x) {
  int k;
  double e, t;
  if (x != x) return x;
  if (x > EXP_OVERFLOW) return HUGE_VAL;
  if (fabs(x) < 5.551115123125783e-17) return x; /* 2^-54: x^2/2 is below half an ulp, -0 kept */
  if (x < -40.0) return -1.0; /* e^-40 is below half an ulp of 1 */
  if (fabs(x) <= HALF_LN2) return kernel_expm1(x);
  e = expm1_reduced(x, &k);
  if (k > 56) return scale_by_power_of_two(1.0 + e, k) - 1.0;
  /* 2^k (1 + e) - 1 = (2^k - 1) + 2^k e: both exact, one rounding */
  t = power_of_two(k);
  return (t - 1.0) + t * e;
}

/* sqrt(x^2 + y^2) scaled by a power of two where the squares would
** overflow or underflow: within an ulp (two roundings under the root, one
** of it).  An infinity wins over NaN (C99 Annex F). */
double ik2d_hypot(double x, double y) {
  double ax = fabs(x), ay = fabs(y), big, small, scale = 1.0;
  if (ax == HUGE_VAL || ay == HUGE_VAL) return HUGE_VAL;
  if (ax != ax || ay != ay) return x + y;
  big = ax > ay ? ax : ay;
  small = ax > ay ? ay : ax;
  if (small == 0.0) return big;
  if (big > 1e150) scale = power_of_two(600);
  else if (big < 1e-150) scale = power_of_two(-600);
  big /= scale;
  small /= scale;
  return sqrt(big * big + small * small) * scale;
}

/* acos(x) = atan2(sqrt(1 - x^2), x), 1 - x^2 as (1 - x)(1 + x): near
** x = 1 the factor 1 - x is exact (Sterbenz), so small angles keep their
** precision */
double ik2d_acos(double x) {
  return ik2d_atan2(sqrt((1.0 - x) * (1.0 + x)), x);
}
