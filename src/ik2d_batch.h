/*
** ik2d_batch.h: the queue that feeds solves to the lanes (ik2d_batch.c),
** for callers that order the solves themselves: ik2d_solvers_solve, and
** ik2d_skeletons_solve, which feeds it one step of many skeletons at a
** time (both above, in ik2d_skeleton_solve.c: they write a skeleton
** chain's result back, which this layer knows nothing of) (not
** installed).
*/
#ifndef IK2D_BATCH_H
#define IK2D_BATCH_H

#include "ik2d.h"

/* Solvers a bucket holds before it is solved, and buckets (one per bone
** count) open at once: enough that a group's members stream through the
** lanes in long runs, little enough for the stack. */
#define BATCH_BUCKET 256
#define BATCH_BUCKETS 4

typedef struct ik2d_batch_bucket {
  int bones, count;
  ik2d_solver *solvers[BATCH_BUCKET];
} ik2d_batch_bucket;

/* The chains with a solver in a bucket, unsolved: a set of pointers
** (open addressing), emptied by batch_flush_all.  A bucket solved on its
** own leaves its chains in it: such a stale entry only makes a later
** solver of that chain flush everything first, which keeps list order.
** Twice a bucket (a power of two): the set, flushed when half full, fills
** as one bucket does, and a call clears little of it first. */
#define BATCH_QUEUED_SLOTS (2 * BATCH_BUCKET)

typedef struct ik2d_batch {
  ik2d_isa isa;
  bool measure;      /* the solves measured (reached, distance); false: by
                        the caller, after it wrote them back */
  int reached, buckets, queued_count;
  int flushes;       /* batch_flush_all calls: each empties the set */
  int queued_mask;   /* slots in use - 1: twice the list's length or more,
                        so a short list clears a short set */
  ik2d_batch_bucket bucket[BATCH_BUCKETS];
  const ik2d_chain *queued[BATCH_QUEUED_SLOTS];
  int queued_slot[BATCH_QUEUED_SLOTS / 2]; /* the slots in use, to empty them */
} ik2d_batch;

/* An empty queue solving with isa (or the best supported below it), for
** about count solvers; with measure, each solve's outcome measured at its
** point target (ik2d__solver_measure_point), else left to the caller. */
void ik2d_batch_begin(ik2d_batch *b, ik2d_isa isa, int count, bool measure);
/* Whether the lanes take the solver's solve: plain CCD
** (ik2d__solver_is_plain_ccd), no world-space limit (those settle after
** every turn, one chain at a time), no target on a bone (read where an
** earlier solve put it).  A skeleton's chain is taken: the caller writes
** its result back after the solve (ik2d_batch_end). */
bool ik2d_batch_takes_solve(const ik2d_solver *solver);
/* Queues a solver the lanes take whose solve may come after any other
** queued since the last ik2d_batch_end: on a chain no other queued one
** is on, reading nothing they write. */
void ik2d_batch_queue(ik2d_batch *b, ik2d_solver *solver);
/* A list's next solver (ik2d_solvers_solve): what is queued on its chain
** solved first, so that solvers sharing a chain write its result in list
** order; then queued when the lanes take it and its chain is no
** skeleton's (whose solve moves the skeleton's other chains: one at a
** time, in order).  False: not queued, the caller solves it now. */
bool ik2d_batch_list(ik2d_batch *b, ik2d_solver *solver);
/* Solves what is queued; returns how many reached (measured) since the
** begin.  The queue stays open: what is queued after waits for the next
** end. */
int ik2d_batch_end(ik2d_batch *b);

#endif
