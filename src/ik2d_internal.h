/*
** ik2d_internal.h: shared by the core's .c files, not installed.
*/
#ifndef IK2D_INTERNAL_H
#define IK2D_INTERNAL_H

#include <math.h>
#include <stddef.h>

#include "ik2d.h"

/* For the few inner-loop helpers gcc would otherwise call: a call
** spills the tip and the loop's locals to memory. */
#if defined(__GNUC__)
#define IK2D_INLINE static inline __attribute__((always_inline))
#else
#define IK2D_INLINE static inline
#endif

#define IK2D_PI 3.14159265358979323846
#define IK2D_TWO_PI 6.28318530717958647692

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

/* atan2(y, x) within 2 ulps of libm's (spec/fuzz checks it on every
** input) at a fifth of its instructions: the solve turns each bone's
** rotation into an angle with it. */
double ik2d_atan2(double y, double x);

/* A solver that can solve: count < 1 is a chain the Lua binding
** finalised (ik2d_solve_batch reaches it through a group). */
static inline int ik2d_solver_live(const ik2d_solver *solver) {
  return solver != NULL && solver->chain != NULL && solver->chain->count >= 1;
}

/* A solve works in chain space (unflipped) on unit complex rotations, so
** its inner loops need no trig.  Lives on the stack of a solve. */
typedef struct ik2d_work {
  const ik2d_chain *chain;
  int count;
  double target_x, target_y;        /* chain space */
  double tolerance_sq;
  double damping_cos, damping_sin;  /* the solver's largest CCD turn */
  double base_cos, base_sin;
  double rot_cos[IK2D_MAX_BONES];   /* local rotation of each bone */
  double rot_sin[IK2D_MAX_BONES];
  /* limited bones: the middle of the allowed arc in parent space */
  double limit_mid_cos[IK2D_MAX_BONES];
  double limit_mid_sin[IK2D_MAX_BONES];
  double scale;       /* bone scale of the solution: 1, or the two-bone
                         stretch (joint_x/y are always unscaled) */
  int fresh;          /* 1: joint_x/y are those of the rotations now */
  int joint_updates;  /* CCD turns of single joints, for benchmarks */
  double joint_x[IK2D_MAX_BONES + 1]; /* from the last ik2d_work_forward */
  double joint_y[IK2D_MAX_BONES + 1];
} ik2d_work;

/* Copies the rotations out to (c, s), or back in from them (the joints
** are then stale until the next forward pass). */
void ik2d_work_save(const ik2d_work *work, double *c, double *s);
void ik2d_work_load(ik2d_work *work, const double *c, const double *s);
/* Positions of every joint from the rotations.  Every rotation is a
** product of unit ones, off unit length by a few ulps a turn; the solve
** puts them back on it at the end when that grows past 1e-14
** (solve_sane), not here on every pass. */
void ik2d_work_forward(ik2d_work *work);
/* Squared distance from the tip of the last forward pass to the target. */
double ik2d_work_tip_distance_sq(const ik2d_work *work);
/* Moves rotation i into its limits; returns 1 if it had to move. */
int ik2d_work_clamp(ik2d_work *work, int i);
/* Points the chain straight at an out-of-reach target when the limits
** allow it; returns 1 if it did. */
int ik2d_work_straighten(ik2d_work *work);

/* The exact two-joint step (ik2d_ccd.c): turns the best pair of joints
** so that the tip lands on the target (law of cosines), inside limits and
** damping, kept only if it gains.  Needs the joints of the last forward
** pass and their squared tip distance in *distance_sq, which it updates;
** returns 1 if it applied a pair. */
int ik2d_work_exact_step(ik2d_work *work, double *distance_sq);

/* Each method turns the start rotations into an IK solution and returns
** the iterations it used. */
int ik2d_ccd_run(ik2d_work *work, const ik2d_solver *solver);

/* Most chains ik2d_ccd_run_together solves at once: enough to hide the
** latency of one chain's turn behind the others' (a turn waits on a sqrt
** and a division).  Measured with bench/core_bench.c, textbook CCD, 3 and
** 10 bones: 2 chains 30 ns per joint update, 4 chains 25, 8 chains 26,
** 16 chains 26 (and more stack). */
#define IK2D_LOCKSTEP 4

/* CCD on count (1..IK2D_LOCKSTEP) chains at once, each with exactly the
** result ik2d_ccd_run gives it; used[k] gets chain k's iterations. */
void ik2d_ccd_run_together(ik2d_work *const *works,
                           const ik2d_solver *const *solvers, int *used,
                           int count);

/* ik2d_solver_solve in two halves around the method's run, so that a
** batch can run CCD on several chains at once in between.
** ik2d_solve_start: 0 when there is nothing to run (weight 0), else
** fills the work and the start rotations.  Both need a live solver
** (ik2d_solver_live).
** ik2d_solve_finish: everything after the run (or, when start returned
** 0, instead of it); returns 1 if the target is reached. */
int ik2d_solve_start(ik2d_solver *solver, ik2d_work *work,
                     double *start_cos, double *start_sin);
int ik2d_solve_finish(ik2d_solver *solver, ik2d_work *work,
                      const double *start_cos, const double *start_sin,
                      int used);
int ik2d_fabrik_run(ik2d_work *work, const ik2d_solver *solver);
int ik2d_two_bone_run(ik2d_work *work, const ik2d_solver *solver);

#endif
