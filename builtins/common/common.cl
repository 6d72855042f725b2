// SPDX-License-Identifier: MIT
// Common functions (OpenCL C 3.0 6.15.3) for float and its vectors.
#include "lanes_builtins.h"

#define COMMON(n, k, unused)                                                                       \
    CONST float##n clamp(float##n x, float##n lo, float##n hi)                                     \
    {                                                                                              \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);                    \
    }                                                                                              \
    CONST float##n degrees(float##n r)                                                             \
    {                                                                                              \
        return r * (180.0f / M_PI_F);                                                              \
    }                                                                                              \
    CONST float##n radians(float##n d)                                                             \
    {                                                                                              \
        return d * (M_PI_F / 180.0f);                                                              \
    }                                                                                              \
    CONST float##n max(float##n x, float##n y)                                                     \
    {                                                                                              \
        return __builtin_elementwise_max(x, y);                                                    \
    }                                                                                              \
    CONST float##n min(float##n x, float##n y)                                                     \
    {                                                                                              \
        return __builtin_elementwise_min(x, y);                                                    \
    }                                                                                              \
    CONST float##n mix(float##n x, float##n y, float##n a)                                         \
    {                                                                                              \
        return x + (y - x) * a;                                                                    \
    }                                                                                              \
    CONST float##n step(float##n edge, float##n x)                                                 \
    {                                                                                              \
        return x < edge ? (float##n)0.0f : (float##n)1.0f;                                         \
    }                                                                                              \
    CONST float##n smoothstep(float##n e0, float##n e1, float##n x)                                \
    {                                                                                              \
        float##n t = clamp((x - e0) / (e1 - e0), (float##n)0.0f, (float##n)1.0f);                  \
        return t * t * (3.0f - 2.0f * t);                                                          \
    }                                                                                              \
    /* 1 or -1 by the sign of x, x itself for zeros (keeping -0), 0 for NaN */                     \
    CONST float##n sign(float##n x)                                                                \
    {                                                                                              \
        float##n one = __builtin_elementwise_copysign((float##n)1.0f, x);                          \
        return x != x ? (float##n)0.0f : x == 0.0f ? x : one;                                      \
    }                                                                                              \
    COMMON_SCALAR_ARGS_##k(n)

// The (gentype, float) forms of vectors.
#define COMMON_SCALAR_ARGS_SCAL(n)
#define COMMON_SCALAR_ARGS_VEC(n)                                                                  \
    CONST float##n clamp(float##n x, float lo, float hi)                                           \
    {                                                                                              \
        return clamp(x, (float##n)lo, (float##n)hi);                                               \
    }                                                                                              \
    CONST float##n max(float##n x, float y)                                                        \
    {                                                                                              \
        return __builtin_elementwise_max(x, (float##n)y);                                          \
    }                                                                                              \
    CONST float##n min(float##n x, float y)                                                        \
    {                                                                                              \
        return __builtin_elementwise_min(x, (float##n)y);                                          \
    }                                                                                              \
    CONST float##n mix(float##n x, float##n y, float a)                                            \
    {                                                                                              \
        return mix(x, y, (float##n)a);                                                             \
    }                                                                                              \
    CONST float##n step(float edge, float##n x)                                                    \
    {                                                                                              \
        return step((float##n)edge, x);                                                            \
    }                                                                                              \
    CONST float##n smoothstep(float e0, float e1, float##n x)                                      \
    {                                                                                              \
        return smoothstep((float##n)e0, (float##n)e1, x);                                          \
    }

FOR_WIDTHS(COMMON, )
