/*
** character_bench.c: the character scene of bench/character_bench.lua
** through the C API alone: 20-bone skeletons (a 3-bone torso, two 3-bone
** arms, two 3-bone legs with a tip angle along the ground and a pole for
** the knee), the same bones, limits, solver settings and targets, one
** ik2d_skeleton_solve a character, every bone's transform read from
** ik2d_skeleton_transforms.  Prints a markdown table: us per character
** of the whole frame (targets set, solve, transforms read) and of the
** solves alone, at 100 and 1,000 characters, each the median of 5 runs
** (CPU time of the process, as os.clock in the Lua bench).
**   character_bench             the table
**   character_bench run N [set_base|at|together [C]]  N frames of C
**                               characters (100; callgrind); at: the bases
**                               through ik2d_skeleton_solve_at; together:
**                               all in one ik2d_skeletons_solve
*/
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ik2d.h"

#define NBONES 20
#define NLIMBS 5
#define MAX_CHARACTERS 1000
#define ITERATIONS 10
#define TOLERANCE 0.1
#define SPACING 40.0
#define RUNS 5

/* as BONES in character_bench.lua: parent index (-1: the base), length,
** rest angle, limits from the rest angle (has_limits 0: free) */
static const struct {
  int parent;
  double length, rest;
  int has_limits;
  double min, max;
} bones[NBONES] = {
  { -1, 0, 0, 0, 0, 0 },           /* hip */
  { 0, 18, -1.57, 1, -0.5, 0.5 },  /* spine1 */
  { 1, 16, 0, 1, -0.5, 0.5 },      /* spine2 */
  { 2, 16, 0, 1, -0.5, 0.5 },      /* chest */
  { 3, 6, 0, 0, 0, 0 },            /* neck */
  { 4, 12, 0, 0, 0, 0 },           /* head */
  { 3, 8, 1.6, 0, 0, 0 },          /* shoulder_l */
  { 6, 22, 0.3, 1, -2.5, 2.5 },    /* upper_l */
  { 7, 20, -0.4, 1, -2.4, 0.4 },   /* fore_l */
  { 8, 6, 0, 1, -1, 1 },           /* hand_l */
  { 3, 8, -1.6, 0, 0, 0 },         /* shoulder_r */
  { 10, 22, -0.3, 1, -2.5, 2.5 },  /* upper_r */
  { 11, 20, 0.4, 1, -0.4, 2.4 },   /* fore_r */
  { 12, 6, 0, 1, -1, 1 },          /* hand_r */
  { 0, 30, 1.3, 1, -1.2, 1.2 },    /* thigh_l */
  { 14, 28, 0.4, 1, -0.4, 2 },     /* shin_l */
  { 15, 10, -1.7, 1, -0.9, 1.3 },  /* foot_l */
  { 0, 30, 1.5, 1, -1.2, 1.2 },    /* thigh_r */
  { 17, 28, 0.4, 1, -0.4, 2 },     /* shin_r */
  { 18, 10, -1.7, 1, -0.9, 1.3 },  /* foot_r */
};
/* first and last bone of each limb: torso, arms, legs */
static const int limbs[NLIMBS][2] = { { 1, 3 }, { 7, 9 }, { 11, 13 }, { 14, 16 }, { 17, 19 } };

typedef struct character {
  ik2d_skeleton *sk;
  ik2d_chain *chains[NLIMBS];
  ik2d_solver *solvers[NLIMBS];
  const double *transforms;
} character;

static character characters[MAX_CHARACTERS];
static ik2d_constraint *constraints[NBONES];

static void *memory(size_t size) {
  void *p = malloc(size);
  if (p == NULL) {
    fprintf(stderr, "character_bench: out of memory\n");
    exit(1);
  }
  return p;
}

static void fail(const char *what) {
  fprintf(stderr, "character_bench: %s failed\n", what);
  exit(1);
}

static void make_constraints(void) {
  int k;
  for (k = 0; k < NBONES; k++) {
    ik2d_constraint_def def = ik2d_default_constraint_def();
    if (!bones[k].has_limits) continue;
    def.min = bones[k].min;
    def.max = bones[k].max;
    constraints[k] = memory(ik2d_constraint_size());
    if (ik2d_constraint_init(constraints[k], ik2d_constraint_size(), &def) != IK2D_OK)
      fail("ik2d_constraint_init");
  }
}

static void make_character(character *c, int i) {
  ik2d_skeleton_bone_def defs[NBONES];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  int k;
  for (k = 0; k < NBONES; k++) {
    defs[k] = ik2d_default_skeleton_bone_def();
    defs[k].parent = bones[k].parent;
    defs[k].length = bones[k].length;
    defs[k].rest = bones[k].rest;
    defs[k].constraint = constraints[k];
  }
  def.bones = defs;
  def.bone_count = NBONES;
  def.x = SPACING * i;
  def.y = 300;
  c->sk = memory(ik2d_skeleton_size(NBONES));
  if (ik2d_skeleton_init(c->sk, ik2d_skeleton_size(NBONES), &def, NULL) != IK2D_OK)
    fail("ik2d_skeleton_init");
  settings.iterations = ITERATIONS;
  settings.tolerance = TOLERANCE;
  for (k = 0; k < NLIMBS; k++) {
    int n = limbs[k][1] - limbs[k][0] + 1;
    c->chains[k] = memory(ik2d_skeleton_chain_size(n));
    c->solvers[k] = memory(ik2d_solver_size(n));
    if (ik2d_skeleton_chain_init(c->chains[k], ik2d_skeleton_chain_size(n), c->sk,
                                 limbs[k][0], limbs[k][1], NULL) != IK2D_OK ||
        ik2d_solver_init(c->solvers[k], ik2d_solver_size(n), c->chains[k], &settings) !=
            IK2D_OK)
      fail("a limb's chain or solver");
  }
  c->transforms = ik2d_skeleton_transforms(c->sk);
}

static void free_character(character *c) {
  int k;
  for (k = 0; k < NLIMBS; k++) {
    ik2d_solver_release(c->solvers[k]);
    ik2d_chain_release(c->chains[k]);
  }
  ik2d_skeleton_release(c->sk);
  for (k = 0; k < NLIMBS; k++) {
    free(c->solvers[k]);
    free(c->chains[k]);
  }
  free(c->sk);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double fmax0(double a) { return a > 0 ? a : 0; }

/* character i's targets at frame f, as targets() in character_bench.lua */
/* (with at, the base is left to ik2d_skeleton_solve_at: *bx, *by) */
static void set_targets(character *c, int i, int f, int at, double *base_x, double *base_y) {
  double x = SPACING * i, ph = 0.05 * f + 0.37 * i;
  double s = sin(ph), co = cos(ph);
  double bx = x + 3 * s, by = 300 + 1.5 * sin(2 * ph);
  double px = bx + 40, py = by + 28;
  *base_x = bx;
  *base_y = by;
  if (!at) ik2d_skeleton_set_base(c->sk, bx, by, 0);
  ik2d_solver_set_target(c->solvers[0], bx + 5 * sin(0.7 * ph), by - 48.5 + co);
  ik2d_solver_set_target(c->solvers[1], bx + 30 + 10 * co, by - 38 + 12 * s);
  ik2d_solver_set_target(c->solvers[2], bx - 28 + 10 * cos(1.1 * ph), by - 35 + 12 * sin(1.3 * ph));
  ik2d_solver_set_target(c->solvers[3], x + 12 + 14 * s, 352 - 5 * fmax0(co));
  ik2d_solver_set_tip_angle(c->solvers[3], 0.15 * sin(0.5 * ph), 1);
  ik2d_solver_set_pole(c->solvers[3], px, py);
  ik2d_solver_set_target(c->solvers[4], x + 12 - 14 * s, 352 - 5 * fmax0(-co));
  ik2d_solver_set_tip_angle(c->solvers[4], 0.15 * sin(0.5 * ph + 1), 1);
  ik2d_solver_set_pole(c->solvers[4], px, py);
}

typedef struct run_result {
  double whole, solve; /* seconds */
  long reached;
  double sink;
} run_result;

static double bases[3 * MAX_CHARACTERS]; /* x, y, angle a character */
static ik2d_skeleton *skeletons[MAX_CHARACTERS];

/* how a frame solves: one skeleton at a time, its base set first or by
** ik2d_skeleton_solve_at, or all at once */
enum { SOLVE_SET_BASE, SOLVE_AT, SOLVE_TOGETHER };

/* frames 1..frames of count fresh characters after an untimed frame 0;
** each frame's phases timed apart: targets, solves, transforms read.
** (but SOLVE_SET_BASE) each base moved by the solve, in the solves' time */
static run_result run(int count, int frames, int how) {
  run_result r;
  int i, f, k, at = how != SOLVE_SET_BASE;
  memset(&r, 0, sizeof r);
  for (i = 0; i < count; i++) {
    make_character(&characters[i], i + 1);
    skeletons[i] = characters[i].sk;
  }
  for (f = 0; f <= frames; f++) {
    double t0 = now(), t1, t2;
    for (i = 0; i < count; i++) {
      set_targets(&characters[i], i + 1, f, at, &bases[3 * i], &bases[3 * i + 1]);
      bases[3 * i + 2] = 0;
    }
    t1 = now();
    if (how == SOLVE_TOGETHER) {
      int reached = 0;
      if (ik2d_skeletons_solve(skeletons, count, bases, &reached, NULL) != IK2D_OK)
        fail("ik2d_skeletons_solve");
      if (f > 0) r.reached += reached;
    }
    for (i = 0; i < count && how != SOLVE_TOGETHER; i++) {
      int reached = 0;
      if (at) {
        ik2d_skeleton_solve_at(characters[i].sk, bases[3 * i], bases[3 * i + 1], 0, &reached);
      } else {
        reached = ik2d_skeleton_solve(characters[i].sk);
      }
      if (f > 0) r.reached += reached;
    }
    t2 = now();
    for (i = 0; i < count; i++) {
      const double *t = characters[i].transforms;
      for (k = 0; k < 5 * NBONES; k++) r.sink += t[k];
    }
    if (f > 0) {
      r.whole += now() - t0;
      r.solve += t2 - t1;
    }
  }
  for (i = 0; i < count; i++) free_character(&characters[i]);
  return r;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void row(int count, int frames, int how) {
  static const char *const names[] = {
      "ik2d_skeleton_set_base, ik2d_skeleton_solve", "ik2d_skeleton_solve_at",
      "ik2d_skeletons_solve (bases)"};
  double whole[RUNS], solve[RUNS];
  run_result r;
  int k;
  for (k = 0; k < RUNS; k++) {
    r = run(count, frames, how);
    whole[k] = r.whole;
    solve[k] = r.solve;
  }
  qsort(whole, RUNS, sizeof whole[0], by_value);
  qsort(solve, RUNS, sizeof solve[0], by_value);
  printf("| C | %d | %s, ik2d_skeleton_transforms | %.3f | %.3f | %.1f%% |\n", count,
         names[how], 1e6 * whole[RUNS / 2] / ((double)count * frames),
         1e6 * solve[RUNS / 2] / ((double)count * frames),
         100.0 * (double)r.reached / (5.0 * count * frames));
}

int main(int argc, char **argv) {
  make_constraints();
  if (argc >= 3 && argc <= 5 && strcmp(argv[1], "run") == 0) {
    int how = argc < 4 ? SOLVE_SET_BASE
              : strcmp(argv[3], "at") == 0 ? SOLVE_AT
              : strcmp(argv[3], "together") == 0 ? SOLVE_TOGETHER
              : strcmp(argv[3], "set_base") == 0 ? SOLVE_SET_BASE : -1;
    int count = argc == 5 ? atoi(argv[4]) : 100;
    run_result r;
    if (how < 0 || count < 1 || count > MAX_CHARACTERS)
      fail("run N [set_base|at|together [characters, 1..1000]]");
    r = run(count, atoi(argv[2]), how);
    fprintf(stderr, "reached %ld\n", r.reached);
    return 0;
  }
  printf("| runtime | characters | frame loop | us/character | us/character, solves alone "
         "| limbs reached |\n");
  printf("|---|--:|---|--:|--:|--:|\n");
  row(100, 1000, SOLVE_SET_BASE);
  row(100, 1000, SOLVE_AT);
  row(100, 1000, SOLVE_TOGETHER);
  row(1000, 100, SOLVE_SET_BASE);
  row(1000, 100, SOLVE_AT);
  row(1000, 100, SOLVE_TOGETHER);
  return 0;
}
