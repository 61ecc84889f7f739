/*
** ik2d_lanes_sse2.c: the lane kernels (ik2d_lanes.h) for sse2.
** Four lanes of doubles (two vectors of two); every x86-64 has SSE2.
*/
#include "ik2d_isa.h"

#if IK2D_X86
#define IK2D_LANES_ISA IK2D_ISA_NUM_SSE2
#define IK2D_LANES_NAME ik2d_lanes_ccd_sse2
/* two vectors side by side, 4 lanes: their dependency chains overlap */
#define IK2D_LANES_PAIR 1
#include "ik2d_lanes.h"
#else
/* not an x86: nothing here (ISO C wants a declaration) */
typedef int ik2d_lanes_sse2_unused;
#endif
