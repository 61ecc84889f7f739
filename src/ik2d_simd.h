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
** Each instruction set gives a base vector (vb, mb, B_LANES and b_*
** operations); with IK2D_LANES_PAIR defined a lane vector is two of them
** side by side.  Every operation is the IEEE-754 double one, correctly rounded (sqrt and
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

/* every operation inlined: a call would spill the vectors */
#if defined(__GNUC__)
#define IK2D_SIMD_INLINE static inline __attribute__((always_inline))
#else
#define IK2D_SIMD_INLINE static inline
#endif

/* ------------------------------------------------------------------ */
#if IK2D_LANES_ISA == IK2D_ISA_NUM_AVX512

#define B_LANES 8
typedef __m512d vb;
typedef __mmask8 mb;
IK2D_SIMD_INLINE vb b_set1(double x) { return _mm512_set1_pd(x); }
IK2D_SIMD_INLINE vb b_load(const double *p) { return _mm512_loadu_pd(p); }
IK2D_SIMD_INLINE void b_store(double *p, vb a) { _mm512_storeu_pd(p, a); }
IK2D_SIMD_INLINE vb b_add(vb a, vb b) { return _mm512_add_pd(a, b); }
IK2D_SIMD_INLINE vb b_sub(vb a, vb b) { return _mm512_sub_pd(a, b); }
IK2D_SIMD_INLINE vb b_mul(vb a, vb b) { return _mm512_mul_pd(a, b); }
IK2D_SIMD_INLINE vb b_div(vb a, vb b) { return _mm512_div_pd(a, b); }
IK2D_SIMD_INLINE vb b_sqrt(vb a) { return _mm512_sqrt_pd(a); }
IK2D_SIMD_INLINE mb b_lt(vb a, vb b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
IK2D_SIMD_INLINE mb b_le(vb a, vb b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
IK2D_SIMD_INLINE mb b_gt(vb a, vb b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
IK2D_SIMD_INLINE mb b_ge(vb a, vb b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
IK2D_SIMD_INLINE mb b_eq(vb a, vb b) { return _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ); }
IK2D_SIMD_INLINE mb mb_and(mb a, mb b) { return (mb)(a & b); }
IK2D_SIMD_INLINE mb mb_or(mb a, mb b) { return (mb)(a | b); }
IK2D_SIMD_INLINE mb mb_andnot(mb a, mb b) { return (mb)(b & (mb)~a); } /* b and not a */
IK2D_SIMD_INLINE mb mb_not(mb a) { return (mb)~a; }
IK2D_SIMD_INLINE mb mb_none(void) { return 0; }
IK2D_SIMD_INLINE mb mb_all_lanes(void) { return (mb)0xff; }
IK2D_SIMD_INLINE unsigned mb_bits(mb a) { return (unsigned)a; }
IK2D_SIMD_INLINE mb mb_from_bits(unsigned bits) { return (mb)bits; }
IK2D_SIMD_INLINE vb b_select(mb m, vb a, vb b) { return _mm512_mask_blend_pd(m, b, a); }
IK2D_SIMD_INLINE vb b_sign_bits(void) { return _mm512_castsi512_pd(_mm512_set1_epi64((long long)0x8000000000000000ULL)); }
IK2D_SIMD_INLINE vb b_abs(vb a) {
  return _mm512_castsi512_pd(_mm512_andnot_si512(_mm512_castpd_si512(b_sign_bits()),
                                                 _mm512_castpd_si512(a)));
}
IK2D_SIMD_INLINE vb b_neg(vb a) {
  return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(b_sign_bits()),
                                              _mm512_castpd_si512(a)));
}
IK2D_SIMD_INLINE vb b_copysign(vb a, vb b) {
  __m512i sign = _mm512_castpd_si512(b_sign_bits());
  return _mm512_castsi512_pd(_mm512_or_si512(_mm512_andnot_si512(sign, _mm512_castpd_si512(a)),
                                             _mm512_and_si512(sign, _mm512_castpd_si512(b))));
}
IK2D_SIMD_INLINE vb b_trunc(vb a, int *index) {
  __m256i i = _mm512_cvttpd_epi32(a);
  _mm256_storeu_si256((__m256i *)(void *)index, i);
  return _mm512_cvtepi32_pd(i);
}

/* ------------------------------------------------------------------ */
#elif IK2D_LANES_ISA == IK2D_ISA_NUM_AVX2

#define B_LANES 4
typedef __m256d vb;
typedef __m256d mb;
IK2D_SIMD_INLINE vb b_set1(double x) { return _mm256_set1_pd(x); }
IK2D_SIMD_INLINE vb b_load(const double *p) { return _mm256_loadu_pd(p); }
IK2D_SIMD_INLINE void b_store(double *p, vb a) { _mm256_storeu_pd(p, a); }
IK2D_SIMD_INLINE vb b_add(vb a, vb b) { return _mm256_add_pd(a, b); }
IK2D_SIMD_INLINE vb b_sub(vb a, vb b) { return _mm256_sub_pd(a, b); }
IK2D_SIMD_INLINE vb b_mul(vb a, vb b) { return _mm256_mul_pd(a, b); }
IK2D_SIMD_INLINE vb b_div(vb a, vb b) { return _mm256_div_pd(a, b); }
IK2D_SIMD_INLINE vb b_sqrt(vb a) { return _mm256_sqrt_pd(a); }
IK2D_SIMD_INLINE mb b_lt(vb a, vb b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
IK2D_SIMD_INLINE mb b_le(vb a, vb b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
IK2D_SIMD_INLINE mb b_gt(vb a, vb b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
IK2D_SIMD_INLINE mb b_ge(vb a, vb b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
IK2D_SIMD_INLINE mb b_eq(vb a, vb b) { return _mm256_cmp_pd(a, b, _CMP_EQ_OQ); }
IK2D_SIMD_INLINE mb mb_and(mb a, mb b) { return _mm256_and_pd(a, b); }
IK2D_SIMD_INLINE mb mb_or(mb a, mb b) { return _mm256_or_pd(a, b); }
IK2D_SIMD_INLINE mb mb_andnot(mb a, mb b) { return _mm256_andnot_pd(a, b); }
IK2D_SIMD_INLINE mb mb_not(mb a) {
  return _mm256_xor_pd(a, _mm256_castsi256_pd(_mm256_set1_epi64x(-1)));
}
IK2D_SIMD_INLINE mb mb_none(void) { return _mm256_setzero_pd(); }
IK2D_SIMD_INLINE mb mb_all_lanes(void) { return _mm256_castsi256_pd(_mm256_set1_epi64x(-1)); }
IK2D_SIMD_INLINE unsigned mb_bits(mb a) { return (unsigned)_mm256_movemask_pd(a); }
/* the mask of each 4 bits: one load */
static const long long mb_masks[16][4] = {
  {0, 0, 0, 0}, {-1, 0, 0, 0}, {0, -1, 0, 0}, {-1, -1, 0, 0},
  {0, 0, -1, 0}, {-1, 0, -1, 0}, {0, -1, -1, 0}, {-1, -1, -1, 0},
  {0, 0, 0, -1}, {-1, 0, 0, -1}, {0, -1, 0, -1}, {-1, -1, 0, -1},
  {0, 0, -1, -1}, {-1, 0, -1, -1}, {0, -1, -1, -1}, {-1, -1, -1, -1}
};
IK2D_SIMD_INLINE mb mb_from_bits(unsigned bits) {
  return _mm256_loadu_pd((const double *)(const void *)mb_masks[bits & 15u]);
}
IK2D_SIMD_INLINE vb b_select(mb m, vb a, vb b) { return _mm256_blendv_pd(b, a, m); }
IK2D_SIMD_INLINE vb b_abs(vb a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
IK2D_SIMD_INLINE vb b_neg(vb a) { return _mm256_xor_pd(_mm256_set1_pd(-0.0), a); }
IK2D_SIMD_INLINE vb b_copysign(vb a, vb b) {
  vb sign = _mm256_set1_pd(-0.0);
  return _mm256_or_pd(_mm256_andnot_pd(sign, a), _mm256_and_pd(sign, b));
}
IK2D_SIMD_INLINE vb b_trunc(vb a, int *index) {
  __m128i i = _mm256_cvttpd_epi32(a);
  _mm_storeu_si128((__m128i *)(void *)index, i);
  return _mm256_cvtepi32_pd(i);
}

/* ------------------------------------------------------------------ */
#elif IK2D_LANES_ISA == IK2D_ISA_NUM_SSE2

#define B_LANES 2
typedef __m128d vb;
typedef __m128d mb;
IK2D_SIMD_INLINE vb b_set1(double x) { return _mm_set1_pd(x); }
IK2D_SIMD_INLINE vb b_load(const double *p) { return _mm_loadu_pd(p); }
IK2D_SIMD_INLINE void b_store(double *p, vb a) { _mm_storeu_pd(p, a); }
IK2D_SIMD_INLINE vb b_add(vb a, vb b) { return _mm_add_pd(a, b); }
IK2D_SIMD_INLINE vb b_sub(vb a, vb b) { return _mm_sub_pd(a, b); }
IK2D_SIMD_INLINE vb b_mul(vb a, vb b) { return _mm_mul_pd(a, b); }
IK2D_SIMD_INLINE vb b_div(vb a, vb b) { return _mm_div_pd(a, b); }
IK2D_SIMD_INLINE vb b_sqrt(vb a) { return _mm_sqrt_pd(a); }
IK2D_SIMD_INLINE mb b_lt(vb a, vb b) { return _mm_cmplt_pd(a, b); }
IK2D_SIMD_INLINE mb b_le(vb a, vb b) { return _mm_cmple_pd(a, b); }
IK2D_SIMD_INLINE mb b_gt(vb a, vb b) { return _mm_cmpgt_pd(a, b); }
IK2D_SIMD_INLINE mb b_ge(vb a, vb b) { return _mm_cmpge_pd(a, b); }
IK2D_SIMD_INLINE mb b_eq(vb a, vb b) { return _mm_cmpeq_pd(a, b); }
IK2D_SIMD_INLINE mb mb_and(mb a, mb b) { return _mm_and_pd(a, b); }
IK2D_SIMD_INLINE mb mb_or(mb a, mb b) { return _mm_or_pd(a, b); }
IK2D_SIMD_INLINE mb mb_andnot(mb a, mb b) { return _mm_andnot_pd(a, b); }
IK2D_SIMD_INLINE mb mb_not(mb a) { return _mm_xor_pd(a, _mm_castsi128_pd(_mm_set1_epi32(-1))); }
IK2D_SIMD_INLINE mb mb_none(void) { return _mm_setzero_pd(); }
IK2D_SIMD_INLINE mb mb_all_lanes(void) { return _mm_castsi128_pd(_mm_set1_epi32(-1)); }
IK2D_SIMD_INLINE unsigned mb_bits(mb a) { return (unsigned)_mm_movemask_pd(a); }
static const long long mb_masks[4][2] = {{0, 0}, {-1, 0}, {0, -1}, {-1, -1}};
IK2D_SIMD_INLINE mb mb_from_bits(unsigned bits) {
  return _mm_loadu_pd((const double *)(const void *)mb_masks[bits & 3u]);
}
IK2D_SIMD_INLINE vb b_select(mb m, vb a, vb b) {
  return _mm_or_pd(_mm_and_pd(m, a), _mm_andnot_pd(m, b));
}
IK2D_SIMD_INLINE vb b_abs(vb a) { return _mm_andnot_pd(_mm_set1_pd(-0.0), a); }
IK2D_SIMD_INLINE vb b_neg(vb a) { return _mm_xor_pd(_mm_set1_pd(-0.0), a); }
IK2D_SIMD_INLINE vb b_copysign(vb a, vb b) {
  vb sign = _mm_set1_pd(-0.0);
  return _mm_or_pd(_mm_andnot_pd(sign, a), _mm_and_pd(sign, b));
}
IK2D_SIMD_INLINE vb b_trunc(vb a, int *index) {
  __m128i i = _mm_cvttpd_epi32(a);
  _mm_storel_epi64((__m128i *)(void *)index, i);
  return _mm_cvtepi32_pd(i);
}

/* ------------------------------------------------------------------ */
#else /* scalar: one lane, any machine */

#define B_LANES 1
typedef double vb;
typedef unsigned mb;
IK2D_SIMD_INLINE vb b_set1(double x) { return x; }
IK2D_SIMD_INLINE vb b_load(const double *p) { return *p; }
IK2D_SIMD_INLINE void b_store(double *p, vb a) { *p = a; }
IK2D_SIMD_INLINE vb b_add(vb a, vb b) { return a + b; }
IK2D_SIMD_INLINE vb b_sub(vb a, vb b) { return a - b; }
IK2D_SIMD_INLINE vb b_mul(vb a, vb b) { return a * b; }
IK2D_SIMD_INLINE vb b_div(vb a, vb b) { return a / b; }
IK2D_SIMD_INLINE vb b_sqrt(vb a) { return sqrt(a); }
IK2D_SIMD_INLINE mb b_lt(vb a, vb b) { return a < b; }
IK2D_SIMD_INLINE mb b_le(vb a, vb b) { return a <= b; }
IK2D_SIMD_INLINE mb b_gt(vb a, vb b) { return a > b; }
IK2D_SIMD_INLINE mb b_ge(vb a, vb b) { return a >= b; }
IK2D_SIMD_INLINE mb b_eq(vb a, vb b) { return a == b; }
IK2D_SIMD_INLINE mb mb_and(mb a, mb b) { return a & b; }
IK2D_SIMD_INLINE mb mb_or(mb a, mb b) { return a | b; }
IK2D_SIMD_INLINE mb mb_andnot(mb a, mb b) { return b & !a; }
IK2D_SIMD_INLINE mb mb_not(mb a) { return !a; }
IK2D_SIMD_INLINE mb mb_none(void) { return 0; }
IK2D_SIMD_INLINE mb mb_all_lanes(void) { return 1; }
IK2D_SIMD_INLINE unsigned mb_bits(mb a) { return a; }
IK2D_SIMD_INLINE mb mb_from_bits(unsigned bits) { return bits & 1; }
IK2D_SIMD_INLINE vb b_select(mb m, vb a, vb b) { return m ? a : b; }
IK2D_SIMD_INLINE vb b_abs(vb a) { return fabs(a); }
IK2D_SIMD_INLINE vb b_neg(vb a) { return -a; }
IK2D_SIMD_INLINE vb b_copysign(vb a, vb b) { return copysign(a, b); }
IK2D_SIMD_INLINE vb b_trunc(vb a, int *index) {
  *index = (int)a;
  return (double)*index;
}

#endif

/* ------------------------------------------------------------------ */
/* the lanes: one base vector, or two side by side                      */
/* ------------------------------------------------------------------ */

#if defined(IK2D_LANES_PAIR)
/* Two base vectors per value: every operation is two independent ones,
** so each chain of dependent sqrt, division and products runs beside
** another and the processor overlaps their latencies. */
#define V_LANES (2 * B_LANES)
typedef struct vd {
  vb lo, hi;
} vd;
typedef struct vm {
  mb lo, hi;
} vm;
#define IK2D_PAIR1(name, op)                                  \
  IK2D_SIMD_INLINE vd name(vd a) {                            \
    vd r;                                                     \
    r.lo = op(a.lo);                                          \
    r.hi = op(a.hi);                                          \
    return r;                                                 \
  }
#define IK2D_PAIR2(type, result, name, op)                    \
  IK2D_SIMD_INLINE result name(type a, type b) {              \
    result r;                                                 \
    r.lo = op(a.lo, b.lo);                                    \
    r.hi = op(a.hi, b.hi);                                    \
    return r;                                                 \
  }
IK2D_SIMD_INLINE vd v_set1(double x) {
  vd r;
  r.lo = r.hi = b_set1(x);
  return r;
}
IK2D_SIMD_INLINE vd v_load(const double *p) {
  vd r;
  r.lo = b_load(p);
  r.hi = b_load(p + B_LANES);
  return r;
}
IK2D_SIMD_INLINE void v_store(double *p, vd a) {
  b_store(p, a.lo);
  b_store(p + B_LANES, a.hi);
}
IK2D_PAIR2(vd, vd, v_add, b_add)
IK2D_PAIR2(vd, vd, v_sub, b_sub)
IK2D_PAIR2(vd, vd, v_mul, b_mul)
IK2D_PAIR2(vd, vd, v_div, b_div)
IK2D_PAIR1(v_sqrt, b_sqrt)
IK2D_PAIR1(v_abs, b_abs)
IK2D_PAIR1(v_neg, b_neg)
IK2D_PAIR2(vd, vd, v_copysign, b_copysign)
IK2D_PAIR2(vd, vm, v_lt, b_lt)
IK2D_PAIR2(vd, vm, v_le, b_le)
IK2D_PAIR2(vd, vm, v_gt, b_gt)
IK2D_PAIR2(vd, vm, v_ge, b_ge)
IK2D_PAIR2(vd, vm, v_eq, b_eq)
IK2D_PAIR2(vm, vm, m_and, mb_and)
IK2D_PAIR2(vm, vm, m_or, mb_or)
IK2D_PAIR2(vm, vm, m_andnot, mb_andnot)
IK2D_SIMD_INLINE vm m_not(vm a) {
  vm r;
  r.lo = mb_not(a.lo);
  r.hi = mb_not(a.hi);
  return r;
}
IK2D_SIMD_INLINE vm m_none(void) {
  vm r;
  r.lo = r.hi = mb_none();
  return r;
}
IK2D_SIMD_INLINE vm m_all_lanes(void) {
  vm r;
  r.lo = r.hi = mb_all_lanes();
  return r;
}
IK2D_SIMD_INLINE unsigned m_bits(vm a) { return mb_bits(a.lo) | mb_bits(a.hi) << B_LANES; }
IK2D_SIMD_INLINE vm m_from_bits(unsigned bits) {
  vm r;
  r.lo = mb_from_bits(bits & ((1u << B_LANES) - 1u));
  r.hi = mb_from_bits(bits >> B_LANES);
  return r;
}
IK2D_SIMD_INLINE vd v_select(vm m, vd a, vd b) {
  vd r;
  r.lo = b_select(m.lo, a.lo, b.lo);
  r.hi = b_select(m.hi, a.hi, b.hi);
  return r;
}
IK2D_SIMD_INLINE vd v_trunc(vd a, int *index) {
  vd r;
  r.lo = b_trunc(a.lo, index);
  r.hi = b_trunc(a.hi, index + B_LANES);
  return r;
}
#else
#define V_LANES B_LANES
typedef vb vd;
typedef mb vm;
#define v_set1 b_set1
#define v_load b_load
#define v_store b_store
#define v_add b_add
#define v_sub b_sub
#define v_mul b_mul
#define v_div b_div
#define v_sqrt b_sqrt
#define v_abs b_abs
#define v_neg b_neg
#define v_copysign b_copysign
#define v_lt b_lt
#define v_le b_le
#define v_gt b_gt
#define v_ge b_ge
#define v_eq b_eq
#define m_and mb_and
#define m_or mb_or
#define m_andnot mb_andnot
#define m_not mb_not
#define m_none mb_none
#define m_all_lanes mb_all_lanes
#define m_bits mb_bits
#define m_from_bits mb_from_bits
#define v_select b_select
#define v_trunc b_trunc
#endif

/* ------------------------------------------------------------------ */
/* built on the above, the same on every width                          */
/* ------------------------------------------------------------------ */

#define V_ALL ((1u << V_LANES) - 1u)

IK2D_SIMD_INLINE bool m_any(vm a) { return m_bits(a) != 0; }
IK2D_SIMD_INLINE bool m_all(vm a) { return m_bits(a) == V_ALL; }
IK2D_SIMD_INLINE bool m_lane(vm a, int l) { return (m_bits(a) >> l) & 1u; }

IK2D_SIMD_INLINE double v_lane(vd a, int l) {
  double lanes[V_LANES];
  v_store(lanes, a);
  return lanes[l];
}

IK2D_SIMD_INLINE vd v_from_table(const double *table, const int *index) {
  double lanes[V_LANES];
  int l;
  for (l = 0; l < V_LANES; l++) lanes[l] = table[index[l]];
  return v_load(lanes);
}

IK2D_SIMD_INLINE vd v_set_lane(vd a, int l, double x) {
  double lanes[V_LANES];
  v_store(lanes, a);
  lanes[l] = x;
  return v_load(lanes);
}

#endif
