/*
** ik2d_isa.h: which lane kernels this build has and which this machine
** runs (not installed).  The scalar kernel builds anywhere; on x86-64 with
** gcc or clang the SSE2, AVX2 and AVX-512 ones are compiled too, each
** for its own instruction set whatever the build's flags, and chosen at
** run time: ik2d_isa_supported asks the processor.
*/
#ifndef IK2D_ISA_H
#define IK2D_ISA_H

#include "ik2d.h"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define IK2D_X86 1
#else
#define IK2D_X86 0
#endif

/* gcc keeps 64-bit Windows' stack aligned to 16 bytes only, yet spills
** and passes AVX vectors through stack slots with aligned moves (GCC bug
** 54412): they fault wherever a slot lands off 32 or 64.  There the AVX2
** and AVX-512 kernels are built only when the assembler writes every
** aligned vector move as an unaligned one (-Wa,-muse-unaligned-vector-move,
** as the Makefile's Windows build does) and the build says so with
** -DIK2D_UNALIGNED_VECTOR_MOVES; otherwise groups run SSE2, with the same
** bits. */
#if IK2D_X86 && defined(_WIN32) && !defined(__clang__) && !defined(IK2D_UNALIGNED_VECTOR_MOVES)
#define IK2D_X86_WIDE 0
#else
#define IK2D_X86_WIDE IK2D_X86
#endif

/* Plain CCD solves (ik2d_batch_takes_solve) for count >= 1 solvers of
** one bone count on distinct chains, whose solves read nothing another's
** writes, streamed through the lanes, each left exactly as
** ik2d__solver_solve_chain leaves it toward its point target; with
** measure, each measured there (ik2d__solver_measure_point), and they
** return how many reached (0 without). */
#if IK2D_X86
int ik2d_lanes_ccd_sse2(ik2d_solver *const *solvers, int count, bool measure);
#endif
#if IK2D_X86_WIDE
int ik2d_lanes_ccd_avx2(ik2d_solver *const *solvers, int count, bool measure);
int ik2d_lanes_ccd_avx512(ik2d_solver *const *solvers, int count, bool measure);
#endif

#endif
