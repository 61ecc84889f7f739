/*
** ik2d_lanes_avx512.c: the lane kernels (ik2d_lanes.h) for avx512.
** Eight lanes of doubles, compiled for AVX-512F whatever the build's
** flags; ik2d_isa_supported says whether this machine runs it.
*/
#include "ik2d_isa.h"

#if IK2D_X86_WIDE
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx512f"))), apply_to = function)
#else
#pragma GCC target("avx512f")
#endif
#define IK2D_LANES_ISA IK2D_ISA_NUM_AVX512
#define IK2D_LANES_NAME ik2d_lanes_ccd_avx512
/* AVX-512F brings FMA instructions, which ik2d_fp.h keeps unused */
#define IK2D_FP_TARGET_FMA 1
#include "ik2d_lanes.h"
#if defined(__clang__)
#pragma clang attribute pop
#endif
#else
/* not an x86 (or not safe here: ik2d_isa.h): nothing here (ISO C wants a declaration) */
typedef int ik2d_lanes_avx512_unused;
#endif
