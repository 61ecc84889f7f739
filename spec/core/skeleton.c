/*
** skeleton.c: the skeleton layer over the core alone.
**
**  - a skeleton that is one path of bones gives bit for bit the results
**    of the same standalone chain (angles, joints, world angles, reached,
**    distance, iterations) with every method, weights 1 and 0.6, flipped
**    or not, poses set between solves, solved alone or by the skeleton;
**  - every bone's transform is the forward kinematics of the result
**    angles (origins off the tips, a position-only bone, a pivot, a
**    flipped base), and a skeleton chain's joints are its path's origins;
**  - the goal case: a torso of 2 bones and two 2-bone arms from its top
**    (limits as in the example), both hands' targets from a random
**    pose of the whole body within the limits, 20 iterations from the rest
**    pose: both hands reach in >= 95% of 2000 cases solved together, and
**    at most one in most cases with together = false;
**  - ik2d_skeletons_solve gives the bits of the skeletons solved one after
**    another (NULL entries skipped, a skeleton listed twice solved twice),
**    and a bad base refuses, naming it, before anything changes.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ik2d.h"

#define PI 3.14159265358979323846

static int failed;

static void check(int ok, const char *what, double value) {
  printf("%s %s (%.6g)\n", ok ? "ok" : "not ok", what, value);
  if (!ok) failed = 1;
}

static void *memory(size_t size) {
  void *p = malloc(size);
  if (p == NULL) abort();
  return p;
}

static unsigned long long random_state = 88172645463325252ull;
static double uniform(void) {
  random_state ^= random_state << 13;
  random_state ^= random_state >> 7;
  random_state ^= random_state << 17;
  return (double)(random_state >> 11) * (1.0 / 9007199254740992.0);
}

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Field by field: a memcmp of the structs would compare their padding,
** whatever the solver's memory held there. */
static int same_result(const ik2d_result *a, const ik2d_result *b) {
  return a->reached == b->reached && a->limited == b->limited &&
         a->iterations == b->iterations && same(a->distance, b->distance);
}

/* ------------------------------------------------------------------ */
/* one path = one chain                                                 */
/* ------------------------------------------------------------------ */

static int path_differences(ik2d_method method, double weight, int via_skeleton) {
  enum { N = 3 };
  ik2d_bone_def bones[N] = {{60, 0.3, NULL}, {50, -0.2, NULL}, {20, 0.1, NULL}};
  ik2d_skeleton_bone_def sbones[N];
  ik2d_chain_def cdef = ik2d_default_chain_def();
  ik2d_skeleton_def sdef = ik2d_default_skeleton_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  ik2d_constraint_def limits = ik2d_default_constraint_def();
  ik2d_constraint *elbow = memory(ik2d_constraint_size());
  ik2d_chain *chain, *path;
  ik2d_skeleton *sk;
  ik2d_solver *alone, *linked;
  int i, frame, differences = 0, count = method == IK2D_TWO_BONE ? 2 : N;
  limits.min = -0.4;
  limits.max = 1.9;
  ik2d_constraint_init(elbow, ik2d_constraint_size(), &limits);
  bones[1].constraint = elbow;
  for (i = 0; i < N; i++) {
    sbones[i] = ik2d_default_skeleton_bone_def();
    sbones[i].parent = i - 1;
    sbones[i].length = bones[i].length;
    sbones[i].rest = bones[i].rest;
    sbones[i].constraint = bones[i].constraint;
  }
  cdef.bone_count = sdef.bone_count = count;
  cdef.bones = bones;
  sdef.bones = sbones;
  cdef.x = sdef.x = 400.0;
  cdef.y = sdef.y = 300.0;
  cdef.angle = sdef.angle = 0.2;
  chain = memory(ik2d_chain_size(count));
  sk = memory(ik2d_skeleton_size(count));
  path = memory(ik2d_skeleton_chain_size(count));
  alone = memory(ik2d_solver_size(count));
  linked = memory(ik2d_solver_size(count));
  settings.method = method;
  settings.weight = weight;
  if (ik2d_chain_init(chain, ik2d_chain_size(count), &cdef) != IK2D_OK ||
      ik2d_skeleton_init(sk, ik2d_skeleton_size(count), &sdef, NULL) != IK2D_OK ||
      ik2d_skeleton_chain_init(path, ik2d_skeleton_chain_size(count), sk, 0, count - 1,
                               NULL) != IK2D_OK ||
      ik2d_solver_init(alone, ik2d_solver_size(count), chain, &settings) != IK2D_OK ||
      ik2d_solver_init(linked, ik2d_solver_size(count), path, &settings) != IK2D_OK)
    return -1;
  for (frame = 0; frame < 600; frame++) {
    double tx = 420 + 90 * cos(frame * 0.05), ty = 310 + 80 * sin(frame * 0.031);
    const double *joints = ik2d_chain_joints(chain), *t = ik2d_skeleton_transforms(sk);
    if (frame % 50 == 7) {
      ik2d_chain_set_pose(chain, 1, 0.01 * frame);
      ik2d_skeleton_set_pose(sk, 1, 0.01 * frame);
    }
    if (frame == 300) {
      ik2d_chain_set_flip(chain, true);
      ik2d_skeleton_set_flip(sk, true);
    }
    if (frame % 100 == 42) {
      ik2d_chain_set_base(chain, tx - 30, ty + 20, 0.01 * frame);
      ik2d_skeleton_set_base(sk, tx - 30, ty + 20, 0.01 * frame);
    }
    ik2d_solver_set_target(alone, tx, ty);
    ik2d_solver_set_target(linked, tx, ty);
    ik2d_solver_solve(alone);
    if (via_skeleton) ik2d_skeleton_solve(sk);
    else ik2d_solver_solve(linked);
    differences += !same_result(ik2d_solver_result(alone), ik2d_solver_result(linked));
    differences += memcmp(joints, ik2d_chain_joints(path), 2 * (count + 1) * sizeof(double)) != 0;
    for (i = 0; i < count; i++) {
      double a, b, wa;
      ik2d_chain_angle(chain, i, &a);
      ik2d_skeleton_angle(sk, i, &b);
      ik2d_chain_world_angle(chain, i, &wa);
      differences += !same(a, b) + !same(t[5 * i], joints[2 * i]) +
                     !same(t[5 * i + 1], joints[2 * i + 1]) + !same(t[5 * i + 2], wa) +
                     !same(t[5 * i + 3], joints[2 * i + 2]) +
                     !same(t[5 * i + 4], joints[2 * i + 3]);
    }
  }
  ik2d_solver_release(linked);
  ik2d_chain_release(path);
  free(elbow);
  free(chain);
  free(sk);
  free(path);
  free(alone);
  free(linked);
  return differences;
}

/* ------------------------------------------------------------------ */
/* forward kinematics                                                   */
/* ------------------------------------------------------------------ */

static double fk_error(void) {
  enum { N = 8 };
  /* a pivot root, a spine, a chest, a head that keeps its own angle, an
  ** arm from a shoulder point off the chest's tip, its hand, a tail from
  ** the pivot's origin turned back, and a bone at its parent's origin */
  static const int parent[N] = {-1, 0, 1, 2, 2, 4, 0, 6};
  static const double length[N] = {0, 40, 30, 12, 30, 25, 20, 0};
  static const double ox[N] = {0, 0, 0, 0, 26, 0, -4, 0}, oy[N] = {0, 0, 0, 0, 9, 0, 3, 0};
  static const int at_tip[N] = {1, 1, 1, 1, 0, 1, 0, 0};
  ik2d_skeleton_bone_def bones[N];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  ik2d_skeleton *sk = memory(ik2d_skeleton_size(N));
  ik2d_chain *arm = memory(ik2d_skeleton_chain_size(4)), *tail = memory(ik2d_skeleton_chain_size(2));
  ik2d_solver *reach = memory(ik2d_solver_size(4)), *wag = memory(ik2d_solver_size(2));
  ik2d_solver_def settings = ik2d_default_solver_def();
  double worst = 0.0;
  int i, round;
  for (i = 0; i < N; i++) {
    bones[i] = ik2d_default_skeleton_bone_def();
    bones[i].parent = parent[i];
    bones[i].length = length[i];
    bones[i].rest = 0.3 * i - 1.0;
    bones[i].at_tip = at_tip[i];
    bones[i].x = ox[i];
    bones[i].y = oy[i];
  }
  bones[3].inherit = IK2D_INHERIT_POSITION;
  def.bone_count = N;
  def.bones = bones;
  def.x = 100;
  def.y = 50;
  def.angle = -1.2;
  if (ik2d_skeleton_init(sk, ik2d_skeleton_size(N), &def, NULL) != IK2D_OK ||
      ik2d_skeleton_chain_init(arm, ik2d_skeleton_chain_size(4), sk, 1, 5, NULL) != IK2D_OK ||
      ik2d_skeleton_chain_init(tail, ik2d_skeleton_chain_size(2), sk, 6, 7, NULL) != IK2D_OK ||
      ik2d_solver_init(reach, ik2d_solver_size(4), arm, &settings) != IK2D_OK ||
      ik2d_solver_init(wag, ik2d_solver_size(2), tail, &settings) != IK2D_OK)
    return 1e300;
  for (round = 0; round < 400; round++) {
    double x[N], y[N], w[N], bx, by, ba;
    const double *t = ik2d_skeleton_transforms(sk);
    int flip = round % 3 == 1, k;
    ik2d_skeleton_set_flip(sk, flip);
    ik2d_skeleton_set_base(sk, 100 + round, 50, -1.2 + 0.01 * round);
    for (i = 0; i < N; i++) ik2d_skeleton_set_pose(sk, i, 6 * uniform() - 3);
    ik2d_solver_set_target(reach, 100 + round + 80 * uniform(), 80 * uniform());
    ik2d_solver_set_target(wag, 100 + round + 30 * uniform(), 50 + 30 * uniform());
    if (round % 2) ik2d_skeleton_solve(sk);
    else ik2d_solver_solve(reach);
    ik2d_skeleton_base(sk, &bx, &by, &ba);
    for (i = 0; i < N; i++) {
      double a, px = bx, py = by, pw = ba, sx = ox[i], sy = oy[i], e;
      int p = parent[i];
      ik2d_skeleton_angle(sk, i, &a);
      if (p >= 0) {
        px = x[p];
        py = y[p];
        pw = w[p];
        if (at_tip[i]) sx = length[p], sy = 0;
      } else if (at_tip[i]) {
        sx = sy = 0;
      }
      x[i] = px + cos(pw) * sx - sin(pw) * sy;
      y[i] = py + sin(pw) * sx + cos(pw) * sy;
      w[i] = (i == 3 ? ba : pw) + a;
      e = hypot((flip ? 2 * bx - x[i] : x[i]) - t[5 * i], y[i] - t[5 * i + 1]);
      e = fmax(e, hypot((flip ? 2 * bx - x[i] - length[i] * cos(w[i]) : x[i] + length[i] * cos(w[i])) -
                            t[5 * i + 3],
                        y[i] + length[i] * sin(w[i]) - t[5 * i + 4]));
      e = fmax(e, fabs(remainder((flip ? PI - w[i] : w[i]) - t[5 * i + 2], 2 * PI)));
      if (e > worst) worst = e;
    }
    /* a skeleton chain's joints are its path's origins, then the tip */
    for (k = 0; k < 4; k++) {
      static const int path[4] = {1, 2, 4, 5};
      const double *j = ik2d_chain_joints(arm);
      double e = hypot(j[2 * k] - t[5 * path[k]], j[2 * k + 1] - t[5 * path[k] + 1]);
      if (e > worst) worst = e;
    }
  }
  ik2d_solver_release(reach);
  ik2d_solver_release(wag);
  ik2d_chain_release(arm);
  ik2d_chain_release(tail);
  free(reach);
  free(wag);
  free(arm);
  free(tail);
  free(sk);
  return worst;
}

/* ------------------------------------------------------------------ */
/* the goal case                                                        */
/* ------------------------------------------------------------------ */

/* Share of cases where both hands reach (*one: where exactly one does). */
static double two_hands(int together, double *one) {
  enum { HIP, SPINE, CHEST, ARM_L, HAND_L, ARM_R, HAND_R, N, CASES = 2000 };
  static const int parent[N] = {-1, HIP, SPINE, CHEST, ARM_L, CHEST, ARM_R};
  static const double length[N] = {0, 40, 30, 30, 25, 30, 25};
  static const double rest[N] = {0, -1.57, 0, 2.0, 0, -2.0, 0};
  static const double lo[N] = {0, 0, 0, -1, 0, -2, 0}, hi[N] = {0, 0, 0, 2, 0, 1, 0};
  ik2d_skeleton_bone_def bones[N];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  ik2d_constraint *limit[N] = {NULL};
  ik2d_skeleton *sk = memory(ik2d_skeleton_size(N));
  ik2d_chain *left = memory(ik2d_skeleton_chain_size(4)), *right = memory(ik2d_skeleton_chain_size(4));
  ik2d_solver *l = memory(ik2d_solver_size(4)), *r = memory(ik2d_solver_size(4));
  int i, c, both = 0, single = 0;
  for (i = 0; i < N; i++) {
    bones[i] = ik2d_default_skeleton_bone_def();
    bones[i].parent = parent[i];
    bones[i].length = length[i];
    bones[i].rest = rest[i];
    if (i == ARM_L || i == ARM_R) {
      ik2d_constraint_def d = ik2d_default_constraint_def();
      d.min = lo[i];
      d.max = hi[i];
      limit[i] = memory(ik2d_constraint_size());
      ik2d_constraint_init(limit[i], ik2d_constraint_size(), &d);
      bones[i].constraint = limit[i];
    }
  }
  def.bone_count = N;
  def.bones = bones;
  def.x = 400;
  def.y = 300;
  settings.iterations = 20;
  settings.effector.together = together;
  if (ik2d_skeleton_init(sk, ik2d_skeleton_size(N), &def, NULL) != IK2D_OK ||
      ik2d_skeleton_chain_init(left, ik2d_skeleton_chain_size(4), sk, SPINE, HAND_L, NULL) ||
      ik2d_skeleton_chain_init(right, ik2d_skeleton_chain_size(4), sk, SPINE, HAND_R, NULL) ||
      ik2d_solver_init(l, ik2d_solver_size(4), left, &settings) != IK2D_OK ||
      ik2d_solver_init(r, ik2d_solver_size(4), right, &settings) != IK2D_OK)
    return -1;
  for (c = 0; c < CASES; c++) {
    double lx, ly, rx, ry;
    int a, b;
    ik2d_skeleton_reset(sk);
    for (i = SPINE; i < N; i++)
      ik2d_skeleton_set_pose(sk, i, limit[i] != NULL ? rest[i] + lo[i] + (hi[i] - lo[i]) * uniform()
                                                     : rest[i] + (2 * uniform() - 1) * (i == SPINE || i == CHEST ? 0.8 : 3.1));
    ik2d_skeleton_tip(sk, HAND_L, &lx, &ly);
    ik2d_skeleton_tip(sk, HAND_R, &rx, &ry);
    ik2d_skeleton_reset(sk);
    ik2d_solver_forget(l);
    ik2d_solver_forget(r);
    ik2d_solver_set_target(l, lx, ly);
    ik2d_solver_set_target(r, rx, ry);
    ik2d_skeleton_solve(sk);
    a = ik2d_solver_result(l)->reached;
    b = ik2d_solver_result(r)->reached;
    both += a && b;
    single += a != b;
  }
  ik2d_solver_release(l);
  ik2d_solver_release(r);
  ik2d_chain_release(left);
  ik2d_chain_release(right);
  free(l);
  free(r);
  free(left);
  free(right);
  free(sk);
  free(limit[ARM_L]);
  free(limit[ARM_R]);
  *one = (double)single / CASES;
  return (double)both / CASES;
}

/* ------------------------------------------------------------------ */
/* many skeletons in one call                                           */
/* ------------------------------------------------------------------ */

/* A 3-bone skeleton at x whose one path has a plain CCD solver. */
static ik2d_skeleton *one_path(double x, ik2d_solver **solver, ik2d_chain **chain) {
  enum { N = 3 };
  ik2d_skeleton_bone_def bones[N];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  ik2d_skeleton *sk = memory(ik2d_skeleton_size(N));
  ik2d_chain *path = memory(ik2d_skeleton_chain_size(N));
  int i;
  *chain = path;
  for (i = 0; i < N; i++) {
    bones[i] = ik2d_default_skeleton_bone_def();
    bones[i].parent = i - 1;
    bones[i].length = 30.0 - 5.0 * i;
    bones[i].rest = 0.3;
  }
  def.bone_count = N;
  def.bones = bones;
  def.x = x;
  def.y = 300.0;
  *solver = memory(ik2d_solver_size(N));
  if (ik2d_skeleton_init(sk, ik2d_skeleton_size(N), &def, NULL) != IK2D_OK ||
      ik2d_skeleton_chain_init(path, ik2d_skeleton_chain_size(N), sk, 0, N - 1, NULL) != IK2D_OK ||
      ik2d_solver_init(*solver, ik2d_solver_size(N), path, &settings) != IK2D_OK) {
    printf("not ok a one-path skeleton could not be made\n");
    exit(1);
  }
  return sk;
}

/* Differences between frames of 3 skeletons solved by ik2d_skeletons_solve
** (the list a, b, NULL, c, a: a twice) and the same solved one by one. */
static int together_differences(void) {
  enum { K = 3 };
  ik2d_skeleton *mine[K], *theirs[K], *list[5];
  ik2d_solver *my_solver[K], *their_solver[K];
  ik2d_chain *my_path[K], *their_path[K];
  double bases[15];
  int i, frame, differences = 0;
  for (i = 0; i < K; i++) {
    mine[i] = one_path(100.0 * i, &my_solver[i], &my_path[i]);
    theirs[i] = one_path(100.0 * i, &their_solver[i], &their_path[i]);
  }
  list[0] = mine[0];
  list[1] = mine[1];
  list[2] = NULL;
  list[3] = mine[2];
  list[4] = mine[0];
  for (frame = 0; frame < 40; frame++) {
    int reached = -1, expected = 0, n;
    static const int order[5] = {0, 1, -1, 2, 0};
    for (i = 0; i < K; i++) {
      double tx = 100.0 * i + 20 + 30 * cos(0.2 * frame + i), ty = 280 + 25 * sin(0.3 * frame);
      ik2d_solver_set_target(my_solver[i], tx, ty);
      ik2d_solver_set_target(their_solver[i], tx, ty);
    }
    for (i = 0; i < 5; i++) {
      bases[3 * i] = 100.0 * (order[i] < 0 ? 0 : order[i]) + 2 * sin(0.1 * frame + i);
      bases[3 * i + 1] = 300 + cos(0.1 * frame);
      bases[3 * i + 2] = 0.01 * frame * (i == 4 ? -1 : 1);
    }
    if (ik2d_skeletons_solve(list, 5, frame % 2 ? bases : NULL, &reached, NULL) != IK2D_OK)
      return -1;
    for (i = 0; i < 5; i++) {
      if (order[i] < 0) continue;
      if (frame % 2) {
        ik2d_skeleton_solve_at(theirs[order[i]], bases[3 * i], bases[3 * i + 1],
                               bases[3 * i + 2], &n);
      } else {
        n = ik2d_skeleton_solve(theirs[order[i]]);
      }
      expected += n;
    }
    differences += reached != expected;
    for (i = 0; i < K; i++) {
      differences += memcmp(ik2d_skeleton_transforms(mine[i]), ik2d_skeleton_transforms(theirs[i]),
                            3 * 5 * sizeof(double)) != 0;
      differences += !same_result(ik2d_solver_result(my_solver[i]),
                                  ik2d_solver_result(their_solver[i]));
    }
  }
  /* a bad base: refused, named, nothing changed */
  {
    double before[15];
    int bad = -1, reached = 7;
    memcpy(before, ik2d_skeleton_transforms(mine[1]), sizeof before);
    bases[4] = NAN;
    differences += ik2d_skeletons_solve(list, 5, bases, &reached, &bad) == IK2D_OK;
    differences += bad != 1 || reached != 7;
    differences += memcmp(before, ik2d_skeleton_transforms(mine[1]), sizeof before) != 0;
    differences += ik2d_skeletons_solve(NULL, 5, NULL, &reached, NULL) != IK2D_ERR_NULL;
  }
  for (i = 0; i < K; i++) {
    ik2d_solver_release(my_solver[i]);
    ik2d_solver_release(their_solver[i]);
    ik2d_chain_release(my_path[i]);
    ik2d_chain_release(their_path[i]);
    free(my_solver[i]);
    free(their_solver[i]);
    free(my_path[i]);
    free(their_path[i]);
    free(mine[i]);
    free(theirs[i]);
  }
  return differences;
}

int main(void) {
  static const ik2d_method methods[3] = {IK2D_CCD, IK2D_FABRIK, IK2D_TWO_BONE};
  static const char *const names[3] = {"ccd", "fabrik", "two_bone"};
  double one, together, apart, worst;
  int m, via, w, d;
  for (m = 0; m < 3; m++)
    for (w = 0; w < 2; w++)
      for (via = 0; via < 2; via++) {
        char what[160];
        d = path_differences(methods[m], w ? 0.6 : 1.0, via);
        snprintf(what, sizeof what, "a one-path skeleton is the same chain bit for bit: %s, "
                 "weight %s, solved %s", names[m], w ? "0.6" : "1", via ? "by the skeleton" : "alone");
        check(d == 0, what, d);
      }
  d = together_differences();
  check(d == 0, "many skeletons in one call: the bits of one at a time, twice listed, NULL "
        "skipped, a bad base refused", d);
  worst = fk_error();
  check(worst <= 1e-9, "every transform is the forward kinematics of the result angles", worst);
  together = two_hands(1, &one);
  check(together >= 0.95, "goal: both hands reach together in >= 95% of cases", 100 * together);
  apart = two_hands(0, &one);
  check(apart < 0.5 && one > 0.5, "goal: with together = false at most one hand reaches in most cases",
        100 * apart);
  return failed;
}
