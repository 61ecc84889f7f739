/*
** skeleton_fuzz.c: libFuzzer target over the skeleton layer (issue 12).
**
** The input bytes are read as a program, with the reader and the chain
** checks of ik2d_fuzz.c (included below, its own entry point renamed): a
** skeleton (1..24 bones, now and then 256, and bad ones: a parent not
** earlier, a length below 0 or not finite, an origin not finite, pivots
** of length 0, origins at the tip or anywhere, bones inheriting position
** only, shared limits), chains over random paths (refused where the path
** is not one), solvers on them (every method, weight, priority, together
** or not), then operations: sk:solve, a solver alone, targets, poses,
** base, flip, lengths, rest angles, limits edited, constraints moved,
** reset, settings changed, solvers released and made again.  After every
** call:
**
**   - every transform is finite while the skeleton fits in doubles;
**   - every bone's tip is its length from its origin (1e-9 relative);
**   - the transforms are the forward kinematics of the result angles,
**     recomputed here from the angles, origins and lengths alone;
**   - every limited bone is within its limits (1e-9 rad) when every
**     solver over it has weight 1, or its pose was within them;
**   - every chain's joints are its path's transforms, bit for bit, its
**     angles the skeleton's shifted, and the chain checks of ik2d_fuzz.c
**     hold for it (its joints the forward kinematics of its angles, its
**     bones their lengths apart);
**   - every solver's distance is |tip - target| and reached agrees;
**   - a refused call changes nothing (the skeleton's bytes);
**   - the same program run twice gives the same bits;
**   - sk:solve refuses (-1, changing nothing) exactly the cycles through
**     targets that ik2d_skeleton_cycle names.
**
** Bone mode (bits 1-4 of the flip's byte set to 0110) adds a second
** skeleton and, after every operation, targets on bones (sane and
** hostile bones and offsets, on either skeleton, cycles on purpose,
** together turned over, cleared, world points again), checking the
** documented statuses, that refused calls change nothing, and that every
** target on a bone is the bone's point where the bone is (reached: the
** tip within tolerance of it).
**
** Built by `make fuzz` (with ik2d_fuzz.c's target) and, with
** -DIK2D_FUZZ_REPLAY, by spec/fuzz/replay_spec.lua into a plain program
** that replays spec/fuzz/skeleton_regressions/ and skeleton_corpus/.
*/
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* its replay (with -DIK2D_FUZZ_REPLAY) is ik2d_fuzz.c's, run on this target */
int skeleton_fuzz_one(const uint8_t *data, size_t size);
#define FUZZ_TARGET skeleton_fuzz_one
#define FUZZ_NAME "skeleton_fuzz"
#define LLVMFuzzerTestOneInput ik2d_chain_fuzz_one
#include "ik2d_fuzz.c"
#undef LLVMFuzzerTestOneInput

#include "ik2d_skeleton.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SK_BONES 256
#define SK_CHAINS 6
#define SK_OPS 40
#define SK_DOUBLES 12288   /* a skeleton of 256 bones */
#define SK_CHAIN_DOUBLES 1536
#define SK_SOLVER_DOUBLES 640
#define SK_OTHER_BONES 6
#define SK_OTHER_DOUBLES 1024  /* a skeleton of SK_OTHER_BONES bones */

typedef struct sk_world {
  world pool;              /* ik2d_fuzz.c's: its constraints only */
  double memory[SK_DOUBLES];
  ik2d_skeleton *sk;
  int chains;
  double chain_memory[SK_CHAINS][SK_CHAIN_DOUBLES];
  double solver_memory[SK_CHAINS][SK_SOLVER_DOUBLES];
  ik2d_chain *chain[SK_CHAINS];
  ik2d_solver *solver[SK_CHAINS];   /* NULL: none (or released) */
  int pose_ok[SK_BONES];
  /* bone mode (targets on bones): a second skeleton, a path of a few
  ** bones with one chain and solver, whose bones targets go on too */
  int bone_mode;
  double other_memory[SK_OTHER_DOUBLES];
  ik2d_skeleton *other;
  double other_chain_memory[SK_CHAIN_DOUBLES];
  double other_solver_memory[SK_SOLVER_DOUBLES];
  ik2d_chain *other_chain;
  ik2d_solver *other_solver;
  int solves;              /* sk_solve's, to alternate its entry */
} sk_world;

static const ik2d_skeleton *current_skeleton;

static void sk_breach(const char *what, int bone, double a, double b) {
  const ik2d_skeleton *sk = current_skeleton;
  int i;
  fprintf(stderr, "skeleton_fuzz: invariant broken: %s (bone %d: %.17g, %.17g)\n", what, bone,
          a, b);
  if (sk != NULL) {
    fprintf(stderr, "skeleton: %d bones, base %.17g %.17g %.17g, flip %d\n", sk->count,
            sk->base_x, sk->base_y, sk->base_angle, (int)sk->flip);
    for (i = 0; i < sk->count; i++)
      fprintf(stderr, "  bone %d: parent %d length %.17g rest %.17g pose %.17g angle %.17g "
              "origin %.17g %.17g%s%s\n", i, sk->parent[i], sk->length[i], sk->rest[i],
              sk->pose[i], sk->angle[i], sk->origin[2 * i], sk->origin[2 * i + 1],
              sk->at_tip[i] ? " (tip)" : "", sk->inherit[i] ? " position" : "");
  }
  abort();
}

#define SK_REQUIRE(cond, what, bone, a, b) \
  do { if (!(cond)) sk_breach((what), (bone), (a), (b)); } while (0)

/* ------------------------------------------------------------------ */
/* checks                                                               */
/* ------------------------------------------------------------------ */

/* While this holds, no position of the skeleton overflows. */
static int sk_representable(const ik2d_skeleton *sk) {
  double extent = 0.0, angles = fabs(sk->base_angle);
  int i;
  for (i = 0; i < sk->count; i++) {
    extent += sk->length[i] + (sk->at_tip[i] ? 0.0 : fabs(sk->origin[2 * i]) + fabs(sk->origin[2 * i + 1]));
    angles += fabs(sk->angle[i]);
  }
  return 2.0 * fabs(sk->base_x) + extent < DBL_MAX / 4 && fabs(sk->base_y) + extent < DBL_MAX / 4 &&
         angles < 1e300;
}

/* How well a position of the skeleton can be known: the rounding of the
** forward kinematics grows with the bones' sizes and the sizes of the
** angles that went into them (a solve blends from the pose and the
** limits around the rest angle: a rest of 1e111 rad leaves the result
** angle nothing of the solution's, whose rotations a chain's joints come
** from, as ik2d_fuzz.c's floor has it): relative to the sizes. */
static double sk_rel(const ik2d_skeleton *sk) {
  double angles = TWO_PI + fabs(sk->base_angle);
  int i;
  for (i = 0; i < sk->count; i++) {
    const ik2d_constraint *c = sk->constraint[i];
    double a = max3(fabs(sk->angle[i]), fabs(sk->pose[i]), fabs(sk->rest[i]));
    if (c != NULL) a = max3(a, fabs(c->def.min), fabs(c->def.max));
    angles += fmax(a, TWO_PI);
  }
  return 64.0 * DBL_EPSILON * angles + 1e-14 * sk->count;
}

static double sk_floor(const ik2d_skeleton *sk) {
  double size = fabs(sk->base_x) + fabs(sk->base_y);
  int i;
  for (i = 0; i < sk->count; i++)
    size += sk->length[i] + fabs(sk->origin[2 * i]) + fabs(sk->origin[2 * i + 1]);
  return size * sk_rel(sk) + ldexp(8.0, -1074);
}

static void check_skeleton_of(const ik2d_skeleton *sk, int chains, ik2d_chain *const *chain_of) {
  double fx[SK_BONES], fy[SK_BONES], fa[SK_BONES], tipx[SK_BONES], tipy[SK_BONES];
  double allowed = sk_floor(sk), turns = TWO_PI + fabs(sk->base_angle);
  int i, k, representable = sk_representable(sk);
  /* a world angle is a sum, rounded at each step to the size of what
  ** went in */
  for (i = 0; i < sk->count; i++) turns += fmax(fabs(sk->angle[i]), TWO_PI);
  for (i = 0; i < sk->count; i++) {
    const double *t = &sk->transforms[5 * i];
    int p = sk->parent[i];
    double px = p >= 0 ? fx[p] : sk->base_x, py = p >= 0 ? fy[p] : sk->base_y;
    double pa = p >= 0 ? fa[p] : sk->base_angle, ox, oy, d, tx, ty, x, a;
    SK_REQUIRE(isfinite(sk->angle[i]), "result angle not finite", i, sk->angle[i], sk->pose[i]);
    /* the reference forward kinematics, unflipped */
    ox = sk->at_tip[i] ? (p >= 0 ? sk->length[p] : 0.0) : sk->origin[2 * i];
    oy = sk->at_tip[i] ? 0.0 : sk->origin[2 * i + 1];
    fx[i] = px + cos(pa) * ox - sin(pa) * oy;
    fy[i] = py + sin(pa) * ox + cos(pa) * oy;
    fa[i] = (sk->inherit[i] ? sk->base_angle : pa) + sk->angle[i];
    tipx[i] = fx[i] + sk->length[i] * cos(fa[i]);
    tipy[i] = fy[i] + sk->length[i] * sin(fa[i]);
    if (!representable) continue;
    for (k = 0; k < 5; k++) SK_REQUIRE(isfinite(t[k]), "transform not finite", i, k, t[k]);
    d = hypot(t[3] - t[0], t[4] - t[1]);
    SK_REQUIRE(fabs(d - sk->length[i]) <= LENGTH_REL * sk->length[i] + allowed,
               "bone length changed", i, d, sk->length[i]);
    x = sk->flip ? 2.0 * sk->base_x - fx[i] : fx[i];
    tx = sk->flip ? 2.0 * sk->base_x - tipx[i] : tipx[i];
    ty = tipy[i];
    a = sk->flip ? PI - fa[i] : fa[i];
    if (isfinite(allowed) && allowed < 1e300) {
      SK_REQUIRE(fabs(x - t[0]) <= allowed && fabs(fy[i] - t[1]) <= allowed,
                 "origin is not the forward kinematics of the angles", i, x, t[0]);
      SK_REQUIRE(fabs(tx - t[3]) <= allowed && fabs(ty - t[4]) <= allowed,
                 "tip is not the forward kinematics of the angles", i, tx, t[3]);
      SK_REQUIRE(fabs(wrap(a - t[2])) <= 16.0 * DBL_EPSILON * turns,
                 "world angle is not the sum of the angles", i, a, t[2]);
    }
  }
  for (k = 0; k < chains; k++) {
    const ik2d_chain *chain = chain_of[k];
    const struct ik2d_chain_link *link = chain->link;
    int n = chain->count;
    for (i = 0; i < n; i++) {
      int b = link->bones[i];
      double want = link->shift[i] == 0.0 ? sk->angle[b] : sk->angle[b] + link->shift[i];
      SK_REQUIRE(memcmp(&chain->joints[2 * i], &sk->transforms[5 * b], 2 * sizeof(double)) == 0,
                 "a chain's joint is not its bone's origin", b, chain->joints[2 * i],
                 sk->transforms[5 * b]);
      SK_REQUIRE(memcmp(&chain->angle[i], &want, sizeof want) == 0,
                 "a chain's angle is not its bone's, shifted", b, chain->angle[i], want);
    }
    SK_REQUIRE(memcmp(&chain->joints[2 * n], &sk->transforms[5 * link->to + 3], 2 * sizeof(double)) == 0,
               "a chain's tip is not its last bone's", link->to, chain->joints[2 * n],
               sk->transforms[5 * link->to + 3]);
    /* its joints its bones' lengths apart: the forward kinematics of its
    ** angles, as the skeleton's are (checked above; ik2d_fuzz.c's check of
    ** a chain's own joints would not know the size of the angles above
    ** its base, which its base direction carries) */
    SK_REQUIRE(chain->scale == 1.0, "a skeleton chain stretched", -1, chain->scale, 0);
    for (i = 0; i < n && representable; i++) {
      double d = hypot(chain->joints[2 * i + 2] - chain->joints[2 * i],
                       chain->joints[2 * i + 3] - chain->joints[2 * i + 1]);
      SK_REQUIRE(fabs(d - chain->length[i]) <= LENGTH_REL * chain->length[i] + allowed,
                 "a chain's bone changed length", link->bones[i], d, chain->length[i]);
    }
  }
}

static void check_skeleton(const sk_world *w) {
  check_skeleton_of(w->sk, w->chains, w->chain);
  if (w->other != NULL) check_skeleton_of(w->other, 1, &w->other_chain);
}

/* Limits after a solve: every limited bone whose solvers all have weight
** 1, or whose pose was within them. */
static void check_limits(const sk_world *w) {
  const ik2d_skeleton *sk = w->sk;
  int b, k;
  for (b = 0; b < sk->count; b++) {
    const ik2d_constraint *c = sk->constraint[b];
    int covered = 0, full = 1;
    double v, m;
    if (c == NULL) continue;
    for (k = 0; k < w->chains; k++) {
      int i;
      if (w->solver[k] == NULL) continue;
      for (i = 0; i < w->chain[k]->count; i++) {
        if (w->chain[k]->link->bones[i] != b) continue;
        covered = 1;
        full = full && w->solver[k]->settings.weight == 1.0;
      }
    }
    if (!covered || !(full || w->pose_ok[b])) continue;
    v = violation(c, sk->angle[b] - sk->rest[b]);
    m = max3(fabs(sk->angle[b]), fabs(sk->pose[b]), fabs(sk->rest[b]));
    m = max3(m, fabs(c->def.min), fabs(c->def.max));
    SK_REQUIRE(v <= LIMIT_EPS + 16.0 * DBL_EPSILON * (m > TWO_PI ? m : TWO_PI), "limit broken", b,
               sk->angle[b] - sk->rest[b], v);
  }
}

/* Is b a or below it?  Does mover's solve move bone b of sk (b at or
** below its chain's first bone)? */
static int descends(const ik2d_skeleton *sk, int b, int a) {
  for (; b >= 0; b = sk->parent[b])
    if (b == a) return 1;
  return 0;
}

static int sk_moves(const ik2d_skeleton *sk, const ik2d_solver *mover, int b) {
  const struct ik2d_chain_link *link = mover->chain->link;
  return link != NULL && link->node.skeleton == sk && descends(sk, b, link->from);
}

/* The point (dx, dy) of bone b's space where the bone is drawn, worked
** out from its transform (origin and world angle, libm's cos and sin;
** mirrored when flipped), and how well it is known: the floor of the
** positions, the turn of the bone's frame over |dx| + |dy|, the
** rounding of the sums.  0 where it cannot be known (the skeleton or the
** point near the end of the doubles). */
static int bone_point(const ik2d_skeleton *sk, int b, double dx, double dy, double *x,
                      double *y, double *floor) {
  const double *t = &sk->transforms[5 * b];
  double c = cos(t[2]), s = sin(t[2]), turns = TWO_PI + fabs(sk->base_angle);
  int i;
  if (!sk_representable(sk)) return 0;
  *x = sk->flip ? t[0] + c * dx + s * dy : t[0] + c * dx - s * dy;
  *y = sk->flip ? t[1] + s * dx - c * dy : t[1] + s * dx + c * dy;
  if (!(fabs(*x) < DBL_MAX / 4 && fabs(*y) < DBL_MAX / 4)) return 0;
  for (i = 0; i < sk->count; i++) turns += fmax(fabs(sk->angle[i]), TWO_PI);
  *floor = sk_floor(sk) + (fabs(dx) + fabs(dy)) * (sk_rel(sk) + 16.0 * DBL_EPSILON * turns) +
           8.0 * DBL_EPSILON * (fabs(*x) + fabs(*y) + fabs(t[0]) + fabs(t[1])) +
           ldexp(8.0, -1074);
  return 1;
}

/* A target on a bone is that bone's point where the bone is now (always
** finite while its skeleton fits in doubles); with reached, the tip is
** within tolerance of it. */
static void check_bone_target(const ik2d_solver *s, int k, int solved) {
  ik2d_skeleton *on = NULL;
  double dx = 0.0, dy = 0.0, tx, ty, x, y, floor;
  int b = ik2d_solver_target_bone(s, &on, &dx, &dy);
  if (b < 0) return;
  SK_REQUIRE(on != NULL && b < on->count && isfinite(dx) && isfinite(dy),
             "target bone not as the call left it", k, b, dx);
  ik2d_solver_target(s, &tx, &ty);
  if (sk_representable(on))
    SK_REQUIRE(isfinite(tx) && isfinite(ty), "target on a bone not finite", k, tx, ty);
  if (!bone_point(on, b, dx, dy, &x, &y, &floor)) return;
  SK_REQUIRE(fabs(tx - x) <= floor && fabs(ty - y) <= floor,
             "target on a bone is not the bone's point", b, tx - x, ty - y);
  if (solved && s->result.reached && !s->settings.aim.enabled) {
    const ik2d_chain *chain = s->chain;
    double d = hypot(chain->joints[2 * chain->count] - x, chain->joints[2 * chain->count + 1] - y);
    SK_REQUIRE(d <= s->settings.tolerance * (1.0 + 1e-12) + 2.0 * floor,
               "reached, but the tip is off the bone's point", b, d, s->settings.tolerance);
  }
}

/* After sk:solve a solver's result describes where its tip is. */
static void check_result(const ik2d_solver *s, int k, const ik2d_skeleton *sk) {
  const ik2d_chain *chain = s->chain;
  double tx, ty, dx, dy;
  ik2d_solver_target(s, &tx, &ty);
  dx = tx - chain->joints[2 * chain->count];
  dy = ty - chain->joints[2 * chain->count + 1];
  SK_REQUIRE(s->result.reached == (s->result.distance <= s->settings.tolerance),
             "reached disagrees with distance", k, s->result.distance, s->settings.tolerance);
  if (isfinite(dx) && isfinite(dy) && sk_representable(sk)) {
    double d = hypot(dx, dy);
    SK_REQUIRE(isfinite(d) ? fabs(d - s->result.distance) <= 1e-12 * d + ldexp(4.0, -1074)
                           : s->result.distance == d,
               "distance is not |tip - target|", k, d, s->result.distance);
  }
  check_bone_target(s, k, 1);
}

/* (only: solver k's, after a solve of k alone; -1: every one's) */
static void check_results(const sk_world *w, int only) {
  int k;
  for (k = 0; k < w->chains; k++)
    if (w->solver[k] != NULL && (only < 0 || k == only)) check_result(w->solver[k], k, w->sk);
}

/* Every target on a bone, after any call. */
static void check_targets(const sk_world *w) {
  int k;
  for (k = 0; k < w->chains; k++)
    if (w->solver[k] != NULL) check_bone_target(w->solver[k], k, 0);
  if (w->other_solver != NULL) check_bone_target(w->other_solver, SK_CHAINS, 0);
}

static void note_poses(sk_world *w) {
  int b;
  for (b = 0; b < w->sk->count; b++) {
    const ik2d_constraint *c = w->sk->constraint[b];
    w->pose_ok[b] = c == NULL || violation(c, w->sk->pose[b] - w->sk->rest[b]) == 0.0;
  }
}

/* ------------------------------------------------------------------ */
/* the program                                                          */
/* ------------------------------------------------------------------ */

/* The status a path must get, worked out here. */
static ik2d_status expected_path(const ik2d_skeleton *sk, int from, int to) {
  int b, count = 1;
  for (b = to; b > from; b = sk->parent[b]) {
    if (sk->inherit[b]) return IK2D_ERR_PATH_INHERIT;
    count++;
  }
  if (b != from) return IK2D_ERR_PATH;
  return count > IK2D_MAX_BONES ? IK2D_ERR_BONE_COUNT : IK2D_OK;
}

static void make_solver(sk_world *w, int k, reader *r) {
  ik2d_solver_def def = ik2d_default_solver_def();
  ik2d_chain *chain = w->chain[k];
  ik2d_solver *s = (ik2d_solver *)(void *)w->solver_memory[k];
  unsigned bits = byte_of(r);
  ik2d_status status;
  int two_bone_ok;
  def.method = (ik2d_method)(bits % 3);
  def.iterations = 1 + (int)(byte_of(r) % 24);
  def.tolerance = bits & 0x80 ? 0.0 : byte_of(r) % 2 ? 1e-6 * chain->reach : 0.01;
  def.weight = bits & 0x40 ? 1.0 : unit_of(r);
  def.effector.together = !(bits & 0x20);
  def.effector.priority = bits & 0x10 ? 1.0 : 4.0 * unit_of(r);
  def.warm_start = !(bits & 0x08);
  def.two_bone.stretch = byte_of(r) % 16 == 0 ? 2.0 : 1.0;
  two_bone_ok = chain->count == 2 && chain->length[0] > 0.0 && chain->length[1] > 0.0;
  status = ik2d_solver_init(s, SK_SOLVER_DOUBLES * sizeof(double), chain, &def);
  if (def.method == IK2D_TWO_BONE && !two_bone_ok) {
    SK_REQUIRE(status == IK2D_ERR_TWO_BONE, "two_bone accepted with a pivot", k, chain->count, status);
  } else if (def.two_bone.stretch > 1.0) {
    SK_REQUIRE(status == IK2D_ERR_LINKED_STRETCH, "stretch accepted on a skeleton", k, 0, status);
  } else {
    SK_REQUIRE(status == IK2D_OK, "solver refused", k, 0, status);
  }
  w->solver[k] = status == IK2D_OK ? s : NULL;
}

/* ik2d_fuzz.c's limits, kept in parent space: a skeleton refuses a
** world-space limit (its coupled solve turns bones in their parents'
** frames), and a constraint re-made in world space after it was given
** to one is outside the contract. */
static void sk_set_limits(sk_world *w, reader *r) {
  int k;
  set_limits(&w->pool, r);
  for (k = 0; k < POOL; k++) {
    ik2d_constraint *c = &w->pool.pool[k];
    if (w->pool.pool_set[k] && c->def.space != IK2D_SPACE_PARENT) {
      ik2d_constraint_def def = c->def;
      def.space = IK2D_SPACE_PARENT;
      if (ik2d_constraint_init(c, sizeof *c, &def) != IK2D_OK) w->pool.pool_set[k] = 0;
    }
  }
}

/* Bone mode's second skeleton: a path of 1..SK_OTHER_BONES bones (any
** lengths and rest angles, a pivot now and then) at any base, one chain
** over all of it and a solver on that. */
static void other_build(sk_world *w, reader *r) {
  ik2d_skeleton_bone_def bones[SK_OTHER_BONES];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  ik2d_solver_def settings = ik2d_default_solver_def();
  int count = 1 + (int)(byte_of(r) % SK_OTHER_BONES), i;
  ik2d_status status;
  for (i = 0; i < count; i++) {
    bones[i] = ik2d_default_skeleton_bone_def();
    bones[i].parent = i - 1;
    bones[i].length = byte_of(r) % 5 == 0 ? 0.0 : length_of(r);
    bones[i].rest = angle_of(r);
  }
  def.bone_count = count;
  def.bones = bones;
  def.x = coordinate_of(r);
  def.y = coordinate_of(r);
  def.angle = angle_of(r);
  def.flip = byte_of(r) & 1;
  w->other = (ik2d_skeleton *)(void *)w->other_memory;
  status = ik2d_skeleton_init(w->other, sizeof w->other_memory, &def, NULL);
  if (status != IK2D_OK) {
    /* lengths that sum past the doubles */
    SK_REQUIRE(status == IK2D_ERR_REACH, "other skeleton refused", count, status, 0);
    w->other = NULL;
    return;
  }
  w->other_chain = (ik2d_chain *)(void *)w->other_chain_memory;
  status = ik2d_skeleton_chain_init(w->other_chain, sizeof w->other_chain_memory, w->other, 0,
                                    count - 1, NULL);
  SK_REQUIRE(status == IK2D_OK, "other chain refused", count, status, 0);
  settings.iterations = 1 + (int)(byte_of(r) % 24);
  settings.tolerance = 0.01;
  w->other_solver = (ik2d_solver *)(void *)w->other_solver_memory;
  status = ik2d_solver_init(w->other_solver, sizeof w->other_solver_memory, w->other_chain,
                            &settings);
  SK_REQUIRE(status == IK2D_OK, "other solver refused", count, status, 0);
}

static int sk_build(sk_world *w, reader *r) {
  static ik2d_skeleton_bone_def bones[SK_BONES + 1];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  unsigned head = byte_of(r);
  int count = head < 4 ? 256 : head < 6 ? (int)(head % 2) * 257 : 1 + (int)(head % 24);
  int i, bad = 0, k;
  unsigned flags;
  ik2d_status status;
  w->solves = 0;
  for (i = 0; i < POOL; i++) w->pool.pool_set[i] = 0;
  for (i = 0; i < POOL; i++) sk_set_limits(w, r);
  for (i = 0; i < count && i <= SK_BONES; i++) {
    ik2d_skeleton_bone_def *b = &bones[i];
    unsigned bits = byte_of(r);
    *b = ik2d_default_skeleton_bone_def();
    b->parent = i == 0 ? -1 : (int)(byte_of(r) % (unsigned)(i + 1)) - 1;
    b->length = bits % 5 == 0 ? 0.0 : length_of(r);
    b->rest = bits & 0x80 ? 0.0 : angle_of(r);
    b->at_tip = !(bits & 0x40);
    if (!b->at_tip) {
      b->x = byte_of(r) % 4 ? -50.0 + 100.0 * unit_of(r) : coordinate_of(r);
      b->y = byte_of(r) % 4 ? -50.0 + 100.0 * unit_of(r) : coordinate_of(r);
    }
    b->inherit = bits % 16 == 3 ? IK2D_INHERIT_POSITION : IK2D_INHERIT_ALL;
    k = byte_of(r) % (POOL + 2);
    b->constraint = k < POOL && w->pool.pool_set[k] ? &w->pool.pool[k] : NULL;
  }
  if (count >= 1 && count <= SK_BONES && byte_of(r) % 32 == 31) {
    /* a bad bone */
    int b = byte_of(r) % count;
    switch (byte_of(r) % 5) {
      case 0: bones[b].parent = b; break;
      case 1: bones[b].length = -1.0; break;
      case 2: bones[b].length = NAN; break;
      case 3: bones[b].rest = HUGE_VAL; break;
      default: bones[b].at_tip = false; bones[b].x = NAN; break;
    }
    bad = 1;
  }
  def.bone_count = count;
  def.bones = bones;
  def.x = coordinate_of(r);
  def.y = coordinate_of(r);
  def.angle = angle_of(r);
  flags = byte_of(r);
  def.flip = flags & 1;
  /* bits 1-4 of the flip's byte, unused before, set to 0110 turn bone
  ** mode on (none of the regressions has that, one input of the seed
  ** corpus had) */
  w->bone_mode = ((flags >> 1) & 15) == 6;
  w->other = NULL;
  w->other_solver = NULL;
  memset(w->memory, 0xA5, sizeof w->memory);
  w->sk = (ik2d_skeleton *)(void *)w->memory;
  current_skeleton = NULL;
  status = ik2d_skeleton_init(w->sk, sizeof w->memory, &def, NULL);
  if (status != IK2D_OK) {
    for (k = 0; k < SK_DOUBLES; k++)
      SK_REQUIRE(memcmp(&w->memory[k], "\xA5\xA5\xA5\xA5\xA5\xA5\xA5\xA5", 8) == 0,
                 "refused skeleton was written", count, status, k);
    SK_REQUIRE(bad || count < 1 || count > SK_BONES || status == IK2D_ERR_REACH,
               "good skeleton refused", count, status, 0);
    return 0;
  }
  SK_REQUIRE(!bad && count >= 1 && count <= SK_BONES, "bad skeleton accepted", count, 0, 0);
  current_skeleton = w->sk;
  /* chains over random paths: a bone and one of its ancestors */
  w->chains = 0;
  for (k = byte_of(r) % (SK_CHAINS + 1); k > 0; k--) {
    int to = (int)(byte_of(r) % (unsigned)count), from = to, up = byte_of(r) % 6, n = 0, ok;
    ik2d_chain *chain = (ik2d_chain *)(void *)w->chain_memory[w->chains];
    while (up-- > 0 && w->sk->parent[from] >= 0) from = w->sk->parent[from];
    if (byte_of(r) % 8 == 0) from = (int)(byte_of(r) % (unsigned)count);  /* maybe not a path */
    status = ik2d_skeleton_chain_init(chain, SK_CHAIN_DOUBLES * sizeof(double), w->sk, from, to, NULL);
    ok = expected_path(w->sk, from, to) == IK2D_OK;
    if (status == IK2D_OK) ik2d_skeleton_path(w->sk, from, to, &n, NULL);
    SK_REQUIRE(status == expected_path(w->sk, from, to) ||
                   (ok && status == IK2D_ERR_REACH),
               "path status", to, from, status);
    if (status != IK2D_OK) continue;
    w->chain[w->chains] = chain;
    make_solver(w, w->chains, r);
    w->chains++;
  }
  if (w->bone_mode) other_build(w, r);
  return 1;
}

/* A target near a bone's tip, on a joint, far, or not finite. */
static void sk_target(sk_world *w, reader *r) {
  int k = byte_of(r) % SK_CHAINS, b;
  const double *t = w->sk->transforms;
  double x, y;
  ik2d_status status;
  if (k >= w->chains || w->solver[k] == NULL) return;
  b = (int)(byte_of(r) % (unsigned)w->sk->count);
  switch (byte_of(r) % 6) {
    case 0: x = t[5 * b + 3]; y = t[5 * b + 4]; break;
    case 1: x = t[5 * b] + 20.0 * unit_of(r) - 10.0; y = t[5 * b + 1] + 20.0 * unit_of(r) - 10.0; break;
    case 2: x = coordinate_of(r); y = coordinate_of(r); break;
    case 3: x = raw_of(r); y = raw_of(r); break;
    default: {
      double radius = w->chain[k]->reach * 1.2 * unit_of(r), turn = TWO_PI * unit_of(r);
      x = w->chain[k]->base_x + radius * cos(turn);
      y = w->chain[k]->base_y + radius * sin(turn);
      break;
    }
  }
  status = ik2d_solver_set_target(w->solver[k], x, y);
  SK_REQUIRE((status == IK2D_OK) == (isfinite(x) && isfinite(y)), "target check", k, x, y);
}

/* An edit of the skeleton: refused ones change nothing. */
static void sk_edit(sk_world *w, reader *r) {
  static double before[SK_DOUBLES];
  ik2d_skeleton *sk = w->sk;
  int i = (int)(byte_of(r) % (unsigned)(sk->count + 2)) - 1, good_index = i >= 0 && i < sk->count;
  unsigned kind = byte_of(r) % 7;
  double v = byte_of(r) % 16 == 0 ? raw_of(r) : kind == 2 ? length_of(r) : angle_of(r);
  size_t size = ik2d_skeleton_size(sk->count);
  ik2d_status status = IK2D_OK;
  int good = 1;
  memcpy(before, sk, size);
  switch (kind) {
    case 0: case 1:
      status = ik2d_skeleton_set_pose(sk, i, v);
      good = good_index && isfinite(v);
      break;
    case 2:
      if (byte_of(r) % 4 == 0) v = 0.0;
      status = ik2d_skeleton_set_length(sk, i, v);
      good = good_index && isfinite(v) && v >= 0.0;
      if (good && status == IK2D_ERR_REACH) good = 0;  /* the sum overflows */
      break;
    case 3:
      status = ik2d_skeleton_set_rest(sk, i, v);
      good = good_index && isfinite(v);
      break;
    case 4: {
      double x = coordinate_of(r), y = coordinate_of(r);
      if (byte_of(r) % 8 == 0) x = raw_of(r);
      status = ik2d_skeleton_set_base(sk, x, y, v);
      good = isfinite(x) && isfinite(y) && isfinite(v);
      break;
    }
    case 5:
      status = ik2d_skeleton_set_flip(sk, byte_of(r) & 1);
      break;
    default: {
      int k = byte_of(r) % (POOL + 1);
      const ik2d_constraint *c = k < POOL && w->pool.pool_set[k] ? &w->pool.pool[k] : NULL;
      status = ik2d_skeleton_set_constraint(sk, i, c);
      good = good_index;
      break;
    }
  }
  SK_REQUIRE((status == IK2D_OK) == good, "edit status", i, v, status);
  if (status != IK2D_OK)
    SK_REQUIRE(memcmp(before, sk, size) == 0, "a refused edit changed the skeleton", i, v, status);
}

static void sk_settings(sk_world *w, reader *r) {
  int k = byte_of(r) % SK_CHAINS;
  ik2d_solver *s;
  unsigned bits = byte_of(r);
  if (k >= w->chains) return;
  s = w->solver[k];
  if (bits % 4 == 0) {
    /* released and made again: the lists */
    if (s != NULL) ik2d_solver_release(s);
    make_solver(w, k, r);
    return;
  }
  if (s == NULL) return;
  ik2d_solver_set_together(s, bits & 0x10);
  ik2d_solver_set_weight(s, bits & 0x20 ? 1.0 : bits & 0x40 ? 0.0 : unit_of(r));
  SK_REQUIRE(ik2d_solver_set_priority(s, -1.0) == IK2D_ERR_PRIORITY, "priority -1", k, 0, 0);
  ik2d_solver_set_priority(s, bits & 0x80 ? 0.0 : 1.0 + 3.0 * unit_of(r));
  ik2d_solver_set_iterations(s, 1 + (int)(byte_of(r) % 24));
  if (byte_of(r) & 1) ik2d_solver_forget(s);
}

/* sk:solve, refused (-1, solving nothing: the skeleton, its chains and
** solvers as they were) exactly when ik2d_skeleton_cycle finds a cycle
** through a target, which names a solver whose target is on a bone the
** other's solve moves; else how many reached.  Whether it solved. */
static int sk_solve(sk_world *w) {
  static double before[SK_DOUBLES];
  static double chains_before[SK_CHAINS][SK_CHAIN_DOUBLES];
  static double solvers_before[SK_CHAINS][SK_SOLVER_DOUBLES];
  ik2d_solver *a = NULL, *b = NULL;
  ik2d_status cycle = ik2d_skeleton_cycle(w->sk, &a, &b);
  size_t size = ik2d_skeleton_size(w->sk->count);
  int k, n, reached = 0, named = 0;
  if (cycle == IK2D_OK) {
    SK_REQUIRE(a == NULL && b == NULL, "no cycle, but solvers named", -1, 0, 0);
    /* every other solve through ik2d_skeletons_solve, which takes the
    ** plain CCD limbs through the lanes (the same result) */
    if (++w->solves % 2 == 0) {
      ik2d_skeleton *list[2] = {NULL, w->sk};
      SK_REQUIRE(ik2d_skeletons_solve(list, 2, NULL, &n, NULL) == IK2D_OK,
                 "ik2d_skeletons_solve refused", -1, 0, 0);
    } else {
      n = ik2d_skeleton_solve(w->sk);
    }
    for (k = 0; k < w->chains; k++) reached += w->solver[k] != NULL && w->solver[k]->result.reached;
    SK_REQUIRE(n == reached, "solve's count is not how many reached", -1, n, reached);
    return 1;
  }
  SK_REQUIRE(cycle == IK2D_ERR_TARGET_CYCLE, "cycle status", -1, cycle, 0);
  for (k = 0; k < w->chains; k++) named += (w->solver[k] == a) + (w->solver[k] == b);
  SK_REQUIRE(named == 2 && a != b && a->target_skeleton == w->sk &&
                 sk_moves(w->sk, b, a->target_bone),
             "the cycle names solvers that make none", -1, a != NULL ? a->target_bone : -1, named);
  memcpy(before, w->sk, size);
  for (k = 0; k < w->chains; k++) {
    memcpy(chains_before[k], w->chain_memory[k], sizeof chains_before[k]);
    memcpy(solvers_before[k], w->solver_memory[k], sizeof solvers_before[k]);
  }
  n = ik2d_skeleton_solve(w->sk);
  SK_REQUIRE(n == -1, "a cycle through a target solved", -1, n, 0);
  SK_REQUIRE(memcmp(before, w->sk, size) == 0, "a refused solve changed the skeleton", -1, 0, 0);
  for (k = 0; k < w->chains; k++)
    SK_REQUIRE(memcmp(chains_before[k], w->chain_memory[k], sizeof chains_before[k]) == 0 &&
                   memcmp(solvers_before[k], w->solver_memory[k], sizeof solvers_before[k]) == 0,
               "a refused solve changed a chain or solver", k, 0, 0);
  return 0;
}

/* ------------------------------------------------------------------ */
/* bone mode: targets on bones                                          */
/* ------------------------------------------------------------------ */

static const double bone_hostile[] = {NAN, HUGE_VAL, -HUGE_VAL, 1e300, -1e300, DBL_MAX,
                                      -DBL_MAX, 5e-324, -0.0, 0.0, 1e-300, 3.5};
#define BONE_HOSTILE ((unsigned)(sizeof bone_hostile / sizeof bone_hostile[0]))

/* The skeleton a solver is on. */
static const ik2d_skeleton *solver_skeleton(const ik2d_solver *s) {
  return s->chain->link != NULL ? s->chain->link->node.skeleton : NULL;
}

/* ik2d_solver_set_target_bone, checked: the documented status (NULL,
** INDEX, TARGET_X, TARGET_Y; TARGET_CYCLE only on the solver's own
** skeleton, naming a solver that moves the bone); a refused call changes
** nothing; a kept one reads back bit for bit, and makes no cycle where
** there was none. */
static void bone_set(sk_world *w, ik2d_solver *s, ik2d_skeleton *on, int bone, double dx,
                     double dy) {
  static double before[SK_SOLVER_DOUBLES], on_before[SK_DOUBLES];
  ik2d_solver *other = NULL;
  ik2d_skeleton *got = NULL;
  double gx, gy;
  ik2d_status status, want, cycle;
  if (s == NULL || on == NULL) {
    status = ik2d_solver_set_target_bone(s, on, bone, dx, dy, &other);
    SK_REQUIRE(status == IK2D_ERR_NULL && other == NULL, "set_target_bone on NULL", bone, dx, status);
    return;
  }
  want = bone < 0 || bone >= on->count ? IK2D_ERR_INDEX
         : !isfinite(dx)               ? IK2D_ERR_TARGET_X
         : !isfinite(dy)               ? IK2D_ERR_TARGET_Y
                                       : IK2D_OK;
  memcpy(before, s, ik2d_solver_size(s->chain->count));
  memcpy(on_before, on, ik2d_skeleton_size(on->count));
  cycle = ik2d_skeleton_cycle(w->sk, NULL, NULL);
  status = ik2d_solver_set_target_bone(s, on, bone, dx, dy, &other);
  if (want == IK2D_OK && status == IK2D_ERR_TARGET_CYCLE) {
    int k, named = 0;
    for (k = 0; k < w->chains; k++) named += w->solver[k] == other;
    SK_REQUIRE(solver_skeleton(s) == on && named == 1 && other != s && sk_moves(on, other, bone),
               "a cycle refused that is none", bone, dx, dy);
  } else {
    SK_REQUIRE(status == want, "set_target_bone status", bone, dx, status);
  }
  if (status != IK2D_OK) {
    SK_REQUIRE(memcmp(before, s, ik2d_solver_size(s->chain->count)) == 0 &&
                   memcmp(on_before, on, ik2d_skeleton_size(on->count)) == 0,
               "a refused set_target_bone changed something", bone, dx, status);
    return;
  }
  SK_REQUIRE(ik2d_solver_target_bone(s, &got, &gx, &gy) == bone && got == on &&
                 memcmp(&gx, &dx, sizeof dx) == 0 && memcmp(&gy, &dy, sizeof dy) == 0,
             "target_bone does not read back", bone, gx, gy);
  if (cycle == IK2D_OK)
    SK_REQUIRE(ik2d_skeleton_cycle(w->sk, NULL, NULL) == IK2D_OK,
               "a target on a bone was kept that makes a cycle", bone, dx, dy);
}

/* A sane point of a bone's space: its origin, its tip, along it, near. */
static void sane_offset(reader *r, const ik2d_skeleton *on, int b, double *dx, double *dy) {
  double length = on != NULL && b >= 0 && b < on->count ? on->length[b] : 1.0;
  switch (byte_of(r) % 4) {
    case 0: *dx = 0.0; *dy = 0.0; break;
    case 1: *dx = length; *dy = 0.0; break;
    case 2: *dx = length * unit_of(r); *dy = 20.0 * unit_of(r) - 10.0; break;
    default: *dx = 100.0 * unit_of(r) - 50.0; *dy = 100.0 * unit_of(r) - 50.0; break;
  }
}

/* A solver of the world (the other skeleton's for SK_CHAINS); NULL for
** none, *ok 0 where the index names no chain. */
static ik2d_solver *pick_solver(sk_world *w, reader *r, int *ok) {
  int k = byte_of(r) % (SK_CHAINS + 1);
  *ok = k < w->chains || (k == SK_CHAINS && w->other != NULL);
  if (!*ok) return NULL;
  return k == SK_CHAINS ? w->other_solver : w->solver[k];
}

/* A bone chain k's solve moves: its chain's first or last, or the first
** one hanging below the last. */
static int moved_bone(const sk_world *w, int k, reader *r) {
  const struct ik2d_chain_link *link = w->chain[k]->link;
  int c;
  switch (byte_of(r) % 3) {
    case 0: return link->from;
    case 1: return link->to;
    default:
      for (c = link->to + 1; c < w->sk->count; c++)
        if (descends(w->sk, c, link->to)) return c;
      return link->to;
  }
}

/* After an operation, the part of its byte above it (q): a target on a
** bone, sane or hostile, on this skeleton or the other; clearing it;
** a world point again; two solvers aimed at each other's bones (a cycle
** on purpose); together turned over (cycles at solve time); the other
** skeleton posed and solved, its solver aimed at this one's bones. */
static void bone_act(sk_world *w, reader *r, unsigned q) {
  static const int hostile_bones[] = {-1, 256, 255, INT_MAX, INT_MIN, 1000};
  ik2d_solver *s;
  ik2d_skeleton *on;
  double dx, dy;
  int b, ok, i, j;
  switch (q % 11) {
    case 1: case 2: case 4:
      s = pick_solver(w, r, &ok);
      if (!ok) return;
      on = q % 11 == 4 && w->other != NULL ? w->other : w->sk;
      b = (int)(byte_of(r) % (unsigned)on->count);
      sane_offset(r, on, b, &dx, &dy);
      bone_set(w, s, on, b, dx, dy);
      break;
    case 3: {
      unsigned bits = byte_of(r);
      s = pick_solver(w, r, &ok);
      if (!ok) return;
      on = bits & 1 && w->other != NULL ? w->other : w->sk;
      b = bits & 2 ? hostile_bones[byte_of(r) % 6]
          : bits & 4 ? on->count
                     : (int)(byte_of(r) % (unsigned)on->count);
      sane_offset(r, on, b, &dx, &dy);
      if (bits & 8) dx = bone_hostile[byte_of(r) % BONE_HOSTILE];
      if (bits & 16) dy = bone_hostile[byte_of(r) % BONE_HOSTILE];
      if (bits & 32) dx = raw_of(r);
      if ((bits & 0xC0) == 0xC0) on = NULL;
      bone_set(w, s, on, b, dx, dy);
      break;
    }
    case 5: {
      static double before[SK_SOLVER_DOUBLES];
      double x0, y0, x1, y1;
      int had;
      s = pick_solver(w, r, &ok);
      if (s == NULL) {
        ik2d_solver_clear_target_bone(NULL);
        return;
      }
      had = ik2d_solver_target_bone(s, NULL, NULL, NULL) >= 0;
      ik2d_solver_target(s, &x0, &y0);
      memcpy(before, s, ik2d_solver_size(s->chain->count));
      ik2d_solver_clear_target_bone(s);
      ik2d_solver_target(s, &x1, &y1);
      SK_REQUIRE(ik2d_solver_target_bone(s, NULL, NULL, NULL) == -1,
                 "clear_target_bone left a bone", -1, x1, y1);
      /* where the point was: nothing jumps; a point beyond the doubles
      ** leaves the chain's tip as the target */
      if (isfinite(x0) && isfinite(y0)) {
        SK_REQUIRE(memcmp(&x0, &x1, sizeof x0) == 0 && memcmp(&y0, &y1, sizeof y0) == 0,
                   "clear_target_bone moved the target", had, x0 - x1, y0 - y1);
      } else {
        const ik2d_chain *chain = s->chain;
        SK_REQUIRE(memcmp(&x1, &chain->joints[2 * chain->count], sizeof x1) == 0 &&
                       memcmp(&y1, &chain->joints[2 * chain->count + 1], sizeof y1) == 0,
                   "clear_target_bone off the doubles is not the tip", had, x1, y1);
      }
      if (!had)
        SK_REQUIRE(memcmp(before, s, ik2d_solver_size(s->chain->count)) == 0,
                   "clear_target_bone changed a world target", -1, x0, y0);
      break;
    }
    case 6: {
      static double before[SK_SOLVER_DOUBLES];
      ik2d_status status;
      s = pick_solver(w, r, &ok);
      if (s == NULL) return;
      dx = coordinate_of(r);
      dy = byte_of(r) % 8 == 0 ? raw_of(r) : coordinate_of(r);
      memcpy(before, s, ik2d_solver_size(s->chain->count));
      status = ik2d_solver_set_target(s, dx, dy);
      if (status == IK2D_OK) {
        double x, y;
        ik2d_solver_target(s, &x, &y);
        SK_REQUIRE(isfinite(dy) && ik2d_solver_target_bone(s, NULL, NULL, NULL) == -1 && x == dx &&
                       y == dy,
                   "a world target after a bone's is not the point", -1, dx, dy);
      } else {
        SK_REQUIRE(status == IK2D_ERR_TARGET_Y && !isfinite(dy) &&
                       memcmp(before, s, ik2d_solver_size(s->chain->count)) == 0,
                   "a refused world target changed the solver", -1, dx, dy);
      }
      break;
    }
    case 7:
      /* each aimed at a bone the other moves */
      i = byte_of(r) % SK_CHAINS;
      j = byte_of(r) % SK_CHAINS;
      if (i >= w->chains || j >= w->chains) return;
      b = moved_bone(w, j, r);
      sane_offset(r, w->sk, b, &dx, &dy);
      bone_set(w, w->solver[i], w->sk, b, dx, dy);
      b = moved_bone(w, i, r);
      sane_offset(r, w->sk, b, &dx, &dy);
      bone_set(w, w->solver[j], w->sk, b, dx, dy);
      break;
    case 8:
      i = byte_of(r) % SK_CHAINS;
      if (i < w->chains && w->solver[i] != NULL)
        ik2d_solver_set_together(w->solver[i], !w->solver[i]->settings.effector.together);
      break;
    case 9: case 10:
      if (w->other == NULL) return;
      if (q % 11 == 9) {
        b = (int)(byte_of(r) % (unsigned)w->sk->count);
        sane_offset(r, w->sk, b, &dx, &dy);
        bone_set(w, w->other_solver, w->sk, b, dx, dy);
      }
      if (byte_of(r) & 1)
        ik2d_skeleton_set_pose(w->other, (int)(byte_of(r) % (unsigned)w->other->count),
                               angle_of(r));
      i = ik2d_skeleton_solve(w->other);
      SK_REQUIRE(i == (int)w->other_solver->result.reached, "the other skeleton's solve", -1, i, 0);
      check_skeleton_of(w->other, 1, &w->other_chain);
      check_result(w->other_solver, SK_CHAINS, w->other);
      break;
    default: break;
  }
}

/* One operation on a world. */
static void sk_op(sk_world *w, reader *r) {
  unsigned op = byte_of(r);
  int k, solved = -2;
  switch (op % 12) {
    case 0: case 1: case 2:
      note_poses(w);
      if (sk_solve(w)) {
        check_limits(w);
        solved = -1;
      }
      break;
    case 3:
      k = byte_of(r) % SK_CHAINS;
      if (k < w->chains && w->solver[k] != NULL) {
        note_poses(w);
        ik2d_solver_solve(w->solver[k]);
        solved = k;
      }
      break;
    case 4: case 5: sk_target(w, r); break;
    case 6: case 7: sk_edit(w, r); break;
    case 8: sk_set_limits(w, r); break;
    case 9: sk_settings(w, r); break;
    case 10: ik2d_skeleton_reset(w->sk); break;
    default: {
      int all = 1;
      note_poses(w);
      for (k = 2 + byte_of(r) % 4; k > 0; k--) all = sk_solve(w) && all;
      if (all) {
        check_limits(w);
        solved = -1;
      }
      break;
    }
  }
  check_skeleton(w);
  if (solved > -2) check_results(w, solved);
  check_targets(w);
  if (w->bone_mode) {
    bone_act(w, r, op / 12);
    check_targets(w);
  }
}

/* The two worlds, which read the same bytes, hold the same bits. */
static void same_worlds(const sk_world *a, const sk_world *b) {
  int k;
  SK_REQUIRE(memcmp(a->sk->transforms, b->sk->transforms, 5 * a->sk->count * sizeof(double)) == 0 &&
                 memcmp(a->sk->angle, b->sk->angle, a->sk->count * sizeof(double)) == 0,
             "same inputs, different transforms", -1, 0, 0);
  for (k = 0; k < a->chains; k++) {
    if (a->solver[k] == NULL) continue;
    SK_REQUIRE(memcmp(&a->solver[k]->result, &b->solver[k]->result, sizeof(ik2d_result)) == 0,
               "same inputs, different results", k, a->solver[k]->result.distance,
               b->solver[k]->result.distance);
  }
  if (a->other != NULL)
    SK_REQUIRE(memcmp(a->other->transforms, b->other->transforms,
                      5 * a->other->count * sizeof(double)) == 0 &&
                   memcmp(&a->other_solver->result, &b->other_solver->result,
                          sizeof(ik2d_result)) == 0,
               "same inputs, different other skeletons", -1, 0, 0);
}

/* (the solvers first: a target may be on the other skeleton's bones) */
static void release_world(sk_world *w) {
  int k;
  for (k = 0; k < w->chains; k++)
    if (w->solver[k] != NULL) ik2d_solver_release(w->solver[k]);
  if (w->other != NULL) ik2d_solver_release(w->other_solver);
  for (k = 0; k < w->chains; k++) ik2d_chain_release(w->chain[k]);
  ik2d_skeleton_release(w->sk);
  if (w->other != NULL) {
    ik2d_chain_release(w->other_chain);
    ik2d_skeleton_release(w->other);
  }
}

int skeleton_fuzz_one(const uint8_t *data, size_t size) {
  static sk_world a, b;
  reader ra, rb;
  int ops = 0, built;
  ra.p = rb.p = data;
  ra.n = rb.n = size;
  current_chain = NULL;
  current_solver = NULL;
  built = sk_build(&a, &ra);
  if (!built) return 0;
  current_skeleton = b.sk;
  SK_REQUIRE(sk_build(&b, &rb), "the twin was not built", -1, 0, 0);
  current_skeleton = a.sk;
  check_skeleton(&a);
  while (ra.n > 0 && ops++ < SK_OPS) {
    current_skeleton = a.sk;
    sk_op(&a, &ra);
    current_skeleton = b.sk;
    sk_op(&b, &rb);
    current_skeleton = a.sk;
    same_worlds(&a, &b);
  }
  ik2d_skeleton_solve(a.sk);
  check_skeleton(&a);
  release_world(&a);
  release_world(&b);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return skeleton_fuzz_one(data, size);
}
