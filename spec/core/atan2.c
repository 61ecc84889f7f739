/*
** atan2.c: the core's own atan2 (src/ik2d_math.c), which turns every
** solution's rotations into angles and which the lane kernels and the
** pure-Lua core copy operation for operation.
**
** On the axes and at the zeros it gives exactly what C99's Annex F asks
** of atan2 (the signs of zero included): a bone lined up with its parent
** has the rotation (1, 0), and its angle must be 0, not a rounding.
** Everywhere else it is within 2 ulps of libm's atan2 (here: 200,000
** points over every octant and scale, and the unit circle's rotations).
*/
#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ik2d_math.h"

static int failures = 0;

static void check(int ok, const char *what) {
  printf("%s %s\n", ok ? "ok" : "not ok", what);
  if (!ok) failures++;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* ulps between two finite doubles of one sign */
static double ulps(double a, double b) {
  int64_t ia, ib;
  memcpy(&ia, &a, sizeof ia);
  memcpy(&ib, &b, sizeof ib);
  if ((ia < 0) != (ib < 0)) return a == b ? 0.0 : HUGE_VAL;
  return fabs((double)(ia - ib));
}

static uint64_t state = 0x9e3779b97f4a7c15ULL;
static double rnd(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (double)(state >> 11) / 9007199254740992.0;
}

int main(void) {
  static const double axis[] = {0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, 4.9e-324, -4.9e-324,
                                1e300, -1e300, DBL_MAX, -DBL_MAX, HUGE_VAL, -HUGE_VAL};
  int n = (int)(sizeof axis / sizeof axis[0]), i, j, exact = 1;
  double worst = 0.0;
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      double y = axis[i], x = axis[j];
      bool edge = y == 0.0 || x == 0.0 || isinf(y) || isinf(x);
      if (edge && !same_bits(ik2d_atan2(y, x), atan2(y, x))) {
        printf("# atan2(%a, %a): %a, libm %a\n", y, x, ik2d_atan2(y, x), atan2(y, x));
        exact = 0;
      }
    }
  }
  check(exact, "the axes, zeros and infinities: libm's bits (Annex F)");
  check(isnan(ik2d_atan2(NAN, 1.0)) && isnan(ik2d_atan2(1.0, NAN)), "NaN in, NaN out");
  for (i = 0; i < 200000; i++) {
    double scale = pow(10.0, 600.0 * rnd() - 300.0);
    double y = scale * (2.0 * rnd() - 1.0), x = scale * (2.0 * rnd() - 1.0);
    double u = ulps(ik2d_atan2(y, x), atan2(y, x));
    if (u > worst) worst = u;
  }
  for (i = 0; i < 100000; i++) {
    double a = IK2D_TWO_PI * rnd() - IK2D_PI;
    double u = ulps(ik2d_atan2(sin(a), cos(a)), atan2(sin(a), cos(a)));
    if (u > worst) worst = u;
  }
  printf("# worst: %.0f ulps\n", worst);
  check(worst <= 2.0, "within 2 ulps of libm everywhere else");
  return failures != 0;
}
