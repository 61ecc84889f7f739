/*
** ik2d_lanes.h: CCD on V_LANES poses at once, one pose a lane, every
** field of every bone lane-contiguous (not installed).
**
** The kernel is ik2d_ccd.c written for lanes: each lane runs exactly the
** operations its pose would run alone, in the same order, on IEEE doubles
** with nothing fused, so it ends with the same bits.  Where lanes part
** ways (one reaches mid-sweep, another has no exact pair) masks keep what
** a finished lane holds; rare cases the vectors do not take (a turn whose
** squares underflow, a straight pose toward a target beyond 1e154) are
** computed for that lane alone, with the scalar code's own arithmetic.
**
** Included once per instruction set by ik2d_lanes_<isa>.c, after it
** defines IK2D_LANES_ISA and IK2D_LANES_NAME (the function's name).
*/
#include <math.h>
#include <stddef.h>

#include "ik2d_ccd.h"
#include "ik2d_pose.h"
#include "ik2d_simd.h"

/* the scalar code's thresholds (ik2d_ccd.c, ik2d_pose.c) */
#define LANES_STALL_GAIN 1e-9
#define LANES_SLOW_GAIN 0.3
#define LANES_FAR 100.0
#define LANES_DEGENERATE 0.01

typedef struct lanes_rot {
  vd c, s;
} lanes_rot;

typedef struct lanes {
  int n;                          /* bones, the same in every lane */
  int count;                      /* lanes in use */
  vm live;                        /* the lanes in use */
  lanes_rot rot[IK2D_MAX_BONES];
  lanes_rot start[IK2D_MAX_BONES];
  vd length[IK2D_MAX_BONES];
  /* limits: mode 0 none (or full), 1 the cosine decides, 2 and 3 the
  ** sine (half_cos > 0, < 0), as ik2d_constraint_clamp_rot */
  vm limited[IK2D_MAX_BONES];
  vm mode1[IK2D_MAX_BONES], mode2[IK2D_MAX_BONES];
  lanes_rot mid[IK2D_MAX_BONES], half[IK2D_MAX_BONES];
  vd jx[IK2D_MAX_BONES + 1], jy[IK2D_MAX_BONES + 1];
  lanes_rot base, damping;
  vd base_x, base_y, target_x, target_y, tolerance_sq, reach;
  vm exact, sweep_tip;
  int iterations[V_LANES];
  /* the run */
  vm done, fresh;
  vd distance_sq, start_sq, before_sq;
  int iteration[V_LANES], used[V_LANES], updates[V_LANES];
} lanes;

static inline lanes_rot lanes_rot_of(vd c, vd s) {
  lanes_rot r;
  r.c = c;
  r.s = s;
  return r;
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

/* ------------------------------------------------------------------ */
/* to and from the poses                                                */
/* ------------------------------------------------------------------ */

static void lanes_gather(lanes *k, ik2d_pose *const *poses, int count) {
  double a[V_LANES], b[V_LANES], c[V_LANES], d[V_LANES];
  int i, l, n = poses[0]->count;
  k->n = n;
  k->count = count;
  /* empty lanes copy lane 0: they compute what it does, and are never
  ** read back */
#define GATHER(field, expr)                                        \
  do {                                                             \
    for (l = 0; l < V_LANES; l++) {                                \
      const ik2d_pose *p = poses[l < count ? l : 0];               \
      field[l] = (expr);                                           \
    }                                                              \
  } while (0)
  for (i = 0; i < n; i++) {
    GATHER(a, p->rot[i].c);
    GATHER(b, p->rot[i].s);
    k->rot[i] = lanes_rot_of(v_load(a), v_load(b));
    GATHER(a, p->chain->length[i]);
    k->length[i] = v_load(a);
    {
      unsigned limited = 0, mode1 = 0, mode2 = 0;
      for (l = 0; l < V_LANES; l++) {
        const ik2d_pose *p = poses[l < count ? l : 0];
        const ik2d_constraint *limit = p->chain->constraint[i];
        bool on = limit != NULL && !limit->full;
        a[l] = on ? p->limit_mid[i].c : 1.0;
        b[l] = on ? p->limit_mid[i].s : 0.0;
        c[l] = on ? limit->half_rot.c : -1.0;
        d[l] = on ? limit->half_rot.s : 0.0;
        if (on) limited |= 1u << l;
        if (on && fabs(c[l]) <= 0.7071067811865476) mode1 |= 1u << l;
        else if (on && c[l] > 0.0) mode2 |= 1u << l;
      }
      k->limited[i] = m_from_bits(limited);
      k->mode1[i] = m_from_bits(mode1);
      k->mode2[i] = m_from_bits(mode2);
      k->mid[i] = lanes_rot_of(v_load(a), v_load(b));
      k->half[i] = lanes_rot_of(v_load(c), v_load(d));
    }
  }
  GATHER(a, p->base.c);
  GATHER(b, p->base.s);
  k->base = lanes_rot_of(v_load(a), v_load(b));
  GATHER(a, p->damping.c);
  GATHER(b, p->damping.s);
  k->damping = lanes_rot_of(v_load(a), v_load(b));
  GATHER(a, p->chain->base_x);
  k->base_x = v_load(a);
  GATHER(a, p->chain->base_y);
  k->base_y = v_load(a);
  GATHER(a, p->target_x);
  k->target_x = v_load(a);
  GATHER(a, p->target_y);
  k->target_y = v_load(a);
  GATHER(a, p->tolerance_sq);
  k->tolerance_sq = v_load(a);
  GATHER(a, p->reach);
  k->reach = v_load(a);
  {
    unsigned exact = 0, tip = 0;
    for (l = 0; l < V_LANES; l++) {
      const ik2d_pose *p = poses[l < count ? l : 0];
      if (p->settings->exact) exact |= 1u << l;
      if (p->settings->sweep == IK2D_SWEEP_TIP) tip |= 1u << l;
      k->iterations[l] = p->iterations;
      k->updates[l] = 0;
    }
    k->exact = m_from_bits(exact);
    k->sweep_tip = m_from_bits(tip);
  }
  k->live = m_from_bits((1u << count) - 1u);
#undef GATHER
}

/* The rotations, joints and flags back into each pose. */
static void lanes_scatter(const lanes *k, ik2d_pose *const *poses, int *used) {
  double a[V_LANES], b[V_LANES];
  int i, l, n = k->n;
  for (i = 0; i < n; i++) {
    v_store(a, k->rot[i].c);
    v_store(b, k->rot[i].s);
    for (l = 0; l < k->count; l++) poses[l]->rot[i] = ik2d_rot_of(a[l], b[l]);
  }
  for (i = 0; i <= n; i++) {
    v_store(a, k->jx[i]);
    v_store(b, k->jy[i]);
    for (l = 0; l < k->count; l++) {
      poses[l]->joint_x[i] = a[l];
      poses[l]->joint_y[i] = b[l];
    }
  }
  for (l = 0; l < k->count; l++) {
    poses[l]->fresh = m_lane(k->fresh, l);
    poses[l]->joint_updates += k->updates[l];
    used[l] = k->used[l];
  }
}

/* ------------------------------------------------------------------ */
/* the pose's helpers, for lanes (ik2d_pose.c)                          */
/* ------------------------------------------------------------------ */

static void lanes_forward(lanes *k) {
  lanes_rot world = k->base;
  vd x = k->base_x, y = k->base_y;
  int i;
  for (i = 0; i < k->n; i++) {
    world = lanes_mul(world, k->rot[i]);
    k->jx[i] = x;
    k->jy[i] = y;
    x = v_add(x, v_mul(k->length[i], world.c));
    y = v_add(y, v_mul(k->length[i], world.s));
  }
  k->jx[k->n] = x;
  k->jy[k->n] = y;
}

static inline vd lanes_tip_distance_sq(const lanes *k) {
  vd dx = v_sub(k->target_x, k->jx[k->n]), dy = v_sub(k->target_y, k->jy[k->n]);
  return v_add(v_mul(dx, dx), v_mul(dy, dy));
}

/* ik2d_constraint_clamp_rot for bone i: *r moved into the arc where the
** mask m (and the bone's limit) says so; returns the lanes it moved. */
static inline vm lanes_clamp(const lanes *k, int i, lanes_rot *r, vm m) {
  lanes_rot mid = k->mid[i], rel;
  vd half_c = k->half[i].c, half_s = k->half[i].s, zero = v_set1(0.0), side;
  vm in1, in2, in3, mode3, inside, moved;
  m = m_and(m, k->limited[i]);
  if (!m_any(m)) return m_none();
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
  vd dx = v_sub(k->target_x, k->base_x), dy = v_sub(k->target_y, k->base_y);
  vd distance = v_sqrt(v_add(v_mul(dx, dx), v_mul(dy, dy)));
  vd inf = v_set1(HUGE_VAL);
  lanes_rot saved[IK2D_MAX_BONES];
  vm go, far, failed = m_none();
  int i;
  go = m_and(m, m_andnot(v_eq(distance, v_set1(0.0)), v_ge(distance, k->reach)));
  if (!m_any(go)) return go;
  far = m_andnot(v_lt(distance, inf), go);
  if (m_any(far)) {
    /* a target beyond 1e154: the squares overflowed (dx too, across the
    ** whole double range), as the scalar code treats it */
    vm wide = m_and(far, m_not(m_and(v_lt(v_abs(dx), inf), v_lt(v_abs(dy), inf))));
    vd half = v_set1(0.5), biggest;
    dx = v_select(wide, v_sub(v_mul(half, k->target_x), v_mul(half, k->base_x)), dx);
    dy = v_select(wide, v_sub(v_mul(half, k->target_y), v_mul(half, k->base_y)), dy);
    biggest = v_select(v_gt(v_abs(dy), v_abs(dx)), v_abs(dy), v_abs(dx));
    dx = v_select(far, v_div(dx, biggest), dx);
    dy = v_select(far, v_div(dy, biggest), dy);
    distance = v_select(far, v_sqrt(v_add(v_mul(dx, dx), v_mul(dy, dy))), distance);
  }
  dx = v_div(dx, distance);
  dy = v_div(dy, distance);
  for (i = 0; i < k->n; i++) saved[i] = k->rot[i];
  k->rot[0] = lanes_select(go, lanes_inv_mul(k->base, lanes_rot_of(dx, dy)), k->rot[0]);
  for (i = 1; i < k->n; i++)
    k->rot[i] = lanes_select(go, lanes_rot_of(v_set1(1.0), v_set1(0.0)), k->rot[i]);
  for (i = 0; i < k->n; i++) failed = m_or(failed, lanes_clamp(k, i, &k->rot[i], go));
  /* a limit forbids the straight pose: leave it to the iterations */
  if (m_any(failed))
    for (i = 0; i < k->n; i++) k->rot[i] = lanes_select(failed, saved[i], k->rot[i]);
  return m_andnot(failed, go);
}

/* ------------------------------------------------------------------ */
/* sweeps (ik2d_ccd.c)                                                  */
/* ------------------------------------------------------------------ */

/* sqrt(dot^2 + cross^2) where the squares hold, hypot elsewhere, as
** ccd_turn takes it */
static inline vd lanes_norm(vd dot, vd cross, vm m) {
  vd norm = v_sqrt(v_add(v_mul(dot, dot), v_mul(cross, cross)));
  vm odd = m_andnot(m_and(v_gt(norm, v_set1(1e-150)), v_lt(norm, v_set1(1e150))), m);
  if (m_any(odd)) {
    int l;
    for (l = 0; l < V_LANES; l++)
      if (m_lane(odd, l)) norm = v_set_lane(norm, l, hypot(v_lane(dot, l), v_lane(cross, l)));
  }
  return norm;
}

/* ccd_turn on the lanes m: joint i at (jx, jy) toward the target; the
** tip moves with it; returns the tip's squared distance. */
static inline vd lanes_turn(lanes *k, int i, vd jx, vd jy, vd *tip_x, vd *tip_y, vm m) {
  vd to_tip_x = v_sub(*tip_x, jx), to_tip_y = v_sub(*tip_y, jy);
  vd to_target_x = v_sub(k->target_x, jx), to_target_y = v_sub(k->target_y, jy);
  vd dot = v_add(v_mul(to_tip_x, to_target_x), v_mul(to_tip_y, to_target_y));
  vd cross = v_sub(v_mul(to_tip_x, to_target_y), v_mul(to_tip_y, to_target_x));
  vd norm = lanes_norm(dot, cross, m), dx, dy;
  vm turns = m_and(m, v_gt(norm, v_set1(0.0)));
  if (m_any(turns)) {
    lanes_rot turn = lanes_rot_of(v_div(dot, norm), v_div(cross, norm)), old = k->rot[i];
    vm damped = v_lt(turn.c, k->damping.c);
    vd zero = v_set1(0.0);
    turn = lanes_select(damped,
                        lanes_rot_of(k->damping.c,
                                     v_select(v_lt(turn.s, zero), v_neg(k->damping.s),
                                              k->damping.s)),
                        turn);
    k->rot[i] = lanes_select(turns, lanes_mul(old, turn), old);
    /* the turn actually made: the clamped rotation from the old one */
    {
      /* clamp first: the arguments of one call are evaluated in no set order */
      vm clamped = lanes_clamp(k, i, &k->rot[i], turns);
      turn = lanes_select(clamped, lanes_inv_mul(old, k->rot[i]), turn);
    }
    *tip_x = v_select(turns,
                      v_sub(v_add(jx, v_mul(turn.c, to_tip_x)), v_mul(turn.s, to_tip_y)),
                      *tip_x);
    *tip_y = v_select(turns,
                      v_add(v_add(jy, v_mul(turn.s, to_tip_x)), v_mul(turn.c, to_tip_y)),
                      *tip_y);
  }
  dx = v_sub(k->target_x, *tip_x);
  dy = v_sub(k->target_y, *tip_y);
  return v_add(v_mul(dx, dx), v_mul(dy, dy));
}

/* One sweep of the lanes m, root to tip or tip to root; a lane within
** tolerance stops there.  Returns the squared distance each ends at. */
static vd lanes_sweep(lanes *k, vm m, bool tip_order) {
  vd tip_x = k->jx[k->n], tip_y = k->jy[k->n], distance_sq = v_set1(0.0);
  lanes_rot world = k->base;
  vm running = m;
  int step, l, n = k->n;
  for (step = 0; step < n && m_any(running); step++) {
    int i = tip_order ? n - 1 - step : step;
    vd d = lanes_turn(k, i, k->jx[i], k->jy[i], &tip_x, &tip_y, running);
    vm reached;
    distance_sq = v_select(running, d, distance_sq);
    reached = m_and(running, v_le(d, k->tolerance_sq));
    for (l = 0; l < V_LANES; l++)
      if (m_lane(reached, l)) k->updates[l] += step + 1;
    running = m_andnot(reached, running);
    if (!tip_order) {
      /* turning joint i moves every later joint: the next one again */
      world = lanes_select(running, lanes_mul(world, k->rot[i]), world);
      k->jx[i + 1] = v_select(running, v_add(k->jx[i], v_mul(k->length[i], world.c)),
                              k->jx[i + 1]);
      k->jy[i + 1] = v_select(running, v_add(k->jy[i], v_mul(k->length[i], world.s)),
                              k->jy[i + 1]);
    }
  }
  for (l = 0; l < V_LANES; l++)
    if (m_lane(running, l)) k->updates[l] += n;
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
  lanes_rot i_turn, i_rot, j_rot;
  vd one = v_set1(1.0), px, py, dot, cross, norm, cost;
  vm go, no_i, no_j, take;
  int l;
  go = m_and(m, m_andnot(v_lt(j_turn.c, k->damping.c),
                         v_lt(v_sub(one, j_turn.c), best->cost)));
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
  go = m_and(go, m_andnot(v_lt(i_turn.c, k->damping.c), v_lt(cost, best->cost)));
  if (!m_any(go)) return m_none();
  i_rot = lanes_mul(k->rot[t->i], i_turn);
  no_i = lanes_forbidden(k, t->i, i_rot, go);
  j_rot = lanes_mul(k->rot[t->j], j_turn);
  no_j = lanes_forbidden(k, t->j, j_rot, m_andnot(no_i, go));
  take = m_andnot(m_or(no_i, no_j), go);
  if (m_any(take)) {
    best->i_rot = lanes_select(take, i_rot, best->i_rot);
    best->j_rot = lanes_select(take, j_rot, best->j_rot);
    best->cost = v_select(take, cost, best->cost);
    for (l = 0; l < V_LANES; l++) {
      if (m_lane(take, l)) {
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
  vd a2, b2, d2, gap, ab, want_sin, lo = v_set1(1e-140), hi = v_set1(1e140);
  vd zero = v_set1(0.0), small = v_set1(LANES_DEGENERATE), side;
  vm go, forbidden;
  t.i = i;
  t.j = j;
  t.ux = v_sub(k->jx[j], k->jx[i]);
  t.uy = v_sub(k->jy[j], k->jy[i]);
  t.vx = v_sub(k->jx[n], k->jx[j]);
  t.vy = v_sub(k->jy[n], k->jy[j]);
  t.wx = v_sub(k->target_x, k->jx[i]);
  t.wy = v_sub(k->target_y, k->jy[i]);
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

/* ik2d_pose_exact_step on the lanes m: the joints are those of a forward
** pass; returns the lanes it applied a pair to (their distance updated). */
static vm lanes_exact_step(lanes *k, vm m) {
  int n = k->n, i, l, p;
  lanes_pair best;
  lanes_rot saved[IK2D_MAX_BONES];
  vd after_sq;
  vm has, kept, back;
  if (n < 2 || !m_any(m)) return m_none();
  best.cost = v_set1(5.0); /* above any real cost (at most 4) */
  best.i_rot = best.j_rot = lanes_rot_of(v_set1(1.0), v_set1(0.0));
  for (l = 0; l < V_LANES; l++) best.i[l] = best.j[l] = -1;
  for (p = 0; p + 1 < n; p++) lanes_pair_try(k, p, p + 1, &best, m);
  for (p = 2; p < n; p++) lanes_pair_try(k, 0, p, &best, m);
  for (p = 1; p + 2 < n; p++) lanes_pair_try(k, p, n - 1, &best, m);
  {
    unsigned bits = 0;
    for (l = 0; l < V_LANES; l++)
      if (m_lane(m, l) && best.i[l] >= 0) bits |= 1u << l;
    has = m_from_bits(bits);
  }
  if (!m_any(has)) return has;
  for (i = 0; i < n; i++) saved[i] = k->rot[i];
  for (l = 0; l < V_LANES; l++) {
    if (!m_lane(has, l)) continue;
    k->rot[best.i[l]].c = v_set_lane(k->rot[best.i[l]].c, l, v_lane(best.i_rot.c, l));
    k->rot[best.i[l]].s = v_set_lane(k->rot[best.i[l]].s, l, v_lane(best.i_rot.s, l));
    k->rot[best.j[l]].c = v_set_lane(k->rot[best.j[l]].c, l, v_lane(best.j_rot.c, l));
    k->rot[best.j[l]].s = v_set_lane(k->rot[best.j[l]].s, l, v_lane(best.j_rot.s, l));
  }
  lanes_forward(k);
  after_sq = lanes_tip_distance_sq(k);
  kept = m_and(has, v_lt(after_sq, k->distance_sq));
  k->distance_sq = v_select(kept, after_sq, k->distance_sq);
  /* no gain (the tip already sat on the target up to rounding) */
  back = m_andnot(kept, has);
  if (m_any(back)) {
    for (i = 0; i < n; i++) k->rot[i] = lanes_select(back, saved[i], k->rot[i]);
    lanes_forward(k);
  }
  return kept;
}

/* ------------------------------------------------------------------ */
/* the run (ik2d_ccd.c's state machine, every lane at once)             */
/* ------------------------------------------------------------------ */

/* ccd_run_end for the lanes m */
static void lanes_end(lanes *k, vm m) {
  vm back = m_and(m, v_ge(k->distance_sq, k->start_sq));
  int i;
  k->done = m_or(k->done, m);
  if (m_any(back)) {
    for (i = 0; i < k->n; i++) k->rot[i] = lanes_select(back, k->start[i], k->rot[i]);
    lanes_forward(k);
  }
  k->fresh = m_or(k->fresh, m);
}

/* ccd_run_next for the lanes m (a step that did not reach) */
static void lanes_next(lanes *k, vm m) {
  vd gain = v_sub(k->before_sq, k->distance_sq);
  vm stall = v_le(gain, v_mul(v_set1(LANES_STALL_GAIN), k->before_sq));
  vm slow = m_and(k->exact,
                  m_and(v_lt(gain, v_mul(v_set1(LANES_SLOW_GAIN), k->before_sq)),
                        v_gt(k->distance_sq, v_mul(v_set1(LANES_FAR), k->tolerance_sq))));
  unsigned ends = 0;
  int l;
  vm stop = m_and(m, m_or(stall, slow));
  for (l = 0; l < V_LANES; l++) {
    if (!m_lane(m, l)) continue;
    if (m_lane(stop, l)) {
      k->used[l] = k->iteration[l];
      ends |= 1u << l;
    } else if (++k->iteration[l] > k->iterations[l]) {
      ends |= 1u << l;
    }
  }
  if (ends) lanes_end(k, m_from_bits(ends));
}

/* Marks the lanes m reached after their current iteration. */
static void lanes_reached(lanes *k, vm m) {
  int l;
  k->done = m_or(k->done, m);
  for (l = 0; l < V_LANES; l++)
    if (m_lane(m, l)) k->used[l] = k->iteration[l];
}

static void lanes_run(lanes *k) {
  vm active, reached, straight;
  int i, l;
  lanes_forward(k);
  k->distance_sq = lanes_tip_distance_sq(k);
  k->done = m_and(k->live, v_le(k->distance_sq, k->tolerance_sq));
  k->fresh = k->done;
  for (l = 0; l < V_LANES; l++) k->used[l] = m_lane(k->done, l) ? 0 : 1;
  /* out of reach: the straight pose is the answer, in one step */
  straight = lanes_straighten(k, m_andnot(k->done, k->live));
  k->done = m_or(k->done, straight);
  active = m_andnot(k->done, k->live);
  for (l = 0; l < V_LANES; l++) {
    k->iteration[l] = 1;
    if (m_lane(active, l)) k->used[l] = k->iterations[l];
  }
  k->start_sq = k->distance_sq;
  for (i = 0; i < k->n; i++) k->start[i] = k->rot[i];
  /* the joints of the pose each lane starts its iterations from (the
  ** straightened lanes are done, their joints come from the finish) */
  if (m_any(straight)) lanes_forward(k);
  while (m_any(active)) {
    vm applied, sweeping;
    k->before_sq = v_select(active, k->distance_sq, k->before_sq);
    /* an iteration is an exact step or, when none gains, a sweep */
    applied = lanes_exact_step(k, m_and(active, k->exact));
    reached = m_and(applied, v_le(k->distance_sq, k->tolerance_sq));
    k->fresh = m_or(k->fresh, reached);
    lanes_reached(k, reached);
    lanes_next(k, m_andnot(reached, applied));
    sweeping = m_andnot(applied, active);
    if (m_any(sweeping)) {
      vm root = m_andnot(k->sweep_tip, sweeping), tip = m_and(k->sweep_tip, sweeping);
      vd d = k->distance_sq;
      if (m_any(root)) d = v_select(root, lanes_sweep(k, root, false), d);
      if (m_any(tip)) d = v_select(tip, lanes_sweep(k, tip, true), d);
      k->distance_sq = v_select(sweeping, d, k->distance_sq);
      reached = m_and(sweeping, v_le(k->distance_sq, k->tolerance_sq));
      lanes_reached(k, reached);
      if (m_any(m_andnot(reached, sweeping))) {
        lanes_forward(k);
        k->distance_sq = v_select(m_andnot(reached, sweeping), lanes_tip_distance_sq(k),
                                  k->distance_sq);
        lanes_next(k, m_andnot(reached, sweeping));
      }
    }
    active = m_andnot(k->done, k->live);
  }
}

/* The entry point: CCD on count (1..V_LANES) prepared poses of the same
** bone count and no world-space limits, each ending exactly as
** ik2d_ccd_run leaves it; used[l] gets lane l's iterations. */
void IK2D_LANES_NAME(ik2d_pose *const *poses, int *used, int count);

void IK2D_LANES_NAME(ik2d_pose *const *poses, int *used, int count) {
  lanes k;
  lanes_gather(&k, poses, count);
  lanes_run(&k);
  lanes_scatter(&k, poses, used);
}
