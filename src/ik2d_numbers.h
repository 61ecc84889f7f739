/*
** ik2d_numbers.h: the thresholds the solves and the springs share, each
** defined once for C (the scalar code, the SIMD lanes and the coupled solve
** alike).  The pure
** core's copy, lua/ik2d/pure/numbers.lua, is written from this file by
** make gen (src/gen.lua reads every IK2D_ define below), and
** spec/api_spec.lua fails when it is stale.  Values only: a number here
** and a number there must be the same double.
*/
#ifndef IK2D_NUMBERS_H
#define IK2D_NUMBERS_H

#include <math.h>

/* A solve's rotation whose squared length leaves (ROT_NORM_MIN,
** ROT_NORM_MAX), or is NaN, came from numbers doubles cannot hold: the
** run is dropped.  One off unit length by more than ROT_DRIFT is put back
** on it: forward passes do not renormalise, and the rotations' errors
** compound along the chain into the world directions the joints come
** from (solve_sane, ik2d_solver.c). */
#define IK2D_ROT_NORM_MIN 0.25
#define IK2D_ROT_NORM_MAX 4.0
#define IK2D_ROT_DRIFT 1e-14

/* A sweep that gains less than this fraction of the distance has
** stalled (limits or a local minimum): more sweeps would not help. */
#define IK2D_CCD_STALL_GAIN 1e-9

/* With the exact step on, an iteration that takes off less than this
** fraction of the squared distance while the tip is still farther than
** sqrt(IK2D_CCD_FAR) tolerances crawls: the chain sits in a fold that
** sweeps undo slowly, and the solver hands the rest of the iterations to
** FABRIK (the value: measured with bench/quality.c's jumping targets). */
#define IK2D_CCD_SLOW_GAIN 0.3
#define IK2D_CCD_FAR 100.0

/* The exact step skips a pair whose triangle is degenerate: the tip or
** the target closer to a joint than a tenth of the pair's first side.
** Its turns would be ill-defined there (a folded limb turning half round
** for a hair's motion of the target).  Squared. */
#define IK2D_EXACT_DEGENERATE 0.01

/* The exact step's squared sides must lie in [EXACT_SQUARES_MIN,
** EXACT_SQUARES_MAX]: the law of cosines on them neither overflows nor
** loses its digits to denormals. */
#define IK2D_EXACT_SQUARES_MIN 1e-140
#define IK2D_EXACT_SQUARES_MAX 1e140

/* A turn's rotation from (dot, cross) is normalised by sqrt(dot^2 +
** cross^2) while that lies in (TURN_NORM_MIN, TURN_NORM_MAX); outside,
** the squares underflow into denormals (or overflow) and a norm from them
** would give a turn off unit length: the hypot then. */
#define IK2D_TURN_NORM_MIN 1e-150
#define IK2D_TURN_NORM_MAX 1e150

/* A joint within this of the end of its limit's range (radians) is on
** the limit: the solve reports limited. */
#define IK2D_ON_LIMIT 1e-9

/* How many times the others solve again for a last bone whose limit
** forbade the direction asked for: each round starts from the last, so a
** few settle it. */
#define IK2D_ORIENT_ROUNDS 3

/* A coupled solve's attempt has stalled after this many iterations that
** do not lower its objective by a tenth. */
#define IK2D_COUPLED_STALL 3

/* A solver's count of coupled solves in a row that ended unreached goes
** round from here to 1 (it seeds the scattered start: another each
** frame, never the 0 of a group that reached). */
#define IK2D_COUPLED_STALLS_MAX 65535

/* Park and Miller's minimal standard generator, for the scattered start:
** its products stay below 2^53, exact in the pure-Lua core's doubles. */
#define IK2D_SCATTER_MODULUS 2147483647
#define IK2D_SCATTER_SEED 16807
#define IK2D_SCATTER_STEP 48271

/* The coupled solve's damped least squares: at most DLS_ROWS rows
** (effector coordinates) and DLS_COLUMNS columns (bones), DLS_TRIES
** attempts per step, each turn at most DLS_MAX_TURN radians, the damping
** starting at DLS_LAMBDA. */
#define IK2D_DLS_ROWS 32
#define IK2D_DLS_COLUMNS 64
#define IK2D_DLS_TRIES 4
#define IK2D_DLS_MAX_TURN 0.6
#define IK2D_DLS_LAMBDA 1e-2

/* A spring's substeps: at least SPRING_SUBSTEP_RATE a second, at most
** SPRING_MAX_SUBSTEPS an update, none longer than SPRING_MAX_SUBSTEP
** seconds.  720 is a multiple of the usual frame rates (24, 30, 48, 60,
** 72, 90, 120, 144, 240, 360 Hz): at any of them a frame is whole
** substeps of 1/720 s, so a jolt gives the same motion to rounding.  A
** count within SPRING_SUBSTEP_SLACK above a whole one is that one: 1/60 s
** is 12 substeps, not 13 for the rounding of dt * 720.  No bone turns
** faster than half a turn per substep at the rate. */
#define IK2D_SPRING_SUBSTEP_RATE 720.0
#define IK2D_SPRING_MAX_SUBSTEPS 64
#define IK2D_SPRING_MAX_SUBSTEP 1.0
#define IK2D_SPRING_SUBSTEP_SLACK 1e-9

/* Below SPRING_FREE (K h^2) a spring's pull over a substep is below 1e-8
** of the forcing's: the substep is solved as free motion, where the
** oscillator's formula would cancel catastrophically; and free motion
** with gamma h below SPRING_SERIES by its series to (gamma h)^2, whose
** next term is below 1e-13 of the first.  Above SPRING_STIFF (Lambda
** h^2) the chain goes by backward Euler. */
#define IK2D_SPRING_FREE 1e-8
#define IK2D_SPRING_SERIES 1e-4
#define IK2D_SPRING_STIFF 0.25

/* A base faster (px/s) is taken as this fast: the jumps stay finite. */
#define IK2D_SPRING_MAX_BASE_SPEED 1e300

/* A joint within this fraction of the coordinates' size of a segment
** collider's line is on it: rounding moves a joint off the line by far
** less, and the side it was on is kept. */
#define IK2D_SPRING_ON_LINE 1e-12

/* Counters for benchmarks (bench/core_bench.c builds with -DIK2D_STATS):
** in every other build they and their updates are not there. */
#ifdef IK2D_STATS
#define IK2D_STAT(statement) statement
#else
#define IK2D_STAT(statement) ((void)0)
#endif

/* The rules on a rotation's squared length, as solve_sane
** (ik2d_solver.c) applies them (NaN is broken). */
static inline int ik2d_rot_broken(double norm) {
  return !(norm > IK2D_ROT_NORM_MIN && norm < IK2D_ROT_NORM_MAX);
}
static inline int ik2d_rot_drifted(double norm) { return fabs(norm - 1.0) > IK2D_ROT_DRIFT; }

/* A chain on a general skeleton whose bones do not all map conformally
** (a non-uniform scale or a shear along it) turns them as drawn, which
** bends what the turns say: the solve is taken again from where the bones
** ended, up to GENERAL_PASSES passes in all.  A map is conformal where
** |x.y| and |x.x - y.y| of its axes are within CONFORMAL_TOLERANCE of
** their squared lengths' sum (what rounding leaves of a rotation and a
** uniform scale composed along a skeleton). */
#define IK2D_GENERAL_PASSES 16
#define IK2D_CONFORMAL_TOLERANCE 1e-12

#endif
