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
bool ik2d__constraint_clamp_rot(const ik2d_constraint *constraint, ik2d_rot mid,
                                ik2d_rot *r);
/* The same, inline: for the loops over every bone at a solve's start and
** end (in CCD's inner loop the call keeps its registers free). */
/* The clamp of a limited bone (not full) whose rotation *r is rel from
** mid (rel = ik2d_rot_inv_mul(mid, *r), worked out by the caller). */
static inline bool ik2d__constraint_clamp_rel_inline(const ik2d_constraint *c, ik2d_rot mid,
                                                   ik2d_rot rel, ik2d_rot *r) {
  double side, half_cos = c->half_rot.c, half_sin = c->half_rot.s;
  /* inside when |angle| <= half.  cos(angle) >= cos(half) alone is
  ** ill-conditioned near half = 0 and pi, where cos is flat: a pinned
  ** joint let 1.5e-8 rad through.  The sine decides there instead; and
  ** near half = pi/2, where the sine is flat (it let 1e-8 rad through),
  ** the cosine does. */
  if (fabs(half_cos) <= 0.7071067811865476
          ? rel.c >= half_cos
          : half_cos > 0.0 ? rel.c >= 0.0 && fabs(rel.s) <= half_sin
                           : rel.c >= 0.0 || fabs(rel.s) >= half_sin)
    return false;
  side = rel.s < 0.0 ? -half_sin : half_sin;
  *r = ik2d_rot_mul(mid, ik2d_rot_of(half_cos, side));
  return true;
}

static inline bool ik2d__constraint_clamp_rot_inline(const ik2d_constraint *c, ik2d_rot mid,
                                                     ik2d_rot *r) {
  if (c == NULL || c->full) return false;
  /* the rotation relative to the middle of the allowed arc */
  return ik2d__constraint_clamp_rel_inline(c, mid, ik2d_rot_inv_mul(mid, *r), r);
}

/* ik2d_constraint_clamp, inline: a solve's blend clamps every limited
** bone's angle (the same operations as the API's). */
static inline double ik2d__constraint_clamp_angle(const ik2d_constraint *c, double delta) {
  double centred;
  if (c == NULL || c->full) return delta;
  /* express delta in the frame centred on the range: wrap-safe */
  centred = c->mid + ik2d_wrap(delta - c->mid);
  if (centred > c->mid + c->half) return c->mid + c->half;
  if (centred < c->mid - c->half) return c->mid - c->half;
  return centred;
}

/* The turn from local angle `from` to local angle `to` of a bone whose
** rest angle is rest, for a blend from + weight * turn: for a limited
** bone, to's nearest allowed angle less from, both in the frame centred
** on the allowed arc, so a blend never sweeps through forbidden angles;
** for a free bone (NULL or a full circle) or a world-space limit (which
** bounds the world direction, not the local angle), the shortest turn. */
static inline double ik2d__constraint_turn(const ik2d_constraint *constraint,
                                           double rest, double from, double to) {
  if (constraint != NULL && !constraint->full && constraint->def.space == IK2D_SPACE_PARENT) {
    double to_rel = ik2d__constraint_clamp_angle(constraint, to - rest);
    double from_rel = constraint->mid + ik2d_wrap(from - rest - constraint->mid);
    return to_rel - from_rel;
  }
  return ik2d_wrap(to - from);
}

#endif
