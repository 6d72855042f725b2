// SPDX-License-Identifier: MIT
// Common functions (OpenCL C 3.0 6.15.3) for float, double, half
// (cl_khr_fp16) and their vectors. The exact ones are the same for all;
// half computes the others in float and rounds once (half's precision is
// then lost only in that rounding: within an ulp of the exact result, where
// computing in half rounds each step).
#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define PI_float M_PI_F
#define PI_double M_PI

// Elementwise min and max of width n (fmin's and fmax's NaN rule). Half's
// are a comparison and a select: without AVX-512 FP16, LLVM 19 lowers
// llvm.minnum/maxnum of half, scalar or vector, to a call of libm's
// fminf/fmaxf per element, and InstCombine makes one of a float min of two
// halves rounded back.
#define EMIN_float(k, n, a, b) __builtin_elementwise_min(a, b)
#define EMAX_float(k, n, a, b) __builtin_elementwise_max(a, b)
#define EMIN_double EMIN_float
#define EMAX_double EMAX_float
#define EMIN_half(k, n, a, b) ((b) < (a) || (a) != (a) ? (b) : (a))
#define EMAX_half(k, n, a, b) ((b) > (a) || (a) != (a) ? (b) : (a))

#define COMMON(n, k, T)                                                                            \
    COMMON_EXACT(n, k, T)                                                                          \
    CONST T##n degrees(T##n r)                                                                     \
    {                                                                                              \
        return r * ((T)180 / PI_##T);                                                              \
    }                                                                                              \
    CONST T##n radians(T##n d)                                                                     \
    {                                                                                              \
        return d * (PI_##T / (T)180);                                                              \
    }                                                                                              \
    CONST T##n mix(T##n x, T##n y, T##n a)                                                         \
    {                                                                                              \
        return x + (y - x) * a;                                                                    \
    }                                                                                              \
    CONST T##n smoothstep(T##n e0, T##n e1, T##n x)                                                \
    {                                                                                              \
        T##n t = clamp((x - e0) / (e1 - e0), (T##n)0.0f, (T##n)1.0f);                              \
        return t * t * (3.0f - 2.0f * t);                                                          \
    }                                                                                              \
    COMMON_SCALAR_ARGS_##k(n, T)

// The exact functions.
#define COMMON_EXACT(n, k, T)                                                                      \
    CONST T##n clamp(T##n x, T##n lo, T##n hi)                                                     \
    {                                                                                              \
        return EMIN_##T(k, n, EMAX_##T(k, n, x, lo), hi);                                          \
    }                                                                                              \
    CONST T##n max(T##n x, T##n y)                                                                 \
    {                                                                                              \
        return EMAX_##T(k, n, x, y);                                                               \
    }                                                                                              \
    CONST T##n min(T##n x, T##n y)                                                                 \
    {                                                                                              \
        return EMIN_##T(k, n, x, y);                                                               \
    }                                                                                              \
    CONST T##n step(T##n edge, T##n x)                                                             \
    {                                                                                              \
        return x < edge ? (T##n)0.0f : (T##n)1.0f;                                                 \
    }                                                                                              \
    /* 1 or -1 by the sign of x, x itself for zeros (keeping -0), 0 for NaN */                     \
    CONST T##n sign(T##n x)                                                                        \
    {                                                                                              \
        T##n one = __builtin_elementwise_copysign((T##n)1.0f, x);                                  \
        return x != x ? (T##n)0.0f : x == (T)0.0f ? x : one;                                       \
    }

// The (gentype, float) forms of vectors.
#define COMMON_SCALAR_ARGS_SCAL(n, T)
#define COMMON_SCALAR_ARGS_VEC(n, T)                                                               \
    CONST T##n clamp(T##n x, T lo, T hi)                                                           \
    {                                                                                              \
        return clamp(x, (T##n)lo, (T##n)hi);                                                       \
    }                                                                                              \
    CONST T##n max(T##n x, T y)                                                                    \
    {                                                                                              \
        return max(x, (T##n)y);                                                                    \
    }                                                                                              \
    CONST T##n min(T##n x, T y)                                                                    \
    {                                                                                              \
        return min(x, (T##n)y);                                                                    \
    }                                                                                              \
    CONST T##n mix(T##n x, T##n y, T a)                                                            \
    {                                                                                              \
        return mix(x, y, (T##n)a);                                                                 \
    }                                                                                              \
    CONST T##n step(T edge, T##n x)                                                                \
    {                                                                                              \
        return step((T##n)edge, x);                                                                \
    }                                                                                              \
    CONST T##n smoothstep(T e0, T e1, T##n x)                                                      \
    {                                                                                              \
        return smoothstep((T##n)e0, (T##n)e1, x);                                                  \
    }

FOR_WIDTHS(COMMON, float)
FOR_WIDTHS(COMMON, double)

// Half: the rounded functions in float (CVT to float is exact), rounded once.
#define HALF_COMMON(n, k, unused)                                                                  \
    COMMON_EXACT(n, k, half)                                                                       \
    CONST half##n degrees(half##n r)                                                               \
    {                                                                                              \
        return CVT(k, CVT(k, r, float##n) * (180.0f / M_PI_F), half##n);                           \
    }                                                                                              \
    CONST half##n radians(half##n d)                                                               \
    {                                                                                              \
        return CVT(k, CVT(k, d, float##n) * (M_PI_F / 180.0f), half##n);                           \
    }                                                                                              \
    CONST half##n mix(half##n x, half##n y, half##n a)                                             \
    {                                                                                              \
        return CVT(k, mix(CVT(k, x, float##n), CVT(k, y, float##n), CVT(k, a, float##n)),          \
                   half##n);                                                                       \
    }                                                                                              \
    CONST half##n smoothstep(half##n e0, half##n e1, half##n x)                                    \
    {                                                                                              \
        return CVT(k,                                                                              \
                   smoothstep(CVT(k, e0, float##n), CVT(k, e1, float##n), CVT(k, x, float##n)),    \
                   half##n);                                                                       \
    }                                                                                              \
    COMMON_SCALAR_ARGS_##k(n, half)
FOR_WIDTHS(HALF_COMMON, )
