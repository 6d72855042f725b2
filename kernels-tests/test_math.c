/* SPDX-License-Identifier: MIT */
/*
 * Float math built-ins against long double references, at every width:
 * the worst error in ulp per function is printed and checked against the
 * bound of the OpenCL C 3.0 specification (7.4, full profile). Then, at
 * widths 1 and 3, the same programs built with -cl-finite-math-only
 * -cl-denorms-are-zero (the same bounds, for finite values and no
 * subnormals) and with -cl-fast-relaxed-math (the
 * relaxed table of 7.4, finite values only); a function whose library
 * variant changes under -cl-fast-relaxed-math must give some result the
 * precise build does not, so that the option is seen to reach the library.
 */
#include "kt_math.h"

enum domain {
    ANY,      /* every float: random bit patterns plus the special values */
    POSITIVE, /* x > 0 mostly, where the function is interesting */
    TRIG,     /* |x| <= 2^16 for the half_ trigonometric functions */
    SMALL,    /* |x| <= 40, for the reduced-range native/half exponentials */
    PI,       /* |x| <= pi: where relaxed sin and cos are bounded */
    HYPER,    /* |x| <= 88: where relaxed sinh and cosh are defined */
    NEAR1,    /* x > 0, half of them in [1/4, 4] around relaxed log's absolute-error range */
};

static long double recip_ref(long double x)
{
    return 1.0L / x;
}
static long double divide_ref(long double x, long double y)
{
    return x / y;
}
static long double nextafter_ref(long double x, long double y)
{
    return nextafterf((float)x, (float)y);
}

static const struct math_case cases[] = {
    /* exact functions (0 ulp) */
    F1(fabs, fabsl, 0, ANY),
    F1(floor, floorl, 0, ANY),
    F1(ceil, ceill, 0, ANY),
    F1(trunc, truncl, 0, ANY),
    F1(round, roundl, 0, ANY),
    F1(rint, rint_ref, 0, ANY),
    F2(fmin, fminl, 0, ANY),
    F2(fmax, fmaxl, 0, ANY),
    F2(fmod, fmodl, 0, ANY),
    F2(copysign, copysignl, 0, ANY),
    F3(fma, fmal, 0.5, ANY), /* correctly rounded */
    /* the ulp table of the specification */
    F1(sqrt, sqrtl, 3, ANY),
    F1(rsqrt, rsqrt_ref, 2, ANY),
    F1(exp, expl, 3, ANY),
    F1(exp2, exp2l, 3, ANY),
    F1(exp10, exp10_ref, 3, ANY),
    F1(log, logl, 3, ANY),
    F1(log2, log2l, 3, ANY),
    F1(log10, log10l, 3, ANY),
    F1(sin, sinl, 4, ANY),
    F1(cos, cosl, 4, ANY),
    F1(tan, tanl, 5, ANY),
    F1(tanh, tanhl, 5, ANY),
    F1(atan, atanl, 5, ANY),
    F2(atan2, atan2l, 6, ANY),
    F2(pow, powl, 16, ANY),
    F2(powr, powr_ref, 16, ANY),
    F3(mad, mad_ref, INFINITY, ANY), /* any precision: only checked to run */
    F1(acos, acosl, 4, ANY),
    F1(acosh, acoshl, 4, ANY),
    F1(acospi, acospi_ref, 5, ANY),
    F1(asin, asinl, 4, ANY),
    F1(asinh, asinhl, 4, ANY),
    F1(asinpi, asinpi_ref, 5, ANY),
    F1(atanh, atanhl, 5, ANY),
    F1(atanpi, atanpi_ref, 5, ANY),
    F2(atan2pi, atan2pi_ref, 6, ANY),
    F1(cbrt, cbrtl, 2, ANY),
    F1(cosh, coshl, 4, ANY),
    F1(sinh, sinhl, 4, ANY),
    F1(cospi, cospi_ref, 4, ANY),
    F1(sinpi, sinpi_ref, 4, ANY),
    F1(tanpi, tanpi_ref, 6, ANY),
    F1(erf, erfl, 16, ANY),
    F1(erfc, erfcl, 16, ANY),
    F1(expm1, expm1l, 3, ANY),
    F1(log1p, log1pl, 2, ANY),
    F1(logb, logbl, 0, ANY),
    F1(tgamma, tgammal, 16, ANY),
    F1(lgamma, lgammal, INFINITY, ANY), /* no bound in the specification */
    F2(hypot, hypotl, 4, ANY),
    F2(fdim, fdiml, 0.5, ANY), /* correctly rounded */
    F2(maxmag, maxmag_ref, 0, ANY),
    F2(minmag, minmag_ref, 0, ANY),
    F2(nextafter, nextafter_ref, 0, ANY),
    F2(remainder, remainderl, 0, ANY),
    /* half_: 8192 ulp over their ranges */
    F1(half_sin, sinl, 8192, TRIG),
    F1(half_cos, cosl, 8192, TRIG),
    F1(half_tan, tanl, 8192, TRIG),
    F1(half_exp, expl, 8192, SMALL),
    F1(half_exp2, exp2l, 8192, SMALL),
    F1(half_exp10, exp10_ref, 8192, SMALL),
    F1(half_log, logl, 8192, POSITIVE),
    F1(half_log2, log2l, 8192, POSITIVE),
    F1(half_log10, log10l, 8192, POSITIVE),
    F1(half_sqrt, sqrtl, 8192, POSITIVE),
    F1(half_rsqrt, rsqrt_ref, 8192, POSITIVE),
    F1(half_recip, recip_ref, 8192, SMALL),
    F2(half_divide, divide_ref, 8192, SMALL),
    F2(half_powr, powr_ref, 8192, SMALL),
    /* native_: implementation-defined; Lanes keeps them within the half_ bound */
    F1(native_sin, sinl, 8192, TRIG),
    F1(native_cos, cosl, 8192, TRIG),
    F1(native_tan, tanl, 8192, TRIG),
    F1(native_exp, expl, 8192, SMALL),
    F1(native_exp2, exp2l, 8192, SMALL),
    F1(native_exp10, exp10_ref, 8192, SMALL),
    F1(native_log, logl, 8192, POSITIVE),
    F1(native_log2, log2l, 8192, POSITIVE),
    F1(native_log10, log10l, 8192, POSITIVE),
    F1(native_sqrt, sqrtl, 8192, POSITIVE),
    F1(native_rsqrt, rsqrt_ref, 8192, POSITIVE),
    F1(native_recip, recip_ref, 8192, SMALL),
    F2(native_divide, divide_ref, 8192, SMALL),
    F2(native_powr, powr_ref, 8192, SMALL),
};
#define NUM_CASES (sizeof cases / sizeof *cases)

/* Values every ANY input set starts with. */
static const float specials[] = {0.0f,
                                 -0.0f,
                                 1.0f,
                                 -1.0f,
                                 0.5f,
                                 -0.5f,
                                 2.0f,
                                 -2.0f,
                                 3.0f,
                                 0x1p-149f,
                                 -0x1p-149f,
                                 0x1p-127f,
                                 -0x1.8p-130f,
                                 0x1p-126f,
                                 -0x1p-126f,
                                 0x1.fffffep127f,
                                 -0x1.fffffep127f,
                                 INFINITY,
                                 -INFINITY,
                                 NAN,
                                 1.5f,
                                 -2.5f,
                                 3.14159265f,
                                 1.5707964f,
                                 100.0f,
                                 88.7f,
                                 -103.0f,
                                 1e-10f,
                                 1e10f,
                                 0.1f,
                                 0x1.fffffep-1f,
                                 0x1.000002p0f,
                                 0x1p64f, /* acosh, asinh: SLEEF's x^2 overflows from here */
                                 -0x1p64f,
                                 0x1p40f,
                                 -0x1.62e6p+6f, /* sinh, cosh: e^|x| overflows, the result not */
                                 88.5f};
#define NUM_SPECIALS (sizeof specials / sizeof *specials)

enum { COUNT = 16 * 3 * 128 }; /* a multiple of every width */

static float random_input(enum domain d)
{
    uint64_t r = kt_random();
    switch (d) {
    case ANY:
        /* half random bit patterns, half moderate values */
        if (r & 1)
            return kt_bits_float((uint32_t)(r >> 32));
        return (float)((double)(int32_t)(r >> 32) / 2147483648.0 * 64.0);
    case POSITIVE: return fabsf(kt_bits_float((uint32_t)(r >> 32)));
    case TRIG: return (float)((double)(int32_t)(r >> 32) / 2147483648.0 * 65536.0);
    case SMALL: return (float)((double)(int32_t)(r >> 32) / 2147483648.0 * 40.0);
    case PI: return (float)((double)(int32_t)(r >> 32) / 2147483648.0 * M_PI);
    case HYPER: return (float)((double)(int32_t)(r >> 32) / 2147483648.0 * 88.0);
    case NEAR1:
        if (r & 1)
            return fabsf(kt_bits_float((uint32_t)(r >> 32)));
        return (float)exp2((double)(int32_t)(r >> 32) / 2147483648.0 * 2.0);
    }
    return 0;
}

static void fill(float *x, enum domain d, unsigned salt)
{
    for (unsigned i = 0; i < COUNT; i++) {
        if (d == ANY && i < NUM_SPECIALS * NUM_SPECIALS)
            x[i] = specials[(salt ? i / NUM_SPECIALS : i) % NUM_SPECIALS];
        else
            x[i] = random_input(d);
    }
}

static double ulp_error(float got, long double want)
{
    return kt_ulp_error_float(got, want, false);
}

/* How a relaxed bound (OpenCL C 7.4, -cl-unsafe-math-optimizations) is measured. */
enum relaxed_kind {
    ULP,      /* ulp */
    EXP_ULP,  /* ulp + floor(|2x|) */
    ABSOLUTE, /* absolute error */
    LOG_ULP,  /* absolute error 2^-21 on [0.5, 2], ulp elsewhere */
};

/* A function of `cases` under -cl-fast-relaxed-math; `changed`: its library variant differs. */
struct relaxed_case {
    const char *name;
    enum relaxed_kind kind;
    double bound;
    enum domain domain;
    bool changed;
};

/* clang-format off */
static const struct relaxed_case relaxed[] = {
    {"sin", ABSOLUTE, 0x1p-11, PI, true},
    {"cos", ABSOLUTE, 0x1p-11, PI, true},
    {"tan", ULP, 8192, ANY, true},
    {"exp", EXP_ULP, 3, ANY, false},
    {"exp2", EXP_ULP, 3, ANY, false},  /* SLEEF's u35 gives the u10 results, only faster */
    {"exp10", ULP, 8192, SMALL, true},
    {"log", LOG_ULP, 3, NEAR1, true},
    {"log2", LOG_ULP, 3, NEAR1, true},
    {"log10", LOG_ULP, 3, NEAR1, true}, /* log2(x) log10(2) */
    {"pow", ULP, 8192, ANY, true},      /* derived: exp2(y log2 |x|) */
    {"powr", ULP, 8192, NEAR1, true},
    {"acos", ULP, 4096, ANY, true},
    {"asin", ULP, 4096, ANY, true},
    {"atan", ULP, 4096, ANY, false},
    {"atan2", ULP, 8192, ANY, false},
    {"atanpi", ULP, 8192, ANY, true},
    {"atan2pi", ULP, 8192, ANY, true},
    {"acospi", ULP, 8192, ANY, true},
    {"asinpi", ULP, 8192, ANY, true},
    {"tanh", ULP, 8192, ANY, true},
    {"cbrt", ULP, 8192, ANY, true},
    {"sinh", ULP, 8192, HYPER, true},
    {"cosh", ULP, 8192, HYPER, true},
};
/* clang-format on */
#define NUM_RELAXED (sizeof relaxed / sizeof *relaxed)

/* The relaxed error of `got` for input x: in ulp, or absolute (ABSOLUTE, LOG_ULP near 1). */
static double relaxed_error(const struct relaxed_case *rc, float x, float got, long double want,
                            double *bound)
{
    *bound = rc->bound;
    switch (rc->kind) {
    case ABSOLUTE: return (double)fabsl((long double)got - want);
    case EXP_ULP: *bound += floor(fabs(2.0 * x)); return ulp_error(got, want);
    case LOG_ULP:
        if (x >= 0.5f && x <= 2.0f) {
            *bound = 0x1p-21;
            return (double)fabsl((long double)got - want);
        }
        return ulp_error(got, want);
    case ULP: break;
    }
    return ulp_error(got, want);
}

static const struct math_case *find_case(const char *name)
{
    for (size_t f = 0; f < NUM_CASES; f++)
        if (strcmp(cases[f].name, name) == 0)
            return &cases[f];
    return NULL;
}

/* Whether every input and the reference are finite (what -cl-finite-math-only promises). */
static bool all_finite(const struct math_case *c, float a, float b, float d, long double want)
{
    return isfinite(a) && (c->arity < 2 || isfinite(b)) && (c->arity < 3 || isfinite(d)) &&
           isfinite(want) && fabsl(want) <= 0x1.fffffep127L;
}

/* Whether no input and not the reference is subnormal (what -cl-denorms-are-zero may flush). */
static bool no_subnormal(const struct math_case *c, float a, float b, float d, long double want)
{
    return fpclassify(a) != FP_SUBNORMAL && (c->arity < 2 || fpclassify(b) != FP_SUBNORMAL) &&
           (c->arity < 3 || fpclassify(d) != FP_SUBNORMAL) &&
           (want == 0 || fabsl(want) >= 0x1p-126L);
}

static char *program_source(void)
{
    return kt_math_program(cases, NUM_CASES, "float", "");
}

/* Runs kernel t_<name> of p over COUNT / n work-items; false when it did not run. */
static bool run_case(cl_program p, const struct math_case *mc, unsigned n, float *a, float *b,
                     float *c, float *r)
{
    memset(r, 0, COUNT * sizeof *r);
    struct kt_arg args[] = {{a, COUNT * sizeof *a, false},
                            {b, COUNT * sizeof *b, false},
                            {c, COUNT * sizeof *c, false},
                            {r, COUNT * sizeof *r, false}};
    char kname[64];
    snprintf(kname, sizeof kname, "t_%s", mc->name);
    if (kt_run(p, kname, COUNT / n, args, 4) != CL_SUCCESS) {
        KT_FAIL("%s (width %u) did not run", mc->name, n);
        return false;
    }
    return true;
}

/* The inputs for domain d: the second argument of SMALL and PI in SMALL. */
static void fill_case(enum domain d, float *a, float *b, float *c)
{
    fill(a, d, 0);
    fill(b, d == SMALL || d == PI ? SMALL : d, 1);
    fill(c, d, 2);
}

/* Checks one function in one program against its bound (in ulp); finite: finite values only,
 * and no subnormals. */
static void check_precise(cl_program p, const struct math_case *mc, unsigned n, bool finite,
                          const char *mode, double *worst)
{
    static float a[COUNT], b[COUNT], c[COUNT], r[COUNT];
    fill_case(mc->domain, a, b, c);
    if (!run_case(p, mc, n, a, b, c, r))
        return;
    unsigned reported = 0;
    for (unsigned i = 0; i < COUNT && !isinf(mc->ulp); i++) {
        long double want = kt_reference(mc, a[i], b[i], c[i]);
        if (finite &&
            (!all_finite(mc, a[i], b[i], c[i], want) || !no_subnormal(mc, a[i], b[i], c[i], want)))
            continue;
        double err = ulp_error(r[i], want);
        if (err > *worst)
            *worst = err;
        if (err > mc->ulp && reported++ < 3)
            KT_FAIL("%s%s width %u: f(%a, %a, %a) = %a, want %La (%.1f ulp > %.0f)", mc->name, mode,
                    n, a[i], b[i], c[i], r[i], want, err, mc->ulp);
    }
}

/* Checks one function built with -cl-fast-relaxed-math (fast) against the precise build. */
static void check_relaxed(cl_program fast, cl_program precise, const struct relaxed_case *rc,
                          unsigned n, double *worst)
{
    static float a[COUNT], b[COUNT], c[COUNT], r[COUNT], rp[COUNT];
    const struct math_case *mc = find_case(rc->name);
    fill_case(rc->domain, a, b, c);
    if (!run_case(precise, mc, n, a, b, c, rp) || !run_case(fast, mc, n, a, b, c, r))
        return;
    unsigned reported = 0, differ = 0;
    for (unsigned i = 0; i < COUNT; i++) {
        long double want = kt_reference(mc, a[i], b[i], c[i]);
        if (!all_finite(mc, a[i], b[i], c[i], want))
            continue;
        differ += memcmp(&r[i], &rp[i], sizeof r[i]) != 0;
        double bound, err = relaxed_error(rc, a[i], r[i], want, &bound);
        if (err / bound > *worst)
            *worst = err / bound;
        if (!(err <= bound) && reported++ < 3)
            KT_FAIL("%s relaxed width %u: f(%a, %a) = %a, want %La (error %g > %g)", mc->name, n,
                    a[i], b[i], r[i], want, err, bound);
    }
    if (rc->changed && differ == 0)
        KT_FAIL("%s width %u: -cl-fast-relaxed-math gave the precise results only", mc->name, n);
}

int main(void)
{
    kt_setup();
    double worst[NUM_CASES] = {0}, worst_finite[NUM_CASES] = {0}, worst_relaxed[NUM_RELAXED] = {0};
    char *source = program_source();
    for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        cl_program p = kt_build(source, kt_width_options(n));
        for (size_t f = 0; f < NUM_CASES; f++)
            check_precise(p, &cases[f], n, false, "", &worst[f]);
        if (n == 1 || n == 3) {
            char *opts =
                kt_format("%s -cl-finite-math-only -cl-denorms-are-zero", kt_width_options(n));
            cl_program finite = kt_build(source, opts);
            free(opts);
            for (size_t f = 0; f < NUM_CASES; f++)
                check_precise(finite, &cases[f], n, true, " finite-only daz", &worst_finite[f]);
            clReleaseProgram(finite);
            opts = kt_format("%s -cl-fast-relaxed-math", kt_width_options(n));
            cl_program fast = kt_build(source, opts);
            free(opts);
            for (size_t f = 0; f < NUM_RELAXED; f++)
                check_relaxed(fast, p, &relaxed[f], n, &worst_relaxed[f]);
            clReleaseProgram(fast);
        }
        clReleaseProgram(p);
    }
    free(source);
    printf("%-14s %10s %8s %12s\n", "function", "worst ulp", "bound", "finite+daz");
    for (size_t f = 0; f < NUM_CASES; f++)
        if (!isinf(cases[f].ulp))
            printf("%-14s %10.3f %8.1f %12.3f\n", cases[f].name, worst[f], cases[f].ulp,
                   worst_finite[f]);
    printf("\n-cl-fast-relaxed-math (widths 1 and 3): worst error / relaxed bound\n");
    for (size_t f = 0; f < NUM_RELAXED; f++)
        printf("%-14s %10.4f\n", relaxed[f].name, worst_relaxed[f]);
    return kt_teardown();
}
