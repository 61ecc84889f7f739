/*
** ik2d_fp.h: how the core's floating point is compiled (not installed).
**
** Every operation on doubles is the IEEE-754 one, rounded on its own, in
** the order the source writes: the same bits on every path and platform
** whatever the build's flags.  Every source of the core includes it
** before anything that computes (most through ik2d_math.h);
** docs/invariants.md says what holds and which tests check it.
*/
#ifndef IK2D_FP_H
#define IK2D_FP_H

/* The options that let a compiler change a result's bits, or compile the
** checks that refuse NaN and infinite input to nothing, are refused here
** rather than obeyed in silence: build the core (src/ik2d_*.c) without
** them, as the Makefile does.  Each defines a macro: gcc and clang's
** -ffast-math (and -Ofast) __FAST_MATH__, -ffinite-math-only
** __FINITE_MATH_ONLY__, gcc's -fassociative-math, -freciprocal-math and
** -fno-signed-zeros (-funsafe-math-optimizations) the three below,
** MSVC's /fp:fast _M_FP_FAST.  (clang's -fassociative-math and
** -freciprocal-math define none: a pragma below undoes them instead.) */
#if defined(__FAST_MATH__)
#error "ik2d: built with -ffast-math or -Ofast, which reorder and fuse arithmetic: other bits, NaN let in"
#elif defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
#error "ik2d: built with -ffinite-math-only, which drops the checks that refuse NaN and infinite input"
#elif defined(__ASSOCIATIVE_MATH__) || defined(__RECIPROCAL_MATH__) || defined(__NO_SIGNED_ZEROS__)
#error "ik2d: built with -funsafe-math-optimizations, -fassociative-math, -freciprocal-math or -fno-signed-zeros: other bits"
#elif defined(_M_FP_FAST)
#error "ik2d: built with /fp:fast, which reorders and fuses arithmetic: other bits than other builds"
#endif

/* Each operation rounded on its own, in the source's order: a * b + c
** never fused into one rounding (an FMA), whatever -ffp-contract says,
** nothing reassociated. */
#if defined(__clang__)
/* the pragmas float_control and fp exceptions: clang 12 (Apple's 13) */
#if __clang_major__ >= 13 || (__clang_major__ >= 12 && !defined(__apple_build_version__))
#define IK2D_FP_CLANG_PRAGMAS 1
#else
#define IK2D_FP_CLANG_PRAGMAS 0
#endif
/* No reassociation, reciprocal or ignored sign of zero, whatever
** -funsafe-math-optimizations says: clang defines no macro for it. */
#if IK2D_FP_CLANG_PRAGMAS
#pragma float_control(precise, on)
#endif
/* Honoured under -ffp-contract=on (clang's default) and off; ignored
** under -ffp-contract=fast, where the code generator fuses any product
** with the sum that uses it... */
#pragma STDC FP_CONTRACT OFF
/* ...but never an operation that may trap.  With exceptions "maytrap"
** every operation stays apart on x86 under any -ffp-contract; it costs
** a few percent of speed, so it is asked for only where the target has
** FMA instructions to fuse into: -mfma, -march=haswell or later, AMD's
** -mfma4, or a kernel compiled for an instruction set that brings them
** (the AVX-512 lanes define IK2D_FP_TARGET_FMA).  (On aarch64 clang 14
** fuses even these: nothing in a source stops -ffp-contract=fast there.) */
#if IK2D_FP_CLANG_PRAGMAS && (defined(__FMA__) || defined(__FMA4__) || defined(IK2D_FP_TARGET_FMA))
#pragma clang fp exceptions(maytrap)
#endif
#elif defined(__GNUC__)
/* gcc fuses by default outside ISO C modes (-std=gnu99), wherever the
** target has FMA */
#pragma GCC optimize("fp-contract=off")
#if defined(__FMA__) || defined(__FMA4__)
/* and gcc 12 fuses the complex products it vectorises even so, in
** straight code and in loops (-O3) */
#pragma GCC optimize("no-tree-slp-vectorize", "no-tree-loop-vectorize")
#endif
#endif

#endif
