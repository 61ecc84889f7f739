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
**     the solution's rotations and on the target's offset from the base;
**   - method follow with weight 1 leaves the tip on the target (the base
**     moved; the twin's base compared too).
**
** Aim mode (the same bits set to 10, which no regression has): the solver
** aims a ray (ik2d_solver_set_aim) read from the input, hostile values
** included, and the part of each operation's byte above the operation
** clears it, sets a hostile or a sane one, or tries a tip angle and method
** follow on an aimed solver; then the documented statuses, refused calls
** changing nothing, and the distance the ray's (libm's reckoning).
**
** Spring mode (bits 3 and 4 of the byte that says whether rests are kept,
** unused before, set to 01): a spring on the chain (some wind), and
** after every operation the part of its byte above the operation (byte /
** 14, ignored before) updates it with a hostile dt (0, 1/144 .. 7 s,
** 1e300, inf, NaN, negative, denormal; the base moved by the operations
** in between, so it runs, jumps and teleports to 1e300), sets a hostile
** stiffness, damping, mass (a number or one bone's entry of a per-bone
** array), gravity, wind or weight, sets colliders about the joints
** (circles and segments of hostile sizes, now and then a bad one or too
** many), or resets it; then: the chain's invariants, a finite state no
** faster than 720 pi rad/s, limits held (weight 1, or the target within
** them), weight 0 showing the target, a bitwise twin updated alongside
** giving the same bits, and refused calls (NaN or negative dt, bad
** settings or colliders, by the documented rules) changing nothing.
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

/* white-box: the invariants read the core's own structs */
#include "ik2d.h"
#include "ik2d_chain.h"
#include "ik2d_constraint.h"
#include "ik2d_math.h" /* ik2d_atan2 */
#include "ik2d_solver.h"
#include "ik2d_spring.h"

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
/* storage: objects in static memory, and bitwise copies of them        */
/* ------------------------------------------------------------------ */

/* Doubles enough for a chain, a solver or a spring of 64 bones. */
#define CHAIN_DOUBLES 1024
#define SOLVER_DOUBLES 512
#define SPRING_DOUBLES 1024

/* A pointer of an object relocated from src to dst: same offset. */
#define RELOCATE(dst, src, field) \
  ((dst)->field = (void *)((char *)(dst) + ((const char *)(src)->field - (const char *)(src))))

/* A bitwise copy of chain in memory (its arrays point into memory). */
static ik2d_chain *copy_chain(double *memory, const ik2d_chain *chain) {
  ik2d_chain *copy = (ik2d_chain *)(void *)memory;
  memcpy(memory, chain, ik2d_chain_size(chain->count));
  RELOCATE(copy, chain, length);
  RELOCATE(copy, chain, rest);
  RELOCATE(copy, chain, rest_rot);
  RELOCATE(copy, chain, pose);
  RELOCATE(copy, chain, angle);
  RELOCATE(copy, chain, constraint);
  RELOCATE(copy, chain, joints);
  return copy;
}

/* A bitwise copy of solver in memory, for chain. */
static ik2d_solver *copy_solver(double *memory, const ik2d_solver *solver,
                                ik2d_chain *chain) {
  ik2d_solver *copy = (ik2d_solver *)(void *)memory;
  memcpy(memory, solver, ik2d_solver_size(solver->chain->count));
  copy->chain = chain;
  return copy;
}

/* Is the object's memory unchanged (a refused call)? */
static int same_chain(const ik2d_chain *chain, const double *before) {
  return memcmp(chain, before, ik2d_chain_size(chain->count)) == 0;
}

static int same_solver(const ik2d_solver *solver, const double *before) {
  return memcmp(solver, before, ik2d_solver_size(solver->chain->count)) == 0;
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
          c->count, c->base_x, c->base_y, c->base_angle, (int)c->flip, c->reach);
  for (i = 0; i < c->count; i++) {
    const ik2d_constraint *k = c->constraint[i];
    fprintf(stderr, "  bone %d: length %.17g rest %.17g pose %.17g angle %.17g",
            i, c->length[i], c->rest[i], c->pose[i], c->angle[i]);
    if (k != NULL)
      fprintf(stderr, " limits [%.17g, %.17g]%s%s", k->def.min, k->def.max,
              k->def.invert ? " inverted" : "",
              k->def.space == IK2D_SPACE_WORLD ? " world" : "");
    fprintf(stderr, "\n");
  }
  for (i = 0; i <= c->count; i++)
    fprintf(stderr, "  joint %d: %.17g %.17g\n", i, c->joints[2 * i], c->joints[2 * i + 1]);
  if (s != NULL && s->have_solution)
    for (i = 0; i < c->count; i++)
      fprintf(stderr, "  warm start %d: %.17g (|r| - 1 = %.3g)\n", i,
              atan2(s->solution[i].s, s->solution[i].c),
              hypot(s->solution[i].c, s->solution[i].s) - 1.0);
  if (s != NULL)
    fprintf(stderr, "solver: method %d, iterations %d, tolerance %.17g, weight %.17g, "
            "target %.17g %.17g (%d), damping %.17g, warm %d/%d, bend %d, softness %.17g, "
            "distance %.17g, used %d, tip %d %.17g w %.3g, pole %d\n",
            (int)s->settings.method, s->settings.iterations,
            s->settings.tolerance, s->settings.weight, s->target_x, s->target_y,
            (int)s->has_target, s->settings.ccd.damping, (int)s->settings.warm_start,
            (int)s->have_solution, s->settings.two_bone.bend, s->settings.two_bone.softness,
            s->result.distance, s->result.iterations, (int)s->settings.tip.enabled,
            s->settings.tip.angle, s->settings.tip.weight, (int)s->settings.pole.enabled);
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
  double mid = 0.5 * (c->def.min + c->def.max), half = 0.5 * (c->def.max - c->def.min);
  double off;
  if (c->def.invert) {
    mid += PI;
    half = PI - half;
  }
  if (half >= PI) return 0.0;
  if (half < 0.0) half = 0.0;
  off = fabs(wrap(delta - mid));
  return off > half ? off - half : 0.0;
}

/* The angle bone i's limit measures, from the angles given (a: the
** result's or the pose's): the local angle, or for a world-space limit
** the world direction in chain space (unflipped), less the rest. */
static double limited_delta(const ik2d_chain *chain, const double *a, int i) {
  const ik2d_constraint *c = chain->constraint[i];
  double world = chain->base_angle;
  int k;
  if (c == NULL || c->def.space != IK2D_SPACE_WORLD) return a[i] - chain->rest[i];
  for (k = 0; k <= i; k++) world = wrap(world + a[k]);
  return world - chain->rest[i];
}

/* The precision floor of an angle check: a few ulps of the largest
** magnitude that went into the values compared. */
static double angle_floor(const ik2d_chain *chain, int i, const ik2d_constraint *c) {
  double m = max3(fabs(chain->angle[i]), fabs(chain->pose[i]), fabs(chain->rest[i]));
  m = max3(m, fabs(c->def.min), fabs(c->def.max));
  return LIMIT_EPS + 16.0 * DBL_EPSILON * (m > TWO_PI ? m : TWO_PI);
}

/* The floor of a limit check: for a world-space limit the world
** direction sums every angle up to bone i, each known only to the
** precision of its own magnitude. */
static double limit_floor(const ik2d_chain *chain, int i, const ik2d_constraint *c) {
  double floor = angle_floor(chain, i, c);
  int k;
  if (c->def.space != IK2D_SPACE_WORLD) return floor;
  for (k = 0; k < i; k++) floor += angle_floor(chain, k, c);
  return floor + 16.0 * DBL_EPSILON * fmax(fabs(chain->base_angle), TWO_PI);
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
    double x0 = chain->joints[2 * i], y0 = chain->joints[2 * i + 1];
    double x1 = chain->joints[2 * i + 2], y1 = chain->joints[2 * i + 3];
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
  static double memory[CHAIN_DOUBLES];
  ik2d_chain *copy = copy_chain(memory, chain);
  const double *joints = chain->joints, *fk = copy->joints;
  double unsure = 16.0 * DBL_EPSILON * (1.0 + fabs(chain->base_angle)), drift = 0.0;
  int i;
  ik2d__chain_update_joints(copy);
  for (i = 0; i <= chain->count; i++) {
    double m, allowed;
    if (i > 0) {
      const ik2d_constraint *c = chain->constraint[i - 1];
      double a = max3(fabs(chain->angle[i - 1]), fabs(chain->pose[i - 1]),
                      fabs(chain->rest[i - 1]));
      if (c != NULL) a = max3(a, fabs(c->def.min), fabs(c->def.max));
      unsure += 16.0 * DBL_EPSILON * (a > TWO_PI ? a : TWO_PI) + 64.0 * DBL_EPSILON;
      /* and the length of each rotation, which the core puts back on 1
      ** only when it is off by more than 1e-14 (solve_sane); the world
      ** direction of bone i compounds those of bones 0..i, which unsure,
      ** growing bone by bone, covers */
      drift += chain->length[i - 1] * ((unsure < 2.0 ? unsure : 2.0) + 1e-14);
    }
    m = max3(fabs(joints[2 * i]), fabs(joints[2 * i + 1]), 2.0 * fabs(chain->base_x));
    allowed = exact ? 0.0 : drift + 8.0 * DBL_EPSILON * m + ldexp(8.0 * (i + 1), -1074);
    if (!isfinite(allowed)) {
      /* angles so large that their trig says nothing: finite is all */
      REQUIRE(isfinite(fk[2 * i]) == isfinite(joints[2 * i]) &&
                  isfinite(fk[2 * i + 1]) == isfinite(joints[2 * i + 1]),
              "joint finite in one computation only", i, joints[2 * i], fk[2 * i]);
    } else if (exact) {
      REQUIRE(memcmp(&fk[2 * i], &joints[2 * i], 2 * sizeof(double)) == 0,
              "joint is not the forward kinematics of the result", i, joints[2 * i],
              fk[2 * i]);
    } else {
      REQUIRE(fabs(fk[2 * i] - joints[2 * i]) <= allowed,
              "joint x is not the forward kinematics of the result", i, joints[2 * i],
              fk[2 * i]);
      REQUIRE(fabs(fk[2 * i + 1] - joints[2 * i + 1]) <= allowed,
              "joint y is not the forward kinematics of the result", i,
              joints[2 * i + 1], fk[2 * i + 1]);
    }
  }
}

static void check_chain(const ik2d_chain *chain, int exact) {
  int i;
  /* stretch scales up, a one-bone compress down (to 0 at the most) */
  REQUIRE(chain->scale >= 0.0 && isfinite(chain->scale), "bone scale negative or not finite",
          -1, chain->scale, 0);
  for (i = 0; i < chain->count; i++) {
    double world = 0.0;
    REQUIRE(isfinite(chain->angle[i]), "result angle not finite", i,
            chain->angle[i], chain->pose[i]);
    ik2d_chain_world_angle(chain, i, &world);
    REQUIRE(isfinite(world), "world angle not finite", i, world, 0);
  }
  if (representable(chain)) {
    for (i = 0; i <= chain->count; i++)
      REQUIRE(isfinite(chain->joints[2 * i]) && isfinite(chain->joints[2 * i + 1]),
              "joint not finite", i, chain->joints[2 * i], chain->joints[2 * i + 1]);
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

/* Follow with weight 1 puts the tip on the target: the base is one chain
** behind it along the solution's rotations, and the joints come from the
** angles of those rotations.  Checked where the angles are known well
** (below 1e6 rad: beyond, their rounding says little of a direction) and
** the geometry fits in doubles; the floor is that of check_joints_match,
** bone by bone, plus a few ulps of the coordinates, the base's before the
** solve included: the drag works relative to it (and mirrored about it
** when flipped), so a rope dragged from x = 500 to 0 ends known to ulps
** of 500. */
static void check_follow(const ik2d_solver *s, double target_x, double target_y,
                         double old_x, double old_y) {
  const ik2d_chain *chain = s->chain;
  double unsure = 16.0 * DBL_EPSILON * (1.0 + fabs(chain->base_angle)), drift = 0.0, m;
  double tip_x = chain->joints[2 * chain->count], tip_y = chain->joints[2 * chain->count + 1];
  int i;
  if (s->settings.method != IK2D_FOLLOW || s->settings.weight != 1.0 ||
      !representable(chain) || !(fabs(target_x) < DBL_MAX / 8) || !(fabs(target_y) < DBL_MAX / 8))
    return;
  for (i = 0; i < chain->count; i++) {
    double a = max3(fabs(chain->angle[i]), fabs(chain->pose[i]), fabs(chain->rest[i]));
    if (a > 1e6) return;
    unsure += 16.0 * DBL_EPSILON * (a > TWO_PI ? a : TWO_PI) + 64.0 * DBL_EPSILON;
    drift += chain->length[i] * chain->scale * (unsure + 1e-14);
  }
  m = max3(fabs(tip_x), fabs(tip_y), 2.0 * fabs(chain->base_x));
  m = max3(m, fabs(target_x), fabs(target_y));
  m = max3(m, 2.0 * fabs(old_x), fabs(old_y));
  REQUIRE(hypot(tip_x - target_x, tip_y - target_y) <=
              2.0 * drift + 16.0 * DBL_EPSILON * m + ldexp(8.0 * (chain->count + 1), -1074),
          "follow left the tip off the target", -1, hypot(tip_x - target_x, tip_y - target_y),
          drift);
}

/* An aimed solve's distance is the target's from the ray (from its line
** ahead of the origin, from the origin behind it), reckoned here with
** libm from the result's angles and joints in chain space.  Checked where
** the angles are known well (below 1e6 rad) and the ray's origin fits;
** the floor: the direction's rounding over the ray's length, and a few
** ulps of the coordinates. */
static void check_aim_distance(const ik2d_solver *s, double target_x, double target_y) {
  const ik2d_chain *chain = s->chain;
  const ik2d_aim_def *aim = &s->settings.aim;
  int last = chain->count - 1, i;
  double world = chain->base_angle, unsure = 16.0 * DBL_EPSILON * (TWO_PI + fabs(aim->angle));
  double jx = chain->joints[2 * last], jy = chain->joints[2 * last + 1];
  double ox, oy, ux, uy, dx, dy, mine, m;
  REQUIRE(!isnan(s->result.distance) && s->result.distance >= 0.0, "aim distance is nan", -1,
          s->result.distance, 0);
  if (!representable(chain) || !(fabs(target_x) < 1e300) || !(fabs(target_y) < 1e300) ||
      !(fabs(aim->x) < 1e300) || !(fabs(aim->y) < 1e300) || fabs(chain->base_angle) > 1e6 ||
      fabs(aim->angle) > 1e6)
    return;
  for (i = 0; i < chain->count; i++) {
    double a = fabs(chain->angle[i]);
    if (a > 1e6) return;
    world += chain->angle[i];
    unsure += 16.0 * DBL_EPSILON * (a > TWO_PI ? a : TWO_PI) + 64.0 * DBL_EPSILON;
  }
  if (chain->flip) {
    jx = 2.0 * chain->base_x - jx;
    target_x = 2.0 * chain->base_x - target_x;
  }
  ox = jx + cos(world) * aim->x - sin(world) * aim->y;
  oy = jy + sin(world) * aim->x + cos(world) * aim->y;
  ux = cos(world + aim->angle);
  uy = sin(world + aim->angle);
  dx = target_x - ox;
  dy = target_y - oy;
  if (!isfinite(dx) || !isfinite(dy) || !isfinite(hypot(dx, dy))) return;
  mine = dx * ux + dy * uy > 0.0 ? fabs(ux * dy - uy * dx) : hypot(dx, dy);
  m = max3(fabs(jx), fabs(jy), 2.0 * fabs(chain->base_x));
  m = max3(m, fabs(target_x), fabs(target_y));
  m = max3(m, fabs(ox), fabs(oy));
  REQUIRE(fabs(mine - s->result.distance) <=
              unsure * (hypot(dx, dy) + hypot(aim->x, aim->y)) + 64.0 * DBL_EPSILON * m +
                  ldexp(16.0, -1074),
          "aimed distance is not the ray's", -1, mine, s->result.distance);
}

/* Every invariant of one solve.  pose_ok[i]: the pose of bone i was
** within its limits before the solve. */
static void check_solve(const ik2d_solver *s, int reached, const int *pose_ok,
                        double old_x, double old_y) {
  const ik2d_chain *chain = s->chain;
  double dx, dy, target_x, target_y, weight = s->settings.weight;
  int i;
  ik2d_solver_target(s, &target_x, &target_y);
  check_chain(chain, weight != 1.0);
  if (weight == 0.0) {
    REQUIRE(memcmp(chain->angle, chain->pose, chain->count * sizeof(double)) == 0,
            "weight 0 changed the pose", -1, 0, 0);
  }
  for (i = 0; i < chain->count; i++) {
    const ik2d_constraint *c = chain->constraint[i];
    double v;
    if (c == NULL) continue;
    v = violation(c, limited_delta(chain, chain->angle, i));
    /* a world-space limit holds the IK answer (weight 1); a blend with
    ** the pose turns every parent too */
    if (weight == 1.0 || (pose_ok[i] && c->def.space == IK2D_SPACE_PARENT))
      REQUIRE(v <= limit_floor(chain, i, c), "limit broken", i,
              limited_delta(chain, chain->angle, i), v);
  }
  if (representable(chain) && isfinite(target_x) && isfinite(target_y))
    REQUIRE(!isnan(s->result.distance) && s->result.distance >= 0.0, "distance is nan", -1,
            s->result.distance, 0);
  REQUIRE(reached == s->result.reached, "solve's return differs from reached", -1,
          reached, s->result.reached);
  REQUIRE(s->result.reached == (s->result.distance <= s->settings.tolerance),
          "reached disagrees with distance", -1, s->result.distance, s->settings.tolerance);
  dx = target_x - chain->joints[2 * chain->count];
  dy = target_y - chain->joints[2 * chain->count + 1];
  if (s->settings.aim.enabled) {
    check_aim_distance(s, target_x, target_y);
  } else if (isfinite(dx) && isfinite(dy)) {
    double d = hypot(dx, dy);
    REQUIRE(isfinite(s->result.distance) || !isfinite(d), "distance overflowed", -1,
            s->result.distance, d);
    /* libm's hypot is within an ulp, so where it overflows the distance
    ** is DBL_MAX less an ulp or more: the core's own hypot then gives
    ** DBL_MAX or infinity, as it rounds */
    REQUIRE(isfinite(d) ? fabs(d - s->result.distance) <= 1e-12 * d + ldexp(4.0, -1074)
                        : s->result.distance >= DBL_MAX * (1.0 - 1e-12),
            "distance is not |tip - target|", -1, d, s->result.distance);
  }
  REQUIRE(s->result.iterations >= 0 && s->result.iterations <= s->settings.iterations + 1,
          "iterations used out of range", -1, s->result.iterations, s->settings.iterations);
  for (i = 0; i < chain->count && s->have_solution; i++)
    check_atan2(s->solution[i].s, s->solution[i].c);
  check_atan2(target_y - chain->base_y, target_x - chain->base_x);
  check_follow(s, target_x, target_y, old_x, old_y);
}

/* The constraint's own clamp agrees with its limits. */
static void check_constraint(const ik2d_constraint *c, double delta) {
  double clamped = ik2d_constraint_clamp(c, delta), v;
  REQUIRE(!isnan(clamped), "constraint clamp gave nan", -1, delta, clamped);
  v = violation(c, clamped);
  {
    double m = max3(fabs(c->def.min), fabs(c->def.max), fabs(delta));
    REQUIRE(v <= LIMIT_EPS + 16.0 * DBL_EPSILON * (m > TWO_PI ? m : TWO_PI),
            "constraint clamp outside the limits", -1, delta, clamped);
  }
}

/* ------------------------------------------------------------------ */
/* the program                                                          */
/* ------------------------------------------------------------------ */

typedef struct world {
  double chain_memory[CHAIN_DOUBLES], solver_memory[SOLVER_DOUBLES];
  ik2d_chain *chain;
  ik2d_solver *solver;
  ik2d_constraint pool[POOL];
  int pool_set[POOL];
  /* spring mode: a spring on the chain, acted on after every operation */
  double spring_memory[SPRING_DOUBLES];
  ik2d_spring *spring;
  unsigned spring_turn;  /* varies the spring's values without bytes */
  /* aim mode: the solver aims; aim_turn varies its values without bytes */
  int aim_mode;
  unsigned aim_turn;
} world;

/* A bitwise copy of w in copy, its pointers moved to copy's own parts. */
static void copy_world(world *copy, const world *w) {
  int i;
  memcpy(copy->pool, w->pool, sizeof copy->pool);
  memcpy(copy->pool_set, w->pool_set, sizeof copy->pool_set);
  copy->chain = copy_chain(copy->chain_memory, w->chain);
  copy->solver = copy_solver(copy->solver_memory, w->solver, copy->chain);
  for (i = 0; i < w->chain->count; i++) {
    const ik2d_constraint *c = w->chain->constraint[i];
    if (c != NULL) copy->chain->constraint[i] = &copy->pool[c - w->pool];
  }
}

/* The same solve on a bitwise copy must give the same bits. */
static int solve_twice(world *w) {
  static world twin, decoys[2];
  const ik2d_chain *chain = w->chain;
  const ik2d_solver *solver = w->solver;
  int reached, twin_reached, n = chain->count;
  double tx, ty;
  copy_world(&twin, w);
  /* two more chains in the twin's batch, aiming elsewhere, so that the
  ** batch interleaves chains that take different steps and stop at
  ** different times */
  copy_world(&decoys[0], w);
  copy_world(&decoys[1], w);
  ik2d_solver_target(solver, &tx, &ty);
  if (ik2d_solver_set_target(decoys[0].solver, chain->base_x - (ty - chain->base_y),
                             chain->base_y + (tx - chain->base_x)) != IK2D_OK)
    ik2d_solver_set_target(decoys[0].solver, 0.0, 0.0);
  if (ik2d_solver_set_target(decoys[1].solver, 0.5 * (chain->base_x + tx), ty) != IK2D_OK)
    ik2d_solver_set_target(decoys[1].solver, 0.0, ty);
  ik2d_solver_set_sweep(decoys[1].solver, solver->settings.ccd.sweep == IK2D_SWEEP_ROOT
                                              ? IK2D_SWEEP_TIP
                                              : IK2D_SWEEP_ROOT);
  reached = ik2d_solver_solve(w->solver);
  /* the twin goes through the batch entry point, which promises the
  ** same results as ik2d_solver_solve on every instruction set: one
  ** picked from the input (an unsupported one runs the best below it) */
  {
    ik2d_solver *list[3];
    ik2d_isa isa = (ik2d_isa)((n + solver->settings.iterations) % 4);
    list[0] = decoys[0].solver;
    list[1] = twin.solver;
    list[2] = decoys[1].solver;
    twin_reached = ik2d_solvers_solve_isa(list, 3, isa) - decoys[0].solver->result.reached -
                   decoys[1].solver->result.reached;
  }
  REQUIRE(reached == twin_reached &&
              memcmp(chain->angle, twin.chain->angle, n * sizeof(double)) == 0 &&
              memcmp(chain->joints, twin.chain->joints, 2 * (n + 1) * sizeof(double)) == 0 &&
              memcmp(&chain->base_x, &twin.chain->base_x, sizeof(double)) == 0 &&
              memcmp(&chain->base_y, &twin.chain->base_y, sizeof(double)) == 0 &&
              memcmp(&solver->result.distance, &twin.solver->result.distance,
                     sizeof(double)) == 0 &&
              solver->result.iterations == twin.solver->result.iterations &&
              memcmp(solver->solution, twin.solver->solution, n * sizeof(ik2d_rot)) == 0 &&
              /* the solution's angles follow its rotations */
              memcmp(solver->solution + n, twin.solver->solution + n,
                     n * sizeof(double)) == 0,
          "same inputs, different outputs", -1, solver->result.distance,
          twin.solver->result.distance);
  return reached;
}

static void do_solve(world *w) {
  int pose_ok[IK2D_MAX_BONES], i, reached;
  ik2d_chain *chain = w->chain;
  double old_x = chain->base_x, old_y = chain->base_y;
  for (i = 0; i < chain->count; i++) {
    const ik2d_constraint *c = chain->constraint[i];
    pose_ok[i] = c == NULL || violation(c, limited_delta(chain, chain->pose, i)) == 0.0;
  }
  reached = solve_twice(w);
  check_solve(w->solver, reached, pose_ok, old_x, old_y);
}

/* Sets constraint k from the input; a refused call must leave it as it
** was.  Good limits: finite, min <= max, both within [-2 pi, 2 pi]
** (larger ones are degrees by mistake). */
static void set_limits(world *w, reader *r) {
  int k = byte_of(r) % POOL;
  ik2d_constraint *c = &w->pool[k], before;
  ik2d_constraint_def def;
  double a = angle_of(r), width;
  int good;
  ik2d_status status;
  unsigned flags = byte_of(r);
  def.invert = flags & 1;
  def.space = (flags >> 1) & 1 ? IK2D_SPACE_WORLD : IK2D_SPACE_PARENT;
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
  /* mostly inside the range a limit may take */
  if (fabs(a) > TWO_PI && byte_of(r) % 4 != 0) a = fmod(a, TWO_PI);
  def.min = a;
  def.max = a + width;
  if (fabs(def.max) > TWO_PI && width > 0.0 && byte_of(r) % 4 != 0) {
    def.max = def.max > 0.0 ? TWO_PI : -TWO_PI;
    def.min = def.max - width < -TWO_PI ? -TWO_PI : def.max - width;
  }
  if (byte_of(r) % 16 == 0) def.min = raw_of(r); /* maybe nan or inf */
  good = isfinite(def.min) && isfinite(def.max) && def.min <= def.max &&
         fabs(def.min) <= TWO_PI && fabs(def.max) <= TWO_PI;
  status = ik2d_constraint_init(c, sizeof *c, &def);
  if (status != IK2D_OK) {
    REQUIRE(memcmp(c, &before, sizeof before) == 0, "refused limits changed the constraint",
            k, def.min, def.max);
    REQUIRE(!good, "good limits refused", k, def.min, def.max);
    return;
  }
  REQUIRE(good, "bad limits accepted", k, def.min, def.max);
  w->pool_set[k] = 1;
  check_constraint(c, angle_of(r));
  check_constraint(c, def.min);
  check_constraint(c, def.max);
}

/* A target chosen to hurt: the base, a joint, the tip, far, tiny. */
static void set_target(world *w, reader *r) {
  ik2d_chain *chain = w->chain;
  ik2d_solver *s = w->solver;
  static double before[SOLVER_DOUBLES];
  const double *joints = chain->joints;
  double x, y;
  int j = byte_of(r) % (chain->count + 1);
  ik2d_status status;
  memcpy(before, s, ik2d_solver_size(chain->count));
  switch (byte_of(r) % 10) {
    case 0: x = chain->base_x; y = chain->base_y; break;
    case 1: x = joints[2 * j]; y = joints[2 * j + 1]; break;
    case 2:
      x = joints[2 * j] + denormal_of(r);
      y = joints[2 * j + 1] - denormal_of(r);
      break;
    case 3: x = coordinate_of(r); y = coordinate_of(r); break;
    case 4: x = denormal_of(r); y = -denormal_of(r); break;
    case 5: x = raw_of(r); y = raw_of(r); break; /* maybe nan or inf */
    case 6: /* just out of reach */
      x = chain->base_x + chain->reach * (1.0 + 1e-12 * byte_of(r));
      y = chain->base_y;
      break;
    case 7: /* mirror image of the base under flip */
      x = 2.0 * chain->base_x - joints[2 * j];
      y = joints[2 * j + 1];
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
    REQUIRE(status == IK2D_OK && s->target_x == x && s->target_y == y && s->has_target,
            "finite target refused", -1, x, y);
  } else {
    REQUIRE(status == (isfinite(x) ? IK2D_ERR_TARGET_Y : IK2D_ERR_TARGET_X) &&
                same_solver(s, before),
            "bad target accepted or solver changed", -1, x, y);
  }
}

static void set_settings(world *w, reader *r) {
  ik2d_solver *s = w->solver;
  static double before[SOLVER_DOUBLES];
  ik2d_status status;
  double v;
  memcpy(before, s, ik2d_solver_size(w->chain->count));
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
        REQUIRE(status == IK2D_ERR_WEIGHT && same_solver(s, before),
                "nan weight accepted", -1, v, 0);
      } else {
        REQUIRE(status == IK2D_OK && s->settings.weight >= 0.0 && s->settings.weight <= 1.0 &&
                    (v < 0.0 || v > 1.0 || s->settings.weight == v),
                "weight not clamped to [0, 1]", -1, v, s->settings.weight);
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
        case 3: v = unit_of(r) * w->chain->reach; break;
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
      /* 3 is follow; with the byte's top bit (unused before), the first
      ** value past the methods, refused */
      unsigned k = byte_of(r);
      int method = k % 4 == 3 && (k & 0x80) ? IK2D_FOLLOW + 1 : (int)(k % 4);
      bool aimed = s->settings.aim.enabled;
      status = ik2d_solver_set_method(s, (ik2d_method)method);
      REQUIRE((status == IK2D_OK) ==
                  ((method < 2 || method == IK2D_FOLLOW ||
                    (method == IK2D_TWO_BONE && w->chain->count == 2)) &&
                   !(aimed && method == IK2D_FOLLOW)),
              "method check", -1, method, w->chain->count);
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
        case 1: v = unit_of(r) * w->chain->reach; break;
        case 2: v = 1e300; break;
        default: v = raw_of(r); break;
      }
      status = ik2d_solver_set_softness(s, v);
      REQUIRE((status == IK2D_OK) == (isfinite(v) && v >= 0.0), "softness check", -1, v, 0);
      break;
    }
    default: {
      /* the switches, from one byte (more bytes would shift every saved
      ** input's meaning); an out-of-range sweep is refused */
      unsigned bits = byte_of(r);
      ik2d_solver_set_warm_start(s, bits & 1);
      ik2d_solver_set_exact(s, !((bits >> 1) & 1));
      ik2d_solver_set_sweep(s, (bits >> 2) & 1 ? IK2D_SWEEP_TIP : IK2D_SWEEP_ROOT);
      /* the effector controls, from the same byte's higher bits */
      if ((bits >> 3) & 1) {
        double a = angle_of(r), weight = (byte_of(r) % 5) * 0.25;
        ik2d_status want = !isfinite(a) ? IK2D_ERR_TIP_ANGLE
                           : s->settings.aim.enabled ? IK2D_ERR_AIM_TIP : IK2D_OK;
        REQUIRE(ik2d_solver_set_tip_angle(s, a, weight) == want, "tip angle check", -1, a,
                weight);
      } else {
        ik2d_solver_clear_tip_angle(s);
      }
      if ((bits >> 4) & 1) {
        double x = coordinate_of(r), y = coordinate_of(r);
        REQUIRE(ik2d_solver_set_pole(s, x, y) == IK2D_OK, "pole refused", -1, x, y);
      } else {
        ik2d_solver_clear_pole(s);
      }
      ik2d_solver_set_softness_curve(s, (bits >> 5) & 1 ? IK2D_SOFTNESS_SPINE
                                                       : IK2D_SOFTNESS_SMOOTH);
      ik2d_solver_set_compress(s, (bits >> 6) & 1 ? 0.5 * unit_of(r) : 1.0);
      s->settings.two_bone.uniform = (bits >> 7) & 1;
      if (byte_of(r) & 1) ik2d_solver_forget(s);
      memcpy(before, s, ik2d_solver_size(w->chain->count));
      status = ik2d_solver_set_sweep(s, (ik2d_sweep)(2 + (bits >> 3)));
      REQUIRE(status == IK2D_ERR_SWEEP, "bad sweep accepted", -1, bits, status);
      break;
    }
  }
  if (status != IK2D_OK)
    REQUIRE(same_solver(s, before), "refused setting changed the solver", -1, 0, 0);
}

/* After an edit: the chain as it was to the bit (a value it had, set
** again, changes nothing), or its joints the forward kinematics of its
** result exactly. */
static void check_edited(const ik2d_chain *chain, const double *before) {
  if (!same_chain(chain, before)) check_chain(chain, 1);
}

/* The flip set: as an edit. */
static void set_flip(world *w, reader *r) {
  static double before[CHAIN_DOUBLES];
  memcpy(before, w->chain, ik2d_chain_size(w->chain->count));
  ik2d_chain_set_flip(w->chain, byte_of(r) & 1);
  check_edited(w->chain, before);
}

static void set_pose(world *w, reader *r) {
  ik2d_chain *chain = w->chain;
  static double before[CHAIN_DOUBLES];
  int i = (int)(byte_of(r) % (chain->count + 2)) - 1; /* -1 and count too */
  double a = byte_of(r) % 16 == 0 ? raw_of(r) : angle_of(r);
  ik2d_status status;
  memcpy(before, chain, ik2d_chain_size(chain->count));
  status = ik2d_chain_set_pose(chain, i, a);
  if (i < 0 || i >= chain->count || !isfinite(a)) {
    REQUIRE(status != IK2D_OK && same_chain(chain, before),
            "bad pose accepted or chain changed", i, a, status);
  } else {
    REQUIRE(status == IK2D_OK && chain->pose[i] == a && chain->angle[i] == a,
            "pose not set", i, a, chain->pose[i]);
    check_edited(chain, before);
  }
}

static void set_base(world *w, reader *r) {
  ik2d_chain *chain = w->chain;
  static double before[CHAIN_DOUBLES];
  double x = coordinate_of(r), y = coordinate_of(r), a = angle_of(r);
  ik2d_status status;
  if (byte_of(r) % 16 == 0) x = raw_of(r);
  if (byte_of(r) % 16 == 0) a = raw_of(r);
  memcpy(before, chain, ik2d_chain_size(chain->count));
  status = ik2d_chain_set_base(chain, x, y, a);
  if (!isfinite(x) || !isfinite(y) || !isfinite(a)) {
    REQUIRE(status != IK2D_OK && same_chain(chain, before),
            "bad base accepted or chain changed", -1, x, a);
  } else {
    double kept;
    REQUIRE(status == IK2D_OK, "good base refused", -1, x, a);
    ik2d_chain_base(chain, NULL, NULL, &kept);
    REQUIRE(kept > -PI && kept <= PI, "base angle not kept in (-pi, pi]", -1, a, kept);
    /* the same direction, where the reference wrap can tell */
    REQUIRE(fabs(a) > 1e6 || fabs(wrap(kept - a)) <= 64.0 * DBL_EPSILON * fmax(fabs(a), PI),
            "base angle kept is another direction", -1, a, kept);
    check_edited(chain, before);
  }
}

static void set_constraint(world *w, reader *r) {
  ik2d_chain *chain = w->chain;
  static double before[CHAIN_DOUBLES];
  int i = (int)(byte_of(r) % (chain->count + 2)) - 1;
  int k = byte_of(r) % (POOL + 1);
  const ik2d_constraint *c = k < POOL && w->pool_set[k] ? &w->pool[k] : NULL;
  ik2d_status status;
  memcpy(before, chain, ik2d_chain_size(chain->count));
  status = ik2d_chain_set_constraint(chain, i, c);
  if (i < 0 || i >= chain->count)
    REQUIRE(status == IK2D_ERR_INDEX && same_chain(chain, before),
            "bad constraint index accepted", i, k, status);
  else
    REQUIRE(status == IK2D_OK && chain->constraint[i] == c, "constraint not set", i, k, 0);
}

/* ------------------------------------------------------------------ */
/* springs                                                              */
/* ------------------------------------------------------------------ */

/* A bitwise copy of spring in memory, for chain. */
static ik2d_spring *copy_spring(double *memory, const ik2d_spring *spring,
                                ik2d_chain *chain) {
  ik2d_spring *copy = (ik2d_spring *)(void *)memory;
  memcpy(memory, spring, ik2d_spring_size(spring->chain->count));
  copy->chain = chain;
  RELOCATE(copy, spring, world);
  RELOCATE(copy, spring, velocity);
  RELOCATE(copy, spring, neutral);
  RELOCATE(copy, spring, written);
  RELOCATE(copy, spring, stiffness);
  RELOCATE(copy, spring, damping);
  RELOCATE(copy, spring, mass);
  RELOCATE(copy, spring, moving);
  /* a per-bone setting points at the spring's own array */
  if (copy->settings.stiffness_per_bone != NULL) copy->settings.stiffness_per_bone = copy->stiffness;
  if (copy->settings.damping_per_bone != NULL) copy->settings.damping_per_bone = copy->damping;
  if (copy->settings.mass_per_bone != NULL) copy->settings.mass_per_bone = copy->mass;
  return copy;
}

static int same_spring(const ik2d_spring *spring, const double *before) {
  return memcmp(spring, before, ik2d_spring_size(spring->chain->count)) == 0;
}

/* Every invariant of a spring and, when it wrote one, its result: the
** chain's (the joints are the forward kinematics of the angles bit for
** bit, lengths kept, all finite); a finite state whose speed is at most
** 720 pi rad/s; limits held with weight 1 and whenever the neutral
** angle is within them; weight 0 shows the neutral angle. */
static void check_spring(const ik2d_spring *sp, int wrote) {
  const ik2d_chain *chain = sp->chain;
  double weight = sp->settings.weight;
  int i;
  check_chain(chain, 1);
  REQUIRE(weight >= 0.0 && weight <= 1.0, "spring weight outside [0, 1]", -1, weight, 0);
  for (i = 0; i < chain->count; i++) {
    const ik2d_constraint *c = chain->constraint[i];
    REQUIRE(isfinite(sp->world[i]) && fabs(sp->world[i]) <= PI, "spring direction not finite",
            i, sp->world[i], 0);
    REQUIRE(isfinite(sp->velocity[i]) && fabs(sp->velocity[i]) <= 720.0 * PI,
            "spring velocity not finite or above 720 pi rad/s", i, sp->velocity[i], 0);
    if (!wrote) continue;
    if (weight == 0.0)
      REQUIRE(chain->angle[i] == sp->neutral[i], "spring weight 0 changed the neutral angle", i,
              chain->angle[i], sp->neutral[i]);
    /* a world-space limit holds the spring's own direction (weight 1);
    ** a blend with the neutral angle turns every parent too */
    if (c != NULL && (weight == 1.0 || (c->def.space == IK2D_SPACE_PARENT &&
                                        violation(c, sp->neutral[i] - chain->rest[i]) == 0.0)))
      REQUIRE(violation(c, limited_delta(chain, chain->angle, i)) <= limit_floor(chain, i, c),
              "spring broke a limit", i, limited_delta(chain, chain->angle, i),
              violation(c, limited_delta(chain, chain->angle, i)));
  }
}

/* An update of dt: refused (and nothing changed) for NaN and negative dt;
** else the invariants, and a bitwise copy updated alongside gives the
** same bits. */
static void spring_update(world *w, double dt) {
  static double before_chain[CHAIN_DOUBLES], before_spring[SPRING_DOUBLES];
  static double twin_chain[CHAIN_DOUBLES], twin_spring[SPRING_DOUBLES];
  ik2d_spring *sp = w->spring, *twin;
  ik2d_chain *chain = w->chain;
  int n = chain->count;
  ik2d_status status;
  memcpy(before_chain, chain, ik2d_chain_size(n));
  memcpy(before_spring, sp, ik2d_spring_size(n));
  twin = copy_spring(twin_spring, sp, copy_chain(twin_chain, chain));
  status = ik2d_spring_update(sp, dt);
  if (isnan(dt) || dt < 0.0) {
    REQUIRE(status == IK2D_ERR_DT && same_chain(chain, before_chain) &&
                same_spring(sp, before_spring),
            "bad dt accepted or spring changed", -1, dt, status);
    return;
  }
  REQUIRE(status == IK2D_OK, "good dt refused", -1, dt, status);
  ik2d_spring_update(twin, dt);
  REQUIRE(memcmp(chain->angle, twin->chain->angle, n * sizeof(double)) == 0 &&
              memcmp(chain->joints, twin->chain->joints, 2 * (n + 1) * sizeof(double)) == 0 &&
              memcmp(sp->world, twin->world, n * sizeof(double)) == 0 &&
              memcmp(sp->velocity, twin->velocity, n * sizeof(double)) == 0,
          "same spring inputs, different outputs", -1, dt, 0);
  check_spring(sp, 1);
}

static const double spring_values[] = {0.0, 1.0, 100.0, 1e6, 1e300, DBL_MAX, 1e-300, 5e-324,
                                       -1.0, NAN, INFINITY, 0.5, 2.0, 980.0, -980.0, -0.0};
#define SPRING_VALUES ((unsigned)(sizeof spring_values / sizeof spring_values[0]))

/* bone i's value of a setting, as the documented rules read a def */
static double bone_value(double value, const double *per_bone, int i) {
  return per_bone != NULL ? per_bone[i] : value;
}

/* The documented rules for a def on a chain of n bones: every bone's
** stiffness and damping >= 0 and finite, its mass > 0 and finite with its
** own and its child's stiffness and its damping over it finite; gravity
** and wind finite, weight not NaN. */
static int spring_def_good(const ik2d_spring_def *def, int n) {
  int i;
  for (i = 0; i < n; i++) {
    double s = bone_value(def->stiffness, def->stiffness_per_bone, i);
    double c = bone_value(def->damping, def->damping_per_bone, i);
    double m = bone_value(def->mass, def->mass_per_bone, i);
    if (!(isfinite(s) && s >= 0.0 && isfinite(c) && c >= 0.0 && isfinite(m) && m > 0.0 &&
          isfinite(s / m) && isfinite(c / m)))
      return 0;
    if (i + 1 < n && !isfinite(bone_value(def->stiffness, def->stiffness_per_bone, i + 1) / m))
      return 0;
  }
  return isfinite(def->gravity_x) && isfinite(def->gravity_y) && isfinite(def->wind_x) &&
         isfinite(def->wind_y) && !isnan(def->weight);
}

/* One setting from a list of hostile values (a per-bone one: at one bone,
** the others the spring's); refused exactly when the documented rules
** say so, and then nothing changed. */
static void spring_setting(world *w, unsigned which) {
  static double before[SPRING_DOUBLES];
  double per_bone[IK2D_MAX_BONES];
  ik2d_spring *sp = w->spring;
  ik2d_spring_def def = ik2d_spring_get_def(sp);
  double v = spring_values[w->spring_turn % SPRING_VALUES];
  int n = sp->chain->count, k = (int)(w->spring_turn % (unsigned)n), i;
  ik2d_status status;
  memcpy(before, sp, ik2d_spring_size(n));
  switch (which % 11) {
    case 0: def.stiffness = v; def.stiffness_per_bone = NULL; break;
    case 1: def.damping = v; def.damping_per_bone = NULL; break;
    case 2: def.mass = v; def.mass_per_bone = NULL; break;
    case 3: def.gravity_x = v; break;
    case 4: def.gravity_y = v; break;
    case 5: def.weight = v; break;
    case 6: def.wind_x = v; break;
    case 7: def.wind_y = v; break;
    case 8:
      for (i = 0; i < n; i++) per_bone[i] = sp->stiffness[i];
      per_bone[k] = v;
      def.stiffness_per_bone = per_bone;
      break;
    case 9:
      for (i = 0; i < n; i++) per_bone[i] = sp->damping[i];
      per_bone[k] = v;
      def.damping_per_bone = per_bone;
      break;
    default:
      for (i = 0; i < n; i++) per_bone[i] = sp->mass[i];
      per_bone[k] = v;
      def.mass_per_bone = per_bone;
      break;
  }
  switch (which % 11) {
    case 5: status = ik2d_spring_set_weight(sp, v); break;
    case 3: case 4: status = ik2d_spring_set_gravity(sp, def.gravity_x, def.gravity_y); break;
    case 6: case 7: status = ik2d_spring_set_wind(sp, def.wind_x, def.wind_y); break;
    default: status = ik2d_spring_set_def(sp, &def); break;
  }
  if (!spring_def_good(&def, n)) {
    REQUIRE(status != IK2D_OK && same_spring(sp, before), "bad spring setting accepted",
            (int)which, v, status);
  } else {
    REQUIRE(status == IK2D_OK, "good spring setting refused", (int)which, v, status);
    for (i = 0; i < n; i++)
      REQUIRE(sp->stiffness[i] == bone_value(def.stiffness, def.stiffness_per_bone, i) &&
                  sp->mass[i] == bone_value(def.mass, def.mass_per_bone, i),
              "per-bone stiffness or mass not kept", i, sp->stiffness[i], sp->mass[i]);
  }
}

/* Colliders about the chain's joints from the hostile values: 0 to 6 of
** them, or 17 (refused); a bad value refused; then nothing changed, else
** they are the spring's. */
static void spring_colliders(world *w) {
  static double before[SPRING_DOUBLES];
  ik2d_collider colliders[17], kept[IK2D_MAX_COLLIDERS];
  ik2d_spring *sp = w->spring;
  const ik2d_chain *chain = sp->chain;
  unsigned t = w->spring_turn;
  int count = t % 23 == 0 ? 17 : (int)(t % 7), k, good = count <= IK2D_MAX_COLLIDERS;
  ik2d_status status;
  memcpy(before, sp, ik2d_spring_size(chain->count));
  for (k = 0; k < count; k++) {
    int j = (int)((t + 7u * (unsigned)k) % (unsigned)(chain->count + 1));
    double x = chain->joints[2 * j], y = chain->joints[2 * j + 1];
    double size = spring_values[(t + 3u * (unsigned)k) % SPRING_VALUES];
    double small = 0.5 * (fabs(chain->joints[2 * chain->count] - x) + 1.0);
    colliders[k] = ik2d_default_collider();
    /* mostly sizes about the chain's; a hostile one now and then */
    if ((t + (unsigned)k) % 5 != 0) size = small;
    if ((t + (unsigned)k) % 2 == 0) {
      colliders[k].x = x + 0.25 * small;
      colliders[k].y = y;
      colliders[k].radius = size;
      good = good && isfinite(colliders[k].x) && isfinite(colliders[k].y) && isfinite(size) &&
             size >= 0.0;
    } else {
      colliders[k].shape = IK2D_SEGMENT;
      colliders[k].x1 = x - size;
      colliders[k].y1 = y + 0.1 * small;
      colliders[k].x2 = x + size;
      colliders[k].y2 = y - 0.1 * small;
      good = good && isfinite(colliders[k].x1) && isfinite(colliders[k].y1) &&
             isfinite(colliders[k].x2) && isfinite(colliders[k].y2);
    }
  }
  status = ik2d_spring_set_colliders(sp, colliders, count);
  if (!good) {
    REQUIRE(status != IK2D_OK && same_spring(sp, before), "bad colliders accepted", count, 0,
            status);
    return;
  }
  REQUIRE(status == IK2D_OK && ik2d_spring_colliders(sp, kept, IK2D_MAX_COLLIDERS) == count &&
              memcmp(kept, colliders, (size_t)count * sizeof kept[0]) == 0,
          "good colliders refused or not kept", count, 0, status);
}

/* In spring mode, after every operation: what the part of its byte above
** the operation's own (byte / 14, ignored before) says.  No bytes are
** read, so saved inputs keep their meaning up to here. */
static void spring_act(world *w, unsigned q) {
  static const double dts[] = {1.0 / 60, 1.0 / 144, 0.0, 1.0 / 30, 0.1, 1.0, 1e300, INFINITY,
                               NAN, -1.0, -0.0, 1e-300, 5e-324, 0.25, 7.0, -INFINITY};
  if (w->spring == NULL) return;
  w->spring_turn++;
  if (q == 0) return;
  if (q <= 6 || q >= 15) {
    spring_update(w, dts[(q + w->spring_turn) % (sizeof dts / sizeof dts[0])]);
  } else if (q <= 12) {
    spring_setting(w, q - 7 + w->spring_turn);
  } else if (q == 14) {
    spring_colliders(w);
  } else {
    int i;
    ik2d_spring_reset(w->spring);
    check_spring(w->spring, 1);
    for (i = 0; i < w->chain->count; i++)
      REQUIRE(w->spring->velocity[i] == 0.0, "reset left a velocity", i,
              w->spring->velocity[i], 0);
  }
}

/* ------------------------------------------------------------------ */
/* aim mode                                                             */
/* ------------------------------------------------------------------ */

/* Sets the aim (x, y, angle): refused as documented (an origin or angle
** not finite, method follow, a tip angle), changing nothing, or kept. */
static void aim_set(world *w, double x, double y, double angle) {
  ik2d_solver *s = w->solver;
  static double before[SOLVER_DOUBLES];
  ik2d_status want = !isfinite(x)                         ? IK2D_ERR_AIM_X
                     : !isfinite(y)                       ? IK2D_ERR_AIM_Y
                     : !isfinite(angle)                   ? IK2D_ERR_AIM_ANGLE
                     : s->settings.method == IK2D_FOLLOW  ? IK2D_ERR_AIM_METHOD
                     : s->settings.tip.enabled            ? IK2D_ERR_AIM_TIP
                                                          : IK2D_OK;
  ik2d_status status;
  memcpy(before, s, ik2d_solver_size(w->chain->count));
  status = ik2d_solver_set_aim(s, x, y, angle);
  REQUIRE(status == want, "aim check", -1, x, (double)status);
  if (status != IK2D_OK) {
    REQUIRE(same_solver(s, before), "refused aim changed the solver", -1, x, y);
  } else {
    REQUIRE(s->settings.aim.enabled && s->settings.aim.x == x && s->settings.aim.y == y &&
                s->settings.aim.angle == angle,
            "aim not kept", -1, x, y);
  }
}

/* After an operation, the part of its byte above it (k): clear the aim,
** set a hostile one or a sane one (a tip angle cleared and method follow
** left first), or try a tip angle and method follow on an aimed solver. */
static void aim_act(world *w, unsigned k) {
  static const double hostile[] = {NAN, HUGE_VAL, -HUGE_VAL, 1e300, -1e300, 5e-324,
                                   -0.0, DBL_MAX, 0.0, 1e-300, 3.0};
  ik2d_solver *s = w->solver;
  unsigned t = w->aim_turn++;
  double length = w->chain->length[w->chain->count - 1];
  if (!w->aim_mode) return;
  switch (k) {
    case 1: ik2d_solver_clear_aim(s); break;
    case 2:
      aim_set(w, hostile[t % 11], hostile[(t / 11) % 11], hostile[(t / 121) % 11]);
      break;
    case 3:
      ik2d_solver_clear_tip_angle(s);
      if (s->settings.method == IK2D_FOLLOW) ik2d_solver_set_method(s, IK2D_CCD);
      aim_set(w, length * (double)(t % 5) * 0.25, length * ((double)(t % 7) - 3.0) * 0.2,
              ((double)(t % 13) - 6.0) * 0.5);
      break;
    case 4:
      if (s->settings.aim.enabled) {
        static double before[SOLVER_DOUBLES];
        memcpy(before, s, ik2d_solver_size(w->chain->count));
        REQUIRE(ik2d_solver_set_tip_angle(s, 0.5, 1.0) == IK2D_ERR_AIM_TIP &&
                    ik2d_solver_set_method(s, IK2D_FOLLOW) == IK2D_ERR_AIM_METHOD &&
                    same_solver(s, before),
                "aimed solver took a tip angle or method follow", -1, 0, 0);
      }
      break;
    default: break;
  }
}

static int build(world *w, reader *r) {
  ik2d_bone_def bones[IK2D_MAX_BONES + 1];
  ik2d_chain_def def = ik2d_default_chain_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  unsigned head = byte_of(r);
  /* mostly short chains; 64 and the invalid 0 and 65 now and then */
  int count = head < 16 ? 64 : head < 20 ? (int)(head % 2) * 65 : 1 + (int)(head % 12);
  int i, bad = 0, with_rests, spring_on;
  unsigned rests;
  ik2d_status status;
  if (head >= 20 && head < 40) count = 2;
  if (count > 64) count = 65;
  for (i = 0; i < count && i < IK2D_MAX_BONES + 1; i++) {
    bones[i].length = length_of(r);
    bones[i].rest = angle_of(r);
    bones[i].constraint = NULL;
  }
  /* bits 3 and 4 of this byte, unused before, turn spring mode on (01:
  ** none of the regressions has that) */
  rests = byte_of(r);
  with_rests = rests % 8 != 7;
  spring_on = ((rests >> 3) & 3) == 1;
  w->aim_mode = ((rests >> 3) & 3) == 2;
  w->aim_turn = 0;
  if (!with_rests)
    for (i = 0; i < count && i < IK2D_MAX_BONES + 1; i++) bones[i].rest = 0.0;
  if (count >= 1 && byte_of(r) % 32 == 31) {
    /* a bad bone: zero, negative, nan or inf length, or nan rest */
    static const double lengths_bad[] = {0.0, -1.0, NAN, HUGE_VAL};
    int k = byte_of(r) % count;
    if (byte_of(r) & 1) {
      bones[k].length = lengths_bad[byte_of(r) % 4];
      bad = 1;
    } else {
      bones[k].rest = byte_of(r) & 1 ? NAN : -HUGE_VAL;
      bad = 1;
    }
  }
  def.bone_count = count;
  def.bones = bones;
  memset(w->chain_memory, 0xA5, sizeof w->chain_memory);
  w->chain = (ik2d_chain *)(void *)w->chain_memory;
  status = ik2d_chain_init(w->chain, sizeof w->chain_memory, &def);
  if (status != IK2D_OK) {
    double reach = 0.0;
    int k;
    for (i = 0; i < count && count <= IK2D_MAX_BONES; i++) reach += bones[i].length;
    for (k = 0; k < CHAIN_DOUBLES; k++)
      REQUIRE(memcmp(&w->chain_memory[k], "\xA5\xA5\xA5\xA5\xA5\xA5\xA5\xA5", 8) == 0,
              "refused chain was written", count, status, k);
    REQUIRE(bad || count < 1 || count > IK2D_MAX_BONES || !isfinite(reach),
            "good chain refused", count, status, reach);
    return 0;
  }
  REQUIRE(!bad && count >= 1 && count <= IK2D_MAX_BONES, "bad chain accepted", count, 0, 0);
  for (i = 0; i < POOL; i++) w->pool_set[i] = 0;
  for (i = 0; i < POOL; i++) set_limits(w, r);
  for (i = 0; i < count; i++) {
    unsigned k = byte_of(r) % (POOL + 3);
    if (k < POOL && w->pool_set[k]) ik2d_chain_set_constraint(w->chain, i, &w->pool[k]);
  }
  set_base(w, r);
  ik2d_chain_set_flip(w->chain, byte_of(r) & 1);
  for (i = 0; i < count; i++)
    if (byte_of(r) & 1) ik2d_chain_set_pose(w->chain, i, angle_of(r));
  check_chain(w->chain, 1);
  w->solver = (ik2d_solver *)(void *)w->solver_memory;
  REQUIRE(ik2d_solver_init(w->solver, sizeof w->solver_memory, w->chain, &settings) == IK2D_OK,
          "solver init", -1, 0, 0);
  current_solver = w->solver;
  w->spring = NULL;
  w->spring_turn = 0;
  if (spring_on) {
    ik2d_spring_def spring_def = ik2d_default_spring_def();
    spring_def.gravity_y = 980.0;
    spring_def.wind_x = 60.0;
    w->spring = (ik2d_spring *)(void *)w->spring_memory;
    REQUIRE(ik2d_spring_init(w->spring, sizeof w->spring_memory, w->chain, &spring_def) ==
                IK2D_OK, "spring init", -1, 0, 0);
    check_spring(w->spring, 0);
  }
  if (w->aim_mode) {
    double x = coordinate_of(r), y = coordinate_of(r), angle = angle_of(r);
    if (byte_of(r) % 16 == 0) angle = raw_of(r);
    aim_set(w, x, y, angle);
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static world w;
  reader r;
  int ops = 0;
  r.p = data;
  r.n = size;
  current_chain = (const ik2d_chain *)(const void *)w.chain_memory;
  current_solver = NULL;
  if (!build(&w, &r)) return 0;
  set_target(&w, &r);
  do_solve(&w);
  while (r.n > 0 && ops++ < MAX_OPS) {
    unsigned op = byte_of(&r);
    switch (op % 14) {
      case 0: case 1: case 2: case 3: do_solve(&w); break;
      case 4: set_target(&w, &r); break;
      case 5: set_pose(&w, &r); break;
      case 6: set_base(&w, &r); break;
      case 7: set_flip(&w, &r); break;
      case 8: set_limits(&w, &r); break;     /* limits edited between solves */
      case 9: set_constraint(&w, &r); break; /* added, moved or removed */
      case 10: case 11: set_settings(&w, &r); break;
      case 12: ik2d_chain_reset(w.chain); check_chain(w.chain, 1); break;
      default: {
        /* a fixed target solved again and again must settle */
        int k, n = 2 + byte_of(&r) % 6;
        for (k = 0; k < n; k++) do_solve(&w);
        break;
      }
    }
    spring_act(&w, op / 14);
    aim_act(&w, op / 14);
  }
  do_solve(&w);
  spring_act(&w, 1);
  return 0;
}

/* ------------------------------------------------------------------ */
/* replay: a plain program over files, for `make test`                 */
/* ------------------------------------------------------------------ */

#ifdef IK2D_FUZZ_REPLAY
/* what the replay runs and how it names itself: skeleton_fuzz.c, which
** includes this file, puts its own target there */
#ifndef FUZZ_TARGET
#define FUZZ_TARGET LLVMFuzzerTestOneInput
#define FUZZ_NAME "ik2d_fuzz"
#endif
int main(int argc, char **argv) {
  static uint8_t buffer[1 << 20];
  int i, runs = 0;
  for (i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    size_t n;
    if (f == NULL) {
      fprintf(stderr, FUZZ_NAME ": cannot open %s\n", argv[i]);
      return 2;
    }
    n = fread(buffer, 1, sizeof buffer, f);
    fclose(f);
    fprintf(stderr, FUZZ_NAME ": %s\n", argv[i]);
    FUZZ_TARGET(buffer, n);
    runs++;
  }
  printf(FUZZ_NAME ": %d inputs replayed, no invariant broken\n", runs);
  return 0;
}
#endif
