// SPDX-License-Identifier: MIT
// Geometric functions (OpenCL C 3.0 6.15.5) for float, float2, float3, float4
// and the same shapes of double and half (which have no fast_ functions).
#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

CONST float dot(float x, float y)
{
    return x * y;
}
CONST float dot(float2 x, float2 y)
{
    return x.x * y.x + x.y * y.y;
}
CONST float dot(float3 x, float3 y)
{
    return x.x * y.x + x.y * y.y + x.z * y.z;
}
CONST float dot(float4 x, float4 y)
{
    return (x.x * y.x + x.y * y.y) + (x.z * y.z + x.w * y.w);
}

CONST float3 cross(float3 a, float3 b)
{
    return a.yzx * b.zxy - a.zxy * b.yzx;
}
CONST float4 cross(float4 a, float4 b)
{
    return (float4)(cross(a.xyz, b.xyz), 0.0f);
}

// length scales by the largest magnitude when the squares would overflow or
// lose precision to underflow; normalize always does; distance builds on length.
#define GEOMETRIC(n, k, unused)                                                                    \
    /*                                                                                             \
     * p times a power of two (exact) that brings its largest magnitude m (finite, not 0) into     \
     * [1, 2): no square then overflows, and no element loses bits the result keeps. *undo is      \
     * the inverse factor.                                                                         \
     */                                                                                            \
    static inline float##n scaled_##k##n(float##n p, float m, float *undo)                         \
    {                                                                                              \
        float pre = m > 0x1p64f ? 0x1p-64f : m < 0x1p-64f ? 0x1p64f : 1.0f;                        \
        uint e = as_uint(m * pre) >> 23; /* a normal number's biased exponent, 42 to 191 */        \
        *undo = as_float(e << 23) * (1.0f / pre);                                                  \
        return p * pre * as_float((254u - e) << 23);                                               \
    }                                                                                              \
    CONST float length(float##n p)                                                                 \
    {                                                                                              \
        float l2 = dot(p, p);                                                                      \
        if (l2 < INFINITY && l2 > 0x1p-100f)                                                       \
            return __builtin_elementwise_sqrt(l2);                                                 \
        float m = MAX_ELEMENT_##k(__builtin_elementwise_abs(p));                                   \
        if (m == 0.0f || m == INFINITY || m != m)                                                  \
            return m == 0.0f ? 0.0f : m + dot(p, p); /* NaN stays NaN */                           \
        float undo;                                                                                \
        float##n q = scaled_##k##n(p, m, &undo);                                                   \
        return __builtin_elementwise_sqrt(dot(q, q)) * undo;                                       \
    }                                                                                              \
    CONST float distance(float##n p0, float##n p1)                                                 \
    {                                                                                              \
        return length(p0 - p1);                                                                    \
    }                                                                                              \
    /* Scaled by a power of two first (exact), so that neither tiny nor huge p loses precision. */ \
    CONST float##n normalize(float##n p)                                                           \
    {                                                                                              \
        float##n a = __builtin_elementwise_abs(p);                                                 \
        float m = MAX_ELEMENT_##k(a);                                                              \
        if (m == INFINITY) { /* infinities: 1 there, 0 elsewhere */                                \
            p = __builtin_elementwise_copysign(a == INFINITY ? (float##n)1.0f : (float##n)0.0f,    \
                                               p);                                                 \
            m = 1.0f;                                                                              \
        }                                                                                          \
        if (m == 0.0f || m != m)                                                                   \
            return m == 0.0f ? p : p + m; /* zero stays as is, NaN stays NaN */                    \
        float undo;                                                                                \
        float##n q = scaled_##k##n(p, m, &undo);                                                   \
        return q / __builtin_elementwise_sqrt(dot(q, q));                                          \
    }                                                                                              \
    CONST float fast_length(float##n p)                                                            \
    {                                                                                              \
        return half_sqrt(dot(p, p));                                                               \
    }                                                                                              \
    CONST float fast_distance(float##n p0, float##n p1)                                            \
    {                                                                                              \
        return fast_length(p0 - p1);                                                               \
    }                                                                                              \
    CONST float##n fast_normalize(float##n p)                                                      \
    {                                                                                              \
        float l2 = dot(p, p);                                                                      \
        return l2 == 0.0f ? p : p * half_rsqrt(l2);                                                \
    }
#define MAX_ELEMENT_SCAL(a) (a)
#define MAX_ELEMENT_VEC(a) __builtin_reduce_max(a)

CONST float half_sqrt(float);
CONST float half_rsqrt(float);
GEOMETRIC(, SCAL, )
GEOMETRIC(2, VEC, )
GEOMETRIC(3, VEC, )
GEOMETRIC(4, VEC, )

CONST double dot(double x, double y)
{
    return x * y;
}
CONST double dot(double2 x, double2 y)
{
    return x.x * y.x + x.y * y.y;
}
CONST double dot(double3 x, double3 y)
{
    return x.x * y.x + x.y * y.y + x.z * y.z;
}
CONST double dot(double4 x, double4 y)
{
    return (x.x * y.x + x.y * y.y) + (x.z * y.z + x.w * y.w);
}

CONST double3 cross(double3 a, double3 b)
{
    return a.yzx * b.zxy - a.zxy * b.yzx;
}
CONST double4 cross(double4 a, double4 b)
{
    return (double4)(cross(a.xyz, b.xyz), 0.0);
}

#define DOUBLE_GEOMETRIC(n, k, unused)                                                             \
    /*                                                                                             \
     * p times a power of two (exact) that brings its largest magnitude m (finite, not 0) into     \
     * [1, 2): no square then overflows, and no element loses bits the result keeps. *undo is      \
     * the inverse factor.                                                                         \
     */                                                                                            \
    static inline double##n dscaled_##k##n(double##n p, double m, double *undo)                    \
    {                                                                                              \
        double pre = m > 0x1p512 ? 0x1p-512 : m < 0x1p-512 ? 0x1p512 : 1.0;                        \
        ulong e = as_ulong(m * pre) >> 52; /* a normal number's biased exponent */                 \
        *undo = as_double(e << 52) * (1.0 / pre);                                                  \
        return p * pre * as_double((2046ul - e) << 52);                                            \
    }                                                                                              \
    CONST double length(double##n p)                                                               \
    {                                                                                              \
        double l2 = dot(p, p);                                                                     \
        if (l2 < INFINITY && l2 > 0x1p-968)                                                        \
            return __builtin_elementwise_sqrt(l2);                                                 \
        double m = MAX_ELEMENT_##k(__builtin_elementwise_abs(p));                                  \
        if (m == 0.0 || m == INFINITY || m != m)                                                   \
            return m == 0.0 ? 0.0 : m + dot(p, p); /* NaN stays NaN */                             \
        double undo;                                                                               \
        double##n q = dscaled_##k##n(p, m, &undo);                                                 \
        return __builtin_elementwise_sqrt(dot(q, q)) * undo;                                       \
    }                                                                                              \
    CONST double distance(double##n p0, double##n p1)                                              \
    {                                                                                              \
        return length(p0 - p1);                                                                    \
    }                                                                                              \
    /* Scaled by a power of two first (exact), so that neither tiny nor huge p loses precision. */ \
    CONST double##n normalize(double##n p)                                                         \
    {                                                                                              \
        double##n a = __builtin_elementwise_abs(p);                                                \
        double m = MAX_ELEMENT_##k(a);                                                             \
        if (m == INFINITY) { /* infinities: 1 there, 0 elsewhere */                                \
            p = __builtin_elementwise_copysign(a == INFINITY ? (double##n)1.0 : (double##n)0.0,    \
                                               p);                                                 \
            m = 1.0;                                                                               \
        }                                                                                          \
        if (m == 0.0 || m != m)                                                                    \
            return m == 0.0 ? p : p + m; /* zero stays as is, NaN stays NaN */                     \
        double undo;                                                                               \
        double##n q = dscaled_##k##n(p, m, &undo);                                                 \
        return q / __builtin_elementwise_sqrt(dot(q, q));                                          \
    }
DOUBLE_GEOMETRIC(, SCAL, )
DOUBLE_GEOMETRIC(2, VEC, )
DOUBLE_GEOMETRIC(3, VEC, )
DOUBLE_GEOMETRIC(4, VEC, )

// Half (cl_khr_fp16): the float functions of the exact float values, each
// result rounded once to half: the products of halves are exact in float,
// and float's range leaves nothing of half's to overflow or underflow.
#define HALF_GEOMETRIC(n, k, unused)                                                               \
    CONST half dot(half##n x, half##n y)                                                           \
    {                                                                                              \
        return (half)dot(CVT(k, x, float##n), CVT(k, y, float##n));                                \
    }                                                                                              \
    CONST half length(half##n p)                                                                   \
    {                                                                                              \
        return (half)length(CVT(k, p, float##n));                                                  \
    }                                                                                              \
    CONST half distance(half##n p0, half##n p1)                                                    \
    {                                                                                              \
        return (half)distance(CVT(k, p0, float##n), CVT(k, p1, float##n));                         \
    }                                                                                              \
    CONST half##n normalize(half##n p)                                                             \
    {                                                                                              \
        return CVT(k, normalize(CVT(k, p, float##n)), half##n);                                    \
    }
HALF_GEOMETRIC(, SCAL, )
HALF_GEOMETRIC(2, VEC, )
HALF_GEOMETRIC(3, VEC, )
HALF_GEOMETRIC(4, VEC, )

CONST half3 cross(half3 a, half3 b)
{
    return convert_half3(cross(convert_float3(a), convert_float3(b)));
}
CONST half4 cross(half4 a, half4 b)
{
    return convert_half4(cross(convert_float4(a), convert_float4(b)));
}
