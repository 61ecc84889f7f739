/*
** skeleton_fuzz.c: libFuzzer target over the skeleton layer.
**
** The input bytes are read as a program, with the reader and the chain
** checks of ik2d_fuzz.c (included below, its own entry point renamed): a
** skeleton (1..24 bones, now and then 256, and bad ones: a parent not
** earlier, a length below 0 or not finite, an origin not finite, pivots
** of length 0, origins at the tip or anywhere, bones inheriting position
** only, shared limits), chains over random paths (refused where the path
** is not one), solvers on them (every method, weight, priority, together
** or not, stretching now and then), then operations: sk:solve, a solver
** alone, targets, poses, base, flip, lengths, rest angles, limits
** edited, constraints moved, reset, settings changed, solvers released
** and made again.  After every call, on a rigid skeleton (the bone model
** below for the others):
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
** A skeleton placed by the bone model (general: scales, shears, inherit
** modes, a skeleton scale, stretch) is checked by that model: each
** bone's map is its parent's composed with its local transform in its
** inherit mode (worked out here with libm, from the definitions in
** ik2d_bone.c's header), its transform and matrix that map under the
** base, its tip its length along its x axis; every result local finite;
** limits held while it fits in doubles; its chains' angles are the
** segments' turns, not the bones' shifted.  And for every skeleton: a
** bone's length is the rig's (set_length alone sets it); its shape
** (translation, scale, shear) changes only by its pose, a reset, a bone
** IK on it (a stretch or compress alone changes its scales) or a
** transform constraint moving it; the order holds live solvers and
** constraints, each once.
**
** Model mode (the head byte's quotient by 24 equal to 8) reads each
** bone's scales, shears and inherit mode (any of the five) and the
** skeleton's scale ((1, -1), (-1, 1), sane, hostile: zero, NaN, inf,
** 1e+-300, denormal, raw), Spine's IK settings (compress, uniform,
** softness, any stretch, bend), and after every operation one byte more
** acts: a whole local pose set, the skeleton's scale, a transform
** constraint made (world or local, absolute or relative, mixes and
** offsets sane and hostile, bad bones, targets and counts), its settings
** changed, released, applied, an order set (solvers and constraints,
** live, released, another skeleton's, twice), the reads; each call's
** documented status, a refused one changing nothing.
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
#define SK_DOUBLES 14336   /* a skeleton of 256 bones */
#define SK_CHAIN_DOUBLES 1536
#define SK_SOLVER_DOUBLES 640
#define SK_OTHER_BONES 6
#define SK_OTHER_DOUBLES 1024  /* a skeleton of SK_OTHER_BONES bones */
#define SK_CONSTRAINTS 6
#define SK_CONSTRAINT_BONES 4
#define SK_CONSTRAINT_DOUBLES 32  /* a transform constraint of 8 bones */

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
  /* model mode (the bone model): transform constraints, NULL when none
  ** or released */
  int model;
  double constraint_memory[SK_CONSTRAINTS][SK_CONSTRAINT_DOUBLES];
  ik2d_transform_constraint *constraint[SK_CONSTRAINTS];
  /* what the operation under way may change of the bones' local shapes
  ** (may_reshape: any part, may_rescale: their scales too): the rest
  ** stays as it was, or after a whole solve (whole_solve) as the pose */
  unsigned char may_reshape[SK_BONES], may_rescale[SK_BONES];
  int whole_solve;
  ik2d_bone_shape shape_before[SK_BONES];
  double length_before[SK_BONES];
  int length_edit;         /* the bone whose length the operation set, or -1 */
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
    if (sk->general)
      fprintf(stderr, "general: skeleton scale %.17g %.17g\n", sk->scale_x, sk->scale_y);
    for (i = 0; i < sk->count; i++) {
      const ik2d_bone_shape *h = &sk->shape[i];
      fprintf(stderr, "  bone %d: parent %d length %.17g rest %.17g pose %.17g angle %.17g "
              "origin %.17g %.17g%s inherit %d\n", i, sk->parent[i], sk->length[i], sk->rest[i],
              sk->pose[i], sk->angle[i], sk->origin[2 * i], sk->origin[2 * i + 1],
              sk->at_tip[i] ? " (tip)" : "", sk->inherit[i]);
      if (sk->general)
        fprintf(stderr, "    shape x %.17g y %.17g scale %.17g %.17g shear %.17g %.17g\n", h->x,
                h->y, h->scale_x, h->scale_y, h->shear_x, h->shear_y);
    }
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

/* ------------------------------------------------------------------ */
/* the bone model's placing, worked out here                            */
/* ------------------------------------------------------------------ */

typedef struct fz_map {
  double a, b, c, d, x, y;
} fz_map;

/* A bone's local linear map at rotation r: its x axis turned r + shear x
** and scaled by scale x, its y axis turned r + pi/2 + shear y and scaled
** by scale y (libm's cos and sin). */
static void fz_local(double r, const ik2d_bone_shape *h, fz_map *m) {
  m->a = cos(r + h->shear_x) * h->scale_x;
  m->c = sin(r + h->shear_x) * h->scale_x;
  m->b = -sin(r + h->shear_y) * h->scale_y;
  m->d = cos(r + h->shear_y) * h->scale_y;
  m->x = h->x;
  m->y = h->y;
}

/* out = p q, linear parts */
static void fz_mul(const fz_map *p, const fz_map *q, fz_map *out) {
  fz_map r;
  r.a = p->a * q->a + p->b * q->c;
  r.b = p->a * q->b + p->b * q->d;
  r.c = p->c * q->a + p->d * q->c;
  r.d = p->c * q->b + p->d * q->d;
  r.x = r.y = 0.0;
  *out = r;
}

static double fz_size(const fz_map *m) {
  return fmax(fmax(fabs(m->a), fabs(m->b)), fmax(fabs(m->c), fabs(m->d)));
}

/* How large a general skeleton's maps and positions can grow from its
** result's local transforms (a bound; inf or NaN past the doubles): the
** five ways of composing (ik2d_bone.c's header) bounded term by term.
** Inf too where a skeleton scale or a map's entries are past 1e150 (or
** the scale below 1e-150): the placing squares them. */
static double general_extent(const ik2d_skeleton *sk) {
  double mag[SK_BONES], pos[SK_BONES];
  double s = fmax(fabs(sk->scale_x), fabs(sk->scale_y));
  double unscale = fmax(1.0 / fabs(sk->scale_x), 1.0 / fabs(sk->scale_y));
  double extent = fabs(sk->base_x) + fabs(sk->base_y);
  int b;
  if (!(s <= 1e150 && unscale <= 1e150)) return HUGE_VAL;
  for (b = 0; b < sk->count; b++) {
    const ik2d_bone_shape *h = &sk->shape[b];
    double own = fabs(h->scale_x) + fabs(h->scale_y), m, pp;
    int p = sk->parent[b], inherit = sk->inherit[b];
    if (p < 0 || inherit == IK2D_INHERIT_POSITION) {
      m = 2.0 * s * own;
    } else if (inherit == IK2D_INHERIT_ALL) {
      m = 4.0 * mag[p] * own;
    } else if (inherit == IK2D_INHERIT_NO_ROTATION_OR_REFLECTION) {
      /* Q's axes: P's x axis, and |det P'| / |x'| with |x'| at least 1e-2 */
      pp = 2.0 * mag[p] * unscale;
      m = 4.0 * s * (2.0 * pp + 200.0 * pp * pp) * own;
    } else {
      m = 4.0 * s * own;
    }
    pos[b] = (p < 0 ? s : pos[p] + 2.0 * mag[p]) * (fabs(h->x) + fabs(h->y) + 1.0);
    mag[b] = m;
    /* (a map's entries are squared: their axes' lengths, a determinant) */
    if (m > 1e150) return HUGE_VAL;
    /* (+ 1: no 0 times inf) */
    extent = extent + pos[b] + 2.0 * m * (sk->length[b] + 1.0);
  }
  return isnan(extent) ? HUGE_VAL : extent;
}

/* While this holds, every map and transform of a general skeleton is
** finite. */
static int general_representable(const ik2d_skeleton *sk) {
  return general_extent(sk) < 1e290;
}

/* Bone b's map in the skeleton's space from its parent's as the core
** holds it (sk->world), by the bone model's definitions (ik2d_bone.c's
** header), worked out here with libm; *err: how far the rounding may
** move its linear entries, *err_origin its origin.  0 where the bone sits
** at a threshold the core branches on (an axis that vanished, the sign
** of a determinant near 0): not checked. */
static int fz_place(const ik2d_skeleton *sk, int b, fz_map *w, double *err, double *err_origin) {
  const ik2d_bone_shape *h = &sk->shape[b];
  /* (an axis' length is a square root of squares, which underflow for
  ** maps of 1e-154 and less: a transform constraint's map that small
  ** leaves a local transform that gives none of it) */
  const double tiny = 1e-150, eps = DBL_EPSILON;
  double r = sk->angle[b], sx = sk->scale_x, sy = sk->scale_y, s = fmax(fabs(sx), fabs(sy));
  double turns = 8.0 + fabs(r) + fabs(h->shear_x) + fabs(h->shear_y);
  double own = fabs(h->scale_x) + fabs(h->scale_y), pp;
  int p = sk->parent[b], inherit = sk->inherit[b];
  const ik2d_affine *pw = p >= 0 ? &sk->world[p] : NULL;
  fz_map parent, q, local;
  if (pw != NULL) {
    /* a parent singular in doubles (its determinant's terms underflow):
    ** a transform constraint that moved the bone in world space left a map
    ** no local transform under it gives */
    double rows = fmax(fabs(pw->a), fabs(pw->b)), columns = fmax(fabs(pw->c), fabs(pw->d));
    double size = fmax(rows, columns), det = pw->a * pw->d - pw->b * pw->c;
    if (!(rows >= 1e-280 / columns)) return 0;
    /* and one so near singular (its condition past 1e6) that the local
    ** transform worked out under it holds few of the map's digits */
    if (!(fabs(det) >= 1e-6 * size * size)) return 0;
    parent.a = pw->a, parent.b = pw->b, parent.c = pw->c, parent.d = pw->d;
    parent.x = pw->x, parent.y = pw->y;
    w->x = parent.a * h->x + parent.b * h->y + parent.x;
    w->y = parent.c * h->x + parent.d * h->y + parent.y;
    *err_origin = 8.0 * eps * (2.0 * fz_size(&parent) * (fabs(h->x) + fabs(h->y)) +
                               fabs(parent.x) + fabs(parent.y)) + tiny;
  } else {
    w->x = sx * h->x;
    w->y = sy * h->y;
    *err_origin = 4.0 * eps * (fabs(w->x) + fabs(w->y)) + tiny;
  }
  if (pw == NULL || inherit == IK2D_INHERIT_POSITION) {
    fz_local(r, h, &local);
    w->a = sx * local.a, w->b = sx * local.b, w->c = sy * local.c, w->d = sy * local.d;
    *err = 16.0 * eps * turns * s * own + tiny;
    if (isnan(*err_origin)) *err_origin = HUGE_VAL;
    return 1;
  }
  if (inherit == IK2D_INHERIT_ALL) {
    fz_local(r, h, &local);
    fz_mul(&parent, &local, &q);
    w->a = q.a, w->b = q.b, w->c = q.c, w->d = q.d;
    *err = 32.0 * eps * turns * fz_size(&parent) * own + tiny;
    if (isnan(*err_origin)) *err_origin = HUGE_VAL;
    return 1;
  }
  /* P' = S^-1 P, the parent without the skeleton's scale */
  parent.a /= sx, parent.b /= sx, parent.c /= sy, parent.d /= sy;
  pp = fz_size(&parent);
  if (inherit == IK2D_INHERIT_NO_ROTATION_OR_REFLECTION) {
    double len2 = parent.a * parent.a + parent.c * parent.c, t, k, err_q;
    if (fabs(len2 - 1e-4) <= 1e-6) return 0;
    if (len2 > 1e-4) {
      /* Q = R(t) diag(|x'|, |det P'| / |x'|), x' at direction t */
      t = atan2(parent.c, parent.a);
      k = fabs(parent.a * parent.d - parent.b * parent.c) / len2;
      q.a = parent.a, q.c = parent.c, q.b = -parent.c * k, q.d = parent.a * k;
      err_q = 64.0 * eps * (pp + pp * pp / sqrt(len2));
    } else {
      /* the x axis vanished: the y axis a quarter turn past t */
      t = atan2(parent.d, parent.b) - 0.5 * PI;
      q.a = q.c = 0.0, q.b = parent.b, q.d = parent.d;
      err_q = 64.0 * eps * pp;
    }
    fz_local(r - t, h, &local);
    fz_mul(&q, &local, &q);
    *err = s * (2.0 * err_q * own + 32.0 * eps * (turns + fabs(t)) * fz_size(&q) * own) + tiny;
  } else {
    /* F = [u, +-u turned a quarter], u = P' (cos r, sin r) / |.| */
    double ux = parent.a * cos(r) + parent.b * sin(r), uy = parent.c * cos(r) + parent.d * sin(r);
    double len = sqrt(ux * ux + uy * uy), det = pw->a * pw->d - pw->b * pw->c, side = 1.0, err_u;
    if (fabs(len - 1e-5) <= 1e-7) return 0;
    if (inherit == IK2D_INHERIT_NO_SCALE) {
      double size = fmax(fmax(fabs(pw->a), fabs(pw->b)), fmax(fabs(pw->c), fabs(pw->d)));
      if (fabs(det) <= 1e-9 * size * size) return 0;
      if ((det < 0.0) != ((sx < 0.0) != (sy < 0.0))) side = -1.0;
    }
    err_u = 64.0 * eps * pp * (turns + 1.0);
    if (len > 1e-5) {
      ux /= len, uy /= len;
      err_u /= len;
    }
    q.a = ux, q.c = uy, q.b = -side * uy, q.d = side * ux;
    fz_local(0.0, h, &local);
    fz_mul(&q, &local, &q);
    *err = s * (4.0 * err_u * own + 32.0 * eps * turns * own) + tiny;
  }
  w->a = sx * q.a, w->b = sx * q.b, w->c = sy * q.c, w->d = sy * q.d;
  /* (a bound past the doubles, inf times 0 among its terms, bounds nothing) */
  if (isnan(*err)) *err = HUGE_VAL;
  if (isnan(*err_origin)) *err_origin = HUGE_VAL;
  return 1;
}

/* A general skeleton's bones: each one's map is its parent's composed with
** its local transform as the bone model says; its transform and matrix
** are that map under the base (flipped when it is), its tip its length
** along its x axis as drawn. */
static void check_general(const ik2d_skeleton *sk) {
  const double eps = DBL_EPSILON, tiny = ldexp(8.0, -1074);
  double bc = cos(sk->base_angle), bs = sin(sk->base_angle), base = fabs(sk->base_x) + fabs(sk->base_y);
  int i, k;
  for (i = 0; i < sk->count; i++) {
    const ik2d_bone_shape *h = &sk->shape[i];
    SK_REQUIRE(isfinite(sk->angle[i]) && isfinite(h->x) && isfinite(h->y) &&
                   isfinite(h->scale_x) && isfinite(h->scale_y) && isfinite(h->shear_x) &&
                   isfinite(h->shear_y),
               "result local transform not finite", i, sk->angle[i], h->scale_x);
  }
  if (!general_representable(sk)) return;
  for (i = 0; i < sk->count; i++) {
    const ik2d_affine *got = &sk->world[i];
    const double *t = &sk->transforms[5 * i];
    double m[6], err, err_origin, ax, ay, ox, oy, axis, size;
    fz_map want;
    for (k = 0; k < 5; k++) SK_REQUIRE(isfinite(t[k]), "transform not finite", i, k, t[k]);
    if (fz_place(sk, i, &want, &err, &err_origin)) {
      SK_REQUIRE(fabs(want.a - got->a) <= err && fabs(want.b - got->b) <= err &&
                     fabs(want.c - got->c) <= err && fabs(want.d - got->d) <= err,
                 "a bone's map is not its parent's composed with its local transform", i,
                 want.a - got->a, want.d - got->d);
      SK_REQUIRE(fabs(want.x - got->x) <= err_origin && fabs(want.y - got->y) <= err_origin,
                 "a bone's origin is not its translation in its parent's map", i, want.x - got->x,
                 want.y - got->y);
    }
    /* as drawn: turned by the base, moved to it, mirrored about it */
    ax = bc * got->a - bs * got->c;
    ay = bs * got->a + bc * got->c;
    ox = sk->base_x + (bc * got->x - bs * got->y);
    oy = sk->base_y + (bs * got->x + bc * got->y);
    size = fabs(got->a) + fabs(got->b) + fabs(got->c) + fabs(got->d);
    err = 8.0 * eps * (base + 2.0 * (fabs(got->x) + fabs(got->y))) + tiny;
    if (sk->flip) ox = 2.0 * sk->base_x - ox, ax = -ax;
    SK_REQUIRE(fabs(ox - t[0]) <= err && fabs(oy - t[1]) <= err,
               "a bone's origin as drawn is not its map's, under the base", i, ox - t[0], oy - t[1]);
    SK_REQUIRE(ik2d_skeleton_matrix(sk, i, m) == IK2D_OK && memcmp(&m[4], t, 2 * sizeof(double)) == 0,
               "a bone's matrix's origin is not its transform's", i, m[4], t[0]);
    SK_REQUIRE(fabs(m[0] - ax) <= 8.0 * eps * size + tiny && fabs(m[2] - ay) <= 8.0 * eps * size + tiny,
               "a bone's matrix is not its map under the base", i, m[0] - ax, m[2] - ay);
    axis = hypot(ax, ay);
    err = 16.0 * eps * (fabs(t[0]) + fabs(t[1]) + sk->length[i] * axis) + err + tiny;
    SK_REQUIRE(fabs(t[0] + sk->length[i] * ax - t[3]) <= err &&
                   fabs(t[1] + sk->length[i] * ay - t[4]) <= err,
               "a bone's tip is not its length along its x axis", i, t[3], t[0] + sk->length[i] * ax);
    if (axis > 1e-150 * (size + 1.0))
      SK_REQUIRE(fabs(wrap(atan2(ay, ax) - t[2])) <= 64.0 * eps * (size / axis + 1.0),
                 "a bone's world angle is not its x axis' direction", i, atan2(ay, ax), t[2]);
  }
}

/* A rigid skeleton's bones: the forward kinematics of the result angles,
** recomputed from the angles, origins and lengths alone. */
static void check_rigid(const ik2d_skeleton *sk) {
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
}

/* Every chain's joints are its path's transforms bit for bit, its bones
** their lengths apart, its angles (on a rigid skeleton) the skeleton's
** shifted. */
static void check_chains(const ik2d_skeleton *sk, int chains, ik2d_chain *const *chain_of) {
  double allowed = sk->general ? 0.0 : sk_floor(sk);
  int i, k, representable = sk->general ? general_representable(sk) : sk_representable(sk);
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
      if (!sk->general)
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
      /* (a general chain's bones are its segments as drawn: their lengths
      ** measured from the joints by the core's hypot) */
      if (sk->general) allowed = 4.0 * DBL_EPSILON * d + ldexp(8.0, -1074);
      SK_REQUIRE(fabs(d - chain->length[i]) <= LENGTH_REL * chain->length[i] + allowed,
                 "a chain's bone changed length", link->bones[i], d, chain->length[i]);
    }
  }
}

static void check_skeleton_of(const ik2d_skeleton *sk, int chains, ik2d_chain *const *chain_of) {
  if (sk->general)
    check_general(sk);
  else
    check_rigid(sk);
  check_chains(sk, chains, chain_of);
}

static void check_skeleton(const sk_world *w) {
  check_skeleton_of(w->sk, w->chains, w->chain);
  if (w->other != NULL) check_skeleton_of(w->other, 1, &w->other_chain);
}

/* Is bone b one that a transform constraint in sk's order moves? */
static int ordered_constraint_moves(const ik2d_skeleton *sk, int b) {
  ik2d_step steps[2 * IK2D_MAX_SKELETON_SOLVERS];
  int n = ik2d_skeleton_order(sk, steps, 2 * IK2D_MAX_SKELETON_SOLVERS), k, i;
  for (k = 0; k < n; k++) {
    ik2d_transform_constraint_def def;
    if (steps[k].constraint == NULL) continue;
    def = ik2d_transform_constraint_get_def(steps[k].constraint);
    for (i = 0; i < def.bone_count; i++)
      if (def.bones[i] == b) return 1;
  }
  return 0;
}

/* Limits after a solve: every limited bone whose solvers all have weight
** 1, or whose pose was within them (and which no transform constraint
** moves after them). */
static void check_limits(const sk_world *w) {
  const ik2d_skeleton *sk = w->sk;
  int b, k;
  /* (a general skeleton past the doubles keeps the angles it had where a
  ** solve's are no numbers) */
  if (sk->general && !general_representable(sk)) return;
  for (b = 0; b < sk->count; b++) {
    const ik2d_constraint *c = sk->constraint[b];
    int covered = 0, full = 1;
    double v, m;
    if (c == NULL || ordered_constraint_moves(sk, b)) continue;
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
  if (sk->general) {
    /* its matrix as drawn (checked against its map), applied */
    double m[6], size;
    if (!general_representable(sk) || ik2d_skeleton_matrix(sk, b, m) != IK2D_OK) return 0;
    *x = m[4] + m[0] * dx + m[1] * dy;
    *y = m[5] + m[2] * dx + m[3] * dy;
    if (!(fabs(*x) < DBL_MAX / 4 && fabs(*y) < DBL_MAX / 4)) return 0;
    size = fabs(m[0]) + fabs(m[1]) + fabs(m[2]) + fabs(m[3]);
    *floor = 32.0 * DBL_EPSILON * (fabs(m[4]) + fabs(m[5]) + 2.0 * (fabs(sk->base_x) +
                                   fabs(sk->base_y)) + size * (fabs(dx) + fabs(dy))) +
             ldexp(8.0, -1074);
    return 1;
  }
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
  if (on->general ? general_representable(on) : sk_representable(on))
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
  if (isfinite(dx) && isfinite(dy) && (sk->general ? general_representable(sk) : sk_representable(sk))) {
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
/* what an operation may change of the bones' local transforms          */
/* ------------------------------------------------------------------ */

/* Before an operation: the bones' shapes and lengths as they are, and
** nothing it may change yet. */
static void op_begin(sk_world *w) {
  const ik2d_skeleton *sk = w->sk;
  int b;
  for (b = 0; b < sk->count; b++) {
    w->shape_before[b] = sk->shape[b];
    w->length_before[b] = sk->length[b];
  }
  memset(w->may_reshape, 0, sizeof w->may_reshape);
  memset(w->may_rescale, 0, sizeof w->may_rescale);
  w->whole_solve = 0;
  w->length_edit = -1;
}

/* A solver's bones whose shape its solve may change: a bone IK's (a
** two-bone one drops the parent's shear and may move the child's origin
** onto the parent's axis), their scales too when it stretches or
** compresses.  A longer chain's solve turns its bones alone. */
static void solver_may_reshape(sk_world *w, const ik2d_solver *s) {
  const ik2d_chain *chain = s->chain;
  int scales = s->settings.two_bone.stretch > 1.0 || s->settings.two_bone.compress < 1.0, i;
  if (chain->count > 2) return;
  for (i = 0; i < chain->count; i++) {
    w->may_reshape[chain->link->bones[i]] = 1;
    if (scales) w->may_rescale[chain->link->bones[i]] = 1;
  }
}

/* A transform constraint's bones: any part of them. */
static void constraint_may_reshape(sk_world *w, const ik2d_transform_constraint *tc) {
  ik2d_transform_constraint_def def = ik2d_transform_constraint_get_def(tc);
  int i;
  for (i = 0; i < def.bone_count; i++) w->may_reshape[def.bones[i]] = w->may_rescale[def.bones[i]] = 1;
}

/* A whole solve (which starts from the pose): every solver's bones, every
** ordered constraint's. */
static void whole_solve_may(sk_world *w) {
  ik2d_step steps[2 * IK2D_MAX_SKELETON_SOLVERS];
  int n = ik2d_skeleton_order(w->sk, steps, 2 * IK2D_MAX_SKELETON_SOLVERS), k;
  for (k = 0; k < w->chains; k++)
    if (w->solver[k] != NULL) solver_may_reshape(w, w->solver[k]);
  for (k = 0; k < n; k++)
    if (steps[k].constraint != NULL) constraint_may_reshape(w, steps[k].constraint);
  w->whole_solve = 1;
}

/* After an operation: a bone's length is the rig's (set_length alone sets
** it); its shape (translation, scale, shear) is as it was, or after a
** whole solve its pose's, unless the operation may change it; its scale
** changes by a stretch, a compress, a constraint or a pose alone. */
static void check_shapes(const sk_world *w) {
  const ik2d_skeleton *sk = w->sk;
  int b;
  for (b = 0; b < sk->count; b++) {
    const ik2d_bone_shape *h = &sk->shape[b];
    const ik2d_bone_shape *want = w->whole_solve ? &sk->pose_shape[b] : &w->shape_before[b];
    SK_REQUIRE(b == w->length_edit || memcmp(&sk->length[b], &w->length_before[b], sizeof(double)) == 0,
               "a bone's length changed", b, sk->length[b], w->length_before[b]);
    if (!w->may_reshape[b])
      SK_REQUIRE(memcmp(h, want, sizeof *h) == 0, "a bone's shape changed", b, h->scale_x,
                 want->scale_x);
    else if (!w->may_rescale[b])
      SK_REQUIRE(memcmp(&h->scale_x, &want->scale_x, sizeof(double)) == 0 &&
                     memcmp(&h->scale_y, &want->scale_y, sizeof(double)) == 0,
                 "a bone's scale changed with no stretch, compress or constraint", b, h->scale_x,
                 want->scale_x);
  }
}

/* The order holds live solvers and constraints of the skeleton, each once. */
static void check_order(const sk_world *w) {
  ik2d_step steps[2 * IK2D_MAX_SKELETON_SOLVERS];
  int n = ik2d_skeleton_order(w->sk, steps, 2 * IK2D_MAX_SKELETON_SOLVERS), k, j, found;
  for (k = 0; k < n; k++) {
    found = 0;
    for (j = 0; j < w->chains; j++) found += steps[k].solver != NULL && steps[k].solver == w->solver[j];
    for (j = 0; j < SK_CONSTRAINTS; j++)
      found += steps[k].constraint != NULL && steps[k].constraint == w->constraint[j];
    SK_REQUIRE(found == 1 && (steps[k].solver == NULL) != (steps[k].constraint == NULL),
               "an order step is no live solver or constraint of the skeleton", k, found, n);
    for (j = 0; j < k; j++)
      SK_REQUIRE(steps[j].solver != steps[k].solver || steps[j].constraint != steps[k].constraint,
                 "a step twice in the order", k, j, n);
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
  /* (a general skeleton's chain reaches as its bones are drawn: beyond the
  ** doubles, scaled so) */
  def.tolerance = bits & 0x80                                    ? 0.0
                  : byte_of(r) % 2 == 0                          ? 0.01
                  : isfinite(chain->reach)                       ? 1e-6 * chain->reach
                                                                 : 1e-6 * DBL_MAX;
  def.weight = bits & 0x40 ? 1.0 : unit_of(r);
  def.effector.together = !(bits & 0x20);
  def.effector.priority = bits & 0x10 ? 1.0 : 4.0 * unit_of(r);
  def.warm_start = !(bits & 0x08);
  def.two_bone.stretch = byte_of(r) % 16 == 0 ? 2.0 : 1.0;
  if (w->model) {
    /* Spine's IK settings: compress, uniform, softness, any stretch */
    unsigned more = byte_of(r);
    if (more & 1) def.two_bone.compress = unit_of(r);
    def.two_bone.uniform = (more & 2) != 0;
    if (more & 4) def.two_bone.softness = 0.2 * (isfinite(chain->reach) ? chain->reach : 1.0) * unit_of(r);
    if (more & 8) def.two_bone.stretch = more & 16 ? HUGE_VAL : 1.0 + 3.0 * unit_of(r);
    def.two_bone.bend = more & 32 ? -1 : 1;
    def.two_bone.softness_curve = more & 64 ? IK2D_SOFTNESS_SPINE : IK2D_SOFTNESS_SMOOTH;
  }
  two_bone_ok = chain->count == 2 && chain->length[0] > 0.0 && chain->length[1] > 0.0;
  status = ik2d_solver_init(s, SK_SOLVER_DOUBLES * sizeof(double), chain, &def);
  /* (stretch and compress scale a skeleton's bones: the bone model) */
  if (def.method == IK2D_TWO_BONE && !two_bone_ok) {
    SK_REQUIRE(status == IK2D_ERR_TWO_BONE, "two_bone accepted with a pivot", k, chain->count, status);
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

/* ------------------------------------------------------------------ */
/* model mode: the values it reads                                      */
/* ------------------------------------------------------------------ */

static const double model_hostile[] = {1e-300, -1e-300, 1e300, -1e300, 5e-324, DBL_MAX,
                                       -DBL_MAX, 1e-8, -1e8, 0.0, -0.0, NAN, HUGE_VAL,
                                       -HUGE_VAL};
#define MODEL_HOSTILE ((unsigned)(sizeof model_hostile / sizeof model_hostile[0]))

/* A scale: 1, sane (0.25..4, reflected too), -1, hostile or raw. */
static double model_scale_of(reader *r) {
  unsigned k = byte_of(r);
  switch (k % 8) {
    case 0: case 1: return 1.0;
    case 2: case 3: case 4: return (k & 8 ? -1.0 : 1.0) * (0.25 + 3.75 * unit_of(r));
    case 5: return -1.0;
    case 6: return model_hostile[byte_of(r) % MODEL_HOSTILE];
    default: return raw_of(r);
  }
}

/* A shear: 0, sane, any angle, hostile. */
static double model_shear_of(reader *r) {
  unsigned k = byte_of(r);
  switch (k % 6) {
    case 0: case 1: case 2: return 0.0;
    case 3: return -1.0 + 2.0 * unit_of(r);
    case 4: return angle_of(r);
    default: return model_hostile[byte_of(r) % MODEL_HOSTILE];
  }
}

/* a mix: 1, 0, within [0, 1], beyond, hostile */
static double model_mix_of(reader *r) {
  unsigned k = byte_of(r);
  switch (k % 6) {
    case 0: case 1: return 1.0;
    case 2: return 0.0;
    case 3: return unit_of(r);
    case 4: return -2.0 + 5.0 * unit_of(r);
    default: return model_hostile[byte_of(r) % MODEL_HOSTILE];
  }
}

/* an offset: 0, sane, an angle, hostile */
static double model_offset_of(reader *r) {
  unsigned k = byte_of(r);
  switch (k % 5) {
    case 0: case 1: return 0.0;
    case 2: return -1.0 + 2.0 * unit_of(r);
    case 3: return angle_of(r);
    default: return model_hostile[byte_of(r) % MODEL_HOSTILE];
  }
}

static int scale_good(double v) { return isfinite(v) && v != 0.0; }

/* A bone's scale, shear and inherit mode (model mode): whether its
** skeleton must be refused. */
static int model_bone_of(reader *r, ik2d_skeleton_bone_def *b) {
  unsigned bits = byte_of(r);
  if (bits % 8 < 5) b->inherit = (ik2d_inherit)(bits % 8);
  if (bits & 0x08) {
    b->scale_x = model_scale_of(r);
    b->scale_y = bits & 0x10 ? b->scale_x : model_scale_of(r);
  }
  if (bits & 0x20) b->shear_x = model_shear_of(r);
  if (bits & 0x40) b->shear_y = model_shear_of(r);
  return !scale_good(b->scale_x) || !scale_good(b->scale_y) || !isfinite(b->shear_x) ||
         !isfinite(b->shear_y);
}

/* The skeleton's scale (model mode): whether it must be refused. */
static int model_skeleton_scale_of(reader *r, double *sx, double *sy) {
  switch (byte_of(r) % 6) {
    case 0: *sx = 1.0, *sy = 1.0; break;
    case 1: *sx = 1.0, *sy = -1.0; break;
    case 2: *sx = -1.0, *sy = 1.0; break;
    default:
      *sx = model_scale_of(r);
      *sy = model_scale_of(r);
      break;
  }
  return !scale_good(*sx) || !scale_good(*sy);
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
  /* the head byte's quotient by 24 (unused before; no saved input has 8)
  ** turns model mode on */
  w->model = head >= 6 && head / 24 == 8;
  for (k = 0; k < SK_CONSTRAINTS; k++) w->constraint[k] = NULL;
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
    if (w->model && model_bone_of(r, b)) bad = 1;
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
  if (w->model && model_skeleton_scale_of(r, &def.scale_x, &def.scale_y)) bad = 1;
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
      if (status == IK2D_OK) {
        /* the children at its tip move with it (their translation) */
        int c;
        w->length_edit = i;
        for (c = i + 1; c < sk->count; c++)
          if (sk->parent[c] == i && sk->at_tip[c]) w->may_reshape[c] = 1;
      }
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
    whole_solve_may(w);
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

/* ------------------------------------------------------------------ */
/* model mode: whole local poses, the skeleton's scale, transform        */
/* constraints and the order                                            */
/* ------------------------------------------------------------------ */

/* The status ik2d_bone_local's check gives l (its fields' order). */
static ik2d_status local_status(const ik2d_bone_local *l) {
  return !isfinite(l->x)               ? IK2D_ERR_ORIGIN_X
         : !isfinite(l->y)             ? IK2D_ERR_ORIGIN_Y
         : !isfinite(l->angle)         ? IK2D_ERR_POSE
         : !scale_good(l->scale_x)     ? IK2D_ERR_SCALE_X
         : !scale_good(l->scale_y)     ? IK2D_ERR_SCALE_Y
         : !isfinite(l->shear_x)       ? IK2D_ERR_SHEAR_X
         : !isfinite(l->shear_y)       ? IK2D_ERR_SHEAR_Y
                                       : IK2D_OK;
}

/* A bone's whole local pose (some parts changed, some hostile): the
** documented status; refused, nothing changes; kept, it reads back bit
** for bit as pose and result. */
static void model_pose(sk_world *w, reader *r) {
  static double before[SK_DOUBLES];
  ik2d_skeleton *sk = w->sk;
  int i = (int)(byte_of(r) % (unsigned)(sk->count + 2)) - 1, good_index = i >= 0 && i < sk->count;
  unsigned bits = byte_of(r);
  ik2d_bone_local l = ik2d_default_bone_local(), got;
  size_t size = ik2d_skeleton_size(sk->count);
  ik2d_status status, want;
  if (good_index) ik2d_skeleton_pose_local(sk, i, &l);
  l.angle = bits & 1 ? angle_of(r) : l.angle + 0.5 * unit_of(r) - 0.25;
  if (bits & 2) {
    l.x = byte_of(r) % 4 ? -50.0 + 100.0 * unit_of(r) : coordinate_of(r);
    l.y = byte_of(r) % 4 ? -50.0 + 100.0 * unit_of(r) : coordinate_of(r);
  }
  if (bits & 4) l.scale_x = model_scale_of(r);
  if (bits & 8) l.scale_y = bits & 16 ? l.scale_x : model_scale_of(r);
  if (bits & 32) l.shear_x = model_shear_of(r);
  if (bits & 64) l.shear_y = model_shear_of(r);
  if (bits & 128) l.x = raw_of(r);
  want = good_index ? local_status(&l) : IK2D_ERR_INDEX;
  memcpy(before, sk, size);
  status = ik2d_skeleton_set_pose_local(sk, i, &l);
  SK_REQUIRE(status == want, "set_pose_local status", i, status, want);
  if (status != IK2D_OK) {
    SK_REQUIRE(memcmp(before, sk, size) == 0, "a refused set_pose_local changed the skeleton", i,
               status, 0);
    return;
  }
  w->may_reshape[i] = w->may_rescale[i] = 1;
  SK_REQUIRE(ik2d_skeleton_pose_local(sk, i, &got) == IK2D_OK && memcmp(&got, &l, sizeof l) == 0,
             "a pose set does not read back", i, got.scale_x, l.scale_x);
  SK_REQUIRE(ik2d_skeleton_result_local(sk, i, &got) == IK2D_OK && memcmp(&got, &l, sizeof l) == 0,
             "a pose set is not the result", i, got.scale_x, l.scale_x);
}

/* The skeleton's scale: refused (SCALE_X, SCALE_Y) changing nothing, or
** kept and read back. */
static void model_scale(sk_world *w, reader *r) {
  static double before[SK_DOUBLES];
  ik2d_skeleton *sk = w->sk;
  size_t size = ik2d_skeleton_size(sk->count);
  double sx, sy, gx, gy;
  ik2d_status status, want;
  model_skeleton_scale_of(r, &sx, &sy);
  want = !scale_good(sx) ? IK2D_ERR_SCALE_X : !scale_good(sy) ? IK2D_ERR_SCALE_Y : IK2D_OK;
  memcpy(before, sk, size);
  status = ik2d_skeleton_set_scale(sk, sx, sy);
  SK_REQUIRE(status == want, "set_scale status", -1, sx, sy);
  if (status != IK2D_OK) {
    SK_REQUIRE(memcmp(before, sk, size) == 0, "a refused set_scale changed the skeleton", -1, sx, sy);
    return;
  }
  ik2d_skeleton_scale(sk, &gx, &gy);
  SK_REQUIRE(memcmp(&gx, &sx, sizeof sx) == 0 && memcmp(&gy, &sy, sizeof sy) == 0,
             "the skeleton's scale does not read back", -1, gx, gy);
}

/* The status ik2d_transform_constraint_init or _set_def gives def (its
** fields' order, the rule after the bones). */
static ik2d_status constraint_status(const ik2d_skeleton *sk, const ik2d_transform_constraint_def *d) {
  const double mixes[12] = {d->mix_rotate, d->mix_x, d->mix_y, d->mix_scale_x, d->mix_scale_y,
                            d->mix_shear_y, d->offset_rotation, d->offset_x, d->offset_y,
                            d->offset_scale_x, d->offset_scale_y, d->offset_shear_y};
  int i, j;
  if (d->bone_count < 1 || d->bone_count > IK2D_MAX_SKELETON_BONES) return IK2D_ERR_CONSTRAINT_BONES;
  if (d->target < 0 || d->target >= sk->count) return IK2D_ERR_CONSTRAINT_BONE;
  for (i = 0; i < d->bone_count; i++) {
    if (d->bones[i] < 0 || d->bones[i] >= sk->count) return IK2D_ERR_CONSTRAINT_BONE;
    for (j = 0; j < i; j++)
      if (d->bones[j] == d->bones[i]) return IK2D_ERR_CONSTRAINT_TWICE;
    if (d->bones[i] == d->target) return IK2D_ERR_CONSTRAINT_TARGET;
  }
  for (i = 0; i < 12; i++)
    if (!isfinite(mixes[i])) return i < 6 ? IK2D_ERR_MIX : IK2D_ERR_OFFSET;
  return IK2D_OK;
}

/* A constraint's settings from the bytes: count bones (now and then a bad
** one), a target, mixes and offsets, local and relative. */
static void model_constraint_def(reader *r, const ik2d_skeleton *sk, int count, int *bones,
                                 ik2d_transform_constraint_def *d) {
  unsigned n = (unsigned)sk->count, flags = byte_of(r);
  int i;
  d->bone_count = count;
  d->bones = bones;
  for (i = 0; i < count && i < SK_CONSTRAINT_BONES; i++)
    bones[i] = (int)(byte_of(r) % (n + (flags & 1 ? 2u : 0u))) - (flags & 1 ? 1 : 0);
  d->target = (int)(byte_of(r) % (n + (flags & 2 ? 2u : 0u))) - (flags & 2 ? 1 : 0);
  d->mix_rotate = model_mix_of(r);
  d->mix_x = model_mix_of(r);
  d->mix_y = model_mix_of(r);
  d->mix_scale_x = model_mix_of(r);
  d->mix_scale_y = model_mix_of(r);
  d->mix_shear_y = model_mix_of(r);
  d->offset_rotation = model_offset_of(r);
  d->offset_x = model_offset_of(r);
  d->offset_y = model_offset_of(r);
  d->offset_scale_x = model_offset_of(r);
  d->offset_scale_y = model_offset_of(r);
  d->offset_shear_y = model_offset_of(r);
  d->local_space = (flags & 4) != 0;
  d->relative = (flags & 8) != 0;
}

/* Two constraint defs hold the same settings, bit for bit. */
static int same_def(const ik2d_transform_constraint_def *a, const ik2d_transform_constraint_def *b) {
  ik2d_transform_constraint_def x = *a, y = *b;
  if (x.bone_count != y.bone_count) return 0;
  if (memcmp(x.bones, y.bones, (size_t)x.bone_count * sizeof(int)) != 0) return 0;
  x.bones = y.bones = NULL;
  return memcmp(&x.mix_rotate, &y.mix_rotate, 12 * sizeof(double)) == 0 &&
         x.target == y.target && x.local_space == y.local_space && x.relative == y.relative;
}

/* A transform constraint made in a free slot: the documented status;
** refused, the skeleton as it was; made, it reads back and is the last of
** the skeleton's. */
static void model_make(sk_world *w, reader *r) {
  static double before[SK_DOUBLES];
  ik2d_skeleton *sk = w->sk;
  ik2d_transform_constraint_def d = ik2d_default_transform_constraint_def(), got;
  ik2d_transform_constraint *tc, *list[IK2D_MAX_SKELETON_SOLVERS];
  int bones[SK_CONSTRAINT_BONES], k, count = 1 + (int)(byte_of(r) % SK_CONSTRAINT_BONES), n;
  size_t size = ik2d_skeleton_size(sk->count);
  ik2d_status status, want;
  for (k = 0; k < SK_CONSTRAINTS && w->constraint[k] != NULL; k++) continue;
  if (k == SK_CONSTRAINTS) return;
  tc = (ik2d_transform_constraint *)(void *)w->constraint_memory[k];
  model_constraint_def(r, sk, count, bones, &d);
  if (byte_of(r) % 16 == 0) d.bone_count = byte_of(r) & 1 ? 0 : IK2D_MAX_SKELETON_BONES + 1;
  want = constraint_status(sk, &d);
  memcpy(before, sk, size);
  status = ik2d_transform_constraint_init(tc, sizeof w->constraint_memory[k], sk, &d);
  SK_REQUIRE(status == want, "transform constraint status", k, status, want);
  if (status != IK2D_OK) {
    SK_REQUIRE(memcmp(before, sk, size) == 0, "a refused constraint changed the skeleton", k,
               status, 0);
    return;
  }
  w->constraint[k] = tc;
  got = ik2d_transform_constraint_get_def(tc);
  SK_REQUIRE(same_def(&got, &d) && got.bones != d.bones && ik2d_transform_constraint_skeleton(tc) == sk,
             "a constraint's settings do not read back", k, got.mix_x, d.mix_x);
  n = ik2d_skeleton_transform_constraints(sk, list, IK2D_MAX_SKELETON_SOLVERS);
  SK_REQUIRE(n > 0 && list[n - 1] == tc, "a constraint made is not the skeleton's last", k, n, 0);
}

/* A live constraint (its slot from the bytes), or NULL. */
static ik2d_transform_constraint *model_pick(sk_world *w, reader *r) {
  return w->constraint[byte_of(r) % SK_CONSTRAINTS];
}

/* A constraint's settings changed at once (ik2d_transform_constraint_
** set_def): the documented status (another count of bones refused);
** refused, the constraint and skeleton as they were. */
static void model_edit(sk_world *w, reader *r) {
  static double before[SK_DOUBLES], tc_before[SK_CONSTRAINT_DOUBLES];
  ik2d_skeleton *sk = w->sk;
  ik2d_transform_constraint *tc = model_pick(w, r);
  ik2d_transform_constraint_def d = ik2d_default_transform_constraint_def(), got;
  int bones[SK_CONSTRAINT_BONES];
  size_t size = ik2d_skeleton_size(sk->count);
  ik2d_status status, want;
  if (tc == NULL) return;
  got = ik2d_transform_constraint_get_def(tc);
  model_constraint_def(r, sk, got.bone_count, bones, &d);
  if (byte_of(r) % 8 == 0) d.bone_count = got.bone_count % SK_CONSTRAINT_BONES + 1;
  want = d.bone_count != got.bone_count ? IK2D_ERR_CONSTRAINT_BONES : constraint_status(sk, &d);
  memcpy(before, sk, size);
  memcpy(tc_before, tc, sizeof tc_before);
  status = ik2d_transform_constraint_set_def(tc, &d);
  SK_REQUIRE(status == want, "set_def status", -1, status, want);
  if (status != IK2D_OK) {
    SK_REQUIRE(memcmp(before, sk, size) == 0 && memcmp(tc_before, tc, sizeof tc_before) == 0,
               "a refused set_def changed something", -1, status, 0);
    return;
  }
  got = ik2d_transform_constraint_get_def(tc);
  SK_REQUIRE(same_def(&got, &d), "set_def does not read back", -1, got.mix_x, d.mix_x);
}

/* A constraint released: it leaves the skeleton's list and order (a
** second release, and one of NULL, do nothing). */
static void model_release(sk_world *w, reader *r) {
  ik2d_transform_constraint *list[IK2D_MAX_SKELETON_SOLVERS];
  unsigned k = byte_of(r) % SK_CONSTRAINTS;
  ik2d_transform_constraint *tc = w->constraint[k];
  int n, i;
  ik2d_transform_constraint_release(NULL);
  if (tc == NULL) return;
  ik2d_transform_constraint_release(tc);
  ik2d_transform_constraint_release(tc);
  w->constraint[k] = NULL;
  SK_REQUIRE(ik2d_transform_constraint_skeleton(tc) == NULL, "a released constraint has a skeleton",
             (int)k, 0, 0);
  n = ik2d_skeleton_transform_constraints(w->sk, list, IK2D_MAX_SKELETON_SOLVERS);
  for (i = 0; i < n; i++)
    SK_REQUIRE(list[i] != tc, "a released constraint is still the skeleton's", (int)k, i, n);
}

/* Is step one of the skeleton's: a live solver of its chains or a live
** constraint of its, not both? */
static int step_good(const sk_world *w, const ik2d_step *step) {
  int k, found = 0;
  if ((step->solver == NULL) == (step->constraint == NULL)) return 0;
  for (k = 0; k < w->chains; k++) found += step->solver != NULL && w->solver[k] == step->solver;
  for (k = 0; k < SK_CONSTRAINTS; k++)
    found += step->constraint != NULL && w->constraint[k] == step->constraint;
  return found == 1;
}

/* A step for an order: a solver or a constraint (live, or released), the
** other skeleton's solver, both, neither; *good whether it is one of the
** skeleton's. */
static ik2d_step model_step(sk_world *w, reader *r, int *good) {
  ik2d_step step = {NULL, NULL};
  unsigned k = byte_of(r), slot = (k >> 3) % SK_CHAINS;
  switch (k % 8) {
    case 0: case 1: case 2:
      step.solver = (ik2d_solver *)(void *)w->solver_memory[slot];
      break;
    case 3: case 4: case 5:
      step.constraint = (ik2d_transform_constraint *)(void *)w->constraint_memory[slot % SK_CONSTRAINTS];
      break;
    case 6:
      step.solver = w->other_solver;
      if (k & 64) step.constraint = w->constraint[slot % SK_CONSTRAINTS];
      break;
    default: break;
  }
  *good = step_good(w, &step);
  return step;
}

/* The order set: the documented status (ORDER_STEP, ORDER_TWICE, the bad
** step's index); refused, nothing changes; kept, it reads back. */
static void model_order(sk_world *w, reader *r) {
  static double before[SK_DOUBLES];
  ik2d_step steps[8], got[8];
  ik2d_skeleton *sk = w->sk;
  unsigned bits = byte_of(r);
  int count = (int)(bits % 8), k, j, good, bad = -1, wrote = -1;
  size_t size = ik2d_skeleton_size(sk->count);
  ik2d_status status, want = IK2D_OK;
  for (k = 0; k < count; k++) {
    steps[k] = model_step(w, r, &good);
    for (j = 0; j < k && good; j++)
      if (steps[j].solver == steps[k].solver && steps[j].constraint == steps[k].constraint) good = -1;
    if (want == IK2D_OK && good != 1) {
      want = good == 0 ? IK2D_ERR_ORDER_STEP : IK2D_ERR_ORDER_TWICE;
      bad = k;
    }
  }
  memcpy(before, sk, size);
  status = ik2d_skeleton_set_order(sk, steps, count, &wrote);
  SK_REQUIRE(status == want && (status == IK2D_OK || wrote == bad), "set_order status", bad, status,
             wrote);
  if (status != IK2D_OK) {
    SK_REQUIRE(memcmp(before, sk, size) == 0, "a refused set_order changed the skeleton", bad, 0, 0);
    return;
  }
  SK_REQUIRE(ik2d_skeleton_order(sk, got, 8) == count && memcmp(got, steps, (size_t)count * sizeof *got) == 0,
             "the order does not read back", count, 0, 0);
  if (bits & 8) {
    /* and the refusals the bytes cannot make */
    SK_REQUIRE(ik2d_skeleton_set_order(sk, NULL, 1, NULL) == IK2D_ERR_NULL &&
                   ik2d_skeleton_set_order(sk, steps, -1, NULL) == IK2D_ERR_ORDER_STEP &&
                   ik2d_skeleton_set_order(sk, steps, 2 * IK2D_MAX_SKELETON_SOLVERS + 1, NULL) ==
                       IK2D_ERR_ORDER_STEP,
               "set_order's NULL and count", count, 0, 0);
    SK_REQUIRE(ik2d_skeleton_order(sk, got, 8) == count, "a refused order changed it", count, 0, 0);
  }
}

/* A constraint applied now: its bones may change, the rest stays. */
static void model_apply(sk_world *w, reader *r) {
  ik2d_transform_constraint *tc = model_pick(w, r);
  ik2d_transform_constraint_apply(NULL);
  if (tc == NULL) return;
  constraint_may_reshape(w, tc);
  ik2d_transform_constraint_apply(tc);
}

/* The reads: every bone's matrix the one ik2d_skeleton_matrices makes;
** the set-up, pose and result locals what the skeleton holds; bad indices
** refused. */
static void model_reads(sk_world *w) {
  ik2d_skeleton *sk = w->sk;
  const double *all = ik2d_skeleton_matrices(sk);
  ik2d_bone_local l;
  double m[6];
  int i;
  for (i = 0; i < sk->count; i++) {
    SK_REQUIRE(ik2d_skeleton_matrix(sk, i, m) == IK2D_OK && memcmp(m, &all[6 * i], sizeof m) == 0,
               "ik2d_skeleton_matrix and ik2d_skeleton_matrices disagree", i, m[0], all[6 * i]);
    ik2d_skeleton_setup_local(sk, i, &l);
    SK_REQUIRE(memcmp(&l.angle, &sk->rest[i], sizeof(double)) == 0 &&
                   memcmp(&l.scale_x, &sk->setup[i].scale_x, sizeof(double)) == 0,
               "the set-up does not read back", i, l.angle, sk->rest[i]);
  }
  SK_REQUIRE(ik2d_skeleton_matrix(sk, sk->count, m) == IK2D_ERR_INDEX &&
                 ik2d_skeleton_pose_local(sk, -1, &l) == IK2D_ERR_INDEX &&
                 ik2d_skeleton_result_local(sk, 0, NULL) == IK2D_ERR_NULL &&
                 ik2d_skeleton_matrices(NULL) == NULL,
             "reads of bad bones", -1, 0, 0);
}

/* Model mode's action after each operation (one byte more). */
static void model_act(sk_world *w, reader *r) {
  unsigned q = byte_of(r);
  op_begin(w);
  switch (q % 10) {
    case 0: case 1: model_pose(w, r); break;
    case 2: model_scale(w, r); break;
    case 3: model_make(w, r); break;
    case 4: model_edit(w, r); break;
    case 5: model_release(w, r); break;
    case 6: case 7: model_order(w, r); break;
    case 8: model_apply(w, r); break;
    default: model_reads(w); break;
  }
  check_skeleton(w);
  check_shapes(w);
  check_order(w);
  check_targets(w);
}

/* One operation on a world. */
static void sk_op(sk_world *w, reader *r) {
  unsigned op = byte_of(r);
  int k, solved = -2;
  op_begin(w);
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
        solver_may_reshape(w, w->solver[k]);
        ik2d_solver_solve(w->solver[k]);
        solved = k;
      }
      break;
    case 4: case 5: sk_target(w, r); break;
    case 6: case 7: sk_edit(w, r); break;
    case 8: sk_set_limits(w, r); break;
    case 9: sk_settings(w, r); break;
    case 10:
      /* every bone back to its set-up */
      memset(w->may_reshape, 1, sizeof w->may_reshape);
      memset(w->may_rescale, 1, sizeof w->may_rescale);
      ik2d_skeleton_reset(w->sk);
      break;
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
  check_shapes(w);
  check_order(w);
  if (solved > -2) check_results(w, solved);
  check_targets(w);
  if (w->bone_mode) {
    bone_act(w, r, op / 12);
    check_targets(w);
  }
  if (w->model) model_act(w, r);
}

/* The two worlds, which read the same bytes, hold the same bits. */
static void same_worlds(const sk_world *a, const sk_world *b) {
  int k;
  SK_REQUIRE(memcmp(a->sk->transforms, b->sk->transforms, 5 * a->sk->count * sizeof(double)) == 0 &&
                 memcmp(a->sk->angle, b->sk->angle, a->sk->count * sizeof(double)) == 0 &&
                 memcmp(a->sk->shape, b->sk->shape, a->sk->count * sizeof(ik2d_bone_shape)) == 0 &&
                 (!a->sk->general ||
                  memcmp(a->sk->world, b->sk->world, a->sk->count * sizeof(ik2d_affine)) == 0),
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
  for (k = 0; k < SK_CONSTRAINTS; k++)
    if (w->constraint[k] != NULL) ik2d_transform_constraint_release(w->constraint[k]);
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
