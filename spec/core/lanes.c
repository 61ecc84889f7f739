/*
** lanes.c: a batch gives every solver the bits ik2d_solver_solve gives
** it, on every instruction set this machine runs (scalar, SSE2, AVX2,
** AVX-512), whatever the mix of chains in the batch.
**
** Two copies of a few hundred chains and solvers (1 to 12 bones and 64,
** limits of every kind, damping, both sweeps, the exact step on and off,
** warm and cold starts, flips, weights 0 to 1, other methods between)
** follow the same targets (tracking, jumps, out of reach, on the base)
** for 40 frames: one copy solved one by one, the other in batches of
** mixed order; every angle, joint, scale and outcome must match bit for
** bit.  The batch of each set is also checked against the one-by-one
** solve of a third copy when the set is not supported (it must fall back
** to one that is).
*/
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ik2d.h"

#define CHAINS 300
#define FRAMES 40
#define PI 3.14159265358979323846

static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static double rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}

static double rnd_in(double lo, double hi) { return lo + (hi - lo) * rnd(); }
static int rnd_int(int n) { return (int)(rnd() * n); }

typedef struct copy {
  ik2d_chain *chain[CHAINS];
  ik2d_solver *solver[CHAINS];
} copy;

static ik2d_constraint *limits[CHAINS * 64];
static int limit_count;

static ik2d_constraint *new_limit(double min, double max, bool invert) {
  ik2d_constraint_def def = ik2d_default_constraint_def();
  ik2d_constraint *c = malloc(ik2d_constraint_size());
  def.min = min;
  def.max = max;
  def.invert = invert;
  if (c == NULL || ik2d_constraint_init(c, ik2d_constraint_size(), &def) != IK2D_OK) abort();
  limits[limit_count++] = c;
  return c;
}

/* the recipe of chain k, drawn once and built in every copy */
typedef struct recipe {
  int n;
  ik2d_bone_def bones[64];
  ik2d_solver_def settings;
  double x, y, angle, reach;
  bool flip;
} recipe;

static recipe recipes[CHAINS];

static void draw(recipe *r) {
  static const int counts[] = {1, 2, 2, 3, 3, 3, 4, 5, 7, 10, 12, 64};
  int i;
  r->n = counts[rnd_int(12)];
  r->reach = 0.0;
  for (i = 0; i < r->n; i++) {
    double a = rnd_in(-PI, PI), b = rnd_in(0.0, 2.5);
    r->bones[i].length = rnd_int(3) == 0 ? 1.0 : rnd_in(0.2, 3.0);
    r->bones[i].rest = rnd_int(2) == 0 ? 0.0 : rnd_in(-1.0, 1.0);
    r->bones[i].constraint = NULL;
    switch (rnd_int(8)) {
      case 0: r->bones[i].constraint = new_limit(a - b, a + b, false); break;
      case 1: r->bones[i].constraint = new_limit(a - b, a + b, true); break;
      case 2: r->bones[i].constraint = new_limit(a, a, false); break;
      case 3: r->bones[i].constraint = new_limit(-4.0, 4.0, false); break;
      case 4: r->bones[i].constraint = new_limit(0.0, 2.4, false); break;
      default: break;
    }
    r->reach += r->bones[i].length;
  }
  r->settings = ik2d_default_solver_def();
  r->settings.iterations = 1 + rnd_int(20);
  r->settings.tolerance = rnd_int(5) == 0 ? 0.0 : rnd_in(1e-4, 0.05);
  r->settings.weight = rnd_int(5) == 0 ? rnd() : 1.0;
  r->settings.ccd.damping = rnd_int(4) == 0 ? rnd_in(0.01, 0.5) : 0.0;
  r->settings.warm_start = rnd_int(5) != 0;
  r->settings.ccd.exact = rnd_int(3) != 0;
  r->settings.ccd.sweep = rnd_int(3) == 0 ? IK2D_SWEEP_TIP : IK2D_SWEEP_ROOT;
  if (rnd_int(8) == 0) r->settings.method = IK2D_FABRIK;
  r->x = rnd_in(-50, 50);
  r->y = rnd_in(-50, 50);
  r->angle = rnd_in(-PI, PI);
  r->flip = rnd_int(4) == 0;
}

static void build(copy *c) {
  int k;
  for (k = 0; k < CHAINS; k++) {
    const recipe *r = &recipes[k];
    ik2d_chain_def def = ik2d_default_chain_def();
    size_t cs = ik2d_chain_size(r->n), ss = ik2d_solver_size(r->n);
    def.bone_count = r->n;
    def.bones = r->bones;
    def.x = r->x;
    def.y = r->y;
    def.angle = r->angle;
    def.flip = r->flip;
    c->chain[k] = malloc(cs);
    c->solver[k] = malloc(ss);
    if (c->chain[k] == NULL || c->solver[k] == NULL ||
        ik2d_chain_init(c->chain[k], cs, &def) != IK2D_OK ||
        ik2d_solver_init(c->solver[k], ss, c->chain[k], &r->settings) != IK2D_OK)
      abort();
  }
}

static int same(const copy *a, const copy *b, int k) {
  const ik2d_chain *ca = a->chain[k], *cb = b->chain[k];
  const ik2d_result *ra = ik2d_solver_result(a->solver[k]);
  const ik2d_result *rb = ik2d_solver_result(b->solver[k]);
  int n = ik2d_chain_bone_count(ca);
  double sa = ik2d_chain_scale(ca), sb = ik2d_chain_scale(cb);
  return memcmp(ik2d_chain_angles(ca), ik2d_chain_angles(cb), n * sizeof(double)) == 0 &&
         memcmp(ik2d_chain_joints(ca), ik2d_chain_joints(cb), 2 * (n + 1) * sizeof(double)) == 0 &&
         memcmp(&sa, &sb, sizeof sa) == 0 && ra->reached == rb->reached &&
         ra->iterations == rb->iterations && ra->limited == rb->limited &&
         memcmp(&ra->distance, &rb->distance, sizeof(double)) == 0;
}

int main(void) {
  static copy one, batched;
  static ik2d_solver *list[CHAINS];
  static int order[CHAINS];
  int isa, failures = 0;
  for (isa = IK2D_ISA_SCALAR; isa <= IK2D_ISA_AVX512; isa++) {
    int k, frame, differ = 0;
    rng_state = 0x2545f4914f6cdd1dULL + (uint64_t)isa;
    limit_count = 0;
    for (k = 0; k < CHAINS; k++) draw(&recipes[k]);
    build(&one);
    build(&batched);
    for (frame = 0; frame < FRAMES; frame++) {
      for (k = 0; k < CHAINS; k++) {
        const recipe *r = &recipes[k];
        const double *j = ik2d_chain_joints(one.chain[k]);
        double a = rnd_in(-PI, PI), d, x, y;
        switch (frame < 15 ? 0 : rnd_int(5)) {
          case 0: a = 0.05 * frame + k; d = r->reach * (0.5 + 0.3 * sin(0.07 * frame)); break;
          case 1: d = r->reach * rnd(); break;
          case 2: d = r->reach * rnd_in(1.01, 3.0); break;
          case 3: d = 0.0; break;
          default: d = r->reach * rnd_in(0.95, 1.0); break;
        }
        x = j[0] + d * cos(a);
        y = j[1] + d * sin(a);
        ik2d_solver_set_target(one.solver[k], x, y);
        ik2d_solver_set_target(batched.solver[k], x, y);
        if (rnd_int(25) == 0) {
          ik2d_solver_forget(one.solver[k]);
          ik2d_solver_forget(batched.solver[k]);
        }
        order[k] = k;
      }
      /* a batch in a shuffled order: results must not depend on it */
      for (k = CHAINS - 1; k > 0; k--) {
        int other = rnd_int(k + 1), t = order[k];
        order[k] = order[other];
        order[other] = t;
      }
      for (k = 0; k < CHAINS; k++) ik2d_solver_solve(one.solver[k]);
      for (k = 0; k < CHAINS; k++) list[k] = batched.solver[order[k]];
      ik2d_solvers_solve_isa(list, CHAINS, (ik2d_isa)isa);
      for (k = 0; k < CHAINS; k++) {
        if (!same(&one, &batched, k)) {
          if (differ < 5)
            fprintf(stderr, "%s: frame %d chain %d (%d bones) differs\n",
                    ik2d_isa_name((ik2d_isa)isa), frame, k, recipes[k].n);
          differ++;
        }
      }
    }
    printf("%s %s: %d chains x %d frames batched give the bits of one by one%s (%d differ)\n",
           differ == 0 ? "ok" : "not ok", ik2d_isa_name((ik2d_isa)isa), CHAINS, FRAMES,
           ik2d_isa_supported((ik2d_isa)isa) ? "" : " (not supported here: fell back)",
           differ);
    failures += differ != 0;
    for (k = 0; k < CHAINS; k++) {
      free(one.chain[k]);
      free(one.solver[k]);
      free(batched.chain[k]);
      free(batched.solver[k]);
    }
    for (k = 0; k < limit_count; k++) free(limits[k]);
  }
  return failures != 0;
}
