/*
** ik2d_simd.h: the thin vector layer the lane kernels are written over
** (not installed).  A source that includes it defines IK2D_LANES_ISA as
** one of the IK2D_ISA_* numbers below first; it then gets:
**
**   vd            a vector of V_LANES doubles, vm a mask of as many lanes
**   v_set1 v_load v_store v_add v_sub v_mul v_div v_sqrt v_abs v_neg
**   v_lt v_le v_gt v_ge v_eq      comparisons, false where a lane is NaN
**   m_and m_or m_andnot m_not m_any m_all m_bits m_lane m_none
**   v_select(m, a, b)             a where m, b elsewhere
**   v_lane(a, l), v_set_lane(a, l, x)
**   v_copysign(a, b)              |a| with b's sign bit
**   v_trunc(a, index)             (int)a per lane, into index and back
**   v_from_table(table, index)    table[index[l]] per lane
**
** Every operation is the IEEE-754 double one, correctly rounded (sqrt and
** division included), and nothing is fused: the same bits as the scalar
** code on every width.  Never auto-vectorised: each path is written out.
*/
#ifndef IK2D_SIMD_H
#define IK2D_SIMD_H

#define IK2D_ISA_NUM_SCALAR 0
#define IK2D_ISA_NUM_SSE2 1
#define IK2D_ISA_NUM_AVX2 2
#define IK2D_ISA_NUM_AVX512 3

#if !defined(IK2D_LANES_ISA)
#error "define IK2D_LANES_ISA before including ik2d_simd.h"
#endif

#include <math.h>
#include <stdbool.h>

#if IK2D_LANES_ISA != IK2D_ISA_NUM_SCALAR
#include <immintrin.h>
#endif

/* ------------------------------------------------------------------ */
#if IK2D_LANES_ISA == IK2D_ISA_NUM_AVX512

#define V_LANES 8
typedef __m512d vd;
typedef __mmask8 vm;
static inline vd v_set1(double x) { return _mm512_set1_pd(x); }
static inline vd v_load(const double *p) { return _mm512_loadu_pd(p); }
static inline void v_store(double *p, vd a) { _mm512_storeu_pd(p, a); }
static inline vd v_add(vd a, vd b) { return _mm512_add_pd(a, b); }
static inline vd v_sub(vd a, vd b) { return _mm512_sub_pd(a, b); }
static inline vd v_mul(vd a, vd b) { return _mm512_mul_pd(a, b); }
static inline vd v_div(vd a, vd b) { return _mm512_div_pd(a, b); }
static inline vd v_sqrt(vd a) { return _mm512_sqrt_pd(a); }
static inline vm v_lt(vd a, vd b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
static inline vm v_le(vd a, vd b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
static inline vm v_gt(vd a, vd b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
static inline vm v_ge(vd a, vd b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
static inline vm v_eq(vd a, vd b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
static inline vm m_and(vm a, vm b) { return (vm)(a & b); }
static inline vm m_or(vm a, vm b) { return (vm)(a | b); }
static inline vm m_andnot(vm a, vm b) { return (vm)(b & (vm)~a); } /* b and not a */
static inline vm m_not(vm a) { return (vm)~a; }
static inline vm m_none(void) { return 0; }
static inline vm m_all_lanes(void) { return (vm)0xff; }
static inline unsigned m_bits(vm a) { return (unsigned)a; }
static inline vm m_from_bits(unsigned bits) { return (vm)bits; }
static inline vd v_select(vm m, vd a, vd b) { return _mm512_mask_blend_pd(m, b, a); }
static inline vd v_sign_bits(void) { return _mm512_castsi512_pd(_mm512_set1_epi64((long long)0x8000000000000000ULL)); }
static inline vd v_abs(vd a) {
  return _mm512_castsi512_pd(_mm512_andnot_si512(_mm512_castpd_si512(v_sign_bits()),
                                                 _mm512_castpd_si512(a)));
}
static inline vd v_neg(vd a) {
  return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(v_sign_bits()),
                                              _mm512_castpd_si512(a)));
}
static inline vd v_copysign(vd a, vd b) {
  __m512i sign = _mm512_castpd_si512(v_sign_bits());
  return _mm512_castsi512_pd(_mm512_or_si512(_mm512_andnot_si512(sign, _mm512_castpd_si512(a)),
                                             _mm512_and_si512(sign, _mm512_castpd_si512(b))));
}
static inline vd v_trunc(vd a, int *index) {
  __m256i i = _mm512_cvttpd_epi32(a);
  _mm256_storeu_si256((__m256i *)(void *)index, i);
  return _mm512_cvtepi32_pd(i);
}

/* ------------------------------------------------------------------ */
#elif IK2D_LANES_ISA == IK2D_ISA_NUM_AVX2

#define V_LANES 4
typedef __m256d vd;
typedef __m256d vm;
static inline vd v_set1(double x) { return _mm256_set1_pd(x); }
static inline vd v_load(const double *p) { return _mm256_loadu_pd(p); }
static inline void v_store(double *p, vd a) { _mm256_storeu_pd(p, a); }
static inline vd v_add(vd a, vd b) { return _mm256_add_pd(a, b); }
static inline vd v_sub(vd a, vd b) { return _mm256_sub_pd(a, b); }
static inline vd v_mul(vd a, vd b) { return _mm256_mul_pd(a, b); }
static inline vd v_div(vd a, vd b) { return _mm256_div_pd(a, b); }
static inline vd v_sqrt(vd a) { return _mm256_sqrt_pd(a); }
static inline vm v_lt(vd a, vd b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
static inline vm v_le(vd a, vd b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
static inline vm v_gt(vd a, vd b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
static inline vm v_ge(vd a, vd b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
static inline vm v_eq(vd a, vd b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
static inline vm m_and(vm a, vm b) { return _mm256_and_pd(a, b); }
static inline vm m_or(vm a, vm b) { return _mm256_or_pd(a, b); }
static inline vm m_andnot(vm a, vm b) { return _mm256_andnot_pd(a, b); }
static inline vm m_not(vm a) {
  return _mm256_xor_pd(a, _mm256_castsi256_pd(_mm256_set1_epi64x(-1)));
}
static inline vm m_none(void) { return _mm256_setzero_pd(); }
static inline vm m_all_lanes(void) { return _mm256_castsi256_pd(_mm256_set1_epi64x(-1)); }
static inline unsigned m_bits(vm a) { return (unsigned)_mm256_movemask_pd(a); }
/* the mask of each 4 bits: one load */
static const long long m_masks[16][4] = {
  {0, 0, 0, 0}, {-1, 0, 0, 0}, {0, -1, 0, 0}, {-1, -1, 0, 0},
  {0, 0, -1, 0}, {-1, 0, -1, 0}, {0, -1, -1, 0}, {-1, -1, -1, 0},
  {0, 0, 0, -1}, {-1, 0, 0, -1}, {0, -1, 0, -1}, {-1, -1, 0, -1},
  {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1}
};
static inline vm m_from_bits(unsigned bits) {
  return _mm256_loadu_pd((const double *)(const void *)m_masks[bits & 15u]);
}
static inline vd v_select(vm m, vd a, vd b) { return _mm256_blendv_pd(b, a, m); }
static inline vd v_abs(vd a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
static inline vd v_neg(vd a) { return _mm256_xor_pd(_mm256_set1_pd(-0.0), a); }
static inline vd v_copysign(vd a, vd b) {
  vd sign = _mm256_set1_pd(-0.0);
  return _mm256_or_pd(_mm256_andnot_pd(sign, a), _mm256_and_pd(sign, b));
}
static inline vd v_trunc(vd a, int *index) {
  __m128i i = _mm256_cvttpd_epi32(a);
  _mm_storeu_si128((__m128i *)(void *)index, i);
  return _mm256_cvtepi32_pd(i);
}

/* ------------------------------------------------------------------ */
#elif IK2D_LANES_ISA == IK2D_ISA_NUM_SSE2

#define V_LANES 2
typedef __m128d vd;
typedef __m128d vm;
static inline vd v_set1(double x) { return _mm_set1_pd(x); }
static inline vd v_load(const double *p) { return _mm_loadu_pd(p); }
static inline void v_store(double *p, vd a) { _mm_storeu_pd(p, a); }
static inline vd v_add(vd a, vd b) { return _mm_add_pd(a, b); }
static inline vd v_sub(vd a, vd b) { return _mm_sub_pd(a, b); }
static inline vd v_mul(vd a, vd b) { return _mm_mul_pd(a, b); }
static inline vd v_div(vd a, vd b) { return _mm_div_pd(a, b); }
static inline vd v_sqrt(vd a) { return _mm_sqrt_pd(a); }
static inline vm v_lt(vd a, vd b) { return _mm_cmplt_pd(a, b); }
static inline vm v_le(vd a, vd b) { return _mm_cmple_pd(a, b); }
static inline vm v_gt(vd a, vd b) { return _mm_cmpgt_pd(a, b); }
static inline vm v_ge(vd a, vd b) { return _mm_cmpge_pd(a, b); }
static inline vm v_eq(vd a, vd b) { return _mm_cmpeq_pd(a, b); }
static inline vm m_and(vm a, vm b) { return _mm_and_pd(a, b); }
static inline vm m_or(vm a, vm b) { return _mm_or_pd(a, b); }
static inline vm m_andnot(vm a, vm b) { return _mm_andnot_pd(a, b); }
static inline vm m_not(vm a) { return _mm_xor_pd(a, _mm_castsi128_pd(_mm_set1_epi32(-1))); }
static inline vm m_none(void) { return _mm_setzero_pd(); }
static inline vm m_all_lanes(void) { return _mm_castsi128_pd(_mm_set1_epi32(-1)); }
static inline unsigned m_bits(vm a) { return (unsigned)_mm_movemask_pd(a); }
static const long long m_masks[4][2] = {{0, 0}, {-1, 0}, {0, -1}, {-1, -1}};
static inline vm m_from_bits(unsigned bits) {
  return _mm_loadu_pd((const double *)(const void *)m_masks[bits & 3u]);
}
static inline vd v_select(vm m, vd a, vd b) {
  return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b));
}
static inline vd v_abs(vd a) { return _mm_andnot_pd(_mm_set1_pd(-0.0), a); }
static inline vd v_neg(vd a) { return _mm_xor_pd(_mm_set1_pd(-0.0), a); }
static inline vd v_copysign(vd a, vd b) {
  vd sign = _mm_set1_pd(-0.0);
  return _mm_or_pd(_mm_andnot_pd(sign, a), _mm_and_pd(sign, b));
}
static inline vd v_trunc(vd a, int *index) {
  __m128i i = _mm_cvttpd_epi32(a);
  _mm_storel_epi64((__m128i *)(void *)index, i);
  return _mm_cvtepi32_pd(i);
}

/* ------------------------------------------------------------------ */
#else /* scalar: one lane, any machine */

#define V_LANES 1
typedef double vd;
typedef unsigned vm;
static inline vd v_set1(double x) { return x; }
static inline vd v_load(const double *p) { return *p; }
static inline void v_store(double *p, vd a) { *p = a; }
static inline vd v_add(vd a, vd b) { return a + b; }
static inline vd v_sub(vd a, vd b) { return a - b; }
static inline vd v_mul(vd a, vd b) { return a * b; }
static inline vd v_div(vd a, vd b) { return a / b; }
static inline vd v_sqrt(vd a) { return sqrt(a); }
static inline vm v_lt(vd a, vd b) { return a < b; }
static inline vm v_le(vd a, vd b) { return a <= b; }
static inline vm v_gt(vd a, vd b) { return a > b; }
static inline vm v_ge(vd a, vd b) { return a >= b; }
static inline vm v_eq(vd a, vd b) { return a == b; }
static inline vm m_and(vm a, vm b) { return a & b; }
static inline vm m_or(vm a, vm b) { return a | b; }
static inline vm m_andnot(vm a, vm b) { return b & !a; }
static inline vm m_not(vm a) { return !a; }
static inline vm m_none(void) { return 0; }
static inline vm m_all_lanes(void) { return 1; }
static inline unsigned m_bits(vm a) { return a; }
static inline vm m_from_bits(unsigned bits) { return bits & 1; }
static inline vd v_select(vm m, vd a, vd b) { return m ? a : b; }
static inline vd v_abs(vd a) { return fabs(a); }
static inline vd v_neg(vd a) { return -a; }
static inline vd v_copysign(vd a, vd b) { return copysign(a, b); }
static inline vd v_trunc(vd a, int *index) {
  *index = (int)a;
  return (double)*index;
}

#endif

/* ------------------------------------------------------------------ */
/* built on the above, the same on every width                          */
/* ------------------------------------------------------------------ */

#define V_ALL ((1u << V_LANES) - 1u)

static inline bool m_any(vm a) { return m_bits(a) != 0; }
static inline bool m_all(vm a) { return m_bits(a) == V_ALL; }
static inline bool m_lane(vm a, int l) { return (m_bits(a) >> l) & 1u; }

static inline double v_lane(vd a, int l) {
  double lanes[V_LANES];
  v_store(lanes, a);
  return lanes[l];
}

static inline vd v_from_table(const double *table, const int *index) {
  double lanes[V_LANES];
  int l;
  for (l = 0; l < V_LANES; l++) lanes[l] = table[index[l]];
  return v_load(lanes);
}

static inline vd v_set_lane(vd a, int l, double x) {
  double lanes[V_LANES];
  v_store(lanes, a);
  lanes[l] = x;
  return v_load(lanes);
}

#endif
