/*
** ik2d_bone.h: the artist's bone model (not installed).
**
** A bone as animation tools rig it: a local transform (translation,
** rotation, scale, shear) composed with its parent's world transform in
** one of five ways, under a skeleton scale.  This layer is the maths of
** one bone, on plain values: the skeleton keeps the bones and calls it.
**
** Matrices are Spine's: x axis (a, c), y axis (b, d), origin (x, y), so
** that the point (u, v) of a bone's space is at (a u + b v + x, c u + d v
** + y).  The bone's local linear map of rotation r, scale (sx, sy) and
** shear (hx, hy) turns its x axis by r + hx and its y axis by r + pi/2 + hy:
**
**     L = | cos(r + hx) sx   -sin(r + hy) sy |
**         | sin(r + hx) sx    cos(r + hy) sy |
**
** (cos(t + pi/2) = -sin t: the quarter turn is exact, not rounded.)  All
** of it is in the skeleton's own space, before its base (position, angle,
** flip), which the skeleton applies as one rigid motion afterwards.
*/
#ifndef IK2D_BONE_H
#define IK2D_BONE_H

#include "ik2d.h"
#include "ik2d_math.h"

/* An affine map: linear part [a b; c d] and translation (x, y). */
typedef struct ik2d_affine {
  double a, b, c, d, x, y;
} ik2d_affine;

/* A squared axis length below this is an axis that vanished: a bone
** scaled to nothing has no direction to keep or to drop. */
#define IK2D_BONE_VANISHED 1e-4

/* The local linear map L above (its translation is the local x, y). */
void ik2d_bone_local_matrix(const ik2d_bone_local *local, ik2d_affine *out);

/* The world transform of a bone from its local transform: under parent
** (NULL: a root, whose parent is the skeleton: its scale (sx, sy) at the
** origin), composed as inherit says. */
void ik2d_bone_place(const ik2d_affine *parent, const ik2d_bone_local *local,
                     ik2d_inherit inherit, double sx, double sy, ik2d_affine *out);

/* The space a bone turns in: world = frame x R(angle) x (the rest of its
** local map), for the modes where that holds (all, position, no rotation
** or reflection; the no-scale modes turn in their parent's space as far
** as the direction of their x axis goes, which is what aiming needs).
** frame's translation is the bone's own origin; *offset is the angle the
** frame's own x axis adds (no rotation or reflection keeps the skeleton's
** angle: it takes the parent's scale along the parent's direction). */
void ik2d_bone_turn_frame(const ik2d_affine *parent, const ik2d_bone_local *local,
                          ik2d_inherit inherit, double sx, double sy, ik2d_affine *frame,
                          double *offset);

/* The local transform that places the bone at world (the inverse of
** ik2d_bone_place), shear x taken as 0: what a constraint that moved a
** bone in world space leaves for the next one to read.  current is the
** bone's local transform before (the no-scale modes' frame depends on the
** rotation). */
void ik2d_bone_local_from_world(const ik2d_affine *parent, const ik2d_affine *world,
                                ik2d_inherit inherit, double sx, double sy,
                                const ik2d_bone_local *current, ik2d_bone_local *out);

/* p = m q for linear parts (translations: m's, then m applied to q's). */
void ik2d_affine_mul(const ik2d_affine *m, const ik2d_affine *q, ik2d_affine *p);
/* The point (u, v) of m's space. */
static inline void ik2d_affine_point(const ik2d_affine *m, double u, double v, double *x,
                                     double *y) {
  *x = m->a * u + m->b * v + m->x;
  *y = m->c * u + m->d * v + m->y;
}
/* (u, v) such that m maps it to (x, y); false (and 0, 0) when m is
** singular. */
bool ik2d_affine_solve(const ik2d_affine *m, double x, double y, double *u, double *v);

#endif
