/*
** ik2d_pose.c: what every method does to a pose: forward passes, the
** straight pose toward a far target, and the exact two-joint step.
**
** The exact step: with every other joint held, joints i < j and the tip
** form a triangle with fixed sides a = |J_j - J_i| and b = |tip - J_j|,
** so turning j then i puts the tip on the target exactly whenever
** |a - b| <= |target - J_i| <= a + b (law of cosines, without trig).  The
** candidates are every adjacent pair, the root with every joint and every
** joint with the last: about 3n pairs, O(n).  The pair needing the least
** turning wins, on the bend side it has now (so no elbow flips), and only
** if both joints stay inside their limits (and damping).  CCD tries it
** first in every iteration; FABRIK finishes with it.
**
** The limited step: when a limit forbids the exact answer (a target
** inside a limited elbow's reach), no pair lands the tip, and turning one
** joint at a time stalls where the other would have to move with it (the
** straight arm pointed at the target is such a saddle).  For a pair of
** joints i < j of which one is limited, the nearest allowed pose lies
** where j takes the law of cosines' angle clamped into its arc, or an end
** of its arc, with i turned onto the target and clamped; or where i sits
** at an end of its arc and j turns onto it.  The nearest of these over the pairs is
** kept if it gains.  Runs that end short of the target finish with it.
*/
#include <math.h>
#include <stddef.h>

#include "ik2d_numbers.h"
#include "ik2d_pose.h"


/* ------------------------------------------------------------------ */
/* rotations and joints                                                 */
/* ------------------------------------------------------------------ */

void ik2d_pose_save(const ik2d_pose *pose, ik2d_rot *rot) {
  int i;
  for (i = 0; i < pose->count; i++) rot[i] = pose->rot[i];
}

void ik2d_pose_load(ik2d_pose *pose, const ik2d_rot *rot) {
  int i;
  pose->fresh = false;
  for (i = 0; i < pose->count; i++) pose->rot[i] = rot[i];
}

void ik2d_pose_forward(ik2d_pose *pose) {
  const double *length = pose->chain->length;
  ik2d_rot world = pose->base;
  double x = pose->base_x, y = pose->base_y;
  int i;
  for (i = 0; i < pose->count; i++) {
    world = ik2d_rot_mul(world, pose->rot[i]);
    pose->joint_x[i] = x;
    pose->joint_y[i] = y;
    x += length[i] * world.c;
    y += length[i] * world.s;
  }
  pose->joint_x[pose->count] = x;
  pose->joint_y[pose->count] = y;
}

bool ik2d_pose_straighten(ik2d_pose *pose) {
  const ik2d_chain *chain = pose->chain;
  double dx = pose->target_x - chain->base_x;
  double dy = pose->target_y - chain->base_y;
  double distance = sqrt(dx * dx + dy * dy);
  ik2d_rot saved[IK2D_MAX_BONES];
  int i;
  if (!(distance >= pose->reach) || distance == 0.0) return false;
  ik2d_pose_save(pose, saved);
  if (!isfinite(distance)) {
    /* a target beyond 1e154: the squares overflowed (dx too, across the
    ** whole double range), and dx / inf = 0 pointed the chain along x */
    if (!isfinite(dx) || !isfinite(dy)) {
      dx = 0.5 * pose->target_x - 0.5 * chain->base_x;
      dy = 0.5 * pose->target_y - 0.5 * chain->base_y;
    }
    distance = fmax(fabs(dx), fabs(dy));
    dx /= distance;
    dy /= distance;
    distance = sqrt(dx * dx + dy * dy);
  }
  dx /= distance;
  dy /= distance;
  /* first bone: world direction to the target, less the base rotation */
  pose->rot[0] = ik2d_rot_inv_mul(pose->base, ik2d_rot_of(dx, dy));
  for (i = 1; i < pose->count; i++) pose->rot[i] = ik2d_rot_of(1.0, 0.0);
  for (i = 0; i < pose->count; i++) {
    if (ik2d_pose_clamp(pose, i)) {
      /* a limit forbids the straight pose: leave it to the iterations */
      ik2d_pose_load(pose, saved);
      return false;
    }
  }
  pose->fresh = false;
  return true;
}

ik2d_rot ik2d_pose_world(const ik2d_pose *pose, int i) {
  ik2d_rot world = pose->base;
  int k;
  for (k = 0; k <= i; k++) world = ik2d_rot_mul(world, pose->rot[k]);
  return world;
}

ik2d_rot ik2d_pose_world_limit_mid(const ik2d_pose *pose, int i) {
  ik2d_rot mid;
  double norm;
  mid = ik2d_rot_inv_mul(ik2d_pose_world(pose, i - 1), pose->limit_mid[i]);
  /* the parent's world rotation is a product of up to 63 rotations, each
  ** up to 1e-14 off unit length: a clamp onto that middle would pass the
  ** error on to this bone, after the solve put rotations back on unit
  ** length */
  norm = sqrt(mid.c * mid.c + mid.s * mid.s);
  return norm > 0.0 ? ik2d_rot_of(mid.c / norm, mid.s / norm) : pose->limit_mid[i];
}

bool ik2d_pose_settle_world(ik2d_pose *pose, int first) {
  bool moved = false;
  int i;
  for (i = first; i < pose->world_limits && i < pose->count; i++) {
    const ik2d_constraint *limit = pose->chain->constraint[i];
    if (limit != NULL && limit->def.space == IK2D_SPACE_WORLD && ik2d_pose_clamp(pose, i))
      moved = true;
  }
  if (moved) pose->fresh = false;
  return moved;
}

bool ik2d_pose_on_limit(const ik2d_pose *pose) {
  int i;
  for (i = 0; i < pose->count; i++) {
    const ik2d_constraint *limit = pose->chain->constraint[i];
    ik2d_rot rel;
    if (limit == NULL || limit->full) continue;
    rel = ik2d_rot_inv_mul(ik2d_pose_limit_mid(pose, i), pose->rot[i]);
    if (ik2d_pose_rel_on_limit(limit, rel)) return true;
  }
  return false;
}

/* ------------------------------------------------------------------ */
/* poles                                                                */
/* ------------------------------------------------------------------ */

/* The mirror of rotation w across the line along unit u: the angle
** 2 angle(u) - angle(w), that is u^2 conj(w). */
static ik2d_rot pose_mirror(ik2d_rot u, ik2d_rot w) {
  return ik2d_rot_mul(ik2d_rot_mul(u, u), ik2d_rot_of(w.c, -w.s));
}

/* The unit direction from (x0, y0) to (x1, y1); false if they meet. */
static bool pose_unit(double x0, double y0, double x1, double y1, ik2d_rot *u) {
  double dx = x1 - x0, dy = y1 - y0, norm = sqrt(dx * dx + dy * dy);
  if (!(norm > 0.0 && isfinite(norm))) return false;
  *u = ik2d_rot_of(dx / norm, dy / norm);
  return true;
}

/* Which side of the line through (x0, y0) along u the point is on. */
static double pose_side(ik2d_rot u, double x0, double y0, double x, double y) {
  return u.c * (y - y0) - u.s * (x - x0);
}

/* Keeps the rotations from first on (saved holds the old ones) when
** every limit allows them; else puts the old ones back and says so. */
static bool pose_keep_if_allowed(ik2d_pose *pose, const ik2d_rot *saved, int first,
                                 int last) {
  int i;
  for (i = first; i <= last; i++) {
    ik2d_rot r = pose->rot[i];
    if (ik2d_pose_clamp(pose, i)) {
      pose->rot[i] = r;
      for (i = first; i <= last; i++) pose->rot[i] = saved[i];
      pose->limited = true;
      return false;
    }
  }
  return true;
}

void ik2d_pose_toward_pole(ik2d_pose *pose) {
  int n = pose->count, i, j;
  const double *x = pose->joint_x, *y = pose->joint_y;
  double px = pose->pole_x, py = pose->pole_y, bulk = 0.0, pole;
  ik2d_rot saved[IK2D_MAX_BONES], u, world[IK2D_MAX_BONES];
  if (n < 2) return;
  /* (a method's run ends with its forward pass: fresh) */
  if (!pose->fresh) ik2d_pose_forward(pose);
  pose->fresh = true;
  if (!pose_unit(x[0], y[0], x[n], y[n], &u)) return;
  pole = pose_side(u, x[0], y[0], px, py);
  for (j = 1; j < n; j++) bulk += pose_side(u, x[0], y[0], x[j], y[j]);
  ik2d_pose_save(pose, saved);
  if (pole * bulk < 0.0) {
    /* the whole chain mirrored across the base-tip line: the first bone
    ** takes the mirrored direction, every later turn is reversed */
    pose->rot[0] = ik2d_rot_inv_mul(pose->base,
                                    pose_mirror(u, ik2d_rot_mul(pose->base, pose->rot[0])));
    for (i = 1; i < n; i++) pose->rot[i] = ik2d_rot_of(saved[i].c, -saved[i].s);
    if (pose_keep_if_allowed(pose, saved, 0, n - 1)) ik2d_pose_save(pose, saved);
    ik2d_pose_forward(pose);
  }
  /* each middle joint mirrored across the line through its neighbours,
  ** when that brings it nearer the pole: bones j - 1 and j turn, the
  ** rest of the chain keeps its world directions */
  for (j = 1; j < n; j++) {
    ik2d_rot v, parent;
    double side_pole, side_joint;
    if (!pose_unit(x[j - 1], y[j - 1], x[j + 1], y[j + 1], &v)) continue;
    side_pole = pose_side(v, x[j - 1], y[j - 1], px, py);
    side_joint = pose_side(v, x[j - 1], y[j - 1], x[j], y[j]);
    if (!(side_pole * side_joint < 0.0)) continue;
    for (i = 0; i < n; i++) world[i] = ik2d_pose_world(pose, i);
    parent = j >= 2 ? world[j - 2] : pose->base;
    world[j - 1] = pose_mirror(v, world[j - 1]);
    world[j] = pose_mirror(v, world[j]);
    pose->rot[j - 1] = ik2d_rot_inv_mul(parent, world[j - 1]);
    pose->rot[j] = ik2d_rot_inv_mul(world[j - 1], world[j]);
    if (j + 1 < n) pose->rot[j + 1] = ik2d_rot_inv_mul(world[j], world[j + 1]);
    if (pose_keep_if_allowed(pose, saved, j - 1, j + 1 < n ? j + 1 : j))
      ik2d_pose_save(pose, saved);
    ik2d_pose_forward(pose);
  }
  /* every change of the rotations above ends with a forward pass */
  pose->fresh = true;
}

/* ------------------------------------------------------------------ */
/* the exact two-joint step                                             */
/* ------------------------------------------------------------------ */

typedef struct pose_pair {
  int i, j;
  double cost;          /* (1 - cos turn_i) + (1 - cos turn_j) */
  ik2d_rot i_rot, j_rot; /* new rotations of bones i and j */
} pose_pair;

/* Is rotation r of bone i inside its limits?  Asks the clamp itself, so
** the exact step and the sweeps can never disagree. */
static bool pose_allowed(const ik2d_pose *pose, int i, ik2d_rot r) {
  const ik2d_constraint *limit = pose->chain->constraint[i];
  return limit == NULL ||
         !ik2d__constraint_clamp_rot_inline(limit, ik2d_pose_limit_mid(pose, i), &r);
}

/* The triangle of joints i < j, solved for one bend side: the sides, the
** target from joint i, and the angle at j now and wanted (want.s >= 0,
** its sign given by the side). */
typedef struct pose_triangle {
  int i, j;
  double ux, uy, vx, vy, wx, wy;
  ik2d_rot now, want;
} pose_triangle;

/* The sides of the triangle of joints i < j and the target, and their
** squares; false unless doubles hold the squares and their products
** exactly enough (NaN fails too): the steps are optional, and sweeps
** handle the extremes. */
static inline bool pose_triangle_of(const ik2d_pose *pose, int i, int j, pose_triangle *t,
                                    double *a2, double *b2, double *d2) {
  const double *x = pose->joint_x, *y = pose->joint_y;
  int n = pose->count;
  t->i = i;
  t->j = j;
  t->ux = x[j] - x[i];                                    /* side a */
  t->uy = y[j] - y[i];
  t->vx = x[n] - x[j];                                    /* side b */
  t->vy = y[n] - y[j];
  t->wx = pose->target_x - x[i];
  t->wy = pose->target_y - y[i];
  *a2 = t->ux * t->ux + t->uy * t->uy;
  *b2 = t->vx * t->vx + t->vy * t->vy;
  *d2 = t->wx * t->wx + t->wy * t->wy;
  return *a2 >= IK2D_EXACT_SQUARES_MIN && *a2 <= IK2D_EXACT_SQUARES_MAX &&
         *b2 >= IK2D_EXACT_SQUARES_MIN && *b2 <= IK2D_EXACT_SQUARES_MAX &&
         *d2 >= IK2D_EXACT_SQUARES_MIN && *d2 <= IK2D_EXACT_SQUARES_MAX;
}

/* The tip seen from joint i after bone j turns by j_turn. */
static inline void pose_tip_after(const pose_triangle *t, ik2d_rot j_turn, double *px, double *py) {
  *px = t->ux + j_turn.c * t->vx - j_turn.s * t->vy;
  *py = t->uy + j_turn.s * t->vx + j_turn.c * t->vy;
}

/* The turn taking direction (px, py) onto (wx, wy); false when one of
** them has no direction. */
static inline bool pose_turn_onto(double px, double py, double wx, double wy, ik2d_rot *turn) {
  double dot = px * wx + py * wy, cross = px * wy - py * wx;
  double norm = sqrt(dot * dot + cross * cross);
  if (!(norm > 0.0)) return false;
  *turn = ik2d_rot_of(dot / norm, cross / norm);
  return true;
}

/* Every pair i < j the two-joint steps try, in their order: neighbours,
** the root with each joint beyond its neighbour, each middle joint with
** the last.  Each visit keeps what it finds in best. */
typedef void pose_pair_visit(const ik2d_pose *pose, int i, int j, void *best);
static inline void pose_each_pair(const ik2d_pose *pose, pose_pair_visit *visit, void *best) {
  int n = pose->count, k;
  for (k = 0; k + 1 < n; k++) visit(pose, k, k + 1, best);
  for (k = 2; k < n; k++) visit(pose, 0, k, best);
  for (k = 1; k + 2 < n; k++) visit(pose, k, n - 1, best);
}

/* Bones i and j turned to i_rot and j_rot (world-space limits below them
** settled), kept when the tip lands nearer the target than *distance_sq
** (then updated), else the pose as it was. */
static inline bool pose_keep_pair_if_nearer(ik2d_pose *pose, int i, ik2d_rot i_rot, int j,
                                            ik2d_rot j_rot, double *distance_sq) {
  ik2d_rot saved[IK2D_MAX_BONES];
  double after_sq;
  /* bones i and j change, and those a world-space limit below i settles */
  bool settle = pose->world_limits > i + 1;
  if (settle) {
    ik2d_pose_save(pose, saved);
  } else {
    saved[i] = pose->rot[i];
    saved[j] = pose->rot[j];
  }
  pose->rot[i] = i_rot;
  pose->rot[j] = j_rot;
  if (settle) ik2d_pose_settle_world(pose, i + 1);
  ik2d_pose_forward(pose);
  after_sq = ik2d_pose_tip_distance_sq(pose);
  if (after_sq < *distance_sq) {
    *distance_sq = after_sq;
    return true;
  }
  /* no gain (the tip already sat on the target up to rounding) */
  if (settle) {
    ik2d_pose_load(pose, saved);
  } else {
    pose->rot[i] = saved[i];
    pose->rot[j] = saved[j];
    pose->fresh = false;
  }
  ik2d_pose_forward(pose);
  return false;
}

/* Keeps the pair in best when the side (+1 or -1) is cheaper than what
** best holds; returns true when a limit forbids the side. */
IK2D_INLINE bool pose_pair_side(const ik2d_pose *pose, const pose_triangle *t,
                                double side, pose_pair *best) {
  ik2d_rot j_turn = ik2d_rot_inv_mul(t->now, ik2d_rot_of(t->want.c, side * t->want.s));
  ik2d_rot i_turn, i_rot, j_rot;
  double px, py, cost;
  if (!(1.0 - j_turn.c < best->cost) || j_turn.c < pose->damping.c) return false;
  /* the tip after turning j, from joint i; then turn i onto the target */
  pose_tip_after(t, j_turn, &px, &py);
  if (!pose_turn_onto(px, py, t->wx, t->wy, &i_turn)) return false;
  cost = (1.0 - j_turn.c) + (1.0 - i_turn.c);
  if (!(cost < best->cost) || i_turn.c < pose->damping.c) return false;
  i_rot = ik2d_rot_mul(pose->rot[t->i], i_turn);
  if (!pose_allowed(pose, t->i, i_rot)) return true;
  j_rot = ik2d_rot_mul(pose->rot[t->j], j_turn);
  if (!pose_allowed(pose, t->j, j_rot)) return true;
  best->i_rot = i_rot;
  best->j_rot = j_rot;
  best->i = t->i;
  best->j = t->j;
  best->cost = cost;
  return false;
}

/* Solves the triangle of joints i < j and keeps it in best when it is
** cheaper than what best holds.  It keeps the bend side the pair has now
** (no elbow flips), unless a limit forbids that side: then the other side
** is tried, which is how a chain starting straight against a one-sided
** limit (an elbow that bends one way only) gets out of CCD's dead end. */
IK2D_INLINE void pose_pair_try(const ik2d_pose *pose, int i, int j, void *best_pair) {
  pose_pair *best = best_pair;
  pose_triangle t;
  double a2, b2, d2, gap, ab, want_sin;
  if (!pose_triangle_of(pose, i, j, &t, &a2, &b2, &d2)) return;
  gap = d2 - a2 - b2;
  /* out of this pair's reach, or degenerate */
  if (gap * gap > 4.0 * a2 * b2) return;
  if (b2 < IK2D_EXACT_DEGENERATE * a2 || d2 < IK2D_EXACT_DEGENERATE * a2) return;
  /* the angle at joint j between side a and side b: now and wanted */
  ab = sqrt(a2 * b2);
  t.want.c = gap / (2.0 * ab);
  want_sin = 1.0 - t.want.c * t.want.c;
  t.want.s = want_sin > 0.0 ? sqrt(want_sin) : 0.0;
  t.now = ik2d_rot_of((t.ux * t.vx + t.uy * t.vy) / ab,
                      (t.ux * t.vy - t.uy * t.vx) / ab);
  /* keep the bend side */
  if (pose_pair_side(pose, &t, t.now.s < 0.0 ? -1.0 : 1.0, best) && t.want.s > 0.0)
    pose_pair_side(pose, &t, t.now.s < 0.0 ? 1.0 : -1.0, best);
}

bool ik2d_pose_exact_step(ik2d_pose *pose, double *distance_sq) {
  pose_pair best;
  if (pose->count < 2) return false;
  best.i = best.j = -1;
  best.cost = 5.0; /* above any real cost (at most 4) */
  pose_each_pair(pose, pose_pair_try, &best);
  if (best.i < 0) return false;
  return pose_keep_pair_if_nearer(pose, best.i, best.i_rot, best.j, best.j_rot, distance_sq);
}

/* ------------------------------------------------------------------ */
/* the limited pair step                                                */
/* ------------------------------------------------------------------ */

typedef struct pose_near {
  int i, j;
  double distance_sq;   /* of the tip, from the target */
  ik2d_rot i_rot, j_rot;
} pose_near;

/* Rotation r of bone i moved into its limits; true if it had to. */
static bool pose_clamp_to(const ik2d_pose *pose, int i, ik2d_rot *r) {
  const ik2d_constraint *limit = pose->chain->constraint[i];
  return limit != NULL && ik2d__constraint_clamp_rot(limit, ik2d_pose_limit_mid(pose, i), r);
}

/* Keeps (i_rot, j_rot) in best when the tip, at p from joint i before
** bone i turns by i_turn, lands nearer the target than best's. */
static void pose_near_keep(const pose_triangle *t, ik2d_rot i_turn, ik2d_rot i_rot,
                           ik2d_rot j_rot, double px, double py, pose_near *best) {
  double dx = i_turn.c * px - i_turn.s * py - t->wx;
  double dy = i_turn.s * px + i_turn.c * py - t->wy;
  double distance_sq = dx * dx + dy * dy;
  if (!(distance_sq < best->distance_sq)) return;
  best->distance_sq = distance_sq;
  best->i = t->i;
  best->j = t->j;
  best->i_rot = i_rot;
  best->j_rot = j_rot;
}

/* Bone j at j_rot (allowed), then bone i turned onto the target, clamped. */
static void pose_near_elbow(const ik2d_pose *pose, const pose_triangle *t, ik2d_rot j_rot,
                            pose_near *best) {
  ik2d_rot j_turn = ik2d_rot_inv_mul(pose->rot[t->j], j_rot), i_turn, i_rot;
  double px, py;
  if (j_turn.c < pose->damping.c) return;
  pose_tip_after(t, j_turn, &px, &py);
  if (!pose_turn_onto(px, py, t->wx, t->wy, &i_turn)) return;
  i_rot = ik2d_rot_mul(pose->rot[t->i], i_turn);
  if (pose_clamp_to(pose, t->i, &i_rot)) i_turn = ik2d_rot_inv_mul(pose->rot[t->i], i_rot);
  if (i_turn.c < pose->damping.c) return;
  pose_near_keep(t, i_turn, i_rot, j_rot, px, py, best);
}

/* Bone i at i_rot (allowed), then bone j turned onto the target, clamped. */
static void pose_near_shoulder(const ik2d_pose *pose, const pose_triangle *t, ik2d_rot i_rot,
                               pose_near *best) {
  ik2d_rot i_turn = ik2d_rot_inv_mul(pose->rot[t->i], i_rot), j_turn, j_rot;
  double ux, uy, vx, vy, px, py;
  if (i_turn.c < pose->damping.c) return;
  /* the sides turned with i; the target seen from joint j */
  ux = i_turn.c * t->ux - i_turn.s * t->uy;
  uy = i_turn.s * t->ux + i_turn.c * t->uy;
  vx = i_turn.c * t->vx - i_turn.s * t->vy;
  vy = i_turn.s * t->vx + i_turn.c * t->vy;
  if (!pose_turn_onto(vx, vy, t->wx - ux, t->wy - uy, &j_turn)) return;
  j_rot = ik2d_rot_mul(pose->rot[t->j], j_turn);
  if (pose_clamp_to(pose, t->j, &j_rot)) j_turn = ik2d_rot_inv_mul(pose->rot[t->j], j_rot);
  if (j_turn.c < pose->damping.c) return;
  /* the tip from joint i, in the frame before i turned */
  pose_tip_after(t, j_turn, &px, &py);
  pose_near_keep(t, i_turn, i_rot, j_rot, px, py, best);
}

/* The ends of bone i's allowed arc, or false when it has none. */
static bool pose_arc_ends(const ik2d_pose *pose, int i, ik2d_rot *low, ik2d_rot *high) {
  const ik2d_constraint *limit = pose->chain->constraint[i];
  ik2d_rot mid;
  if (limit == NULL || limit->full) return false;
  mid = ik2d_pose_limit_mid(pose, i);
  *low = ik2d_rot_mul(mid, ik2d_rot_of(limit->half_rot.c, -limit->half_rot.s));
  *high = ik2d_rot_mul(mid, ik2d_rot_of(limit->half_rot.c, limit->half_rot.s));
  return true;
}

/* The candidates of the pair i < j (one of them limited) into best. */
static void pose_near_try(const ik2d_pose *pose, int i, int j, void *best_near) {
  pose_near *best = best_near;
  pose_triangle t;
  ik2d_rot low, high, j_rot;
  double a2, b2, d2, ab, want_sin, side;
  bool i_limited, j_limited;
  ik2d_rot i_low, i_high;
  j_limited = pose_arc_ends(pose, j, &low, &high);
  i_limited = pose_arc_ends(pose, i, &i_low, &i_high);
  if (!i_limited && !j_limited) return;
  if (!pose_triangle_of(pose, i, j, &t, &a2, &b2, &d2)) return;
  ab = sqrt(a2 * b2);
  /* the wanted angle at j, straight or folded when out of the pair's
  ** reach; each bend side clamped into j's arc */
  t.want.c = (d2 - a2 - b2) / (2.0 * ab);
  t.want.c = t.want.c > 1.0 ? 1.0 : t.want.c < -1.0 ? -1.0 : t.want.c;
  want_sin = 1.0 - t.want.c * t.want.c;
  t.want.s = want_sin > 0.0 ? sqrt(want_sin) : 0.0;
  t.now = ik2d_rot_of((t.ux * t.vx + t.uy * t.vy) / ab, (t.ux * t.vy - t.uy * t.vx) / ab);
  for (side = 1.0; side >= -1.0; side -= 2.0) {
    j_rot = ik2d_rot_mul(pose->rot[j],
                         ik2d_rot_inv_mul(t.now, ik2d_rot_of(t.want.c, side * t.want.s)));
    pose_clamp_to(pose, j, &j_rot);
    pose_near_elbow(pose, &t, j_rot, best);
  }
  if (j_limited) {
    pose_near_elbow(pose, &t, low, best);
    pose_near_elbow(pose, &t, high, best);
  }
  if (i_limited) {
    pose_near_shoulder(pose, &t, i_low, best);
    pose_near_shoulder(pose, &t, i_high, best);
  }
}

bool ik2d_pose_limited_step(ik2d_pose *pose, double *distance_sq) {
  pose_near best;
  /* a world-space limit's arc turns with the bones above it */
  if (pose->count < 2 || pose->world_limits > 0) return false;
  best.i = best.j = -1;
  best.distance_sq = *distance_sq;
  pose_each_pair(pose, pose_near_try, &best);
  if (best.i < 0) return false;
  return pose_keep_pair_if_nearer(pose, best.i, best.i_rot, best.j, best.j_rot, distance_sq);
}
