/*
** ik2d_lanes.h: plain CCD solves in the lanes of a vector, one solver a
** lane, every field of every bone lane-contiguous (not installed).
**
** The kernel is ik2d_ccd.c written for lanes: each lane runs exactly the
** operations its solve would run alone, in the same order, on IEEE
** doubles with nothing fused, so it ends with the same bits.  Lanes are a
** stream: a lane whose solve ends is finished and takes the next solver
** at once, so no lane idles while another still iterates.  Where lanes
** part ways (one reaches mid-sweep, another has no exact pair) masks keep
** what a lane holds; the rare cases the vectors do not take (a turn whose
** squares underflow, a straight pose toward a target beyond 1e154) are
** computed for that lane alone with the scalar code's own arithmetic, and
** a run the solver must finish otherwise (FABRIK after a stalled CCD,
** the limited pair step of a limited chain short of its target, a broken
** run) is solved again by the scalar solver, which has not been
** touched.
**
** Included once per instruction set by ik2d_lanes_<isa>.c, after it
** defines IK2D_LANES_ISA and IK2D_LANES_NAME (the entry point's name).
*/
#include <float.h>
#include <math.h>
#include <stddef.h>

#include "ik2d_ccd.h"
#include "ik2d_pose.h"
#include "ik2d_simd.h"
#include "ik2d_solver.h"

#include "ik2d_numbers.h"

/* A rare path kept out of its caller (whose registers it would crowd). */
#if defined(__GNUC__) || defined(__clang__)
#define IK2D_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define IK2D_NOINLINE __declspec(noinline)
#else
#define IK2D_NOINLINE
#endif

/* A vector in memory, its lanes addressable one by one. */
typedef union lv {
  vd v;
  double d[V_LANES];
} lv;

typedef struct lrot {
  lv c, s;
} lrot;

/* A rotation of every lane, in registers. */
typedef struct lanes_rot {
  vd c, s;
} lanes_rot;

typedef struct lanes {
  int n;                 /* bones, the same in every lane */
  bool measure;          /* the solves measured at their end */
  int reached;           /* solves that reached (measured), so far */
  unsigned live;         /* lanes holding a solver */
  unsigned active;       /* live lanes still iterating */
  unsigned done;         /* live lanes whose run ended, to finish */
  unsigned stale;        /* lanes whose joints are not yet those of their
                            rotations (a sweep's or a straightening's) */
  ik2d_solver *solver[V_LANES];
  lrot rot[IK2D_MAX_BONES];
  lrot start[IK2D_MAX_BONES];
  lv length[IK2D_MAX_BONES];
  /* limits: mode 1 the cosine decides, 2 and 3 the sine (half_cos > 0,
  ** < 0), as ik2d__constraint_clamp_rot; bits and masks of each */
  unsigned limited_bits[IK2D_MAX_BONES], mode1_bits[IK2D_MAX_BONES];
  unsigned mode2_bits[IK2D_MAX_BONES];
  vm limited[IK2D_MAX_BONES], mode1[IK2D_MAX_BONES], mode2[IK2D_MAX_BONES];
  lrot mid[IK2D_MAX_BONES], half[IK2D_MAX_BONES];
  lv jx[IK2D_MAX_BONES + 1], jy[IK2D_MAX_BONES + 1];
  lrot base, damping;
  lv base_x, base_y, target_x, target_y, tolerance_sq, reach;
  lv goal_x, goal_y;     /* the target in world space (the measure's) */
  lv pose[IK2D_MAX_BONES], weight; /* the blend's, read at the finish */
  unsigned exact_bits, tip_bits, damped_bits;
  unsigned goal_bits;    /* lanes whose solver has a target of its own */
  unsigned unit_bits;    /* lanes of weight 1 */
  unsigned flip_bits;    /* lanes of flipped chains */
  /* the run: counters as doubles, exact to 2^53 */
  lv iterations, iteration, used;
#ifdef IK2D_STATS
  lv updates;
#endif
  lv distance_sq, start_sq, before_sq;
} lanes;

static inline lanes_rot lanes_rot_of(vd c, vd s) {
  lanes_rot r;
  r.c = c;
  r.s = s;
  return r;
}

static inline lanes_rot lanes_get(const lrot *r) { return lanes_rot_of(r->c.v, r->s.v); }

static inline void lanes_put(lrot *r, lanes_rot x) {
  r->c.v = x.c;
  r->s.v = x.s;
}

static inline lanes_rot lanes_mul(lanes_rot a, lanes_rot b) {
  return lanes_rot_of(v_sub(v_mul(a.c, b.c), v_mul(a.s, b.s)),
                      v_add(v_mul(a.c, b.s), v_mul(a.s, b.c)));
}

static inline lanes_rot lanes_inv_mul(lanes_rot a, lanes_rot b) {
  return lanes_rot_of(v_add(v_mul(a.c, b.c), v_mul(a.s, b.s)),
                      v_sub(v_mul(a.c, b.s), v_mul(a.s, b.c)));
}

static inline lanes_rot lanes_select(vm m, lanes_rot a, lanes_rot b) {
  return lanes_rot_of(v_select(m, a.c, b.c), v_select(m, a.s, b.s));
}

/* Bit l of bits set to on. */
static inline unsigned lanes_with_bit(unsigned bits, int l, bool on) {
  return (bits & ~(1u << l)) | (unsigned)on << l;
}

/* Bit l of *bits (and the mask that mirrors it) set to on. */
static inline void lanes_set_bit(unsigned *bits, vm *mask, int l, bool on) {
  unsigned now = lanes_with_bit(*bits, l, on);
  if (now == *bits) return;
  *bits = now;
  *mask = m_from_bits(now);
}

/* ------------------------------------------------------------------ */
/* a solver into a lane                                                 */
/* ------------------------------------------------------------------ */

/* Bone i of lane l takes the limit (or, limit NULL, none after one):
** apart from the load, whose lanes are mostly free. */
static IK2D_NOINLINE void lanes_load_limit(lanes *k, int l, int i, const ik2d_chain *chain,
                                           const ik2d_constraint *limit) {
  if (limit != NULL) {
    ik2d_rot mid = ik2d__chain_limit_mid(chain, i), r;
    double half_c = limit->half_rot.c;
    bool cosine = fabs(half_c) <= 0.7071067811865476;
    r = ik2d_rot_of(k->rot[i].c.d[l], k->rot[i].s.d[l]);
    ik2d__constraint_clamp_rot(limit, mid, &r);
    k->rot[i].c.d[l] = r.c;
    k->rot[i].s.d[l] = r.s;
    k->mid[i].c.d[l] = mid.c;
    k->mid[i].s.d[l] = mid.s;
    k->half[i].c.d[l] = half_c;
    k->half[i].s.d[l] = limit->half_rot.s;
    lanes_set_bit(&k->limited_bits[i], &k->limited[i], l, true);
    lanes_set_bit(&k->mode1_bits[i], &k->mode1[i], l, cosine);
    lanes_set_bit(&k->mode2_bits[i], &k->mode2[i], l, !cosine && half_c > 0.0);
  } else {
    k->mid[i].c.d[l] = 1.0;
    k->mid[i].s.d[l] = 0.0;
    k->half[i].c.d[l] = -1.0;
    k->half[i].s.d[l] = 0.0;
    lanes_set_bit(&k->limited_bits[i], &k->limited[i], l, false);
    lanes_set_bit(&k->mode1_bits[i], &k->mode1[i], l, false);
    lanes_set_bit(&k->mode2_bits[i], &k->mode2[i], l, false);
  }
}

/* Lane l takes the solver: the pose solve_prepare (ik2d_solver.c) would
** make, straight into the lane. */
static void lanes_load(lanes *k, int l, ik2d_solver *solver) {
  const ik2d_chain *chain = solver->chain;
  const ik2d_solver_def *settings = &solver->settings;
  const ik2d_rot *warm = ik2d__solver_starts_warm(solver) ? solver->solution : NULL;
  ik2d_rot damping = ik2d__solver_damping(solver);
  double target_x, target_y;
  unsigned keep = ~(1u << l);
  int i, n = k->n;
  k->solver[l] = solver;
  for (i = 0; i < n; i++) {
    const ik2d_constraint *limit = chain->constraint[i];
    ik2d_rot r = warm != NULL ? warm[i] : ik2d__chain_pose_rot(chain, i);
    k->length[i].d[l] = chain->length[i];
    k->pose[i].d[l] = chain->pose[i];
    k->rot[i].c.d[l] = r.c;
    k->rot[i].s.d[l] = r.s;
    if (limit != NULL && !limit->full) lanes_load_limit(k, l, i, chain, limit);
    else if (k->limited_bits[i] & ~keep) lanes_load_limit(k, l, i, chain, NULL);
  }
  /* the target in chain space, the world point kept for the measure */
  ik2d__solver_point_target(solver, &target_x, &target_y);
  k->goal_x.d[l] = target_x;
  k->goal_y.d[l] = target_y;
  k->target_x.d[l] = chain->flip ? 2.0 * chain->base_x - target_x : target_x;
  k->target_y.d[l] = target_y;
  k->weight.d[l] = settings->weight;
  k->base.c.d[l] = chain->base_rot.c;
  k->base.s.d[l] = chain->base_rot.s;
  k->damping.c.d[l] = damping.c;
  k->damping.s.d[l] = damping.s;
  k->base_x.d[l] = chain->base_x;
  k->base_y.d[l] = chain->base_y;
  k->tolerance_sq.d[l] = settings->tolerance * settings->tolerance;
  k->reach.d[l] = chain->reach;
  k->iterations.d[l] = settings->iterations;
  IK2D_STAT(k->updates.d[l] = 0.0);
  k->goal_bits = (k->goal_bits & keep) | (unsigned)solver->has_target << l;
  k->unit_bits = (k->unit_bits & keep) | (unsigned)(settings->weight == 1.0) << l;
  k->flip_bits = (k->flip_bits & keep) | (unsigned)chain->flip << l;
  k->exact_bits = (k->exact_bits & keep) | (unsigned)settings->ccd.exact << l;
  k->tip_bits = (k->tip_bits & keep) | (unsigned)(settings->ccd.sweep == IK2D_SWEEP_TIP) << l;
  /* a damping of cos -1 lets every turn through: no lane work */
  k->damped_bits = (k->damped_bits & keep) | (unsigned)(damping.c > -1.0) << l;
}

/* Lane to holds what lane from holds (a lane without a solver computes
** along with real numbers, never read back). */
static void lanes_copy(lanes *k, int to, int from) {
  int i;
  k->solver[to] = k->solver[from];
  for (i = 0; i < k->n; i++) {
    bool on = (k->limited_bits[i] >> from) & 1u;
    k->rot[i].c.d[to] = k->rot[i].c.d[from];
    k->rot[i].s.d[to] = k->rot[i].s.d[from];
    k->length[i].d[to] = k->length[i].d[from];
    k->pose[i].d[to] = k->pose[i].d[from];
    k->mid[i].c.d[to] = k->mid[i].c.d[from];
    k->mid[i].s.d[to] = k->mid[i].s.d[from];
    k->half[i].c.d[to] = k->half[i].c.d[from];
    k->half[i].s.d[to] = k->half[i].s.d[from];
    lanes_set_bit(&k->limited_bits[i], &k->limited[i], to, on);
    lanes_set_bit(&k->mode1_bits[i], &k->mode1[i], to, (k->mode1_bits[i] >> from) & 1u);
    lanes_set_bit(&k->mode2_bits[i], &k->mode2[i], to, (k->mode2_bits[i] >> from) & 1u);
  }
  k->target_x.d[to] = k->target_x.d[from];
  k->target_y.d[to] = k->target_y.d[from];
  k->goal_x.d[to] = k->goal_x.d[from];
  k->goal_y.d[to] = k->goal_y.d[from];
  k->goal_bits = lanes_with_bit(k->goal_bits, to, (k->goal_bits >> from) & 1u);
  k->weight.d[to] = k->weight.d[from];
  k->unit_bits = lanes_with_bit(k->unit_bits, to, (k->unit_bits >> from) & 1u);
  k->flip_bits = lanes_with_bit(k->flip_bits, to, (k->flip_bits >> from) & 1u);
  k->base.c.d[to] = k->base.c.d[from];
  k->base.s.d[to] = k->base.s.d[from];
  k->damping.c.d[to] = k->damping.c.d[from];
  k->damping.s.d[to] = k->damping.s.d[from];
  k->base_x.d[to] = k->base_x.d[from];
  k->base_y.d[to] = k->base_y.d[from];
  k->tolerance_sq.d[to] = k->tolerance_sq.d[from];
  k->reach.d[to] = k->reach.d[from];
  k->iterations.d[to] = k->iterations.d[from];
  IK2D_STAT(k->updates.d[to] = 0.0);
  k->exact_bits = lanes_with_bit(k->exact_bits, to, (k->exact_bits >> from) & 1u);
  k->tip_bits = lanes_with_bit(k->tip_bits, to, (k->tip_bits >> from) & 1u);
  k->damped_bits = lanes_with_bit(k->damped_bits, to, (k->damped_bits >> from) & 1u);
}

/* ------------------------------------------------------------------ */
/* the pose's helpers, for lanes (ik2d_pose.c)                          */
/* ------------------------------------------------------------------ */

/* Every lane's joints (a lane between iterations recomputes the joints
** it holds: the same operations on the same rotations). */
static void lanes_forward(lanes *k) {
  lanes_rot world = lanes_get(&k->base);
  vd x = k->base_x.v, y = k->base_y.v;
  int i;
  k->stale = 0;
  for (i = 0; i < k->n; i++) {
    world = lanes_mul(world, lanes_get(&k->rot[i]));
    k->jx[i].v = x;
    k->jy[i].v = y;
    x = v_add(x, v_mul(k->length[i].v, world.c));
    y = v_add(y, v_mul(k->length[i].v, world.s));
  }
  k->jx[k->n].v = x;
  k->jy[k->n].v = y;
}

static inline vd lanes_tip_distance_sq(const lanes *k) {
  vd dx = v_sub(k->target_x.v, k->jx[k->n].v), dy = v_sub(k->target_y.v, k->jy[k->n].v);
  return v_add(v_mul(dx, dx), v_mul(dy, dy));
}

/* ik2d__constraint_clamp_rot for bone i: *r moved into the arc where the
** mask m (and the bone's limit) says so; returns the lanes it moved. */
static inline vm lanes_clamp(const lanes *k, int i, lanes_rot *r, vm m) {
  lanes_rot mid, rel;
  vd half_c, half_s, zero = v_set1(0.0), side;
  vm in1, in2, in3, mode3, inside, moved;
  m = m_and(m, k->limited[i]);
  if (!m_any(m)) return m_none();
  mid = lanes_get(&k->mid[i]);
  half_c = k->half[i].c.v;
  half_s = k->half[i].s.v;
  rel = lanes_inv_mul(mid, *r);
  in1 = v_ge(rel.c, half_c);
  in2 = m_and(v_ge(rel.c, zero), v_le(v_abs(rel.s), half_s));
  in3 = m_or(v_ge(rel.c, zero), v_ge(v_abs(rel.s), half_s));
  mode3 = m_andnot(m_or(k->mode1[i], k->mode2[i]), m_all_lanes());
  inside = m_or(m_or(m_and(k->mode1[i], in1), m_and(k->mode2[i], in2)), m_and(mode3, in3));
  moved = m_andnot(inside, m);
  if (!m_any(moved)) return moved;
  side = v_select(v_lt(rel.s, zero), v_neg(half_s), half_s);
  *r = lanes_select(moved, lanes_mul(mid, lanes_rot_of(half_c, side)), *r);
  return moved;
}

/* ik2d_pose_straighten for the lanes m; returns the lanes straightened. */
static vm lanes_straighten(lanes *k, vm m) {
  vd dx = v_sub(k->target_x.v, k->base_x.v), dy = v_sub(k->target_y.v, k->base_y.v);
  vd distance = v_sqrt(v_add(v_mul(dx, dx), v_mul(dy, dy)));
  vd inf = v_set1(HUGE_VAL);
  lanes_rot saved[IK2D_MAX_BONES], r;
  vm go, far, failed = m_none();
  int i;
  go = m_and(m, m_andnot(v_eq(distance, v_set1(0.0)), v_ge(distance, k->reach.v)));
  if (!m_any(go)) return go;
  far = m_andnot(v_lt(distance, inf), go);
  if (m_any(far)) {
    /* a target beyond 1e154: the squares overflowed (dx too, across the
    ** whole double range), as the scalar code treats it */
    vm wide = m_and(far, m_not(m_and(v_lt(v_abs(dx), inf), v_lt(v_abs(dy), inf))));
    vd half = v_set1(0.5), biggest;
    dx = v_select(wide, v_sub(v_mul(half, k->target_x.v), v_mul(half, k->base_x.v)), dx);
    dy = v_select(wide, v_sub(v_mul(half, k->target_y.v), v_mul(half, k->base_y.v)), dy);
    biggest = v_select(v_gt(v_abs(dy), v_abs(dx)), v_abs(dy), v_abs(dx));
    dx = v_select(far, v_div(dx, biggest), dx);
    dy = v_select(far, v_div(dy, biggest), dy);
    distance = v_select(far, v_sqrt(v_add(v_mul(dx, dx), v_mul(dy, dy))), distance);
  }
  dx = v_div(dx, distance);
  dy = v_div(dy, distance);
  for (i = 0; i < k->n; i++) saved[i] = lanes_get(&k->rot[i]);
  r = lanes_inv_mul(lanes_get(&k->base), lanes_rot_of(dx, dy));
  lanes_put(&k->rot[0], lanes_select(go, r, saved[0]));
  for (i = 1; i < k->n; i++)
    lanes_put(&k->rot[i], lanes_select(go, lanes_rot_of(v_set1(1.0), v_set1(0.0)), saved[i]));
  for (i = 0; i < k->n; i++) {
    r = lanes_get(&k->rot[i]);
    failed = m_or(failed, lanes_clamp(k, i, &r, go));
    lanes_put(&k->rot[i], r);
  }
  /* a limit forbids the straight pose: leave it to the iterations */
  if (m_any(failed))
    for (i = 0; i < k->n; i++)
      lanes_put(&k->rot[i], lanes_select(failed, saved[i], lanes_get(&k->rot[i])));
  return m_andnot(failed, go);
}

/* ------------------------------------------------------------------ */
/* sweeps (ik2d_ccd.c)                                                  */
/* ------------------------------------------------------------------ */

/* sqrt(dot^2 + cross^2) where the squares hold, hypot elsewhere, as
** ccd_turn takes it */
static inline vd lanes_norm(vd dot, vd cross, vm m) {
  vd norm = v_sqrt(v_add(v_mul(dot, dot), v_mul(cross, cross)));
  vm odd = m_andnot(m_and(v_gt(norm, v_set1(IK2D_TURN_NORM_MIN)), v_lt(norm, v_set1(IK2D_TURN_NORM_MAX))), m);
  if (m_any(odd)) {
    int l;
    for (l = 0; l < V_LANES; l++)
      if (m_lane(odd, l)) norm = v_set_lane(norm, l, ik2d_hypot(v_lane(dot, l), v_lane(cross, l)));
  }
  return norm;
}

/* ccd_turn on the lanes m (every lane when full): joint i at (jx, jy)
** toward the target; the tip moves with it; returns the tip's squared
** distance. */
static inline vd lanes_turn(lanes *k, int i, vd jx, vd jy, vd *tip_x, vd *tip_y, vm m,
                            bool full) {
  vd target_x = k->target_x.v, target_y = k->target_y.v;
  vd to_tip_x = v_sub(*tip_x, jx), to_tip_y = v_sub(*tip_y, jy);
  vd to_target_x = v_sub(target_x, jx), to_target_y = v_sub(target_y, jy);
  vd dot = v_add(v_mul(to_tip_x, to_target_x), v_mul(to_tip_y, to_target_y));
  vd cross = v_sub(v_mul(to_tip_x, to_target_y), v_mul(to_tip_y, to_target_x));
  vd norm = lanes_norm(dot, cross, m), dx, dy, new_x, new_y;
  vm turns = m_and(m, v_gt(norm, v_set1(0.0)));
  if (m_any(turns)) {
    lanes_rot turn = lanes_rot_of(v_div(dot, norm), v_div(cross, norm));
    lanes_rot old = lanes_get(&k->rot[i]), now;
    if (k->damped_bits) {
      lanes_rot damping = lanes_get(&k->damping);
      vm damped = v_lt(turn.c, damping.c);
      vd side = v_select(v_lt(turn.s, v_set1(0.0)), v_neg(damping.s), damping.s);
      turn = lanes_select(damped, lanes_rot_of(damping.c, side), turn);
    }
    now = lanes_mul(old, turn);
    full = full && m_all(turns);
    if (!full) now = lanes_select(turns, now, old);
    if (k->limited_bits[i]) {
      /* the turn actually made: the clamped rotation from the old one */
      vm clamped = lanes_clamp(k, i, &now, turns);
      turn = lanes_select(clamped, lanes_inv_mul(old, now), turn);
    }
    lanes_put(&k->rot[i], now);
    new_x = v_sub(v_add(jx, v_mul(turn.c, to_tip_x)), v_mul(turn.s, to_tip_y));
    new_y = v_add(v_add(jy, v_mul(turn.s, to_tip_x)), v_mul(turn.c, to_tip_y));
    *tip_x = full ? new_x : v_select(turns, new_x, *tip_x);
    *tip_y = full ? new_y : v_select(turns, new_y, *tip_y);
  }
  dx = v_sub(target_x, *tip_x);
  dy = v_sub(target_y, *tip_y);
  return v_add(v_mul(dx, dx), v_mul(dy, dy));
}

/* One sweep of the lanes m, root to tip or tip to root; a lane within
** tolerance stops there.  Returns the squared distance each ends at. */
static vd lanes_sweep(lanes *k, vm m, bool tip_order) {
  vd tip_x = k->jx[k->n].v, tip_y = k->jy[k->n].v, distance_sq = v_set1(0.0);
  vd tolerance_sq = k->tolerance_sq.v;
  lanes_rot world = lanes_get(&k->base);
  vm running = m;
  unsigned bits = m_bits(m);
  int step, n = k->n;
  for (step = 0; step < n; step++) {
    int i = tip_order ? n - 1 - step : step;
    bool full = bits == V_ALL;
    vd d = lanes_turn(k, i, k->jx[i].v, k->jy[i].v, &tip_x, &tip_y, running, full);
    unsigned reached;
    distance_sq = full ? d : v_select(running, d, distance_sq);
    reached = m_bits(v_le(d, tolerance_sq)) & bits;
    if (reached) {
#ifdef IK2D_STATS
      /* those lanes stop: their turns so far are the joint updates */
      unsigned r = reached;
      int l;
      for (l = 0; r; l++, r >>= 1)
        if (r & 1u) k->updates.d[l] += step + 1;
#endif
      bits &= ~reached;
      if (!bits) return distance_sq;
      running = m_from_bits(bits);
    }
    if (!tip_order) {
      /* turning joint i moves every later joint: the next one again */
      vd length = k->length[i].v, x, y;
      world = lanes_mul(world, lanes_get(&k->rot[i]));
      x = v_add(k->jx[i].v, v_mul(length, world.c));
      y = v_add(k->jy[i].v, v_mul(length, world.s));
      k->jx[i + 1].v = bits == V_ALL ? x : v_select(running, x, k->jx[i + 1].v);
      k->jy[i + 1].v = bits == V_ALL ? y : v_select(running, y, k->jy[i + 1].v);
    }
  }
  IK2D_STAT(k->updates.v = v_add(k->updates.v, v_select(running, v_set1((double)n), v_set1(0.0))));
  return distance_sq;
}

/* ------------------------------------------------------------------ */
/* the exact two-joint step (ik2d_pose.c)                               */
/* ------------------------------------------------------------------ */

typedef struct lanes_pair {
  vd cost;
  lanes_rot i_rot, j_rot;
  int i[V_LANES], j[V_LANES];
} lanes_pair;

typedef struct lanes_triangle {
  int i, j;
  vd ux, uy, vx, vy, wx, wy;
  lanes_rot now, want;
} lanes_triangle;

/* Would the rotation r of bone i be clamped (lanes m)? */
static inline vm lanes_forbidden(const lanes *k, int i, lanes_rot r, vm m) {
  return lanes_clamp(k, i, &r, m);
}

/* pose_pair_side on the lanes m; returns the lanes a limit forbids. */
static vm lanes_pair_side(lanes *k, const lanes_triangle *t, vd side, lanes_pair *best,
                          vm m) {
  lanes_rot j_turn = lanes_inv_mul(t->now, lanes_rot_of(t->want.c, v_mul(side, t->want.s)));
  lanes_rot i_turn, i_rot, j_rot, damping = lanes_get(&k->damping);
  vd one = v_set1(1.0), px, py, dot, cross, norm, cost;
  vm go, no_i, no_j, take;
  int l;
  go = m_and(m, m_andnot(v_lt(j_turn.c, damping.c), v_lt(v_sub(one, j_turn.c), best->cost)));
  if (!m_any(go)) return m_none();
  px = v_sub(v_add(t->ux, v_mul(j_turn.c, t->vx)), v_mul(j_turn.s, t->vy));
  py = v_add(v_add(t->uy, v_mul(j_turn.s, t->vx)), v_mul(j_turn.c, t->vy));
  dot = v_add(v_mul(px, t->wx), v_mul(py, t->wy));
  cross = v_sub(v_mul(px, t->wy), v_mul(py, t->wx));
  norm = v_sqrt(v_add(v_mul(dot, dot), v_mul(cross, cross)));
  go = m_and(go, v_gt(norm, v_set1(0.0)));
  if (!m_any(go)) return m_none();
  i_turn = lanes_rot_of(v_div(dot, norm), v_div(cross, norm));
  cost = v_add(v_sub(one, j_turn.c), v_sub(one, i_turn.c));
  go = m_and(go, m_andnot(v_lt(i_turn.c, damping.c), v_lt(cost, best->cost)));
  if (!m_any(go)) return m_none();
  i_rot = lanes_mul(lanes_get(&k->rot[t->i]), i_turn);
  no_i = lanes_forbidden(k, t->i, i_rot, go);
  j_rot = lanes_mul(lanes_get(&k->rot[t->j]), j_turn);
  no_j = lanes_forbidden(k, t->j, j_rot, m_andnot(no_i, go));
  take = m_andnot(m_or(no_i, no_j), go);
  if (m_any(take)) {
    unsigned bits = m_bits(take);
    best->i_rot = lanes_select(take, i_rot, best->i_rot);
    best->j_rot = lanes_select(take, j_rot, best->j_rot);
    best->cost = v_select(take, cost, best->cost);
    for (l = 0; bits; l++, bits >>= 1) {
      if (bits & 1u) {
        best->i[l] = t->i;
        best->j[l] = t->j;
      }
    }
  }
  return m_or(no_i, no_j);
}

/* pose_pair_try on the lanes m. */
static void lanes_pair_try(lanes *k, int i, int j, lanes_pair *best, vm m) {
  int n = k->n;
  lanes_triangle t;
  vd a2, b2, d2, gap, ab, want_sin, lo = v_set1(IK2D_EXACT_SQUARES_MIN), hi = v_set1(IK2D_EXACT_SQUARES_MAX);
  vd zero = v_set1(0.0), small = v_set1(IK2D_EXACT_DEGENERATE), side;
  vm go, forbidden;
  t.i = i;
  t.j = j;
  t.ux = v_sub(k->jx[j].v, k->jx[i].v);
  t.uy = v_sub(k->jy[j].v, k->jy[i].v);
  t.vx = v_sub(k->jx[n].v, k->jx[j].v);
  t.vy = v_sub(k->jy[n].v, k->jy[j].v);
  t.wx = v_sub(k->target_x.v, k->jx[i].v);
  t.wy = v_sub(k->target_y.v, k->jy[i].v);
  a2 = v_add(v_mul(t.ux, t.ux), v_mul(t.uy, t.uy));
  b2 = v_add(v_mul(t.vx, t.vx), v_mul(t.vy, t.vy));
  d2 = v_add(v_mul(t.wx, t.wx), v_mul(t.wy, t.wy));
  gap = v_sub(v_sub(d2, a2), b2);
  go = m_and(m, m_and(m_and(v_ge(a2, lo), v_le(a2, hi)),
                      m_and(m_and(v_ge(b2, lo), v_le(b2, hi)),
                            m_and(v_ge(d2, lo), v_le(d2, hi)))));
  go = m_andnot(v_gt(v_mul(gap, gap), v_mul(v_mul(v_set1(4.0), a2), b2)), go);
  go = m_andnot(m_or(v_lt(b2, v_mul(small, a2)), v_lt(d2, v_mul(small, a2))), go);
  if (!m_any(go)) return;
  ab = v_sqrt(v_mul(a2, b2));
  t.want.c = v_div(gap, v_mul(v_set1(2.0), ab));
  want_sin = v_sub(v_set1(1.0), v_mul(t.want.c, t.want.c));
  t.want.s = v_select(v_gt(want_sin, zero), v_sqrt(v_select(v_gt(want_sin, zero), want_sin, zero)),
                      zero);
  t.now = lanes_rot_of(v_div(v_add(v_mul(t.ux, t.vx), v_mul(t.uy, t.vy)), ab),
                       v_div(v_sub(v_mul(t.ux, t.vy), v_mul(t.uy, t.vx)), ab));
  /* keep the bend side; the other where a limit forbids it */
  side = v_select(v_lt(t.now.s, zero), v_set1(-1.0), v_set1(1.0));
  forbidden = lanes_pair_side(k, &t, side, best, go);
  forbidden = m_and(forbidden, v_gt(t.want.s, zero));
  if (m_any(forbidden)) lanes_pair_side(k, &t, v_neg(side), best, forbidden);
}

/* ik2d_pose_exact_step on the lanes m, whose joints are those of their
** rotations; returns the lanes it applied a pair to (their distance
** updated).  Every lane's joints are those of its rotations after. */
static vm lanes_exact_step(lanes *k, vm m) {
  int n = k->n, i, l, p;
  lanes_pair best;
  lanes_rot saved[IK2D_MAX_BONES];
  vd after_sq;
  vm has, kept, back;
  unsigned bits = 0, todo;
  if (n < 2 || !m_any(m)) return m_none();
  best.cost = v_set1(5.0); /* above any real cost (at most 4) */
  best.i_rot = best.j_rot = lanes_rot_of(v_set1(1.0), v_set1(0.0));
  for (l = 0; l < V_LANES; l++) best.i[l] = best.j[l] = -1;
  for (p = 0; p + 1 < n; p++) lanes_pair_try(k, p, p + 1, &best, m);
  for (p = 2; p < n; p++) lanes_pair_try(k, 0, p, &best, m);
  for (p = 1; p + 2 < n; p++) lanes_pair_try(k, p, n - 1, &best, m);
  for (l = 0; l < V_LANES; l++)
    if (m_lane(m, l) && best.i[l] >= 0) bits |= 1u << l;
  if (!bits) return m_none();
  has = m_from_bits(bits);
  for (i = 0; i < n; i++) saved[i] = lanes_get(&k->rot[i]);
  {
    double ic[V_LANES], is[V_LANES], jc[V_LANES], js[V_LANES];
    v_store(ic, best.i_rot.c);
    v_store(is, best.i_rot.s);
    v_store(jc, best.j_rot.c);
    v_store(js, best.j_rot.s);
    for (todo = bits, l = 0; todo; l++, todo >>= 1) {
      if (!(todo & 1u)) continue;
      k->rot[best.i[l]].c.d[l] = ic[l];
      k->rot[best.i[l]].s.d[l] = is[l];
      k->rot[best.j[l]].c.d[l] = jc[l];
      k->rot[best.j[l]].s.d[l] = js[l];
    }
  }
  lanes_forward(k);
  after_sq = lanes_tip_distance_sq(k);
  kept = m_and(has, v_lt(after_sq, k->distance_sq.v));
  k->distance_sq.v = v_select(kept, after_sq, k->distance_sq.v);
  /* no gain (the tip already sat on the target up to rounding) */
  back = m_andnot(kept, has);
  if (m_any(back)) {
    for (i = 0; i < n; i++) lanes_put(&k->rot[i], lanes_select(back, saved[i], lanes_get(&k->rot[i])));
    lanes_forward(k);
  }
  return kept;
}

/* ------------------------------------------------------------------ */
/* the run (ik2d_ccd.c's state machine, every lane at once)             */
/* ------------------------------------------------------------------ */

/* ccd_run_end for the lanes m: keep best, and the joints of the end */
static void lanes_end(lanes *k, vm m) {
  vm back = m_and(m, v_ge(k->distance_sq.v, k->start_sq.v));
  int i;
  k->done |= m_bits(m);
  k->active &= ~m_bits(m);
  if (m_any(back)) {
    for (i = 0; i < k->n; i++)
      lanes_put(&k->rot[i], lanes_select(back, lanes_get(&k->start[i]), lanes_get(&k->rot[i])));
    lanes_forward(k);
  }
}

/* ccd_run_next for the lanes m (a step that did not reach) */
static void lanes_next(lanes *k, vm m) {
  vd before = k->before_sq.v, distance = k->distance_sq.v, gain = v_sub(before, distance);
  vm stall = v_le(gain, v_mul(v_set1(IK2D_CCD_STALL_GAIN), before));
  vm slow = m_and(m_from_bits(k->exact_bits),
                  m_and(v_lt(gain, v_mul(v_set1(IK2D_CCD_SLOW_GAIN), before)),
                        v_gt(distance, v_mul(v_set1(IK2D_CCD_FAR), k->tolerance_sq.v))));
  vm stop = m_and(m, m_or(stall, slow)), go = m_andnot(stop, m), over;
  if (!m_any(m)) return;
  k->used.v = v_select(stop, k->iteration.v, k->used.v);
  k->iteration.v = v_select(go, v_add(k->iteration.v, v_set1(1.0)), k->iteration.v);
  over = m_and(go, v_gt(k->iteration.v, k->iterations.v));
  if (m_any(m_or(stop, over))) lanes_end(k, m_or(stop, over));
}

/* The lanes m reached after their current iteration. */
static void lanes_reached(lanes *k, vm m) {
  k->done |= m_bits(m);
  k->active &= ~m_bits(m);
  k->used.v = v_select(m, k->iteration.v, k->used.v);
}

/* ccd_run_begin for the lanes m, just loaded (the other lanes are
** between iterations, their joints those of their rotations). */
static void lanes_begin(lanes *k, vm m) {
  vd distance_sq;
  vm within, rest, straight, go;
  int i;
  lanes_forward(k);
  distance_sq = lanes_tip_distance_sq(k);
  k->distance_sq.v = v_select(m, distance_sq, k->distance_sq.v);
  within = m_and(m, v_le(distance_sq, k->tolerance_sq.v));
  rest = m_andnot(within, m);
  k->used.v = v_select(within, v_set1(0.0), v_select(rest, v_set1(1.0), k->used.v));
  /* out of reach: the straight pose is the answer, in one step */
  straight = lanes_straighten(k, rest);
  k->stale |= m_bits(straight);
  go = m_andnot(straight, rest);
  k->done |= m_bits(within) | m_bits(straight);
  if (!m_any(go)) return;
  k->active |= m_bits(go);
  k->iteration.v = v_select(go, v_set1(1.0), k->iteration.v);
  k->used.v = v_select(go, k->iterations.v, k->used.v);
  k->start_sq.v = v_select(go, distance_sq, k->start_sq.v);
  for (i = 0; i < k->n; i++)
    lanes_put(&k->start[i], lanes_select(go, lanes_get(&k->rot[i]), lanes_get(&k->start[i])));
}

/* One iteration of every active lane: an exact step or, when none
** gains, a sweep. */
static void lanes_iterate(lanes *k) {
  vm active = m_from_bits(k->active), applied, reached, sweeping;
  unsigned root_bits, tip_bits;
  k->before_sq.v = v_select(active, k->distance_sq.v, k->before_sq.v);
  applied = lanes_exact_step(k, m_and(active, m_from_bits(k->exact_bits)));
  if (m_any(applied)) {
    reached = m_and(applied, v_le(k->distance_sq.v, k->tolerance_sq.v));
    lanes_reached(k, reached);
    lanes_next(k, m_andnot(reached, applied));
  }
  sweeping = m_andnot(applied, active);
  if (!m_any(sweeping)) return;
  root_bits = m_bits(sweeping) & ~k->tip_bits;
  tip_bits = m_bits(sweeping) & k->tip_bits;
  {
    vd d = k->distance_sq.v;
    vm rest;
    if (root_bits) d = v_select(m_from_bits(root_bits), lanes_sweep(k, m_from_bits(root_bits), false), d);
    if (tip_bits) d = v_select(m_from_bits(tip_bits), lanes_sweep(k, m_from_bits(tip_bits), true), d);
    k->distance_sq.v = d;
    k->stale |= m_bits(sweeping);
    reached = m_and(sweeping, v_le(d, k->tolerance_sq.v));
    lanes_reached(k, reached);
    rest = m_andnot(reached, sweeping);
    if (m_any(rest)) {
      lanes_forward(k);
      k->distance_sq.v = v_select(rest, lanes_tip_distance_sq(k), k->distance_sq.v);
      lanes_next(k, rest);
    }
  }
}

/* ------------------------------------------------------------------ */
/* the finish of a lane                                                 */
/* ------------------------------------------------------------------ */

/* ik2d_atan2 on the lanes, its axes included; *special gets the lanes
** it leaves to it (infinities, NaN, both zero: libm's cases). */
static inline vd lanes_atan2(vd y, vd x, unsigned *special) {
  const double half_pi_hi = 1.5707963267948966, half_pi_lo = 6.123233995736766e-17;
  const double pi_hi = 3.141592653589793, pi_lo = 1.2246467991473532e-16;
  vd ax = v_abs(x), ay = v_abs(y), zero = v_set1(0.0), top = v_set1(DBL_MAX);
  vd t, c, u, u2, angle, poly;
  vm ok = m_and(m_and(v_gt(ax, zero), v_gt(ay, zero)), m_and(v_le(ax, top), v_le(ay, top)));
  vm steep = v_gt(ay, ax);
  int index[V_LANES];
  vm finite = m_and(v_le(ax, top), v_le(ay, top));
  vm on_x = m_and(finite, m_and(v_eq(ay, zero), v_gt(ax, zero)));
  vm on_y = m_and(finite, m_and(v_eq(ax, zero), v_gt(ay, zero)));
  *special = ~(m_bits(ok) | m_bits(on_x) | m_bits(on_y)) & V_ALL;
  t = v_div(v_select(steep, ax, ay), v_select(steep, ay, ax));
  t = v_select(ok, t, zero); /* a table index for every lane */
  c = v_mul(v_set1(0.125), v_trunc(v_mul(v_set1(8.0), t), index));
  u = v_div(v_sub(t, c), v_add(v_set1(1.0), v_mul(t, c)));
  /* ik2d_atan_small, term by term */
  u2 = v_mul(u, u);
  poly = v_add(v_set1(1.0 / 17), v_mul(u2, v_set1(-1.0 / 19)));
  poly = v_add(v_set1(-1.0 / 15), v_mul(u2, poly));
  poly = v_add(v_set1(1.0 / 13), v_mul(u2, poly));
  poly = v_add(v_set1(-1.0 / 11), v_mul(u2, poly));
  poly = v_add(v_set1(1.0 / 9), v_mul(u2, poly));
  poly = v_add(v_set1(-1.0 / 7), v_mul(u2, poly));
  poly = v_add(v_set1(1.0 / 5), v_mul(u2, poly));
  poly = v_add(v_set1(-1.0 / 3), v_mul(u2, poly));
  poly = v_add(v_set1(1.0), v_mul(u2, poly));
  angle = v_add(v_from_table(ik2d_atan_eighths, index), v_mul(u, poly));
  angle = v_select(steep, v_add(v_sub(v_set1(half_pi_hi), angle), v_set1(half_pi_lo)), angle);
  angle = v_select(v_lt(x, zero), v_add(v_sub(v_set1(pi_hi), angle), v_set1(pi_lo)), angle);
  angle = v_select(v_lt(y, zero), v_neg(angle), angle);
  /* the axes: y itself (its zero's sign) or +-pi, and +-pi/2 */
  if (m_any(m_or(on_x, on_y))) {
    angle = v_select(on_x, v_select(v_gt(x, zero), y, v_copysign(v_set1(pi_hi), y)), angle);
    angle = v_select(on_y, v_copysign(v_set1(half_pi_hi), y), angle);
  }
  return angle;
}

/* What the stages of lanes_finish hand to each lane's commit. */
typedef struct lanes_outcome {
  lv angle[IK2D_MAX_BONES];   /* the IK angles */
  lv blended[IK2D_MAX_BONES]; /* the result angles (of bones without a limit) */
  lv distance;                /* the measure, where measured */
  unsigned on_limit;          /* lanes with a bone on an edge of its limits */
  unsigned unit;              /* lanes of weight 1, whose joints are the lanes' */
  unsigned measured;          /* lanes measured in the vectors */
  unsigned limited;           /* lanes with a limited bone */
} lanes_outcome;

/* The lanes of f the scalar solve would take further: CCD stopped short
** of a target the chain can reach (ik2d__solver_ccd_fallback: FABRIK next),
** or a limited chain short of its target (ccd_run_end's limited pair
** step: a lane that reached but whose forward pass rounds past the
** tolerance goes too, the scalar solve gives it the same bits). */
IK2D_INLINE unsigned lanes_beyond(lanes *k, unsigned f) {
  vd dx = v_sub(k->target_x.v, k->base_x.v), dy = v_sub(k->target_y.v, k->base_y.v);
  unsigned beyond, limited = 0;
  vm far;
  int i;
  if (!(f & k->exact_bits)) return 0;
  far = m_and(v_gt(lanes_tip_distance_sq(k), k->tolerance_sq.v),
              v_lt(v_sqrt(v_add(v_mul(dx, dx), v_mul(dy, dy))), k->reach.v));
  far = m_and(far, v_ge(v_sub(k->iterations.v, k->used.v), v_set1(1.0)));
  beyond = m_bits(far) & f & k->exact_bits;
  for (i = 0; i < k->n; i++) limited |= k->limited_bits[i];
  return beyond | (m_bits(v_gt(lanes_tip_distance_sq(k), k->tolerance_sq.v)) & f &
                   k->exact_bits & limited);
}

/* solve_sane (ik2d_solver.c) on the lanes f: returns the lanes whose run
** broke; in the others the rotations back on unit length and within
** limits, *moved the lanes where one moved. */
IK2D_INLINE unsigned lanes_sane(lanes *k, unsigned f, unsigned *moved) {
  vm fm = m_from_bits(f), fix;
  vd one = v_set1(1.0);
  unsigned broken = 0;
  int i;
  for (i = 0; i < k->n; i++) {
    lanes_rot r = lanes_get(&k->rot[i]);
    vd norm = v_add(v_mul(r.c, r.c), v_mul(r.s, r.s)), root;
    broken |= ~m_bits(m_and(v_gt(norm, v_set1(IK2D_ROT_NORM_MIN)),
                            v_lt(norm, v_set1(IK2D_ROT_NORM_MAX)))) & f;
    fix = m_and(fm, v_gt(v_abs(v_sub(norm, one)), v_set1(IK2D_ROT_DRIFT)));
    if (m_any(fix)) {
      root = v_sqrt(v_select(fix, norm, one));
      r = lanes_select(fix, lanes_rot_of(v_div(r.c, root), v_div(r.s, root)), r);
      *moved |= m_bits(fix);
    }
    if (k->limited_bits[i] & f) *moved |= m_bits(lanes_clamp(k, i, &r, fm));
    lanes_put(&k->rot[i], r);
  }
  return broken;
}

/* Whether limited bone i of the lanes f (those not yet known to) ends on
** an edge of its limits (ik2d_pose_rel_on_limit): the lanes that do. */
IK2D_INLINE unsigned lanes_on_limit(lanes *k, int i, unsigned f, lanes_rot r) {
  lanes_rot rel = lanes_inv_mul(lanes_get(&k->mid[i]), r);
  unsigned bits, special;
  lv half, turn;
  int l;
  v_store(half.d, v_set1(0.0));
  for (bits = k->limited_bits[i] & f, l = 0; bits; l++, bits >>= 1)
    if (bits & 1u) half.d[l] = k->solver[l]->chain->constraint[i]->half;
  turn.v = lanes_atan2(rel.s, rel.c, &special);
  for (bits = special & k->limited_bits[i] & f, l = 0; bits; l++, bits >>= 1)
    if (bits & 1u) turn.d[l] = ik2d_atan2(v_lane(rel.s, l), v_lane(rel.c, l));
  return m_bits(v_ge(v_abs(turn.v), v_sub(half.v, v_set1(1e-9)))) & k->limited_bits[i] & f;
}

/* The angles of the lanes f's rotations, the lanes with a bone on an
** edge of its limits, and those with a limited bone. */
IK2D_INLINE void lanes_angles(lanes *k, unsigned f, lanes_outcome *o) {
  unsigned bits, special;
  int i, l;
  o->on_limit = o->limited = 0;
  for (i = 0; i < k->n; i++) {
    lanes_rot r = lanes_get(&k->rot[i]);
    o->angle[i].v = lanes_atan2(r.s, r.c, &special);
    for (bits = special & f, l = 0; bits; l++, bits >>= 1)
      if (bits & 1u) o->angle[i].d[l] = ik2d_atan2(k->rot[i].s.d[l], k->rot[i].c.d[l]);
    if (k->limited_bits[i] & f & ~o->on_limit) o->on_limit |= lanes_on_limit(k, i, f, r);
    o->limited |= k->limited_bits[i];
  }
}

/* The blend: pose + weight x the turn, the turn wrapped, as
** ik2d__chain_blend_bone has it for a bone without a limit (a limited
** one's lanes take that function itself in lanes_commit). */
IK2D_INLINE void lanes_blend(lanes *k, unsigned f, lanes_outcome *o) {
  unsigned bits, wrap;
  int i, l;
  o->unit = k->unit_bits & f;
  for (i = 0; i < k->n; i++) {
    lv delta;
    vd pose = k->pose[i].v;
    delta.v = v_sub(o->angle[i].v, pose);
    wrap = ~m_bits(m_and(v_ge(delta.v, v_set1(-IK2D_PI)), v_lt(delta.v, v_set1(IK2D_PI)))) & f;
    for (bits = wrap, l = 0; bits; l++, bits >>= 1)
      if (bits & 1u) delta.d[l] = ik2d_wrap(delta.d[l]);
    o->blended[i].v = v_select(m_from_bits(o->unit), v_add(pose, delta.v),
                               v_add(pose, v_mul(k->weight.v, delta.v)));
  }
}

/* The joints in world space: mirrored back when flipped. */
IK2D_INLINE void lanes_unflip(lanes *k, unsigned f) {
  unsigned flipped = k->flip_bits & f;
  vm flip;
  vd twice_x;
  int i;
  if (!flipped) return;
  flip = m_from_bits(flipped);
  twice_x = v_mul(v_set1(2.0), k->base_x.v);
  for (i = 0; i <= k->n; i++) k->jx[i].v = v_select(flip, v_sub(twice_x, k->jx[i].v), k->jx[i].v);
}

/* ik2d__solver_measure where the lanes' joints are the chain's (weight 1)
** and the target is the solver's own point (a lane without one, or whose
** squares leave the range sqrt takes, is measured alone in lanes_commit). */
IK2D_INLINE void lanes_measure(lanes *k, lanes_outcome *o) {
  vd dx = v_sub(k->goal_x.v, k->jx[k->n].v), dy = v_sub(k->goal_y.v, k->jy[k->n].v);
  vd squared = v_add(v_mul(dx, dx), v_mul(dy, dy)), zero = v_set1(0.0);
  /* (a tip on the target: 0, as ik2d_hypot gives it) */
  vm fine = m_or(m_and(v_lt(squared, v_set1(1e300)), v_gt(squared, v_set1(1e-300))),
                 m_and(v_eq(dx, zero), v_eq(dy, zero)));
  o->distance.v = v_sqrt(v_select(fine, squared, v_set1(1.0)));
  o->measured = m_bits(fine) & o->unit & k->goal_bits;
}

/* Lane l's results into its solver and chain (solve_commit), measured
** when the batch measures. */
IK2D_INLINE void lanes_commit(lanes *k, int l, const lanes_outcome *o) {
  ik2d_solver *solver = k->solver[l];
  ik2d_chain *chain = solver->chain;
  ik2d_rot *solution = solver->solution;
  double *solved = ik2d_solution_angle(solver), *result = chain->angle, *joints;
  int i, n = k->n;
  IK2D_STAT(solver->joint_updates = (int)k->updates.d[l]);
  solver->result.limited = (o->on_limit >> l) & 1u;
  for (i = 0; i < n; i++) {
    solution[i].c = k->rot[i].c.d[l];
    solution[i].s = k->rot[i].s.d[l];
    solved[i] = o->angle[i].d[l];
    result[i] = o->blended[i].d[l];
  }
  if ((o->limited >> l) & 1u)
    for (i = 0; i < n; i++)
      if ((k->limited_bits[i] >> l) & 1u)
        result[i] = ik2d__chain_blend_bone(chain, i, o->angle[i].d[l], k->weight.d[l]);
  solver->have_solution = true;
  /* the lanes' angles: the next scalar solve finds every one again */
  solver->angles_held = false;
  chain->uniform = solver->settings.two_bone.uniform;
  chain->scale = 1.0; /* CCD does not stretch: 1 + weight x (1 - 1) */
  if ((o->unit >> l) & 1u) {
    joints = chain->joints;
    for (i = 0; i <= n; i++) {
      joints[2 * i] = k->jx[i].d[l];
      joints[2 * i + 1] = k->jy[i].d[l];
    }
  } else {
    ik2d__chain_update_joints(chain);
  }
  solver->result.iterations = (int)k->used.d[l];
  if (!k->measure) return;
  if ((o->measured >> l) & 1u) {
    solver->result.distance = o->distance.d[l];
    solver->result.reached = o->distance.d[l] <= solver->settings.tolerance;
  } else {
    ik2d__solver_measure_point(solver);
  }
  k->reached += solver->result.reached;
}

/* A lane the scalar code takes further (FABRIK, the limited pair step, a
** broken run), its solver solved again by ik2d__solver_solve_chain: it has not
** been touched. */
static IK2D_NOINLINE void lanes_solve_alone(lanes *k, ik2d_solver *solver) {
  double x, y;
  ik2d__solver_point_target(solver, &x, &y);
  ik2d__solver_solve_chain(solver, x, y);
  if (k->measure) k->reached += ik2d__solver_measure_point(solver);
}

/* solve_finish (ik2d_solver.c) for the lanes f, whose runs have ended
** (every other lane between iterations), in stages: the lanes the scalar
** solve takes further, the sanity checks, the angles, the blend and the
** joints in the lanes, then each lane's results written to its solver and
** chain; the lanes taken further solved again by the scalar solve. */
static void lanes_finish(lanes *k, unsigned f) {
  lanes_outcome o;
  unsigned again, moved = 0, bits;
  int l;
  if (k->stale & f) lanes_forward(k);
  again = lanes_beyond(k, f);
  again |= lanes_sane(k, f, &moved);
  f &= ~again;
  if (moved & f) lanes_forward(k);
  lanes_angles(k, f, &o);
  lanes_blend(k, f, &o);
  lanes_unflip(k, f);
  lanes_measure(k, &o);
  for (bits = f, l = 0; bits; l++, bits >>= 1)
    if (bits & 1u) lanes_commit(k, l, &o);
  for (bits = again, l = 0; bits; l++, bits >>= 1)
    if (bits & 1u) lanes_solve_alone(k, k->solver[l]);
}

/* ------------------------------------------------------------------ */
/* the stream                                                           */
/* ------------------------------------------------------------------ */

static int lanes_count(unsigned bits) {
  int count = 0;
  for (; bits; bits &= bits - 1u) count++;
  return count;
}

/* Plain CCD (ik2d__solver_is_plain_ccd, no world-space limit, no target on
** a bone: ik2d_batch_takes_solve) for count >= 1 solvers of one bone
** count on distinct chains, whose solves read nothing another's writes,
** each left exactly as ik2d__solver_solve_chain leaves it; with measure, each
** measured, and returns how many reached. */
int IK2D_LANES_NAME(ik2d_solver *const *solvers, int count, bool measure);

int IK2D_LANES_NAME(ik2d_solver *const *solvers, int count, bool measure) {
  lanes k;
  int next, l, i;
  k.n = solvers[0]->chain->count;
  k.measure = measure;
  k.reached = 0;
  k.live = k.active = k.done = k.stale = 0;
  k.exact_bits = k.tip_bits = k.damped_bits = k.goal_bits = k.unit_bits = k.flip_bits = 0;
  for (i = 0; i < k.n; i++) {
    k.limited_bits[i] = k.mode1_bits[i] = k.mode2_bits[i] = 0;
    k.limited[i] = k.mode1[i] = k.mode2[i] = m_none();
    /* a lane without a limit keeps these, its loads skip them */
    k.mid[i].c.v = v_set1(1.0);
    k.mid[i].s.v = v_set1(0.0);
    k.half[i].c.v = v_set1(-1.0);
    k.half[i].s.v = v_set1(0.0);
  }
  /* every lane holds a real pose, lanes beyond count the first one again
  ** (not live: they compute along and are never read) */
  next = count < V_LANES ? count : V_LANES;
  for (l = 0; l < next; l++) lanes_load(&k, l, solvers[l]);
  for (; l < V_LANES; l++) lanes_copy(&k, l, 0);
  k.live = (1u << next) - 1u;
  for (l = 0; l < V_LANES; l++) {
    k.distance_sq.d[l] = k.start_sq.d[l] = k.before_sq.d[l] = 0.0;
    k.iteration.d[l] = k.used.d[l] = 0.0;
  }
  lanes_begin(&k, m_from_bits(k.live));
  for (;;) {
    /* ended lanes wait for company, so that their finish is shared: half
    ** the lanes while solvers remain, else all of them */
    int wait = next < count ? (V_LANES + 1) / 2 : V_LANES + 1;
    if (k.done && (lanes_count(k.done) >= wait || !k.active)) {
      unsigned loaded = 0, done = k.done & k.live;
      k.done = 0;
      lanes_finish(&k, done);
      for (l = 0; done; l++, done >>= 1) {
        if (!(done & 1u)) continue;
        if (next < count) {
          lanes_load(&k, l, solvers[next++]);
          loaded |= 1u << l;
        } else {
          k.live &= ~(1u << l);
        }
      }
      if (loaded) lanes_begin(&k, m_from_bits(loaded));
      continue;
    }
    if (!k.active) return k.reached;
    lanes_iterate(&k);
  }
}
