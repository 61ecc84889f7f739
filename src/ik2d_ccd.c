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
** Each iteration first tries an exact two-joint step: with every other
** joint held, joints i < j and the tip form a triangle with fixed sides
** a = |J_j - J_i| and b = |tip - J_j|, so turning j then i puts the tip on
** the target exactly whenever |a - b| <= |target - J_i| <= a + b (law of
** cosines, again without trig).  The candidates are every adjacent pair,
** the root with every joint and every joint with the last: about 3n
** pairs, O(n).  The pair needing the least turning wins, on the bend side
** it has now (so no elbow flips), and only if both joints stay inside
** their limits (and damping).  When no pair can, the iteration is a
** sweep.  Tracking a moving target then needs one step a frame that moves
** only as much as it must; sweeps bring far targets within a pair's
** reach.
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

#include "ik2d.h"
#include "ik2d_internal.h"

/* A sweep that gains less than this fraction of the distance has
** stalled (limits or a local minimum): more sweeps would not help. */
#define CCD_STALL_GAIN 1e-9

/* The exact step skips a pair whose triangle is degenerate: the tip or
** the target closer to a joint than a tenth of the pair's first side.
** Its turns would be ill-defined there (a folded limb turning half round
** for a hair's motion of the target).  Squared. */
#define CCD_DEGENERATE 0.01

/* ------------------------------------------------------------------ */
/* sweeps                                                               */
/* ------------------------------------------------------------------ */

/* What a turn reads besides the bone: copied out of the work into
** locals, so that the compiler keeps them in registers across the stores
** to the rotations (which may alias any double). */
typedef struct ccd_aim {
  double target_x, target_y, tolerance_sq, damping_cos, damping_sin;
} ccd_aim;

static inline ccd_aim ccd_aim_of(const ik2d_work *work) {
  ccd_aim aim;
  aim.target_x = work->target_x;
  aim.target_y = work->target_y;
  aim.tolerance_sq = work->tolerance_sq;
  aim.damping_cos = work->damping_cos;
  aim.damping_sin = work->damping_sin;
  return aim;
}

/* Turns joint i, at (jx, jy), toward the target (damping and limits
** applied), moves the tip with it and returns the tip's squared distance
** to the target.  Inline: it is the inner loop, and inlined the tip stays
** in registers. */
IK2D_INLINE double ccd_turn(ik2d_work *work, const ccd_aim *aim, int i,
                            double jx, double jy, double *tip_x,
                            double *tip_y) {
  double to_tip_x = *tip_x - jx, to_tip_y = *tip_y - jy;
  double to_target_x = aim->target_x - jx, to_target_y = aim->target_y - jy;
  double dot = to_tip_x * to_target_x + to_tip_y * to_target_y;
  double cross = to_tip_x * to_target_y - to_tip_y * to_target_x;
  double norm = sqrt(dot * dot + cross * cross);
  double c, s, old_cos, old_sin, dx, dy;
  /* the squares underflow into denormals (or overflow) far from unit
  ** scale, and a norm from them would give a turn off unit length */
  if (!(norm > 1e-150 && norm < 1e150)) norm = hypot(dot, cross);
  if (norm > 0.0) {
    c = dot / norm;
    s = cross / norm;
    if (c < aim->damping_cos) {
      c = aim->damping_cos;
      s = s < 0.0 ? -aim->damping_sin : aim->damping_sin;
    }
    old_cos = work->rot_cos[i];
    old_sin = work->rot_sin[i];
    work->rot_cos[i] = old_cos * c - old_sin * s;
    work->rot_sin[i] = old_cos * s + old_sin * c;
    if (work->chain->constraint[i] != NULL && ik2d_work_clamp(work, i)) {
      /* the turn actually made: clamped rotation times the old inverse */
      c = work->rot_cos[i] * old_cos + work->rot_sin[i] * old_sin;
      s = work->rot_sin[i] * old_cos - work->rot_cos[i] * old_sin;
    }
    *tip_x = jx + c * to_tip_x - s * to_tip_y;
    *tip_y = jy + s * to_tip_x + c * to_tip_y;
  }
  dx = aim->target_x - *tip_x;
  dy = aim->target_y - *tip_y;
  return dx * dx + dy * dy;
}

/* Root to tip.  Turning joint i moves every later joint, so the next
** joint is rebuilt from joint i, the bone length and the bone's world
** direction, kept as a running product. */
IK2D_INLINE void ccd_next_joint(ik2d_work *work, int i, double *world_cos,
                                double *world_sin) {
  double c = work->rot_cos[i], s = work->rot_sin[i];
  double next_cos = *world_cos * c - *world_sin * s;
  double length = work->chain->length[i];
  *world_sin = *world_cos * s + *world_sin * c;
  *world_cos = next_cos;
  work->joint_x[i + 1] = work->joint_x[i] + length * *world_cos;
  work->joint_y[i + 1] = work->joint_y[i] + length * *world_sin;
}

/* One chain's sweep, root to tip or tip to root (textbook CCD: turning
** joint i moves only the joints after it, so only the tip needs moving).
** It stops early within tolerance. */
typedef struct ccd_sweeper {
  ik2d_work *work;
  ccd_aim aim;
  double tip_x, tip_y, world_cos, world_sin, distance_sq;
  int step;          /* the next step; work->count once the sweep is over */
} ccd_sweeper;

/* distance_sq is set by the first step (a chain has a bone at least). */
IK2D_INLINE void ccd_sweeper_start(ccd_sweeper *l, ik2d_work *work) {
  l->work = work;
  l->aim = ccd_aim_of(work);
  l->tip_x = work->joint_x[work->count];
  l->tip_y = work->joint_y[work->count];
  l->world_cos = work->base_cos;
  l->world_sin = work->base_sin;
  l->step = 0;
}

/* Turns the sweep's next joint; returns 1 when that ended the sweep. */
IK2D_INLINE int ccd_sweeper_step(ccd_sweeper *l, int sweep) {
  ik2d_work *work = l->work;
  int n = work->count;
  int i = sweep == IK2D_SWEEP_TIP ? n - 1 - l->step : l->step;
  l->distance_sq = ccd_turn(work, &l->aim, i, work->joint_x[i],
                            work->joint_y[i], &l->tip_x, &l->tip_y);
  l->step++;
  if (l->distance_sq <= l->aim.tolerance_sq) {
    work->joint_updates += l->step;
    l->step = n;
    return 1;
  }
  if (sweep == IK2D_SWEEP_ROOT)
    ccd_next_joint(work, i, &l->world_cos, &l->world_sin);
  if (l->step < n) return 0;
  work->joint_updates += n;
  return 1;
}

/* A sweep of one chain; returns the squared tip distance. */
IK2D_INLINE double ccd_sweep(ik2d_work *work, int sweep) {
  ccd_sweeper l;
  ccd_sweeper_start(&l, work);
  while (!ccd_sweeper_step(&l, sweep)) continue;
  return l.distance_sq;
}

/* The same sweep on several chains at once, a joint of each in turn:
** their turns do not depend on each other, so the processor overlaps
** their sqrt and division latencies, which a single chain waits out.
** Each chain runs exactly the operations ccd_sweep would run on it. */
static void ccd_sweep_together(ik2d_work *const *works, double *distance_sq,
                               int count, int sweep) {
  ccd_sweeper lane[IK2D_LOCKSTEP];
  int k, running = count;
  for (k = 0; k < count; k++) ccd_sweeper_start(&lane[k], works[k]);
  while (running > 0) {
    for (k = 0; k < count; k++) {
      if (lane[k].step < lane[k].work->count)
        running -= ccd_sweeper_step(&lane[k], sweep);
    }
  }
  for (k = 0; k < count; k++) distance_sq[k] = lane[k].distance_sq;
}

/* ------------------------------------------------------------------ */
/* the exact two-joint step                                             */
/* ------------------------------------------------------------------ */

typedef struct ccd_pair {
  int i, j;
  double cost;                  /* (1 - cos turn_i) + (1 - cos turn_j) */
  double i_cos, i_sin, j_cos, j_sin; /* new rotations of bones i and j */
} ccd_pair;

/* Is rotation (c, s) of bone i inside its limits?  Asks ik2d_work_clamp
** itself, so the exact step and the sweeps can never disagree. */
static int ccd_allowed(ik2d_work *work, int i, double c, double s) {
  double old_cos = work->rot_cos[i], old_sin = work->rot_sin[i];
  int moved;
  if (work->chain->constraint[i] == NULL) return 1;
  work->rot_cos[i] = c;
  work->rot_sin[i] = s;
  moved = ik2d_work_clamp(work, i);
  work->rot_cos[i] = old_cos;
  work->rot_sin[i] = old_sin;
  return !moved;
}

/* The triangle of joints i < j, solved for one bend side: the sides, the
** target from joint i, and the angle at j now and wanted (want_sin >= 0,
** its sign given by the side). */
typedef struct ccd_triangle {
  int i, j;
  double ux, uy, vx, vy, wx, wy;
  double now_cos, now_sin, want_cos, want_sin;
} ccd_triangle;

/* Keeps the pair in best when the side (+1 or -1) is cheaper than what
** best holds; returns 1 when a limit forbids the side. */
static int ccd_pair_side(ik2d_work *work, const ccd_triangle *t, double side,
                         ccd_pair *best) {
  double want_sin = side * t->want_sin;
  double j_cos = t->want_cos * t->now_cos + want_sin * t->now_sin;
  double j_sin = want_sin * t->now_cos - t->want_cos * t->now_sin;
  double px, py, dot, cross, norm, i_cos, i_sin, cost, c, s;
  int i = t->i, j = t->j;
  if (!(1.0 - j_cos < best->cost) || j_cos < work->damping_cos) return 0;
  /* the tip after turning j, from joint i; then turn i onto the target */
  px = t->ux + j_cos * t->vx - j_sin * t->vy;
  py = t->uy + j_sin * t->vx + j_cos * t->vy;
  dot = px * t->wx + py * t->wy;
  cross = px * t->wy - py * t->wx;
  norm = sqrt(dot * dot + cross * cross);
  if (!(norm > 0.0)) return 0;
  i_cos = dot / norm;
  i_sin = cross / norm;
  cost = (1.0 - j_cos) + (1.0 - i_cos);
  if (!(cost < best->cost) || i_cos < work->damping_cos) return 0;
  c = work->rot_cos[i] * i_cos - work->rot_sin[i] * i_sin;
  s = work->rot_cos[i] * i_sin + work->rot_sin[i] * i_cos;
  if (!ccd_allowed(work, i, c, s)) return 1;
  i_cos = c;
  i_sin = s;
  c = work->rot_cos[j] * j_cos - work->rot_sin[j] * j_sin;
  s = work->rot_cos[j] * j_sin + work->rot_sin[j] * j_cos;
  if (!ccd_allowed(work, j, c, s)) return 1;
  best->i_cos = i_cos;
  best->i_sin = i_sin;
  best->j_cos = c;
  best->j_sin = s;
  best->i = i;
  best->j = j;
  best->cost = cost;
  return 0;
}

/* Solves the triangle of joints i < j and keeps it in best when it is
** cheaper than what best holds.  It keeps the bend side the pair has now
** (no elbow flips), unless a limit forbids that side: then the other side
** is tried, which is how a chain starting straight against a one-sided
** limit (an elbow that bends one way only) gets out of CCD's dead end. */
static void ccd_pair_try(ik2d_work *work, int i, int j, ccd_pair *best) {
  const double *x = work->joint_x, *y = work->joint_y;
  int n = work->count;
  ccd_triangle t;
  double a2, b2, d2, gap, ab, side;
  t.i = i;
  t.j = j;
  t.ux = x[j] - x[i];                                     /* side a */
  t.uy = y[j] - y[i];
  t.vx = x[n] - x[j];                                     /* side b */
  t.vy = y[n] - y[j];
  t.wx = work->target_x - x[i];
  t.wy = work->target_y - y[i];
  a2 = t.ux * t.ux + t.uy * t.uy;
  b2 = t.vx * t.vx + t.vy * t.vy;
  d2 = t.wx * t.wx + t.wy * t.wy;
  gap = d2 - a2 - b2;
  /* sides whose squares and products doubles hold exactly enough: the
  ** step is optional, and sweeps handle the extremes (NaN fails too) */
  if (!(a2 >= 1e-140 && a2 <= 1e140 && b2 >= 1e-140 && b2 <= 1e140 &&
        d2 >= 1e-140 && d2 <= 1e140))
    return;
  /* out of this pair's reach, or degenerate */
  if (gap * gap > 4.0 * a2 * b2) return;
  if (b2 < CCD_DEGENERATE * a2 || d2 < CCD_DEGENERATE * a2) return;
  /* the angle at joint j between side a and side b: now and wanted */
  ab = sqrt(a2 * b2);
  t.want_cos = gap / (2.0 * ab);
  t.want_sin = 1.0 - t.want_cos * t.want_cos;
  t.want_sin = t.want_sin > 0.0 ? sqrt(t.want_sin) : 0.0;
  t.now_cos = (t.ux * t.vx + t.uy * t.vy) / ab;
  t.now_sin = (t.ux * t.vy - t.uy * t.vx) / ab;
  side = t.now_sin < 0.0 ? -1.0 : 1.0; /* keep the bend side */
  if (ccd_pair_side(work, &t, side, best) && t.want_sin > 0.0)
    ccd_pair_side(work, &t, -side, best);
}

/* Needs the joints of a forward pass and *distance_sq their tip's
** distance.  Applies the best pair when it gains; then the joints are
** those of the new pose.  Returns 1 if it applied one.  FABRIK uses it
** too, as a finishing step. */
int ik2d_work_exact_step(ik2d_work *work, double *distance_sq) {
  int n = work->count, k;
  ccd_pair best;
  double old_i_cos, old_i_sin, old_j_cos, old_j_sin, after_sq;
  if (n < 2) return 0;
  best.i = -1;
  best.cost = 5.0; /* above any real cost (at most 4) */
  for (k = 0; k + 1 < n; k++) ccd_pair_try(work, k, k + 1, &best);
  for (k = 2; k < n; k++) ccd_pair_try(work, 0, k, &best);
  for (k = 1; k + 2 < n; k++) ccd_pair_try(work, k, n - 1, &best);
  if (best.i < 0) return 0;
  old_i_cos = work->rot_cos[best.i];
  old_i_sin = work->rot_sin[best.i];
  old_j_cos = work->rot_cos[best.j];
  old_j_sin = work->rot_sin[best.j];
  work->rot_cos[best.i] = best.i_cos;
  work->rot_sin[best.i] = best.i_sin;
  work->rot_cos[best.j] = best.j_cos;
  work->rot_sin[best.j] = best.j_sin;
  ik2d_work_forward(work);
  after_sq = ik2d_work_tip_distance_sq(work);
  if (after_sq < *distance_sq) {
    *distance_sq = after_sq;
    return 1;
  }
  /* no gain (the tip already sat on the target up to rounding) */
  work->rot_cos[best.i] = old_i_cos;
  work->rot_sin[best.i] = old_i_sin;
  work->rot_cos[best.j] = old_j_cos;
  work->rot_sin[best.j] = old_j_sin;
  ik2d_work_forward(work);
  return 0;
}

/* ------------------------------------------------------------------ */
/* the solve                                                            */
/* ------------------------------------------------------------------ */

/* One chain's solve as a state machine, so that ik2d_ccd_run_together
** can advance several chains an iteration at a time. */
typedef struct ccd_run_state {
  ik2d_work *work;
  const ik2d_solver *solver;
  int iteration, used, done;
  double distance_sq, start_sq, before_sq;
  double start_cos[IK2D_MAX_BONES], start_sin[IK2D_MAX_BONES];
} ccd_run_state;

static void ccd_run_begin(ccd_run_state *run, ik2d_work *work,
                          const ik2d_solver *solver) {
  run->work = work;
  run->solver = solver;
  run->done = 1;
  run->used = 0;
  ik2d_work_forward(work);
  run->distance_sq = ik2d_work_tip_distance_sq(work);
  work->fresh = 1;
  if (run->distance_sq <= work->tolerance_sq) return;
  work->fresh = 0;
  /* out of reach: the straight pose is the answer, in one step */
  run->used = 1;
  if (ik2d_work_straighten(work)) return;
  run->done = 0;
  run->iteration = 1;
  run->used = solver->iterations;
  run->start_sq = run->distance_sq;
  ik2d_work_save(work, run->start_cos, run->start_sin);
}

IK2D_INLINE void ccd_run_end(ccd_run_state *run) {
  ik2d_work *work = run->work;
  run->done = 1;
  /* keep best: every step gains, but rounding could lose a hair; and a
  ** run that gains nothing changes nothing (else a stalled pose flickers
  ** between two roundings from frame to frame, never settling) */
  if (run->distance_sq >= run->start_sq) {
    ik2d_work_load(work, run->start_cos, run->start_sin);
    ik2d_work_forward(work);
  }
  /* every way out of the loop ends with a forward pass */
  work->fresh = 1;
}

/* Within tolerance after iteration: done, no keep-best needed. */
IK2D_INLINE void ccd_run_reached(ccd_run_state *run) {
  run->done = 1;
  run->used = run->iteration;
}

/* After a step that did not reach: a stalled run or the last iteration
** ends the run. */
IK2D_INLINE void ccd_run_next(ccd_run_state *run) {
  if (run->before_sq - run->distance_sq <= CCD_STALL_GAIN * run->before_sq) {
    run->used = run->iteration;
    ccd_run_end(run);
  } else if (++run->iteration > run->solver->iterations) {
    ccd_run_end(run);
  }
}

/* An iteration is an exact step or, when none gains, a sweep: either way
** a joint turns at most once (and at most damping) per iteration.  Runs
** the exact step; returns 0 when the iteration must be a sweep instead. */
IK2D_INLINE int ccd_run_exact(ccd_run_state *run) {
  run->before_sq = run->distance_sq;
  if (!run->solver->exact ||
      !ik2d_work_exact_step(run->work, &run->distance_sq))
    return 0;
  if (run->distance_sq <= run->work->tolerance_sq) {
    run->work->fresh = 1; /* the step ends with a forward pass */
    ccd_run_reached(run);
  } else {
    ccd_run_next(run);
  }
  return 1;
}

/* The iteration's sweep ended distance_sq from the target. */
IK2D_INLINE void ccd_run_swept(ccd_run_state *run, double distance_sq) {
  run->distance_sq = distance_sq;
  if (distance_sq <= run->work->tolerance_sq) {
    ccd_run_reached(run);
  } else {
    ik2d_work_forward(run->work);
    run->distance_sq = ik2d_work_tip_distance_sq(run->work);
    ccd_run_next(run);
  }
}

void ik2d_ccd_run_together(ik2d_work *const *works,
                           const ik2d_solver *const *solvers, int *used,
                           int count) {
  ccd_run_state runs[IK2D_LOCKSTEP];
  ccd_run_state *sweepers[IK2D_LOCKSTEP];
  ik2d_work *sweeping_works[IK2D_LOCKSTEP];
  double distance_sq[IK2D_LOCKSTEP];
  int k, running = 0, sweep;
  for (k = 0; k < count; k++) {
    ccd_run_begin(&runs[k], works[k], solvers[k]);
    running += !runs[k].done;
  }
  while (running > 0) {
    /* an iteration of every running chain; those of one sweep order
    ** that need a sweep sweep together */
    for (sweep = IK2D_SWEEP_ROOT; sweep <= IK2D_SWEEP_TIP; sweep++) {
      int sweeping = 0;
      for (k = 0; k < count; k++) {
        if (runs[k].done || runs[k].solver->sweep != sweep) continue;
        if (ccd_run_exact(&runs[k])) continue;
        sweepers[sweeping] = &runs[k];
        sweeping_works[sweeping++] = runs[k].work;
      }
      if (sweeping == 0) continue;
      ccd_sweep_together(sweeping_works, distance_sq, sweeping, sweep);
      for (k = 0; k < sweeping; k++) ccd_run_swept(sweepers[k], distance_sq[k]);
    }
    running = 0;
    for (k = 0; k < count; k++) running += !runs[k].done;
  }
  for (k = 0; k < count; k++) used[k] = runs[k].used;
}

int ik2d_ccd_run(ik2d_work *work, const ik2d_solver *solver) {
  ccd_run_state run;
  ccd_run_begin(&run, work, solver);
  while (!run.done) {
    if (ccd_run_exact(&run)) continue;
    ccd_run_swept(&run, solver->sweep == IK2D_SWEEP_TIP
                            ? ccd_sweep(work, IK2D_SWEEP_TIP)
                            : ccd_sweep(work, IK2D_SWEEP_ROOT));
  }
  return run.used;
}
