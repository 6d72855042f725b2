// SPDX-License-Identifier: MIT
// Double math (OpenCL C 3.0 6.15.2, cl_khr_fp64), as builtins/math/math.cl
// does float: exact operations are Clang's elementwise built-ins, the rest
// SLEEF's double code of the library's ISA level:
//   width 1: Sleef_<f>d1_<u>purec[fma]   2, 3: the 2-wide (3 padded to 4)
//   width 4: 4-wide (AVX2) or two 2s     8: 8-wide (AVX-512) or two 4s   16: two 8s
// Accuracy: u10 (1 ulp) throughout, u05 or exact where SLEEF has it; OpenCL's
// double bounds are 4 ulp or more except for the exact and correctly rounded
// functions (checked by kernels-tests/math). There are no half_ or native_
// functions for double.
#define MATH_T double
#define MATH_C d
#define MATH_S 2
#define MATH_M 4
#define MATH_L 8
/* OpenCL's widths at SLEEF's: 3 padded to 4, 16 split in two 8s. */
#define AT_ CALL1
#define AT_2 CALLS
#define AT_3(fn, u, ...) CALLM(fn, u, SWZ(xyzz, __VA_ARGS__)).xyz
#define AT_4 CALLM
#define AT_8 CALLL
#define AT_16(fn, u, ...) (double16)(CALLL(fn, u, LO(__VA_ARGS__)), CALLL(fn, u, HI(__VA_ARGS__)))
#define MATH_I long
#define LIT(c) c
#define MATH_1_PI M_1_PI
#define MATH_1_PI_LO -0x1.6b01ec5417056p-56
#define MATH_BELOW_ONE 0x1.fffffffffffffp-1
#define MATH_SIGN ((long)0x8000000000000000ul)
#include "lanes_math.h"
#include "math_shared.h"

// OpenCL's double bounds (ulp): sin, cos, tan, exp, exp2, exp10, log, log2,
// log10, acos, asin, atan, acosh, asinh, cosh, sinh, hypot, cospi, sinpi 4;
// tanh, atanh, atan2 5 or 6; cbrt 2; expm1 3; log1p 2; pow 16; erf, erfc,
// tgamma 16; lgamma unbounded; fmod, nextafter, remainder exact.
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
SLEEF1(atan, atan, u10)
SLEEF2(lanes_pow, pow, u10)
SLEEF2(atan2, atan2, u10)
SLEEF1(acos, acos, u10)
SLEEF1(lanes_acosh, acosh, u10)
SLEEF1(asin, asin, u10)
SLEEF1(lanes_asinh, asinh, u10)
SLEEF1(atanh, atanh, u10)
SLEEF1(cbrt, cbrt, u10)
SLEEF1(lanes_cosh, cosh, u10)
SLEEF1(lanes_sinh, sinh, u10)
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
SLEEF2(lanes_fmod, fmod, )

// The exact functions (math_shared.h), pow, powr and fmod.
#define EXACT(n, k, unused)                                                                        \
    SHARED_EXACT(n, k)                                                                             \
    /* SLEEF's pow overflows a little early, at results near the largest double: there */          \
    /* (|x| s)^y (1/s)^y with s = 1/2 for y > 0 and 2 for y < 0 (exact scalings that keep the */   \
    /* first factor from overflowing), (1/s)^y as (1/s)^(y/2) squared when it overflows itself */  \
    /* (3 ulp at most), signed as SLEEF's result. pow(1, y) is 1 for every y, NaN included. */     \
    CONST double##n pow(double##n x, double##n y)                                                  \
    {                                                                                              \
        double##n r = lanes_pow(x, y), ax = __builtin_elementwise_abs(x);                          \
        double##n s = y > 0.0 ? 0.5 : 2.0;                                                         \
        double##n q = lanes_pow(1.0 / s, y), p = lanes_pow(1.0 / s, y * 0.5);                      \
        double##n h = lanes_pow(ax * s, y);                                                        \
        h = q < INFINITY ? h * q : h * p * p;                                                      \
        /* h is inf, or NaN (inf times 0) for huge |y|, when the result does overflow */           \
        r = __builtin_elementwise_abs(r) == INFINITY && ax < INFINITY && ax != 0.0 &&              \
                    __builtin_elementwise_abs(h) < INFINITY                                        \
                ? __builtin_elementwise_copysign(h, r)                                             \
                : r;                                                                               \
        return !FINITE_MATH && x == 1.0 ? 1.0 : r;                                                 \
    }                                                                                              \
    /* powr: pow for x >= 0 (-0 as +0), with its own special cases (6.15.2.4), NaN for NaNs. */    \
    CONST double##n powr(double##n x, double##n y)                                                 \
    {                                                                                              \
        double##n r = pow(__builtin_elementwise_abs(x), y), nan = (double##n)NAN;                  \
        if (FINITE_MATH) /* only NaN results are left to tell */                                   \
            return r;                                                                              \
        r = x < 0.0 ? nan : r;                                                                     \
        r = (x == 0.0 && y == 0.0) || (x == INFINITY && y == 0.0) || x != x || y != y ? nan : r;   \
        return x == 1.0 && __builtin_elementwise_abs(y) == INFINITY ? nan : r;                     \
    }                                                                                              \
    /* fmod: SLEEF's returns NaN when x/y overflows, so such x are first reduced modulo */         \
    /* y 2^1500, y 2^1000 and y 2^500 (those that are finite), multiples of y that leave the */    \
    /* remainder unchanged; 500 binades apart, no reduction overflows. */                          \
    CONST double##n fmod(double##n x, double##n y)                                                 \
    {                                                                                              \
        double##n r = x, ay = __builtin_elementwise_abs(y);                                        \
        for (int i = 3; i > 0; i--) {                                                              \
            double##n ys = ay;                                                                     \
            for (int j = 0; j < i; j++)                                                            \
                ys *= 0x1p500;                                                                     \
            double##n ar = __builtin_elementwise_abs(r);                                           \
            r = ((ar / ay == INFINITY) & (ar < INFINITY) & (ys < INFINITY)) ? lanes_fmod(r, ys)    \
                                                                            : r;                   \
        }                                                                                          \
        return lanes_fmod(r, y);                                                                   \
    }
FOR_WIDTHS(EXACT, )

// Exponent and significand by their bits: zeros, infinities and NaNs are
// special; subnormals are first scaled by 2^54 (exact).
#define MORE(n, k, unused)                                                                         \
    OVL double##n lanes_frexp(double##n x, __private long##n *exp)                                 \
    {                                                                                              \
        long##n e0 = (as_long##n(x) >> 52) & 0x7ff;                                                \
        double##n xs = e0 == 0 ? x * 0x1p54 : x;                                                   \
        long##n b = as_long##n(xs);                                                                \
        long##n e = ((b >> 52) & 0x7ff) - (e0 == 0 ? 54l : 0l) - 1022;                             \
        long##n special = x == 0.0 || e0 == 0x7ff ? 1l : 0l;                                       \
        *exp = special != 0 ? 0l : e;                                                              \
        return special != 0                                                                        \
                   ? x                                                                             \
                   : as_double##n((b & (long)0x800ffffffffffffful) | 0x3fe0000000000000l);         \
    }                                                                                              \
    CONST int##n ilogb(double##n x)                                                                \
    {                                                                                              \
        long##n e;                                                                                 \
        lanes_frexp(x, &e);                                                                        \
        long##n r = e - 1;                                                                         \
        r = x == 0.0 ? (long)FP_ILOGB0 : r;                                                        \
        r = __builtin_elementwise_abs(x) == INFINITY ? (long)INT_MAX : r;                          \
        return CVT_INT(x != x ? (long)FP_ILOGBNAN : r, n);                                         \
    }                                                                                              \
    /* x 2^k with one rounding: the exponent field is set directly; a */                           \
    /* subnormal result is built 2^64 higher and scaled down by one multiply. */                   \
    CONST double##n ldexp(double##n x, int##n k)                                                   \
    {                                                                                              \
        long##n kk = __builtin_elementwise_max(                                                    \
            __builtin_elementwise_min(CVT_LONG(k, n), (long##n)2200), (long##n) - 2200);           \
        long##n e0 = (as_long##n(x) >> 52) & 0x7ff;                                                \
        double##n xs = e0 == 0 ? x * 0x1p54 : x;                                                   \
        long##n b = as_long##n(xs);                                                                \
        long##n e = ((b >> 52) & 0x7ff) + kk - (e0 == 0 ? 54l : 0l);                               \
        long##n sign = b & MATH_SIGN, m = b & (long)0x800ffffffffffffful;                          \
        double##n r = as_double##n(m | (__builtin_elementwise_max(e, (long##n)1) << 52));          \
        r = e >= 0x7ff ? as_double##n(sign | 0x7ff0000000000000l) : r;                             \
        double##n low =                                                                            \
            as_double##n(m | (__builtin_elementwise_max(e + 64, (long##n)1) << 52)) * 0x1p-64;     \
        r = e <= 0 ? (e + 64 >= 1 ? low : as_double##n(sign)) : r;                                 \
        return x == 0.0 || e0 == 0x7ff ? x : r;                                                    \
    }                                                                                              \
    /* Far up, x (log x - 1) is lgamma to well under an ulp (and SLEEF's overflows). */            \
    CONST double##n lgamma(double##n x)                                                            \
    {                                                                                              \
        return x > 0x1p900 ? x * (log(x) - 1.0) : lanes_lgamma(x);                                 \
    }                                                                                              \
    /* Every int is exact as a double: pow with the sign of x for odd k. */                        \
    CONST double##n pown(double##n x, int##n k)                                                    \
    {                                                                                              \
        long##n kl = CVT_LONG(k, n);                                                               \
        double##n r = pow(__builtin_elementwise_abs(x), CVT_DOUBLE(k, n));                         \
        r = (kl & 1) != 0 ? __builtin_elementwise_copysign(r, x) : r;                              \
        return kl == 0 ? 1.0 : r;                                                                  \
    }                                                                                              \
    /* |x| = z 2^(q k) with q = trunc(ilogb(x) / k), so |log2 z| <= |k| and the rounding of */     \
    /* 1/k costs pow(z, 1/k) under an ulp; then 2^q. */                                            \
    CONST double##n rootn(double##n x, int##n k)                                                   \
    {                                                                                              \
        double##n ax = __builtin_elementwise_abs(x);                                               \
        long##n kl = CVT_LONG(k, n);                                                               \
        double##n kf = CVT_DOUBLE(k == 0 ? 1 : k, n);                                              \
        int##n e = __builtin_elementwise_max(__builtin_elementwise_min(ilogb(ax), (int##n)1024),   \
                                             (int##n) - 1074);                                     \
        int##n q = CVT_INT(__builtin_elementwise_trunc(CVT_DOUBLE(e, n) / kf), n);                 \
        double##n r = ldexp(pow(ldexp(ax, -q * k), 1.0 / kf), q);                                  \
        long##n odd = kl & 1;                                                                      \
        double##n big = kl > 0 ? INFINITY : 0.0, small = kl > 0 ? 0.0 : INFINITY;                  \
        r = ax == 0.0 ? small : (ax == INFINITY ? big : r);                                        \
        r = odd != 0 ? __builtin_elementwise_copysign(r, x) : r;                                   \
        return kl == 0 || x != x || (x < 0.0 && odd == 0) ? (double##n)NAN : r;                    \
    }                                                                                              \
    CONST double##n nan(ulong##n nancode)                                                          \
    {                                                                                              \
        return as_double##n(0x7ff8000000000000ul | (nancode & 0x7fffffffffffful));                 \
    }                                                                                              \
    CONST double##n atanpi(double##n x)                                                            \
    {                                                                                              \
        return BY_PI(n, atan(x));                                                                  \
    }                                                                                              \
    CONST double##n atan2pi(double##n y, double##n x)                                              \
    {                                                                                              \
        return BY_PI(n, atan2(y, x));                                                              \
    }                                                                                              \
    /* Far up (SLEEF's x^2 overflows from 2^512) log(2|x|) is the result to well under an ulp. */  \
    CONST double##n acosh(double##n x)                                                             \
    {                                                                                              \
        return x > 0x1p256 ? log(x) + M_LN2 : lanes_acosh(x);                                      \
    }                                                                                              \
    CONST double##n asinh(double##n x)                                                             \
    {                                                                                              \
        double##n ax = __builtin_elementwise_abs(x);                                               \
        return ax > 0x1p256 ? __builtin_elementwise_copysign(log(ax) + M_LN2, x) : lanes_asinh(x); \
    }                                                                                              \
    /* SLEEF's cosh and sinh overflow from |x| = 709.78 on, before the result: there */            \
    /* e^|x| / 2 as (e^(|x|/2) / 2) e^(|x|/2) (2.5 ulp at most). */                                \
    CONST double##n cosh(double##n x)                                                              \
    {                                                                                              \
        double##n ax = __builtin_elementwise_abs(x), e = exp(ax * 0.5);                            \
        return ax > 709.0 ? (e * 0.5) * e : lanes_cosh(x);                                         \
    }                                                                                              \
    CONST double##n sinh(double##n x)                                                              \
    {                                                                                              \
        double##n ax = __builtin_elementwise_abs(x), e = exp(ax * 0.5);                            \
        return ax > 709.0 ? __builtin_elementwise_copysign((e * 0.5) * e, x) : lanes_sinh(x);      \
    }                                                                                              \
    CONST double##n log1p(double##n x)                                                             \
    {                                                                                              \
        return x > 0x1p512 ? log(x) : lanes_log1p(x);                                              \
    }                                                                                              \
    /* SLEEF loses accuracy where the result nears the subnormals (x < -170): go ten up, */        \
    /* x + 10 exact there, and divide by x (x + 1) ... (x + 9) (6 ulp more at most). */            \
    CONST double##n tgamma(double##n x)                                                            \
    {                                                                                              \
        double##n d = x;                                                                           \
        for (int i = 1; i < 10; i++)                                                               \
            d *= x + (double)i;                                                                    \
        return x < -160.0 ? lanes_tgamma(x + 10.0) / d : lanes_tgamma(x);                          \
    }                                                                                              \
    /* Reduced modulo 2y first (same quotient parity), in case x/y overflows. */                   \
    CONST double##n remainder(double##n x, double##n y)                                            \
    {                                                                                              \
        double##n ay = __builtin_elementwise_abs(y);                                               \
        return lanes_remainder(ay < 0x1p1022 ? fmod(x, 2.0 * ay) : x, y);                          \
    }                                                                                              \
    SHARED_MORE(n, k)
FOR_WIDTHS(MORE, )
