/*
** ik2d_fuzz.c: libFuzzer target over the C core (src/ik2d_*.c).
**
** The input bytes are read as a small program: a chain (1..64 bones,
** lengths from denormal to huge, rest angles, shared constraints that
** may be pinned, full-circle, inverted or over-full), a solver (method,
** iterations, tolerance, weight, damping, bend, softness, warm start,
** flip) and then a list of operations (solve, new target on the base, a
** joint, far away or denormal, new pose, new base, limits edited or
** removed between solves, ...).  After every call the invariants of
** README "Invariants" are checked, and abort() reports a breach:
**
**   - every result angle is finite; every joint is finite while the
**     geometry is representable (|base| + reach well below DBL_MAX);
**   - every limited joint is within its limits (1e-9 rad) for weight 1,
**     and for weight < 1 whenever the pose was within them;
**   - consecutive joints are one bone length (times the chain's scale)
**     apart (1e-9 relative);
**   - weight 0 leaves the result equal to the pose bit for bit;
**   - the same inputs give bit-identical outputs (a copy of the chain
**     and solver is solved alongside and compared);
**   - distance and reached agree with the result; a call that fails
**     leaves its object untouched;
**   - the core's own atan2 (ik2d_atan2) is within 2 ulps of libm's on
**     the solution's rotations and on the target's offset from the base.
**
** The two precision floors below are those of doubles, not slack for
** the solver: a joint position is stored to half an ulp of its
** coordinate, so a 1e-6 bone at x = 1e6 cannot be measured to better
** than ~1e-10; and an angle of 1e10 rad is stored to ~1e-6 rad.
**
** Built by `make fuzz` (clang -fsanitize=fuzzer,address,undefined) and,
** with -DIK2D_FUZZ_REPLAY, by spec/fuzz/replay_spec.lua into a plain
** program that replays spec/fuzz/regressions/ and the corpus.
*/
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ik2d.h"
#include "ik2d_internal.h" /* ik2d_atan2 */

#define PI 3.14159265358979323846
#define TWO_PI 6.28318530717958647692
#define LIMIT_EPS 1e-9
#define LENGTH_REL 1e-9
#define POOL 4
#define MAX_OPS 48

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ------------------------------------------------------------------ */
/* input                                                                */
/* ------------------------------------------------------------------ */

typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

/* Past the end every read gives zeros: short inputs stay meaningful. */
static unsigned byte_of(reader *r) {
  if (r->n == 0) return 0;
  r->n--;
  return *r->p++;
}

static uint32_t u32_of(reader *r) {
  uint32_t v = 0;
  int k;
  for (k = 0; k < 4; k++) v = (v << 8) | byte_of(r);
  return v;
}

/* uniform in [0, 1] */
static double unit_of(reader *r) {
  return (double)u32_of(r) / 4294967295.0;
}

static double raw_of(reader *r) {
  uint64_t bits = 0;
  double d;
  int k;
  for (k = 0; k < 8; k++) bits = (bits << 8) | byte_of(r);
  memcpy(&d, &bits, sizeof d);
  return d;
}

static double finite_or(double v, double fallback) {
  return isfinite(v) ? v : fallback;
}

static double denormal_of(reader *r) {
  return ldexp((double)(1 + (u32_of(r) & 0xfffff)), -1074);
}

/* A bone length: always > 0 and finite. */
static double length_of(reader *r) {
  double v;
  switch (byte_of(r) % 9) {
    case 0: return 1.0 + byte_of(r);
    case 1: return pow(10.0, -6.0 + 12.0 * unit_of(r));      /* 1e-6..1e6 */
    case 2: return pow(10.0, -300.0 + 600.0 * unit_of(r));   /* tiny..huge */
    case 3: return denormal_of(r);
    case 4:
      v = fabs(raw_of(r));
      return isfinite(v) && v > 0.0 ? v : 1.0;
    case 5: return 1e6;
    case 6: return 1e-6;
    case 7: return DBL_MAX / 128.0;
    default: return 0.5 + 100.0 * unit_of(r);
  }
}

/* An angle: any finite value, mostly sane ones. */
static double angle_of(reader *r) {
  double sign;
  switch (byte_of(r) % 10) {
    case 0: return 0.0;
    case 1: return -PI + TWO_PI * unit_of(r);
    case 2: {
      static const double special[] = {PI, -PI, TWO_PI, -TWO_PI, PI / 2,
                                       -PI / 2, 1e-300, -0.0};
      return special[byte_of(r) % 8];
    }
    case 3: return -100.0 + 200.0 * unit_of(r);
    case 4: return finite_or(raw_of(r), 0.0);
    case 5: return denormal_of(r) * (byte_of(r) & 1 ? -1.0 : 1.0);
    case 6: return -1e6 + 2e6 * unit_of(r);
    case 7:
      sign = byte_of(r) & 1 ? -1.0 : 1.0;
      return sign * pow(10.0, 20.0 * unit_of(r));
    case 8: return (double)((int)(byte_of(r) % 17) - 8) * (PI / 4);
    default: return -0.5 + unit_of(r);
  }
}

/* A coordinate: any finite value. */
static double coordinate_of(reader *r) {
  double sign;
  switch (byte_of(r) % 8) {
    case 0: return 0.0;
    case 1: return -1000.0 + 2000.0 * unit_of(r);
    case 2:
      sign = byte_of(r) & 1 ? -1.0 : 1.0;
      return sign * pow(10.0, -300.0 + 608.0 * unit_of(r));
    case 3: return finite_or(raw_of(r), 0.0);
    case 4: return denormal_of(r) * (byte_of(r) & 1 ? -1.0 : 1.0);
    case 5: return byte_of(r) & 1 ? -DBL_MAX : DBL_MAX;
    case 6: return -1e6 + 2e6 * unit_of(r);
    default: return -10.0 + 20.0 * unit_of(r);
  }
}

/* ------------------------------------------------------------------ */
/* checks                                                               */
/* ------------------------------------------------------------------ */

/* The chain and solver under test, printed when an invariant breaks. */
static const ik2d_chain *current_chain;
static const ik2d_solver *current_solver;

static void dump(void) {
  const ik2d_chain *c = current_chain;
  const ik2d_solver *s = current_solver;
  int i;
  if (c == NULL) return;
  fprintf(stderr, "chain: %d bones, base %.17g %.17g %.17g, flip %d, reach %.17g\n",
          c->count, c->base_x, c->base_y, c->base_angle, c->flip, c->reach);
  for (i = 0; i < c->count; i++) {
    const ik2d_constraint *k = c->constraint[i];
    fprintf(stderr, "  bone %d: length %.17g rest %.17g pose %.17g angle %.17g",
            i, c->length[i], c->rest[i], c->pose[i], c->angle[i]);
    if (k != NULL)
      fprintf(stderr, " limits [%.17g, %.17g]%s", k->min, k->max, k->invert ? " inverted" : "");
    fprintf(stderr, "\n");
  }
  for (i = 0; i <= c->count; i++)
    fprintf(stderr, "  joint %d: %.17g %.17g\n", i, c->joint_x[i], c->joint_y[i]);
  if (s != NULL && s->have_solution)
    for (i = 0; i < c->count; i++)
      fprintf(stderr, "  warm start %d: %.17g (|r| - 1 = %.3g)\n", i,
              atan2(s->solution_sin[i], s->solution_cos[i]),
              hypot(s->solution_cos[i], s->solution_sin[i]) - 1.0);
  if (s != NULL)
    fprintf(stderr, "solver: method %d, iterations %d, tolerance %.17g, weight %.17g, "
            "target %.17g %.17g, damping %.17g, warm %d/%d, bend %d, softness %.17g, "
            "distance %.17g, used %d\n", (int)s->method, s->iterations, s->tolerance,
            s->weight, s->target_x, s->target_y, s->damping, s->warm_start,
            s->have_solution, s->bend, s->softness, s->distance, s->used_iterations);
}

static void breach(const char *what, int bone, double a, double b) {
  fprintf(stderr, "ik2d_fuzz: invariant broken: %s (bone %d: %.17g, %.17g)\n",
          what, bone, a, b);
  dump();
  abort();
}

#define REQUIRE(cond, what, bone, a, b) \
  do { if (!(cond)) breach((what), (bone), (a), (b)); } while (0)

static double wrap(double a) {
  /* fmod is exact: this reference wrap has no error of its own */
  double w = fmod(a + PI, TWO_PI);
  if (w < 0.0) w += TWO_PI;
  return w - PI;
}

static double max3(double a, double b, double c) {
  double m = a > b ? a : b;
  return m > c ? m : c;
}

/* How far local delta (angle - rest) lies outside c's allowed arc,
** worked out from min, max and invert alone (not from the derived
** fields the core uses); 0 inside.  An inverted range wider than 2 pi
** leaves only the point opposite its middle (ik2d.h). */
static double violation(const ik2d_constraint *c, double delta) {
  double mid = 0.5 * (c->min + c->max), half = 0.5 * (c->max - c->min);
  double off;
  if (c->invert) {
    mid += PI;
    half = PI - half;
  }
  if (half >= PI) return 0.0;
  if (half < 0.0) half = 0.0;
  off = fabs(wrap(delta - mid));
  return off > half ? off - half : 0.0;
}

/* The precision floor of an angle check: a few ulps of the largest
** magnitude that went into the values compared. */
static double angle_floor(const ik2d_chain *chain, int i, const ik2d_constraint *c) {
  double m = max3(fabs(chain->angle[i]), fabs(chain->pose[i]), fabs(chain->rest[i]));
  m = max3(m, fabs(c->min), fabs(c->max));
  return LIMIT_EPS + 16.0 * DBL_EPSILON * (m > TWO_PI ? m : TWO_PI);
}

/* Joints stay finite as long as the chain fits in doubles and its world
** angles do not overflow. */
static int representable(const ik2d_chain *chain) {
  double angles = fabs(chain->base_angle), reach = chain->reach * chain->scale;
  int i;
  for (i = 0; i < chain->count; i++) angles += fabs(chain->angle[i]);
  return fabs(chain->base_x) * 2.0 + reach < DBL_MAX / 4 &&
         fabs(chain->base_y) + reach < DBL_MAX / 4 && angles < 1e300;
}

static void check_lengths(const ik2d_chain *chain) {
  int i;
  for (i = 0; i < chain->count; i++) {
    double x0 = chain->joint_x[i], y0 = chain->joint_y[i];
    double x1 = chain->joint_x[i + 1], y1 = chain->joint_y[i + 1];
    /* a two-bone stretch scales every bone of the result */
    double d = hypot(x1 - x0, y1 - y0), length = chain->length[i] * chain->scale;
    double m = max3(fabs(x0), fabs(x1), 2.0 * fabs(chain->base_x));
    double allowed;
    m = max3(m, fabs(y0), fabs(y1));
    allowed = LENGTH_REL * length + 4.0 * DBL_EPSILON * m + ldexp(8.0, -1074);
    REQUIRE(fabs(d - length) <= allowed, "bone length changed", i, d, length);
  }
}

/* Joints must be the forward kinematics of the result angles: bit for
** bit after a call that recomputes them by trig, and within the
** rounding of the two ways of computing them after a solve with weight
** 1, which builds them from its unit rotations instead.  That rounding
** grows with the magnitude of the angles involved (an angle of 1e17 rad
** is known to +-16 rad), bone by bone along the chain, plus 1e-14 of each
** bone for its rotation's length. */
static void check_joints_match(const ik2d_chain *chain, int exact) {
  ik2d_chain copy;
  double unsure = 16.0 * DBL_EPSILON * (1.0 + fabs(chain->base_angle)), drift = 0.0;
  int i;
  memcpy(&copy, chain, sizeof copy);
  ik2d_chain_update_joints(&copy);
  for (i = 0; i <= chain->count; i++) {
    double m, allowed;
    if (i > 0) {
      const ik2d_constraint *c = chain->constraint[i - 1];
      double a = max3(fabs(chain->angle[i - 1]), fabs(chain->pose[i - 1]),
                      fabs(chain->rest[i - 1]));
      if (c != NULL) a = max3(a, fabs(c->min), fabs(c->max));
      unsure += 16.0 * DBL_EPSILON * (a > TWO_PI ? a : TWO_PI) + 64.0 * DBL_EPSILON;
      /* and the length of each rotation, which the core puts back on 1
      ** only when it is off by more than 1e-14 (solve_sane); the world
      ** direction of bone i compounds those of bones 0..i, which unsure,
      ** growing bone by bone, covers */
      drift += chain->length[i - 1] * ((unsure < 2.0 ? unsure : 2.0) + 1e-14);
    }
    m = max3(fabs(chain->joint_x[i]), fabs(chain->joint_y[i]), 2.0 * fabs(chain->base_x));
    allowed = exact ? 0.0 : drift + 8.0 * DBL_EPSILON * m + ldexp(8.0 * (i + 1), -1074);
    if (!isfinite(allowed)) {
      /* angles so large that their trig says nothing: finite is all */
      REQUIRE(isfinite(copy.joint_x[i]) == isfinite(chain->joint_x[i]) &&
                  isfinite(copy.joint_y[i]) == isfinite(chain->joint_y[i]),
              "joint finite in one computation only", i, chain->joint_x[i],
              copy.joint_x[i]);
    } else if (exact) {
      REQUIRE(memcmp(&copy.joint_x[i], &chain->joint_x[i], sizeof(double)) == 0,
              "joint x is not the forward kinematics of the result", i,
              chain->joint_x[i], copy.joint_x[i]);
      REQUIRE(memcmp(&copy.joint_y[i], &chain->joint_y[i], sizeof(double)) == 0,
              "joint y is not the forward kinematics of the result", i,
              chain->joint_y[i], copy.joint_y[i]);
    } else {
      REQUIRE(fabs(copy.joint_x[i] - chain->joint_x[i]) <= allowed,
              "joint x is not the forward kinematics of the result", i,
              chain->joint_x[i], copy.joint_x[i]);
      REQUIRE(fabs(copy.joint_y[i] - chain->joint_y[i]) <= allowed,
              "joint y is not the forward kinematics of the result", i,
              chain->joint_y[i], copy.joint_y[i]);
    }
  }
}

static void check_chain(const ik2d_chain *chain, int exact) {
  int i;
  REQUIRE(chain->scale >= 1.0 && isfinite(chain->scale), "bone scale below 1 or not finite",
          -1, chain->scale, 0);
  for (i = 0; i < chain->count; i++) {
    REQUIRE(isfinite(chain->angle[i]), "result angle not finite", i,
            chain->angle[i], chain->pose[i]);
    REQUIRE(isfinite(ik2d_chain_world_angle(chain, i)), "world angle not finite",
            i, ik2d_chain_world_angle(chain, i), 0);
  }
  if (representable(chain)) {
    for (i = 0; i <= chain->count; i++)
      REQUIRE(isfinite(chain->joint_x[i]) && isfinite(chain->joint_y[i]),
              "joint not finite", i, chain->joint_x[i], chain->joint_y[i]);
    check_lengths(chain);
  }
  if (exact || representable(chain)) check_joints_match(chain, exact);
}

/* ik2d_atan2 agrees with libm's atan2 to 2 ulps (NaN with NaN). */
static void check_atan2(double y, double x) {
  double mine = ik2d_atan2(y, x), libm = atan2(y, x), ulp;
  if (isnan(libm)) {
    REQUIRE(isnan(mine), "ik2d_atan2 not nan where atan2 is", -1, y, x);
    return;
  }
  ulp = nextafter(fabs(libm), INFINITY) - fabs(libm);
  REQUIRE(fabs(mine - libm) <= 2.0 * ulp, "ik2d_atan2 off libm's by more than 2 ulps", -1,
          mine, libm);
}

/* Every invariant of one solve.  pose_ok[i]: the pose of bone i was
** within its limits before the solve. */
static void check_solve(const ik2d_solver *s, int reached, const int *pose_ok) {
  const ik2d_chain *chain = s->chain;
  double dx, dy;
  int i;
  check_chain(chain, s->weight != 1.0);
  if (s->weight == 0.0) {
    REQUIRE(memcmp(chain->angle, chain->pose, chain->count * sizeof(double)) == 0,
            "weight 0 changed the pose", -1, 0, 0);
  }
  for (i = 0; i < chain->count; i++) {
    const ik2d_constraint *c = chain->constraint[i];
    double v;
    if (c == NULL) continue;
    v = violation(c, chain->angle[i] - chain->rest[i]);
    if (s->weight == 1.0 || pose_ok[i])
      REQUIRE(v <= angle_floor(chain, i, c), "limit broken", i,
              chain->angle[i] - chain->rest[i], v);
  }
  if (representable(chain) && isfinite(s->target_x) && isfinite(s->target_y))
    REQUIRE(!isnan(s->distance) && s->distance >= 0.0, "distance is nan", -1,
            s->distance, 0);
  REQUIRE(reached == s->reached, "solve's return differs from reached", -1,
          reached, s->reached);
  REQUIRE(s->reached == (s->distance <= s->tolerance), "reached disagrees with distance",
          -1, s->distance, s->tolerance);
  dx = s->target_x - chain->joint_x[chain->count];
  dy = s->target_y - chain->joint_y[chain->count];
  if (isfinite(dx) && isfinite(dy)) {
    double d = hypot(dx, dy);
    REQUIRE(isfinite(s->distance) || !isfinite(d), "distance overflowed", -1, s->distance, d);
    REQUIRE(isfinite(d) ? fabs(d - s->distance) <= 1e-12 * d + ldexp(4.0, -1074)
                        : s->distance == d,
            "distance is not |tip - target|", -1, d, s->distance);
  }
  REQUIRE(s->used_iterations >= 0 && s->used_iterations <= s->iterations + 1,
          "iterations used out of range", -1, s->used_iterations, s->iterations);
  for (i = 0; i < chain->count && s->have_solution; i++)
    check_atan2(s->solution_sin[i], s->solution_cos[i]);
  check_atan2(s->target_y - chain->base_y, s->target_x - chain->base_x);
}

/* The constraint's own clamp agrees with its limits. */
static void check_constraint(const ik2d_constraint *c, double delta) {
  double clamped = ik2d_constraint_clamp(c, delta), v;
  REQUIRE(!isnan(clamped), "constraint clamp gave nan", -1, delta, clamped);
  v = violation(c, clamped);
  {
    double m = max3(fabs(c->min), fabs(c->max), fabs(delta));
    REQUIRE(v <= LIMIT_EPS + 16.0 * DBL_EPSILON * (m > TWO_PI ? m : TWO_PI),
            "constraint clamp outside the limits", -1, delta, clamped);
  }
}

/* ------------------------------------------------------------------ */
/* the program                                                          */
/* ------------------------------------------------------------------ */

typedef struct world {
  ik2d_chain chain;
  ik2d_solver solver;
  ik2d_constraint pool[POOL];
  int pool_set[POOL];
} world;

/* A bitwise copy of w in copy, its pointers moved to copy's own parts. */
static void copy_world(world *copy, const world *w) {
  int i;
  memcpy(copy, w, sizeof *copy);
  copy->solver.chain = &copy->chain;
  for (i = 0; i < w->chain.count; i++) {
    const ik2d_constraint *c = w->chain.constraint[i];
    if (c != NULL) copy->chain.constraint[i] = &copy->pool[c - w->pool];
  }
}

/* The same solve on a bitwise copy must give the same bits. */
static int solve_twice(world *w) {
  static world twin, decoys[2];
  int reached, twin_reached;
  copy_world(&twin, w);
  /* two more chains in the twin's batch, aiming elsewhere, so that the
  ** batch interleaves chains that take different steps and stop at
  ** different times */
  copy_world(&decoys[0], w);
  copy_world(&decoys[1], w);
  decoys[0].solver.target_x = w->chain.base_x - (w->solver.target_y - w->chain.base_y);
  decoys[0].solver.target_y = w->chain.base_y + (w->solver.target_x - w->chain.base_x);
  decoys[1].solver.target_x = 0.5 * (w->chain.base_x + w->solver.target_x);
  decoys[1].solver.sweep = !w->solver.sweep;
  if (!isfinite(decoys[0].solver.target_x) || !isfinite(decoys[0].solver.target_y))
    decoys[0].solver.target_x = decoys[0].solver.target_y = 0.0;
  if (!isfinite(decoys[1].solver.target_x)) decoys[1].solver.target_x = 0.0;
  reached = ik2d_solver_solve(&w->solver);
  /* the twin goes through the batch entry point, which promises the
  ** same results as ik2d_solver_solve */
  {
    ik2d_solver *list[3];
    list[0] = &decoys[0].solver;
    list[1] = &twin.solver;
    list[2] = &decoys[1].solver;
    twin_reached = ik2d_solve_batch(list, 3) - decoys[0].solver.reached -
                   decoys[1].solver.reached;
  }
  REQUIRE(reached == twin_reached &&
              memcmp(w->chain.angle, twin.chain.angle, sizeof w->chain.angle) == 0 &&
              memcmp(w->chain.joint_x, twin.chain.joint_x, sizeof w->chain.joint_x) == 0 &&
              memcmp(w->chain.joint_y, twin.chain.joint_y, sizeof w->chain.joint_y) == 0 &&
              memcmp(&w->solver.distance, &twin.solver.distance, sizeof(double)) == 0 &&
              w->solver.used_iterations == twin.solver.used_iterations &&
              memcmp(w->solver.solution_cos, twin.solver.solution_cos,
                     sizeof w->solver.solution_cos) == 0 &&
              memcmp(w->solver.solution_sin, twin.solver.solution_sin,
                     sizeof w->solver.solution_sin) == 0,
          "same inputs, different outputs", -1, w->solver.distance,
          twin.solver.distance);
  return reached;
}

static void do_solve(world *w) {
  int pose_ok[IK2D_MAX_BONES], i, reached;
  ik2d_chain *chain = &w->chain;
  for (i = 0; i < chain->count; i++) {
    const ik2d_constraint *c = chain->constraint[i];
    pose_ok[i] = c == NULL || violation(c, chain->pose[i] - chain->rest[i]) == 0.0;
  }
  reached = solve_twice(w);
  check_solve(&w->solver, reached, pose_ok);
}

/* Sets constraint k from the input; a refused call must leave it as it was. */
static void set_limits(world *w, reader *r) {
  int k = byte_of(r) % POOL;
  ik2d_constraint *c = &w->pool[k], before;
  double a = angle_of(r), width, min, max;
  int invert = byte_of(r) & 1;
  ik2d_status status;
  memcpy(&before, c, sizeof before);
  switch (byte_of(r) % 8) {
    case 0: width = 0.0; break;                          /* pinned */
    case 1: width = TWO_PI; break;                       /* full circle */
    case 2: width = TWO_PI * (1.0 + unit_of(r)); break;  /* over-full */
    case 3: width = 1e-12 * unit_of(r); break;           /* a sliver */
    case 4: width = -unit_of(r); break;                  /* min > max */
    case 5: width = finite_or(raw_of(r), 1.0); break;
    default: width = TWO_PI * unit_of(r); break;
  }
  min = a;
  max = a + width;
  if (byte_of(r) % 16 == 0) min = raw_of(r); /* maybe nan or inf */
  status = ik2d_constraint_set(c, min, max, invert);
  if (status != IK2D_OK) {
    REQUIRE(memcmp(c, &before, sizeof before) == 0, "refused limits changed the constraint",
            k, min, max);
    REQUIRE(!(isfinite(min) && isfinite(max) && min <= max),
            "good limits refused", k, min, max);
    return;
  }
  REQUIRE(isfinite(min) && isfinite(max) && min <= max, "bad limits accepted", k, min, max);
  w->pool_set[k] = 1;
  check_constraint(c, angle_of(r));
  check_constraint(c, min);
  check_constraint(c, max);
}

/* A target chosen to hurt: the base, a joint, the tip, far, tiny. */
static void set_target(world *w, reader *r) {
  ik2d_chain *chain = &w->chain;
  ik2d_solver *s = &w->solver;
  ik2d_solver before;
  double x, y;
  int j = byte_of(r) % (chain->count + 1);
  ik2d_status status;
  memcpy(&before, s, sizeof before);
  switch (byte_of(r) % 10) {
    case 0: x = chain->base_x; y = chain->base_y; break;
    case 1: x = chain->joint_x[j]; y = chain->joint_y[j]; break;
    case 2:
      x = chain->joint_x[j] + denormal_of(r);
      y = chain->joint_y[j] - denormal_of(r);
      break;
    case 3: x = coordinate_of(r); y = coordinate_of(r); break;
    case 4: x = denormal_of(r); y = -denormal_of(r); break;
    case 5: x = raw_of(r); y = raw_of(r); break; /* maybe nan or inf */
    case 6: /* just out of reach */
      x = chain->base_x + chain->reach * (1.0 + 1e-12 * byte_of(r));
      y = chain->base_y;
      break;
    case 7: /* mirror image of the base under flip */
      x = 2.0 * chain->base_x - chain->joint_x[j];
      y = chain->joint_y[j];
      break;
    default: {
      double radius = chain->reach * 1.5 * unit_of(r), turn = TWO_PI * unit_of(r);
      x = chain->base_x + radius * cos(turn);
      y = chain->base_y + radius * sin(turn);
      break;
    }
  }
  status = ik2d_solver_set_target(s, x, y);
  if (isfinite(x) && isfinite(y)) {
    REQUIRE(status == IK2D_OK && s->target_x == x && s->target_y == y,
            "finite target refused", -1, x, y);
  } else {
    REQUIRE(status == IK2D_ERR_POSITION && memcmp(s, &before, sizeof before) == 0,
            "bad target accepted or solver changed", -1, x, y);
  }
}

static void set_settings(world *w, reader *r) {
  ik2d_solver *s = &w->solver, before;
  ik2d_status status;
  double v;
  memcpy(&before, s, sizeof before);
  switch (byte_of(r) % 8) {
    case 0: {
      static const double weights[] = {0.0, 1.0, 0.5, -1.0, 2.0, 1e-300,
                                       1.0 - DBL_EPSILON / 2, 0.0};
      unsigned k = byte_of(r) % 12;
      v = k < 8 ? weights[k] : k == 8 ? unit_of(r) : k == 9 ? HUGE_VAL
          : k == 10 ? -HUGE_VAL : raw_of(r);
      if (k == 7) v = denormal_of(r);
      status = ik2d_solver_set_weight(s, v);
      if (isnan(v)) {
        REQUIRE(status == IK2D_ERR_WEIGHT && memcmp(s, &before, sizeof before) == 0,
                "nan weight accepted", -1, v, 0);
      } else {
        REQUIRE(status == IK2D_OK && s->weight >= 0.0 && s->weight <= 1.0 &&
                    (v < 0.0 || v > 1.0 || s->weight == v),
                "weight not clamped to [0, 1]", -1, v, s->weight);
      }
      break;
    }
    case 1: {
      int n = byte_of(r) % 8 == 0 ? (int)(u32_of(r) % 400) - 8 : (int)(byte_of(r) % 40);
      status = ik2d_solver_set_iterations(s, n);
      REQUIRE((status == IK2D_OK) == (n >= 1), "iterations check", -1, n, status);
      break;
    }
    case 2:
      switch (byte_of(r) % 6) {
        case 0: v = 0.0; break;
        case 1: v = 1e-12; break;
        case 2: v = 0.01; break;
        case 3: v = unit_of(r) * w->chain.reach; break;
        case 4: v = 1e300; break;
        default: v = raw_of(r); break;
      }
      status = ik2d_solver_set_tolerance(s, v);
      REQUIRE((status == IK2D_OK) == (isfinite(v) && v >= 0.0), "tolerance check", -1, v, 0);
      break;
    case 3:
      switch (byte_of(r) % 6) {
        case 0: v = 0.0; break;
        case 1: v = unit_of(r) * PI; break;
        case 2: v = PI; break;
        case 3: v = 1e-300; break;
        case 4: v = 10.0; break;
        default: v = raw_of(r); break;
      }
      status = ik2d_solver_set_damping(s, v);
      REQUIRE((status == IK2D_OK) == (isfinite(v) && v >= 0.0), "damping check", -1, v, 0);
      break;
    case 4: {
      int method = byte_of(r) % 4;
      status = ik2d_solver_set_method(s, (ik2d_method)method);
      REQUIRE((status == IK2D_OK) ==
                  (method < 2 || (method == IK2D_TWO_BONE && w->chain.count == 2)),
              "method check", -1, method, w->chain.count);
      break;
    }
    case 5: {
      int bend = (int)(byte_of(r) % 5) - 2;
      status = ik2d_solver_set_bend(s, bend);
      REQUIRE((status == IK2D_OK) == (bend == 1 || bend == -1), "bend check", -1, bend, 0);
      break;
    }
    case 6: {
      /* softness, or with the top bit of the same byte the stretch (no
      ** extra byte: saved inputs keep their meaning) */
      unsigned k = byte_of(r);
      if (k & 0x80) {
        switch (k % 4) {
          case 0: v = 1.0; break;
          case 1: v = 1.0 + 4.0 * unit_of(r); break;
          case 2: v = 1e300; break;
          default: v = raw_of(r); break;
        }
        status = ik2d_solver_set_stretch(s, v);
        REQUIRE((status == IK2D_OK) == (isfinite(v) && v >= 1.0), "stretch check", -1, v, 0);
        break;
      }
      switch (k % 4) {
        case 0: v = 0.0; break;
        case 1: v = unit_of(r) * w->chain.reach; break;
        case 2: v = 1e300; break;
        default: v = raw_of(r); break;
      }
      status = ik2d_solver_set_softness(s, v);
      REQUIRE((status == IK2D_OK) == (isfinite(v) && v >= 0.0), "softness check", -1, v, 0);
      break;
    }
    default: {
      /* the switches the binding sets straight in the struct, from one
      ** byte (more bytes would shift every saved input's meaning) */
      unsigned bits = byte_of(r);
      s->warm_start = bits & 1;
      s->exact = !((bits >> 1) & 1);
      s->sweep = (bits >> 2) & 1 ? IK2D_SWEEP_TIP : IK2D_SWEEP_ROOT;
      if (byte_of(r) & 1) ik2d_solver_forget(s);
      return;
    }
  }
  if (status != IK2D_OK)
    REQUIRE(memcmp(s, &before, sizeof before) == 0, "refused setting changed the solver",
            -1, 0, 0);
}

static void set_pose(world *w, reader *r) {
  ik2d_chain *chain = &w->chain, before;
  int i = (int)(byte_of(r) % (chain->count + 2)) - 1; /* -1 and count too */
  double a = byte_of(r) % 16 == 0 ? raw_of(r) : angle_of(r);
  ik2d_status status;
  memcpy(&before, chain, sizeof before);
  status = ik2d_chain_set_pose(chain, i, a);
  if (i < 0 || i >= chain->count || !isfinite(a)) {
    REQUIRE(status != IK2D_OK && memcmp(chain, &before, sizeof before) == 0,
            "bad pose accepted or chain changed", i, a, status);
  } else {
    REQUIRE(status == IK2D_OK && chain->pose[i] == a && chain->angle[i] == a,
            "pose not set", i, a, chain->pose[i]);
    check_chain(chain, 1);
  }
}

static void set_base(world *w, reader *r) {
  ik2d_chain *chain = &w->chain, before;
  double x = coordinate_of(r), y = coordinate_of(r), a = angle_of(r);
  ik2d_status status;
  if (byte_of(r) % 16 == 0) x = raw_of(r);
  if (byte_of(r) % 16 == 0) a = raw_of(r);
  memcpy(&before, chain, sizeof before);
  status = ik2d_chain_set_base(chain, x, y, a);
  if (!isfinite(x) || !isfinite(y) || !isfinite(a)) {
    REQUIRE(status != IK2D_OK && memcmp(chain, &before, sizeof before) == 0,
            "bad base accepted or chain changed", -1, x, a);
  } else {
    REQUIRE(status == IK2D_OK, "good base refused", -1, x, a);
    check_chain(chain, 1);
  }
}

static void set_constraint(world *w, reader *r) {
  ik2d_chain *chain = &w->chain, before;
  int i = (int)(byte_of(r) % (chain->count + 2)) - 1;
  int k = byte_of(r) % (POOL + 1);
  const ik2d_constraint *c = k < POOL && w->pool_set[k] ? &w->pool[k] : NULL;
  ik2d_status status;
  memcpy(&before, chain, sizeof before);
  status = ik2d_chain_set_constraint(chain, i, c);
  if (i < 0 || i >= chain->count)
    REQUIRE(status == IK2D_ERR_INDEX && memcmp(chain, &before, sizeof before) == 0,
            "bad constraint index accepted", i, k, status);
  else
    REQUIRE(status == IK2D_OK && chain->constraint[i] == c, "constraint not set", i, k, 0);
}

static int build(world *w, reader *r) {
  double lengths[IK2D_MAX_BONES + 1], rests[IK2D_MAX_BONES + 1];
  unsigned head = byte_of(r);
  /* mostly short chains; 64 and the invalid 0 and 65 now and then */
  int count = head < 16 ? 64 : head < 20 ? (int)(head % 2) * 65 : 1 + (int)(head % 12);
  int i, bad = 0, with_rests;
  ik2d_chain before;
  ik2d_status status;
  if (head >= 20 && head < 40) count = 2;
  if (count > 64) count = 65;
  for (i = 0; i < count && i < IK2D_MAX_BONES + 1; i++) {
    lengths[i] = length_of(r);
    rests[i] = angle_of(r);
  }
  with_rests = byte_of(r) % 8 != 7;
  if (count >= 1 && byte_of(r) % 32 == 31) {
    /* a bad bone: zero, negative, nan or inf length, or nan rest */
    static const double lengths_bad[] = {0.0, -1.0, NAN, HUGE_VAL};
    int k = byte_of(r) % count;
    if (byte_of(r) & 1) {
      lengths[k] = lengths_bad[byte_of(r) % 4];
      bad = 1;
    } else {
      rests[k] = byte_of(r) & 1 ? NAN : -HUGE_VAL;
      bad = with_rests;
    }
  }
  memset(&w->chain, 0xA5, sizeof w->chain);
  memcpy(&before, &w->chain, sizeof before);
  status = ik2d_chain_init(&w->chain, count, lengths, with_rests ? rests : NULL);
  if (status != IK2D_OK) {
    double reach = 0.0;
    for (i = 0; i < count && count <= IK2D_MAX_BONES; i++) reach += lengths[i];
    REQUIRE(memcmp(&w->chain, &before, sizeof before) == 0, "refused chain was written",
            count, status, 0);
    REQUIRE(bad || count < 1 || count > IK2D_MAX_BONES || !isfinite(reach),
            "good chain refused", count, status, reach);
    return 0;
  }
  REQUIRE(!bad && count >= 1 && count <= IK2D_MAX_BONES, "bad chain accepted", count, 0, 0);
  for (i = 0; i < POOL; i++) w->pool_set[i] = 0;
  for (i = 0; i < POOL; i++) set_limits(w, r);
  for (i = 0; i < count; i++) {
    unsigned k = byte_of(r) % (POOL + 3);
    if (k < POOL && w->pool_set[k]) ik2d_chain_set_constraint(&w->chain, i, &w->pool[k]);
  }
  set_base(w, r);
  ik2d_chain_set_flip(&w->chain, byte_of(r) & 1);
  for (i = 0; i < count; i++)
    if (byte_of(r) & 1) ik2d_chain_set_pose(&w->chain, i, angle_of(r));
  check_chain(&w->chain, 1);
  REQUIRE(ik2d_solver_init(&w->solver, &w->chain) == IK2D_OK, "solver init", -1, 0, 0);
  current_solver = &w->solver;
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static world w;
  reader r;
  int ops = 0;
  r.p = data;
  r.n = size;
  current_chain = &w.chain;
  current_solver = NULL;
  if (!build(&w, &r)) return 0;
  set_target(&w, &r);
  do_solve(&w);
  while (r.n > 0 && ops++ < MAX_OPS) {
    switch (byte_of(&r) % 14) {
      case 0: case 1: case 2: case 3: do_solve(&w); break;
      case 4: set_target(&w, &r); break;
      case 5: set_pose(&w, &r); break;
      case 6: set_base(&w, &r); break;
      case 7: ik2d_chain_set_flip(&w.chain, byte_of(&r) & 1); check_chain(&w.chain, 1); break;
      case 8: set_limits(&w, &r); break;     /* limits edited between solves */
      case 9: set_constraint(&w, &r); break; /* added, moved or removed */
      case 10: case 11: set_settings(&w, &r); break;
      case 12: ik2d_chain_reset(&w.chain); check_chain(&w.chain, 1); break;
      default: {
        /* a fixed target solved again and again must settle */
        int k, n = 2 + byte_of(&r) % 6;
        for (k = 0; k < n; k++) do_solve(&w);
        break;
      }
    }
  }
  do_solve(&w);
  return 0;
}

/* ------------------------------------------------------------------ */
/* replay: a plain program over files, for `make test`                 */
/* ------------------------------------------------------------------ */

#ifdef IK2D_FUZZ_REPLAY
int main(int argc, char **argv) {
  static uint8_t buffer[1 << 20];
  int i, runs = 0;
  for (i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    size_t n;
    if (f == NULL) {
      fprintf(stderr, "ik2d_fuzz: cannot open %s\n", argv[i]);
      return 2;
    }
    n = fread(buffer, 1, sizeof buffer, f);
    fclose(f);
    fprintf(stderr, "ik2d_fuzz: %s\n", argv[i]);
    LLVMFuzzerTestOneInput(buffer, n);
    runs++;
  }
  printf("ik2d_fuzz: %d inputs replayed, no invariant broken\n", runs);
  return 0;
}
#endif
