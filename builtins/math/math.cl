// SPDX-License-Identifier: MIT
// Float math (OpenCL C 3.0 6.15.2). Exact operations are Clang's elementwise
// built-ins (one LLVM intrinsic, vector for vector types); the rest is SLEEF,
// a vector overload calling SLEEF's vector code of the library's ISA level:
//   width 1: Sleef_<f>f1_<u>purec[fma]      2, 3, 4: the 4-wide (padded)
//   width 8: 8-wide (AVX2) or two 4-wide    16: 16-wide (AVX-512), two 8s, four 4s
// Accuracy variants: u10 (1 ulp) where OpenCL allows at most 4 ulp, u35
// (3.5 ulp) only where it allows 5 or more (checked by kernels-tests/math).
#define MATH_T float
#define MATH_C f
#define MATH_S 4
#define MATH_M 8
#define MATH_L 16
/* OpenCL's widths at SLEEF's: 2 and 3 padded to 4. */
#define AT_ CALL1
#define AT_2(fn, u, ...) CALLS(fn, u, SWZ(xyxy, __VA_ARGS__)).lo
#define AT_3(fn, u, ...) CALLS(fn, u, SWZ(xyzz, __VA_ARGS__)).xyz
#define AT_4 CALLS
#define AT_8 CALLM
#define AT_16 CALLL
#define MATH_I int
#define LIT(c) c##f
#define MATH_1_PI M_1_PI_F
#define MATH_1_PI_LO 0x1.b93910p-27f
#define MATH_BELOW_ONE 0x1.fffffep-1f
#define MATH_SIGN ((int)0x80000000)
#include "lanes_math.h"
#include "math_shared.h"

// OpenCL bound (ulp): sin, cos, tan 4; exp, exp2, exp10, log, log2, log10 3;
// pow 16; tanh 5; atan 5; atan2 6; fmod exact (below).
// Under -cl-unsafe-math-optimizations (UNSAFE_MATH), OpenCL C 7.4's relaxed
// table: sin, cos absolute 2^-11 on [-pi, pi]; tan, tanh, exp10 8192; exp2
// 3 + floor(|2x|); log, log2 2^-21 absolute on [0.5, 2], 3 ulp elsewhere:
// SLEEF's 3.5-ulp variants (kernels-tests/test_math checks each bound).
// exp keeps u10: SLEEF has no u35 expf, and exp2(x log2 e) is no faster.
SLEEF1_RELAXED(sin, sin, u10, u35)
SLEEF1_RELAXED(cos, cos, u10, u35)
SLEEF1_RELAXED(tan, tan, u10, u35)
SLEEF1(exp, exp, u10)
SLEEF1_RELAXED(exp2, exp2, u10, u35)
SLEEF1_RELAXED(exp10, exp10, u10, u35)
SLEEF1_RELAXED(log, log, u10, u35)
SLEEF1_RELAXED(log2, log2, u10, u35)
SLEEF1(lanes_log10, log10, u10)
SLEEF1_RELAXED(tanh, tanh, u10, u35)
SLEEF1_RELAXED(atan, atan, u10, u35)
SLEEF2(lanes_pow, pow, u10)
SLEEF2_RELAXED(atan2, atan2, u10, u35)
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
            r = ((ar / ay == INFINITY) & (ar < INFINITY) & (ys < INFINITY)) ? lanes_fmod(r, ys)    \
                                                                            : r;                   \
        }                                                                                          \
        return lanes_fmod(r, y);                                                                   \
    }
FOR_WIDTHS(FMOD, )

// The exact functions (math_shared.h), the native_ and half_ ones, exp, pow and their kin.
#define EXACT(n, k, unused)                                                                        \
    SHARED_EXACT(n, k)                                                                             \
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
    /* Relaxed (7.4): log10 from log2 (2.74 ulp at most over every 61st float, 3 allowed); */      \
    /* pow derived from exp2 and log2 as the table allows: x < 0 only for integer y, its sign */   \
    /* by y's parity; x^0 = 1, and 1^y = 1 for infinite or NaN y. */                               \
    CONST float##n log10(float##n x)                                                               \
    {                                                                                              \
        return UNSAFE_MATH ? log2(x) * 0x1.344136p-2f : lanes_log10(x);                            \
    }                                                                                              \
    CONST float##n pow(float##n x, float##n y)                                                     \
    {                                                                                              \
        if (!UNSAFE_MATH)                                                                          \
            return lanes_pow(x, y);                                                                \
        float##n r = exp2(y * log2(__builtin_elementwise_abs(x))), h = y * 0.5f;                   \
        r = x < 0.0f && h != __builtin_elementwise_trunc(h) ? -r : r;                              \
        r = x < 0.0f && y != __builtin_elementwise_trunc(y) ? (float##n)NAN : r;                   \
        return y == 0.0f || (!FINITE_MATH && x == 1.0f) ? 1.0f : r;                                \
    }                                                                                              \
    /* powr: pow for x >= 0, with its own special cases (6.15.2.4); relaxed: exp2(y log2 x). */    \
    CONST float##n powr(float##n x, float##n y)                                                    \
    {                                                                                              \
        if (UNSAFE_MATH)                                                                           \
            return exp2(y * log2(x));                                                              \
        if (FINITE_MATH)                                                                           \
            return pow(__builtin_elementwise_abs(x), y);                                           \
        float##n r = pow(x, y), nan = (float##n)NAN;                                               \
        /* Unlike pow, powr takes -0 as +0 (powr(-0, -1) = +inf) and a NaN y gives NaN even */     \
        /* for x = 1, as a NaN x does for y = 0 (pow gives 1 for both). */                         \
        r = x == 0.0f ? pow(__builtin_elementwise_abs(x), y) : r;                                  \
        r = x < 0.0f || x != x || y != y ? nan : r;                                                \
        r = (x == 0.0f && y == 0.0f) || (x == INFINITY && y == 0.0f) ? nan : r;                    \
        return x == 1.0f && __builtin_elementwise_abs(y) == INFINITY ? nan : r;                    \
    }                                                                                              \
    CONST float##n native_powr(float##n x, float##n y)                                             \
    {                                                                                              \
        return powr(x, y);                                                                         \
    }                                                                                              \
    HALF(n, sin, native_sin)                                                                       \
    HALF(n, cos, native_cos)                                                                       \
    HALF(n, tan, native_tan) HALF(n, exp, native_exp) HALF(n, exp2, native_exp2)                   \
        HALF(n, exp10, native_exp10) HALF(n, log, native_log) HALF(n, log2, native_log2)           \
            HALF(n, log10, native_log10) HALF(n, sqrt, native_sqrt) HALF(n, rsqrt, native_rsqrt)   \
                HALF(n, recip, native_recip) CONST float##n                                        \
                half_divide(float##n x, float##n y)                                                \
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
FOR_WIDTHS(EXACT, )

// --- More of 6.15.2 ---------------------------------------------------------
// OpenCL bound (ulp): acos, acosh, asin, asinh, cosh, sinh, hypot 4; cospi,
// sinpi 4; atanh 5; cbrt 2; erf, erfc, tgamma 16; expm1 3; log1p 2; lgamma
// unbounded; fdim, nextafter, remainder exact.
// Relaxed: acos, asin 4096; cbrt, cosh, sinh 8192 (cosh, sinh on [-88, 88]).
SLEEF1_RELAXED(acos, acos, u10, u35)
SLEEF1(lanes_acosh, acosh, u10)
SLEEF1_RELAXED(asin, asin, u10, u35)
SLEEF1(lanes_asinh, asinh, u10)
SLEEF1(atanh, atanh, u10)
SLEEF1_RELAXED(cbrt, cbrt, u10, u35)
SLEEF1_RELAXED(lanes_cosh, cosh, u10, u35)
SLEEF1_RELAXED(lanes_sinh, sinh, u10, u35)
SLEEF1(lanes_cospi, cospi, u05)
SLEEF1(lanes_sinpi, sinpi, u05)
SLEEF1(erf, erf, u10)
SLEEF1(erfc, erfc, u15)
SLEEF1(expm1, expm1, u10)
SLEEF1(lanes_log1p, log1p, u10)
SLEEF1(lanes_lgamma, lgamma, u10)
SLEEF1(lanes_tgamma, tgamma, u10)
SLEEF2(hypot, hypot, u05)
SLEEF2(nextafter, nextafter, )
SLEEF2(lanes_remainder, remainder, )

// Exponent and significand by their bits: zeros, infinities and NaNs are
// special; subnormals are first scaled by 2^24 (exact).
#define MORE(n, k, unused)                                                                         \
    OVL float##n lanes_frexp(float##n x, __private int##n *exp)                                    \
    {                                                                                              \
        int##n e0 = (as_int##n(x) >> 23) & 0xff;                                                   \
        float##n xs = e0 == 0 ? x * 0x1p24f : x;                                                   \
        int##n b = as_int##n(xs);                                                                  \
        int##n e = ((b >> 23) & 0xff) - (e0 == 0 ? 24 : 0) - 126;                                  \
        int##n special = x == 0.0f || e0 == 255 ? 1 : 0;                                           \
        *exp = special != 0 ? 0 : e;                                                               \
        return special != 0 ? x : as_float##n((b & (int)0x807fffff) | 0x3f000000);                 \
    }                                                                                              \
    CONST int##n ilogb(float##n x)                                                                 \
    {                                                                                              \
        int##n e;                                                                                  \
        lanes_frexp(x, &e);                                                                        \
        int##n r = e - 1;                                                                          \
        r = x == 0.0f ? FP_ILOGB0 : r;                                                             \
        r = __builtin_elementwise_abs(x) == INFINITY ? INT_MAX : r;                                \
        return x != x ? FP_ILOGBNAN : r;                                                           \
    }                                                                                              \
    /* x 2^k with one rounding: the exponent field is set directly; a */                           \
    /* subnormal result is built 2^64 higher and scaled down by one multiply. */                   \
    CONST float##n ldexp(float##n x, int##n k)                                                     \
    {                                                                                              \
        int##n kk =                                                                                \
            __builtin_elementwise_max(__builtin_elementwise_min(k, (int##n)400), (int##n) - 400);  \
        int##n e0 = (as_int##n(x) >> 23) & 0xff;                                                   \
        float##n xs = e0 == 0 ? x * 0x1p24f : x;                                                   \
        int##n b = as_int##n(xs);                                                                  \
        int##n e = ((b >> 23) & 0xff) + kk - (e0 == 0 ? 24 : 0);                                   \
        int##n sign = b & (int)0x80000000, m = b & (int)0x807fffff;                                \
        float##n r = as_float##n(m | (__builtin_elementwise_max(e, (int##n)1) << 23));             \
        r = e >= 255 ? as_float##n(sign | 0x7f800000) : r;                                         \
        float##n low =                                                                             \
            as_float##n(m | (__builtin_elementwise_max(e + 64, (int##n)1) << 23)) * 0x1p-64f;      \
        r = e <= 0 ? (e + 64 >= 1 ? low : as_float##n(sign)) : r;                                  \
        return x == 0.0f || e0 == 255 ? x : r;                                                     \
    }                                                                                              \
    /* SLEEF's lgamma overflows from 2^121 up; there x (log x - 1) is the result to 1.5 ulp. */    \
    CONST float##n lgamma(float##n x)                                                              \
    {                                                                                              \
        return x > 0x1p100f ? x * (log(x) - 1.0f) : lanes_lgamma(x);                               \
    }                                                                                              \
    /* x^k = |x|^hi |x|^lo with hi and lo the top 8 and low 24 bits of |k| (each exact as a */     \
    /* float; |x|^hi = 1 exactly when |k| < 2^24), signed as k: both factors on the same side */   \
    /* of 1, so one overflows or underflows only when the result does. The sign: k's parity. */    \
    /* Relaxed: exp2(k log2 |x|), signed as x for odd k. */                                        \
    CONST float##n pown(float##n x, int##n k)                                                      \
    {                                                                                              \
        if (UNSAFE_MATH) {                                                                         \
            float##n r = exp2(CVT_FLOAT(k, n) * log2(__builtin_elementwise_abs(x)));               \
            r = (k & 1) != 0 ? __builtin_elementwise_copysign(r, x) : r;                           \
            return k == 0 ? 1.0f : r;                                                              \
        }                                                                                          \
        uint##n m = k < 0 ? 0u - as_uint##n(k) : as_uint##n(k);                                    \
        float##n hi = CVT_FLOAT(m & 0xff000000u, n), lo = CVT_FLOAT(m & 0xffffffu, n);             \
        hi = k < 0 ? -hi : hi;                                                                     \
        lo = k < 0 ? -lo : lo;                                                                     \
        float##n ax = __builtin_elementwise_abs(x);                                                \
        float##n r = pow(ax, hi) * pow(ax, lo);                                                    \
        r = (k & 1) != 0 ? __builtin_elementwise_copysign(r, x) : r;                               \
        return k == 0 ? 1.0f : r;                                                                  \
    }                                                                                              \
    /* |x| = z 2^(q k) with q = trunc(ilogb(x) / k) (a float division, exact to the integer), */   \
    /* so |log2 z| <= |k| and the rounding of 1/k costs pow(z, 1/k) under an ulp; then 2^q. */     \
    /* Relaxed: exp2(log2 |x| / k), signed as x for odd k. */                                      \
    CONST float##n rootn(float##n x, int##n k)                                                     \
    {                                                                                              \
        float##n ax = __builtin_elementwise_abs(x);                                                \
        int##n odd = (k & 1) != 0 ? 1 : 0;                                                         \
        if (UNSAFE_MATH) {                                                                         \
            float##n r = exp2(log2(ax) / CVT_FLOAT(k, n));                                         \
            r = odd != 0 ? __builtin_elementwise_copysign(r, x) : r;                               \
            return k == 0 || (x < 0.0f && odd == 0) ? (float##n)NAN : r;                           \
        }                                                                                          \
        float##n kf = CVT_FLOAT(k == 0 ? 1 : k, n);                                                \
        int##n e = __builtin_elementwise_max(__builtin_elementwise_min(ilogb(ax), (int##n)128),    \
                                             (int##n) - 149);                                      \
        int##n q = CVT_INT(__builtin_elementwise_trunc(CVT_FLOAT(e, n) / kf), n);                  \
        float##n r = ldexp(pow(ldexp(ax, -q * k), 1.0f / kf), q);                                  \
        float##n big = k > 0 ? INFINITY : 0.0f, small = k > 0 ? 0.0f : INFINITY;                   \
        r = ax == 0.0f ? small : (!FINITE_MATH && ax == INFINITY ? big : r);                       \
        r = odd != 0 ? __builtin_elementwise_copysign(r, x) : r;                                   \
        return k == 0 || (!FINITE_MATH && x != x) || (x < 0.0f && odd == 0) ? (float##n)NAN : r;   \
    }                                                                                              \
    CONST float##n nan(uint##n nancode)                                                            \
    {                                                                                              \
        return as_float##n(0x7fc00000u | (nancode & 0x3fffffu));                                   \
    }                                                                                              \
    CONST float##n atanpi(float##n x)                                                              \
    {                                                                                              \
        return BY_PI(n, atan(x));                                                                  \
    }                                                                                              \
    CONST float##n atan2pi(float##n y, float##n x)                                                 \
    {                                                                                              \
        return BY_PI(n, atan2(y, x));                                                              \
    }                                                                                              \
    /* SLEEF's intermediate x^2 overflows from |x| = 2^64; from 2^32 on log(2|x|) is exact to */   \
    /* far below an ulp (the next term is 1/(4x^2)). */                                            \
    CONST float##n acosh(float##n x)                                                               \
    {                                                                                              \
        return x > 0x1p32f ? log(x) + M_LN2_F : lanes_acosh(x);                                    \
    }                                                                                              \
    CONST float##n asinh(float##n x)                                                               \
    {                                                                                              \
        float##n ax = __builtin_elementwise_abs(x);                                                \
        return ax > 0x1p32f ? __builtin_elementwise_copysign(log(ax) + M_LN2_F, x)                 \
                            : lanes_asinh(x);                                                      \
    }                                                                                              \
    CONST float##n log1p(float##n x)                                                               \
    {                                                                                              \
        return x > 0x1p64f ? log(x) : lanes_log1p(x);                                              \
    }                                                                                              \
    /* Near overflow SLEEF's e^|x| overflows before e^|x|/2 does: (e^(|x|/2) / 2) e^(|x|/2). */    \
    CONST float##n cosh(float##n x)                                                                \
    {                                                                                              \
        float##n ax = __builtin_elementwise_abs(x), t = exp(ax * 0.5f);                            \
        return !UNSAFE_MATH && ax > 88.0f ? t * 0.5f * t : lanes_cosh(x); /* relaxed: |x| <= 88 */ \
    }                                                                                              \
    CONST float##n sinh(float##n x)                                                                \
    {                                                                                              \
        float##n ax = __builtin_elementwise_abs(x), t = exp(ax * 0.5f);                            \
        return !UNSAFE_MATH && ax > 88.0f ? __builtin_elementwise_copysign(t * 0.5f * t, x)        \
                                          : lanes_sinh(x);                                         \
    }                                                                                              \
    /* SLEEF loses accuracy where the result nears the subnormals: go two up. */                   \
    CONST float##n tgamma(float##n x)                                                              \
    {                                                                                              \
        return x < -30.0f ? lanes_tgamma(x + 2.0f) / (x * (x + 1.0f)) : lanes_tgamma(x);           \
    }                                                                                              \
    /* Reduced modulo 2y first (same quotient parity), as SLEEF fails when x/y overflows. */       \
    CONST float##n remainder(float##n x, float##n y)                                               \
    {                                                                                              \
        float##n ay = __builtin_elementwise_abs(y);                                                \
        return lanes_remainder(ay < 0x1p126f ? fmod(x, 2.0f * ay) : x, y);                         \
    }                                                                                              \
    SHARED_MORE(n, k)
FOR_WIDTHS(MORE, )
