// SPDX-License-Identifier: MIT
// Common functions (OpenCL C 3.0 6.15.3) for float, double and their vectors.
#include "lanes_builtins.h"

#define PI_float M_PI_F
#define PI_double M_PI

#define COMMON(n, k, T)                                                                            \
    CONST T##n clamp(T##n x, T##n lo, T##n hi)                                                     \
    {                                                                                              \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);                    \
    }                                                                                              \
    CONST T##n degrees(T##n r)                                                                     \
    {                                                                                              \
        return r * ((T)180 / PI_##T);                                                              \
    }                                                                                              \
    CONST T##n radians(T##n d)                                                                     \
    {                                                                                              \
        return d * (PI_##T / (T)180);                                                              \
    }                                                                                              \
    CONST T##n max(T##n x, T##n y)                                                                 \
    {                                                                                              \
        return __builtin_elementwise_max(x, y);                                                    \
    }                                                                                              \
    CONST T##n min(T##n x, T##n y)                                                                 \
    {                                                                                              \
        return __builtin_elementwise_min(x, y);                                                    \
    }                                                                                              \
    CONST T##n mix(T##n x, T##n y, T##n a)                                                         \
    {                                                                                              \
        return x + (y - x) * a;                                                                    \
    }                                                                                              \
    CONST T##n step(T##n edge, T##n x)                                                             \
    {                                                                                              \
        return x < edge ? (T##n)0.0f : (T##n)1.0f;                                                 \
    }                                                                                              \
    CONST T##n smoothstep(T##n e0, T##n e1, T##n x)                                                \
    {                                                                                              \
        T##n t = clamp((x - e0) / (e1 - e0), (T##n)0.0f, (T##n)1.0f);                              \
        return t * t * (3.0f - 2.0f * t);                                                          \
    }                                                                                              \
    /* 1 or -1 by the sign of x, x itself for zeros (keeping -0), 0 for NaN */                     \
    CONST T##n sign(T##n x)                                                                        \
    {                                                                                              \
        T##n one = __builtin_elementwise_copysign((T##n)1.0f, x);                                  \
        return x != x ? (T##n)0.0f : x == 0.0f ? x : one;                                          \
    }                                                                                              \
    COMMON_SCALAR_ARGS_##k(n, T)

// The (gentype, float) forms of vectors.
#define COMMON_SCALAR_ARGS_SCAL(n, T)
#define COMMON_SCALAR_ARGS_VEC(n, T)                                                               \
    CONST T##n clamp(T##n x, T lo, T hi)                                                           \
    {                                                                                              \
        return clamp(x, (T##n)lo, (T##n)hi);                                                       \
    }                                                                                              \
    CONST T##n max(T##n x, T y)                                                                    \
    {                                                                                              \
        return __builtin_elementwise_max(x, (T##n)y);                                              \
    }                                                                                              \
    CONST T##n min(T##n x, T y)                                                                    \
    {                                                                                              \
        return __builtin_elementwise_min(x, (T##n)y);                                              \
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
