/*
** ik2d_ccd.c: cyclic coordinate descent.
** A sweep turns each joint, tip to root, so that joint->tip points at
** joint->target.  Turning joint i moves only the joints after it, so the
** sweep keeps joint positions from one forward pass and moves just the
** tip: O(n) per sweep.  Rotations are unit complex numbers built from dot
** and cross products: one sqrt per joint update and no trig.
*/
#include <math.h>

#include "ik2d.h"
#include "ik2d_internal.h"

/* A sweep that gains less than this fraction of the distance has
** stalled (limits or a local minimum): more sweeps would not help. */
#define CCD_STALL_GAIN 1e-9

/* Turns joint i; returns the new squared tip distance. */
static double ccd_update_joint(ik2d_work *work, const ik2d_solver *solver,
                               int i, double *tip_x, double *tip_y) {
  double jx = work->joint_x[i], jy = work->joint_y[i];
  double to_tip_x = *tip_x - jx, to_tip_y = *tip_y - jy;
  double to_target_x = work->target_x - jx, to_target_y = work->target_y - jy;
  double dot = to_tip_x * to_target_x + to_tip_y * to_target_y;
  double cross = to_tip_x * to_target_y - to_tip_y * to_target_x;
  double norm = sqrt(dot * dot + cross * cross);
  double turn_cos, turn_sin, old_cos, old_sin, dx, dy;
  if (norm > 0.0) {
    turn_cos = dot / norm;
    turn_sin = cross / norm;
    if (turn_cos < solver->damping_cos) {
      turn_cos = solver->damping_cos;
      turn_sin = turn_sin < 0.0 ? -solver->damping_sin : solver->damping_sin;
    }
    old_cos = work->rot_cos[i];
    old_sin = work->rot_sin[i];
    work->rot_cos[i] = old_cos * turn_cos - old_sin * turn_sin;
    work->rot_sin[i] = old_cos * turn_sin + old_sin * turn_cos;
    if (ik2d_work_clamp(work, i)) {
      /* the turn actually made: clamped rotation times the old inverse */
      turn_cos = work->rot_cos[i] * old_cos + work->rot_sin[i] * old_sin;
      turn_sin = work->rot_sin[i] * old_cos - work->rot_cos[i] * old_sin;
    }
    *tip_x = jx + turn_cos * to_tip_x - turn_sin * to_tip_y;
    *tip_y = jy + turn_sin * to_tip_x + turn_cos * to_tip_y;
  }
  dx = work->target_x - *tip_x;
  dy = work->target_y - *tip_y;
  return dx * dx + dy * dy;
}

int ik2d_ccd_run(ik2d_work *work, const ik2d_solver *solver) {
  double distance_sq, before_sq;
  int iteration, i;
  ik2d_work_forward(work);
  distance_sq = ik2d_work_tip_distance_sq(work);
  if (distance_sq <= work->tolerance_sq) return 0;
  /* out of reach: the straight pose is the answer, in one step */
  if (ik2d_work_straighten(work)) return 1;
  for (iteration = 1; iteration <= solver->iterations; iteration++) {
    double tip_x = work->joint_x[work->count];
    double tip_y = work->joint_y[work->count];
    before_sq = distance_sq;
    for (i = work->count - 1; i >= 0; i--) {
      distance_sq = ccd_update_joint(work, solver, i, &tip_x, &tip_y);
      if (distance_sq <= work->tolerance_sq) return iteration;
    }
    ik2d_work_forward(work);
    distance_sq = ik2d_work_tip_distance_sq(work);
    if (before_sq - distance_sq <= CCD_STALL_GAIN * before_sq)
      return iteration;
  }
  return solver->iterations;
}
