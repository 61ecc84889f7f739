/*
** ik2d_ccd.c: cyclic coordinate descent, with an exact two-joint step.
**
** A sweep turns each joint in turn so that joint->tip points at
** joint->target.  By default it runs root to tip (measured in
** bench/quality.c: it converges in fewer iterations than tip to root from
** cold starts, the same when tracking); the sweep keeps the joint
** positions of one forward pass and moves just the tip and, root to tip,
** the next joint: O(n) per sweep.  Rotations are unit complex numbers
** built from dot and cross products: one sqrt per joint update, no trig.
**
** Each iteration first tries the exact two-joint step of ik2d_pose.c;
** when no pair of joints can reach the target, the iteration is a sweep.
** Tracking a moving target then needs one step a frame that moves only
** as much as it must; sweeps bring far targets within a pair's reach.
**
** A run that ends short of the target finishes with the limited pair
** step (ik2d_pose.c): the nearest pose a pair's limits allow, which
** sweeps stall before when the target lies inside a limited elbow.
**
** Every update only ever lowers the distance (a CCD turn is the best
** turn of its joint inside its limits; the exact step is kept only when
** it gains), and a final check returns the start if rounding made the
** end worse: a solve never ends farther from the target than it began.
**
** A solve is a small state machine (ccd_run_state), so that a batch can
** run several chains an iteration at a time and sweep them together,
** their joint updates interleaved (ik2d_ccd_run_together): each chain
** runs exactly the operations it would run alone.
*/
#include <math.h>
#include <stddef.h>

#include "ik2d_ccd.h"
#include "ik2d_numbers.h"
#include "ik2d_pose.h"


/* ------------------------------------------------------------------ */
/* sweeps                                                               */
/* ------------------------------------------------------------------ */

/* What a turn reads besides the bone: copied out of the pose into
** locals, so that the compiler keeps them in registers across the stores
** to the rotations (which may alias any double). */
typedef struct ccd_turn_inputs {
  double target_x, target_y, tolerance_sq;
  ik2d_rot damping;
} ccd_turn_inputs;

static inline ccd_turn_inputs ccd_turn_inputs_of(const ik2d_pose *pose) {
  ccd_turn_inputs in;
  in.target_x = pose->target_x;
  in.target_y = pose->target_y;
  in.tolerance_sq = pose->tolerance_sq;
  in.damping = pose->damping;
  return in;
}

/* Turns joint i, at (jx, jy), toward the target (damping and limits
** applied), moves the tip with it and returns the tip's squared distance
** to the target.  Inline: it is the inner loop, and inlined the tip stays
** in registers. */
IK2D_INLINE double ccd_turn(ik2d_pose *pose, const ccd_turn_inputs *in, int i,
                            double jx, double jy, double *tip_x,
                            double *tip_y) {
  double to_tip_x = *tip_x - jx, to_tip_y = *tip_y - jy;
  double to_target_x = in->target_x - jx, to_target_y = in->target_y - jy;
  double dot = to_tip_x * to_target_x + to_tip_y * to_target_y;
  double cross = to_tip_x * to_target_y - to_tip_y * to_target_x;
  double norm = sqrt(dot * dot + cross * cross);
  double dx, dy;
  /* the squares underflow into denormals (or overflow) far from unit
  ** scale, and a norm from them would give a turn off unit length */
  if (!(norm > IK2D_TURN_NORM_MIN && norm < IK2D_TURN_NORM_MAX)) norm = ik2d_hypot(dot, cross);
  if (norm > 0.0) {
    ik2d_rot turn = ik2d_rot_of(dot / norm, cross / norm), old = pose->rot[i];
    if (turn.c < in->damping.c)
      turn = ik2d_rot_of(in->damping.c, turn.s < 0.0 ? -in->damping.s : in->damping.s);
    pose->rot[i] = ik2d_rot_mul(old, turn);
    /* the turn actually made: the clamped rotation from the old one */
    if (ik2d_pose_clamp(pose, i)) turn = ik2d_rot_inv_mul(old, pose->rot[i]);
    *tip_x = jx + turn.c * to_tip_x - turn.s * to_tip_y;
    *tip_y = jy + turn.s * to_tip_x + turn.c * to_tip_y;
    /* a world-space limit below turned with this joint: back into its
    ** limit, and the tip where the chain now ends */
    if (pose->world_limits > i + 1 && ik2d_pose_settle_world(pose, i + 1)) {
      ik2d_pose_forward(pose);
      *tip_x = pose->joint_x[pose->count];
      *tip_y = pose->joint_y[pose->count];
    }
  }
  dx = in->target_x - *tip_x;
  dy = in->target_y - *tip_y;
  return dx * dx + dy * dy;
}

/* Root to tip.  Turning joint i moves every later joint, so the next
** joint is rebuilt from joint i, the bone length and the bone's world
** direction, kept as a running product. */
IK2D_INLINE void ccd_next_joint(ik2d_pose *pose, int i, ik2d_rot *world) {
  double length = pose->chain->length[i];
  *world = ik2d_rot_mul(*world, pose->rot[i]);
  pose->joint_x[i + 1] = pose->joint_x[i] + length * world->c;
  pose->joint_y[i + 1] = pose->joint_y[i] + length * world->s;
}

/* One chain's sweep, root to tip or tip to root (textbook CCD: turning
** joint i moves only the joints after it, so only the tip needs moving).
** It stops early within tolerance. */
typedef struct ccd_sweeper {
  ik2d_pose *pose;
  ccd_turn_inputs in;
  double tip_x, tip_y, distance_sq;
  ik2d_rot world;
  int step;          /* the next step; pose->count once the sweep is over */
} ccd_sweeper;

/* distance_sq is set by the first step (a chain has a bone at least). */
IK2D_INLINE void ccd_sweeper_start(ccd_sweeper *l, ik2d_pose *pose) {
  l->pose = pose;
  l->in = ccd_turn_inputs_of(pose);
  l->tip_x = pose->joint_x[pose->count];
  l->tip_y = pose->joint_y[pose->count];
  l->world = pose->base;
  l->step = 0;
}

/* Turns the sweep's next joint; returns 1 when that ended the sweep. */
IK2D_INLINE int ccd_sweeper_step(ccd_sweeper *l, ik2d_sweep sweep) {
  ik2d_pose *pose = l->pose;
  int n = pose->count;
  int i = sweep == IK2D_SWEEP_TIP ? n - 1 - l->step : l->step;
  l->distance_sq = ccd_turn(pose, &l->in, i, pose->joint_x[i],
                            pose->joint_y[i], &l->tip_x, &l->tip_y);
  l->step++;
  if (l->distance_sq <= l->in.tolerance_sq) {
    IK2D_STAT(pose->joint_updates += l->step);
    l->step = n;
    return 1;
  }
  if (sweep == IK2D_SWEEP_ROOT) ccd_next_joint(pose, i, &l->world);
  if (l->step < n) return 0;
  IK2D_STAT(pose->joint_updates += n);
  return 1;
}

/* A sweep of one chain; returns the squared tip distance. */
IK2D_INLINE double ccd_sweep(ik2d_pose *pose, ik2d_sweep sweep) {
  ccd_sweeper l;
  ccd_sweeper_start(&l, pose);
  while (!ccd_sweeper_step(&l, sweep)) continue;
  return l.distance_sq;
}

/* The same sweep on several chains at once, a joint of each in turn:
** their turns do not depend on each other, so the processor overlaps
** their sqrt and division latencies, which a single chain waits out.
** Each chain runs exactly the operations ccd_sweep would run on it. */
static void ccd_sweep_together(ik2d_pose *const *poses, double *distance_sq,
                               int count, ik2d_sweep sweep) {
  ccd_sweeper lane[IK2D_LOCKSTEP];
  int k, running = count;
  for (k = 0; k < count; k++) ccd_sweeper_start(&lane[k], poses[k]);
  while (running > 0) {
    for (k = 0; k < count; k++) {
      if (lane[k].step < lane[k].pose->count)
        running -= ccd_sweeper_step(&lane[k], sweep);
    }
  }
  for (k = 0; k < count; k++) distance_sq[k] = lane[k].distance_sq;
}

/* ------------------------------------------------------------------ */
/* the solve                                                            */
/* ------------------------------------------------------------------ */

/* One chain's solve as a state machine, so that ik2d_ccd_run_together
** can advance several chains an iteration at a time. */
typedef struct ccd_run_state {
  ik2d_pose *pose;
  int iteration, used, done;
  double distance_sq, start_sq, before_sq;
  ik2d_rot start[IK2D_MAX_BONES];
} ccd_run_state;

IK2D_INLINE void ccd_run_begin(ccd_run_state *run, ik2d_pose *pose) {
  run->pose = pose;
  run->done = 1;
  run->used = 0;
  ik2d_pose_forward(pose);
  run->distance_sq = ik2d_pose_tip_distance_sq(pose);
  pose->fresh = true;
  if (run->distance_sq <= pose->tolerance_sq) return;
  pose->fresh = false;
  /* out of reach: the straight pose is the answer, in one step */
  run->used = 1;
  if (ik2d_pose_straighten(pose)) return;
  run->done = 0;
  run->iteration = 1;
  run->used = pose->iterations;
  run->start_sq = run->distance_sq;
  ik2d_pose_save(pose, run->start);
}

IK2D_INLINE void ccd_run_end(ccd_run_state *run) {
  ik2d_pose *pose = run->pose;
  run->done = 1;
  /* short of the target: a limit may forbid what sweeps and the exact
  ** step look for (the pose they stall in need not be the nearest) */
  if (pose->settings->ccd.exact && run->distance_sq > pose->tolerance_sq)
    ik2d_pose_limited_step(pose, &run->distance_sq);
  /* keep best: every step gains, but rounding could lose a hair; and a
  ** run that gains nothing changes nothing (else a stalled pose flickers
  ** between two roundings from frame to frame, never settling) */
  if (run->distance_sq >= run->start_sq) {
    ik2d_pose_load(pose, run->start);
    ik2d_pose_forward(pose);
  }
  /* every way out of the loop ends with a forward pass */
  pose->fresh = true;
}

/* Within tolerance after iteration: done, no keep-best needed. */
IK2D_INLINE void ccd_run_reached(ccd_run_state *run) {
  run->done = 1;
  run->used = run->iteration;
}

/* After a step that did not reach: a stalled run or the last iteration
** ends the run; so does, with the exact step on, a run that crawls while
** still far (its iterations are better spent elsewhere: the solver's
** fallback). */
IK2D_INLINE void ccd_run_next(ccd_run_state *run) {
  double gain = run->before_sq - run->distance_sq;
  if (gain <= IK2D_CCD_STALL_GAIN * run->before_sq ||
      (run->pose->settings->ccd.exact && gain < IK2D_CCD_SLOW_GAIN * run->before_sq &&
       run->distance_sq > IK2D_CCD_FAR * run->pose->tolerance_sq)) {
    run->used = run->iteration;
    ccd_run_end(run);
  } else if (++run->iteration > run->pose->iterations) {
    ccd_run_end(run);
  }
}

/* An iteration is an exact step or, when none gains, a sweep: either way
** a joint turns at most once (and at most damping) per iteration.  Runs
** the exact step; returns 0 when the iteration must be a sweep instead. */
IK2D_INLINE int ccd_run_exact(ccd_run_state *run) {
  ik2d_pose *pose = run->pose;
  run->before_sq = run->distance_sq;
  if (!pose->settings->ccd.exact || !ik2d_pose_exact_step(pose, &run->distance_sq))
    return 0;
  if (run->distance_sq <= pose->tolerance_sq) {
    pose->fresh = true; /* the step ends with a forward pass */
    ccd_run_reached(run);
  } else {
    ccd_run_next(run);
  }
  return 1;
}

/* The iteration's sweep (in order sweep) ended distance_sq from the
** target. */
IK2D_INLINE void ccd_run_swept(ccd_run_state *run, double distance_sq, ik2d_sweep sweep) {
  run->distance_sq = distance_sq;
  if (distance_sq <= run->pose->tolerance_sq) {
    ccd_run_reached(run);
  } else {
    /* a whole root-to-tip sweep rebuilt every joint as it went
    ** (ccd_next_joint: the forward pass's products, in its order, from
    ** the same rotations): its forward pass would write the same bits */
    if (sweep == IK2D_SWEEP_TIP) ik2d_pose_forward(run->pose);
    run->distance_sq = ik2d_pose_tip_distance_sq(run->pose);
    ccd_run_next(run);
  }
}

void ik2d_ccd_run_together(ik2d_pose *const *poses, int *used, int count) {
  ccd_run_state runs[IK2D_LOCKSTEP];
  ccd_run_state *sweepers[IK2D_LOCKSTEP];
  ik2d_pose *sweeping_poses[IK2D_LOCKSTEP];
  double distance_sq[IK2D_LOCKSTEP];
  int k, running = 0;
  ik2d_sweep sweep;
  for (k = 0; k < count; k++) {
    ccd_run_begin(&runs[k], poses[k]);
    running += !runs[k].done;
  }
  while (running > 0) {
    /* an iteration of every running chain; those of one sweep order
    ** that need a sweep sweep together */
    for (sweep = IK2D_SWEEP_ROOT; sweep <= IK2D_SWEEP_TIP; sweep++) {
      int sweeping = 0;
      for (k = 0; k < count; k++) {
        if (runs[k].done || runs[k].pose->settings->ccd.sweep != sweep) continue;
        if (ccd_run_exact(&runs[k])) continue;
        sweepers[sweeping] = &runs[k];
        sweeping_poses[sweeping++] = runs[k].pose;
      }
      if (sweeping == 0) continue;
      ccd_sweep_together(sweeping_poses, distance_sq, sweeping, sweep);
      for (k = 0; k < sweeping; k++) ccd_run_swept(sweepers[k], distance_sq[k], sweep);
    }
    running = 0;
    for (k = 0; k < count; k++) running += !runs[k].done;
  }
  for (k = 0; k < count; k++) used[k] = runs[k].used;
}

int ik2d_ccd_run(ik2d_pose *pose) {
  ccd_run_state run;
  ccd_run_begin(&run, pose);
  while (!run.done) {
    if (ccd_run_exact(&run)) continue;
    if (pose->settings->ccd.sweep == IK2D_SWEEP_TIP)
      ccd_run_swept(&run, ccd_sweep(pose, IK2D_SWEEP_TIP), IK2D_SWEEP_TIP);
    else
      ccd_run_swept(&run, ccd_sweep(pose, IK2D_SWEEP_ROOT), IK2D_SWEEP_ROOT);
  }
  return run.used;
}
