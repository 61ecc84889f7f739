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

/* Turns joint i, at (jx, jy), toward the target (damping and limits
** applied) and moves the tip with it.  Inline: it is the inner loop, and
** inlined the tip stays in registers. */
static inline void ccd_turn(ik2d_work *work, const ik2d_solver *solver, int i,
                     double jx, double jy, double *tip_x, double *tip_y) {
  double to_tip_x = *tip_x - jx, to_tip_y = *tip_y - jy;
  double to_target_x = work->target_x - jx, to_target_y = work->target_y - jy;
  double dot = to_tip_x * to_target_x + to_tip_y * to_target_y;
  double cross = to_tip_x * to_target_y - to_tip_y * to_target_x;
  double norm = sqrt(dot * dot + cross * cross);
  double c, s, old_cos, old_sin;
  /* the squares underflow into denormals (or overflow) far from unit
  ** scale, and a norm from them would give a turn off unit length */
  if (!(norm > 1e-150 && norm < 1e150)) norm = hypot(dot, cross);
  if (!(norm > 0.0)) return;
  c = dot / norm;
  s = cross / norm;
  if (c < solver->damping_cos) {
    c = solver->damping_cos;
    s = s < 0.0 ? -solver->damping_sin : solver->damping_sin;
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

static double ccd_tip_distance_sq(const ik2d_work *work, double tip_x,
                                  double tip_y) {
  double dx = work->target_x - tip_x, dy = work->target_y - tip_y;
  return dx * dx + dy * dy;
}

/* Root to tip.  Turning joint i moves every later joint, so the next
** joint is rebuilt from joint i, the bone length and the bone's world
** direction, kept as a running product.  Stops early within tolerance;
** returns the squared tip distance. */
static double ccd_sweep_root(ik2d_work *work, const ik2d_solver *solver) {
  const ik2d_chain *chain = work->chain;
  double tip_x = work->joint_x[work->count];
  double tip_y = work->joint_y[work->count];
  double world_cos = work->base_cos, world_sin = work->base_sin;
  double distance_sq = ccd_tip_distance_sq(work, tip_x, tip_y);
  int i;
  for (i = 0; i < work->count; i++) {
    double jx = work->joint_x[i], jy = work->joint_y[i], next_cos;
    ccd_turn(work, solver, i, jx, jy, &tip_x, &tip_y);
    work->joint_updates++;
    distance_sq = ccd_tip_distance_sq(work, tip_x, tip_y);
    if (distance_sq <= work->tolerance_sq) break;
    next_cos = world_cos * work->rot_cos[i] - world_sin * work->rot_sin[i];
    world_sin = world_cos * work->rot_sin[i] + world_sin * work->rot_cos[i];
    world_cos = next_cos;
    work->joint_x[i + 1] = jx + chain->length[i] * world_cos;
    work->joint_y[i + 1] = jy + chain->length[i] * world_sin;
  }
  return distance_sq;
}

/* Tip to root (textbook CCD): turning joint i moves only the joints after
** it, so only the tip needs moving. */
static double ccd_sweep_tip(ik2d_work *work, const ik2d_solver *solver) {
  double tip_x = work->joint_x[work->count];
  double tip_y = work->joint_y[work->count];
  double distance_sq = ccd_tip_distance_sq(work, tip_x, tip_y);
  int i;
  for (i = work->count - 1; i >= 0; i--) {
    work->joint_updates++;
    ccd_turn(work, solver, i, work->joint_x[i], work->joint_y[i], &tip_x,
             &tip_y);
    distance_sq = ccd_tip_distance_sq(work, tip_x, tip_y);
    if (distance_sq <= work->tolerance_sq) break;
  }
  return distance_sq;
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
static int ccd_pair_side(ik2d_work *work, const ik2d_solver *solver,
                         const ccd_triangle *t, double side, ccd_pair *best) {
  double want_sin = side * t->want_sin;
  double j_cos = t->want_cos * t->now_cos + want_sin * t->now_sin;
  double j_sin = want_sin * t->now_cos - t->want_cos * t->now_sin;
  double px, py, dot, cross, norm, i_cos, i_sin, cost, c, s;
  int i = t->i, j = t->j;
  if (!(1.0 - j_cos < best->cost) || j_cos < solver->damping_cos) return 0;
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
  if (!(cost < best->cost) || i_cos < solver->damping_cos) return 0;
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
static void ccd_pair_try(ik2d_work *work, const ik2d_solver *solver,
                         int i, int j, ccd_pair *best) {
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
  if (ccd_pair_side(work, solver, &t, side, best) && t.want_sin > 0.0)
    ccd_pair_side(work, solver, &t, -side, best);
}

/* Needs the joints of a forward pass and *distance_sq their tip's
** distance.  Applies the best pair when it gains; then the joints are
** those of the new pose.  Returns 1 if it applied one.  FABRIK uses it
** too, as a finishing step. */
int ik2d_work_exact_step(ik2d_work *work, const ik2d_solver *solver,
                         double *distance_sq) {
  int n = work->count, k;
  ccd_pair best;
  double old_i_cos, old_i_sin, old_j_cos, old_j_sin, after_sq;
  if (n < 2) return 0;
  best.i = -1;
  best.cost = 5.0; /* above any real cost (at most 4) */
  for (k = 0; k + 1 < n; k++) ccd_pair_try(work, solver, k, k + 1, &best);
  for (k = 2; k < n; k++) ccd_pair_try(work, solver, 0, k, &best);
  for (k = 1; k + 2 < n; k++) ccd_pair_try(work, solver, k, n - 1, &best);
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

int ik2d_ccd_run(ik2d_work *work, const ik2d_solver *solver) {
  double start_cos[IK2D_MAX_BONES], start_sin[IK2D_MAX_BONES];
  double distance_sq, start_sq, before_sq;
  int iteration, used = solver->iterations;
  ik2d_work_forward(work);
  distance_sq = ik2d_work_tip_distance_sq(work);
  work->fresh = 1;
  if (distance_sq <= work->tolerance_sq) return 0;
  work->fresh = 0;
  /* out of reach: the straight pose is the answer, in one step */
  if (ik2d_work_straighten(work)) return 1;
  start_sq = distance_sq;
  ik2d_work_save(work, start_cos, start_sin);
  for (iteration = 1; iteration <= solver->iterations; iteration++) {
    before_sq = distance_sq;
    /* an iteration is an exact step or, when none gains, a sweep: either
    ** way a joint turns at most once (and at most damping) per iteration */
    if (solver->exact && ik2d_work_exact_step(work, solver, &distance_sq)) {
      if (distance_sq <= work->tolerance_sq) {
        work->fresh = 1; /* the step ends with a forward pass */
        return iteration;
      }
    } else {
      distance_sq = solver->sweep == IK2D_SWEEP_TIP
                        ? ccd_sweep_tip(work, solver)
                        : ccd_sweep_root(work, solver);
      if (distance_sq <= work->tolerance_sq) return iteration;
      ik2d_work_forward(work);
      distance_sq = ik2d_work_tip_distance_sq(work);
    }
    if (before_sq - distance_sq <= CCD_STALL_GAIN * before_sq) {
      used = iteration;
      break;
    }
  }
  /* keep best: every step gains, but rounding could lose a hair; and a
  ** run that gains nothing changes nothing (else a stalled pose flickers
  ** between two roundings from frame to frame, never settling) */
  if (distance_sq >= start_sq) {
    ik2d_work_load(work, start_cos, start_sin);
    ik2d_work_forward(work);
  }
  /* every way out of the loop ends with a forward pass */
  work->fresh = 1;
  return used;
}
