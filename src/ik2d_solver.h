/*
** ik2d_solver.h: solvers inside the core (not installed).
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
  ik2d_solver_def settings;  /* as set, checked */
  ik2d_rot damping;          /* of settings.damping: (-1, 0) for none */
  double target_x, target_y;
  bool has_target;           /* false: the target is the chain's tip */
  bool have_solution;        /* the warm start holds a solution */
  ik2d_result result;
  int joint_updates;         /* CCD turns of single joints in the last
                                solve, for benchmarks */
  ik2d_rot *solution;        /* the last IK solution's rotations */
  double *solution_angle;    /* and their angles, in [-pi, pi] */
};

/* The check ik2d_solver_set_target makes of a target. */
static inline ik2d_status ik2d_solver_check_target(double x, double y) {
  if (!isfinite(x)) return IK2D_ERR_TARGET_X;
  if (!isfinite(y)) return IK2D_ERR_TARGET_Y;
  return IK2D_OK;
}

/* Turns of single joints in the last solve (benchmarks count them). */
int ik2d_solver_joint_updates(const ik2d_solver *solver);

/* ik2d_solver_solve in two halves around the method's run, so that a
** batch can run CCD on several chains at once in between.
** ik2d_solve_start: false when there is nothing to run (weight 0), else
** fills the pose and the start rotations.
** ik2d_solve_finish: everything after the run (or, when start returned
** false, instead of it); returns whether the target is reached. */
bool ik2d_solve_start(ik2d_solver *solver, ik2d_pose *pose, ik2d_rot *start);
bool ik2d_solve_finish(ik2d_solver *solver, ik2d_pose *pose,
                       const ik2d_rot *start, int used);

/* After a CCD run that stopped short of a target the chain can reach
** (it stalled or crawled in a fold a far target needs undone), FABRIK
** from where CCD stopped for the rest of the iterations, keeping the best
** pose; only with settings->exact (textbook CCD stays textbook).  Returns
** the iterations used in all. */
int ik2d_solve_ccd_fallback(ik2d_pose *pose, int used);

/* A solve that is CCD and nothing else (no tip angle, pole or one-bone
** scale), with something to solve (weight > 0): what a batch runs in
** lockstep. */
bool ik2d_solve_is_plain_ccd(const ik2d_solver *solver);

#endif
