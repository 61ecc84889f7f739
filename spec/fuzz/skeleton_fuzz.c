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
**   - the same program run twice gives the same bits.
**
** Built by `make fuzz` (with ik2d_fuzz.c's target) and, with
** -DIK2D_FUZZ_REPLAY, by spec/fuzz/replay_spec.lua into a plain program
** that replays spec/fuzz/skeleton_regressions/ and skeleton_corpus/.
*/
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
** from, as ik2d_fuzz.c's floor has it). */
static double sk_floor(const ik2d_skeleton *sk) {
  double size = fabs(sk->base_x) + fabs(sk->base_y), angles = TWO_PI + fabs(sk->base_angle);
  int i;
  for (i = 0; i < sk->count; i++) {
    const ik2d_constraint *c = sk->constraint[i];
    double a = max3(fabs(sk->angle[i]), fabs(sk->pose[i]), fabs(sk->rest[i]));
    if (c != NULL) a = max3(a, fabs(c->def.min), fabs(c->def.max));
    size += sk->length[i] + fabs(sk->origin[2 * i]) + fabs(sk->origin[2 * i + 1]);
    angles += fmax(a, TWO_PI);
  }
  return size * (64.0 * DBL_EPSILON * angles + 1e-14 * sk->count) + ldexp(8.0, -1074);
}

static void check_skeleton(const sk_world *w) {
  const ik2d_skeleton *sk = w->sk;
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
  for (k = 0; k < w->chains; k++) {
    const ik2d_chain *chain = w->chain[k];
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

/* After sk:solve every solver's result describes where its tip is (only:
** solver k's, after a solve of k alone; -1: every one's). */
static void check_results(const sk_world *w, int only) {
  int k;
  for (k = 0; k < w->chains; k++) {
    const ik2d_solver *s = w->solver[k];
    const ik2d_chain *chain = w->chain[k];
    double tx, ty, dx, dy;
    if (s == NULL || (only >= 0 && k != only)) continue;
    ik2d_solver_target(s, &tx, &ty);
    dx = tx - chain->joints[2 * chain->count];
    dy = ty - chain->joints[2 * chain->count + 1];
    SK_REQUIRE(s->result.reached == (s->result.distance <= s->settings.tolerance),
               "reached disagrees with distance", k, s->result.distance, s->settings.tolerance);
    if (isfinite(dx) && isfinite(dy) && sk_representable(w->sk)) {
      double d = hypot(dx, dy);
      SK_REQUIRE(isfinite(d) ? fabs(d - s->result.distance) <= 1e-12 * d + ldexp(4.0, -1074)
                             : s->result.distance == d,
                 "distance is not |tip - target|", k, d, s->result.distance);
    }
  }
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
  def.skeleton.together = !(bits & 0x20);
  def.skeleton.priority = bits & 0x10 ? 1.0 : 4.0 * unit_of(r);
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
** world-space limit (its joint solve turns bones in their parents'
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

static int sk_build(sk_world *w, reader *r) {
  static ik2d_skeleton_bone_def bones[SK_BONES + 1];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  unsigned head = byte_of(r);
  int count = head < 4 ? 256 : head < 6 ? (int)(head % 2) * 257 : 1 + (int)(head % 24);
  int i, bad = 0, k;
  ik2d_status status;
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
  def.flip = byte_of(r) & 1;
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

/* One operation on a world. */
static void sk_op(sk_world *w, reader *r) {
  int k, solved = -2;
  switch (byte_of(r) % 12) {
    case 0: case 1: case 2:
      note_poses(w);
      ik2d_skeleton_solve(w->sk);
      check_limits(w);
      solved = -1;
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
    default:
      note_poses(w);
      for (k = 2 + byte_of(r) % 4; k > 0; k--) ik2d_skeleton_solve(w->sk);
      check_limits(w);
      solved = -1;
      break;
  }
  check_skeleton(w);
  if (solved > -2) check_results(w, solved);
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
}

static void release_world(sk_world *w) {
  int k;
  for (k = 0; k < w->chains; k++) {
    if (w->solver[k] != NULL) ik2d_solver_release(w->solver[k]);
    ik2d_chain_release(w->chain[k]);
  }
  ik2d_skeleton_release(w->sk);
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
