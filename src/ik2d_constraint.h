/*
** ik2d_constraint.h: constraints inside the core (not installed).
*/
#ifndef IK2D_CONSTRAINT_H
#define IK2D_CONSTRAINT_H

#include "ik2d.h"
#include "ik2d_math.h"

/* The allowed deltas from the rest angle are the arc mid +- half. */
struct ik2d_constraint {
  ik2d_constraint_def def;   /* as given */
  bool full;                 /* the arc is the whole circle: no limit */
  double mid, half;
  ik2d_rot mid_rot, half_rot;
};

/* Moves rotation *r into the arc of half-width constraint->half around
** mid, the arc's middle as a rotation in the parent bone's space (the
** rest rotation times mid_rot); returns true if it had to move it.  No
** trig: the solvers clamp rotations, never angles. */
bool ik2d_constraint_clamp_rot(const ik2d_constraint *constraint, ik2d_rot mid,
                               ik2d_rot *r);

#endif
