// SPDX-License-Identifier: MIT
// Float math (OpenCL C 3.0 6.15.2). Exact operations are Clang's elementwise
// built-ins (one LLVM intrinsic, vector for vector types); the rest is SLEEF,
// a vector overload calling SLEEF's vector code of the library's ISA level:
//   width 1: Sleef_<f>f1_<u>purec[fma]      2, 3, 4: the 4-wide (padded)
//   width 8: 8-wide (AVX2) or two 4-wide    16: 16-wide (AVX-512), two 8s, four 4s
// Accuracy variants: u10 (1 ulp) where OpenCL allows at most 4 ulp, u35
// (3.5 ulp) only where it allows 5 or more (checked by kernels-tests/math).
#include "lanes_builtins.h"

#if LANES_ISA >= 3
#define ISA1 purecfma
#define ISA4 avx2128
#else
#define ISA1 purec
#define ISA4 sse2
#endif
#define SLEEF(fn, w, u, isa) PASTE(Sleef_##fn##f##w##_##u, isa)

#define DECLARE1(fn, u)                                                                            \
    float SLEEF(fn, 1, u, ISA1)(float) __attribute__((const));                                     \
    float4 SLEEF(fn, 4, u, ISA4)(float4) __attribute__((const));                                   \
    DECLARE1_8(fn, u) DECLARE1_16(fn, u)
#define DECLARE2(fn, u)                                                                            \
    float SLEEF(fn, 1, u, ISA1)(float, float) __attribute__((const));                              \
    float4 SLEEF(fn, 4, u, ISA4)(float4, float4) __attribute__((const));                           \
    DECLARE2_8(fn, u) DECLARE2_16(fn, u)
#if LANES_ISA >= 3
#define DECLARE1_8(fn, u) float8 SLEEF(fn, 8, u, avx2)(float8) __attribute__((const));
#define DECLARE2_8(fn, u) float8 SLEEF(fn, 8, u, avx2)(float8, float8) __attribute__((const));
#define CALL8(fn, u, ...) SLEEF(fn, 8, u, avx2)(__VA_ARGS__)
#else
#define DECLARE1_8(fn, u)
#define DECLARE2_8(fn, u)
#define CALL8(fn, u, ...) (float8)(CALL4(fn, u, LO(__VA_ARGS__)), CALL4(fn, u, HI(__VA_ARGS__)))
#endif
#if LANES_ISA >= 4
#define DECLARE1_16(fn, u) float16 SLEEF(fn, 16, u, avx512f)(float16) __attribute__((const));
#define DECLARE2_16(fn, u)                                                                         \
    float16 SLEEF(fn, 16, u, avx512f)(float16, float16) __attribute__((const));
#define CALL16(fn, u, ...) SLEEF(fn, 16, u, avx512f)(__VA_ARGS__)
#else
#define DECLARE1_16(fn, u)
#define DECLARE2_16(fn, u)
#define CALL16(fn, u, ...) (float16)(CALL8(fn, u, LO(__VA_ARGS__)), CALL8(fn, u, HI(__VA_ARGS__)))
#endif
#define CALL1(fn, u, ...) SLEEF(fn, 1, u, ISA1)(__VA_ARGS__)
#define CALL4(fn, u, ...) SLEEF(fn, 4, u, ISA4)(__VA_ARGS__)
// Halves of each argument (one or two), for splitting a wide call.
#define LO(...) LO_N(__VA_ARGS__, LO2, LO1)(__VA_ARGS__)
#define HI(...) LO_N(__VA_ARGS__, HI2, HI1)(__VA_ARGS__)
#define LO_N(a, b, m, ...) m
#define LO1(x) (x).lo
#define LO2(x, y) (x).lo, (y).lo
#define HI1(x) (x).hi
#define HI2(x, y) (x).hi, (y).hi

// name(floatn) -> SLEEF's fn with accuracy u, for every width.
#define SLEEF1(name, fn, u)                                                                        \
    DECLARE1(fn, u)                                                                                \
    CONST float name(float x)                                                                      \
    {                                                                                              \
        return CALL1(fn, u, x);                                                                    \
    }                                                                                              \
    CONST float2 name(float2 x)                                                                    \
    {                                                                                              \
        return CALL4(fn, u, x.xyxy).lo;                                                            \
    }                                                                                              \
    CONST float3 name(float3 x)                                                                    \
    {                                                                                              \
        return CALL4(fn, u, x.xyzz).xyz;                                                           \
    }                                                                                              \
    CONST float4 name(float4 x)                                                                    \
    {                                                                                              \
        return CALL4(fn, u, x);                                                                    \
    }                                                                                              \
    CONST float8 name(float8 x)                                                                    \
    {                                                                                              \
        return CALL8(fn, u, x);                                                                    \
    }                                                                                              \
    CONST float16 name(float16 x)                                                                  \
    {                                                                                              \
        return CALL16(fn, u, x);                                                                   \
    }
#define SLEEF2(name, fn, u)                                                                        \
    DECLARE2(fn, u)                                                                                \
    CONST float name(float x, float y)                                                             \
    {                                                                                              \
        return CALL1(fn, u, x, y);                                                                 \
    }                                                                                              \
    CONST float2 name(float2 x, float2 y)                                                          \
    {                                                                                              \
        return CALL4(fn, u, x.xyxy, y.xyxy).lo;                                                    \
    }                                                                                              \
    CONST float3 name(float3 x, float3 y)                                                          \
    {                                                                                              \
        return CALL4(fn, u, x.xyzz, y.xyzz).xyz;                                                   \
    }                                                                                              \
    CONST float4 name(float4 x, float4 y)                                                          \
    {                                                                                              \
        return CALL4(fn, u, x, y);                                                                 \
    }                                                                                              \
    CONST float8 name(float8 x, float8 y)                                                          \
    {                                                                                              \
        return CALL8(fn, u, x, y);                                                                 \
    }                                                                                              \
    CONST float16 name(float16 x, float16 y)                                                       \
    {                                                                                              \
        return CALL16(fn, u, x, y);                                                                \
    }

// OpenCL bound (ulp): sin, cos, tan 4; exp, exp2, exp10, log, log2, log10 3;
// pow 16; tanh 5; atan 5; atan2 6; fmod exact (below).
SLEEF1(sin, sin, u10)
SLEEF1(cos, cos, u10)
SLEEF1(tan, tan, u10)
SLEEF1(exp, exp, u10)
SLEEF1(exp2, exp2, u10)
SLEEF1(exp10, exp10, u10)
SLEEF1(log, log, u10)
SLEEF1(log2, log2, u10)
SLEEF1(log10, log10, u10)
SLEEF1(tanh, tanh, u10)
SLEEF1(atan, atan, u35)
SLEEF2(pow, pow, u10)
SLEEF2(atan2, atan2, u35)
// native_ and half_ (8192 ulp, or implementation-defined): the 3.5-ulp variants.
SLEEF1(native_sin, sin, u35)
SLEEF1(native_cos, cos, u35)
SLEEF1(native_tan, tan, u35)
SLEEF1(native_exp2, exp2, u35)
SLEEF1(native_exp10, exp10, u35)
SLEEF1(native_log, log, u35)
SLEEF1(native_log2, log2, u35)

// fmod: SLEEF's fmodf (exact) returns NaN when x/y overflows, so such x are
// first reduced modulo y 2^200 and y 2^100, multiples of y that leave the
// remainder unchanged and bring the quotient below 2^100.
SLEEF2(lanes_fmod, fmod, )
#define FMOD(n, k, unused)                                                                         \
    CONST float##n fmod(float##n x, float##n y)                                                    \
    {                                                                                              \
        float##n r = x, ay = __builtin_elementwise_abs(y);                                         \
        for (int i = 0; i < 2; i++) {                                                              \
            float##n ys = ay * (i == 0 ? 0x1p100f : 1.0f) * 0x1p100f;                              \
            float##n ar = __builtin_elementwise_abs(r);                                            \
            r = ((ar / ay == INFINITY) & (ar < INFINITY) & (ys < INFINITY)) ? lanes_fmod(r, ys) : r; \
        }                                                                                          \
        return lanes_fmod(r, y);                                                                   \
    }
FOR_WIDTHS(FMOD, )

// Exact, or one correctly rounded operation: Clang's elementwise built-ins.
#define EXACT(n, k, unused)                                                                        \
    CONST float##n fabs(float##n x)                                                                \
    {                                                                                              \
        return __builtin_elementwise_abs(x);                                                       \
    }                                                                                              \
    CONST float##n floor(float##n x)                                                               \
    {                                                                                              \
        return __builtin_elementwise_floor(x);                                                     \
    }                                                                                              \
    CONST float##n ceil(float##n x)                                                                \
    {                                                                                              \
        return __builtin_elementwise_ceil(x);                                                      \
    }                                                                                              \
    CONST float##n trunc(float##n x)                                                               \
    {                                                                                              \
        return __builtin_elementwise_trunc(x);                                                     \
    }                                                                                              \
    CONST float##n round(float##n x)                                                               \
    {                                                                                              \
        return __builtin_elementwise_round(x);                                                     \
    }                                                                                              \
    CONST float##n rint(float##n x)                                                                \
    {                                                                                              \
        return __builtin_elementwise_roundeven(x);                                                 \
    }                                                                                              \
    CONST float##n sqrt(float##n x)                                                                \
    {                                                                                              \
        return __builtin_elementwise_sqrt(x);                                                      \
    }                                                                                              \
    CONST float##n rsqrt(float##n x)                                                               \
    {                                                                                              \
        return 1.0f / __builtin_elementwise_sqrt(x);                                               \
    }                                                                                              \
    CONST float##n fmin(float##n x, float##n y)                                                    \
    {                                                                                              \
        return __builtin_elementwise_min(x, y);                                                    \
    }                                                                                              \
    CONST float##n fmax(float##n x, float##n y)                                                    \
    {                                                                                              \
        return __builtin_elementwise_max(x, y);                                                    \
    }                                                                                              \
    CONST float##n fma(float##n x, float##n y, float##n z)                                         \
    {                                                                                              \
        return __builtin_elementwise_fma(x, y, z);                                                 \
    }                                                                                              \
    CONST float##n mad(float##n x, float##n y, float##n z)                                         \
    {                                                                                              \
        return x * y + z; /* any precision: the optimizer may contract */                          \
    }                                                                                              \
    CONST float##n copysign(float##n x, float##n y)                                                \
    {                                                                                              \
        return __builtin_elementwise_copysign(x, y);                                               \
    }                                                                                              \
    CONST float##n native_sqrt(float##n x)                                                         \
    {                                                                                              \
        return __builtin_elementwise_sqrt(x);                                                      \
    }                                                                                              \
    CONST float##n native_rsqrt(float##n x)                                                        \
    {                                                                                              \
        return 1.0f / __builtin_elementwise_sqrt(x);                                               \
    }                                                                                              \
    CONST float##n native_recip(float##n x)                                                        \
    {                                                                                              \
        return 1.0f / x;                                                                           \
    }                                                                                              \
    CONST float##n native_divide(float##n x, float##n y)                                           \
    {                                                                                              \
        return x / y;                                                                              \
    }                                                                                              \
    CONST float##n native_exp(float##n x)                                                          \
    {                                                                                              \
        return native_exp2(x * M_LOG2E_F);                                                         \
    }                                                                                              \
    CONST float##n native_log10(float##n x)                                                        \
    {                                                                                              \
        return native_log2(x) * (M_LN2_F / M_LN10_F);                                              \
    }                                                                                              \
    /* powr: pow for x >= 0, with its own special cases (6.15.2.4). */                             \
    CONST float##n powr(float##n x, float##n y)                                                    \
    {                                                                                              \
        float##n r = pow(x, y), nan = (float##n)NAN;                                               \
        r = x < 0.0f ? nan : r;                                                                    \
        r = (x == 0.0f && y == 0.0f) || (x == INFINITY && y == 0.0f) ? nan : r;                    \
        return x == 1.0f && __builtin_elementwise_abs(y) == INFINITY ? nan : r;                    \
    }                                                                                              \
    CONST float##n native_powr(float##n x, float##n y)                                             \
    {                                                                                              \
        return powr(x, y);                                                                         \
    }                                                                                              \
    FMF_SCALAR_ARGS_##k(n)                                                                         \
    HALF(n, sin, native_sin) HALF(n, cos, native_cos) HALF(n, tan, native_tan)                     \
    HALF(n, exp, native_exp) HALF(n, exp2, native_exp2) HALF(n, exp10, native_exp10)               \
    HALF(n, log, native_log) HALF(n, log2, native_log2) HALF(n, log10, native_log10)               \
    HALF(n, sqrt, native_sqrt) HALF(n, rsqrt, native_rsqrt) HALF(n, recip, native_recip)           \
    CONST float##n half_divide(float##n x, float##n y)                                             \
    {                                                                                              \
        return x / y;                                                                              \
    }                                                                                              \
    CONST float##n half_powr(float##n x, float##n y)                                               \
    {                                                                                              \
        return powr(x, y);                                                                         \
    }

// half_f: 8192 ulp over its reduced range; the native_ function meets it.
#define HALF(n, f, impl)                                                                           \
    CONST float##n half_##f(float##n x)                                                            \
    {                                                                                              \
        return impl(x);                                                                            \
    }
// fmin and fmax (gentype, float) for vectors.
#define FMF_SCALAR_ARGS_SCAL(n)
#define FMF_SCALAR_ARGS_VEC(n)                                                                     \
    CONST float##n fmin(float##n x, float y)                                                       \
    {                                                                                              \
        return __builtin_elementwise_min(x, (float##n)y);                                          \
    }                                                                                              \
    CONST float##n fmax(float##n x, float y)                                                       \
    {                                                                                              \
        return __builtin_elementwise_max(x, (float##n)y);                                          \
    }

FOR_WIDTHS(EXACT, )
