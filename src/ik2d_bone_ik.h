/*
** ik2d_bone_ik.h: one- and two-bone IK on the artist's bone model (not
** installed): bones scaled, sheared and reflected, each turned in its own
** turning space (ik2d_bone_turn_frame), as Spine's IK constraint turns
** them, so that a rig from Spine solves as Spine shows it.
*/
#ifndef IK2D_BONE_IK_H
#define IK2D_BONE_IK_H

#include "ik2d.h"
#include "ik2d_bone.h"

/* What a bone IK takes of a solver's settings. */
typedef struct ik2d_bone_ik_def {
  double mix;                   /* the solver's weight: 0 none, 1 all */
  double softness;              /* two bones: ease in before full reach */
  ik2d_softness_curve curve;
  int bend;                     /* two bones: the elbow's side, 1 or -1 */
  double stretch;               /* largest scale toward a far target (1: off) */
  double compress;              /* one bone: smallest toward a near one (1: off) */
  bool uniform;                 /* stretch and compress scale y too */
} ik2d_bone_ik_def;

/* One bone under parent (NULL: a root) turned toward the target (tx, ty)
** of the skeleton's space, and stretched or compressed; its local angle
** and scale change. */
void ik2d_bone_ik_one(const ik2d_affine *parent, ik2d_inherit inherit, double sx, double sy,
                      ik2d_bone_local *bone, double length, double tx, double ty,
                      const ik2d_bone_ik_def *def);

/* A parent bone (under grandparent, NULL: a root) and its child, both
** inheriting all, bent to put the child's tip on the target; their local
** transforms change.  False (nothing changed) when one inherits less. */
bool ik2d_bone_ik_two(const ik2d_affine *grandparent, ik2d_inherit parent_inherit,
                      ik2d_inherit child_inherit, double sx, double sy,
                      ik2d_bone_local *parent, ik2d_bone_local *child, double parent_length,
                      double child_length, double tx, double ty, const ik2d_bone_ik_def *def);

#endif
