// SPDX-License-Identifier: MIT
// Half math (OpenCL C 3.0 6.15.2, cl_khr_fp16): every function computed in
// float from the exact float value of its half arguments, by the library's
// float function, and rounded once to half. Where the float function is
// within a few float ulp of the exact result (all of them, math.cl), that
// error is a few 2^-13 of a half ulp: the half result is the correctly
// rounded one or, when the exact result lies that close to a midpoint
// between two halves, its neighbour; within 0.51 ulp of the exact result.
// That is within OpenCL's half bounds for all of them, the correctly
// rounded ones aside (below); kernels-tests/test_half.c checks 0.51, on
// every half for the functions of one argument. The vectorizer widens the float code like the
// kernel's own (SLEEF's vector math for the calls).
//
// Correctly rounded: sqrt, fdim (one float operation on exact operands:
// float has 24 >= 2 * 11 + 2 bits, so rounding twice is rounding once),
// ldexp (exact in float), fract (x - floor(x) is exact in float; rounded
// to half it may reach 1, and is then the largest half below 1).
// Exact (the float result is a half): fabs, floor, ceil, trunc, round,
// rint, fmin, fmax, copysign, fmod, remainder, remquo, modf, frexp,
// ilogb, logb, maxmag, minmag; nan and nextafter are written on half's bits.
// fma: the product of two halves is exact in double, and their sum with a
// half is either exact in double or (a gap of more than 20 bits between
// them) decided by the larger addend alone: rounded once from double
// (never through float) it is correctly rounded, as a fused multiply-add.
// mad: float's fma, rounded to half (any precision is allowed).
#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define TF(k, x, n) CVT(k, x, float##n)
#define TH(k, x, n) CVT(k, x, half##n)

CONST ushort lanes_double_to_half_rte(double);
#define DOUBLE_TO_HALF_DECL(n, k, unused) CONST ushort##n lanes_double_to_half_rte(double##n);
FOR_VECTOR_WIDTHS(DOUBLE_TO_HALF_DECL, )

// The float function f of one or two halves, rounded to half. The float
// functions are declared here: a definition of the half overload hides
// Clang's own declarations of the name.
#define W1(f, n, k)                                                                                \
    CONST float##n f(float##n);                                                                    \
    CONST half##n f(half##n x)                                                                     \
    {                                                                                              \
        return TH(k, f(TF(k, x, n)), n);                                                           \
    }
#define W2(f, n, k)                                                                                \
    CONST float##n f(float##n, float##n);                                                          \
    CONST half##n f(half##n x, half##n y)                                                          \
    {                                                                                              \
        return TH(k, f(TF(k, x, n), TF(k, y, n)), n);                                              \
    }

#define HALF_MATH(n, k, unused)                                                                    \
    W1(acos, n, k)                                                                                 \
    W1(acosh, n, k)                                                                                \
    W1(acospi, n, k)                                                                               \
    W1(asin, n, k)                                                                                 \
    W1(asinh, n, k)                                                                                \
    W1(asinpi, n, k)                                                                               \
    W1(atan, n, k)                                                                                 \
    W1(atanh, n, k)                                                                                \
    W1(atanpi, n, k)                                                                               \
    W1(cbrt, n, k)                                                                                 \
    W1(ceil, n, k)                                                                                 \
    W1(cos, n, k)                                                                                  \
    W1(cosh, n, k)                                                                                 \
    W1(cospi, n, k)                                                                                \
    W1(erf, n, k)                                                                                  \
    W1(erfc, n, k)                                                                                 \
    W1(exp, n, k)                                                                                  \
    W1(exp2, n, k)                                                                                 \
    W1(exp10, n, k)                                                                                \
    W1(expm1, n, k)                                                                                \
    W1(fabs, n, k)                                                                                 \
    W1(floor, n, k)                                                                                \
    W1(lgamma, n, k)                                                                               \
    W1(log, n, k)                                                                                  \
    W1(log2, n, k)                                                                                 \
    W1(log10, n, k)                                                                                \
    W1(log1p, n, k)                                                                                \
    W1(logb, n, k)                                                                                 \
    W1(rint, n, k)                                                                                 \
    W1(round, n, k)                                                                                \
    W1(rsqrt, n, k)                                                                                \
    W1(sin, n, k)                                                                                  \
    W1(sinh, n, k)                                                                                 \
    W1(sinpi, n, k)                                                                                \
    W1(sqrt, n, k)                                                                                 \
    W1(tan, n, k)                                                                                  \
    W1(tanh, n, k)                                                                                 \
    W1(tanpi, n, k)                                                                                \
    W1(tgamma, n, k)                                                                               \
    W1(trunc, n, k)                                                                                \
    W2(atan2, n, k)                                                                                \
    W2(atan2pi, n, k)                                                                              \
    W2(copysign, n, k)                                                                             \
    W2(fdim, n, k)                                                                                 \
    /* fmin and fmax as a comparison and a select, for the reason common.cl gives */               \
    CONST half##n fmin(half##n x, half##n y)                                                       \
    {                                                                                              \
        return y < x || x != x ? y : x;                                                            \
    }                                                                                              \
    CONST half##n fmax(half##n x, half##n y)                                                       \
    {                                                                                              \
        return y > x || x != x ? y : x;                                                            \
    }                                                                                              \
    W2(fmod, n, k)                                                                                 \
    W2(hypot, n, k)                                                                                \
    W2(maxmag, n, k)                                                                               \
    W2(minmag, n, k)                                                                               \
    W2(pow, n, k)                                                                                  \
    W2(powr, n, k)                                                                                 \
    W2(remainder, n, k)                                                                            \
    CONST half##n fma(half##n x, half##n y, half##n z)                                             \
    {                                                                                              \
        double##n xd = CVT(k, TF(k, x, n), double##n), yd = CVT(k, TF(k, y, n), double##n);        \
        double##n zd = CVT(k, TF(k, z, n), double##n);                                             \
        return as_half##n(lanes_double_to_half_rte(__builtin_elementwise_fma(xd, yd, zd)));        \
    }                                                                                              \
    CONST half##n mad(half##n x, half##n y, half##n z)                                             \
    {                                                                                              \
        return TH(k, __builtin_elementwise_fma(TF(k, x, n), TF(k, y, n), TF(k, z, n)), n);         \
    }                                                                                              \
    CONST int##n ilogb(float##n);                                                                  \
    CONST float##n ldexp(float##n, int##n);                                                        \
    CONST float##n pown(float##n, int##n);                                                         \
    CONST float##n rootn(float##n, int##n);                                                        \
    OVL float##n sincos(float##n, __private float##n *);                                           \
    OVL float##n fract(float##n, __private float##n *);                                            \
    OVL float##n modf(float##n, __private float##n *);                                             \
    OVL float##n frexp(float##n, __private int##n *);                                              \
    OVL float##n lgamma_r(float##n, __private int##n *);                                           \
    OVL float##n remquo(float##n, float##n, __private int##n *);                                   \
    CONST int##n ilogb(half##n x)                                                                  \
    {                                                                                              \
        return ilogb(TF(k, x, n));                                                                 \
    }                                                                                              \
    CONST half##n ldexp(half##n x, int##n e)                                                       \
    {                                                                                              \
        return TH(k, ldexp(TF(k, x, n), e), n);                                                    \
    }                                                                                              \
    CONST half##n pown(half##n x, int##n e)                                                        \
    {                                                                                              \
        return TH(k, pown(TF(k, x, n), e), n);                                                     \
    }                                                                                              \
    CONST half##n rootn(half##n x, int##n e)                                                       \
    {                                                                                              \
        return TH(k, rootn(TF(k, x, n), e), n);                                                    \
    }                                                                                              \
    CONST half##n nan(ushort##n nancode)                                                           \
    {                                                                                              \
        return as_half##n((ushort##n)((ushort)0x7e00 | (nancode & (ushort)0x1ff)));                \
    }                                                                                              \
    /* One step in the bits toward y: +1 on the bits grows the magnitude whatever the sign; */     \
    /* from a zero, the least subnormal of y's sign. */                                            \
    CONST half##n nextafter(half##n x, half##n y)                                                  \
    {                                                                                              \
        short##n ix = as_short##n(x), iy = as_short##n(y);                                         \
        short##n r =                                                                               \
            (x < y) == (ix >= (short)0) ? (short##n)(ix + (short)1) : (short##n)(ix - (short)1);   \
        r = x == (half)0.0f ? (short##n)((iy & (short)0x8000) | (short)1) : r;                     \
        r = x == y ? iy : r;                                                                       \
        return x != x || y != y ? x + y : as_half##n(r);                                           \
    }                                                                                              \
    HALF_SCALAR_ARGS_##k(n) FOR_POINTER_SPACES(HALF_POINTER, n, k)

// The (halfn, half) and (halfn, int) forms of vectors.
#define HALF_SCALAR_ARGS_SCAL(n)
#define HALF_SCALAR_ARGS_VEC(n)                                                                    \
    CONST half##n fmin(half##n x, half y)                                                          \
    {                                                                                              \
        return fmin(x, (half##n)y);                                                                \
    }                                                                                              \
    CONST half##n fmax(half##n x, half y)                                                          \
    {                                                                                              \
        return fmax(x, (half##n)y);                                                                \
    }                                                                                              \
    CONST half##n ldexp(half##n x, int e)                                                          \
    {                                                                                              \
        return ldexp(x, (int##n)e);                                                                \
    }

// The functions with an output pointer in address space AS (FOR_POINTER_SPACES).
#define HALF_POINTER(AS, n, k)                                                                     \
    OVL half##n sincos(half##n x, AS half##n *cosval)                                              \
    {                                                                                              \
        float##n c, s = sincos(TF(k, x, n), &c);                                                   \
        *cosval = TH(k, c, n);                                                                     \
        return TH(k, s, n);                                                                        \
    }                                                                                              \
    /* Rounded to half, x - floor(x) may reach 1: the largest half below 1 instead. */             \
    OVL half##n fract(half##n x, AS half##n *iptr)                                                 \
    {                                                                                              \
        float##n i, r = fract(TF(k, x, n), &i);                                                    \
        *iptr = TH(k, i, n);                                                                       \
        half##n h = TH(k, r, n);                                                                   \
        return h > 0x1.ffcp-1h ? (half##n)0x1.ffcp-1h : h;                                         \
    }                                                                                              \
    OVL half##n modf(half##n x, AS half##n *iptr)                                                  \
    {                                                                                              \
        float##n i, r = modf(TF(k, x, n), &i);                                                     \
        *iptr = TH(k, i, n);                                                                       \
        return TH(k, r, n);                                                                        \
    }                                                                                              \
    OVL half##n frexp(half##n x, AS int##n *exp)                                                   \
    {                                                                                              \
        int##n e;                                                                                  \
        float##n r = frexp(TF(k, x, n), &e);                                                       \
        *exp = e;                                                                                  \
        return TH(k, r, n);                                                                        \
    }                                                                                              \
    OVL half##n lgamma_r(half##n x, AS int##n *signp)                                              \
    {                                                                                              \
        int##n s;                                                                                  \
        float##n r = lgamma_r(TF(k, x, n), &s);                                                    \
        *signp = s;                                                                                \
        return TH(k, r, n);                                                                        \
    }                                                                                              \
    OVL half##n remquo(half##n x, half##n y, AS int##n *quo)                                       \
    {                                                                                              \
        int##n q;                                                                                  \
        float##n r = remquo(TF(k, x, n), TF(k, y, n), &q);                                         \
        *quo = q;                                                                                  \
        return TH(k, r, n);                                                                        \
    }

#define FOR_POINTER_SPACES(M, ...)                                                                 \
    M(__global, __VA_ARGS__) M(__local, __VA_ARGS__) M(__private, __VA_ARGS__) M(, __VA_ARGS__)

FOR_WIDTHS(HALF_MATH, )
