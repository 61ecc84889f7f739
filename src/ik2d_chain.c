/*
** ik2d_chain.c: chains, their storage and forward kinematics.
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ik2d.h"
#include "ik2d_chain.h"
#include "ik2d_checks.h"
#include "ik2d_math.h"

/* ------------------------------------------------------------------ */
/* storage                                                              */
/* ------------------------------------------------------------------ */

/* Every array of a chain of n bones, laid out after the header; all of
** 8-byte entries, so each stays aligned for a double. */
typedef struct chain_layout {
  size_t length, rest, rest_rot, pose, angle, constraint, joints, size;
} chain_layout;

static chain_layout chain_layout_of(int n) {
  chain_layout l;
  size_t at = sizeof(ik2d_chain), doubles = (size_t)n * sizeof(double);
  l.length = at;
  l.rest = l.length + doubles;
  l.rest_rot = l.rest + doubles;
  l.pose = l.rest_rot + (size_t)n * sizeof(ik2d_rot);
  l.angle = l.pose + doubles;
  l.constraint = l.angle + doubles;
  l.joints = l.constraint + (size_t)n * sizeof(const ik2d_constraint *);
  l.size = l.joints + 2 * (size_t)(n + 1) * sizeof(double);
  return l;
}

size_t ik2d_chain_size(int bone_count) {
  if (bone_count < 1 || bone_count > IK2D_MAX_BONES) return 0;
  return chain_layout_of(bone_count).size;
}

static void chain_keep_base(ik2d_chain *chain, double x, double y, double angle) {
  chain->base_x = x;
  chain->base_y = y;
  chain->base_angle = ik2d_base_angle(angle);
  chain->base_rot = ik2d_rot_angle(chain->base_angle);
}

/* ------------------------------------------------------------------ */
/* set-up                                                               */
/* ------------------------------------------------------------------ */


ik2d_status ik2d__chain_check_base(double x, double y, double angle) {
  ik2d_status status;
  if ((status = ik2d__chain_check_x(x)) != IK2D_OK) return status;
  if ((status = ik2d__chain_check_y(y)) != IK2D_OK) return status;
  return ik2d__chain_check_angle(angle);
}

/* generated from lua/ik2d/api.lua by make gen: bone check */
/* ik2d_bone_def's check as lua/ik2d/api.lua describes it: each field's, each
** rule, in its order; the first refused is the status. */
ik2d_status ik2d_bone_def_check(const ik2d_bone_def *def) {
  ik2d_status status;
  if (def == NULL) return IK2D_ERR_NULL;
  if ((status = ik2d__bone_check_length(def->length)) != IK2D_OK) return status;
  if ((status = ik2d__bone_check_rest(def->rest)) != IK2D_OK) return status;
  return IK2D_OK;
}
/* end generated */

/* Every bone as ik2d_bone_def_check checks it; with pivots (a skeleton's
** chains) a bone of length 0 too. */
static ik2d_status chain_bones_valid(const ik2d_chain_def *def, bool pivots) {
  int i;
  if (def->bones == NULL) return IK2D_ERR_NULL;
  for (i = 0; i < def->bone_count; i++) {
    ik2d_bone_def bone = def->bones[i];
    ik2d_status status;
    if (pivots && bone.length == 0.0) bone.length = 1.0;
    status = ik2d_bone_def_check(&bone);
    if (status != IK2D_OK) return status;
  }
  return IK2D_OK;
}

/* the lengths add up to a finite reach */
static bool chain_reach_finite(const ik2d_chain_def *def) {
  double reach = 0.0;
  int i;
  for (i = 0; i < def->bone_count; i++) reach += def->bones[i].length;
  return isfinite(reach);
}

/* generated from lua/ik2d/api.lua by make gen: chain check */
/* ik2d_chain_def's check as lua/ik2d/api.lua describes it: each field's, each
** rule, in its order; the first refused is the status. pivots: bones of
** length 0 are allowed (a skeleton's chains). */
static ik2d_status chain_def_check(const ik2d_chain_def *def, bool pivots) {
  ik2d_status status;
  if (def == NULL) return IK2D_ERR_NULL;
  if ((status = ik2d__chain_check_bone_count(def->bone_count)) != IK2D_OK) return status;
  if ((status = chain_bones_valid(def, pivots)) != IK2D_OK) return status;
  if (!chain_reach_finite(def)) return IK2D_ERR_REACH;
  if ((status = ik2d__chain_check_x(def->x)) != IK2D_OK) return status;
  if ((status = ik2d__chain_check_y(def->y)) != IK2D_OK) return status;
  if ((status = ik2d__chain_check_angle(def->angle)) != IK2D_OK) return status;
  return IK2D_OK;
}
/* end generated */

static ik2d_status chain_init(ik2d_chain *chain, size_t size,
                              const ik2d_chain_def *def, bool pivots) {
  chain_layout l;
  char *memory = (char *)chain;
  ik2d_status status;
  int i;
  if (chain == NULL) return IK2D_ERR_NULL;
  if ((uintptr_t)chain % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  status = chain_def_check(def, pivots);
  if (status != IK2D_OK) return status;
  l = chain_layout_of(def->bone_count);
  if (size < l.size) return IK2D_ERR_SIZE;
  chain->count = def->bone_count;
  chain->length = (double *)(void *)(memory + l.length);
  chain->rest = (double *)(void *)(memory + l.rest);
  chain->rest_rot = (ik2d_rot *)(void *)(memory + l.rest_rot);
  chain->pose = (double *)(void *)(memory + l.pose);
  chain->angle = (double *)(void *)(memory + l.angle);
  chain->constraint = (const ik2d_constraint **)(void *)(memory + l.constraint);
  chain->joints = (double *)(void *)(memory + l.joints);
  chain->link = NULL;
  chain->reach = 0.0;
  for (i = 0; i < chain->count; i++) {
    const ik2d_bone_def *bone = &def->bones[i];
    chain->length[i] = bone->length;
    chain->rest[i] = bone->rest;
    chain->rest_rot[i] = ik2d_rot_angle(bone->rest);
    chain->constraint[i] = bone->constraint;
    chain->reach += bone->length;
  }
  chain->flip = def->flip;
  chain->uniform = false;
  chain_keep_base(chain, def->x, def->y, def->angle);
  ik2d_chain_reset(chain);
  return IK2D_OK;
}

ik2d_status ik2d_chain_init(ik2d_chain *chain, size_t size,
                            const ik2d_chain_def *def) {
  return chain_init(chain, size, def, false);
}

ik2d_status ik2d__chain_init_pivots(ik2d_chain *chain, size_t size,
                                    const ik2d_chain_def *def) {
  return chain_init(chain, size, def, true);
}

/* ------------------------------------------------------------------ */
/* edits                                                                */
/* ------------------------------------------------------------------ */

static bool chain_has_bone(const ik2d_chain *chain, int i) {
  return chain != NULL && i >= 0 && i < chain->count;
}

int ik2d_chain_bone_count(const ik2d_chain *chain) {
  return chain != NULL ? chain->count : 0;
}

ik2d_status ik2d_chain_set_base(ik2d_chain *chain, double x, double y,
                                double angle) {
  ik2d_status status;
  if (chain == NULL) return IK2D_ERR_NULL;
  if (chain->link != NULL) return IK2D_ERR_LINKED;
  status = ik2d__chain_check_base(x, y, angle);
  if (status != IK2D_OK) return status;
  /* the base it has: nothing to place again (not a bit moves) */
  if (ik2d_same_bits(x, chain->base_x) && ik2d_same_bits(y, chain->base_y) &&
      ik2d_same_bits(ik2d_base_angle(angle), chain->base_angle))
    return IK2D_OK;
  chain_keep_base(chain, x, y, angle);
  ik2d__chain_update_joints(chain);
  return IK2D_OK;
}

void ik2d_chain_base(const ik2d_chain *chain, double *x, double *y,
                     double *angle) {
  if (x != NULL) *x = chain != NULL ? chain->base_x : 0.0;
  if (y != NULL) *y = chain != NULL ? chain->base_y : 0.0;
  if (angle != NULL) *angle = chain != NULL ? chain->base_angle : 0.0;
}

ik2d_status ik2d_chain_set_flip(ik2d_chain *chain, bool flip) {
  if (chain == NULL) return IK2D_ERR_NULL;
  if (chain->link != NULL) return IK2D_ERR_LINKED;
  if (flip == chain->flip) return IK2D_OK;
  chain->flip = flip;
  ik2d__chain_update_joints(chain);
  return IK2D_OK;
}

bool ik2d_chain_flip(const ik2d_chain *chain) {
  return chain != NULL && chain->flip;
}

ik2d_status ik2d_chain_set_pose(ik2d_chain *chain, int i, double angle) {
  if (chain == NULL) return IK2D_ERR_NULL;
  if (chain->link != NULL) return IK2D_ERR_LINKED;
  if (!chain_has_bone(chain, i)) return IK2D_ERR_INDEX;
  if (!isfinite(angle)) return IK2D_ERR_POSE;
  if (ik2d_same_bits(chain->pose[i], angle) && ik2d_same_bits(chain->angle[i], angle) &&
      chain->scale == 1.0)
    return IK2D_OK;
  chain->pose[i] = angle;
  chain->angle[i] = angle;
  chain->scale = 1.0;
  ik2d__chain_update_joints(chain);
  return IK2D_OK;
}

ik2d_status ik2d_chain_set_constraint(ik2d_chain *chain, int i,
                                      const ik2d_constraint *constraint) {
  if (chain == NULL) return IK2D_ERR_NULL;
  if (chain->link != NULL) return IK2D_ERR_LINKED;
  if (!chain_has_bone(chain, i)) return IK2D_ERR_INDEX;
  chain->constraint[i] = constraint;
  return IK2D_OK;
}

void ik2d_chain_reset(ik2d_chain *chain) {
  int i;
  if (chain == NULL || chain->link != NULL) return;
  for (i = 0; i < chain->count; i++) {
    chain->pose[i] = chain->rest[i];
    chain->angle[i] = chain->rest[i];
  }
  chain->scale = 1.0;
  ik2d__chain_update_joints(chain);
}

/* ------------------------------------------------------------------ */
/* editing the rig: lengths and rest angles                             */
/* ------------------------------------------------------------------ */

ik2d_status ik2d_chain_set_length(ik2d_chain *chain, int i, double length) {
  double reach = 0.0;
  int k;
  if (chain == NULL) return IK2D_ERR_NULL;
  if (chain->link != NULL) return IK2D_ERR_LINKED;
  if (!chain_has_bone(chain, i)) return IK2D_ERR_INDEX;
  if (ik2d__bone_check_length(length) != IK2D_OK) return IK2D_ERR_LENGTH;
  if (ik2d_same_bits(chain->length[i], length)) return IK2D_OK;
  /* summed afresh, not adjusted: no rounding accumulates over edits */
  for (k = 0; k < chain->count; k++) reach += k == i ? length : chain->length[k];
  if (!isfinite(reach)) return IK2D_ERR_REACH;
  chain->length[i] = length;
  chain->reach = reach;
  ik2d__chain_update_joints(chain);
  return IK2D_OK;
}

/* The pose and the result keep their angles; the limits, relative to
** the rest angle, move with it (a solve's warm start is clamped into
** them as any start is). */
ik2d_status ik2d_chain_set_rest(ik2d_chain *chain, int i, double angle) {
  if (chain == NULL) return IK2D_ERR_NULL;
  if (chain->link != NULL) return IK2D_ERR_LINKED;
  if (!chain_has_bone(chain, i)) return IK2D_ERR_INDEX;
  if (ik2d__bone_check_rest(angle) != IK2D_OK) return IK2D_ERR_REST;
  if (ik2d_same_bits(chain->rest[i], angle)) return IK2D_OK;
  chain->rest[i] = angle;
  chain->rest_rot[i] = ik2d_rot_angle(angle);
  /* the joints are made the angles' again, as a skeleton's are */
  ik2d__chain_update_joints(chain);
  return IK2D_OK;
}

/* ------------------------------------------------------------------ */
/* reads                                                                */
/* ------------------------------------------------------------------ */

/* One per-bone double: IK2D_ERR_INDEX outside the chain. */
static ik2d_status chain_read(const ik2d_chain *chain, int i,
                              const double *array_of_chain, double *out) {
  if (chain == NULL || out == NULL) return IK2D_ERR_NULL;
  if (!chain_has_bone(chain, i)) return IK2D_ERR_INDEX;
  *out = array_of_chain[i];
  return IK2D_OK;
}

ik2d_status ik2d_chain_pose(const ik2d_chain *chain, int i, double *angle) {
  return chain_read(chain, i, chain != NULL ? chain->pose : NULL, angle);
}

ik2d_status ik2d_chain_angle(const ik2d_chain *chain, int i, double *angle) {
  return chain_read(chain, i, chain != NULL ? chain->angle : NULL, angle);
}

ik2d_status ik2d_chain_length(const ik2d_chain *chain, int i, double *length) {
  return chain_read(chain, i, chain != NULL ? chain->length : NULL, length);
}

ik2d_status ik2d_chain_rest(const ik2d_chain *chain, int i, double *angle) {
  return chain_read(chain, i, chain != NULL ? chain->rest : NULL, angle);
}

ik2d_status ik2d_chain_world_angle(const ik2d_chain *chain, int i,
                                   double *angle) {
  double world;
  int k;
  if (chain == NULL || angle == NULL) return IK2D_ERR_NULL;
  if (!chain_has_bone(chain, i)) return IK2D_ERR_INDEX;
  world = chain->base_angle;
  /* wrapped at each step, as the joints are */
  for (k = 0; k <= i; k++) world = ik2d_wrap(world + chain->angle[k]);
  /* mirroring about a vertical line maps a direction phi to pi - phi */
  *angle = chain->flip ? ik2d_wrap(IK2D_PI - world) : world;
  return IK2D_OK;
}

ik2d_status ik2d_chain_constraint(const ik2d_chain *chain, int i,
                                  const ik2d_constraint **constraint) {
  if (chain == NULL || constraint == NULL) return IK2D_ERR_NULL;
  if (!chain_has_bone(chain, i)) return IK2D_ERR_INDEX;
  *constraint = chain->constraint[i];
  return IK2D_OK;
}

ik2d_status ik2d_chain_joint(const ik2d_chain *chain, int i, double *x,
                             double *y) {
  if (chain == NULL || x == NULL || y == NULL) return IK2D_ERR_NULL;
  if (i < 0 || i > chain->count) return IK2D_ERR_INDEX;
  *x = chain->joints[2 * i];
  *y = chain->joints[2 * i + 1];
  return IK2D_OK;
}

const double *ik2d_chain_joints(const ik2d_chain *chain) {
  return chain != NULL ? chain->joints : NULL;
}

const double *ik2d_chain_angles(const ik2d_chain *chain) {
  return chain != NULL ? chain->angle : NULL;
}

double ik2d_chain_reach(const ik2d_chain *chain) {
  return chain != NULL ? chain->reach : 0.0;
}

double ik2d_chain_scale(const ik2d_chain *chain) {
  return chain != NULL ? chain->scale : 1.0;
}

bool ik2d_chain_uniform(const ik2d_chain *chain) {
  return chain != NULL && chain->uniform;
}

/* ------------------------------------------------------------------ */
/* forward kinematics                                                   */
/* ------------------------------------------------------------------ */

void ik2d__chain_update_joints(ik2d_chain *chain) {
  double x = chain->base_x, y = chain->base_y, world = chain->base_angle;
  ik2d_rot dir;
  double scale = chain->scale, *joints = chain->joints;
  int i;
  joints[0] = x;
  joints[1] = y;
  for (i = 0; i < chain->count; i++) {
    /* wrapped at each step: rest angles near 1e308 would sum to inf */
    world = ik2d_wrap(world + chain->angle[i]);
    dir = ik2d_rot_angle(world);
    x += chain->length[i] * scale * dir.c;
    y += chain->length[i] * scale * dir.s;
    joints[2 * i + 2] = x;
    joints[2 * i + 3] = y;
  }
  if (chain->flip) {
    for (i = 1; i <= chain->count; i++)
      joints[2 * i] = 2.0 * chain->base_x - joints[2 * i];
  }
}

/* ------------------------------------------------------------------ */
/* for skeleton chains (ik2d_skeleton.c)                                */
/* ------------------------------------------------------------------ */


void ik2d__chain_keep_base(ik2d_chain *chain, double x, double y, double angle) {
  chain_keep_base(chain, x, y, angle);
}
