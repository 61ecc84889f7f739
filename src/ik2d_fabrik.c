/*
** ik2d_fabrik.c: FABRIK (forward and backward reaching), with the same
** limits as CCD: the backward pass, root to tip, turns each bone's local
** rotation into its allowed arc.  It is not monotone, so the best pose
** seen is kept: a solve never ends worse than it started.  When the
** iterations run out short of the target, the exact two-joint step
** finishes (settings->ccd.exact, on by default), or where a limit
** forbids that, the limited pair step.
*/
#include <math.h>

#include "ik2d_fabrik.h"
#include "ik2d_pose.h"

/* Direction from (x0, y0) to (x1, y1); keeps *dir when they coincide. */
static void fabrik_direction(double x0, double y0, double x1, double y1,
                             double *dir_x, double *dir_y) {
  double dx = x1 - x0, dy = y1 - y0;
  double norm = sqrt(dx * dx + dy * dy);
  if (norm > 0.0) {
    *dir_x = dx / norm;
    *dir_y = dy / norm;
  }
}

static void fabrik_sweep(ik2d_pose *pose) {
  const ik2d_chain *chain = pose->chain;
  int n = pose->count, i;
  double *x = pose->joint_x, *y = pose->joint_y;
  ik2d_rot world = pose->base;
  /* forward reaching: tip onto the target, then each joint toward it */
  x[n] = pose->target_x;
  y[n] = pose->target_y;
  for (i = n - 1; i >= 0; i--) {
    /* default: the bone's present direction, reversed */
    double dir_x = x[i] - x[i + 1], dir_y = y[i] - y[i + 1];
    double norm = sqrt(dir_x * dir_x + dir_y * dir_y);
    dir_x = norm > 0.0 ? dir_x / norm : -1.0;
    dir_y = norm > 0.0 ? dir_y / norm : 0.0;
    x[i] = x[i + 1] + chain->length[i] * dir_x;
    y[i] = y[i + 1] + chain->length[i] * dir_y;
  }
  /* backward reaching: base back in place, bones turned into limits */
  x[0] = chain->base_x;
  y[0] = chain->base_y;
  for (i = 0; i < n; i++) {
    double dir_x = world.c, dir_y = world.s;
    fabrik_direction(x[i], y[i], x[i + 1], y[i + 1], &dir_x, &dir_y);
    pose->rot[i] = ik2d_rot_inv_mul(world, ik2d_rot_of(dir_x, dir_y));
    ik2d_pose_clamp(pose, i);
    world = ik2d_rot_mul(world, pose->rot[i]);
    x[i + 1] = x[i] + chain->length[i] * world.c;
    y[i + 1] = y[i] + chain->length[i] * world.s;
  }
}

int ik2d_fabrik_run(ik2d_pose *pose) {
  ik2d_rot best[IK2D_MAX_BONES];
  double best_sq, distance_sq;
  int iteration, iterations = pose->iterations;
  ik2d_pose_forward(pose);
  best_sq = ik2d_pose_tip_distance_sq(pose);
  if (best_sq <= pose->tolerance_sq) return 0;
  if (ik2d_pose_straighten(pose)) return 1;
  ik2d_pose_save(pose, best);
  for (iteration = 1; iteration <= iterations; iteration++) {
    fabrik_sweep(pose);
    ik2d_pose_forward(pose);
    distance_sq = ik2d_pose_tip_distance_sq(pose);
    if (distance_sq < best_sq) {
      best_sq = distance_sq;
      ik2d_pose_save(pose, best);
      if (best_sq <= pose->tolerance_sq) return iteration;
    } else {
      break; /* no gain: stalled */
    }
  }
  ik2d_pose_load(pose, best);
  if (pose->settings->ccd.exact) {
    /* not there after the budget (or a stall): one exact two-joint step
    ** finishes from the best pose when some pair of joints can; FABRIK
    ** creeps toward targets near the base or near full reach */
    ik2d_pose_forward(pose);
    ik2d_pose_exact_step(pose, &best_sq);
    /* and where a limit forbids that, the nearest pose the limits allow */
    if (best_sq > pose->tolerance_sq) ik2d_pose_limited_step(pose, &best_sq);
  }
  return iteration > iterations ? iterations : iteration;
}
