/*
** quality.c: convergence benchmark (`make bench-quality`).
** For chains of 2, 3, 5 and 10 unit bones (no limits), side by side:
**   plain   textbook CCD (tip to root, atan2 angles, nothing else), the
**           baseline; written here, not in the library
**   ccd     ik2d's CCD with default options
**   fabrik  ik2d's FABRIK with default options
** and for each:
**   ok@10, ok@30, ok@100  cold start: random start pose (every local angle
**           uniform in [-pi, pi)), target uniform in the disc of radius
**           0.99 x reach around the base, tolerance 1e-3 x reach: share of
**           cases within tolerance after at most 10, 30, 100 iterations
**           (separate solves with that iteration budget)
**   mean    mean iterations of the cases that converged within 1000
**           (ok@1000 says how many did)
**   miss    tracking: warm start, the target moves 1% of reach a frame
**           along a smooth random path in that disc, 10 iterations a
**           frame: share of frames that end outside tolerance
**   jit p99 / jit max  jitter: the target moves 0.2% of reach a frame
**           (10 iterations a frame); per frame the largest joint angle
**           change (rad) divided by the target's motion that frame (in
**           bone lengths); the 99th percentile and the largest over frames
** Tracking and jitter pool 10 independent paths: the p99 of a single path
** moved by about 10% from seed to seed.
** A second table, jumping targets: bones of random lengths (20 to 40,
** as a game's units), warm start, the default tolerance (0.01) and 10
** iterations a frame, the target jumping every frame to a random point
** of the disc of 0.99 x reach: the share of frames that end farther than
** 10 x tolerance from the (reachable) target, and the worst miss.  Every number comes from
** fixed-seed generators written here, so a run repeats exactly (given the
** same libm).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ik2d.h"

#define Q_PI 3.14159265358979323846
#define Q_CASES 2000          /* cold-start cases per chain size */
#define Q_CAP 1000            /* iteration cap for the mean */
#define Q_PATHS 10            /* independent paths per run, pooled */
#define Q_TRACK_FRAMES 4000   /* frames of each tracking path */
#define Q_JITTER_FRAMES 8000  /* frames of each jitter path */
#define Q_TRACK_STEP 0.01     /* target motion a frame, x reach */
#define Q_JITTER_STEP 0.002
#define Q_DISC 0.99           /* targets within this x reach */
#define Q_TOLERANCE 1e-3      /* x reach */
#define Q_FRAME_ITERATIONS 10

/* ------------------------------------------------------------------ */
/* fixed-seed generator (splitmix64)                                    */
/* ------------------------------------------------------------------ */

typedef struct q_rng { unsigned long long state; } q_rng;

static double q_random(q_rng *rng) {
  unsigned long long z = (rng->state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (double)(z >> 11) / 9007199254740992.0; /* [0, 1) */
}

static double q_range(q_rng *rng, double lo, double hi) {
  return lo + (hi - lo) * q_random(rng);
}

static double q_wrap(double a) {
  return a - 2.0 * Q_PI * floor((a + Q_PI) / (2.0 * Q_PI));
}

/* ------------------------------------------------------------------ */
/* the plain-CCD baseline: textbook, tip to root, atan2, no extras      */
/* ------------------------------------------------------------------ */

typedef struct q_plain {
  int n;
  double angle[IK2D_MAX_BONES];   /* local angles, base at (0, 0), angle 0 */
} q_plain;

static void q_plain_joints(const q_plain *p, double *x, double *y) {
  double world = 0.0;
  int i;
  x[0] = y[0] = 0.0;
  for (i = 0; i < p->n; i++) {
    world += p->angle[i];
    x[i + 1] = x[i] + cos(world);
    y[i + 1] = y[i] + sin(world);
  }
}

/* Sweeps until the tip is within tolerance (checked after every joint
** update, as ik2d does) or max sweeps are done.  Returns the sweep that
** reached (0: already there), or -1. */
static int q_plain_solve(q_plain *p, double tx, double ty, double tolerance,
                         int max) {
  double x[IK2D_MAX_BONES + 1], y[IK2D_MAX_BONES + 1];
  double tol_sq = tolerance * tolerance, ex, ey;
  int sweep, i;
  q_plain_joints(p, x, y);
  ex = x[p->n];
  ey = y[p->n];
  if ((tx - ex) * (tx - ex) + (ty - ey) * (ty - ey) <= tol_sq) return 0;
  for (sweep = 1; sweep <= max; sweep++) {
    q_plain_joints(p, x, y);
    ex = x[p->n];
    ey = y[p->n];
    /* tip to root: joints before i have not moved this sweep */
    for (i = p->n - 1; i >= 0; i--) {
      double turn = atan2(ty - y[i], tx - x[i]) - atan2(ey - y[i], ex - x[i]);
      double c = cos(turn), s = sin(turn);
      double rx = ex - x[i], ry = ey - y[i];
      p->angle[i] = q_wrap(p->angle[i] + turn);
      ex = x[i] + c * rx - s * ry;
      ey = y[i] + s * rx + c * ry;
      if ((tx - ex) * (tx - ex) + (ty - ey) * (ty - ey) <= tol_sq) return sweep;
    }
  }
  return -1;
}

/* ------------------------------------------------------------------ */
/* one runner for the three columns                                     */
/* ------------------------------------------------------------------ */

enum { Q_PLAIN, Q_CCD, Q_FABRIK, Q_METHODS };
static const char *const q_names[Q_METHODS] = {"plain", "ccd", "fabrik"};

typedef struct q_runner {
  int method, n;
  q_plain plain;
  ik2d_chain *chain;
  ik2d_solver *solver;
} q_runner;

static void q_runner_init(q_runner *r, int method, int n) {
  ik2d_bone_def bones[IK2D_MAX_BONES];
  ik2d_chain_def def = ik2d_default_chain_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  size_t chain_size = ik2d_chain_size(n), solver_size = ik2d_solver_size(n);
  int i;
  for (i = 0; i < n; i++) {
    bones[i].length = 1.0;
    bones[i].rest = 0.0;
    bones[i].constraint = NULL;
  }
  memset(r, 0, sizeof *r);
  r->method = method;
  r->n = n;
  r->plain.n = n;
  def.bone_count = n;
  def.bones = bones;
  settings.tolerance = Q_TOLERANCE * n;
  if (method == Q_FABRIK) settings.method = IK2D_FABRIK;
  r->chain = malloc(chain_size);
  r->solver = malloc(solver_size);
  if (r->chain == NULL || r->solver == NULL ||
      ik2d_chain_init(r->chain, chain_size, &def) != IK2D_OK ||
      ik2d_solver_init(r->solver, solver_size, r->chain, &settings) != IK2D_OK) {
    fprintf(stderr, "quality: set-up failed\n");
    exit(1);
  }
}

static void q_runner_free(q_runner *r) {
  free(r->solver);
  free(r->chain);
}

/* Start pose for a cold start: the next solve begins from it. */
static void q_runner_pose(q_runner *r, const double *angles) {
  int i;
  for (i = 0; i < r->n; i++) {
    r->plain.angle[i] = angles[i];
    ik2d_chain_set_pose(r->chain, i, angles[i]);
  }
  ik2d_solver_forget(r->solver);
}

/* Solves (warm: from the last result) with at most max iterations;
** returns the iterations used when the tip ends within tolerance, else
** -1. */
static int q_runner_solve(q_runner *r, double tx, double ty, int max) {
  if (r->method == Q_PLAIN)
    return q_plain_solve(&r->plain, tx, ty, Q_TOLERANCE * r->n, max);
  ik2d_solver_set_iterations(r->solver, max);
  ik2d_solver_set_target(r->solver, tx, ty);
  return ik2d_solver_solve(r->solver) ? ik2d_solver_result(r->solver)->iterations : -1;
}

static double q_runner_angle(const q_runner *r, int i) {
  return r->method == Q_PLAIN ? r->plain.angle[i] : ik2d_chain_angles(r->chain)[i];
}

/* ------------------------------------------------------------------ */
/* the three measurements                                               */
/* ------------------------------------------------------------------ */

typedef struct q_row {
  double ok10, ok30, ok100, ok_cap, mean;
  double miss, jitter_p99, jitter_max;
  double outer_track, outer_jitter; /* path frames beyond 0.9 x reach */
} q_row;

static void q_cold(int method, int n, q_row *row) {
  static const int budgets[3] = {10, 30, 100};
  q_runner r;
  q_rng rng;
  double angles[IK2D_MAX_BONES], reach = n, total = 0.0;
  int hits[3] = {0, 0, 0}, converged = 0, c, i, k;
  rng.state = 1000u + (unsigned)n; /* the same cases for every method */
  q_runner_init(&r, method, n);
  for (c = 0; c < Q_CASES; c++) {
    double radius = Q_DISC * reach * sqrt(q_random(&rng));
    double heading = q_range(&rng, -Q_PI, Q_PI);
    double tx = radius * cos(heading), ty = radius * sin(heading);
    int used;
    for (i = 0; i < n; i++) angles[i] = q_range(&rng, -Q_PI, Q_PI);
    if (method == Q_PLAIN) {
      /* one run: the baseline has no state beyond its angles */
      q_runner_pose(&r, angles);
      used = q_runner_solve(&r, tx, ty, Q_CAP);
      for (k = 0; k < 3; k++) hits[k] += used >= 0 && used <= budgets[k];
    } else {
      for (k = 0; k < 3; k++) {
        q_runner_pose(&r, angles);
        hits[k] += q_runner_solve(&r, tx, ty, budgets[k]) >= 0;
      }
      q_runner_pose(&r, angles);
      used = q_runner_solve(&r, tx, ty, Q_CAP);
    }
    if (used >= 0) {
      converged++;
      total += used;
    }
  }
  row->ok10 = (double)hits[0] / Q_CASES;
  row->ok30 = (double)hits[1] / Q_CASES;
  row->ok100 = (double)hits[2] / Q_CASES;
  row->ok_cap = (double)converged / Q_CASES;
  row->mean = converged > 0 ? total / converged : 0.0;
  q_runner_free(&r);
}

/* A smooth random path in the disc: the heading wanders (a random walk
** whose spread per unit length does not depend on the step) and steers
** back inward beyond 0.92 x reach.  These settings spread the frames over
** the disc about as evenly as the cold-start targets (uniform by area);
** main prints the share beyond 0.9 x reach to show it. */
typedef struct q_path {
  q_rng rng;
  double x, y, heading, step, reach;
  long frames, outer;
} q_path;

static void q_path_init(q_path *p, int n, double step, unsigned seed) {
  p->rng.state = seed;
  p->reach = n;
  p->step = step * n;
  p->x = 0.5 * n;
  p->y = 0.0;
  p->heading = 0.5 * Q_PI;
  p->frames = p->outer = 0;
}

static void q_path_next(q_path *p) {
  double r, scale = p->step / (0.01 * p->reach);
  double wander = 0.3 * sqrt(scale);
  p->heading += q_range(&p->rng, -wander, wander);
  r = sqrt(p->x * p->x + p->y * p->y);
  if (r > 0.92 * p->reach) {
    /* moving outward: turn toward the inside */
    double out = p->x * cos(p->heading) + p->y * sin(p->heading);
    double side = p->x * sin(p->heading) - p->y * cos(p->heading);
    if (out > 0.0) p->heading += scale * (side > 0.0 ? 0.3 : -0.3);
  }
  p->x += p->step * cos(p->heading);
  p->y += p->step * sin(p->heading);
  r = sqrt(p->x * p->x + p->y * p->y);
  if (r > Q_DISC * p->reach) {
    p->x *= Q_DISC * p->reach / r;
    p->y *= Q_DISC * p->reach / r;
    r = Q_DISC * p->reach;
  }
  p->frames++;
  p->outer += r > 0.9 * p->reach;
}

static int q_compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Runs frames along a path with warm starts; returns the miss share and,
** when jitter is not NULL, fills it with the per-frame jitter figures. */
static double q_follow(int method, int n, double step, int frames,
                       unsigned seed, double *jitter, double *outer) {
  q_runner r;
  q_path path;
  double before[IK2D_MAX_BONES], start[IK2D_MAX_BONES];
  int f, i, misses = 0;
  q_runner_init(&r, method, n);
  q_path_init(&path, n, step, seed);
  /* a bent start pose, the same for every method */
  for (i = 0; i < n; i++) start[i] = q_range(&path.rng, -1.0, 1.0);
  q_runner_pose(&r, start);
  /* settle on the first point with a generous budget: not counted */
  q_runner_solve(&r, path.x, path.y, Q_CAP);
  for (f = 0; f < frames; f++) {
    double px = path.x, py = path.y, moved, worst = 0.0;
    for (i = 0; i < n; i++) before[i] = q_runner_angle(&r, i);
    q_path_next(&path);
    if (q_runner_solve(&r, path.x, path.y, Q_FRAME_ITERATIONS) < 0) misses++;
    if (jitter != NULL) {
      moved = sqrt((path.x - px) * (path.x - px) + (path.y - py) * (path.y - py));
      for (i = 0; i < n; i++) {
        double d = fabs(q_wrap(q_runner_angle(&r, i) - before[i]));
        if (d > worst) worst = d;
      }
      jitter[f] = moved > 0.0 ? worst / moved : 0.0;
    }
  }
  *outer = (double)path.outer / (double)path.frames;
  q_runner_free(&r);
  return (double)misses / frames;
}

static void q_measure(int method, int n, q_row *row) {
  static double jitter[Q_PATHS * Q_JITTER_FRAMES];
  const int total = Q_PATHS * Q_JITTER_FRAMES;
  double outer;
  unsigned p;
  q_cold(method, n, row);
  row->miss = row->outer_track = row->outer_jitter = 0.0;
  for (p = 0; p < Q_PATHS; p++) {
    row->miss += q_follow(method, n, Q_TRACK_STEP, Q_TRACK_FRAMES,
                          2000u + 100u * p + n, NULL, &outer) / Q_PATHS;
    row->outer_track += outer / Q_PATHS;
    q_follow(method, n, Q_JITTER_STEP, Q_JITTER_FRAMES, 3000u + 100u * p + n,
             jitter + p * Q_JITTER_FRAMES, &outer);
    row->outer_jitter += outer / Q_PATHS;
  }
  qsort(jitter, total, sizeof jitter[0], q_compare);
  row->jitter_p99 = jitter[(int)(0.99 * (total - 1))];
  row->jitter_max = jitter[total - 1];
}

/* ------------------------------------------------------------------ */
/* jumping targets                                                      */
/* ------------------------------------------------------------------ */

#define Q_JUMP_FRAMES 20000
#define Q_JUMP_TOLERANCE 0.01

/* Share of frames ending beyond 10 x tolerance; *worst gets the largest
** miss. */
static double q_jump(int method, int n, double *worst) {
  ik2d_bone_def bones[IK2D_MAX_BONES];
  ik2d_chain_def def = ik2d_default_chain_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  size_t chain_size = ik2d_chain_size(n), solver_size = ik2d_solver_size(n);
  ik2d_chain *chain = malloc(chain_size);
  ik2d_solver *solver = malloc(solver_size);
  q_rng rng;
  double reach = 0.0;
  int i, f, far = 0;
  rng.state = 5000u + (unsigned)n;
  for (i = 0; i < n; i++) {
    bones[i].length = q_range(&rng, 20.0, 40.0);
    bones[i].rest = 0.0;
    bones[i].constraint = NULL;
    reach += bones[i].length;
  }
  def.bone_count = n;
  def.bones = bones;
  settings.method = method == Q_FABRIK ? IK2D_FABRIK : IK2D_CCD;
  settings.tolerance = Q_JUMP_TOLERANCE;
  settings.iterations = Q_FRAME_ITERATIONS;
  if (chain == NULL || solver == NULL || ik2d_chain_init(chain, chain_size, &def) != IK2D_OK ||
      ik2d_solver_init(solver, solver_size, chain, &settings) != IK2D_OK) {
    fprintf(stderr, "quality: set-up failed\n");
    exit(1);
  }
  *worst = 0.0;
  for (f = 0; f < Q_JUMP_FRAMES; f++) {
    double radius = Q_DISC * reach * sqrt(q_random(&rng));
    double heading = q_range(&rng, -Q_PI, Q_PI), distance;
    ik2d_solver_set_target(solver, radius * cos(heading), radius * sin(heading));
    ik2d_solver_solve(solver);
    distance = ik2d_solver_result(solver)->distance;
    far += distance > 10.0 * Q_JUMP_TOLERANCE;
    if (distance > *worst) *worst = distance;
  }
  free(solver);
  free(chain);
  return (double)far / Q_JUMP_FRAMES;
}

int main(void) {
  static const int sizes[4] = {2, 3, 5, 10};
  double outer_track = 0.0, outer_jitter = 0.0;
  int s, m;
  printf("ik2d quality benchmark: unit bones, no limits; cold start: %d random\n"
         "poses and targets in a disc of %.2f x reach, tolerance %.0e x reach;\n"
         "tracking: %d paths x %d frames, target moving %.0f%% of reach a frame,\n"
         "%d its a frame, warm start; jitter: %d paths x %d frames at %.1f%% of\n"
         "reach a frame, rad of the largest joint turn per bone length of\n"
         "target motion.\n\n",
         Q_CASES, Q_DISC, Q_TOLERANCE, Q_PATHS, Q_TRACK_FRAMES,
         100.0 * Q_TRACK_STEP, Q_FRAME_ITERATIONS, Q_PATHS, Q_JITTER_FRAMES,
         100.0 * Q_JITTER_STEP);
  printf("| bones | solver | ok@10  | ok@30  | ok@100 | ok@1000 | mean its "
         "| miss   | jit p99 | jit max |\n");
  printf("|------:|--------|-------:|-------:|-------:|--------:|---------:"
         "|-------:|--------:|--------:|\n");
  for (s = 0; s < 4; s++) {
    for (m = 0; m < Q_METHODS; m++) {
      q_row row;
      q_measure(m, sizes[s], &row);
      printf("| %5d | %-6s | %5.1f%% | %5.1f%% | %5.1f%% | %6.1f%% | %8.1f "
             "| %5.2f%% | %7.2f | %7.1f |\n",
             sizes[s], q_names[m], 100.0 * row.ok10, 100.0 * row.ok30,
             100.0 * row.ok100, 100.0 * row.ok_cap, row.mean,
             100.0 * row.miss, row.jitter_p99, row.jitter_max);
      fflush(stdout);
      outer_track += row.outer_track / (4 * Q_METHODS);
      outer_jitter += row.outer_jitter / (4 * Q_METHODS);
    }
  }
  printf("\npath frames beyond 0.9 x reach: tracking %.1f%%, jitter %.1f%% "
         "(uniform in the disc: %.1f%%)\n", 100.0 * outer_track,
         100.0 * outer_jitter, 100.0 * (1.0 - 0.81 / (Q_DISC * Q_DISC)));
  printf("\njumping targets: bones of 20 to 40, tolerance %.2f, %d its a frame,\n"
         "warm start, %d frames each jumping to a random point of the disc:\n\n",
         Q_JUMP_TOLERANCE, Q_FRAME_ITERATIONS, Q_JUMP_FRAMES);
  printf("| bones | solver | far (> 10 x tol) | worst miss |\n");
  printf("|------:|--------|-----------------:|-----------:|\n");
  for (s = 1; s < 4; s++) {
    for (m = Q_CCD; m < Q_METHODS; m++) {
      double worst, far = q_jump(m, sizes[s], &worst);
      printf("| %5d | %-6s | %15.2f%% | %10.2f |\n", sizes[s], q_names[m], 100.0 * far,
             worst);
      fflush(stdout);
    }
  }
  return 0;
}
