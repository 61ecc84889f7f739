/*
** golden.c: a hash of every output of many solves, to prove that a
** change to the core keeps the same bits.
**
** A fixed generator builds chains (1..64 bones, limits of every kind:
** none, one-sided, inverted, pinned, full), solvers (every method and
** option) and sequences of frames (tracking a moving target, random
** jumps, targets out of reach and on the base, pose and base edits,
** weights between 0 and 1, flips), solves them one by one and in
** batches, and hashes (FNV-1a, 64 bits) the bytes of every angle, world
** angle, joint, scale, distance, reached flag and iteration count.  It
** prints one line per part and the total:
**   joints  <hash>   joints, scale, distance, reached, iterations
**   angles  <hash>   result and world angles
**   effectors <hash> the same for solves with the effector controls
**                    (tip angles, poles, world-space limits, Spine's
**                    softness, one-bone stretch and compress, follow) and
**                    springs, one by one and in batches
**   total   <hash>
** spec/golden_spec.lua compares them with the recorded values.
**
** The program talks to the core only through the adapter below, so a
** new API needs a new adapter, not new scenes.
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ik2d.h"
#include "ik2d_math.h" /* the core's own sin, cos and hypot: inputs with the same bits everywhere */

/* The inputs this program computes stay the same whatever the build's
** flags (the golden spec also builds it in GNU C mode for this machine,
** where a * b + c may be fused): only the core is under test. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* ------------------------------------------------------------------ */
/* adapter: the core's API                                              */
/* ------------------------------------------------------------------ */

#define G_MAX_BONES 64

typedef struct g_chain {
  ik2d_chain *chain;
  ik2d_constraint *limits[G_MAX_BONES];
} g_chain;

typedef struct g_solver {
  ik2d_solver *solver;
} g_solver;

enum { G_CCD, G_FABRIK, G_TWO_BONE };

typedef struct g_options {
  int method, iterations, warm_start, exact, sweep_tip, bend;
  double tolerance, weight, damping, softness, stretch;
} g_options;

static void g_check(ik2d_status status) {
  if (status != IK2D_OK) {
    fprintf(stderr, "golden: %s\n", ik2d_status_message(status));
    abort();
  }
}

/* the objects of a scene are made again for every scene: their memory
** is freed first (every object is allocated, as a C game would) */
static void g_chain_init(g_chain *c, int n, const double *lengths,
                         const double *rests) {
  ik2d_bone_def bones[G_MAX_BONES];
  ik2d_chain_def def = ik2d_default_chain_def();
  size_t size = ik2d_chain_size(n);
  int i;
  for (i = 0; i < G_MAX_BONES; i++) {
    free(c->limits[i]);
    c->limits[i] = NULL;
  }
  for (i = 0; i < n; i++) {
    bones[i].length = lengths[i];
    bones[i].rest = rests[i];
    bones[i].constraint = NULL;
  }
  def.bone_count = n;
  def.bones = bones;
  free(c->chain);
  c->chain = malloc(size);
  g_check(ik2d_chain_init(c->chain, size, &def));
}

static void g_chain_limit_in(g_chain *c, int i, double min, double max,
                             int invert, int world) {
  ik2d_constraint_def def = ik2d_default_constraint_def();
  size_t size = ik2d_constraint_size();
  def.min = min;
  def.max = max;
  def.invert = invert != 0;
  def.space = world ? IK2D_SPACE_WORLD : IK2D_SPACE_PARENT;
  c->limits[i] = malloc(size);
  g_check(ik2d_constraint_init(c->limits[i], size, &def));
  g_check(ik2d_chain_set_constraint(c->chain, i, c->limits[i]));
}

static void g_chain_limit(g_chain *c, int i, double min, double max,
                          int invert) {
  g_chain_limit_in(c, i, min, max, invert, 0);
}

static void g_chain_base(g_chain *c, double x, double y, double angle) {
  g_check(ik2d_chain_set_base(c->chain, x, y, angle));
}

static void g_chain_flip(g_chain *c, int flip) {
  g_check(ik2d_chain_set_flip(c->chain, flip != 0));
}

static void g_chain_pose(g_chain *c, int i, double angle) {
  g_check(ik2d_chain_set_pose(c->chain, i, angle));
}

static void g_solver_init(g_solver *s, g_chain *c, const g_options *o) {
  ik2d_solver_def def = ik2d_default_solver_def();
  size_t size = ik2d_solver_size(ik2d_chain_bone_count(c->chain));
  def.method = o->method == G_FABRIK ? IK2D_FABRIK
             : o->method == G_TWO_BONE ? IK2D_TWO_BONE
                                       : IK2D_CCD;
  def.iterations = o->iterations;
  def.tolerance = o->tolerance;
  def.weight = o->weight;
  def.damping = o->damping;
  def.bend = o->bend;
  def.softness = o->softness;
  def.stretch = o->stretch;
  def.warm_start = o->warm_start != 0;
  def.exact = o->exact != 0;
  def.sweep = o->sweep_tip ? IK2D_SWEEP_TIP : IK2D_SWEEP_ROOT;
  free(s->solver);
  s->solver = malloc(size);
  g_check(ik2d_solver_init(s->solver, size, c->chain, &def));
}

static void g_solver_target(g_solver *s, double x, double y) {
  g_check(ik2d_solver_set_target(s->solver, x, y));
}

static void g_solver_weight(g_solver *s, double w) {
  g_check(ik2d_solver_set_weight(s->solver, w));
}

static void g_solver_forget(g_solver *s) { ik2d_solver_forget(s->solver); }

static int g_solve(g_solver *s) { return ik2d_solver_solve(s->solver); }

static int g_solve_batch(g_solver **s, int count) {
  ik2d_solver *list[256];
  int i;
  for (i = 0; i < count; i++) list[i] = s[i]->solver;
  return ik2d_solve_batch(list, count);
}

/* outputs */
static int g_count(const g_chain *c) { return ik2d_chain_bone_count(c->chain); }
static double g_angle(const g_chain *c, int i) {
  double a;
  g_check(ik2d_chain_angle(c->chain, i, &a));
  return a;
}
static double g_world_angle(const g_chain *c, int i) {
  double a;
  g_check(ik2d_chain_world_angle(c->chain, i, &a));
  return a;
}
static double g_joint_x(const g_chain *c, int i) { return ik2d_chain_joints(c->chain)[2 * i]; }
static double g_joint_y(const g_chain *c, int i) { return ik2d_chain_joints(c->chain)[2 * i + 1]; }
static double g_scale(const g_chain *c) { return ik2d_chain_scale(c->chain); }
static int g_reached(const g_solver *s) { return ik2d_solver_result(s->solver)->reached; }
static double g_distance(const g_solver *s) { return ik2d_solver_result(s->solver)->distance; }
static int g_iterations(const g_solver *s) { return ik2d_solver_result(s->solver)->iterations; }

/* ------------------------------------------------------------------ */
/* hashing                                                              */
/* ------------------------------------------------------------------ */

typedef struct g_hash {
  uint64_t joints, angles, effectors;
} g_hash;

static void hash_bytes(uint64_t *h, const void *data, size_t n) {
  const unsigned char *p = (const unsigned char *)data;
  size_t k;
  for (k = 0; k < n; k++) {
    *h ^= p[k];
    *h *= 1099511628211ULL;
  }
}

/* `golden dump` prints every value hashed, to measure how far a change
** that alters bits on purpose moves them (diff two dumps). */
static FILE *dump_to = NULL;

static void hash_double(uint64_t *h, double v) {
  hash_bytes(h, &v, sizeof v);
  if (dump_to != NULL) fprintf(dump_to, "%.17g\n", v);
}

static void hash_int(uint64_t *h, int v) {
  hash_bytes(h, &v, sizeof v);
  if (dump_to != NULL) fprintf(dump_to, "%d\n", v);
}

static void hash_outcome(g_hash *h, const g_chain *c, const g_solver *s,
                         int returned) {
  int i, n = g_count(c);
  for (i = 0; i <= n; i++) {
    hash_double(&h->joints, g_joint_x(c, i));
    hash_double(&h->joints, g_joint_y(c, i));
  }
  hash_double(&h->joints, g_scale(c));
  hash_double(&h->joints, g_distance(s));
  hash_int(&h->joints, g_reached(s));
  hash_int(&h->joints, returned);
  hash_int(&h->joints, g_iterations(s));
  for (i = 0; i < n; i++) {
    hash_double(&h->angles, g_angle(c, i));
    hash_double(&h->angles, g_world_angle(c, i));
  }
}

/* ------------------------------------------------------------------ */
/* scenes                                                               */
/* ------------------------------------------------------------------ */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static double rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}

static double rnd_in(double lo, double hi) { return lo + (hi - lo) * rnd(); }
static int rnd_int(int n) { return (int)(rnd() * n); }

#define PI 3.14159265358979323846

/* arguments are evaluated in no set order: one random number a line */
static void random_base(g_chain *c) {
  double x = rnd_in(-50, 50);
  double y = rnd_in(-50, 50);
  double angle = rnd_in(-PI, PI);
  g_chain_base(c, x, y, angle);
}

/* a chain of n bones with limits of kind: 0 none, 1 random ranges,
** 2 one-sided elbows, 3 mixed (inverted, pinned, full) */
static void make_chain(g_chain *c, int n, int kind) {
  double lengths[G_MAX_BONES] = {0}, rests[G_MAX_BONES] = {0};
  int i;
  for (i = 0; i < n; i++) {
    lengths[i] = rnd_int(3) == 0 ? 1.0 : rnd_in(0.2, 3.0);
    rests[i] = rnd_int(2) == 0 ? 0.0 : rnd_in(-1.0, 1.0);
  }
  g_chain_init(c, n, lengths, rests);
  for (i = 0; i < n; i++) {
    double a = rnd_in(-PI, PI), b = rnd_in(0.0, 2.5);
    switch (kind) {
      case 1:
        if (rnd_int(2)) g_chain_limit(c, i, a - b, a + b, 0);
        break;
      case 2:
        if (i > 0) {
          double low = rnd_int(2) ? 0.0 : -2.4;
          double high = rnd_int(2) ? 2.4 : 0.0;
          g_chain_limit(c, i, low, high, 0);
        }
        break;
      case 3:
        switch (rnd_int(5)) {
          case 0: g_chain_limit(c, i, a - b, a + b, 1); break;
          case 1: g_chain_limit(c, i, a, a, 0); break;
          case 2: g_chain_limit(c, i, -4.0, 4.0, 0); break;
          case 3: g_chain_limit(c, i, a - 0.1, a + 0.1, 0); break;
          default: break;
        }
        break;
      default: break;
    }
  }
  random_base(c);
  if (rnd_int(4) == 0) g_chain_flip(c, 1);
}

static double chain_reach(const g_chain *c) {
  /* from the joints of a straight pose is not needed: the sum of bone
  ** lengths is the distance of consecutive joints */
  double r = 0.0;
  int i;
  for (i = 0; i < g_count(c); i++)
    r += ik2d_hypot(g_joint_x(c, i + 1) - g_joint_x(c, i),
               g_joint_y(c, i + 1) - g_joint_y(c, i));
  return r;
}

static void random_options(g_options *o, int n) {
  o->method = n == 2 ? rnd_int(3) : rnd_int(2);
  o->iterations = 1 + rnd_int(20);
  o->tolerance = rnd_int(4) == 0 ? 0.0 : rnd_in(1e-4, 0.05);
  o->weight = rnd_int(3) == 0 ? rnd() : 1.0;
  o->damping = rnd_int(4) == 0 ? rnd_in(0.01, 0.5) : 0.0;
  o->warm_start = rnd_int(4) != 0;
  o->exact = rnd_int(3) != 0;
  o->sweep_tip = rnd_int(3) == 0;
  o->bend = rnd_int(2) ? 1 : -1;
  o->softness = rnd_int(3) == 0 ? rnd_in(0.0, 1.0) : 0.0;
  o->stretch = rnd_int(3) == 0 ? rnd_in(1.0, 2.0) : 1.0;
}

/* the next target of a frame: kind 0 tracks a moving point, 1 jumps, 2
** out of reach, 3 on the base, 4 near full reach */
static void next_target(const g_chain *c, double reach, int frame, int kind,
                        double *x, double *y) {
  double bx = g_joint_x(c, 0), by = g_joint_y(c, 0), a, r;
  switch (kind) {
    case 0:
      a = 0.05 * frame;
      r = reach * (0.5 + 0.3 * ik2d_sin(0.07 * frame));
      break;
    case 1: a = rnd_in(-PI, PI); r = reach * rnd(); break;
    case 2: a = rnd_in(-PI, PI); r = reach * rnd_in(1.01, 3.0); break;
    case 3: *x = bx; *y = by; return;
    default: a = rnd_in(-PI, PI); r = reach * rnd_in(0.95, 1.0); break;
  }
  *x = bx + r * ik2d_cos(a);
  *y = by + r * ik2d_sin(a);
}

static const int bone_counts[] = {1, 2, 2, 3, 3, 4, 5, 7, 10, 16, 64};
#define BONE_COUNTS ((int)(sizeof bone_counts / sizeof bone_counts[0]))

/* One chain and solver, frames one by one. */
static void scene_single(g_hash *h, int n, int limits) {
  static g_chain chain;
  static g_solver solver;
  g_options o;
  double reach;
  int frame;
  make_chain(&chain, n, limits);
  random_options(&o, n);
  g_solver_init(&solver, &chain, &o);
  reach = chain_reach(&chain);
  for (frame = 0; frame < 40; frame++) {
    double x, y;
    int kind = frame < 20 ? 0 : rnd_int(5);
    next_target(&chain, reach, frame, kind, &x, &y);
    g_solver_target(&solver, x, y);
    if (rnd_int(10) == 0) {
      int bone = rnd_int(n);
      g_chain_pose(&chain, bone, rnd_in(-PI, PI));
    }
    if (rnd_int(15) == 0) random_base(&chain);
    if (rnd_int(15) == 0) g_chain_flip(&chain, rnd_int(2));
    if (rnd_int(12) == 0) g_solver_weight(&solver, rnd_int(3) == 0 ? 0.0 : rnd());
    if (rnd_int(20) == 0) g_solver_forget(&solver);
    hash_outcome(h, &chain, &solver, g_solve(&solver));
  }
}

/* Many chains in batches: CCD members run in lockstep blocks. */
#define BATCH 24
static void scene_batch(g_hash *h, int n) {
  static g_chain chains[BATCH];
  static g_solver solvers[BATCH];
  g_solver *list[BATCH + 1];
  double reach[BATCH];
  int i, frame;
  for (i = 0; i < BATCH; i++) {
    g_options o;
    make_chain(&chains[i], n, rnd_int(4));
    random_options(&o, n);
    if (rnd_int(3)) o.method = G_CCD;
    g_solver_init(&solvers[i], &chains[i], &o);
    reach[i] = chain_reach(&chains[i]);
    list[i] = &solvers[i];
  }
  for (frame = 0; frame < 30; frame++) {
    int reached;
    for (i = 0; i < BATCH; i++) {
      double x, y;
      next_target(&chains[i], reach[i], frame, frame < 15 ? 0 : rnd_int(5), &x, &y);
      g_solver_target(&solvers[i], x, y);
    }
    reached = g_solve_batch(list, BATCH);
    hash_int(&h->joints, reached);
    for (i = 0; i < BATCH; i++) hash_outcome(h, &chains[i], &solvers[i], g_reached(&solvers[i]));
  }
}

/* ------------------------------------------------------------------ */
/* the effector controls and springs (hashed apart, so that the parts
** above keep their recorded values)                                    */
/* ------------------------------------------------------------------ */

/* A chain of n bones, some limits in world space, a solver with random
** options and effector controls on top. */
static void make_effector_scene(g_chain *c, g_solver *s, int n) {
  g_options o;
  ik2d_solver *solver;
  int i;
  make_chain(c, n, rnd_int(4));
  for (i = 1; i < n; i++) {
    if (rnd_int(5) == 0) {
      double a = rnd_in(-PI, PI), b = rnd_in(0.2, 1.5);
      g_chain_limit_in(c, i, a - b, a + b, 0, 1);
    }
  }
  random_options(&o, n);
  g_solver_init(s, c, &o);
  solver = s->solver;
  if (rnd_int(3) == 0) {
    double a = rnd_in(-PI, PI);
    g_check(ik2d_solver_set_tip_angle(solver, a, rnd_int(2) ? 1.0 : rnd()));
  }
  if (rnd_int(3) == 0) {
    double x = g_joint_x(c, n) + rnd_in(-5, 5);
    g_check(ik2d_solver_set_pole(solver, x, g_joint_y(c, n) + rnd_in(-5, 5)));
  }
  if (n == 2 && rnd_int(2)) g_check(ik2d_solver_set_softness_curve(solver, IK2D_SOFTNESS_SPINE));
  if (n == 1 && rnd_int(2)) {
    g_check(ik2d_solver_set_stretch(solver, rnd_in(1.0, 3.0)));
    g_check(ik2d_solver_set_compress(solver, rnd()));
  }
  if (rnd_int(5) == 0) g_check(ik2d_solver_set_method(solver, IK2D_FOLLOW));
}

static void scene_effectors(g_hash *h, int n) {
  static g_chain chains[BATCH];
  static g_solver solvers[BATCH];
  static char spring_memory[BATCH][4096];
  g_solver *list[BATCH];
  double reach[BATCH];
  ik2d_spring *springs[BATCH];
  int i, frame;
  for (i = 0; i < BATCH; i++) {
    make_effector_scene(&chains[i], &solvers[i], n);
    reach[i] = chain_reach(&chains[i]);
    list[i] = &solvers[i];
    springs[i] = NULL;
    if (rnd_int(4) == 0 && ik2d_spring_size(n) <= sizeof spring_memory[i]) {
      ik2d_spring_def def = ik2d_default_spring_def();
      def.stiffness = rnd_in(10, 200);
      def.damping = rnd_in(0, 10);
      def.gravity_y = rnd_int(2) ? 400.0 : 0.0;
      springs[i] = (ik2d_spring *)(void *)spring_memory[i];
      g_check(ik2d_spring_init(springs[i], ik2d_spring_size(n), chains[i].chain, &def));
    }
  }
  for (frame = 0; frame < 24; frame++) {
    for (i = 0; i < BATCH; i++) {
      double x, y;
      next_target(&chains[i], reach[i], frame, frame < 12 ? 0 : rnd_int(5), &x, &y);
      g_solver_target(&solvers[i], x, y);
    }
    if (frame % 2 == 0) {
      hash_int(&h->effectors, g_solve_batch(list, BATCH));
    } else {
      for (i = 0; i < BATCH; i++) hash_int(&h->effectors, g_solve(&solvers[i]));
    }
    for (i = 0; i < BATCH; i++) {
      g_hash part;
      if (springs[i] != NULL) g_check(ik2d_spring_update(springs[i], frame % 3 ? 1.0 / 60 : 1.0 / 144));
      part.joints = part.angles = h->effectors;
      hash_outcome(&part, &chains[i], &solvers[i], g_reached(&solvers[i]));
      h->effectors = part.joints;
      hash_bytes(&h->effectors, &part.angles, sizeof part.angles);
    }
  }
}

int main(int argc, char **argv) {
  g_hash h;
  uint64_t total;
  int k, limits, round;
  if (argc > 1 && strcmp(argv[1], "dump") == 0) dump_to = stderr;
  h.joints = h.angles = h.effectors = 14695981039346656037ULL;
  for (round = 0; round < 6; round++)
    for (k = 0; k < BONE_COUNTS; k++)
      for (limits = 0; limits < 4; limits++)
        scene_single(&h, bone_counts[k], limits);
  for (k = 0; k < BONE_COUNTS; k++) scene_batch(&h, bone_counts[k]);
  for (round = 0; round < 2; round++)
    for (k = 0; k < BONE_COUNTS; k++) scene_effectors(&h, bone_counts[k]);
  total = h.joints;
  hash_bytes(&total, &h.angles, sizeof h.angles);
  hash_bytes(&total, &h.effectors, sizeof h.effectors);
  printf("joints %016llx\n", (unsigned long long)h.joints);
  printf("angles %016llx\n", (unsigned long long)h.angles);
  printf("effectors %016llx\n", (unsigned long long)h.effectors);
  printf("total  %016llx\n", (unsigned long long)total);
  return 0;
}
