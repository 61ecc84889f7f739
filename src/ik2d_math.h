/*
** ik2d_math.h: the maths every layer shares (not installed).
**
** A rotation is a unit complex number (c, s) = (cos a, sin a): turning is
** a product, the inverse a conjugate, so the solvers' inner loops need
** no trig.  Products are written with two terms each (a sum of two
** products), so any operand order gives the same bits.
*/
#ifndef IK2D_MATH_H
#define IK2D_MATH_H

/* before anything that computes: how the compiler treats doubles */
#include "ik2d_fp.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* For the few inner-loop helpers gcc would otherwise call: a call
** spills the loop's locals to memory. */
#if defined(__GNUC__)
#define IK2D_INLINE static inline __attribute__((always_inline))
#else
#define IK2D_INLINE static inline
#endif

#define IK2D_PI 3.14159265358979323846
#define IK2D_TWO_PI 6.28318530717958647692

typedef struct ik2d_rot {
  double c, s;
} ik2d_rot;

/* Whether a and b are the same double to the bit (0.0 and -0.0 are not):
** a value set again that is the one kept changes nothing. */
static inline bool ik2d_same_bits(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

static inline ik2d_rot ik2d_rot_of(double c, double s) {
  ik2d_rot r;
  r.c = c;
  r.s = s;
  return r;
}

/* a * b: (a.c + i a.s)(b.c + i b.s), the angles added */
static inline ik2d_rot ik2d_rot_mul(ik2d_rot a, ik2d_rot b) {
  return ik2d_rot_of(a.c * b.c - a.s * b.s, a.c * b.s + a.s * b.c);
}

/* conj(a) * b: the turn from a to b, the angles subtracted */
static inline ik2d_rot ik2d_rot_inv_mul(ik2d_rot a, ik2d_rot b) {
  return ik2d_rot_of(a.c * b.c + a.s * b.s, a.c * b.s - a.s * b.c);
}

/* angle wrapped to [-pi, pi); inline: the solve calls it per bone */
static inline double ik2d_wrap(double angle) {
  double r;
  /* fast path: most deltas are already in range */
  if (angle >= -IK2D_PI && angle < IK2D_PI) return angle;
  /* fmod is exact: in range for any finite angle, even 1e308 */
  r = fmod(angle, IK2D_TWO_PI);
  if (r >= IK2D_PI) return r - IK2D_TWO_PI;
  if (r < -IK2D_PI) return r + IK2D_TWO_PI;
  return r;
}

/* A weight as solvers and springs keep it: clamped into [0, 1] (NaN is
** refused before). */
static inline double ik2d_clamp_weight(double weight) {
  return weight < 0.0 ? 0.0 : weight > 1.0 ? 1.0 : weight;
}

/* atan(t) for |t| <= 1/8: the series to t^19, whose next term is below
** 1e-20. */
static inline double ik2d_atan_small(double t) {
  double t2 = t * t;
  return t * (1.0 + t2 * (-1.0 / 3 + t2 * (1.0 / 5 + t2 * (-1.0 / 7 +
         t2 * (1.0 / 9 + t2 * (-1.0 / 11 + t2 * (1.0 / 13 + t2 * (-1.0 / 15 +
         t2 * (1.0 / 17 + t2 * (-1.0 / 19))))))))));
}

/* atan2(y, x) within 2 ulps of libm's (the fuzz target checks it on
** every solve) at a fifth of its instructions: the solve turns each
** bone's rotation into an angle with it. */
double ik2d_atan2(double y, double x);
/* its table, for the lane kernels' copy of it */
extern const double ik2d_atan_eighths[9];

/* The rest of the core's transcendentals, from +, -, *, / and sqrt alone
** so that every platform gives the same bits (libm's differ in the last
** bit between glibc with and without FMA, msvcrt and aarch64); within 1
** to 2 ulps of a correctly rounded result (spec/core/libm.c measures). */
/* (cos angle, sin angle), one range reduction for both */
ik2d_rot ik2d_rot_angle(double angle);
double ik2d_sin(double x);
double ik2d_cos(double x);
double ik2d_exp(double x);
double ik2d_expm1(double x);
double ik2d_hypot(double x, double y);
double ik2d_acos(double x);

#endif
