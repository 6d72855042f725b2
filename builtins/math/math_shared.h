/* SPDX-License-Identifier: MIT */
/*
 * The math functions whose bodies are the same for float (math.cl) and
 * double (math_double.cl) but for the type: written once here over the
 * parameters of builtins/include/lanes_math.h and these, defined by the
 * includer:
 *   MATH_I          the integer of the element's size (int, long): vector
 *                   comparisons give it
 *   LIT(c)          the literal c of the element type (c##f, c)
 *   MATH_1_PI       1/pi in the element type
 *   MATH_1_PI_LO    1/pi - MATH_1_PI, to the element's precision
 *   MATH_BELOW_ONE  the largest element below 1
 *   MATH_SIGN       the sign bit as a MATH_I
 * and, before SHARED_MORE, lanes_frexp(x, __private IT(n) *exp) and the
 * SLEEF wrappers lanes_sinpi, lanes_cospi, lanes_lgamma.
 */
#ifndef LANES_MATH_SHARED_H
#define LANES_MATH_SHARED_H

/*
 * x / pi: x times 1/pi in two parts, rounded once, so that the constant adds
 * no error of its own (x * MATH_1_PI carries the constant's error and rounds
 * once more: atanpi was 1.8 ulp at worst with a 0.7-ulp atan). With x's
 * sign, for zeros too: double's low part is negative, and -0 + +0 is +0
 * (asinpi(-0) was +0; the CTS's math_edge_cases).
 */
#define BY_PI(n, x)                                                                                \
    __builtin_elementwise_copysign(                                                                \
        __builtin_elementwise_fma((x), (VT(n))MATH_1_PI, (x)*MATH_1_PI_LO), (x))

/* The integer type of width n, and the bit casts to it and back. */
#define IT(n) PASTE(MATH_I, n)
#define AS_I(n) PASTE(as_, IT(n))
#define AS_T(n) PASTE(as_, VT(n))

/* Exact, or one correctly rounded operation: Clang's elementwise built-ins. */
#define SHARED_EXACT(n, k)                                                                         \
    CONST VT(n) fabs(VT(n) x)                                                                      \
    {                                                                                              \
        return __builtin_elementwise_abs(x);                                                       \
    }                                                                                              \
    CONST VT(n) floor(VT(n) x)                                                                     \
    {                                                                                              \
        return __builtin_elementwise_floor(x);                                                     \
    }                                                                                              \
    CONST VT(n) ceil(VT(n) x)                                                                      \
    {                                                                                              \
        return __builtin_elementwise_ceil(x);                                                      \
    }                                                                                              \
    CONST VT(n) trunc(VT(n) x)                                                                     \
    {                                                                                              \
        return __builtin_elementwise_trunc(x);                                                     \
    }                                                                                              \
    CONST VT(n) round(VT(n) x)                                                                     \
    {                                                                                              \
        return __builtin_elementwise_round(x);                                                     \
    }                                                                                              \
    CONST VT(n) rint(VT(n) x)                                                                      \
    {                                                                                              \
        return __builtin_elementwise_roundeven(x);                                                 \
    }                                                                                              \
    CONST VT(n) sqrt(VT(n) x)                                                                      \
    {                                                                                              \
        return __builtin_elementwise_sqrt(x);                                                      \
    }                                                                                              \
    CONST VT(n) rsqrt(VT(n) x)                                                                     \
    {                                                                                              \
        return LIT(1.0) / __builtin_elementwise_sqrt(x);                                           \
    }                                                                                              \
    CONST VT(n) fmin(VT(n) x, VT(n) y)                                                             \
    {                                                                                              \
        return __builtin_elementwise_min(x, y);                                                    \
    }                                                                                              \
    CONST VT(n) fmax(VT(n) x, VT(n) y)                                                             \
    {                                                                                              \
        return __builtin_elementwise_max(x, y);                                                    \
    }                                                                                              \
    CONST VT(n) fma(VT(n) x, VT(n) y, VT(n) z)                                                     \
    {                                                                                              \
        return __builtin_elementwise_fma(x, y, z);                                                 \
    }                                                                                              \
    CONST VT(n) mad(VT(n) x, VT(n) y, VT(n) z)                                                     \
    {                                                                                              \
        return x * y + z; /* any precision: the optimizer may contract */                          \
    }                                                                                              \
    CONST VT(n) copysign(VT(n) x, VT(n) y)                                                         \
    {                                                                                              \
        return __builtin_elementwise_copysign(x, y);                                               \
    }                                                                                              \
    SCALAR_ARGS_##k(n)
/* fmin and fmax (gentype, scalar) for vectors. */
#define SCALAR_ARGS_SCAL(n)
#define SCALAR_ARGS_VEC(n)                                                                         \
    CONST VT(n) fmin(VT(n) x, MATH_T y)                                                            \
    {                                                                                              \
        return __builtin_elementwise_min(x, (VT(n))y);                                             \
    }                                                                                              \
    CONST VT(n) fmax(VT(n) x, MATH_T y)                                                            \
    {                                                                                              \
        return __builtin_elementwise_max(x, (VT(n))y);                                             \
    }

/* Functions with an output pointer, for address space AS and width n. */
#define SHARED_POINTER(AS, n)                                                                      \
    OVL VT(n) sincos(VT(n) x, AS VT(n) * cosval)                                                   \
    {                                                                                              \
        *cosval = cos(x);                                                                          \
        return sin(x);                                                                             \
    }                                                                                              \
    OVL VT(n) fract(VT(n) x, AS VT(n) * iptr)                                                      \
    {                                                                                              \
        VT(n) f = __builtin_elementwise_floor(x);                                                  \
        *iptr = f;                                                                                 \
        VT(n) r = __builtin_elementwise_min(x - f, (VT(n))MATH_BELOW_ONE);                         \
        r = __builtin_elementwise_abs(x) == INFINITY                                               \
                ? __builtin_elementwise_copysign((VT(n))LIT(0.0), x)                               \
                : r;                                                                               \
        return x != x || x == LIT(0.0) ? x : r;                                                    \
    }                                                                                              \
    OVL VT(n) modf(VT(n) x, AS VT(n) * iptr)                                                       \
    {                                                                                              \
        VT(n) t = __builtin_elementwise_trunc(x);                                                  \
        *iptr = t;                                                                                 \
        VT(n) r = __builtin_elementwise_abs(x) == INFINITY ? (VT(n))LIT(0.0) : x - t;              \
        return __builtin_elementwise_copysign(r, x);                                               \
    }                                                                                              \
    OVL VT(n) frexp(VT(n) x, AS PASTE(int, n) * exp)                                               \
    {                                                                                              \
        IT(n) e;                                                                                   \
        VT(n) r = lanes_frexp(x, &e);                                                              \
        *exp = CVT_INT(e, n);                                                                      \
        return r;                                                                                  \
    }                                                                                              \
    OVL VT(n) lgamma_r(VT(n) x, AS PASTE(int, n) * signp)                                          \
    {                                                                                              \
        *signp = CVT_INT(lanes_lgamma_sign(x), n);                                                 \
        return lgamma(x);                                                                          \
    }                                                                                              \
    OVL VT(n) remquo(VT(n) x, VT(n) y, AS PASTE(int, n) * quo)                                     \
    {                                                                                              \
        IT(n) q;                                                                                   \
        VT(n) r = lanes_remquo(x, y, &q);                                                          \
        *quo = CVT_INT(q, n);                                                                      \
        return r;                                                                                  \
    }

/* The rest, for width n of kind k. */
#define SHARED_MORE(n, k)                                                                          \
    CONST VT(n) logb(VT(n) x)                                                                      \
    {                                                                                              \
        VT(n) r = CVT_TO(MATH_T, ilogb(x), n);                                                     \
        r = x == LIT(0.0) ? -INFINITY : r;                                                         \
        return __builtin_elementwise_abs(x) == INFINITY || x != x ? x * x : r;                     \
    }                                                                                              \
    /* The sign of gamma(x): -1 between -2m-1 and -2m, that of a zero, 0 at the poles and NaN. */  \
    CONST IT(n) lanes_lgamma_sign(VT(n) x)                                                         \
    {                                                                                              \
        VT(n) f = __builtin_elementwise_floor(x), h = f * LIT(0.5);                                \
        IT(n) s = x < LIT(0.0) && h != __builtin_elementwise_floor(h) ? (MATH_I)-1 : (MATH_I)1;    \
        s = x == LIT(0.0) ? (AS_I(n)(x) < 0 ? (MATH_I)-1 : (MATH_I)1) : s;                         \
        return (x == f && x < LIT(0.0)) || x != x ? (MATH_I)0 : s;                                 \
    }                                                                                              \
    /* x - k y with k the nearest integer to x/y (ties to even), and the low seven bits of k */    \
    /* with the sign of x/y. |x| is first reduced exactly modulo 128 |y|, which leaves those */    \
    /* bits; long division by |y| 2^b (b = 6..0) gives them, each subtraction exact as the */      \
    /* operands are within a factor of two; a last step rounds to nearest, ties to even. */        \
    OVL VT(n) lanes_remquo(VT(n) x, VT(n) y, __private IT(n) * quo)                                \
    {                                                                                              \
        VT(n) ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);                \
        VT(n) r = fmod(ax, ay * LIT(128.0));                                                       \
        IT(n) q = 0;                                                                               \
        for (int b = 6; b >= 0; b--) {                                                             \
            VT(n) d = ay * (MATH_T)(1 << b); /* inf when it overflows: then above r */             \
            IT(n) ge = r >= d ? (MATH_I)1 : (MATH_I)0;                                             \
            r = ge != 0 ? r - d : r;                                                               \
            q |= ge << b;                                                                          \
        }                                                                                          \
        VT(n) r2 = r * LIT(2.0); /* exact, or inf only when r > ay/2 */                            \
        IT(n) up = r2 > ay || (r2 == ay && (q & 1) != 0) ? (MATH_I)1 : (MATH_I)0;                  \
        r = up != 0 ? r - ay : r;                                                                  \
        q = (q + up) & 127;                                                                        \
        IT(n)                                                                                      \
        special = x != x || y != y || ax == INFINITY || y == LIT(0.0) ? (MATH_I)1 : (MATH_I)0;     \
        *quo = special != 0 ? (MATH_I)0 : ((AS_I(n)(x) ^ AS_I(n)(y)) < 0 ? -q : q);                \
        r = AS_T(n)(AS_I(n)(r) ^ (AS_I(n)(x) & MATH_SIGN));                                        \
        return special != 0 ? (VT(n))NAN : r;                                                      \
    }                                                                                              \
    CONST VT(n) maxmag(VT(n) x, VT(n) y)                                                           \
    {                                                                                              \
        VT(n) ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);                \
        return ax > ay ? x : (ay > ax ? y : __builtin_elementwise_max(x, y));                      \
    }                                                                                              \
    CONST VT(n) minmag(VT(n) x, VT(n) y)                                                           \
    {                                                                                              \
        VT(n) ax = __builtin_elementwise_abs(x), ay = __builtin_elementwise_abs(y);                \
        return ax < ay ? x : (ay < ax ? y : __builtin_elementwise_min(x, y));                      \
    }                                                                                              \
    CONST VT(n) fdim(VT(n) x, VT(n) y)                                                             \
    {                                                                                              \
        VT(n) r = x > y ? x - y : LIT(0.0);                                                        \
        return !FINITE_MATH && (x != x || y != y) ? x + y : r;                                     \
    }                                                                                              \
    /* The pi functions: the SLEEF result times 1/pi, rounded once (BY_PI). */                     \
    CONST VT(n) acospi(VT(n) x)                                                                    \
    {                                                                                              \
        return BY_PI(n, acos(x));                                                                  \
    }                                                                                              \
    CONST VT(n) asinpi(VT(n) x)                                                                    \
    {                                                                                              \
        return BY_PI(n, asin(x));                                                                  \
    }                                                                                              \
    /* x reduced to [-1, 1] exactly first (SLEEF errs for large x); zero results get the */        \
    /* signs of 6.15.2.4: sinpi(n) = copysign(0, n), cospi(n + 1/2) = +0. */                       \
    CONST VT(n) sinpi(VT(n) x)                                                                     \
    {                                                                                              \
        VT(n) r = lanes_sinpi(x - LIT(2.0) * __builtin_elementwise_roundeven(x * LIT(0.5)));       \
        return r == LIT(0.0) ? __builtin_elementwise_copysign((VT(n))LIT(0.0), x) : r;             \
    }                                                                                              \
    CONST VT(n) cospi(VT(n) x)                                                                     \
    {                                                                                              \
        VT(n) r = lanes_cospi(x - LIT(2.0) * __builtin_elementwise_roundeven(x * LIT(0.5)));       \
        return r == LIT(0.0) ? LIT(0.0) : r;                                                       \
    }                                                                                              \
    /* tanpi from sinpi and cospi: their signs give the special values of 6.15.2.4. */             \
    CONST VT(n) tanpi(VT(n) x)                                                                     \
    {                                                                                              \
        return sinpi(x) / cospi(x);                                                                \
    }                                                                                              \
    LDEXP_SCALAR_##k(n) FOR_POINTER_SPACES(SHARED_POINTER, n)
/* ldexp(gentype, int) for vectors. */
#define LDEXP_SCALAR_SCAL(n)
#define LDEXP_SCALAR_VEC(n)                                                                        \
    CONST VT(n) ldexp(VT(n) x, int k)                                                              \
    {                                                                                              \
        return ldexp(x, (PASTE(int, n))k);                                                         \
    }

#endif
