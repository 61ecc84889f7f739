/*
** solve_at.c: ik2d_skeleton_solve_at(sk, x, y, angle) has exactly the
** state and bits of ik2d_skeleton_set_base(sk, x, y, angle) then
** ik2d_skeleton_solve(sk): twin crowds of 20- to 23-bone characters
** (torso, arms, legs with tip angles and poles), one moved and solved in
** two calls, the other in one, their whole public state (every
** transform, every chain's joints, angles, poses, base, scale and flip,
** every result) compared after every frame's solve, in six variants:
** plain, flipped (and flipping), origins off the tips with a bone that
** inherits position only and a follow solver, overlapping chains (one
** without a target, one on a bone of its own skeleton, two-bone, FABRIK,
** a weight of 0.5), a coupled group, subtrees apart in index order; and a
** cycle through targets on bones: refused by both alike, the base set.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ik2d.h"

#define NB 23
static const struct {
  int parent;
  double length, rest;
  int lim;
  double min, max;
} bones[NB] = {
    {-1, 0, 0, 0, 0, 0},         {0, 18, -1.57, 1, -0.5, 0.5}, {1, 16, 0, 1, -0.5, 0.5},
    {2, 16, 0, 1, -0.5, 0.5},    {3, 6, 0, 0, 0, 0},           {4, 12, 0, 0, 0, 0},
    {3, 8, 1.6, 0, 0, 0},        {6, 22, 0.3, 1, -2.5, 2.5},   {7, 20, -0.4, 1, -2.4, 0.4},
    {8, 6, 0, 1, -1, 1},         {3, 8, -1.6, 0, 0, 0},        {10, 22, -0.3, 1, -2.5, 2.5},
    {11, 20, 0.4, 1, -0.4, 2.4}, {12, 6, 0, 1, -1, 1},         {0, 30, 1.3, 1, -1.2, 1.2},
    {14, 28, 0.4, 1, -0.4, 2},   {15, 10, -1.7, 1, -0.9, 1.3}, {0, 30, 1.5, 1, -1.2, 1.2},
    {17, 28, 0.4, 1, -0.4, 2},   {18, 10, -1.7, 1, -0.9, 1.3}, {2, 10, 2.0, 1, -0.5, 0.5},
    {8, 7, 0.3, 1, -1, 1},       {20, 9, 0.2, 0, 0, 0},
};
/* a character: its skeleton and up to MAXS chains with a solver each */
#define MAXS 8
typedef struct {
  ik2d_skeleton *sk;
  int ns;
  ik2d_chain *ch[MAXS];
  ik2d_solver *so[MAXS];
  int from[MAXS], to[MAXS];
} scene;
static ik2d_constraint *limits[NB];
/* FNV-1a over the public state */
static unsigned long long h;
static int failed;
static void hash_bytes(const void *p, size_t n) {
  const unsigned char *c = p;
  while (n--) {
    h ^= *c++;
    h *= 1099511628211ULL;
  }
}
static void hash_double(double d) {
  hash_bytes(&d, sizeof d);
}
static void hash_scene(const scene *s) {
  int k, i, n = ik2d_skeleton_bone_count(s->sk);
  const double *t = ik2d_skeleton_transforms(s->sk);
  hash_bytes(t, sizeof(double) * 5 * (size_t)n);
  for (k = 0; k < s->ns; k++) {
    const ik2d_chain *c = s->ch[k];
    int m = ik2d_chain_bone_count(c);
    double x, y, a;
    const ik2d_result *r = ik2d_solver_result(s->so[k]);
    hash_bytes(ik2d_chain_joints(c), sizeof(double) * 2 * (size_t)(m + 1));
    hash_bytes(ik2d_chain_angles(c), sizeof(double) * (size_t)m);
    for (i = 0; i < m; i++) {
      ik2d_chain_pose(c, i, &a);
      hash_double(a);
    }
    ik2d_chain_base(c, &x, &y, &a);
    hash_double(x);
    hash_double(y);
    hash_double(a);
    hash_double(ik2d_chain_scale(c));
    i = ik2d_chain_flip(c);
    hash_bytes(&i, sizeof i);
    hash_bytes(&r->reached, sizeof r->reached);
    hash_bytes(&r->limited, sizeof r->limited);
    hash_bytes(&r->iterations, sizeof r->iterations);
    hash_double(r->distance);
  }
}
static scene make(int variant, int i) {
  scene s;
  ik2d_skeleton_bone_def d[NB];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  ik2d_solver_def set = ik2d_default_solver_def();
  int k;
  static const int limbs[5][2] = {{1, 3}, {7, 9}, {11, 13}, {14, 16}, {17, 19}};
  memset(&s, 0, sizeof s);
  for (k = 0; k < NB; k++) {
    d[k] = ik2d_default_skeleton_bone_def();
    d[k].parent = bones[k].parent;
    d[k].length = bones[k].length;
    d[k].rest = bones[k].rest;
    d[k].constraint = limits[k];
  }
  if (variant == 2 || variant == 3) { /* origins off the tips: shifts */
    d[8].at_tip = false;
    d[8].x = 20;
    d[8].y = 3;
    d[4].at_tip = false;
    d[4].x = 14;
    d[4].y = -2;
    d[12].at_tip = false;
    d[12].x = 21;
    d[12].y = -1.5;
    d[6].inherit = IK2D_INHERIT_POSITION;
  }
  if (variant == 5) {
    d[20].at_tip = false;
    d[20].x = 5;
    d[20].y = 2;
    d[21].at_tip = false;
    d[21].x = 12;
  }
  def.bones = d;
  def.bone_count = variant == 5 ? NB : 20;
  def.x = 40.0 * i;
  def.y = 300;
  def.flip = variant == 1;
  s.sk = malloc(ik2d_skeleton_size(NB));
  if (ik2d_skeleton_init(s.sk, ik2d_skeleton_size(NB), &def, NULL)) abort();
  set.iterations = 10;
  set.tolerance = 0.1;
  for (k = 0; k < 5; k++) {
    s.from[k] = limbs[k][0];
    s.to[k] = limbs[k][1];
  }
  s.ns = 5;
  if (variant == 3) { /* overlap: forearm+hand and neck+head, no target */
    s.from[5] = 8;
    s.to[5] = 9;
    s.from[6] = 4;
    s.to[6] = 5;
    s.ns = 7;
  }
  if (variant == 4) { /* a coupled group: two arms from the spine, together */
    s.from[1] = 2;
    s.to[1] = 9;
    s.from[2] = 2;
    s.to[2] = 13;
    s.from[0] = 1;
    s.to[0] = 1;
  }
  if (variant == 5) { /* subtrees apart in index order */
    s.from[5] = 20;
    s.to[5] = 22;
    s.from[6] = 7;
    s.to[6] = 21;
    s.ns = 7;
  }
  for (k = 0; k < s.ns; k++) {
    int n = 1, b; /* the path's bones, to up to from */
    for (b = s.to[k]; b > s.from[k]; b = bones[b].parent) n++;
    s.ch[k] = malloc(ik2d_skeleton_chain_size(n));
    s.so[k] = malloc(ik2d_solver_size(n));
    {
      int st = ik2d_skeleton_chain_init(s.ch[k], ik2d_skeleton_chain_size(n), s.sk, s.from[k],
                                        s.to[k], NULL);
      if (st) {
        fprintf(stderr, "v%d chain %d: %s\n", variant, k, ik2d_status_message(st));
        abort();
      }
    }
    {
      int st = ik2d_solver_init(s.so[k], ik2d_solver_size(n), s.ch[k], &set);
      if (st) {
        fprintf(stderr, "v%d solver %d: %d\n", variant, k, st);
        abort();
      }
    }
  }
  if (variant == 3) {
    ik2d_solver_set_together(s.so[5], false);
    ik2d_solver_set_method(s.so[5], IK2D_TWO_BONE);
    ik2d_solver_set_weight(s.so[1], 0.5);
    ik2d_solver_set_method(s.so[2], IK2D_FABRIK);
    ik2d_solver_set_target_bone(s.so[2], s.sk, 5, 3, 4, NULL);
  }
  if (variant == 4) {
    ik2d_solver_set_together(s.so[1], true);
    ik2d_solver_set_together(s.so[2], true);
  }
  if (variant == 2) ik2d_solver_set_method(s.so[3], IK2D_FOLLOW);
  return s;
}
/* frame f's inputs; at: the base through ik2d_skeleton_solve_at */
static int frame(scene *s, int variant, int i, int f, int at) {
  double x = 40.0 * i, ph = 0.05 * f + 0.37 * i, sn = sin(ph), co = cos(ph);
  double bx = x + 3 * sn, by = 300 + 1.5 * sin(2 * ph), px = bx + 40, py = by + 28;
  double ang = variant >= 1 ? 0.2 * sin(0.3 * ph) : 0;
  int reached = -1;
  if (!at) ik2d_skeleton_set_base(s->sk, bx, by, ang);
  if (variant == 1 && f % 7 == 3) ik2d_skeleton_set_flip(s->sk, f % 2);
  if (f % 5 == 2) ik2d_skeleton_set_pose(s->sk, 3, 0.1 * sn);
  ik2d_solver_set_target(s->so[0], bx + 5 * sin(0.7 * ph), by - 48.5 + co);
  if (variant != 6) ik2d_solver_set_target(s->so[1], bx + 30 + 10 * co, by - 38 + 12 * sn);
  if (variant != 3 && variant != 6)
    ik2d_solver_set_target(s->so[2], bx - 28 + 10 * cos(1.1 * ph), by - 35 + 12 * sin(1.3 * ph));
  ik2d_solver_set_target(s->so[3], x + 12 + 14 * sn, 352 - 5 * fmax(co, 0));
  ik2d_solver_set_tip_angle(s->so[3], 0.15 * sin(0.5 * ph), 1);
  ik2d_solver_set_pole(s->so[3], px, py);
  ik2d_solver_set_target(s->so[4], x + 12 - 14 * sn, 352 - 5 * fmax(-co, 0));
  ik2d_solver_set_tip_angle(s->so[4], 0.15 * sin(0.5 * ph + 1), variant >= 2 ? 0.6 : 1);
  ik2d_solver_set_pole(s->so[4], px, py);
  if (variant == 5) {
    ik2d_solver_set_target(s->so[5], bx - 20 + 5 * co, by - 20);
    ik2d_solver_set_target(s->so[6], bx + 20 + 5 * sn, by - 40);
  }
  if (variant == 3) ik2d_solver_set_target(s->so[5], bx + 40 + 8 * co, by - 30 + 9 * sn);
  if (at) {
    ik2d_status status = ik2d_skeleton_solve_at(s->sk, bx, by, ang, &reached);
    if (status != IK2D_OK) reached = status == IK2D_ERR_TARGET_CYCLE ? -1 : -2;
  } else {
    reached = ik2d_skeleton_solve(s->sk);
  }
  return reached;
}

static unsigned long long state_hash(const scene *s) {
  h = 1469598103934665603ULL;
  hash_scene(s);
  return h;
}

static void check(int ok, const char *what, int variant, int frame_index) {
  if (ok) return;
  failed++;
  printf("not ok %s (variant %d, frame %d)\n", what, variant, frame_index);
}

static void release_scene(scene *s) {
  int k;
  for (k = 0; k < s->ns; k++) ik2d_solver_release(s->so[k]);
  for (k = 0; k < s->ns; k++) ik2d_chain_release(s->ch[k]);
  ik2d_skeleton_release(s->sk);
  for (k = 0; k < s->ns; k++) {
    free(s->so[k]);
    free(s->ch[k]);
  }
  free(s->sk);
}

int main(void) {
  int v, i, f, k, frames = 60, compared = 0;
  for (k = 0; k < NB; k++) {
    ik2d_constraint_def cd = ik2d_default_constraint_def();
    if (!bones[k].lim) continue;
    cd.min = bones[k].min;
    cd.max = bones[k].max;
    limits[k] = malloc(ik2d_constraint_size());
    ik2d_constraint_init(limits[k], ik2d_constraint_size(), &cd);
  }
  for (v = 0; v <= 6; v++) {
    for (i = 1; i <= 3; i++) {
      scene a = make(v == 6 ? 4 : v, i), b = make(v == 6 ? 4 : v, i);
      if (v == 6) {
        /* each arm's target on the other's hand, solved apart: a cycle */
        ik2d_solver_set_target_bone(a.so[1], a.sk, 13, 1, 0, NULL);
        ik2d_solver_set_target_bone(a.so[2], a.sk, 9, 1, 0, NULL);
        ik2d_solver_set_target_bone(b.so[1], b.sk, 13, 1, 0, NULL);
        ik2d_solver_set_target_bone(b.so[2], b.sk, 9, 1, 0, NULL);
        ik2d_solver_set_together(a.so[1], false);
        ik2d_solver_set_together(b.so[1], false);
      }
      for (f = 0; f < frames; f++) {
        int ra = frame(&a, v, i, f, 0), rb = frame(&b, v, i, f, 1);
        check(ra == rb, "the same count (or refusal)", v, f);
        if (v == 6) check(ra == -1, "the cycle refused", v, f);
        check(state_hash(&a) == state_hash(&b), "the same state bit for bit", v, f);
        compared++;
      }
      release_scene(&a);
      release_scene(&b);
    }
  }
  printf("%s ik2d_skeleton_solve_at: the state and bits of set_base then solve, "
         "%d frames of 7 variants compared (%d differ)\n",
         failed == 0 ? "ok" : "not ok", compared, failed);
  return failed;
}
