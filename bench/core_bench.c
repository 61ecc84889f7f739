/*
** core_bench.c: the C core alone, no Lua.  Prints ns per solve and per
** joint update for one chain and for a batch of chains.
**   core_bench            timing table
**   core_bench count N [moving|textbook]
**                         N solves of the 3-bone scene (random targets,
**                         or a moving one), the joint update count on
**                         stderr: run under callgrind twice to get
**                         instructions per solve from the difference
**   core_bench best       the widest instruction set this machine runs
**   core_bench batch N isa [textbook]
**                         the same for 1000 chains of 3 bones solved N
**                         frames as a batch with the instruction set isa
*/
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ik2d.h"
#include "ik2d_solver.h" /* ik2d__solver_joint_updates */

#define MAX_CHAINS 10000

/* each chain and solver allocated as a game would, sized to the chain */
static ik2d_chain *chains[MAX_CHAINS];
static ik2d_solver *solvers[MAX_CHAINS];

/* targets of every solve of a run (chains x frames) */
#define MAX_TARGETS 200000
static double targets[MAX_TARGETS][2];

/* small deterministic generator: the same numbers on every machine */
static unsigned long long bench_state = 88172645463325252ULL;
static double bench_random(void) {
  bench_state ^= bench_state << 13;
  bench_state ^= bench_state >> 7;
  bench_state ^= bench_state << 17;
  return (double)(bench_state >> 11) / 9007199254740992.0;
}

static double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* textbook: CCD as plain CCD runs it (tip to root, no exact step), to
** measure the cost of one joint update; else ik2d's defaults */
static int bench_textbook = 0;

static void bench_setup(int count, int bones) {
  ik2d_bone_def bone_defs[IK2D_MAX_BONES];
  ik2d_chain_def def = ik2d_default_chain_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  size_t chain_size = ik2d_chain_size(bones), solver_size = ik2d_solver_size(bones);
  int i, k;
  for (k = 0; k < bones; k++) {
    bone_defs[k].length = 1.0;
    bone_defs[k].rest = 0.0;
    bone_defs[k].constraint = NULL;
  }
  def.bone_count = bones;
  def.bones = bone_defs;
  settings.tolerance = 1e-3 * bones;
  if (bench_textbook) {
    settings.ccd.exact = false;
    settings.ccd.sweep = IK2D_SWEEP_TIP;
  }
  for (i = 0; i < MAX_CHAINS; i++) {
    free(solvers[i]);
    free(chains[i]);
    solvers[i] = NULL;
    chains[i] = NULL;
  }
  for (i = 0; i < count; i++) {
    chains[i] = malloc(chain_size);
    solvers[i] = malloc(solver_size);
    if (chains[i] == NULL || solvers[i] == NULL ||
        ik2d_chain_init(chains[i], chain_size, &def) != IK2D_OK ||
        ik2d_solver_init(solvers[i], solver_size, chains[i], &settings) != IK2D_OK) {
      fprintf(stderr, "core_bench: set-up failed\n");
      exit(1);
    }
  }
}

/* Target of chain i at frame f: a random point in the disc (random) or a
** point on a slow circle-and-wobble path (tracking, warm start). */
static void bench_target(int i, int frame, int bones, int random_targets,
                         double *x, double *y) {
  double reach = bones;
  if (random_targets) {
    double r = 0.95 * reach * sqrt(bench_random());
    double a = 6.283185307179586 * bench_random();
    *x = r * cos(a);
    *y = r * sin(a);
  } else {
    double t = 0.02 * frame + 0.7 * i;
    *x = reach * (0.6 + 0.2 * sin(3.1 * t)) * cos(t);
    *y = reach * (0.6 + 0.2 * sin(3.1 * t)) * sin(t);
  }
}

typedef struct bench_result {
  double seconds;
  long solves, joint_updates;
} bench_result;

/* the instruction set a batch row solves with */
static ik2d_isa bench_isa = IK2D_ISA_AUTO;

static bench_result bench_run(int count, int bones, int frames,
                              int random_targets, int batch) {
  bench_result result;
  double start;
  long t = 0, total = (long)count * frames;
  int f, i;
  memset(&result, 0, sizeof result);
  if (total > MAX_TARGETS) {
    fprintf(stderr, "core_bench: more than %d solves in one run\n", MAX_TARGETS);
    exit(1);
  }
  bench_setup(count, bones);
  /* the targets first, so that the clock sees the solver alone */
  for (f = 0; f < frames; f++)
    for (i = 0; i < count; i++, t++)
      bench_target(i, f, bones, random_targets, &targets[t][0], &targets[t][1]);
  t = 0;
  start = bench_now();
  for (f = 0; f < frames; f++) {
    for (i = 0; i < count; i++, t++)
      ik2d_solver_set_target(solvers[i], targets[t][0], targets[t][1]);
    if (batch) {
      ik2d_solvers_solve_isa(solvers, count, bench_isa);
    } else {
      for (i = 0; i < count; i++) ik2d_solver_solve(solvers[i]);
    }
    for (i = 0; i < count; i++) result.joint_updates += ik2d__solver_joint_updates(solvers[i]);
  }
  result.seconds = bench_now() - start;
  result.solves = (long)count * frames;
  return result;
}

/* The machine is shared and noisy: each row is the fastest of
** BENCH_REPEATS runs (the same work each time, from a fresh setup). */
#define BENCH_REPEATS 5

static void bench_row(const char *name, int count, int bones, int frames,
                      int random_targets, int batch) {
  bench_result r, best;
  int k;
  for (k = 0; k < BENCH_REPEATS; k++) {
    bench_state = 88172645463325252ULL;
    r = bench_run(count, bones, frames, random_targets, batch);
    if (k == 0 || r.seconds < best.seconds) best = r;
  }
  r = best;
  printf("| %-9s | %-26s | %-6s | %6d | %5d | %10.1f | %12.2f | %9.1f |\n",
         bench_textbook ? "textbook" : "default", name,
         batch ? ik2d_isa_name(bench_isa) : "scalar", count, bones,
         1e9 * r.seconds / (double)r.solves,
         r.joint_updates > 0 ? 1e9 * r.seconds / (double)r.joint_updates : 0.0,
         (double)r.joint_updates / (double)r.solves);
}

int main(int argc, char **argv) {
  int textbook, isa;
  if (argc == 2 && strcmp(argv[1], "best") == 0) {
    /* the widest instruction set this machine runs */
    printf("%s\n", ik2d_isa_name(ik2d_isa_best()));
    return 0;
  }
  if ((argc == 4 || argc == 5) && strcmp(argv[1], "batch") == 0) {
    /* batch N isa [textbook]: 1000 chains of 3 bones, N frames of random
    ** targets, solved as a batch with the named set */
    bench_result r;
    int k;
    bench_textbook = argc == 5 && strcmp(argv[4], "textbook") == 0;
    for (k = IK2D_ISA_SCALAR; k <= IK2D_ISA_AVX512; k++)
      if (strcmp(argv[3], ik2d_isa_name((ik2d_isa)k)) == 0) bench_isa = (ik2d_isa)k;
    r = bench_run(1000, 3, atoi(argv[2]), 1, 1);
    fprintf(stderr, "joint_updates %ld\n", r.joint_updates);
    return 0;
  }
  if ((argc == 3 || argc == 4) && strcmp(argv[1], "count") == 0) {
    int moving = argc == 4 && strcmp(argv[3], "moving") == 0;
    bench_result r;
    bench_textbook = argc == 4 && strcmp(argv[3], "textbook") == 0;
    r = bench_run(1, 3, atoi(argv[2]), !moving, 0);
    /* the joint update count goes to stderr, to divide the Ir by */
    fprintf(stderr, "joint_updates %ld\n", r.joint_updates);
    return 0;
  }
  printf("| %-9s | %-26s | %-6s | %6s | %5s | %10s | %12s | %9s |\n", "CCD", "C core scene",
         "ISA", "chains", "bones", "ns/solve", "ns/joint upd", "upd/solve");
  printf("|-----------|----------------------------|--------|--------|-------|------------|--------------|-----------|\n");
  /* textbook CCD: every iteration is a sweep of joint updates, so ns per
  ** joint update measures the inner loop; the defaults solve in fewer
  ** updates (exact two-joint steps), so compare them per solve */
  for (textbook = 1; textbook >= 0; textbook--) {
    bench_textbook = textbook;
    bench_row("random targets, one by one", 1, 3, 100000, 1, 0);
    bench_row("random targets, one by one", 1, 10, 25000, 1, 0);
    bench_row("moving target, one by one", 1, 3, 100000, 0, 0);
    bench_row("moving target, one by one", 1, 10, 25000, 0, 0);
    bench_row("random targets, one by one", 8, 3, 12500, 1, 0);
    bench_row("random targets, one by one", 8, 10, 3000, 1, 0);
    bench_row("random targets, one by one", 1000, 3, 100, 1, 0);
    bench_row("random targets, one by one", 1000, 10, 30, 1, 0);
    bench_row("moving target, one by one", 1000, 3, 100, 0, 0);
    for (isa = IK2D_ISA_SCALAR; isa <= IK2D_ISA_AVX512; isa++) {
      if (!ik2d_isa_supported((ik2d_isa)isa)) continue;
      bench_isa = (ik2d_isa)isa;
      bench_row("random targets, batch", 8, 3, 12500, 1, 1);
      bench_row("random targets, batch", 1000, 3, 100, 1, 1);
      bench_row("random targets, batch", 1000, 10, 30, 1, 1);
      bench_row("moving target, batch", 1000, 3, 100, 0, 1);
      bench_row("moving target, batch", 10000, 3, 10, 0, 1);
    }
    bench_isa = IK2D_ISA_AUTO;
  }
  return 0;
}
