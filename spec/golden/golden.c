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
**   skeleton <hash>  skeletons (ik2d_skeleton_*): trees of 1..100 bones
**                    (pivots, origins off the tips, bones keeping the
**                    base's direction, parent-space limits), chains over
**                    their paths with solvers of every method and option,
**                    sharing bones (solved together, weighed by priority,
**                    or after the others with together = false), hanging
**                    below each other or apart; a body whose two arms
**                    share a spine; groups of 24 effectors and of 86
**                    bones; 24 frames each of targets circling, jumping,
**                    out of reach and from random poses, with base, flip,
**                    pose, length, rest, limit and weight edits between,
**                    each solved by ik2d_skeleton_solve: every bone's
**                    angle and transform, every chain's joints and every
**                    solver's reached, limited, iterations and distance
**   springs <hash>   springs that feel the body: bases that run, stop,
**                    bob and turn, wind, per-bone stiffness, damping and
**                    mass, circles and segments in the way, limits,
**                    flips, frames of 1/144 s to inf (backward Euler,
**                    solved again about contacts) and pose edits: every
**                    joint and bone velocity after every update
**   aim     <hash>   aimed solvers (a ray fixed to the last bone through
**                    the target): chains of 1..64 bones, every method
**                    that aims, every kind of limit, world-space ones,
**                    poles, damping, weights and flips, targets tracked,
**                    jumping, far, near the last joint and on the base,
**                    one by one and in batches among plain solvers; and
**                    aimed solvers on skeletons sharing bones with others
**   bones   <hash>   the bone model: bones scaled (reflected too) and
**                    sheared, inheriting in each of the five ways, under
**                    skeleton scales (1, 1), (1, -1), (-1, 1) and others;
**                    one- and two-bone IK (bend, softness, stretch,
**                    compress, uniform, weight) on scaled, sheared and
**                    reflected parents, longer chains among them; transform
**                    constraints (world and local, absolute and relative,
**                    every mix and offset) in an order with the solvers;
**                    whole local poses animated between frames; each
**                    solved by ik2d_skeleton_solve and by
**                    ik2d_skeletons_solve in turn: every bone's matrix,
**                    result local transform and transform, every chain's
**                    joints, every solver's outcome
**   total   <hash>   all seven
** spec/golden_spec.lua and spec/golden/platforms.sh compare each part
** with its value recorded in spec/golden/expected.
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
/* the core's own sin, cos and hypot: inputs with the same bits
** everywhere; and the core's floating-point rules (ik2d_fp.h), so the
** inputs this program computes stay the same whatever the build's flags
** (the golden spec and make test-platforms build it with flags that
** fuse a * b + c where they can): only the core is under test */
#include "ik2d_math.h"

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
  def.ccd.damping = o->damping;
  def.two_bone.bend = o->bend;
  def.two_bone.softness = o->softness;
  def.two_bone.stretch = o->stretch;
  def.warm_start = o->warm_start != 0;
  def.ccd.exact = o->exact != 0;
  def.ccd.sweep = o->sweep_tip ? IK2D_SWEEP_TIP : IK2D_SWEEP_ROOT;
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

static void g_solver_aim(g_solver *s, double x, double y, double angle) {
  g_check(ik2d_solver_set_aim(s->solver, x, y, angle));
}

static int g_solve(g_solver *s) { return ik2d_solver_solve(s->solver); }

static int g_solve_batch(g_solver **s, int count) {
  ik2d_solver *list[256];
  int i;
  for (i = 0; i < count; i++) list[i] = s[i]->solver;
  return ik2d_solvers_solve(list, count);
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

/* skeletons: a tree of bones, chains over its paths and solvers on
** them, all solved by the skeleton */
#define G_MAX_SKELETON_BONES 128
#define G_MAX_SKELETON_CHAINS 32

typedef struct g_bone {
  int parent;          /* an earlier bone or -1 */
  double length, rest; /* length 0: a pivot */
  int at_tip;          /* else the origin (x, y) in the parent's space */
  double x, y;
  int position_only;   /* inherits its parent's position only */
  int limited;         /* parent-space limits [min, max] from the rest */
  double min, max;
  int invert;
} g_bone;

typedef struct g_skeleton {
  ik2d_skeleton *skeleton;
  ik2d_constraint *limits[G_MAX_SKELETON_BONES];
  int chain_count;
  ik2d_chain *chains[G_MAX_SKELETON_CHAINS];
  ik2d_solver *solvers[G_MAX_SKELETON_CHAINS];
} g_skeleton;

typedef struct g_skeleton_options {
  g_options solve;     /* stretch stays 1: a skeleton's bones keep their length */
  double priority;
  int together;
  int tip;             /* orient the last bone along tip_angle */
  double tip_angle, tip_weight;
  int pole;            /* bend toward (pole_x, pole_y) */
  double pole_x, pole_y;
} g_skeleton_options;

/* a new skeleton in s, whose last one (its chains, solvers and limits)
** is released and freed first */
static void g_skeleton_init(g_skeleton *s, int n, const g_bone *bones, double x,
                            double y, double angle, int flip) {
  ik2d_skeleton_bone_def defs[G_MAX_SKELETON_BONES];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  size_t size = ik2d_skeleton_size(n);
  int i;
  if (s->skeleton != NULL) ik2d_skeleton_release(s->skeleton);
  for (i = 0; i < s->chain_count; i++) {
    free(s->solvers[i]);
    free(s->chains[i]);
    s->solvers[i] = NULL;
    s->chains[i] = NULL;
  }
  s->chain_count = 0;
  for (i = 0; i < G_MAX_SKELETON_BONES; i++) {
    free(s->limits[i]);
    s->limits[i] = NULL;
  }
  for (i = 0; i < n; i++) {
    defs[i] = ik2d_default_skeleton_bone_def();
    defs[i].parent = bones[i].parent;
    defs[i].length = bones[i].length;
    defs[i].rest = bones[i].rest;
    defs[i].at_tip = bones[i].at_tip != 0;
    defs[i].x = bones[i].x;
    defs[i].y = bones[i].y;
    defs[i].inherit = bones[i].position_only ? IK2D_INHERIT_POSITION : IK2D_INHERIT_ALL;
    if (bones[i].limited) {
      ik2d_constraint_def limit = ik2d_default_constraint_def();
      limit.min = bones[i].min;
      limit.max = bones[i].max;
      limit.invert = bones[i].invert != 0;
      s->limits[i] = malloc(ik2d_constraint_size());
      g_check(ik2d_constraint_init(s->limits[i], ik2d_constraint_size(), &limit));
      defs[i].constraint = s->limits[i];
    }
  }
  def.bone_count = n;
  def.bones = defs;
  def.x = x;
  def.y = y;
  def.angle = angle;
  def.flip = flip != 0;
  free(s->skeleton);
  s->skeleton = malloc(size);
  g_check(ik2d_skeleton_init(s->skeleton, size, &def, NULL));
}

/* the chain over the path from .. to: its index */
static int g_skeleton_chain(g_skeleton *s, int from, int to) {
  int count, k = s->chain_count;
  size_t size;
  g_check(ik2d_skeleton_path(s->skeleton, from, to, &count, NULL));
  size = ik2d_skeleton_chain_size(count);
  s->chains[k] = malloc(size);
  g_check(ik2d_skeleton_chain_init(s->chains[k], size, s->skeleton, from, to, NULL));
  s->solvers[k] = NULL;
  s->chain_count++;
  return k;
}

static int g_skeleton_chain_bones(const g_skeleton *s, int k) {
  return ik2d_chain_bone_count(s->chains[k]);
}

/* two_bone runs on chain k: 2 chain bones, neither a pivot */
static int g_skeleton_two_bone_ok(const g_skeleton *s, int k) {
  double a, b;
  if (g_skeleton_chain_bones(s, k) != 2) return 0;
  g_check(ik2d_chain_length(s->chains[k], 0, &a));
  g_check(ik2d_chain_length(s->chains[k], 1, &b));
  return a > 0.0 && b > 0.0;
}

static void g_skeleton_solver(g_skeleton *s, int k, const g_skeleton_options *o) {
  ik2d_solver_def def = ik2d_default_solver_def();
  size_t size = ik2d_solver_size(g_skeleton_chain_bones(s, k));
  def.method = o->solve.method == G_FABRIK ? IK2D_FABRIK
             : o->solve.method == G_TWO_BONE ? IK2D_TWO_BONE
                                             : IK2D_CCD;
  def.iterations = o->solve.iterations;
  def.tolerance = o->solve.tolerance;
  def.weight = o->solve.weight;
  def.ccd.damping = o->solve.damping;
  def.two_bone.bend = o->solve.bend;
  def.two_bone.softness = o->solve.softness;
  def.warm_start = o->solve.warm_start != 0;
  def.ccd.exact = o->solve.exact != 0;
  def.ccd.sweep = o->solve.sweep_tip ? IK2D_SWEEP_TIP : IK2D_SWEEP_ROOT;
  def.effector.priority = o->priority;
  def.effector.together = o->together != 0;
  def.tip.enabled = o->tip != 0;
  def.tip.angle = o->tip_angle;
  def.tip.weight = o->tip_weight;
  def.pole.enabled = o->pole != 0;
  def.pole.x = o->pole_x;
  def.pole.y = o->pole_y;
  s->solvers[k] = malloc(size);
  g_check(ik2d_solver_init(s->solvers[k], size, s->chains[k], &def));
}

static void g_skeleton_base(g_skeleton *s, double x, double y, double angle) {
  g_check(ik2d_skeleton_set_base(s->skeleton, x, y, angle));
}
static void g_skeleton_flip(g_skeleton *s, int flip) {
  g_check(ik2d_skeleton_set_flip(s->skeleton, flip != 0));
}
static void g_skeleton_pose(g_skeleton *s, int i, double angle) {
  g_check(ik2d_skeleton_set_pose(s->skeleton, i, angle));
}
static void g_skeleton_length(g_skeleton *s, int i, double length) {
  g_check(ik2d_skeleton_set_length(s->skeleton, i, length));
}
static void g_skeleton_rest(g_skeleton *s, int i, double angle) {
  g_check(ik2d_skeleton_set_rest(s->skeleton, i, angle));
}
/* bone i shares bone j's limits (none for j = -1 or a free bone j) */
static void g_skeleton_constraint(g_skeleton *s, int i, int j) {
  g_check(ik2d_skeleton_set_constraint(s->skeleton, i, j >= 0 ? s->limits[j] : NULL));
}
static void g_skeleton_target(g_skeleton *s, int k, double x, double y) {
  g_check(ik2d_solver_set_target(s->solvers[k], x, y));
}
static void g_skeleton_weight(g_skeleton *s, int k, double w) {
  g_check(ik2d_solver_set_weight(s->solvers[k], w));
}
static void g_skeleton_priority(g_skeleton *s, int k, double p) {
  g_check(ik2d_solver_set_priority(s->solvers[k], p));
}
static void g_skeleton_forget(g_skeleton *s, int k) { ik2d_solver_forget(s->solvers[k]); }
static void g_skeleton_reset(g_skeleton *s) { ik2d_skeleton_reset(s->skeleton); }
static int g_skeleton_solve(g_skeleton *s) { return ik2d_skeleton_solve(s->skeleton); }

/* outputs */
static int g_skeleton_bone_count(const g_skeleton *s) {
  return ik2d_skeleton_bone_count(s->skeleton);
}
static double g_skeleton_angle(const g_skeleton *s, int i) {
  double a;
  g_check(ik2d_skeleton_angle(s->skeleton, i, &a));
  return a;
}
static double g_skeleton_pose_of(const g_skeleton *s, int i) {
  double a;
  g_check(ik2d_skeleton_pose(s->skeleton, i, &a));
  return a;
}
/* bone i's origin x, y, world angle, tip x, y (0..4) */
static double g_skeleton_transform(const g_skeleton *s, int i, int part) {
  return ik2d_skeleton_transforms(s->skeleton)[5 * i + part];
}
/* the base as it is now: x, y, angle and flip */
static void g_skeleton_base_now(const g_skeleton *s, double *x, double *y, double *angle,
                                int *flip) {
  ik2d_skeleton_base(s->skeleton, x, y, angle);
  *flip = ik2d_skeleton_flip(s->skeleton);
}
static const double *g_skeleton_chain_joints(const g_skeleton *s, int k) {
  return ik2d_chain_joints(s->chains[k]);
}
/* the skeleton bone of chain k's bone i */
static int g_skeleton_chain_bone(const g_skeleton *s, int k, int i) {
  int bone;
  g_check(ik2d_skeleton_chain_bone(s->chains[k], i, &bone));
  return bone;
}
static double g_skeleton_chain_reach(const g_skeleton *s, int k) {
  return ik2d_chain_reach(s->chains[k]);
}
static int g_skeleton_reached(const g_skeleton *s, int k) {
  return ik2d_solver_result(s->solvers[k])->reached;
}
static int g_skeleton_limited(const g_skeleton *s, int k) {
  return ik2d_solver_result(s->solvers[k])->limited;
}
static int g_skeleton_iterations(const g_skeleton *s, int k) {
  return ik2d_solver_result(s->solvers[k])->iterations;
}
static double g_skeleton_distance(const g_skeleton *s, int k) {
  return ik2d_solver_result(s->solvers[k])->distance;
}


/* the bone model: bones scaled, sheared and inheriting in any of the five
** ways under a skeleton scale, transform constraints, an order */
#define G_MODEL_BONES 24
#define G_MODEL_CHAINS 6
#define G_MODEL_CONSTRAINTS 6

typedef struct g_model_bone {
  int parent;          /* an earlier bone or -1 */
  int inherit;         /* 0..4: all, position, no rotation or reflection, no scale, no
                          scale or reflection */
  double length, rest; /* the rest is the set-up rotation */
  double x, y, scale_x, scale_y, shear_x, shear_y;
  int limited;         /* parent-space limits [min, max] about the rest */
  double min, max;
} g_model_bone;

typedef struct g_model {
  ik2d_skeleton *skeleton;
  ik2d_constraint *limits[G_MODEL_BONES];
  int chain_count, constraint_count;
  ik2d_chain *chains[G_MODEL_CHAINS];
  ik2d_solver *solvers[G_MODEL_CHAINS];
  ik2d_transform_constraint *constraints[G_MODEL_CONSTRAINTS];
} g_model;

/* a solver's settings, as Spine's IK constraint has them (and more
** iterations for chains of more bones) */
typedef struct g_model_options {
  int method, bend, uniform, iterations;
  double weight, softness, stretch, compress;
} g_model_options;

/* a transform constraint: mixes and offsets rotate, x, y, scale x, scale
** y, shear y */
typedef struct g_model_constraint {
  int bone_count, bones[4], target, local, relative;
  double mix[6], offset[6];
} g_transform;

/* a bone's local transform: angle, x, y, scale x, scale y, shear x, y */
typedef struct g_local {
  double angle, x, y, scale_x, scale_y, shear_x, shear_y;
} g_local;

static void g_model_free(g_model *m) {
  int i;
  if (m->skeleton != NULL) ik2d_skeleton_release(m->skeleton);
  for (i = 0; i < m->chain_count; i++) {
    free(m->solvers[i]);
    free(m->chains[i]);
  }
  for (i = 0; i < m->constraint_count; i++) free(m->constraints[i]);
  for (i = 0; i < G_MODEL_BONES; i++) {
    free(m->limits[i]);
    m->limits[i] = NULL;
  }
  m->chain_count = m->constraint_count = 0;
  free(m->skeleton);
  m->skeleton = NULL;
}

static void g_model_init(g_model *m, int n, const g_model_bone *bones, double x, double y,
                         double angle, int flip, double sx, double sy) {
  ik2d_skeleton_bone_def defs[G_MODEL_BONES];
  ik2d_skeleton_def def = ik2d_default_skeleton_def();
  size_t size = ik2d_skeleton_size(n);
  int i;
  g_model_free(m);
  for (i = 0; i < n; i++) {
    const g_model_bone *b = &bones[i];
    defs[i] = ik2d_default_skeleton_bone_def();
    defs[i].parent = b->parent;
    defs[i].length = b->length;
    defs[i].rest = b->rest;
    defs[i].at_tip = false;
    defs[i].x = b->x;
    defs[i].y = b->y;
    defs[i].scale_x = b->scale_x;
    defs[i].scale_y = b->scale_y;
    defs[i].shear_x = b->shear_x;
    defs[i].shear_y = b->shear_y;
    defs[i].inherit = (ik2d_inherit)b->inherit;
    if (b->limited) {
      ik2d_constraint_def limit = ik2d_default_constraint_def();
      limit.min = b->min;
      limit.max = b->max;
      m->limits[i] = malloc(ik2d_constraint_size());
      g_check(ik2d_constraint_init(m->limits[i], ik2d_constraint_size(), &limit));
      defs[i].constraint = m->limits[i];
    }
  }
  def.bone_count = n;
  def.bones = defs;
  def.x = x;
  def.y = y;
  def.angle = angle;
  def.flip = flip != 0;
  def.scale_x = sx;
  def.scale_y = sy;
  m->skeleton = malloc(size);
  g_check(ik2d_skeleton_init(m->skeleton, size, &def, NULL));
}

/* a chain over the path from .. to and a solver on it: its index */
static int g_model_chain(g_model *m, int from, int to, const g_model_options *o) {
  ik2d_solver_def def = ik2d_default_solver_def();
  int count, k = m->chain_count;
  size_t size;
  g_check(ik2d_skeleton_path(m->skeleton, from, to, &count, NULL));
  size = ik2d_skeleton_chain_size(count);
  m->chains[k] = malloc(size);
  g_check(ik2d_skeleton_chain_init(m->chains[k], size, m->skeleton, from, to, NULL));
  def.method = o->method == G_TWO_BONE ? IK2D_TWO_BONE : o->method == G_FABRIK ? IK2D_FABRIK
                                                                                 : IK2D_CCD;
  def.iterations = o->iterations;
  def.weight = o->weight;
  def.two_bone.bend = o->bend;
  def.two_bone.softness = o->softness;
  def.two_bone.softness_curve = IK2D_SOFTNESS_SPINE;
  def.two_bone.stretch = o->stretch;
  def.two_bone.compress = o->compress;
  def.two_bone.uniform = o->uniform != 0;
  size = ik2d_solver_size(count);
  m->solvers[k] = malloc(size);
  g_check(ik2d_solver_init(m->solvers[k], size, m->chains[k], &def));
  m->chain_count++;
  return k;
}

static void g_model_constraint(g_model *m, const g_transform *c) {
  ik2d_transform_constraint_def def = ik2d_default_transform_constraint_def();
  size_t size = ik2d_transform_constraint_size(c->bone_count);
  int k = m->constraint_count++;
  def.bone_count = c->bone_count;
  def.bones = c->bones;
  def.target = c->target;
  def.mix_rotate = c->mix[0];
  def.mix_x = c->mix[1];
  def.mix_y = c->mix[2];
  def.mix_scale_x = c->mix[3];
  def.mix_scale_y = c->mix[4];
  def.mix_shear_y = c->mix[5];
  def.offset_rotation = c->offset[0];
  def.offset_x = c->offset[1];
  def.offset_y = c->offset[2];
  def.offset_scale_x = c->offset[3];
  def.offset_scale_y = c->offset[4];
  def.offset_shear_y = c->offset[5];
  def.local_space = c->local != 0;
  def.relative = c->relative != 0;
  m->constraints[k] = malloc(size);
  g_check(ik2d_transform_constraint_init(m->constraints[k], size, m->skeleton, &def));
}

/* the order: step k >= 0 solver k, else constraint -1 - k */
static void g_model_order(g_model *m, const int *steps, int count) {
  ik2d_step list[2 * G_MODEL_CHAINS];
  int i;
  for (i = 0; i < count; i++) {
    list[i].solver = steps[i] >= 0 ? m->solvers[steps[i]] : NULL;
    list[i].constraint = steps[i] < 0 ? m->constraints[-1 - steps[i]] : NULL;
  }
  g_check(ik2d_skeleton_set_order(m->skeleton, list, count, NULL));
}

static void g_model_pose(g_model *m, int i, const g_local *l) {
  ik2d_bone_local local;
  local.angle = l->angle;
  local.x = l->x;
  local.y = l->y;
  local.scale_x = l->scale_x;
  local.scale_y = l->scale_y;
  local.shear_x = l->shear_x;
  local.shear_y = l->shear_y;
  g_check(ik2d_skeleton_set_pose_local(m->skeleton, i, &local));
}

static void g_model_pose_of(const g_model *m, int i, g_local *l) {
  ik2d_bone_local local;
  g_check(ik2d_skeleton_pose_local(m->skeleton, i, &local));
  l->angle = local.angle;
  l->x = local.x;
  l->y = local.y;
  l->scale_x = local.scale_x;
  l->scale_y = local.scale_y;
  l->shear_x = local.shear_x;
  l->shear_y = local.shear_y;
}

static void g_model_scale(g_model *m, double sx, double sy) {
  g_check(ik2d_skeleton_set_scale(m->skeleton, sx, sy));
}
static void g_model_base(g_model *m, double x, double y, double angle) {
  g_check(ik2d_skeleton_set_base(m->skeleton, x, y, angle));
}
static void g_model_flip(g_model *m, int flip) {
  g_check(ik2d_skeleton_set_flip(m->skeleton, flip != 0));
}
static void g_model_target(g_model *m, int k, double x, double y) {
  g_check(ik2d_solver_set_target(m->solvers[k], x, y));
}
static void g_model_reset(g_model *m) { ik2d_skeleton_reset(m->skeleton); }
/* solved alone, or (group) by ik2d_skeletons_solve as one of a list */
static int g_model_solve(g_model *m, int group) {
  int reached = 0;
  if (!group) return ik2d_skeleton_solve(m->skeleton);
  g_check(ik2d_skeletons_solve(&m->skeleton, 1, NULL, &reached, NULL));
  return reached;
}

/* outputs */
static int g_model_bone_count(const g_model *m) { return ik2d_skeleton_bone_count(m->skeleton); }
static void g_model_matrix(const g_model *m, int i, double *out) {
  g_check(ik2d_skeleton_matrix(m->skeleton, i, out));
}
static void g_model_result(const g_model *m, int i, g_local *l) {
  ik2d_bone_local local;
  g_check(ik2d_skeleton_result_local(m->skeleton, i, &local));
  l->angle = local.angle;
  l->x = local.x;
  l->y = local.y;
  l->scale_x = local.scale_x;
  l->scale_y = local.scale_y;
  l->shear_x = local.shear_x;
  l->shear_y = local.shear_y;
}
static double g_model_transform(const g_model *m, int i, int part) {
  return ik2d_skeleton_transforms(m->skeleton)[5 * i + part];
}
static const double *g_model_joints(const g_model *m, int k) {
  return ik2d_chain_joints(m->chains[k]);
}
static int g_model_chain_bones(const g_model *m, int k) {
  return ik2d_chain_bone_count(m->chains[k]);
}
static const ik2d_result *g_model_outcome(const g_model *m, int k) {
  return ik2d_solver_result(m->solvers[k]);
}

/* ------------------------------------------------------------------ */
/* hashing                                                              */
/* ------------------------------------------------------------------ */

typedef struct g_hash {
  uint64_t joints, angles, effectors, skeleton, springs, aim, bones;
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

/* a skeleton after a solve that returned `returned`: every bone's result
** angle and world transform, every chain's joints and every solver's
** outcome */
static void hash_skeleton(g_hash *h, const g_skeleton *s, int returned) {
  int i, k, part, n = g_skeleton_bone_count(s);
  hash_int(&h->skeleton, returned);
  for (i = 0; i < n; i++) {
    hash_double(&h->skeleton, g_skeleton_angle(s, i));
    for (part = 0; part < 5; part++) hash_double(&h->skeleton, g_skeleton_transform(s, i, part));
  }
  for (k = 0; k < s->chain_count; k++) {
    const double *joints = g_skeleton_chain_joints(s, k);
    for (i = 0; i <= 2 * g_skeleton_chain_bones(s, k) + 1; i++) hash_double(&h->skeleton, joints[i]);
    hash_int(&h->skeleton, g_skeleton_reached(s, k));
    hash_int(&h->skeleton, g_skeleton_limited(s, k));
    hash_int(&h->skeleton, g_skeleton_iterations(s, k));
    hash_double(&h->skeleton, g_skeleton_distance(s, k));
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
  static char spring_memory[BATCH][8192];
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

/* ------------------------------------------------------------------ */
/* skeletons (hashed apart as well; their random numbers come from the  */
/* same generator started again from a seed of their own, so they do    */
/* not depend on how many the scenes above draw)                        */
/* ------------------------------------------------------------------ */

#define SKELETON_SEED 0x243f6a8885a308d3ULL
#define SKELETON_FRAMES 24

/* Bone b's limits of kind (as make_chain's): 0 none, 1 random ranges, 2
** one-sided elbows (not on a root), 3 mixed (inverted, pinned, full). */
static void random_bone_limits(g_bone *b, int kind) {
  double a = rnd_in(-PI, PI), w = rnd_in(0.0, 2.5);
  int pick;
  b->limited = 0;
  b->invert = 0;
  b->min = b->max = 0.0;
  switch (kind) {
    case 1:
      if (rnd_int(2)) {
        b->limited = 1;
        b->min = a - w;
        b->max = a + w;
      }
      break;
    case 2:
      if (b->parent >= 0) {
        b->limited = 1;
        b->min = rnd_int(2) ? 0.0 : -2.4;
        b->max = rnd_int(2) ? 2.4 : 0.0;
      }
      break;
    case 3:
      pick = rnd_int(5);
      b->limited = pick < 4;
      b->invert = pick == 0;
      b->min = pick == 2 ? -4.0 : pick == 3 ? a - 0.1 : pick == 1 ? a : a - w;
      b->max = pick == 2 ? 4.0 : pick == 3 ? a + 0.1 : pick == 1 ? a : a + w;
      break;
    default: break;
  }
}

static void set_limits(g_bone *b, double min, double max) {
  b->limited = 1;
  b->invert = 0;
  b->min = min;
  b->max = max;
}

/* a bone of the given parent, length and rest at its parent's tip,
** inheriting all, free */
static g_bone bone_at_tip(int parent, double length, double rest) {
  g_bone b;
  memset(&b, 0, sizeof b);
  b.parent = parent;
  b.length = length;
  b.rest = rest;
  b.at_tip = 1;
  return b;
}

/* n random bones in a tree: mostly the previous bone's child, else any
** earlier bone's (or a second root), pivots, origins off the tips,
** bones keeping the base's direction, limits of kind */
static void random_skeleton_bones(g_bone *bones, int n, int kind) {
  int i;
  for (i = 0; i < n; i++) {
    g_bone *b = &bones[i];
    int parent = i == 0 ? -1 : rnd_int(10) < 6 ? i - 1 : rnd_int(12) == 0 ? -1 : rnd_int(i);
    double length = rnd_int(8) == 0 ? 0.0 : rnd_int(3) == 0 ? 1.0 : rnd_in(0.2, 3.0);
    double rest = rnd_int(2) == 0 ? 0.0 : rnd_in(-1.0, 1.0);
    *b = bone_at_tip(parent, length, rest);
    if (rnd_int(4) == 0) {
      b->at_tip = 0;
      b->x = rnd_in(-1.0, 3.0);
      b->y = rnd_int(3) == 0 ? 0.0 : rnd_in(-1.0, 1.0);
    }
    b->position_only = i > 0 && rnd_int(12) == 0;
    random_bone_limits(b, kind);
  }
}

/* A random path ending at a random bone: from it up a few bones, or as
** far as a path goes (to a root, a bone keeping the base's direction,
** which only starts a path, or 64 bones). */
static void random_path(const g_bone *bones, int n, int *from, int *to) {
  int b = rnd_int(n), count = 1;
  int want = rnd_int(3) == 0 ? G_MAX_BONES : 1 + rnd_int(6);
  *to = b;
  while (count < want && bones[b].parent >= 0 && !bones[b].position_only) {
    b = bones[b].parent;
    count++;
  }
  *from = b;
}

/* random solver options for chain k of s: no stretch (a skeleton's bones
** keep their lengths), a priority, together or not, sometimes a tip
** angle or a pole near the chain's tip */
static void random_skeleton_options(g_skeleton_options *o, const g_skeleton *s, int k) {
  const double *joints = g_skeleton_chain_joints(s, k);
  int n = g_skeleton_chain_bones(s, k);
  g_options *p = &o->solve;
  p->method = g_skeleton_two_bone_ok(s, k) ? rnd_int(3) : rnd_int(2);
  p->iterations = 1 + rnd_int(20);
  p->tolerance = rnd_int(4) == 0 ? 0.0 : rnd_in(1e-4, 0.05);
  p->weight = rnd_int(6) == 0 ? rnd() : 1.0;
  p->damping = rnd_int(4) == 0 ? rnd_in(0.01, 0.5) : 0.0;
  p->warm_start = rnd_int(4) != 0;
  p->exact = rnd_int(3) != 0;
  p->sweep_tip = rnd_int(3) == 0;
  p->bend = rnd_int(2) ? 1 : -1;
  p->softness = rnd_int(3) == 0 ? rnd_in(0.0, 1.0) : 0.0;
  p->stretch = 1.0;
  o->priority = rnd_int(3) == 0 ? rnd_in(0.0, 3.0) : 1.0;
  o->together = rnd_int(4) != 0;
  o->tip = rnd_int(8) == 0;
  o->tip_angle = o->tip ? rnd_in(-PI, PI) : 0.0;
  o->tip_weight = o->tip && rnd_int(2) ? rnd() : 1.0;
  o->pole = rnd_int(6) == 0;
  o->pole_x = o->pole ? joints[2 * n] + rnd_in(-5, 5) : 0.0;
  o->pole_y = o->pole ? joints[2 * n + 1] + rnd_in(-5, 5) : 0.0;
}

typedef struct g_skeleton_scene {
  g_skeleton s;
  g_bone bones[G_MAX_SKELETON_BONES];
  int bone_count;
  /* each chain's tip at the start, from the base in the base's frame */
  double tip_x[G_MAX_SKELETON_CHAINS], tip_y[G_MAX_SKELETON_CHAINS];
} g_skeleton_scene;

/* a random pose inside bone b's limits */
static double random_pose(const g_bone *b) {
  double u = rnd();
  if (!b->limited) return b->rest + PI * (2.0 * u - 1.0);
  if (!b->invert) return b->rest + b->min + (b->max - b->min) * u;
  return b->rest + b->max + (2.0 * PI - (b->max - b->min)) * u;
}

/* Every target where its chain's tip is in a random pose (within the
** limits) of the bones on chains: all of them reachable at once.  The
** poses are set back after. */
static void pose_targets(g_skeleton_scene *sc) {
  g_skeleton *s = &sc->s;
  double kept[G_MAX_SKELETON_BONES];
  int on_chain[G_MAX_SKELETON_BONES] = {0};
  int i, k;
  for (k = 0; k < s->chain_count; k++)
    for (i = 0; i < g_skeleton_chain_bones(s, k); i++) on_chain[g_skeleton_chain_bone(s, k, i)] = 1;
  for (i = 0; i < sc->bone_count; i++) {
    kept[i] = g_skeleton_pose_of(s, i);
    if (on_chain[i]) g_skeleton_pose(s, i, random_pose(&sc->bones[i]));
  }
  for (k = 0; k < s->chain_count; k++) {
    const double *joints = g_skeleton_chain_joints(s, k);
    int n = g_skeleton_chain_bones(s, k);
    g_skeleton_target(s, k, joints[2 * n], joints[2 * n + 1]);
  }
  for (i = 0; i < sc->bone_count; i++)
    if (on_chain[i]) g_skeleton_pose(s, i, kept[i]);
}

/* the skeleton's base frame: its origin, rotation and flip */
static void skeleton_frame_of(const g_skeleton *s, double *x, double *y, double *c,
                              double *sn, int *flip) {
  double angle;
  g_skeleton_base_now(s, x, y, &angle, flip);
  *c = ik2d_cos(angle);
  *sn = ik2d_sin(angle);
}

/* each chain's tip at the start, in the base's frame */
static void skeleton_start_tips(g_skeleton_scene *sc) {
  double bx, by, c, sn;
  int flip, k;
  skeleton_frame_of(&sc->s, &bx, &by, &c, &sn, &flip);
  for (k = 0; k < sc->s.chain_count; k++) {
    const double *joints = g_skeleton_chain_joints(&sc->s, k);
    int n = g_skeleton_chain_bones(&sc->s, k);
    double dx = joints[2 * n] - bx, dy = joints[2 * n + 1] - by;
    if (flip) dx = -dx;
    sc->tip_x[k] = c * dx + sn * dy;
    sc->tip_y[k] = c * dy - sn * dx;
  }
}

/* The targets of a frame.  For the first half each chain's target
** circles where its tip was at the start (moved with the base since);
** then either every target is where the tips are in a random pose, or
** each jumps: within reach of the chain's base, out of reach, onto the
** base, near full reach. */
static void skeleton_targets(g_skeleton_scene *sc, int frame) {
  g_skeleton *s = &sc->s;
  double bx, by, c, sn;
  int flip, k;
  if (frame >= SKELETON_FRAMES / 2 && rnd_int(3) == 0) {
    pose_targets(sc);
    return;
  }
  skeleton_frame_of(s, &bx, &by, &c, &sn, &flip);
  for (k = 0; k < s->chain_count; k++) {
    const double *joints = g_skeleton_chain_joints(s, k);
    double reach = g_skeleton_chain_reach(s, k), a, r, x, y;
    int kind = frame < SKELETON_FRAMES / 2 ? 0 : rnd_int(5);
    if (kind == 0) {
      double dx = c * sc->tip_x[k] - sn * sc->tip_y[k];
      double dy = sn * sc->tip_x[k] + c * sc->tip_y[k];
      a = 0.7 * k + 0.5 * frame;
      r = reach * (0.25 + 0.15 * ik2d_sin(0.29 * frame + k));
      x = bx + (flip ? -dx : dx) + r * ik2d_cos(a);
      y = by + dy + r * ik2d_sin(a);
      g_skeleton_target(s, k, x, y);
      continue;
    }
    switch (kind) {
      case 1: a = rnd_in(-PI, PI); r = reach * rnd(); break;
      case 2: a = rnd_in(-PI, PI); r = reach * rnd_in(1.01, 3.0); break;
      case 3: g_skeleton_target(s, k, joints[0], joints[1]); continue;
      default: a = rnd_in(-PI, PI); r = reach * rnd_in(0.95, 1.0); break;
    }
    x = joints[0] + r * ik2d_cos(a);
    y = joints[1] + r * ik2d_sin(a);
    g_skeleton_target(s, k, x, y);
  }
}

/* Edits between frames: a bone's pose (within its limits), the base, the
** flip, a bone's length or rest angle, its limits (another bone's, shared,
** or none), a reset; a solver's weight or priority, its warm start
** forgotten.  size scales the base's moves and the lengths. */
static void skeleton_edits(g_skeleton_scene *sc, double size) {
  g_skeleton *s = &sc->s;
  int k;
  if (rnd_int(6) == 0) {
    int bone = rnd_int(sc->bone_count);
    g_skeleton_pose(s, bone, random_pose(&sc->bones[bone]));
  }
  if (rnd_int(10) == 0) {
    double x = rnd_in(-20, 20) * size;
    double y = rnd_in(-20, 20) * size;
    g_skeleton_base(s, x, y, rnd_in(-PI, PI));
  }
  if (rnd_int(10) == 0) g_skeleton_flip(s, rnd_int(2));
  if (rnd_int(30) == 0) {
    int bone = rnd_int(sc->bone_count);
    g_skeleton_length(s, bone, rnd_int(5) == 0 ? 0.0 : rnd_in(0.2, 3.0) * size);
  }
  if (rnd_int(30) == 0) {
    int bone = rnd_int(sc->bone_count);
    double rest = rnd_in(-1.0, 1.0);
    g_skeleton_rest(s, bone, rest);
    sc->bones[bone].rest = rest;
  }
  if (rnd_int(30) == 0) {
    int bone = rnd_int(sc->bone_count);
    int other = rnd_int(4) == 0 ? -1 : rnd_int(sc->bone_count);
    g_skeleton_constraint(s, bone, other);
    sc->bones[bone].limited = other >= 0 && sc->bones[other].limited;
    if (sc->bones[bone].limited) {
      sc->bones[bone].min = sc->bones[other].min;
      sc->bones[bone].max = sc->bones[other].max;
      sc->bones[bone].invert = sc->bones[other].invert;
    }
  }
  if (rnd_int(40) == 0) g_skeleton_reset(s);
  for (k = 0; k < s->chain_count; k++) {
    if (rnd_int(100) == 0) g_skeleton_weight(s, k, rnd_int(3) == 0 ? 0.0 : rnd_int(2) ? 1.0 : rnd());
    if (rnd_int(30) == 0) g_skeleton_priority(s, k, rnd_in(0.0, 3.0));
    if (rnd_int(20) == 0) g_skeleton_forget(s, k);
  }
}

/* the frames of a scene: edits, targets, a solve of the whole skeleton */
static void skeleton_frames(g_hash *h, g_skeleton_scene *sc, double size) {
  int frame;
  skeleton_start_tips(sc);
  for (frame = 0; frame < SKELETON_FRAMES; frame++) {
    skeleton_edits(sc, size);
    skeleton_targets(sc, frame);
    hash_skeleton(h, &sc->s, g_skeleton_solve(&sc->s));
  }
}

static void skeleton_base_random(g_skeleton_scene *sc, double size) {
  double x = rnd_in(-50, 50) * size;
  double y = rnd_in(-50, 50) * size;
  double angle = rnd_in(-PI, PI);
  g_skeleton_init(&sc->s, sc->bone_count, sc->bones, x, y, angle, rnd_int(4) == 0);
}

/* solvers with random options on every chain */
static void skeleton_solvers(g_skeleton_scene *sc) {
  int k;
  for (k = 0; k < sc->s.chain_count; k++) {
    g_skeleton_options o;
    random_skeleton_options(&o, &sc->s, k);
    g_skeleton_solver(&sc->s, k, &o);
  }
}

/* A random tree of n bones with limits of kind and a few chains over
** random paths (sharing bones, hanging below each other, or apart). */
static void scene_skeleton_random(g_hash *h, int n, int kind) {
  static g_skeleton_scene sc;
  int k, chains = 1 + rnd_int(n < 6 ? n : 6);
  sc.bone_count = n;
  random_skeleton_bones(sc.bones, n, kind);
  skeleton_base_random(&sc, 1.0);
  for (k = 0; k < chains; k++) {
    int from, to;
    random_path(sc.bones, n, &from, &to);
    g_skeleton_chain(&sc.s, from, to);
  }
  skeleton_solvers(&sc);
  skeleton_frames(h, &sc, 1.0);
}

/* A body: a hip pivot, a spine and a chest, a head keeping the base's
** direction, two arms (shoulders at the chest's tip or off it) of upper
** arm, forearm and hand, two fingers below the left hand and a tail off
** the hip, with limits; the chains of variant:
**   0  both arms from the spine, together (the goal case)
**   1  the same, the right arm with together = false (after, winning)
**   2  both arms together and a third chain chest..right hand with them
**   3  both arms with together = false
**   4  a spine chain, each arm a two-bone chain below it
** and the fingers, the head and the tail on their own chains. */
enum { HIP, SPINE, CHEST, HEAD, ARM_L, FORE_L, HAND_L, ARM_R, FORE_R, HAND_R,
       FINGER_1, FINGER_2, TAIL_1, TAIL_2, BODY_BONES };

static void scene_skeleton_body(g_hash *h, int variant) {
  static g_skeleton_scene sc;
  g_bone *b = sc.bones;
  int k, left, right, offsets = rnd_int(2);
  sc.bone_count = BODY_BONES;
  b[HIP] = bone_at_tip(-1, 0.0, 0.0);
  set_limits(&b[HIP], -0.3, 0.3);
  b[SPINE] = bone_at_tip(HIP, 40, -1.57);
  set_limits(&b[SPINE], -0.5, 0.5);
  b[CHEST] = bone_at_tip(SPINE, 30, 0.0);
  set_limits(&b[CHEST], -0.6, 0.6);
  b[HEAD] = bone_at_tip(CHEST, 12, -1.57);
  b[HEAD].position_only = 1;
  set_limits(&b[HEAD], -0.8, 0.8);
  b[ARM_L] = bone_at_tip(CHEST, 30, 2.0);
  set_limits(&b[ARM_L], -1.0, 2.0);
  b[FORE_L] = bone_at_tip(ARM_L, 25, 0.0);
  set_limits(&b[FORE_L], 0.0, 2.4);
  b[HAND_L] = bone_at_tip(FORE_L, 8, 0.0);
  b[ARM_R] = bone_at_tip(CHEST, 30, -2.0);
  set_limits(&b[ARM_R], -2.0, 1.0);
  b[FORE_R] = bone_at_tip(ARM_R, 25, 0.0);
  set_limits(&b[FORE_R], -2.4, 0.0);
  b[HAND_R] = bone_at_tip(FORE_R, 8, 0.0);
  set_limits(&b[HAND_R], -0.7, 0.7);
  b[FINGER_1] = bone_at_tip(HAND_L, 5, 0.3);
  b[FINGER_2] = bone_at_tip(FINGER_1, 4, 0.2);
  set_limits(&b[FINGER_2], 0.0, 1.5);
  b[TAIL_1] = bone_at_tip(HIP, 15, 2.8);
  b[TAIL_1].at_tip = 0;
  b[TAIL_1].x = -4;
  b[TAIL_1].y = 3;
  b[TAIL_2] = bone_at_tip(TAIL_1, 12, 0.0);
  if (offsets) {
    b[ARM_L].at_tip = b[ARM_R].at_tip = 0;
    b[ARM_L].x = b[ARM_R].x = 26;
    b[ARM_L].y = 9;
    b[ARM_R].y = -9;
  }
  skeleton_base_random(&sc, 8.0);
  if (variant == 4) {
    g_skeleton_chain(&sc.s, SPINE, CHEST);
    left = g_skeleton_chain(&sc.s, ARM_L, FORE_L);
    right = g_skeleton_chain(&sc.s, ARM_R, FORE_R);
  } else {
    left = g_skeleton_chain(&sc.s, SPINE, rnd_int(2) ? HAND_L : FORE_L);
    right = g_skeleton_chain(&sc.s, SPINE, rnd_int(2) ? HAND_R : FORE_R);
    if (variant == 2) g_skeleton_chain(&sc.s, CHEST, HAND_R);
  }
  g_skeleton_chain(&sc.s, FINGER_1, FINGER_2);
  g_skeleton_chain(&sc.s, HEAD, HEAD);
  g_skeleton_chain(&sc.s, TAIL_1, TAIL_2);
  for (k = 0; k < sc.s.chain_count; k++) {
    g_skeleton_options o;
    random_skeleton_options(&o, &sc.s, k);
    if (k == left || k == right) {
      o.together = variant != 3 && !(variant == 1 && k == right);
      o.solve.iterations = 5 + rnd_int(26);
      o.solve.tolerance = rnd_in(0.01, 0.5);
      o.solve.weight = 1.0;
      o.tip = 0;
    }
    g_skeleton_solver(&sc.s, k, &o);
  }
  skeleton_frames(h, &sc, 8.0);
}

/* Many effectors on one body: legs legs of two bones, each from a point
** off the body, a chain body..knee on each, nearly all together (a group
** of more than 16 effectors is too big for the dense coupled step: its
** shared bones turn one at a time). */
static void scene_skeleton_crowd(g_hash *h, int legs) {
  static g_skeleton_scene sc;
  g_bone *b = sc.bones;
  int j;
  sc.bone_count = 2 + 2 * legs;
  b[0] = bone_at_tip(-1, 0.0, 0.0);
  b[1] = bone_at_tip(0, 2.0, rnd_in(-1.0, 1.0));
  set_limits(&b[1], -0.5, 0.5);
  for (j = 0; j < legs; j++) {
    g_bone *hip = &b[2 + 2 * j], *knee = &b[3 + 2 * j];
    double length = rnd_in(0.5, 1.5);
    *hip = bone_at_tip(1, length, rnd_in(-PI, PI));
    hip->at_tip = 0;
    hip->x = rnd_in(-1.0, 2.0);
    hip->y = rnd_in(-1.0, 1.0);
    random_bone_limits(hip, 1);
    length = rnd_in(0.5, 1.5);
    *knee = bone_at_tip(2 + 2 * j, length, rnd_in(-1.0, 1.0));
    random_bone_limits(knee, 2);
  }
  skeleton_base_random(&sc, 1.0);
  for (j = 0; j < legs; j++) g_skeleton_chain(&sc.s, 1, 3 + 2 * j);
  for (j = 0; j < legs; j++) {
    g_skeleton_options o;
    random_skeleton_options(&o, &sc.s, j);
    o.together = rnd_int(8) != 0;
    g_skeleton_solver(&sc.s, j, &o);
  }
  skeleton_frames(h, &sc, 1.0);
}

/* A spine of 6 bones with two arms of arm bones at its top and a chain
** from the spine's first bone to each hand: a group of 6 + 2 arm bones
** when together (over 64 is too big for the dense coupled step); and a
** chain on a side branch off the spine, which hangs below them. */
static void scene_skeleton_long(g_hash *h, int arm) {
  static g_skeleton_scene sc;
  g_bone *b = sc.bones;
  int i, side, n = 0;
  b[n++] = bone_at_tip(-1, 0.0, 0.0);
  for (i = 0; i < 6; i++) {
    double length = rnd_in(0.5, 1.5);
    b[n] = bone_at_tip(n - 1, length, rnd_in(-0.3, 0.3));
    random_bone_limits(&b[n], 1);
    n++;
  }
  for (side = 0; side < 2; side++) {
    for (i = 0; i < arm; i++) {
      double length = rnd_in(0.2, 1.0);
      b[n] = bone_at_tip(i == 0 ? 6 : n - 1, length, rnd_in(-0.5, 0.5));
      random_bone_limits(&b[n], 3);
      n++;
    }
  }
  b[n] = bone_at_tip(3, 1.0, 1.2);
  b[n].at_tip = 0;
  b[n].x = 0.5;
  b[n].y = 0.5;
  n++;
  b[n] = bone_at_tip(n - 1, 1.0, 0.0);
  n++;
  sc.bone_count = n;
  skeleton_base_random(&sc, 1.0);
  g_skeleton_chain(&sc.s, 1, 6 + arm);
  g_skeleton_chain(&sc.s, 1, 6 + 2 * arm);
  g_skeleton_chain(&sc.s, n - 2, n - 1);
  skeleton_solvers(&sc);
  skeleton_frames(h, &sc, 1.0);
}

/* ------------------------------------------------------------------ */
/* springs that feel the body (hashed apart, from a seed of their own)  */
/* ------------------------------------------------------------------ */

#define SPRING_SEED 0x13198a2e03707344ULL
#define SPRING_FRAMES 90

/* n numbers in [lo, hi] into values, or none (NULL) half the time */
static const double *spring_per_bone(double *values, int n, double lo, double hi) {
  int i;
  if (rnd_int(2) == 0) return NULL;
  for (i = 0; i < n; i++) values[i] = rnd_in(lo, hi);
  return values;
}

/* up to 5 colliders about the chain's joints: circles and segments */
static int spring_colliders(const g_chain *c, ik2d_collider *colliders) {
  int k, count = rnd_int(6), n = g_count(c);
  double reach = chain_reach(c);
  for (k = 0; k < count; k++) {
    int j = 1 + rnd_int(n);
    double x = g_joint_x(c, j) + rnd_in(-0.5, 0.5) * reach;
    double y = g_joint_y(c, j) + rnd_in(-0.5, 0.5) * reach;
    colliders[k] = ik2d_default_collider();
    if (rnd_int(2) == 0) {
      colliders[k].x = x;
      colliders[k].y = y;
      colliders[k].radius = rnd_in(0.0, 0.4) * reach;
    } else {
      double a = rnd_in(-PI, PI), half = rnd_in(0.0, 2.0) * reach;
      colliders[k].shape = IK2D_SEGMENT;
      colliders[k].x1 = x - half * ik2d_cos(a);
      colliders[k].y1 = y - half * ik2d_sin(a);
      colliders[k].x2 = x + half * ik2d_cos(a);
      colliders[k].y2 = y + half * ik2d_sin(a);
    }
  }
  return count;
}

static void scene_spring(g_hash *h, int n, int kind) {
  static g_chain c;
  static const double dts[] = {1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 144, 1.0 / 30, 0.1, 0.0,
                               2.0, 100.0, HUGE_VAL};
  double stiffness[G_MAX_BONES], damping[G_MAX_BONES], mass[G_MAX_BONES];
  ik2d_collider colliders[5];
  ik2d_spring_def def = ik2d_default_spring_def();
  ik2d_spring *spring;
  double x0, y0, a0, speed, bob, reach;
  size_t size = ik2d_spring_size(n);
  int frame, i, count;
  make_chain(&c, n, kind);
  reach = chain_reach(&c);
  def.stiffness = rnd_in(0.0, 300.0);
  def.damping = rnd_in(0.0, 12.0);
  def.mass = rnd_in(0.2, 3.0);
  def.stiffness_per_bone = spring_per_bone(stiffness, n, 0.0, 300.0);
  def.damping_per_bone = spring_per_bone(damping, n, 0.0, 12.0);
  def.mass_per_bone = spring_per_bone(mass, n, 0.2, 3.0);
  def.gravity_x = rnd_int(4) == 0 ? rnd_in(-300.0, 300.0) : 0.0;
  def.gravity_y = rnd_int(4) == 0 ? 0.0 : rnd_in(0.0, 1000.0);
  def.wind_x = rnd_int(2) == 0 ? 0.0 : rnd_in(-400.0, 400.0);
  def.wind_y = rnd_int(2) == 0 ? 0.0 : rnd_in(-100.0, 100.0);
  def.weight = rnd_int(4) == 0 ? rnd() : 1.0;
  spring = malloc(size);
  g_check(ik2d_spring_init(spring, size, c.chain, &def));
  count = spring_colliders(&c, colliders);
  g_check(ik2d_spring_set_colliders(spring, colliders, count));
  x0 = g_joint_x(&c, 0);
  y0 = g_joint_y(&c, 0);
  ik2d_chain_base(c.chain, NULL, NULL, &a0);
  speed = rnd_in(-30.0, 30.0) * reach;
  bob = rnd_in(0.0, 2.0) * reach;
  for (frame = 0; frame < SPRING_FRAMES; frame++) {
    double t = frame / 60.0, dt = dts[rnd_int(10)];
    /* runs, stops, runs back; bobs; turns now and then */
    double run = frame < 30 ? speed * t : frame < 60 ? speed * 0.5 : speed * (1.5 - t);
    double a = rnd_int(8) == 0 ? rnd_in(-PI, PI) : a0;
    g_chain_base(&c, x0 + run, y0 + bob * ik2d_sin(9.0 * t), a);
    if (rnd_int(10) == 0) {
      int bone = rnd_int(n);
      g_chain_pose(&c, bone, rnd_in(-2.0, 2.0));
    }
    if (rnd_int(20) == 0) g_chain_flip(&c, rnd_int(2));
    if (rnd_int(30) == 0) ik2d_spring_reset(spring);
    g_check(ik2d_spring_update(spring, dt));
    for (i = 0; i <= n; i++) {
      hash_double(&h->springs, g_joint_x(&c, i));
      hash_double(&h->springs, g_joint_y(&c, i));
    }
    for (i = 0; i < n; i++) {
      double v;
      g_check(ik2d_spring_velocity(spring, i, &v));
      hash_double(&h->springs, v);
    }
  }
  free(spring);
}

static void scenes_springs(g_hash *h) {
  int k, kind, round;
  rng_state = SPRING_SEED;
  for (round = 0; round < 2; round++)
    for (k = 0; k < BONE_COUNTS; k++)
      for (kind = 0; kind < 4; kind++) scene_spring(h, bone_counts[k], kind);
}

static const int skeleton_bone_counts[] = {1, 2, 3, 4, 6, 9, 14, 24, 40, 64, 100};
#define SKELETON_BONE_COUNTS ((int)(sizeof skeleton_bone_counts / sizeof skeleton_bone_counts[0]))

static void scenes_skeleton(g_hash *h) {
  int k, kind, round;
  rng_state = SKELETON_SEED;
  for (round = 0; round < 2; round++)
    for (k = 0; k < SKELETON_BONE_COUNTS; k++)
      for (kind = 0; kind < 4; kind++) scene_skeleton_random(h, skeleton_bone_counts[k], kind);
  for (round = 0; round < 4; round++)
    for (k = 0; k < 5; k++) scene_skeleton_body(h, k);
  for (round = 0; round < 2; round++) {
    scene_skeleton_crowd(h, 4);
    scene_skeleton_crowd(h, 16);
    scene_skeleton_crowd(h, 17);
    scene_skeleton_crowd(h, 24);
    scene_skeleton_long(h, 20);
    scene_skeleton_long(h, 40);
  }
}

/* ------------------------------------------------------------------ */
/* aimed solvers (hashed apart, their random numbers from a seed of     */
/* their own, as the skeletons')                                        */
/* ------------------------------------------------------------------ */

#define AIM_SEED 0x13198a2e03707344ULL
#define AIM_FRAMES 24

/* a ray in the last bone's space: the barrel along it or held off it, a
** line of sight across it */
static void random_aim(g_solver *s, double length) {
  double x = rnd_in(-0.5, 1.5) * length;
  double y = rnd_int(3) == 0 ? 0.0 : rnd_in(-1.0, 1.0) * length;
  double angle = rnd_int(4) == 0 ? rnd_in(-PI, PI) : rnd_in(-0.5, 0.5);
  g_solver_aim(s, x, y, angle);
}

/* the next target of an aimed frame: kind 0 tracks a point circling, 1
** jumps, 2 far, 3 on the base, 4 near the last joint */
static void next_aim_target(const g_chain *c, double reach, int frame, int kind, double *x,
                            double *y) {
  int n = g_count(c);
  double a, r;
  if (kind == 4) {
    a = rnd_in(-PI, PI);
    r = rnd_in(0.0, 0.5) * reach / n;
    *x = g_joint_x(c, n - 1) + r * ik2d_cos(a);
    *y = g_joint_y(c, n - 1) + r * ik2d_sin(a);
    return;
  }
  if (kind == 2) {
    a = rnd_in(-PI, PI);
    r = reach * rnd_in(2.0, 50.0);
    *x = g_joint_x(c, 0) + r * ik2d_cos(a);
    *y = g_joint_y(c, 0) + r * ik2d_sin(a);
    return;
  }
  next_target(c, reach, frame, kind == 0 ? 0 : kind == 1 ? 1 : 3, x, y);
}

/* A batch of chains of n bones, most solvers aimed (the others plain,
** so that a batch mixes lanes and single solves), solved one by one and
** in batches in turn. */
static void scene_aim(g_hash *h, int n) {
  static g_chain chains[BATCH];
  static g_solver solvers[BATCH];
  g_solver *list[BATCH];
  double reach[BATCH];
  int i, frame;
  for (i = 0; i < BATCH; i++) {
    g_options o;
    make_chain(&chains[i], n, rnd_int(4));
    if (n > 1 && rnd_int(5) == 0) {
      double a = rnd_in(-PI, PI), b = rnd_in(0.2, 1.5);
      g_chain_limit_in(&chains[i], rnd_int(n), a - b, a + b, 0, 1);
    }
    random_options(&o, n);
    if (n != 2 && rnd_int(3) == 0) o.method = G_FABRIK;
    g_solver_init(&solvers[i], &chains[i], &o);
    reach[i] = chain_reach(&chains[i]);
    if (rnd_int(5) != 0) random_aim(&solvers[i], reach[i] / n);
    if (rnd_int(4) == 0) {
      double x = g_joint_x(&chains[i], n) + rnd_in(-5, 5);
      g_check(ik2d_solver_set_pole(solvers[i].solver, x, g_joint_y(&chains[i], n) + rnd_in(-5, 5)));
    }
    list[i] = &solvers[i];
  }
  for (frame = 0; frame < AIM_FRAMES; frame++) {
    for (i = 0; i < BATCH; i++) {
      double x, y;
      next_aim_target(&chains[i], reach[i], frame, frame < 12 ? 0 : rnd_int(5), &x, &y);
      g_solver_target(&solvers[i], x, y);
      if (rnd_int(40) == 0) g_chain_flip(&chains[i], rnd_int(2));
      if (rnd_int(40) == 0) {
        int bone = rnd_int(n);
        g_chain_pose(&chains[i], bone, rnd_in(-PI, PI));
      }
    }
    if (frame % 2 == 0) {
      hash_int(&h->aim, g_solve_batch(list, BATCH));
    } else {
      for (i = 0; i < BATCH; i++) hash_int(&h->aim, g_solve(&solvers[i]));
    }
    for (i = 0; i < BATCH; i++) {
      g_hash part;
      part.joints = part.angles = h->aim;
      hash_outcome(&part, &chains[i], &solvers[i], g_reached(&solvers[i]));
      h->aim = part.joints;
      hash_bytes(&h->aim, &part.angles, sizeof part.angles);
    }
  }
}

/* A random tree with chains over its paths, some solvers aimed (solved
** after the groups they share bones with). */
static void scene_aim_skeleton(g_hash *h, int n, int kind) {
  static g_skeleton_scene sc;
  int k, chains = 1 + rnd_int(n < 6 ? n : 6);
  sc.bone_count = n;
  random_skeleton_bones(sc.bones, n, kind);
  skeleton_base_random(&sc, 1.0);
  for (k = 0; k < chains; k++) {
    int from, to;
    random_path(sc.bones, n, &from, &to);
    g_skeleton_chain(&sc.s, from, to);
  }
  skeleton_solvers(&sc);
  for (k = 0; k < sc.s.chain_count; k++) {
    if (rnd_int(2)) {
      double reach = g_skeleton_chain_reach(&sc.s, k);
      double x = rnd_in(-0.5, 1.0) * reach, y = rnd_in(-0.5, 0.5) * reach;
      double angle = rnd_in(-PI, PI);
      ik2d_solver_def def = ik2d_solver_get_def(sc.s.solvers[k]);
      /* aiming needs a method with a fixed base and no tip angle */
      if (def.method == IK2D_FOLLOW || def.tip.enabled) continue;
      g_check(ik2d_solver_set_aim(sc.s.solvers[k], x, y, angle));
    }
  }
  skeleton_frames(h, &sc, 1.0);
}

static void scenes_aim(g_hash *h) {
  int k, kind, round;
  g_hash part;
  rng_state = AIM_SEED;
  for (round = 0; round < 2; round++)
    for (k = 0; k < BONE_COUNTS; k++) scene_aim(h, bone_counts[k]);
  /* the skeleton scenes hash into their own field: carried over */
  part.skeleton = h->aim;
  for (k = 0; k < 6; k++)
    for (kind = 0; kind < 4; kind++) scene_aim_skeleton(&part, skeleton_bone_counts[k], kind);
  h->aim = part.skeleton;
}

/* ------------------------------------------------------------------ */
/* the bone model (hashed apart, its random numbers from a seed of its  */
/* own)                                                                 */
/* ------------------------------------------------------------------ */

#define BONES_SEED 0xa4093822299f31d0ULL
#define BONES_FRAMES 16

/* the skeleton scales the scenes take in turn: (1, -1) a y-up rig on a
** y-down screen, (-1, 1) mirrored */
static const double model_scales[][2] = {{1, 1}, {1, -1}, {-1, 1}, {1.5, -0.75}};
#define MODEL_SCALES 4

/* a model skeleton after a solve that returned `returned`: every bone's
** matrix, result local transform and transform, every chain's joints and
** every solver's outcome */
static void hash_model(g_hash *h, const g_model *m, int returned) {
  int i, k, part, n = g_model_bone_count(m);
  hash_int(&h->bones, returned);
  for (i = 0; i < n; i++) {
    double matrix[6];
    g_local l;
    g_model_matrix(m, i, matrix);
    for (part = 0; part < 6; part++) hash_double(&h->bones, matrix[part]);
    g_model_result(m, i, &l);
    hash_double(&h->bones, l.angle);
    hash_double(&h->bones, l.x);
    hash_double(&h->bones, l.y);
    hash_double(&h->bones, l.scale_x);
    hash_double(&h->bones, l.scale_y);
    hash_double(&h->bones, l.shear_x);
    hash_double(&h->bones, l.shear_y);
    for (part = 0; part < 5; part++) hash_double(&h->bones, g_model_transform(m, i, part));
  }
  for (k = 0; k < m->chain_count; k++) {
    const double *joints = g_model_joints(m, k);
    const ik2d_result *r = g_model_outcome(m, k);
    for (i = 0; i <= 2 * g_model_chain_bones(m, k) + 1; i++) hash_double(&h->bones, joints[i]);
    hash_int(&h->bones, r->reached);
    hash_int(&h->bones, r->limited);
    hash_int(&h->bones, r->iterations);
    hash_double(&h->bones, r->distance);
  }
}

/* a scale: 1 now and then, else 0.4..2 long, reflected one time in five */
static double model_scale(void) {
  double s;
  if (rnd_int(4) == 0) return 1.0;
  s = rnd_in(0.4, 2.0);
  return rnd_int(5) == 0 ? -s : s;
}

static double model_shear(void) { return rnd_int(3) == 0 ? rnd_in(-0.4, 0.4) : 0.0; }

/* a bone of parent with every part random (inherit 0: all) */
static g_model_bone model_bone(int parent, int inherit) {
  g_model_bone b;
  b.parent = parent;
  b.inherit = inherit;
  b.length = rnd_in(0.5, 3.0);
  b.rest = rnd_in(-1.0, 1.0);
  b.x = parent < 0 ? rnd_in(-1.0, 1.0) : rnd_in(0.0, 3.0);
  b.y = rnd_int(2) ? 0.0 : rnd_in(-1.0, 1.0);
  b.scale_x = model_scale();
  b.scale_y = model_scale();
  b.shear_x = model_shear();
  b.shear_y = model_shear();
  b.limited = 0;
  b.min = b.max = 0.0;
  return b;
}

/* a random whole local pose near bone b's set-up */
static void model_pose(const g_model_bone *b, g_local *l) {
  l->angle = b->rest + rnd_in(-0.8, 0.8);
  l->x = b->x + rnd_in(-0.5, 0.5);
  l->y = b->y + rnd_in(-0.5, 0.5);
  l->scale_x = rnd_int(3) == 0 ? b->scale_x : model_scale();
  l->scale_y = rnd_int(3) == 0 ? b->scale_y : model_scale();
  l->shear_x = model_shear();
  l->shear_y = model_shear();
}

/* the model's base at random, a flip one time in four, skeleton scale s */
static void model_init(g_model *m, int n, const g_model_bone *bones, int s) {
  double x = rnd_in(-20, 20);
  double y = rnd_in(-20, 20);
  double angle = rnd_in(-PI, PI);
  g_model_init(m, n, bones, x, y, angle, rnd_int(4) == 0, model_scales[s][0], model_scales[s][1]);
}

/* Edits between frames: a bone's whole pose, its angle alone, the base,
** the flip, the skeleton's scale, a reset. */
static void model_edits(g_model *m, const g_model_bone *bones, int n) {
  if (rnd_int(2) == 0) {
    int bone = rnd_int(n);
    g_local l;
    model_pose(&bones[bone], &l);
    g_model_pose(m, bone, &l);
  }
  if (rnd_int(4) == 0) {
    int bone = rnd_int(n);
    g_local l;
    g_model_pose_of(m, bone, &l);
    l.angle = rnd_in(-PI, PI);
    g_model_pose(m, bone, &l);
  }
  if (rnd_int(8) == 0) {
    double x = rnd_in(-20, 20);
    double y = rnd_in(-20, 20);
    g_model_base(m, x, y, rnd_in(-PI, PI));
  }
  if (rnd_int(10) == 0) g_model_flip(m, rnd_int(2));
  if (rnd_int(8) == 0) {
    int s = rnd_int(MODEL_SCALES);
    g_model_scale(m, model_scales[s][0], model_scales[s][1]);
  }
  if (rnd_int(20) == 0) g_model_reset(m);
}

/* A target about chain k's first bone: circling within reach, or out of
** it, or on the base. */
static void model_target(g_model *m, int k, int frame) {
  const double *joints = g_model_joints(m, k);
  int n = g_model_chain_bones(m, k), kind = frame < BONES_FRAMES / 2 ? 0 : rnd_int(4);
  double reach = 0.0, a, r;
  int i;
  for (i = 0; i < n; i++)
    reach += ik2d_hypot(joints[2 * i + 2] - joints[2 * i], joints[2 * i + 3] - joints[2 * i + 1]);
  switch (kind) {
    case 0: a = 0.4 * frame + k; r = reach * (0.4 + 0.5 * ik2d_sin(0.3 * frame + k)); break;
    case 1: a = rnd_in(-PI, PI); r = reach * rnd_in(1.1, 2.5); break;
    case 2: a = rnd_in(-PI, PI); r = reach * rnd_in(0.0, 0.3); break;
    default: a = rnd_in(-PI, PI); r = reach * rnd(); break;
  }
  g_model_target(m, k, joints[0] + r * ik2d_cos(a), joints[1] + r * ik2d_sin(a));
}

/* the frames: edits, targets, a solve (alone, then in a list, in turn) */
static void model_frames(g_hash *h, g_model *m, const g_model_bone *bones, int n) {
  int frame, k;
  for (frame = 0; frame < BONES_FRAMES; frame++) {
    model_edits(m, bones, n);
    for (k = 0; k < m->chain_count; k++) model_target(m, k, frame);
    hash_model(h, m, g_model_solve(m, frame % 2));
  }
}

/* Each inherit mode under a scaled, sheared parent (reflected in turn),
** a child of each below, whole poses animated: no solver. */
static void scene_model_inherit(g_hash *h, int s) {
  static g_model m;
  g_model_bone bones[12];
  int mode, n = 2;
  bones[0] = model_bone(-1, 0);
  bones[1] = model_bone(0, 0);
  for (mode = 0; mode < 5; mode++) {
    bones[n] = model_bone(1, mode);
    bones[n + 1] = model_bone(n, 0);
    n += 2;
  }
  model_init(&m, n, bones, s);
  model_frames(h, &m, bones, n);
}

static void random_model_options(g_model_options *o, int method) {
  o->method = method;
  o->bend = rnd_int(2) ? 1 : -1;
  o->uniform = rnd_int(3) == 0;
  o->iterations = 10 + rnd_int(20);
  o->weight = rnd_int(3) == 0 ? rnd() : 1.0;
  o->softness = rnd_int(3) == 0 ? rnd_in(0.0, 1.0) : 0.0;
  o->stretch = rnd_int(3) == 0 ? rnd_in(1.0, 2.0) : 1.0;
  o->compress = rnd_int(4) == 0 ? rnd_in(0.2, 1.0) : 1.0;
}

/* IK on scaled bones: a hip under the root, a thigh and shin under it
** (two_bone), a one-bone arm under the hip inheriting in any way, and in
** kind 1 a three-bone tail with a limit (the chain solve on the model). */
static void scene_model_ik(g_hash *h, int s, int kind) {
  static g_model m;
  g_model_bone bones[8];
  g_model_options o;
  int n = 5;
  bones[0] = model_bone(-1, 0);
  bones[1] = model_bone(0, 0);
  bones[2] = model_bone(1, rnd_int(5));
  bones[3] = model_bone(2, 0);
  bones[4] = model_bone(1, rnd_int(5));
  if (kind == 1) {
    bones[5] = model_bone(0, 0);
    bones[6] = model_bone(5, 0);
    bones[7] = model_bone(6, 0);
    bones[6].limited = 1;
    bones[6].min = bones[6].rest - 0.8;
    bones[6].max = bones[6].rest + 0.8;
    n = 8;
  }
  model_init(&m, n, bones, s);
  random_model_options(&o, G_TWO_BONE);
  g_model_chain(&m, 2, 3, &o);
  random_model_options(&o, rnd_int(2) ? G_CCD : G_FABRIK);
  g_model_chain(&m, 4, 4, &o);
  if (kind == 1) {
    random_model_options(&o, G_CCD);
    o.stretch = o.compress = 1.0;
    g_model_chain(&m, 5, 7, &o);
  }
  model_frames(h, &m, bones, n);
}

/* a transform constraint on bones other than the target (of the n), with
** random mixes in [0, 1] (1 often), offsets and modes */
static void random_model_constraint(g_transform *c, int n) {
  int i, k;
  c->target = rnd_int(n);
  c->bone_count = 1 + rnd_int(2);
  for (i = 0; i < c->bone_count; i++) {
    int b;
    do {
      b = rnd_int(n);
      for (k = 0; k < i && c->bones[k] != b; k++) continue;
    } while (b == c->target || k < i);
    c->bones[i] = b;
  }
  for (k = 0; k < 6; k++) {
    c->mix[k] = rnd_int(3) == 0 ? 1.0 : rnd_int(4) == 0 ? 0.0 : rnd();
    c->offset[k] = rnd_int(2) ? 0.0 : rnd_in(-0.5, 0.5);
  }
  c->local = rnd_int(2);
  c->relative = rnd_int(2);
}

/* A tree of bones of every kind with solvers (one- and two-bone) and
** transform constraints, all in a random order (a solver left out now and
** then, which runs after it by the plan). */
static void scene_model_order(g_hash *h, int s) {
  static g_model m;
  g_model_bone bones[G_MODEL_BONES];
  int steps[2 * G_MODEL_CHAINS], count = 0, n = 6 + rnd_int(8), i, k, constraints;
  bones[0] = model_bone(-1, 0);
  for (i = 1; i < n; i++) {
    int parent = rnd_int(i);
    bones[i] = model_bone(parent, rnd_int(3) == 0 ? rnd_int(5) : 0);
  }
  model_init(&m, n, bones, s);
  /* a two-bone chain (its second bone inheriting all), one-bone ones */
  for (i = n - 1; i > 0 && m.chain_count == 0; i--) {
    g_model_options o;
    if (bones[i].inherit != 0) continue;
    random_model_options(&o, G_TWO_BONE);
    g_model_chain(&m, bones[i].parent, i, &o);
  }
  for (k = 0; k < 2; k++) {
    g_model_options o;
    int bone = rnd_int(n);
    random_model_options(&o, G_CCD);
    g_model_chain(&m, bone, bone, &o);
  }
  constraints = 1 + rnd_int(3);
  for (k = 0; k < constraints; k++) {
    g_transform c;
    random_model_constraint(&c, n);
    g_model_constraint(&m, &c);
  }
  for (k = 0; k < m.chain_count; k++)
    if (rnd_int(5) != 0) steps[count++] = k;
  for (k = 0; k < constraints; k++) steps[count++] = -1 - k;
  for (k = count - 1; k > 0; k--) {
    int j = rnd_int(k + 1), t = steps[k];
    steps[k] = steps[j];
    steps[j] = t;
  }
  g_model_order(&m, steps, count);
  model_frames(h, &m, bones, n);
}

static void scenes_bones(g_hash *h) {
  int s, round, kind;
  rng_state = BONES_SEED;
  for (round = 0; round < 3; round++)
    for (s = 0; s < MODEL_SCALES; s++) {
      scene_model_inherit(h, s);
      for (kind = 0; kind < 2; kind++) scene_model_ik(h, s, kind);
      scene_model_order(h, s);
    }
}

int main(int argc, char **argv) {
  g_hash h;
  uint64_t total;
  int k, limits, round;
  if (argc > 1 && strcmp(argv[1], "dump") == 0) dump_to = stderr;
  h.joints = h.angles = h.effectors = h.skeleton = h.springs = h.aim = h.bones =
      14695981039346656037ULL;
  for (round = 0; round < 6; round++)
    for (k = 0; k < BONE_COUNTS; k++)
      for (limits = 0; limits < 4; limits++)
        scene_single(&h, bone_counts[k], limits);
  for (k = 0; k < BONE_COUNTS; k++) scene_batch(&h, bone_counts[k]);
  for (round = 0; round < 2; round++)
    for (k = 0; k < BONE_COUNTS; k++) scene_effectors(&h, bone_counts[k]);
  scenes_skeleton(&h);
  scenes_springs(&h);
  scenes_aim(&h);
  scenes_bones(&h);
  total = h.joints;
  hash_bytes(&total, &h.angles, sizeof h.angles);
  hash_bytes(&total, &h.effectors, sizeof h.effectors);
  hash_bytes(&total, &h.skeleton, sizeof h.skeleton);
  hash_bytes(&total, &h.springs, sizeof h.springs);
  hash_bytes(&total, &h.aim, sizeof h.aim);
  hash_bytes(&total, &h.bones, sizeof h.bones);
  printf("joints %016llx\n", (unsigned long long)h.joints);
  printf("angles %016llx\n", (unsigned long long)h.angles);
  printf("effectors %016llx\n", (unsigned long long)h.effectors);
  printf("skeleton %016llx\n", (unsigned long long)h.skeleton);
  printf("springs %016llx\n", (unsigned long long)h.springs);
  printf("aim %016llx\n", (unsigned long long)h.aim);
  printf("bones %016llx\n", (unsigned long long)h.bones);
  printf("total  %016llx\n", (unsigned long long)total);
  return 0;
}
