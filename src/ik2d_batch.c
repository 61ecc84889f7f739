/*
** ik2d_batch.c: many solvers solved together (for ik2d_solvers_solve, one
** call per frame from Lua, and ik2d_skeletons_solve).
**
** Plain CCD solvers of one bone count run together: streamed through the
** lanes of a vector with a SIMD instruction set (ik2d_lanes.h: 2, 4 or 8
** chains at a time), or IK2D_LOCKSTEP at a time interleaved in the scalar
** one.  Every chain gets exactly the result ik2d_solver_solve gives it;
** the list order is kept wherever it matters (solvers sharing a chain
** write its result in list order).
*/
#include <stddef.h>
#include <stdint.h>

#include "ik2d.h"
#include "ik2d_batch.h"
#include "ik2d_ccd.h"
#include "ik2d_isa.h"
#include "ik2d_pose.h"
#include "ik2d_solver.h"

typedef ik2d_batch batch;
typedef ik2d_batch_bucket batch_bucket;

/* The slot of chain in the set: where it is, or the free one it goes in. */
static int batch_queued_slot(const batch *b, const ik2d_chain *chain) {
  /* Fibonacci hashing of the address, objects being 8-byte aligned */
  uint32_t h = (uint32_t)(((uintptr_t)chain >> 3) * 2654435761u);
  int slot = (int)(h >> 21) & b->queued_mask;
  while (b->queued[slot] != NULL && b->queued[slot] != chain)
    slot = (slot + 1) & b->queued_mask;
  return slot;
}

/* The scalar set: IK2D_LOCKSTEP chains at a time, interleaved (their
** turns' sqrt and division latencies overlap). */
static int batch_run_scalar(ik2d_solver *const *solvers, int count, bool measure) {
  ik2d_pose poses[IK2D_LOCKSTEP];
  ik2d_rot start[IK2D_LOCKSTEP][IK2D_MAX_BONES];
  ik2d_pose *list[IK2D_LOCKSTEP];
  int used[IK2D_LOCKSTEP], reached = 0, k, j;
  for (k = 0; k < count; k += IK2D_LOCKSTEP) {
    int m = count - k < IK2D_LOCKSTEP ? count - k : IK2D_LOCKSTEP;
    for (j = 0; j < m; j++) {
      double x, y;
      ik2d__solver_point_target(solvers[k + j], &x, &y);
      ik2d__solver_solve_start(solvers[k + j], &poses[j], start[j], x, y);
      list[j] = &poses[j];
    }
    ik2d_ccd_run_together(list, used, m);
    for (j = 0; j < m; j++) {
      used[j] = ik2d__solver_ccd_fallback(&poses[j], used[j]);
      ik2d__solver_solve_finish(solvers[k + j], &poses[j], start[j], used[j]);
      if (measure) reached += ik2d__solver_measure_point(solvers[k + j]);
    }
  }
  return reached;
}

/* Solves a bucket's solvers with the batch's set. */
static void batch_flush(batch *b, batch_bucket *bucket) {
  ik2d_solver *const *solvers = bucket->solvers;
  int count = bucket->count;
  if (count == 0) return;
  switch (b->isa) {
#if IK2D_X86
    case IK2D_ISA_SSE2: b->reached += ik2d_lanes_ccd_sse2(solvers, count, b->measure); break;
#endif
#if IK2D_X86_WIDE
    case IK2D_ISA_AVX2: b->reached += ik2d_lanes_ccd_avx2(solvers, count, b->measure); break;
    case IK2D_ISA_AVX512:
      b->reached += ik2d_lanes_ccd_avx512(solvers, count, b->measure);
      break;
#endif
    default: b->reached += batch_run_scalar(solvers, count, b->measure);
  }
  bucket->count = 0;
}

static void batch_flush_all(batch *b) {
  int k;
  for (k = 0; k < b->buckets; k++) batch_flush(b, &b->bucket[k]);
  b->buckets = 0;
  for (k = 0; k < b->queued_count; k++) b->queued[b->queued_slot[k]] = NULL;
  b->queued_count = 0;
  b->flushes++;
}

bool ik2d_batch_takes_solve(const ik2d_solver *solver) {
  const ik2d_chain *chain = solver->chain;
  int i;
  if (!ik2d__solver_is_plain_ccd(solver) || ik2d__solver_on_bone(solver)) return false;
  for (i = 0; i < chain->count; i++) {
    const ik2d_constraint *limit = chain->constraint[i];
    if (limit != NULL && !limit->full && limit->def.space == IK2D_SPACE_WORLD) return false;
  }
  return true;
}

/* A solve a list's batch takes: the lanes take it, and its chain is no
** skeleton's (whose solve moves the skeleton's other chains: one at a
** time, in order). */
static bool batch_takes(const ik2d_solver *solver) {
  return solver->chain->link == NULL && ik2d_batch_takes_solve(solver);
}

/* The open bucket for the solver's bone count, opened if need be. */
static batch_bucket *batch_bucket_for(batch *b, int bones) {
  batch_bucket *bucket;
  int k;
  for (k = 0; k < b->buckets; k++)
    if (b->bucket[k].bones == bones) return &b->bucket[k];
  if (b->buckets == BATCH_BUCKETS) batch_flush_all(b);
  bucket = &b->bucket[b->buckets++];
  bucket->bones = bones;
  bucket->count = 0;
  return bucket;
}

void ik2d_batch_begin(ik2d_batch *b, ik2d_isa isa, int count, bool measure) {
  int i;
  /* the requested set, or the best supported below it */
  if (isa == IK2D_ISA_AUTO || isa > IK2D_ISA_AVX512) isa = ik2d_isa_best();
  while (isa > IK2D_ISA_SCALAR && !ik2d_isa_supported(isa)) isa = (ik2d_isa)(isa - 1);
  b->isa = isa < IK2D_ISA_SCALAR ? IK2D_ISA_SCALAR : isa;
  b->measure = measure;
  b->reached = 0;
  b->buckets = 0;
  b->queued_count = 0;
  b->flushes = 0;
  for (b->queued_mask = 15; b->queued_mask < BATCH_QUEUED_SLOTS - 1 && b->queued_mask < 2 * count;)
    b->queued_mask = 2 * b->queued_mask + 1;
  for (i = 0; i <= b->queued_mask; i++) b->queued[i] = NULL;
}

void ik2d_batch_queue(ik2d_batch *b, ik2d_solver *solver) {
  batch_bucket *bucket = batch_bucket_for(b, solver->chain->count);
  bucket->solvers[bucket->count++] = solver;
  if (bucket->count == BATCH_BUCKET) batch_flush(b, bucket);
}

int ik2d_batch_end(ik2d_batch *b) {
  batch_flush_all(b);
  return b->reached;
}

bool ik2d_batch_list(ik2d_batch *b, ik2d_solver *solver) {
  int slot = batch_queued_slot(b, solver->chain), flushes;
  if (b->queued[slot] != NULL) {
    batch_flush_all(b);
    slot = batch_queued_slot(b, solver->chain);
  }
  if (!batch_takes(solver)) return false;
  flushes = b->flushes;
  ik2d_batch_queue(b, solver);
  /* (opening its bucket may have flushed and emptied the set: the slot
  ** found before could now lie past the chain's first free one, where
  ** the next look for it would stop) */
  if (b->flushes != flushes) slot = batch_queued_slot(b, solver->chain);
  b->queued[slot] = solver->chain;
  b->queued_slot[b->queued_count++] = slot;
  /* the set at most half full: short probes */
  if (b->queued_count == (b->queued_mask + 1) / 2) batch_flush_all(b);
  return true;
}

ik2d_status ik2d_solvers_check_targets(ik2d_solver *const *solvers, int count,
                                       const double *xy, int *bad) {
  int i;
  if (solvers == NULL || xy == NULL) return IK2D_ERR_NULL;
  for (i = 0; i < count; i++) {
    ik2d_status status = ik2d__solver_check_target(xy[2 * i], xy[2 * i + 1]);
    if (solvers[i] != NULL && status != IK2D_OK) {
      if (bad != NULL) *bad = i;
      return status;
    }
  }
  return IK2D_OK;
}

ik2d_status ik2d_solvers_set_targets(ik2d_solver *const *solvers, int count,
                                     const double *xy, int *bad) {
  int i;
  ik2d_status status = ik2d_solvers_check_targets(solvers, count, xy, bad);
  if (status != IK2D_OK) return status;
  for (i = 0; i < count; i++)
    if (solvers[i] != NULL) ik2d__solver_keep_target(solvers[i], xy[2 * i], xy[2 * i + 1]);
  return IK2D_OK;
}
