/*
** ik2d_solver.c: solver settings, the solve driver (start state, weight
** blend, result) and the work helpers every method shares.
*/
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "ik2d.h"
#include "ik2d_internal.h"

/* ------------------------------------------------------------------ */
/* settings                                                             */
/* ------------------------------------------------------------------ */

ik2d_status ik2d_solver_init(ik2d_solver *solver, ik2d_chain *chain) {
  if (solver == NULL || chain == NULL) return IK2D_ERR_NULL;
  if (chain->count < 1 || chain->count > IK2D_MAX_BONES)
    return IK2D_ERR_BONE_COUNT;
  solver->chain = chain;
  solver->method = IK2D_CCD;
  solver->iterations = 10;
  solver->tolerance = 0.01;
  solver->weight = 1.0;
  solver->target_x = chain->joint_x[chain->count];
  solver->target_y = chain->joint_y[chain->count];
  solver->damping = 0.0;
  solver->damping_cos = -1.0;
  solver->damping_sin = 0.0;
  solver->warm_start = 1;
  solver->bend = 1;
  solver->softness = 0.0;
  solver->stretch = 1.0;
  solver->exact = 1;
  solver->sweep = IK2D_SWEEP_ROOT;
  solver->have_solution = 0;
  solver->reached = 0;
  solver->distance = 0.0;
  solver->used_iterations = 0;
  solver->joint_updates = 0;
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_method(ik2d_solver *solver, ik2d_method method) {
  if (solver == NULL || solver->chain == NULL) return IK2D_ERR_NULL;
  if (method != IK2D_CCD && method != IK2D_FABRIK && method != IK2D_TWO_BONE)
    return IK2D_ERR_METHOD;
  if (method == IK2D_TWO_BONE && solver->chain->count != 2)
    return IK2D_ERR_METHOD;
  solver->method = method;
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_target(ik2d_solver *solver, double x, double y) {
  if (solver == NULL) return IK2D_ERR_NULL;
  if (!isfinite(x) || !isfinite(y)) return IK2D_ERR_POSITION;
  solver->target_x = x;
  solver->target_y = y;
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_weight(ik2d_solver *solver, double weight) {
  if (solver == NULL) return IK2D_ERR_NULL;
  if (isnan(weight)) return IK2D_ERR_WEIGHT;
  solver->weight = weight < 0.0 ? 0.0 : weight > 1.0 ? 1.0 : weight;
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_iterations(ik2d_solver *solver, int iterations) {
  if (solver == NULL) return IK2D_ERR_NULL;
  if (iterations < 1) return IK2D_ERR_ITERATIONS;
  solver->iterations = iterations;
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_tolerance(ik2d_solver *solver, double tolerance) {
  if (solver == NULL) return IK2D_ERR_NULL;
  if (!isfinite(tolerance) || tolerance < 0.0) return IK2D_ERR_TOLERANCE;
  solver->tolerance = tolerance;
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_damping(ik2d_solver *solver, double damping) {
  if (solver == NULL) return IK2D_ERR_NULL;
  if (!isfinite(damping) || damping < 0.0) return IK2D_ERR_OPTION;
  solver->damping = damping;
  /* 0 or a half turn or more: no damping (cos = -1 lets every step pass) */
  if (damping == 0.0 || damping >= IK2D_PI) {
    solver->damping_cos = -1.0;
    solver->damping_sin = 0.0;
  } else {
    solver->damping_cos = cos(damping);
    solver->damping_sin = sin(damping);
  }
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_bend(ik2d_solver *solver, int bend) {
  if (solver == NULL) return IK2D_ERR_NULL;
  if (bend != 1 && bend != -1) return IK2D_ERR_OPTION;
  solver->bend = bend;
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_softness(ik2d_solver *solver, double softness) {
  if (solver == NULL) return IK2D_ERR_NULL;
  if (!isfinite(softness) || softness < 0.0) return IK2D_ERR_OPTION;
  solver->softness = softness;
  return IK2D_OK;
}

ik2d_status ik2d_solver_set_stretch(ik2d_solver *solver, double stretch) {
  if (solver == NULL) return IK2D_ERR_NULL;
  if (!isfinite(stretch) || !(stretch >= 1.0)) return IK2D_ERR_OPTION;
  solver->stretch = stretch;
  return IK2D_OK;
}

void ik2d_solver_forget(ik2d_solver *solver) {
  if (solver != NULL) solver->have_solution = 0;
}

/* ------------------------------------------------------------------ */
/* work helpers                                                         */
/* ------------------------------------------------------------------ */

void ik2d_work_save(const ik2d_work *work, double *c, double *s) {
  int i;
  for (i = 0; i < work->count; i++) {
    c[i] = work->rot_cos[i];
    s[i] = work->rot_sin[i];
  }
}

void ik2d_work_load(ik2d_work *work, const double *c, const double *s) {
  int i;
  work->fresh = 0;
  for (i = 0; i < work->count; i++) {
    work->rot_cos[i] = c[i];
    work->rot_sin[i] = s[i];
  }
}

void ik2d_work_forward(ik2d_work *work) {
  const ik2d_chain *chain = work->chain;
  double world_cos = work->base_cos, world_sin = work->base_sin;
  double x = chain->base_x, y = chain->base_y;
  int i;
  for (i = 0; i < work->count; i++) {
    double c = work->rot_cos[i], s = work->rot_sin[i];
    double next_cos = world_cos * c - world_sin * s;
    world_sin = world_cos * s + world_sin * c;
    world_cos = next_cos;
    work->joint_x[i] = x;
    work->joint_y[i] = y;
    x += chain->length[i] * world_cos;
    y += chain->length[i] * world_sin;
  }
  work->joint_x[work->count] = x;
  work->joint_y[work->count] = y;
}

double ik2d_work_tip_distance_sq(const ik2d_work *work) {
  double dx = work->target_x - work->joint_x[work->count];
  double dy = work->target_y - work->joint_y[work->count];
  return dx * dx + dy * dy;
}

int ik2d_work_clamp(ik2d_work *work, int i) {
  const ik2d_constraint *limit = work->chain->constraint[i];
  double mid_cos, mid_sin, c, s, rel_cos, rel_sin, side;
  if (limit == NULL || limit->full) return 0;
  mid_cos = work->limit_mid_cos[i];
  mid_sin = work->limit_mid_sin[i];
  c = work->rot_cos[i];
  s = work->rot_sin[i];
  /* rotation relative to the middle of the allowed arc */
  rel_cos = c * mid_cos + s * mid_sin;
  rel_sin = s * mid_cos - c * mid_sin;
  /* inside when |angle| <= half.  cos(angle) >= cos(half) alone is
  ** ill-conditioned near half = 0 and pi, where cos is flat: a pinned
  ** joint let 1.5e-8 rad through.  The sine decides there instead; and
  ** near half = pi/2, where the sine is flat (it let 1e-8 rad through),
  ** the cosine does. */
  if (fabs(limit->half_cos) <= 0.7071067811865476
          ? rel_cos >= limit->half_cos
          : limit->half_cos > 0.0
                ? rel_cos >= 0.0 && fabs(rel_sin) <= limit->half_sin
                : rel_cos >= 0.0 || fabs(rel_sin) >= limit->half_sin)
    return 0;
  side = rel_sin < 0.0 ? -limit->half_sin : limit->half_sin;
  work->rot_cos[i] = mid_cos * limit->half_cos - mid_sin * side;
  work->rot_sin[i] = mid_cos * side + mid_sin * limit->half_cos;
  return 1;
}

int ik2d_work_straighten(ik2d_work *work) {
  const ik2d_chain *chain = work->chain;
  double dx = work->target_x - chain->base_x;
  double dy = work->target_y - chain->base_y;
  double distance = sqrt(dx * dx + dy * dy);
  double saved_cos[IK2D_MAX_BONES], saved_sin[IK2D_MAX_BONES];
  int i;
  if (!(distance >= chain->reach) || distance == 0.0) return 0;
  for (i = 0; i < work->count; i++) {
    saved_cos[i] = work->rot_cos[i];
    saved_sin[i] = work->rot_sin[i];
  }
  if (!isfinite(distance)) {
    /* a target beyond 1e154: the squares overflowed (dx too, across the
    ** whole double range), and dx / inf = 0 pointed the chain along x */
    if (!isfinite(dx) || !isfinite(dy)) {
      dx = 0.5 * work->target_x - 0.5 * chain->base_x;
      dy = 0.5 * work->target_y - 0.5 * chain->base_y;
    }
    distance = fmax(fabs(dx), fabs(dy));
    dx /= distance;
    dy /= distance;
    distance = sqrt(dx * dx + dy * dy);
  }
  dx /= distance;
  dy /= distance;
  /* first bone: world direction to the target, less the base rotation */
  work->rot_cos[0] = dx * work->base_cos + dy * work->base_sin;
  work->rot_sin[0] = dy * work->base_cos - dx * work->base_sin;
  for (i = 1; i < work->count; i++) {
    work->rot_cos[i] = 1.0;
    work->rot_sin[i] = 0.0;
  }
  for (i = 0; i < work->count; i++) {
    if (ik2d_work_clamp(work, i)) {
      /* a limit forbids the straight pose: leave it to the iterations */
      int k;
      for (k = 0; k < work->count; k++) {
        work->rot_cos[k] = saved_cos[k];
        work->rot_sin[k] = saved_sin[k];
      }
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------ */
/* solve                                                                */
/* ------------------------------------------------------------------ */

static void solve_prepare(ik2d_work *work, const ik2d_solver *solver) {
  const ik2d_chain *chain = solver->chain;
  int warm = solver->warm_start && solver->have_solution;
  int i;
  work->chain = chain;
  work->count = chain->count;
  work->target_x = chain->flip ? 2.0 * chain->base_x - solver->target_x
                               : solver->target_x;
  work->target_y = solver->target_y;
  work->tolerance_sq = solver->tolerance * solver->tolerance;
  work->damping_cos = solver->damping_cos;
  work->damping_sin = solver->damping_sin;
  work->scale = 1.0;
  work->fresh = 0;
  work->joint_updates = 0;
  work->base_cos = chain->base_cos;
  work->base_sin = chain->base_sin;
  for (i = 0; i < chain->count; i++) {
    const ik2d_constraint *limit = chain->constraint[i];
    if (warm) {
      work->rot_cos[i] = solver->solution_cos[i];
      work->rot_sin[i] = solver->solution_sin[i];
    } else {
      work->rot_cos[i] = cos(chain->pose[i]);
      work->rot_sin[i] = sin(chain->pose[i]);
    }
    if (limit != NULL && !limit->full) {
      /* rest rotation times the range's middle: no trig per solve */
      work->limit_mid_cos[i] = chain->rest_cos[i] * limit->mid_cos -
                               chain->rest_sin[i] * limit->mid_sin;
      work->limit_mid_sin[i] = chain->rest_cos[i] * limit->mid_sin +
                               chain->rest_sin[i] * limit->mid_cos;
      ik2d_work_clamp(work, i);
    }
  }
}

/* atan(t) for |t| <= 1/8: the series to t^19, whose next term is below
** 1e-20.  About a tenth of the instructions of libm's atan2. */
static double solve_atan_small(double t) {
  double t2 = t * t;
  return t * (1.0 + t2 * (-1.0 / 3 + t2 * (1.0 / 5 + t2 * (-1.0 / 7 +
         t2 * (1.0 / 9 + t2 * (-1.0 / 11 + t2 * (1.0 / 13 + t2 * (-1.0 / 15 +
         t2 * (1.0 / 17 + t2 * (-1.0 / 19))))))))));
}

/* atan(k / 8), k = 0..8, rounded to nearest */
static const double solve_atan_eighths[9] = {
  0.0, 0.12435499454676144, 0.24497866312686414, 0.35877067027057225,
  0.4636476090008061, 0.5585993153435624, 0.6435011087932844,
  0.7188299996216245, 0.7853981633974483
};

/* atan2 at a fifth of libm's instructions (see ik2d_internal.h): the
** octant by symmetry, then atan(t) = atan(k/8) + atan(u) with
** u = (t - k/8) / (1 + t k/8), 0 <= u < 1/8, by the series above.  pi/2
** and pi are added as two parts each so that their rounding does not
** count.  Zeros, infinities and NaN go to libm. */
double ik2d_atan2(double y, double x) {
  const double half_pi_hi = 1.5707963267948966, half_pi_lo = 6.123233995736766e-17;
  const double pi_hi = 3.141592653589793, pi_lo = 1.2246467991473532e-16;
  double ax = fabs(x), ay = fabs(y), t, c, angle;
  int k, steep;
  if (!(ax > 0.0 && ay > 0.0 && ax <= DBL_MAX && ay <= DBL_MAX)) return atan2(y, x);
  steep = ay > ax;
  t = steep ? ax / ay : ay / ax;
  k = (int)(8.0 * t); /* rounded down: both parts >= 0, nothing cancels */
  c = 0.125 * k;
  angle = solve_atan_eighths[k] + solve_atan_small((t - c) / (1.0 + t * c));
  if (steep) angle = (half_pi_hi - angle) + half_pi_lo;
  if (x < 0.0) angle = (pi_hi - angle) + pi_lo;
  return y < 0.0 ? -angle : angle;
}

/* The angle of each bone's IK rotation, into solver->solution_angle.  A
** solve that started from the previous solution usually turned each bone
** a little: its angle is then the previous angle plus the small turn,
** without atan2.  start_* are the rotations the solve started from. */
static void solve_angles(ik2d_solver *solver, const ik2d_work *work,
                         const double *start_cos, const double *start_sin,
                         int warm) {
  int i;
  for (i = 0; i < work->count; i++) {
    double c = work->rot_cos[i], s = work->rot_sin[i];
    if (warm && start_cos[i] == solver->solution_cos[i] &&
        start_sin[i] == solver->solution_sin[i]) {
      /* the turn since the start: rotation times the start's inverse */
      double turn_cos = c * start_cos[i] + s * start_sin[i];
      double turn_sin = s * start_cos[i] - c * start_sin[i];
      if (turn_cos > 0.0 && fabs(turn_sin) <= 0.125 * turn_cos) {
        solver->solution_angle[i] = ik2d_wrap(
            solver->solution_angle[i] + solve_atan_small(turn_sin / turn_cos));
        continue;
      }
    }
    solver->solution_angle[i] = ik2d_atan2(s, c);
  }
}

/* result = pose + weight * delta, where delta runs inside the limits */
static void solve_blend(ik2d_chain *chain, const ik2d_solver *solver,
                        double weight) {
  int i;
  for (i = 0; i < chain->count; i++) {
    const ik2d_constraint *limit = chain->constraint[i];
    double ik = solver->solution_angle[i];
    double pose = chain->pose[i];
    double delta;
    if (limit != NULL && !limit->full) {
      double rest = chain->rest[i];
      double ik_rel = ik2d_constraint_clamp(limit, ik - rest);
      double pose_rel = limit->mid + ik2d_wrap(pose - rest - limit->mid);
      delta = ik_rel - pose_rel;
    } else {
      delta = ik2d_wrap(ik - pose);
    }
    chain->angle[i] = weight == 1.0 ? pose + delta : pose + weight * delta;
  }
}

static void solve_copy_joints(ik2d_chain *chain, ik2d_work *work) {
  int i;
  if (!work->fresh) ik2d_work_forward(work);
  for (i = 0; i <= chain->count; i++) {
    chain->joint_x[i] = chain->flip ? 2.0 * chain->base_x - work->joint_x[i]
                                    : work->joint_x[i];
    chain->joint_y[i] = work->joint_y[i];
  }
}

/* A method that meets numbers doubles cannot hold (dot products of
** 1e200 vectors overflow, of 1e-160 ones underflow into denormals) can
** leave rotations that are NaN, zero or not quite unit: a NaN pose, or
** bones that shrink, kept as warm start for every later solve.  Such a
** run is dropped and the start (pose or warm start, within limits) kept
** instead.  Rotations merely off unit length are put back on it: a turn
** leaves a rotation a few ulps off, and forward passes do not renormalise,
** so this is where it happens once the length is off by more than 1e-14
** (for a unit-scale chain, a few solves of drift; a rotation built from
** denormal dot products can be off by 1e-4).  The threshold is that low
** because the rotations' errors compound along the chain into the world
** directions the joints come from. */
static int solve_sane(ik2d_work *work) {
  int i;
  for (i = 0; i < work->count; i++) {
    double c = work->rot_cos[i], s = work->rot_sin[i];
    double norm = c * c + s * s;
    if (!(norm > 0.25 && norm < 4.0)) return 0; /* NaN fails too */
    if (fabs(norm - 1.0) > 1e-14) {
      norm = sqrt(norm);
      work->fresh = 0;
      work->rot_cos[i] = c / norm;
      work->rot_sin[i] = s / norm;
    }
    /* the limits once more, on the unit rotation: the methods' tests saw
    ** rotations up to 1e-8 long (denormal norms) and let a joint 1e-8 rad
    ** outside through (the blend clamps the angle, but the joints come
    ** from these rotations); a no-op for a rotation inside */
    if (ik2d_work_clamp(work, i)) work->fresh = 0;
  }
  return 1;
}


int ik2d_solve_start(ik2d_solver *solver, ik2d_work *work,
                     double *start_cos, double *start_sin) {
  if (!(solver->weight > 0.0)) return 0;
  solve_prepare(work, solver);
  ik2d_work_save(work, start_cos, start_sin);
  return 1;
}

int ik2d_solve_finish(ik2d_solver *solver, ik2d_work *work,
                      const double *start_cos, const double *start_sin,
                      int used) {
  ik2d_chain *chain = solver->chain;
  double dx, dy, squared;
  int i;
  if (solver->weight > 0.0) {
    solver->joint_updates = work->joint_updates;
    if (!solve_sane(work)) {
      /* a broken run is dropped: the start, unstretched */
      ik2d_work_load(work, start_cos, start_sin);
      work->scale = 1.0;
    }
    solve_angles(solver, work, start_cos, start_sin,
                 solver->warm_start && solver->have_solution);
    for (i = 0; i < chain->count; i++) {
      solver->solution_cos[i] = work->rot_cos[i];
      solver->solution_sin[i] = work->rot_sin[i];
    }
    solver->have_solution = 1;
    solve_blend(chain, solver, solver->weight);
    /* the stretch blends as the angles do */
    chain->scale = solver->weight == 1.0 ? work->scale
                                         : 1.0 + solver->weight * (work->scale - 1.0);
    if (solver->weight == 1.0 && chain->scale == 1.0) {
      /* the result is the IK solution: its joints need no trig */
      solve_copy_joints(chain, work);
    } else {
      ik2d_chain_update_joints(chain);
    }
  } else {
    /* weight 0: the pose exactly, and no solving work */
    for (i = 0; i < chain->count; i++) chain->angle[i] = chain->pose[i];
    chain->scale = 1.0;
    solver->joint_updates = 0;
    ik2d_chain_update_joints(chain);
  }
  dx = solver->target_x - chain->joint_x[chain->count];
  dy = solver->target_y - chain->joint_y[chain->count];
  /* hypot only where the squares overflow or underflow (a tip 1e155
  ** away): it costs several times a sqrt */
  squared = dx * dx + dy * dy;
  solver->distance = squared < 1e300 && squared > 1e-300 ? sqrt(squared)
                                                         : hypot(dx, dy);
  solver->reached = solver->distance <= solver->tolerance;
  solver->used_iterations = used;
  return solver->reached;
}

int ik2d_solver_solve(ik2d_solver *solver) {
  ik2d_work work;
  double start_cos[IK2D_MAX_BONES], start_sin[IK2D_MAX_BONES];
  int used = 0;
  if (!ik2d_solver_live(solver)) return 0;
  if (ik2d_solve_start(solver, &work, start_cos, start_sin)) {
    switch (solver->method) {
      case IK2D_FABRIK: used = ik2d_fabrik_run(&work, solver); break;
      case IK2D_TWO_BONE: used = ik2d_two_bone_run(&work, solver); break;
      default: used = ik2d_ccd_run(&work, solver); break;
    }
  }
  return ik2d_solve_finish(solver, &work, start_cos, start_sin, used);
}
