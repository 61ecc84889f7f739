/*
** ik2d_batch.c: many solvers in one call (one call per frame from Lua).
**
** CCD solvers run IK2D_LOCKSTEP at a time through ik2d_ccd_run_together,
** which interleaves their sweeps: one chain's turn waits on a sqrt and a
** division, and the other chains' turns fill that wait.  Every chain gets
** exactly the result ik2d_solver_solve gives it; the list order is kept
** wherever it matters (solvers sharing a chain write its result in list
** order).
*/
#include <stddef.h>

#include "ik2d.h"
#include "ik2d_ccd.h"
#include "ik2d_pose.h"
#include "ik2d_solver.h"

typedef struct batch_slot {
  ik2d_solver *solver;
  ik2d_pose pose;
  ik2d_rot start[IK2D_MAX_BONES];
} batch_slot;

/* Solves the slots' CCD together; returns how many reached. */
static int batch_flush(batch_slot *slots, int count) {
  /* initialised only to quiet gcc's maybe-uninitialized */
  ik2d_pose *poses[IK2D_LOCKSTEP] = {NULL};
  int used[IK2D_LOCKSTEP];
  int k, reached = 0;
  if (count == 0) return 0;
  for (k = 0; k < count; k++) {
    ik2d_solve_start(slots[k].solver, &slots[k].pose, slots[k].start);
    poses[k] = &slots[k].pose;
  }
  ik2d_ccd_run_together(poses, used, count);
  for (k = 0; k < count; k++) used[k] = ik2d_solve_ccd_fallback(poses[k], used[k]);
  for (k = 0; k < count; k++)
    reached += ik2d_solve_finish(slots[k].solver, &slots[k].pose, slots[k].start,
                                 used[k]);
  return reached;
}

int ik2d_solve_batch(ik2d_solver *const *solvers, int count) {
  batch_slot slots[IK2D_LOCKSTEP];
  int i, k, waiting = 0, reached = 0;
  if (solvers == NULL) return 0;
  for (i = 0; i < count; i++) {
    ik2d_solver *solver = solvers[i];
    bool shares_chain = false;
    if (solver == NULL || solver->chain == NULL) continue;
    if (!ik2d_solve_is_plain_ccd(solver)) {
      reached += batch_flush(slots, waiting);
      waiting = 0;
      reached += ik2d_solver_solve(solver);
      continue;
    }
    for (k = 0; k < waiting; k++)
      shares_chain = shares_chain || slots[k].solver->chain == solver->chain;
    if (shares_chain || waiting == IK2D_LOCKSTEP) {
      reached += batch_flush(slots, waiting);
      waiting = 0;
    }
    slots[waiting++].solver = solver;
  }
  return reached + batch_flush(slots, waiting);
}

ik2d_status ik2d_set_targets(ik2d_solver *const *solvers, int count,
                             const double *xy, int *bad) {
  int i;
  if (solvers == NULL || xy == NULL) return IK2D_ERR_NULL;
  for (i = 0; i < count; i++) {
    ik2d_status status = ik2d_solver_check_target(xy[2 * i], xy[2 * i + 1]);
    if (solvers[i] != NULL && status != IK2D_OK) {
      if (bad != NULL) *bad = i;
      return status;
    }
  }
  for (i = 0; i < count; i++)
    if (solvers[i] != NULL) ik2d_solver_set_target(solvers[i], xy[2 * i], xy[2 * i + 1]);
  return IK2D_OK;
}
