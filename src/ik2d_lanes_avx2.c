/*
** ik2d_lanes_avx2.c: the lane kernels (ik2d_lanes.h) for avx2.
** Eight lanes of doubles (two vectors of four), compiled for AVX2
** whatever the build's flags;
** ik2d_isa_supported says whether this machine runs it.
*/
#include "ik2d_isa.h"

#if IK2D_X86_WIDE
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC target("avx2")
#endif
#define IK2D_LANES_ISA IK2D_ISA_NUM_AVX2
#define IK2D_LANES_NAME ik2d_lanes_ccd_avx2
/* two vectors side by side, 8 lanes: their dependency chains overlap
** (measured: a tenth faster than 4 lanes for textbook CCD, no slower for
** the default solver) */
#define IK2D_LANES_PAIR 1
#include "ik2d_lanes.h"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#else
/* not an x86 (or not safe here: ik2d_isa.h): nothing here (ISO C wants a declaration) */
typedef int ik2d_lanes_avx2_unused;
#endif
