/*
** ik2d_isa.c: which lane kernel a batch runs.
*/
/* the core's floating-point rules, as in every source of the core */
#include "ik2d_fp.h"

#include <stddef.h>

#include "ik2d.h"
#include "ik2d_isa.h"

bool ik2d_isa_supported(ik2d_isa isa) {
  switch (isa) {
    case IK2D_ISA_SCALAR: return true;
#if IK2D_X86
    case IK2D_ISA_SSE2: return true; /* every x86-64 */
#endif
#if IK2D_X86_WIDE
    case IK2D_ISA_AVX2: return __builtin_cpu_supports("avx2") != 0;
    case IK2D_ISA_AVX512: return __builtin_cpu_supports("avx512f") != 0;
#endif
    default: return false;
  }
}

ik2d_isa ik2d_isa_best(void) {
  if (ik2d_isa_supported(IK2D_ISA_AVX512)) return IK2D_ISA_AVX512;
  if (ik2d_isa_supported(IK2D_ISA_AVX2)) return IK2D_ISA_AVX2;
  if (ik2d_isa_supported(IK2D_ISA_SSE2)) return IK2D_ISA_SSE2;
  return IK2D_ISA_SCALAR;
}

const char *ik2d_isa_name(ik2d_isa isa) {
  switch (isa) {
    case IK2D_ISA_AUTO: return "auto";
    case IK2D_ISA_SCALAR: return "scalar";
    case IK2D_ISA_SSE2: return "sse2";
    case IK2D_ISA_AVX2: return "avx2";
    case IK2D_ISA_AVX512: return "avx512";
  }
  return NULL;
}
