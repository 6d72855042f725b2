/* SPDX-License-Identifier: MIT */
/*
 * Shared by the math kernel tests (float, double, and the functions with int
 * arguments or output pointers): the description of a function under test,
 * the long double references both precisions use, the error in ulp, and the
 * program with a kernel per function.
 */
#ifndef LANES_KERNELS_TESTS_KT_MATH_H
#define LANES_KERNELS_TESTS_KT_MATH_H

#include "kernels.h"

typedef long double (*ref1)(long double);
typedef long double (*ref2)(long double, long double);
typedef long double (*ref3)(long double, long double, long double);

/* One function under test: its name, arity, reference, bound in ulp and input domain. */
struct math_case {
    const char *name;
    unsigned arity;
    void *ref;
    double ulp;
    int domain; /* the test's own enum */
};

#define F1(name, ref, ulp, dom)                                                                    \
    {                                                                                              \
#name, 1, (void *)(ref1)ref, ulp, dom                                                      \
    }
#define F2(name, ref, ulp, dom)                                                                    \
    {                                                                                              \
#name, 2, (void *)(ref2)ref, ulp, dom                                                      \
    }
#define F3(name, ref, ulp, dom)                                                                    \
    {                                                                                              \
#name, 3, (void *)(ref3)ref, ulp, dom                                                      \
    }

static inline long double kt_reference(const struct math_case *c, long double a, long double b,
                                       long double d)
{
    switch (c->arity) {
    case 1: return ((ref1)c->ref)(a);
    case 2: return ((ref2)c->ref)(a, b);
    default: return ((ref3)c->ref)(a, b, d);
    }
}

/*
 * The error of `got` in ulp of the nearest value of a type with `mant`
 * fraction bits, smallest normal exponent `emin` and largest finite value
 * `max`: 0 when both are the same special value. With `signed_zero`, a zero
 * of the wrong sign is as bad as a wrong infinity.
 */
static inline double kt_ulp_error(long double got, long double want, int mant, int emin,
                                  long double max, bool signed_zero)
{
    if (isnan(want))
        return isnan(got) ? 0 : INFINITY;
    if (isnan(got))
        return INFINITY;
    if (signed_zero && want == 0 && got == 0)
        return !signbit(want) == !signbit(got) ? 0 : INFINITY;
    if (isinf(want) || fabsl(want) > max * (1 + ldexpl(1.0L, -mant - 2)))
        return got == (want > 0 ? INFINITY : -INFINITY) ? 0 : INFINITY;
    if (isinf(got))
        return fabsl(want) >= max ? 1 : INFINITY;
    int e;
    frexpl(want, &e); /* want = m 2^e, 0.5 <= |m| < 1 */
    if (e - 1 < emin)
        e = emin + 1;
    return (double)(fabsl(got - want) / ldexpl(1.0L, e - 1 - mant));
}

static inline double kt_ulp_error_float(float got, long double want, bool signed_zero)
{
    return kt_ulp_error(got, want, 23, -126, 0x1.fffffep127L, signed_zero);
}

static inline double kt_ulp_error_double(double got, long double want, bool signed_zero)
{
    return kt_ulp_error(got, want, 52, -1022, 0x1.fffffffffffffp1023L, signed_zero);
}

/*
 * One program per width with a kernel t_<name> per function of `cases`,
 * over arrays of `type` (with `pragma` first, "" for none).
 */
static inline char *kt_math_program(const struct math_case *cases, size_t n, const char *type,
                                    const char *pragma)
{
    char *s = NULL;
    kt_append(&s, "%s%s", pragma, kt_preamble());
    for (size_t f = 0; f < n; f++) {
        const char *name = cases[f].name;
        const char *call = cases[f].arity == 1   ? "%s(LOAD(i, a))"
                           : cases[f].arity == 2 ? "%s(LOAD(i, a), LOAD(i, b))"
                                                 : "%s(LOAD(i, a), LOAD(i, b), LOAD(i, c))";
        char *expr = kt_format(call, name);
        kt_append(&s,
                  "kernel void t_%s(global const %s *a, global const %s *b,\n"
                  "                 global const %s *c, global %s *r) {\n"
                  "    size_t i = get_global_id(0);\n"
                  "    STORE(%s, i, r);\n"
                  "}\n",
                  name, type, type, type, type, expr);
        free(expr);
    }
    return s;
}

/* ---- references shared by float and double ---- */

static inline long double rsqrt_ref(long double x)
{
    return 1.0L / sqrtl(x);
}
static inline long double mad_ref(long double x, long double y, long double z)
{
    return x * y + z;
}
static inline long double exp10_ref(long double x)
{
    return powl(10.0L, x);
}
/* OpenCL's powr: NaN for x < 0 and either NaN; -0 is taken as +0. */
static inline long double powr_ref(long double x, long double y)
{
    if (isnan(x) || isnan(y) || x < 0 || (x == 0 && y == 0) || (isinf(x) && y == 0) ||
        (x == 1 && isinf(y)))
        return NAN;
    return powl(fabsl(x), y);
}
static inline long double rint_ref(long double x)
{
    return nearbyintl(x);
}
static inline long double pi_ref(long double x)
{
    return x / 3.14159265358979323846264338327950288L;
}
static inline long double acospi_ref(long double x)
{
    return pi_ref(acosl(x));
}
static inline long double asinpi_ref(long double x)
{
    return pi_ref(asinl(x));
}
static inline long double atanpi_ref(long double x)
{
    return pi_ref(atanl(x));
}
static inline long double atan2pi_ref(long double y, long double x)
{
    return pi_ref(atan2l(y, x));
}
/*
 * sin(pi r) for r reduced exactly to [-1/2, 1/2] first: the rounding of pi
 * in long double then costs a relative 2^-64 at most, also where the result
 * is tiny next to r (near the integers).
 */
static inline long double sinpi_reduced(long double r)
{
    r = fmodl(r, 2.0L);
    if (r > 1.0L)
        r -= 2.0L;
    if (r < -1.0L)
        r += 2.0L;
    if (r > 0.5L)
        r = 1.0L - r;
    if (r < -0.5L)
        r = -1.0L - r;
    return sinl(r * 3.14159265358979323846264338327950288L);
}
/* Exact at multiples of 1/2, where the rounded pi would leave a tiny non-zero. */
static inline long double sinpi_ref(long double x)
{
    long double r = fmodl(x, 2.0L);
    if (r == floorl(r))
        return copysignl(0.0L, x);
    if (2 * r == floorl(2 * r))
        return (r == 0.5L || r == -1.5L) ? 1.0L : -1.0L;
    return isinf(x) ? NAN : sinpi_reduced(r);
}
/* cos(pi r) = sin(pi (1/2 - |r|)) with |r| in [0, 1]. */
static inline long double cospi_ref(long double x)
{
    long double r = fabsl(fmodl(x, 2.0L));
    if (2 * r == floorl(2 * r) && r != floorl(r))
        return 0.0L;
    if (r == floorl(r))
        return r == 1.0L ? -1.0L : 1.0L;
    if (r > 1.0L)
        r = 2.0L - r;
    return isinf(x) ? NAN : sinpi_reduced(0.5L - r);
}
static inline long double tanpi_ref(long double x)
{
    if (isinf(x))
        return NAN;
    long double r = fmodl(x, 2.0L);
    if (r == floorl(r))
        return 0.0L;
    if (fabsl(r) == 0.5L || fabsl(r) == 1.5L) /* n + 1/2: +inf for even n, -inf for odd */
        return (r == 0.5L || r == -1.5L) ? INFINITY : -INFINITY;
    return sinpi_reduced(r) / cospi_ref(r);
}
static inline long double maxmag_ref(long double x, long double y)
{
    return fabsl(x) > fabsl(y) ? x : fabsl(y) > fabsl(x) ? y : fmaxl(x, y);
}
static inline long double minmag_ref(long double x, long double y)
{
    return fabsl(x) < fabsl(y) ? x : fabsl(y) < fabsl(x) ? y : fminl(x, y);
}

#endif
