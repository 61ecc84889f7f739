/*
** ik2d_batch.c: many solvers in one call (one call per frame from Lua).
**
** Plain CCD solvers of one bone count run together: in the lanes of one
** vector with a SIMD instruction set (ik2d_lanes.h: 2, 4 or 8 chains),
** or IK2D_LOCKSTEP at a time interleaved in the scalar one (their turns'
** sqrt and division latencies overlap).  Every chain gets exactly the
** result ik2d_solver_solve gives it; the list order is kept wherever it
** matters (solvers sharing a chain write its result in list order).
*/
#include <stddef.h>

#include "ik2d.h"
#include "ik2d_ccd.h"
#include "ik2d_isa.h"
#include "ik2d_pose.h"
#include "ik2d_solver.h"

/* the most lanes of any kernel */
#define BATCH_LANES 8

typedef struct batch_slot {
  ik2d_solver *solver;
  ik2d_pose pose;
  ik2d_rot start[IK2D_MAX_BONES];
} batch_slot;

typedef struct batch {
  ik2d_isa isa;
  int lanes, waiting, reached;
  batch_slot slots[BATCH_LANES];
} batch;

/* CCD on the poses together: the kernel of the batch's set. */
static void batch_run(const batch *b, ik2d_pose *const *poses, int *used, int count) {
  switch (b->isa) {
#if IK2D_X86
    case IK2D_ISA_SSE2: ik2d_lanes_ccd_sse2(poses, used, count); return;
    case IK2D_ISA_AVX2: ik2d_lanes_ccd_avx2(poses, used, count); return;
    case IK2D_ISA_AVX512: ik2d_lanes_ccd_avx512(poses, used, count); return;
#endif
    default: {
      int k;
      for (k = 0; k < count; k += IK2D_LOCKSTEP)
        ik2d_ccd_run_together(poses + k, used + k,
                              count - k < IK2D_LOCKSTEP ? count - k : IK2D_LOCKSTEP);
    }
  }
}

/* Solves the waiting slots together. */
static void batch_flush(batch *b) {
  /* initialised only to quiet gcc's maybe-uninitialized */
  ik2d_pose *poses[BATCH_LANES] = {NULL};
  int used[BATCH_LANES], k, count = 0;
  for (k = 0; k < b->waiting; k++) {
    batch_slot *slot = &b->slots[k];
    ik2d_solve_start(slot->solver, &slot->pose, slot->start);
    /* a world-space limit settles after every turn: the scalar run */
    if (slot->pose.world_limits > 0) used[k] = ik2d_ccd_run(&slot->pose);
  }
  /* the others together, packed */
  for (k = 0; k < b->waiting; k++)
    if (b->slots[k].pose.world_limits == 0) poses[count++] = &b->slots[k].pose;
  if (count > 0) {
    int run_used[BATCH_LANES], j = 0;
    batch_run(b, poses, run_used, count);
    for (k = 0; k < b->waiting; k++)
      if (b->slots[k].pose.world_limits == 0) used[k] = run_used[j++];
  }
  for (k = 0; k < b->waiting; k++) {
    batch_slot *slot = &b->slots[k];
    used[k] = ik2d_solve_ccd_fallback(&slot->pose, used[k]);
    b->reached += ik2d_solve_finish(slot->solver, &slot->pose, slot->start, used[k]);
  }
  b->waiting = 0;
}

static bool batch_shares_chain(const batch *b, const ik2d_solver *solver) {
  int k;
  for (k = 0; k < b->waiting; k++)
    if (b->slots[k].solver->chain == solver->chain) return true;
  return false;
}

int ik2d_solve_batch_isa(ik2d_solver *const *solvers, int count, ik2d_isa isa) {
  batch b;
  int i;
  if (solvers == NULL) return 0;
  /* the requested set, or the best supported below it */
  while (isa > IK2D_ISA_SCALAR && !ik2d_isa_supported(isa)) isa = (ik2d_isa)(isa - 1);
  b.isa = isa == IK2D_ISA_AUTO ? ik2d_isa_best() : isa;
  b.lanes = b.isa == IK2D_ISA_SCALAR ? BATCH_LANES : ik2d_isa_lanes(b.isa);
  b.waiting = 0;
  b.reached = 0;
  for (i = 0; i < count; i++) {
    ik2d_solver *solver = solvers[i];
    if (solver == NULL || solver->chain == NULL) continue;
    if (batch_shares_chain(&b, solver)) batch_flush(&b);
    if (!ik2d_solve_is_plain_ccd(solver)) {
      b.reached += ik2d_solver_solve(solver);
      continue;
    }
    if (b.waiting > 0 &&
        (b.waiting == b.lanes || b.slots[0].solver->chain->count != solver->chain->count))
      batch_flush(&b);
    b.slots[b.waiting++].solver = solver;
  }
  if (b.waiting > 0) batch_flush(&b);
  return b.reached;
}

int ik2d_solve_batch(ik2d_solver *const *solvers, int count) {
  return ik2d_solve_batch_isa(solvers, count, IK2D_ISA_AUTO);
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
