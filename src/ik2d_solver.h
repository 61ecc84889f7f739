/*
** ik2d_solver.h: solvers inside the core (not installed).
*/
#ifndef IK2D_SOLVER_H
#define IK2D_SOLVER_H

#include "ik2d.h"
#include "ik2d_chain.h"
#include "ik2d_math.h"
#include "ik2d_pose.h"
#include "ik2d_skeleton.h"

/* The header of a solver; its warm-start arrays follow it in the same
** memory (ik2d_solver_size), one entry per bone of its chain. */
struct ik2d_solver {
  ik2d_chain *chain;         /* first: a skeleton reads it there
                                (ik2d_chain_release, ik2d_skeleton.c) */
  ik2d_skeleton *target_skeleton; /* NULL: the target is a world point;
                                else it is on bone target_bone of this
                                skeleton (ik2d_solver_set_target_bone) */
  ik2d_solver_def settings;  /* as set, checked */
  double target_x, target_y; /* the world point, or with target_skeleton
                                the point in the bone's space */
  ik2d_result result;
#ifdef IK2D_STATS
  int joint_updates;         /* CCD turns of single joints in the last
                                solve, for benchmarks */
#endif
  /* (the flags, target_bone and joint_stalls share the 4 bytes after
  ** joint_updates: a solver of 3 bones and its chain stay under 1 KB,
  ** spec/memory_spec.lua) */
  bool has_target : 1;       /* false: the target is the chain's tip */
  bool have_solution : 1;    /* the warm start holds a solution */
  bool angles_held : 1;      /* ik2d_solution_angle is ik2d_atan2 of each
                                solution rotation (ik2d_solve_commit) */
  unsigned char target_bone; /* with target_skeleton: 0..255, as
                                IK2D_MAX_SKELETON_BONES allows */
  unsigned short joint_stalls; /* joint solves in a row that ended
                                unreached, counted 1..65535 and round again
                                (it seeds their scattered start); a
                                skeleton keeps its solvers in an array of
                                its own, not in a node of each solver:
                                a solver of 3 bones and its chain stay
                                under 1 KB (spec/memory_spec.lua) */
  ik2d_rot solution[];       /* the last IK solution's rotations, one per
                                bone, then their angles in [-pi, pi]
                                (ik2d_solution_angle): found from the
                                solver's address, not kept in pointers */
};

/* The largest turn of a joint update as a rotation, from
** settings.ccd.damping: 0 or a half turn or more is none (cos = -1 lets
** every turn pass).  Found at each solve, not kept: a 3-bone chain and
** its solver stay under 1 KB (spec/memory_spec.lua). */
static inline ik2d_rot ik2d_solver_damping(const ik2d_solver *solver) {
  double damping = solver->settings.ccd.damping;
  if (damping == 0.0 || damping >= IK2D_PI) return ik2d_rot_of(-1.0, 0.0);
  return ik2d_rot_angle(damping);
}

/* The angles of the last IK solution's rotations. */
static inline double *ik2d_solution_angle(ik2d_solver *solver) {
  return (double *)(void *)(solver->solution + solver->chain->count);
}

/* The check ik2d_solver_set_target makes of a target. */
static inline ik2d_status ik2d_solver_check_target(double x, double y) {
  if (!isfinite(x)) return IK2D_ERR_TARGET_X;
  if (!isfinite(y)) return IK2D_ERR_TARGET_Y;
  return IK2D_OK;
}

/* The target; until the first set_target, the chain's result tip, so
** that a target never starts somewhere the chain has left; on a bone,
** the bone's point where the bone is now. */
static inline void ik2d_solve_target_of(const ik2d_solver *solver, double *x, double *y) {
  if (solver->target_skeleton != NULL) {
    ik2d_skeleton_point(solver->target_skeleton, solver->target_bone, solver->target_x,
                        solver->target_y, x, y);
  } else if (solver->has_target) {
    *x = solver->target_x;
    *y = solver->target_y;
  } else {
    const ik2d_chain *chain = solver->chain;
    *x = chain->joints[2 * chain->count];
    *y = chain->joints[2 * chain->count + 1];
  }
}

/* ik2d_solver_set_target for a checked point (ik2d_solver_check_target). */
static inline void ik2d_solver_keep_target(ik2d_solver *solver, double x, double y) {
  solver->target_skeleton = NULL;
  solver->target_bone = 0;
  solver->target_x = x;
  solver->target_y = y;
  solver->has_target = true;
}

/* Where a solve aims: the target in chain space (mirrored about x =
** base_x when the chain is flipped). */
static inline void ik2d_solve_aim(const ik2d_solver *solver, double *x, double *y) {
  const ik2d_chain *chain = solver->chain;
  double target_x;
  ik2d_solve_target_of(solver, &target_x, y);
  *x = chain->flip ? 2.0 * chain->base_x - target_x : target_x;
}

/* Whether a solve starts from the last solution (else from the pose). */
static inline bool ik2d_solve_warm(const ik2d_solver *solver) {
  return solver->settings.warm_start && solver->have_solution;
}

/* Bone i's animated pose as a rotation. */
static inline ik2d_rot ik2d_solve_pose_rot(const ik2d_chain *chain, int i) {
  return ik2d_rot_angle(chain->pose[i]);
}

/* Bone i's rotation a solve starts from (before its limit). */
static inline ik2d_rot ik2d_solve_start_rot(const ik2d_solver *solver, bool warm, int i) {
  return warm ? solver->solution[i] : ik2d_solve_pose_rot(solver->chain, i);
}

/* The middle of limited bone i's arc: the rest rotation times the range's
** middle, no trig per solve (a world-space limit reads it as a world
** direction). */
static inline ik2d_rot ik2d_solve_limit_mid(const ik2d_chain *chain, int i) {
  return ik2d_rot_mul(chain->rest_rot[i], chain->constraint[i]->mid_rot);
}

#ifdef IK2D_STATS
/* Turns of single joints in the last solve (benchmarks count them). */
int ik2d_solver_joint_updates(const ik2d_solver *solver);
#endif

/* ik2d_solver_solve in two halves around the method's run, so that a
** batch can run CCD on several chains at once in between.
** ik2d_solve_start: false when there is nothing to run (weight 0), else
** fills the pose and the start rotations.
** ik2d_solve_finish: everything after the run (or, when start returned
** false, instead of it); returns whether the target is reached. */
bool ik2d_solve_start(ik2d_solver *solver, ik2d_pose *pose, ik2d_rot *start);
bool ik2d_solve_finish(ik2d_solver *solver, ik2d_pose *pose,
                       const ik2d_rot *start, int used);
/* The result's reached and distance, from the chain's tip now. */
bool ik2d_solver_measure(ik2d_solver *solver);

/* The pieces of ik2d_solve_start and ik2d_solve_finish a batch's lanes
** call around their own arithmetic.
** ik2d_solve_prepare: the pose a solve starts from (chain space, warm
** start or pose, within limits); ik2d_solve_prepare_fields only what is
** not per bone (no world-space limit: world_limits 0).
** ik2d_solve_sane: false for a run that broke (NaN or far off unit
** rotations); else rotations back on unit length and within limits
** (pose->fresh false if one moved).
** ik2d_solve_commit: with ik2d_solution_angle(solver) already the angles of
** pose->rot (weight > 0), writes the solution, the chain's result and
** the outcome; returns whether the target is reached. */
void ik2d_solve_prepare(ik2d_pose *pose, const ik2d_solver *solver);
void ik2d_solve_prepare_fields(ik2d_pose *pose, const ik2d_solver *solver);
bool ik2d_solve_sane(ik2d_pose *pose);
bool ik2d_solve_commit(ik2d_solver *solver, ik2d_pose *pose, int used);
/* Pieces of ik2d_solve_commit.  The result angle of bone i: its pose plus
** weight x the turn to the IK angle ik (inside the bone's limits); inline:
** a solve blends every bone. */
static inline double ik2d_solve_blend_bone(const ik2d_chain *chain, int i, double ik,
                                           double weight) {
  double pose = chain->pose[i];
  double delta = ik2d_constraint_turn(chain->constraint[i], chain->rest[i], pose, ik);
  return weight == 1.0 ? pose + delta : pose + weight * delta;
}
/* The outcome, from the chain's result joints: distance to the target,
** reached, iterations (used); returns reached. */
bool ik2d_solve_result(ik2d_solver *solver, int used);

/* After a CCD run that stopped short of a target the chain can reach
** (it stalled or crawled in a fold a far target needs undone), FABRIK
** from where CCD stopped for the rest of the iterations, keeping the best
** pose; only with settings->ccd.exact (textbook CCD stays textbook).  Returns
** the iterations used in all. */
int ik2d_solve_ccd_fallback(ik2d_pose *pose, int used);

/* A solve that is CCD and nothing else (no tip angle, pole or one-bone
** scale), with something to solve (weight > 0): what a batch runs in
** lockstep. */
static inline bool ik2d_solve_is_plain_ccd(const ik2d_solver *solver) {
  const ik2d_solver_def *settings = &solver->settings;
  return settings->method == IK2D_CCD && settings->weight > 0.0 && !settings->tip.enabled &&
         !settings->pole.enabled && !settings->aim.enabled &&
         /* one bone that stretches or compresses scales */
         !(solver->chain->count == 1 &&
           (settings->two_bone.stretch > 1.0 || settings->two_bone.compress < 1.0));
}

#endif
