/* SPDX-License-Identifier: MIT */
/*
 * Double math built-ins (cl_khr_fp64) against long double references (11
 * bits more than double), at every width: the worst error in ulp per
 * function is printed and checked against the bound of the OpenCL C 3.0
 * specification for double (7.4, full profile).
 */
#include "kt_math.h"

#include <limits.h>

enum domain {
    ANY, /* every double: random bit patterns plus the special values */
};

static long double nextafter_ref(long double x, long double y)
{
    return nextafter((double)x, (double)y);
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
    F1(sqrt, sqrtl, 0.5, ANY), /* correctly rounded */
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
};
#define NUM_CASES (sizeof cases / sizeof *cases)

/* Values every ANY input set starts with. */
static const double specials[] = {0.0,
                                  -0.0,
                                  1.0,
                                  -1.0,
                                  0.5,
                                  -0.5,
                                  2.0,
                                  -2.0,
                                  3.0,
                                  0x1p-1074,
                                  -0x1p-1074,
                                  0x1p-1023,
                                  -0x1.8p-1030,
                                  0x1p-1022,
                                  -0x1p-1022,
                                  0x1.fffffffffffffp1023,
                                  -0x1.fffffffffffffp1023,
                                  INFINITY,
                                  -INFINITY,
                                  NAN,
                                  1.5,
                                  -2.5,
                                  3.141592653589793,
                                  1.5707963267948966,
                                  100.0,
                                  709.7,
                                  -745.0,
                                  1e-300,
                                  1e300,
                                  0.1,
                                  0x1.fffffffffffffp-1,
                                  0x1.0000000000001p0};
#define NUM_SPECIALS (sizeof specials / sizeof *specials)

enum { COUNT = 16 * 3 * 128 }; /* a multiple of every width */

/* Half random bit patterns, half moderate values. */
static double random_input(void)
{
    uint64_t r = kt_random();
    if (r & 1) {
        uint64_t hi = kt_random();
        double x;
        uint64_t bits = (hi & 0xffffffff00000000ull) | (r >> 32);
        memcpy(&x, &bits, sizeof x);
        return x;
    }
    return (double)(int64_t)r / 0x1p63 * 64.0;
}

static void fill(double *x, enum domain d, unsigned salt)
{
    for (unsigned i = 0; i < COUNT; i++) {
        if (d == ANY && i < NUM_SPECIALS * NUM_SPECIALS)
            x[i] = specials[(salt ? i / NUM_SPECIALS : i) % NUM_SPECIALS];
        else
            x[i] = random_input();
    }
}

static double ulp_error(double got, long double want)
{
    return kt_ulp_error_double(got, want, false);
}

static char *program_source(void)
{
    return kt_math_program(cases, NUM_CASES, "double",
                           "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
}

/* ---- Functions with int arguments or results, or an output pointer ---- */

static long double rootn_ref(double x, int k)
{
    bool odd = k & 1;
    if (k == 0 || isnan(x) || (x < 0 && !odd))
        return NAN;
    long double sign = odd && signbit(x) ? -1 : 1;
    if (x == 0)
        return k > 0 ? sign * 0.0L : sign * (long double)INFINITY;
    if (isinf(x))
        return k > 0 ? sign * (long double)INFINITY : sign * 0.0L;
    return sign * exp2l(log2l(fabsl(x)) / k);
}

/* Each kernel: r = first result, o = second (int or double), element i of a, b, k. */
static const struct int_case {
    const char *name, *call; /* call of x, y, k and P, a private output */
    const char *out;         /* the type of the second result, NULL when none */
} int_cases[] = {
    {"frexp", "frexp(x, &P)", "int"},
    {"fract", "fract(x, &P)", "double"},
    {"modf", "modf(x, &P)", "double"},
    {"sincos", "sincos(x, &P)", "double"},
    {"lgamma_r", "lgamma_r(x, &P)", "int"},
    {"remquo", "remquo(x, y, &P)", "int"},
    {"ilogb", "CAT(convert_, VEC(double))(ilogb(x))", NULL},
    {"ldexp", "ldexp(x, k)", NULL},
    {"ldexp_int", "ldexp(x, kk[i * N])", NULL},
    {"pown", "pown(x, k)", NULL},
    {"rootn", "rootn(x, k)", NULL},
};
#define NUM_INT_CASES (sizeof int_cases / sizeof *int_cases)

static char *int_program_source(void)
{
    char *s = NULL;
    kt_append(&s, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n%s", kt_preamble());
    for (size_t f = 0; f < NUM_INT_CASES; f++) {
        const struct int_case *ic = &int_cases[f];
        const char *ot = ic->out ? ic->out : "double";
        kt_append(&s,
                  "kernel void t_%s(global const double *a, global const double *b,\n"
                  "                 global const int *kk, global double *r, global %s *o,\n"
                  "                 global int *consts) {\n"
                  "    size_t i = get_global_id(0);\n"
                  "    VEC(double) x = LOAD(i, a), y = LOAD(i, b);\n"
                  "    VEC(int) k = LOAD(i, kk);\n"
                  "    VEC(%s) P = 0;\n"
                  "    (void)y; (void)k;\n"
                  "    STORE(%s, i, r);\n"
                  "    STORE(P, i, o);\n"
                  "    if (i == 0) { consts[0] = FP_ILOGB0; consts[1] = FP_ILOGBNAN; }\n"
                  "}\n",
                  ic->name, ot, ot, ic->call);
    }
    return s;
}

static void test_int_functions(void)
{
    static double a[COUNT], b[COUNT], r[COUNT], od[COUNT];
    static int k[COUNT], oi[COUNT], consts[2];
    static const int special_k[] = {0,     1,    -1,    2,       -2,      3,     -3,    7,
                                    -8,    53,   1023,  1024,    -1022,   -1074, -1075, 2046,
                                    -2200, 3000, -3000, INT_MAX, INT_MIN, 12,    -5,    17};
    fill(a, ANY, 0);
    fill(b, ANY, 1);
    for (unsigned i = 0; i < COUNT; i++) {
        uint64_t rr = kt_random();
        k[i] = i < COUNT / 4 ? special_k[i % (sizeof special_k / sizeof *special_k)]
                             : (int)(rr % 4401) - 2200;
        if (i >= COUNT / 2 && i < COUNT * 3 / 4) { /* remquo: quotients of a few hundred */
            b[i] = random_input();
            a[i] = b[i] * (double)(rr % 1000) * (1.0 + (double)((rr >> 12) & 0xff) * 0x1p-9);
        }
    }
    char *source = int_program_source();
    double worst[NUM_INT_CASES] = {0};
    for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        cl_program p = kt_build(source, kt_width_options(n));
        for (size_t f = 0; f < NUM_INT_CASES; f++) {
            const struct int_case *ic = &int_cases[f];
            bool int_out = ic->out && strcmp(ic->out, "int") == 0;
            struct kt_arg args[] = {
                {a, sizeof a, false},
                {b, sizeof b, false},
                {k, sizeof k, false},
                {r, sizeof r, false},
                {int_out ? (void *)oi : (void *)od, int_out ? sizeof oi : sizeof od, false},
                {consts, sizeof consts, false}};
            char kname[64];
            snprintf(kname, sizeof kname, "t_%s", ic->name);
            if (kt_run(p, kname, COUNT / n, args, 6) != CL_SUCCESS) {
                KT_FAIL("%s (width %u) did not run", ic->name, n);
                continue;
            }
            unsigned reported = 0;
            for (unsigned i = 0; i < COUNT; i++) {
                double x = a[i], y = b[i];
                int kk = strcmp(ic->name, "ldexp_int") == 0 ? k[i / n * n] : k[i];
                long double want = 0, want2 = 0;
                double bound = 0, err, err2 = 0;
                int wanti = 0;
                bool check_int = false, check_dbl2 = false;
                switch (f) {
                case 0: /* frexp */
                    want = x, wanti = 0;
                    if (x != 0 && isfinite(x))
                        want = frexp(x, &wanti);
                    check_int = true;
                    break;
                case 1: /* fract */
                    want2 = floor(x);
                    want = isinf(x)   ? copysign(0.0, x)
                           : isnan(x) ? NAN
                                      : fminl((long double)x - floorl(x), 0x1.fffffffffffffp-1L);
                    if (x == 0)
                        want = x;
                    bound =
                        0.501; /* x - floor(x) correctly rounded (long double may not hold it) */
                    check_dbl2 = true;
                    break;
                case 2: /* modf */
                    want2 = trunc(x);
                    want = isinf(x) ? copysign(0.0, x) : copysignl((long double)x - truncl(x), x);
                    check_dbl2 = true;
                    break;
                case 3: /* sincos */
                    want = sinl(x), want2 = cosl(x), bound = 4;
                    check_dbl2 = true;
                    break;
                case 4: { /* lgamma_r: the value has no bound, the sign is exact */
                    bool defined;
                    wanti = kt_gamma_sign(x, &defined);
                    want = NAN;
                    check_int = defined;
                    break;
                }
                case 5: { /* remquo: the remainder exactly; the quotient's low 3 bits (all C */
                    /* promises) and its sign, within 7 bits */
                    int q;
                    want = remquo(x, y, &q);
                    int got = oi[i];
                    bool neg = signbit(x) != signbit(y);
                    if (!isnan(want) &&
                        (got < -127 || got > 127 || (abs(got) & 7) != (abs(q) & 7) ||
                         (got != 0 && (got < 0) != neg)) &&
                        reported++ < 3)
                        KT_FAIL("remquo width %u: quo(%a, %a) = %d, want %d (mod 8)", n, x, y, got,
                                q);
                    break;
                }
                case 6: /* ilogb */
                    want = isnan(x)   ? consts[1]
                           : x == 0   ? consts[0]
                           : isinf(x) ? INT_MAX
                                      : ilogb(x);
                    break;
                case 7:
                case 8: /* ldexp, exact */ want = ldexp(x, kk); break;
                case 9: /* pown */ want = kk == 0 ? 1 : powl(x, kk), bound = 16; break;
                default: /* rootn */ want = rootn_ref(x, kk), bound = 16; break;
                }
                if (f == 4)
                    err = 0;
                else
                    err = ulp_error(r[i], want);
                if (check_dbl2)
                    err2 = ulp_error(od[i], want2);
                if (err > worst[f])
                    worst[f] = err;
                if (err2 > worst[f])
                    worst[f] = err2;
                if ((err > bound || err2 > bound) && reported++ < 3)
                    KT_FAIL("%s width %u: f(%a, %a, %d) = %a, %a; want %La, %La", ic->name, n, x, y,
                            kk, r[i], od[i], want, want2);
                if (check_int && oi[i] != wanti && reported++ < 3)
                    KT_FAIL("%s width %u: f(%a) int result %d, want %d", ic->name, n, x, oi[i],
                            wanti);
            }
        }
        clReleaseProgram(p);
    }
    free(source);
    for (size_t f = 0; f < NUM_INT_CASES; f++)
        printf("%-14s %10.3f\n", int_cases[f].name, worst[f]);
}

int main(void)
{
    kt_setup();
    static double a[COUNT], b[COUNT], c[COUNT], r[COUNT];
    double worst[NUM_CASES] = {0};
    char *source = program_source();
    for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        cl_program p = kt_build(source, kt_width_options(n));
        for (size_t f = 0; f < NUM_CASES; f++) {
            const struct math_case *mc = &cases[f];
            fill(a, mc->domain, 0);
            fill(b, mc->domain, 1);
            fill(c, mc->domain, 2);
            memset(r, 0, sizeof r);
            struct kt_arg args[] = {{a, sizeof a, false},
                                    {b, sizeof b, false},
                                    {c, sizeof c, false},
                                    {r, sizeof r, false}};
            char kname[64];
            snprintf(kname, sizeof kname, "t_%s", mc->name);
            if (kt_run(p, kname, COUNT / n, args, 4) != CL_SUCCESS) {
                KT_FAIL("%s (width %u) did not run", mc->name, n);
                continue;
            }
            unsigned reported = 0;
            /* The arc pi functions keep the sign of a zero (asinpi(-0) was +0: the CTS found it).
             */
            bool signed_zero = mc->name[0] == 'a' && strstr(mc->name, "pi") != NULL;
            for (unsigned i = 0; i < COUNT; i++) {
                long double want = kt_reference(mc, a[i], b[i], c[i]);
                double err = kt_ulp_error_double(r[i], want, signed_zero);
                if (isinf(mc->ulp))
                    continue;
                if (err > worst[f])
                    worst[f] = err;
                if (err > mc->ulp && reported++ < 3)
                    KT_FAIL("%s width %u: f(%a, %a, %a) = %a, want %La (%.1f ulp > %.0f)", mc->name,
                            n, a[i], b[i], c[i], r[i], want, err, mc->ulp);
            }
        }
        clReleaseProgram(p);
    }
    free(source);
    test_int_functions();
    printf("%-14s %10s %8s\n", "function", "worst ulp", "bound");
    for (size_t f = 0; f < NUM_CASES; f++)
        if (!isinf(cases[f].ulp))
            printf("%-14s %10.3f %8.1f\n", cases[f].name, worst[f], cases[f].ulp);
    return kt_teardown();
}
