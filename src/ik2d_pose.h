/*
** ik2d_pose.h: the pose a solve works on (not installed).
**
** A solve works in chain space (the chain unflipped) on unit complex
** rotations, so its inner loops need no trig.  The pose lives on the
** stack of a solve; every method (ccd, fabrik, two_bone) turns its start
** rotations into an IK solution with the helpers here.
*/
#ifndef IK2D_POSE_H
#define IK2D_POSE_H

#include <math.h>

#include "ik2d.h"
#include "ik2d_chain.h"
#include "ik2d_math.h"
#include "ik2d_numbers.h"

typedef struct ik2d_pose {
  const ik2d_chain *chain;
  const ik2d_solver_def *settings;  /* the solve's iterations, exact,
                                       sweep, bend, softness, stretch */
  int count;                        /* bones solved (a tip angle
                                       leaves the last one out) */
  int iterations;                   /* this run's budget */
  double reach;                     /* of the bones solved */
  double target_x, target_y;        /* chain space */
  bool pole;                        /* bend toward the pole */
  double pole_x, pole_y;            /* chain space */
  bool limited;                     /* a limit forbade the bend side or
                                       the pole asked for */
  int world_limits;                 /* 1 + the last bone with a world-
                                       space limit; 0: none */
  double tolerance_sq;
  ik2d_rot damping;                 /* the largest CCD turn; cos -1 lets
                                       every turn pass */
  ik2d_rot base;
  double base_x, base_y;            /* where the solution puts the base,
                                       chain space: the chain's base, but
                                       for follow, which moves it */
  ik2d_rot rot[IK2D_MAX_BONES];     /* local rotation of each bone */
  /* limited bones: the middle of the allowed arc, in parent space (or
  ** in world space for a world-space limit) */
  ik2d_rot limit_mid[IK2D_MAX_BONES];
  double scale;       /* bone scale of the solution: 1, or the two-bone
                         stretch (joint_x/y are always unscaled) */
  bool fresh;         /* joint_x/y are those of the rotations now */
#ifdef IK2D_STATS
  int joint_updates;  /* CCD turns of single joints, for benchmarks */
#endif
  double joint_x[IK2D_MAX_BONES + 1]; /* from the last ik2d_pose_forward */
  double joint_y[IK2D_MAX_BONES + 1];
} ik2d_pose;

/* Copies the rotations out, or back in (the joints are then stale until
** the next forward pass). */
void ik2d_pose_save(const ik2d_pose *pose, ik2d_rot *rot);
void ik2d_pose_load(ik2d_pose *pose, const ik2d_rot *rot);

/* Positions of every joint from the rotations, from pose->base_x/y.
** Every rotation is a
** product of unit ones, off unit length by a few ulps a turn; the solve
** puts them back on it at the end when that grows past 1e-14, not here
** on every pass. */
void ik2d_pose_forward(ik2d_pose *pose);

/* Squared distance from the tip of the last forward pass to the target. */
static inline double ik2d_pose_tip_distance_sq(const ik2d_pose *pose) {
  double dx = pose->target_x - pose->joint_x[pose->count];
  double dy = pose->target_y - pose->joint_y[pose->count];
  return dx * dx + dy * dy;
}

/* The middle of world-space limited bone i's allowed arc as a local
** rotation: the world middle seen from the parent's world rotation. */
ik2d_rot ik2d_pose_world_limit_mid(const ik2d_pose *pose, int i);

/* The middle of bone i's allowed arc as a local rotation (inline: the
** methods ask for it at every clamp). */
static inline ik2d_rot ik2d_pose_limit_mid(const ik2d_pose *pose, int i) {
  const ik2d_constraint *limit = pose->chain->constraint[i];
  /* a free bone or a full circle has no middle (the solve writes none;
  ** the clamp ignores it): a defined one, never an unwritten slot */
  if (limit == NULL || limit->full) return ik2d_rot_of(1.0, 0.0);
  if (limit->def.space != IK2D_SPACE_WORLD) return pose->limit_mid[i];
  return ik2d_pose_world_limit_mid(pose, i);
}

/* Moves rotation i into its limits; returns true if it had to. */
static inline bool ik2d_pose_clamp(ik2d_pose *pose, int i) {
  const ik2d_constraint *limit = pose->chain->constraint[i];
  if (limit == NULL) return false;
  if (limit->def.space == IK2D_SPACE_WORLD)
    return ik2d__constraint_clamp_rot(limit, ik2d_pose_limit_mid(pose, i), &pose->rot[i]);
  return ik2d__constraint_clamp_rot(limit, pose->limit_mid[i], &pose->rot[i]);
}

/* After turns of the bones before first: each world-space limited bone
** from first on (their world directions turned with their parents) back
** into its limits; returns true if one moved (the joints are then stale). */
bool ik2d_pose_settle_world(ik2d_pose *pose, int first);

/* Points the chain straight at an out-of-reach target when the limits
** allow it; returns true if it did. */
bool ik2d_pose_straighten(ik2d_pose *pose);

/* The world rotation of bone i (the base's times every local one up to
** i); i = -1 gives the base's. */
ik2d_rot ik2d_pose_world(const ik2d_pose *pose, int i);

/* Turns the chain's middle joints toward the pole, the base and tip kept:
** the whole chain mirrored across the base-tip line when most of it
** bends away from the pole, then each middle joint mirrored across the
** line through its neighbours when that brings it nearer.  A mirror a
** limit forbids is not made, and pose->limited says so. */
void ik2d_pose_toward_pole(ik2d_pose *pose);

/* Whether a limited bone ends on the edge of its allowed arc. */
bool ik2d_pose_on_limit(const ik2d_pose *pose);
/* Whether a bone limited by limit (not full) whose rotation is rel from
** its arc's middle ends on an edge of the arc. */
static inline bool ik2d_pose_rel_on_limit(const ik2d_constraint *limit, ik2d_rot rel) {
  /* no atan2 for a bone clearly inside: cos has slope at most 1, so a
  ** cos above cos(half) + IK2D_ON_LIMIT + 1e-9 puts the angle 1e-9 below
  ** half - IK2D_ON_LIMIT, where the roundings here and atan2's are
  ** 1e-15: the test below would say false */
  if (rel.c > (limit->half_rot.c + (IK2D_ON_LIMIT + 1e-9)) * sqrt(rel.c * rel.c + rel.s * rel.s))
    return false;
  return fabs(ik2d_atan2(rel.s, rel.c)) >= limit->half - IK2D_ON_LIMIT;
}

/* The exact two-joint step: turns the best pair of joints so that the
** tip lands on the target (law of cosines), inside limits and damping,
** kept only if it gains.  Needs the joints of the last forward pass and
** their squared tip distance in *distance_sq, which it updates; returns
** true if it applied a pair (the joints are then those of the new pose). */
bool ik2d_pose_exact_step(ik2d_pose *pose, double *distance_sq);

/* The limited pair step: the pair of joints (one of them limited) and
** their allowed rotations that bring the tip nearest the target, kept
** only if it gains; for runs that end short of the target, where a limit
** forbids the exact answer.  Needs and updates as the exact step; does
** nothing with a world-space limit. */
bool ik2d_pose_limited_step(ik2d_pose *pose, double *distance_sq);

#endif
