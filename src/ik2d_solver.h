/*
** ik2d_solver.h: solvers inside the core (not installed).
**
** The solver layer solves a chain toward a point and knows nothing of
** skeletons: a target on a bone is resolved, and a skeleton chain's
** result written back into its skeleton, by the layer above
** (ik2d_skeleton.h, ik2d_skeleton_solve.c), which holds the public
** ik2d_solver_solve and ik2d_solvers_solve.
*/
#ifndef IK2D_SOLVER_H
#define IK2D_SOLVER_H

#include "ik2d.h"
#include "ik2d_chain.h"
#include "ik2d_math.h"
#include "ik2d_pose.h"

/* The header of a solver; its warm-start arrays follow it in the same
** memory (ik2d_solver_size), one entry per bone of its chain. */
struct ik2d_solver {
  ik2d_chain *chain;
  ik2d_skeleton *target_skeleton; /* NULL: the target is a point; else it
                                is on bone target_bone of this skeleton
                                (ik2d_solver_set_target_bone), resolved
                                by the skeleton layer: this one only
                                asks whether it is set */
  ik2d_solver_def settings;  /* as set, checked */
  double target_x, target_y; /* the world point, or with target_skeleton
                                the point in the bone's space */
  ik2d_result result;
#ifdef IK2D_STATS
  int joint_updates;         /* CCD turns of single joints in the last
                                solve, for benchmarks */
#endif
  /* (the flags, target_bone and coupled_stalls share the 4 bytes after
  ** joint_updates: a solver of 3 bones and its chain stay under 1 KB,
  ** spec/memory_spec.lua) */
  bool has_target : 1;       /* false: the target is the chain's tip */
  bool have_solution : 1;    /* the warm start holds a solution */
  bool angles_held : 1;      /* ik2d_solution_angle is ik2d_atan2 of each
                                solution rotation (solve_commit) */
  unsigned char target_bone; /* with target_skeleton: 0..255, as
                                IK2D_MAX_SKELETON_BONES allows */
  unsigned short coupled_stalls; /* coupled solves in a row that ended
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
static inline ik2d_rot ik2d__solver_damping(const ik2d_solver *solver) {
  double damping = solver->settings.ccd.damping;
  if (damping == 0.0 || damping >= IK2D_PI) return ik2d_rot_of(-1.0, 0.0);
  return ik2d_rot_angle(damping);
}

/* The angles of the last IK solution's rotations. */
static inline double *ik2d_solution_angle(ik2d_solver *solver) {
  return (double *)(void *)(solver->solution + solver->chain->count);
}

/* The check ik2d_solver_set_target makes of a target. */
static inline ik2d_status ik2d__solver_check_target(double x, double y) {
  if (!isfinite(x)) return IK2D_ERR_TARGET_X;
  if (!isfinite(y)) return IK2D_ERR_TARGET_Y;
  return IK2D_OK;
}

/* Whether the target is on a bone (the skeleton layer resolves it:
** ik2d_solver_resolve_target). */
static inline bool ik2d__solver_on_bone(const ik2d_solver *solver) {
  return solver->target_skeleton != NULL;
}

/* The target of a solver whose target is on no bone: the point set;
** until the first set_target, the chain's result tip, so that a target
** never starts somewhere the chain has left. */
static inline void ik2d__solver_point_target(const ik2d_solver *solver, double *x, double *y) {
  if (solver->has_target) {
    *x = solver->target_x;
    *y = solver->target_y;
  } else {
    const ik2d_chain *chain = solver->chain;
    *x = chain->joints[2 * chain->count];
    *y = chain->joints[2 * chain->count + 1];
  }
}

/* ik2d_solver_set_target for a checked point (ik2d__solver_check_target). */
static inline void ik2d__solver_keep_target(ik2d_solver *solver, double x, double y) {
  solver->target_skeleton = NULL;
  solver->target_bone = 0;
  solver->target_x = x;
  solver->target_y = y;
  solver->has_target = true;
}

/* Whether a solve starts from the last solution (else from the pose). */
static inline bool ik2d__solver_starts_warm(const ik2d_solver *solver) {
  return solver->settings.warm_start && solver->have_solution;
}

/* Bone i's animated pose as a rotation. */
static inline ik2d_rot ik2d__chain_pose_rot(const ik2d_chain *chain, int i) {
  return ik2d_rot_angle(chain->pose[i]);
}

/* Bone i's rotation a solve starts from (before its limit). */
static inline ik2d_rot ik2d__solver_start_rot(const ik2d_solver *solver, bool warm, int i) {
  return warm ? solver->solution[i] : ik2d__chain_pose_rot(solver->chain, i);
}

/* The middle of limited bone i's arc: the rest rotation times the range's
** middle, no trig per solve (a world-space limit reads it as a world
** direction). */
static inline ik2d_rot ik2d__chain_limit_mid(const ik2d_chain *chain, int i) {
  return ik2d_rot_mul(chain->rest_rot[i], chain->constraint[i]->mid_rot);
}

#ifdef IK2D_STATS
/* Turns of single joints in the last solve (benchmarks count them). */
int ik2d__solver_joint_updates(const ik2d_solver *solver);
#endif

/* ik2d_solver_init but for a skeleton chain's: the solver is not added
** to its skeleton's solvers (ik2d_solver_init, ik2d_skeleton.c, does
** that after this). */
ik2d_status ik2d__solver_init_unlinked(ik2d_solver *solver, size_t size, ik2d_chain *chain,
                                       const ik2d_solver_def *def);

/* The chain's solve toward (target_x, target_y), world space: the
** solution, the chain's result (angles, scale, joints) and the outcome's
** iterations and limited.  Not its reached and distance: the caller
** measures them (ik2d__solver_measure) where the target is once it has
** written the result back (a skeleton chain moves its skeleton, and a
** target on one of its bones with it). */
void ik2d__solver_solve_chain(ik2d_solver *solver, double target_x, double target_y);

/* The outcome's reached and distance for the target (target_x,
** target_y), world space, from the chain's result now; returns reached. */
bool ik2d__solver_measure(ik2d_solver *solver, double target_x, double target_y);

/* ik2d__solver_measure of a solver whose target is on no bone, where its
** target is now. */
static inline bool ik2d__solver_measure_point(ik2d_solver *solver) {
  double x, y;
  ik2d__solver_point_target(solver, &x, &y);
  return ik2d__solver_measure(solver, x, y);
}

/* ik2d__solver_solve_chain in two halves around the method's run, so
** that a batch can run CCD on several chains at once in between.
** ik2d__solver_solve_start: false when there is nothing to run (weight
** 0), else fills the pose (toward the target, world space) and the start
** rotations.
** ik2d__solver_solve_finish: everything after the run (or, when start
** returned false, instead of it). */
bool ik2d__solver_solve_start(ik2d_solver *solver, ik2d_pose *pose, ik2d_rot *start,
                              double target_x, double target_y);
void ik2d__solver_solve_finish(ik2d_solver *solver, ik2d_pose *pose, const ik2d_rot *start,
                               int used);

/* The result angle of bone i: its pose plus weight x the turn to the IK
** angle ik (inside the bone's limits); inline: a solve blends every bone,
** the lanes every limited one. */
static inline double ik2d__chain_blend_bone(const ik2d_chain *chain, int i, double ik,
                                            double weight) {
  double pose = chain->pose[i];
  double delta = ik2d__constraint_turn(chain->constraint[i], chain->rest[i], pose, ik);
  return weight == 1.0 ? pose + delta : pose + weight * delta;
}

/* After a CCD run that stopped short of a target the chain can reach
** (it stalled or crawled in a fold a far target needs undone), FABRIK
** from where CCD stopped for the rest of the iterations, keeping the best
** pose; only with settings->ccd.exact (textbook CCD stays textbook).  Returns
** the iterations used in all. */
int ik2d__solver_ccd_fallback(ik2d_pose *pose, int used);

/* A solve that is CCD and nothing else (no tip angle, pole or one-bone
** scale), with something to solve (weight > 0): what a batch runs in
** lockstep. */
static inline bool ik2d__solver_is_plain_ccd(const ik2d_solver *solver) {
  const ik2d_solver_def *settings = &solver->settings;
  return settings->method == IK2D_CCD && settings->weight > 0.0 && !settings->tip.enabled &&
         !settings->pole.enabled && !settings->aim.enabled &&
         /* one bone that stretches or compresses scales */
         !(solver->chain->count == 1 &&
           (settings->two_bone.stretch > 1.0 || settings->two_bone.compress < 1.0));
}

#endif
