/*
** ik2d_batch.c: many solvers in one call (one call per frame from Lua).
*/
#include <stddef.h>

#include "ik2d.h"

int ik2d_solve_batch(ik2d_solver *const *solvers, int count) {
  int i, reached = 0;
  if (solvers == NULL) return 0;
  for (i = 0; i < count; i++) {
    if (solvers[i] != NULL) reached += ik2d_solver_solve(solvers[i]);
  }
  return reached;
}
