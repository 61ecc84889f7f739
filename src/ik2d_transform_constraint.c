/*
** ik2d_transform_constraint.c: transform constraints on a skeleton.
**
** A constraint keeps its settings and its own copy of its bones' indices
** after its header, and joins its skeleton's list (as a solver joins it
** through its chain).  Applying it is the general bone model's work: in
** world space each bone's map in the skeleton's space moves by the
** target's (ik2d_transform_world), and the local transform that places it
** there is worked out for what reads it next (a later constraint's local
** mode, an IK's turn); in local space the local transforms move and the
** bones are placed from them.  Either way the bones below follow.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ik2d.h"
#include "ik2d_bone.h"
#include "ik2d_checks.h"
#include "ik2d_skeleton.h"
#include "ik2d_transform.h"

struct ik2d_transform_constraint {
  ik2d_skeleton *skeleton;          /* NULL once released */
  ik2d_transform_constraint_def settings;  /* bones: the copy below */
  int *bones;
};

static size_t header_size(void) {
  return (sizeof(ik2d_transform_constraint) + 7u) & ~(size_t)7u;
}

size_t ik2d_transform_constraint_size(int bone_count) {
  if (bone_count < 1 || bone_count > IK2D_MAX_SKELETON_BONES) return 0;
  return header_size() + (size_t)bone_count * sizeof(int);
}

/* Each bone and the target a bone of the skeleton, no bone twice, the
** target none of them. */
static ik2d_status constraint_bones_valid(const ik2d_transform_constraint_def *def,
                                          const ik2d_skeleton *skeleton) {
  bool seen[IK2D_MAX_SKELETON_BONES];
  int n = ik2d_skeleton_bone_count(skeleton), i;
  if (def->bones == NULL) return IK2D_ERR_NULL;
  if (def->target < 0 || def->target >= n) return IK2D_ERR_CONSTRAINT_BONE;
  memset(seen, 0, sizeof seen);
  for (i = 0; i < def->bone_count; i++) {
    int b = def->bones[i];
    if (b < 0 || b >= n) return IK2D_ERR_CONSTRAINT_BONE;
    if (seen[b]) return IK2D_ERR_CONSTRAINT_TWICE;
    if (b == def->target) return IK2D_ERR_CONSTRAINT_TARGET;
    seen[b] = true;
  }
  return IK2D_OK;
}

/* generated from lua/ik2d/api.lua by make gen: transform constraint check */
/* ik2d_transform_constraint_def's check as lua/ik2d/api.lua describes it:
** each field's, each rule, in its order; the first refused is the status.
** skeleton: its skeleton. */
static ik2d_status transform_constraint_def_check(const ik2d_transform_constraint_def *def,
                                                  const ik2d_skeleton *skeleton) {
  ik2d_status status;
  if (def == NULL) return IK2D_ERR_NULL;
  if ((status = ik2d__transform_constraint_check_bone_count(def->bone_count)) != IK2D_OK)
    return status;
  if ((status = constraint_bones_valid(def, skeleton)) != IK2D_OK) return status;
  if ((status = ik2d__transform_constraint_check_mix_rotate(def->mix_rotate)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_mix_x(def->mix_x)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_mix_y(def->mix_y)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_mix_scale_x(def->mix_scale_x)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_mix_scale_y(def->mix_scale_y)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_mix_shear_y(def->mix_shear_y)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_offset_rotation(def->offset_rotation)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_offset_x(def->offset_x)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_offset_y(def->offset_y)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_offset_scale_x(def->offset_scale_x)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_offset_scale_y(def->offset_scale_y)) != IK2D_OK)
    return status;
  if ((status = ik2d__transform_constraint_check_offset_shear_y(def->offset_shear_y)) != IK2D_OK)
    return status;
  return IK2D_OK;
}
/* end generated */

/* Keeps a checked def, its bones copied into the constraint's own. */
static void transform_constraint_keep_def(ik2d_transform_constraint *tc,
                                          const ik2d_transform_constraint_def *def) {
  if (def->bones != tc->bones)
    memcpy(tc->bones, def->bones, (size_t)def->bone_count * sizeof(int));
  tc->settings = *def;
  tc->settings.bones = tc->bones;
}

/* generated from lua/ik2d/api.lua by make gen: transform_constraint setters */
/* A setter checks a copy of the settings with the new values: the checks of
** those fields and the rules that read them, in
** transform_constraint_def_check's order; then keeps it as a whole def is
** kept. A switch turned off needs no check. */

ik2d_status ik2d_transform_constraint_set_mix_rotate(ik2d_transform_constraint *transform_constraint,
                                                     double mix_rotate) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.mix_rotate = mix_rotate;
  if ((status = ik2d__transform_constraint_check_mix_rotate(def.mix_rotate)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_mix_x(ik2d_transform_constraint *transform_constraint,
                                                double mix_x) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.mix_x = mix_x;
  if ((status = ik2d__transform_constraint_check_mix_x(def.mix_x)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_mix_y(ik2d_transform_constraint *transform_constraint,
                                                double mix_y) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.mix_y = mix_y;
  if ((status = ik2d__transform_constraint_check_mix_y(def.mix_y)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_mix_scale_x(ik2d_transform_constraint *transform_constraint,
                                                      double mix_scale_x) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.mix_scale_x = mix_scale_x;
  if ((status = ik2d__transform_constraint_check_mix_scale_x(def.mix_scale_x)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_mix_scale_y(ik2d_transform_constraint *transform_constraint,
                                                      double mix_scale_y) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.mix_scale_y = mix_scale_y;
  if ((status = ik2d__transform_constraint_check_mix_scale_y(def.mix_scale_y)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_mix_shear_y(ik2d_transform_constraint *transform_constraint,
                                                      double mix_shear_y) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.mix_shear_y = mix_shear_y;
  if ((status = ik2d__transform_constraint_check_mix_shear_y(def.mix_shear_y)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_offset_rotation(ik2d_transform_constraint *transform_constraint,
                                                          double offset_rotation) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.offset_rotation = offset_rotation;
  if ((status = ik2d__transform_constraint_check_offset_rotation(def.offset_rotation)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_offset_x(ik2d_transform_constraint *transform_constraint,
                                                   double offset_x) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.offset_x = offset_x;
  if ((status = ik2d__transform_constraint_check_offset_x(def.offset_x)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_offset_y(ik2d_transform_constraint *transform_constraint,
                                                   double offset_y) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.offset_y = offset_y;
  if ((status = ik2d__transform_constraint_check_offset_y(def.offset_y)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_offset_scale_x(ik2d_transform_constraint *transform_constraint,
                                                         double offset_scale_x) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.offset_scale_x = offset_scale_x;
  if ((status = ik2d__transform_constraint_check_offset_scale_x(def.offset_scale_x)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_offset_scale_y(ik2d_transform_constraint *transform_constraint,
                                                         double offset_scale_y) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.offset_scale_y = offset_scale_y;
  if ((status = ik2d__transform_constraint_check_offset_scale_y(def.offset_scale_y)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_offset_shear_y(ik2d_transform_constraint *transform_constraint,
                                                         double offset_shear_y) {
  ik2d_transform_constraint_def def;
  ik2d_status status;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.offset_shear_y = offset_shear_y;
  if ((status = ik2d__transform_constraint_check_offset_shear_y(def.offset_shear_y)) != IK2D_OK)
    return status;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_local(ik2d_transform_constraint *transform_constraint,
                                                bool local_space) {
  ik2d_transform_constraint_def def;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.local_space = local_space;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}

ik2d_status ik2d_transform_constraint_set_relative(ik2d_transform_constraint *transform_constraint,
                                                   bool relative) {
  ik2d_transform_constraint_def def;
  if (transform_constraint == NULL) return IK2D_ERR_NULL;
  def = transform_constraint->settings;
  def.relative = relative;
  transform_constraint_keep_def(transform_constraint, &def);
  return IK2D_OK;
}
/* end generated */

ik2d_status ik2d_transform_constraint_init(ik2d_transform_constraint *tc, size_t size,
                                           ik2d_skeleton *skeleton,
                                           const ik2d_transform_constraint_def *def) {
  ik2d_status status;
  if (tc == NULL || skeleton == NULL || def == NULL) return IK2D_ERR_NULL;
  if ((uintptr_t)tc % sizeof(double) != 0) return IK2D_ERR_ALIGNMENT;
  status = transform_constraint_def_check(def, skeleton);
  if (status != IK2D_OK) return status;
  if (size < ik2d_transform_constraint_size(def->bone_count)) return IK2D_ERR_SIZE;
  if (!ik2d__skeleton_link_constraint(skeleton, tc)) return IK2D_ERR_SKELETON_CONSTRAINTS;
  tc->skeleton = skeleton;
  tc->bones = (int *)(void *)((char *)tc + header_size());
  transform_constraint_keep_def(tc, def);
  return IK2D_OK;
}

void ik2d_transform_constraint_release(ik2d_transform_constraint *tc) {
  if (tc == NULL || tc->skeleton == NULL) return;
  ik2d__skeleton_unlink_constraint(tc->skeleton, tc);
  tc->skeleton = NULL;
}

ik2d_status ik2d_transform_constraint_set_def(ik2d_transform_constraint *tc,
                                              const ik2d_transform_constraint_def *def) {
  ik2d_status status;
  if (tc == NULL || def == NULL) return IK2D_ERR_NULL;
  if (tc->skeleton == NULL) return IK2D_ERR_NULL;
  if (def->bone_count != tc->settings.bone_count) return IK2D_ERR_CONSTRAINT_BONES;
  status = transform_constraint_def_check(def, tc->skeleton);
  if (status == IK2D_OK) transform_constraint_keep_def(tc, def);
  return status;
}

ik2d_transform_constraint_def ik2d_transform_constraint_get_def(
    const ik2d_transform_constraint *tc) {
  return tc != NULL ? tc->settings : ik2d_default_transform_constraint_def();
}

ik2d_skeleton *ik2d_transform_constraint_skeleton(const ik2d_transform_constraint *tc) {
  return tc != NULL ? tc->skeleton : NULL;
}

/* The mixes and offsets of the settings. */
static void mixes_of(const ik2d_transform_constraint_def *d, ik2d_transform_mix *mix,
                     ik2d_transform_mix *offset) {
  mix->rotate = d->mix_rotate;
  mix->x = d->mix_x;
  mix->y = d->mix_y;
  mix->scale_x = d->mix_scale_x;
  mix->scale_y = d->mix_scale_y;
  mix->shear_y = d->mix_shear_y;
  offset->rotate = d->offset_rotation;
  offset->x = d->offset_x;
  offset->y = d->offset_y;
  offset->scale_x = d->offset_scale_x;
  offset->scale_y = d->offset_scale_y;
  offset->shear_y = d->offset_shear_y;
}

/* World space: bone b's map moves by the target's (the maps as they were
** before this constraint: a bone below another of its bones is not placed
** from that one first), and its local transform becomes what places it
** there. */
static void apply_world(ik2d_skeleton *sk, int b, int target, const ik2d_transform_mix *mix,
                        const ik2d_transform_mix *offset, bool relative) {
  ik2d_affine world = sk->world[b];
  ik2d_bone_local before = ik2d__skeleton_local(sk, b), after;
  ik2d_transform_world(mix, offset, relative, &sk->world[target], &world);
  ik2d_bone_local_from_world(ik2d__skeleton_parent_world(sk, b), &world,
                             (ik2d_inherit)sk->inherit[b], sk->scale_x, sk->scale_y, &before,
                             &after);
  ik2d__skeleton_set_local(sk, b, &after);
  sk->world[b] = world;
}

/* Local space: bone b's local transform moves by the target's, and b and
** the bones below are placed from it. */
static void apply_local(ik2d_skeleton *sk, int b, int target, const ik2d_transform_mix *mix,
                        const ik2d_transform_mix *offset, bool relative) {
  ik2d_bone_local local = ik2d__skeleton_local(sk, b);
  ik2d_bone_local from = ik2d__skeleton_local(sk, target);
  ik2d_transform_local(mix, offset, relative, &from, &local);
  ik2d__skeleton_set_local(sk, b, &local);
  ik2d__skeleton_moved(sk, b);
}

void ik2d_transform_constraint_apply(ik2d_transform_constraint *tc) {
  const ik2d_transform_constraint_def *d;
  ik2d_transform_mix mix, offset;
  bool kept[IK2D_MAX_SKELETON_BONES];
  ik2d_skeleton *sk;
  int i;
  if (tc == NULL || tc->skeleton == NULL) return;
  sk = tc->skeleton;
  d = &tc->settings;
  ik2d__skeleton_make_general(sk);
  ik2d__skeleton_settle(sk);
  mixes_of(d, &mix, &offset);
  if (d->local_space) {
    for (i = 0; i < d->bone_count; i++)
      apply_local(sk, d->bones[i], d->target, &mix, &offset, d->relative);
    return;
  }
  memset(kept, 0, sizeof kept);
  for (i = 0; i < d->bone_count; i++) {
    apply_world(sk, d->bones[i], d->target, &mix, &offset, d->relative);
    kept[d->bones[i]] = true;
  }
  /* each bone keeps its new map; the bones below them follow */
  ik2d__skeleton_worlds_moved(sk, kept);
}
