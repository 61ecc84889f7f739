/*
** ik2d_fabrik.c: FABRIK (forward and backward reaching), with the same
** limits as CCD: the backward pass, root to tip, turns each bone's local
** rotation into its allowed arc.  It is not monotone, so the best pose
** seen is kept: a solve never ends worse than it started.  When the
** iterations run out short of the target, the exact two-joint step of
** ik2d_ccd.c finishes (solver->exact, on by default).
*/
#include <math.h>

#include "ik2d.h"
#include "ik2d_internal.h"

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

static void fabrik_sweep(ik2d_work *work) {
  const ik2d_chain *chain = work->chain;
  int n = work->count, i;
  double *x = work->joint_x, *y = work->joint_y;
  double world_cos = work->base_cos, world_sin = work->base_sin;
  /* forward reaching: tip onto the target, then each joint toward it */
  x[n] = work->target_x;
  y[n] = work->target_y;
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
    double dir_x = world_cos, dir_y = world_sin, next_cos;
    fabrik_direction(x[i], y[i], x[i + 1], y[i + 1], &dir_x, &dir_y);
    work->rot_cos[i] = dir_x * world_cos + dir_y * world_sin;
    work->rot_sin[i] = dir_y * world_cos - dir_x * world_sin;
    ik2d_work_clamp(work, i);
    next_cos = world_cos * work->rot_cos[i] - world_sin * work->rot_sin[i];
    world_sin = world_cos * work->rot_sin[i] + world_sin * work->rot_cos[i];
    world_cos = next_cos;
    x[i + 1] = x[i] + chain->length[i] * world_cos;
    y[i + 1] = y[i] + chain->length[i] * world_sin;
  }
}

int ik2d_fabrik_run(ik2d_work *work, const ik2d_solver *solver) {
  double best_cos[IK2D_MAX_BONES], best_sin[IK2D_MAX_BONES];
  double best_sq, distance_sq;
  int iteration;
  ik2d_work_forward(work);
  best_sq = ik2d_work_tip_distance_sq(work);
  if (best_sq <= work->tolerance_sq) return 0;
  if (ik2d_work_straighten(work)) return 1;
  ik2d_work_save(work, best_cos, best_sin);
  for (iteration = 1; iteration <= solver->iterations; iteration++) {
    fabrik_sweep(work);
    ik2d_work_forward(work);
    distance_sq = ik2d_work_tip_distance_sq(work);
    if (distance_sq < best_sq) {
      best_sq = distance_sq;
      ik2d_work_save(work, best_cos, best_sin);
      if (best_sq <= work->tolerance_sq) return iteration;
    } else {
      break; /* no gain: stalled */
    }
  }
  ik2d_work_load(work, best_cos, best_sin);
  if (solver->exact) {
    /* not there after the budget (or a stall): one exact two-joint step
    ** finishes from the best pose when some pair of joints can; FABRIK
    ** creeps toward targets near the base or near full reach */
    ik2d_work_forward(work);
    ik2d_work_exact_step(work, &best_sq);
  }
  return iteration > solver->iterations ? solver->iterations : iteration;
}
