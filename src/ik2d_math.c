/*
** ik2d_math.c: the core's own atan2.
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
** (1, 0) whenever it lines up with its parent); infinities and NaN go to
** libm. */
double ik2d_atan2(double y, double x) {
  const double half_pi_hi = 1.5707963267948966, half_pi_lo = 6.123233995736766e-17;
  const double pi_hi = 3.141592653589793, pi_lo = 1.2246467991473532e-16;
  double ax = fabs(x), ay = fabs(y), t, c, angle;
  int k, steep;
  if (!(ax > 0.0 && ay > 0.0 && ax <= DBL_MAX && ay <= DBL_MAX)) {
    if (ay == 0.0 && ax > 0.0 && ax <= DBL_MAX) return x > 0.0 ? y : copysign(pi_hi, y);
    if (ax == 0.0 && ay > 0.0 && ay <= DBL_MAX) return copysign(half_pi_hi, y);
    return atan2(y, x);
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
