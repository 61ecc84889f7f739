/*
** ik2d_transform.h: a transform constraint's maths (not installed): bones
** take a target bone's rotation, translation, scale and shear, each by
** its mix, with offsets, in world or local space, absolute or relative
** (Spine's transform constraint).  The skeleton applies it in its order.
*/
#ifndef IK2D_TRANSFORM_H
#define IK2D_TRANSFORM_H

#include "ik2d.h"
#include "ik2d_bone.h"

/* The mixes and offsets (angles in radians). */
typedef struct ik2d_transform_mix {
  double rotate, x, y, scale_x, scale_y, shear_y;
} ik2d_transform_mix;

/* World space: the bone's world map moves toward the target's world map
** (absolute) or by it (relative). */
void ik2d_transform_world(const ik2d_transform_mix *mix, const ik2d_transform_mix *offset,
                          bool relative, const ik2d_affine *target, ik2d_affine *bone);

/* Local space: the bone's local transform moves toward the target's
** (absolute) or by it (relative); the caller places the bone again. */
void ik2d_transform_local(const ik2d_transform_mix *mix, const ik2d_transform_mix *offset,
                          bool relative, const ik2d_bone_local *target, ik2d_bone_local *bone);

#endif
