/* SPDX-License-Identifier: MIT */
/*
 * The scaffolding builtins/math/math.cl (float) and math_double.cl (double)
 * share: SLEEF's functions declared and called at every width, and the math
 * modes a program was built with. The includer defines first:
 *   MATH_T        the element type (float, double)
 *   MATH_C        SLEEF's letter for it (f, d)
 *   MATH_S, MATH_M, MATH_L
 *                 SLEEF's widths of 128, 256 and 512 bits (4, 8, 16 / 2, 4, 8)
 *   AT_, AT_2, AT_3, AT_4, AT_8, AT_16 (fn, u, args...)
 *                 a call of SLEEF's fn with accuracy u at that OpenCL width,
 *                 from CALL1, CALLS, CALLM, CALLL below (padded or split)
 *
 * SLEEF's code per ISA level:
 *   scalar: purec[fma]; 128 bits: sse2 (v2) or avx2128 (v3, v4)
 *   256 bits: avx2 (v3, v4) or two 128-bit calls; 512 bits: avx512f (v4) or two 256-bit calls
 *
 * Always SLEEF's deterministic entry points (Sleef_finz_ with FMA, v3 and
 * v4; Sleef_cinz_ without, v2): their result for an element depends on
 * that element only, and is the same at every width of one level. SLEEF's
 * plain vector names take a faster path when every element is small, so a
 * lane's result would depend on its neighbours' arguments (sinf differs in
 * the last bit for about 1 in 10,000 arguments). The vectorizer relies on
 * this: it turns a scalar call into one at the sub-group's width
 * (compiler/vectorize/vz_math.c), and a kernel gives the same bits at every
 * width.
 */
#ifndef LANES_MATH_H
#define LANES_MATH_H

#include "lanes_builtins.h"

/*
 * The math modes of the kernel the library is linked into, defined by the
 * link (compiler/builtins.c) from the kernel's options: each test of them
 * folds at O3, so a variant costs nothing where it is not taken.
 *   UNSAFE_MATH  -cl-unsafe-math-optimizations (or -cl-fast-relaxed-math):
 *                float accuracy as OpenCL C 7.4's relaxed table allows
 *   FINITE_MATH  -cl-finite-math-only (or -cl-fast-relaxed-math): no
 *                argument or result is a NaN or an infinity
 */
extern __constant int __lanes_unsafe_math, __lanes_finite_math;
#define UNSAFE_MATH (__lanes_unsafe_math != 0)
#define FINITE_MATH (__lanes_finite_math != 0)

#if LANES_ISA >= 3
#define ISA1 purecfma
#define ISAS avx2128
#else
#define ISA1 purec
#define ISAS sse2
#endif

/* The (vector) type of width n ("" for the scalar). */
#define VT(n) PASTE(MATH_T, n)
#define SLEEF(fn, w, u, isa) SLEEF_(fn, MATH_C, w, u, isa)
#define SLEEF_(fn, c, w, u, isa) SLEEF__(fn, c, w, u, isa)
#if LANES_ISA >= 3
#define SLEEF__(fn, c, w, u, isa) Sleef_finz_##fn##c##w##_##u##isa
#else
#define SLEEF__(fn, c, w, u, isa) Sleef_cinz_##fn##c##w##_##u##isa
#endif

/* The parameters and arguments of an arity-a function of type T. */
#define PARAMS1(T) T x
#define PARAMS2(T) T x, T y
#define TYPES1(T) T
#define TYPES2(T) T, T
#define NAMES1 x
#define NAMES2 x, y

/* SLEEF's fn of arity a with accuracy u, at width w (named w, typed n: "" for the scalar). */
#define DECLARE_AT(a, fn, u, n, w, isa)                                                            \
    VT(n) SLEEF(fn, w, u, isa)(TYPES##a(VT(n))) __attribute__((const));
#define DECLARE(a, fn, u)                                                                          \
    DECLARE_AT(a, fn, u, , 1, ISA1)                                                                \
    DECLARE_AT(a, fn, u, MATH_S, MATH_S, ISAS) DECLARE_M(a, fn, u) DECLARE_L(a, fn, u)
#define CALL1(fn, u, ...) SLEEF(fn, 1, u, ISA1)(__VA_ARGS__)
#define CALLS(fn, u, ...) SLEEF(fn, MATH_S, u, ISAS)(__VA_ARGS__)
#if LANES_ISA >= 3
#define DECLARE_M(a, fn, u) DECLARE_AT(a, fn, u, MATH_M, MATH_M, avx2)
#define CALLM(fn, u, ...) SLEEF(fn, MATH_M, u, avx2)(__VA_ARGS__)
#else
#define DECLARE_M(a, fn, u)
#define CALLM(fn, u, ...) (VT(MATH_M))(CALLS(fn, u, LO(__VA_ARGS__)), CALLS(fn, u, HI(__VA_ARGS__)))
#endif
#if LANES_ISA >= 4
#define DECLARE_L(a, fn, u) DECLARE_AT(a, fn, u, MATH_L, MATH_L, avx512f)
#define CALLL(fn, u, ...) SLEEF(fn, MATH_L, u, avx512f)(__VA_ARGS__)
#else
#define DECLARE_L(a, fn, u)
#define CALLL(fn, u, ...) (VT(MATH_L))(CALLM(fn, u, LO(__VA_ARGS__)), CALLM(fn, u, HI(__VA_ARGS__)))
#endif

/* Halves of each argument (one or two), for splitting a wide call; a swizzle of each. */
#define LO(...) LO_N(__VA_ARGS__, LO2, LO1)(__VA_ARGS__)
#define HI(...) LO_N(__VA_ARGS__, HI2, HI1)(__VA_ARGS__)
#define SWZ(s, ...) LO_N(__VA_ARGS__, SWZ2, SWZ1)(s, __VA_ARGS__)
#define LO_N(a, b, m, ...) m
#define LO1(x) (x).lo
#define LO2(x, y) (x).lo, (y).lo
#define HI1(x) (x).hi
#define HI2(x, y) (x).hi, (y).hi
#define SWZ1(s, x) (x).s
#define SWZ2(s, x, y) (x).s, (y).s

/* name(T x[, T y]) at width n: SLEEF's fn with accuracy u, or ur under UNSAFE_MATH. */
#define SLEEF_AT(n, k, a, name, fn, u)                                                             \
    CONST VT(n) name(PARAMS##a(VT(n)))                                                             \
    {                                                                                              \
        return AT_##n(fn, u, NAMES##a);                                                            \
    }
#define RELAXED_AT(n, k, a, name, fn, u, ur)                                                       \
    CONST VT(n) name(PARAMS##a(VT(n)))                                                             \
    {                                                                                              \
        return UNSAFE_MATH ? AT_##n(fn, ur, NAMES##a) : AT_##n(fn, u, NAMES##a);                   \
    }
/* name -> SLEEF's fn with accuracy u, for every width (arity 1 or 2). */
#define SLEEF1(name, fn, u) DECLARE(1, fn, u) FOR_WIDTHS(SLEEF_AT, 1, name, fn, u)
#define SLEEF2(name, fn, u) DECLARE(2, fn, u) FOR_WIDTHS(SLEEF_AT, 2, name, fn, u)
/* The same with SLEEF's accuracy ur where the relaxed table allows it (float only). */
#define SLEEF1_RELAXED(name, fn, u, ur)                                                            \
    DECLARE(1, fn, u) DECLARE(1, fn, ur) FOR_WIDTHS(RELAXED_AT, 1, name, fn, u, ur)
#define SLEEF2_RELAXED(name, fn, u, ur)                                                            \
    DECLARE(2, fn, u) DECLARE(2, fn, ur) FOR_WIDTHS(RELAXED_AT, 2, name, fn, u, ur)

/* The address spaces of an output pointer argument: named, then generic. */
#define FOR_POINTER_SPACES(M, ...)                                                                 \
    M(__global, __VA_ARGS__) M(__local, __VA_ARGS__) M(__private, __VA_ARGS__) M(, __VA_ARGS__)

/* Conversions of a width-n value (n "" for the scalar) to int, long and the element type. */
#define CVT_TO(T, x, n) CVT_TO_##n(T, x)
#define CVT_TO_(T, x) ((T)(x))
#define CVT_TO_2(T, x) __builtin_convertvector(x, PASTE(T, 2))
#define CVT_TO_3(T, x) __builtin_convertvector(x, PASTE(T, 3))
#define CVT_TO_4(T, x) __builtin_convertvector(x, PASTE(T, 4))
#define CVT_TO_8(T, x) __builtin_convertvector(x, PASTE(T, 8))
#define CVT_TO_16(T, x) __builtin_convertvector(x, PASTE(T, 16))
#define CVT_INT(x, n) CVT_TO(int, x, n)
#define CVT_LONG(x, n) CVT_TO(long, x, n)
#define CVT_FLOAT(x, n) CVT_TO(float, x, n)
#define CVT_DOUBLE(x, n) CVT_TO(double, x, n)

#endif
