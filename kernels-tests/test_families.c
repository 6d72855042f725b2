/* SPDX-License-Identifier: MIT */
/*
 * Relational, common and geometric built-ins (float and double),
 * vload/vstore in every address space, and the vector calling convention
 * between programs and the library, at every width, against host references.
 */
#include "kernels.h"

enum { COUNT = 16 * 3 * 32 };

static const float specials[] = {0.0f,     -0.0f,      1.0f,  -1.0f,     0.5f,      2.0f,
                                 INFINITY, -INFINITY,  NAN,   0x1p-149f, 0x1p-126f, -3.0f,
                                 0x1p120f, -0x1p-130f, 7.25f, -0.75f};
#define NUM_SPECIALS (sizeof specials / sizeof *specials)

static void fill(float *x, unsigned salt, float scale)
{
    for (unsigned i = 0; i < COUNT; i++)
        x[i] = i < NUM_SPECIALS * NUM_SPECIALS
                   ? specials[(salt ? i / NUM_SPECIALS : i) % NUM_SPECIALS]
                   : (float)((double)(int32_t)(kt_random() >> 32) / 2147483648.0 * scale);
}

/* Within `ulp` units in the last place of `want` (NaN matches NaN). */
static bool close_to(float got, double want, double ulp)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want) || got == want)
        return got == want;
    int e;
    frexp(want, &e);
    return fabs(got - want) <= ulp * ldexp(1.0, (e - 1 < -126 ? -126 : e - 1) - 23);
}

/* Relational: comparisons give 1 or 0 for scalars, -1 or 0 per element for vectors. */
static int r_isequal(float x, float y)
{
    return x == y;
}
static int r_isnotequal(float x, float y)
{
    return x != y;
}
static int r_isgreater(float x, float y)
{
    return x > y;
}
static int r_isgreaterequal(float x, float y)
{
    return x >= y;
}
static int r_isless(float x, float y)
{
    return x < y;
}
static int r_islessequal(float x, float y)
{
    return x <= y;
}
static int r_islessgreater(float x, float y)
{
    return x < y || x > y;
}
static int r_isfinite(float x, float y)
{
    (void)y;
    return isfinite(x);
}
static int r_isinf(float x, float y)
{
    (void)y;
    return isinf(x) != 0;
}
static int r_isnan(float x, float y)
{
    (void)y;
    return isnan(x);
}
static int r_isnormal(float x, float y)
{
    (void)y;
    return isnormal(x);
}
static int r_isordered(float x, float y)
{
    return !isnan(x) && !isnan(y);
}
static int r_isunordered(float x, float y)
{
    return isnan(x) || isnan(y);
}
static int r_signbit(float x, float y)
{
    (void)y;
    return signbit(x) != 0;
}

static const struct rel_case {
    const char *name;
    int (*ref)(float, float);
    unsigned arity;
} rel_cases[] = {
    {"isequal", r_isequal, 2},
    {"isnotequal", r_isnotequal, 2},
    {"isgreater", r_isgreater, 2},
    {"isgreaterequal", r_isgreaterequal, 2},
    {"isless", r_isless, 2},
    {"islessequal", r_islessequal, 2},
    {"islessgreater", r_islessgreater, 2},
    {"isfinite", r_isfinite, 1},
    {"isinf", r_isinf, 1},
    {"isnan", r_isnan, 1},
    {"isnormal", r_isnormal, 1},
    {"isordered", r_isordered, 2},
    {"isunordered", r_isunordered, 2},
    {"signbit", r_signbit, 1},
};
#define NUM_REL (sizeof rel_cases / sizeof *rel_cases)

static void test_relational(void)
{
    static float a[COUNT], b[COUNT];
    static int32_t r[(NUM_REL + 4) * COUNT];
    fill(a, 0, 4), fill(b, 1, 4);
    for (unsigned i = NUM_SPECIALS * NUM_SPECIALS; i < COUNT; i += 3)
        b[i] = a[i]; /* equal pairs */
    for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        char *s = kt_format("%skernel void t(global const float *a, global const float *b,\n"
                            "              global int *r) {\n"
                            "    size_t i = get_global_id(0), n = get_global_size(0) * N;\n"
                            "    VEC(float) x = LOAD(i, a), y = LOAD(i, b);\n",
                            kt_preamble());
        for (size_t f = 0; f < NUM_REL; f++)
            kt_append(&s, "    STORE(%s(x%s), i, r + %zu * n);\n", rel_cases[f].name,
                      rel_cases[f].arity == 2 ? ", y" : "", f);
        /* select by the sign of an int (vectors: its MSB), bitselect, any/all broadcast */
        kt_append(&s,
                  "    VEC(int) c = CAT(as_, VEC(int))(y);\n"
                  "    STORE(CAT(as_, VEC(int))(select(x, y, c)), i, r + %zu * n);\n"
                  "    STORE(CAT(as_, VEC(int))(bitselect(x, y, CAT(as_, VEC(float))(c))), i, r + "
                  "%zu * n);\n"
                  "    STORE((VEC(int))any(c), i, r + %zu * n);\n"
                  "    STORE((VEC(int))all(c), i, r + %zu * n);\n}\n",
                  NUM_REL, NUM_REL + 1, NUM_REL + 2, NUM_REL + 3);
        cl_program p = kt_build(s, kt_width_options(n));
        free(s);
        struct kt_arg args[] = {{a, sizeof a, false}, {b, sizeof b, false}, {r, sizeof r, false}};
        if (kt_run(p, "t", COUNT / n, args, 3) != CL_SUCCESS) {
            KT_FAIL("relational width %u did not run", n);
            clReleaseProgram(p);
            continue;
        }
        int truth = n == 1 ? 1 : -1;
        for (size_t f = 0; f < NUM_REL; f++)
            for (unsigned i = 0; i < COUNT; i++)
                if (r[f * COUNT + i] != (rel_cases[f].ref(a[i], b[i]) ? truth : 0)) {
                    KT_FAIL("%s width %u (%a, %a) = %d", rel_cases[f].name, n, a[i], b[i],
                            r[f * COUNT + i]);
                    break;
                }
        for (unsigned i = 0; i < COUNT; i++) {
            uint32_t x = kt_float_bits(a[i]), y = kt_float_bits(b[i]);
            bool pick_y = n == 1 ? y != 0 : (int32_t)y < 0;
            if ((uint32_t)r[NUM_REL * COUNT + i] != (pick_y ? y : x))
                KT_FAIL("select width %u element %u", n, i);
            if ((uint32_t)r[(NUM_REL + 1) * COUNT + i] != ((x & ~y) | (y & y)))
                KT_FAIL("bitselect width %u element %u", n, i);
            unsigned base = i / n * n;
            int any = 0, all = 1;
            for (unsigned j = 0; j < n; j++) {
                any |= (int32_t)kt_float_bits(b[base + j]) < 0;
                all &= (int32_t)kt_float_bits(b[base + j]) < 0;
            }
            if (r[(NUM_REL + 2) * COUNT + i] != any || r[(NUM_REL + 3) * COUNT + i] != all) {
                KT_FAIL("any/all width %u element %u", n, i);
                break;
            }
        }
        clReleaseProgram(p);
    }
}

/* Common: {call, reference, ulp} on moderate inputs; mix and smoothstep are
 * implementation-defined and get a loose bound. */
static double c_clamp(double x, double y, double z)
{
    double lo = fmin(y, z), hi = fmax(y, z);
    return fmin(fmax(x, lo), hi);
}
static double c_degrees(double x, double y, double z)
{
    (void)y, (void)z;
    return x * (180.0 / M_PI);
}
static double c_radians(double x, double y, double z)
{
    (void)y, (void)z;
    return x * (M_PI / 180.0);
}
static double c_max(double x, double y, double z)
{
    (void)z;
    return fmax(x, y);
}
static double c_min(double x, double y, double z)
{
    (void)z;
    return fmin(x, y);
}
static double c_mix(double x, double y, double z)
{
    double a = fabs(z) - floor(fabs(z));
    return x + (y - x) * a;
}
static double c_step(double x, double y, double z)
{
    (void)z;
    return y < x ? 0.0 : 1.0;
}
static double c_smoothstep(double x, double y, double z)
{
    double e0 = fmin(x, y), e1 = fmax(x, y) + 1;
    double t = fmin(fmax((z - e0) / (e1 - e0), 0), 1);
    return t * t * (3 - 2 * t);
}
static double c_sign(double x, double y, double z)
{
    (void)y, (void)z;
    return isnan(x) ? 0 : x > 0 ? 1 : x < 0 ? -1 : x;
}

static const struct common_case {
    const char *name, *call;
    double (*ref)(double, double, double);
    double ulp, abs_tol;
} common_cases[] = {
    {"clamp", "clamp(x, fmin(y, z), fmax(y, z))", c_clamp, 0, 0},
    {"degrees", "degrees(x)", c_degrees, 2, 0},
    {"radians", "radians(x)", c_radians, 2, 0},
    {"max", "max(x, y)", c_max, 0, 0},
    {"min", "min(x, y)", c_min, 0, 0},
    {"mix", "mix(x, y, fabs(z) - floor(fabs(z)))", c_mix, 4, 1e-5},
    {"step", "step(x, y)", c_step, 0, 0},
    {"smoothstep", "smoothstep(fmin(x, y), fmax(x, y) + 1.0f, z)", c_smoothstep, 8, 1e-6},
    {"sign", "sign(x)", c_sign, 0, 0},
};
#define NUM_COMMON (sizeof common_cases / sizeof *common_cases)

static void test_common(void)
{
    static float a[COUNT], b[COUNT], c[COUNT], r[NUM_COMMON * COUNT];
    for (unsigned i = 0; i < COUNT; i++)
        a[i] = (float)((double)(int32_t)(kt_random() >> 32) / 2147483648.0 * 100),
        b[i] = (float)((double)(int32_t)(kt_random() >> 32) / 2147483648.0 * 100),
        c[i] = (float)((double)(int32_t)(kt_random() >> 32) / 2147483648.0 * 100);
    for (unsigned i = 0; i < NUM_SPECIALS; i++)
        a[i] = specials[i]; /* sign of ±0, NaN, infinities */
    for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        char *s = kt_format("%skernel void t(global const float *a, global const float *b,\n"
                            "              global const float *c, global float *r) {\n"
                            "    size_t i = get_global_id(0), n = get_global_size(0) * N;\n"
                            "    VEC(float) x = LOAD(i, a), y = LOAD(i, b), z = LOAD(i, c);\n",
                            kt_preamble());
        for (size_t f = 0; f < NUM_COMMON; f++)
            kt_append(&s, "    STORE(%s, i, r + %zu * n);\n", common_cases[f].call, f);
        kt_append(&s, "}\n");
        cl_program p = kt_build(s, kt_width_options(n));
        free(s);
        struct kt_arg args[] = {
            {a, sizeof a, false}, {b, sizeof b, false}, {c, sizeof c, false}, {r, sizeof r, false}};
        if (kt_run(p, "t", COUNT / n, args, 4) != CL_SUCCESS) {
            KT_FAIL("common width %u did not run", n);
            clReleaseProgram(p);
            continue;
        }
        for (size_t f = 0; f < NUM_COMMON; f++) {
            const struct common_case *cc = &common_cases[f];
            for (unsigned i = 0; i < COUNT; i++) {
                double want = cc->ref(a[i], b[i], c[i]);
                float got = r[f * COUNT + i];
                bool ok = close_to(got, (float)want, cc->ulp) ||
                          (cc->abs_tol && fabs(got - want) <= cc->abs_tol * (1 + fabs(want)));
                if (strcmp(cc->name, "sign") == 0 && want == 0)
                    ok = got == 0 && !signbit(got) == !signbit(want);
                if (isinf(a[i]) && cc->ulp > 0 && cc->abs_tol > 0)
                    ok = true; /* mix of infinities is undefined */
                if (!ok) {
                    KT_FAIL("%s width %u (%a, %a, %a) = %a, want %a", cc->name, n, a[i], b[i], c[i],
                            got, want);
                    break;
                }
            }
        }
        clReleaseProgram(p);
    }
}

/* Geometric, widths 1 to 4: dot, length, distance, normalize, cross, fast_length. */
static void test_geometric(void)
{
    static float a[COUNT], b[COUNT], r[6 * COUNT];
    for (unsigned i = 0; i < COUNT; i++)
        a[i] = (float)((double)(int32_t)(kt_random() >> 32) / 2147483648.0 * 10),
        b[i] = (float)((double)(int32_t)(kt_random() >> 32) / 2147483648.0 * 10);
    a[0] = a[1] = a[2] = a[3] = 0x1p100f; /* length scales instead of overflowing */
    /* Denormal and tiny vectors: scaled, not flushed or divided by an overflowed reciprocal. */
    a[4] = -0x1p-149f, a[5] = 0x1p-140f, a[6] = -0x1.8p-135f, a[7] = 0x1p-130f;
    a[8] = 0x1p-70f, a[9] = -0x1p-75f, a[10] = 0x1p-80f, a[11] = 0x1p-72f;
    a[12] = 0x1p120f, a[13] = -0x1p110f, a[14] = 0x1p126f, a[15] = -0x1p127f;
    for (unsigned n = 1; n <= 4; n++) {
        char *s = kt_format(
            "%skernel void t(global const float *a, global const float *b, global float *r) {\n"
            "    size_t i = get_global_id(0), n = get_global_size(0) * N;\n"
            "    VEC(float) x = LOAD(i, a), y = LOAD(i, b);\n"
            "    r[i] = dot(x, y);\n"
            "    r[n + i] = length(x);\n"
            "    r[2 * n + i] = distance(x, y);\n"
            "    STORE(normalize(x), i, r + 3 * n);\n"
            "#if N >= 3\n"
            "    STORE(cross(x, y), i, r + 4 * n);\n"
            "#endif\n"
            "    r[5 * n + i] = fast_length(x);\n"
            "}\n",
            kt_preamble());
        cl_program p = kt_build(s, kt_width_options(n));
        free(s);
        memset(r, 0, sizeof r);
        struct kt_arg args[] = {{a, sizeof a, false}, {b, sizeof b, false}, {r, sizeof r, false}};
        if (kt_run(p, "t", COUNT / n, args, 3) != CL_SUCCESS) {
            KT_FAIL("geometric width %u did not run", n);
            clReleaseProgram(p);
            continue;
        }
        for (unsigned v = 0; v < COUNT / n; v++) {
            const float *x = a + v * n, *y = b + v * n;
            double dot = 0, sum = 0, l2 = 0, d2 = 0;
            for (unsigned j = 0; j < n; j++) {
                dot += (double)x[j] * y[j], sum += fabs((double)x[j] * y[j]);
                l2 += (double)x[j] * x[j], d2 += ((double)x[j] - y[j]) * ((double)x[j] - y[j]);
            }
            double len = sqrt(l2);
            if (fabs(r[v] - dot) > sum * n * 0x1p-23 + n * 0x1p-149) /* denormal results */
                KT_FAIL("dot width %u vector %u: %a, want %a", n, v, r[v], dot);
            if (!close_to(r[COUNT + v], len, 3))
                KT_FAIL("length width %u vector %u: %a, want %a", n, v, r[COUNT + v], len);
            if (!close_to(r[2 * COUNT + v], sqrt(d2), 3))
                KT_FAIL("distance width %u vector %u", n, v);
            for (unsigned j = 0; j < n && len > 0; j++)
                if (fabs(r[3 * COUNT + v * n + j] - x[j] / len) > 4 * 0x1p-23)
                    KT_FAIL("normalize width %u vector %u", n, v);
            if (v * n < 16)
                continue; /* huge and tiny: cross and fast_length may overflow or flush */
            if (n >= 3) {
                double c[3] = {(double)x[1] * y[2] - (double)x[2] * y[1],
                               (double)x[2] * y[0] - (double)x[0] * y[2],
                               (double)x[0] * y[1] - (double)x[1] * y[0]};
                for (unsigned j = 0; j < 3; j++)
                    if (fabs(r[4 * COUNT + v * n + j] - c[j]) > 200 * 0x1p-23)
                        KT_FAIL("cross width %u vector %u", n, v);
                if (n == 4 && r[4 * COUNT + v * n + 3] != 0)
                    KT_FAIL("cross width 4: w is not 0");
            }
            if (!close_to(r[5 * COUNT + v], len, 8192))
                KT_FAIL("fast_length width %u vector %u", n, v);
        }
        clReleaseProgram(p);
    }
}

/* The double tests: inputs with the float specials' double counterparts. */
static const double dspecials[] = {0.0,      -0.0,       1.0,  -1.0,      0.5,       2.0,
                                   INFINITY, -INFINITY,  NAN,  0x1p-1074, 0x1p-1022, -3.0,
                                   0x1p1000, -0x1p-1030, 7.25, -0.75};
#define NUM_DSPECIALS (sizeof dspecials / sizeof *dspecials)

static double drandom(double scale)
{
    return (double)(int64_t)kt_random() / 0x1p63 * scale;
}

static void dfill(double *x, unsigned salt, double scale)
{
    for (unsigned i = 0; i < COUNT; i++)
        x[i] = i < NUM_DSPECIALS * NUM_DSPECIALS
                   ? dspecials[(salt ? i / NUM_DSPECIALS : i) % NUM_DSPECIALS]
                   : drandom(scale);
}

static uint64_t dbits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* Within `ulp` units in the last place of `want` (a double; NaN matches NaN). */
static bool dclose_to(double got, long double want, double ulp)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want) || got == want)
        return got == want;
    int e;
    frexpl(want, &e);
    return fabsl(got - want) <= ulp * ldexpl(1.0L, (e - 1 < -1022 ? -1022 : e - 1) - 52);
}

/* The relational functions of rel_cases, on doubles. */
static int drel(size_t f, double x, double y)
{
    switch (f) {
    case 0: return x == y;
    case 1: return x != y;
    case 2: return x > y;
    case 3: return x >= y;
    case 4: return x < y;
    case 5: return x <= y;
    case 6: return x < y || x > y;
    case 7: return isfinite(x);
    case 8: return isinf(x) != 0;
    case 9: return isnan(x);
    case 10: return isnormal(x);
    case 11: return !isnan(x) && !isnan(y);
    case 12: return isnan(x) || isnan(y);
    default: return signbit(x) != 0;
    }
}

/* Double relationals: int 1/0 for scalars, long -1/0 per element for vectors. */
static void test_relational_double(void)
{
    static double a[COUNT], b[COUNT];
    static int64_t r[(NUM_REL + 4) * COUNT];
    dfill(a, 0, 4), dfill(b, 1, 4);
    for (unsigned i = NUM_DSPECIALS * NUM_DSPECIALS; i < COUNT; i += 3)
        b[i] = a[i]; /* equal pairs */
    for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        char *s = kt_format("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "%skernel void t(global const double *a, global const double *b,\n"
                            "              global long *r) {\n"
                            "    size_t i = get_global_id(0), n = get_global_size(0) * N;\n"
                            "    VEC(double) x = LOAD(i, a), y = LOAD(i, b);\n",
                            kt_preamble());
        for (size_t f = 0; f < NUM_REL; f++)
            kt_append(&s, "    STORE((VEC(long))%s(x%s), i, r + %zu * n);\n", rel_cases[f].name,
                      rel_cases[f].arity == 2 ? ", y" : "", f);
        kt_append(&s,
                  "    VEC(long) c = CAT(as_, VEC(long))(y);\n"
                  "    STORE(CAT(as_, VEC(long))(select(x, y, c)), i, r + %zu * n);\n"
                  "    STORE(CAT(as_, VEC(long))(bitselect(x, y, CAT(as_, VEC(double))(c))), i, "
                  "r + %zu * n);\n"
                  "    STORE(CAT(as_, VEC(long))(select(x, y, CAT(as_, VEC(ulong))(c))), i, "
                  "r + %zu * n);\n"
                  "    STORE((VEC(long))any(c), i, r + %zu * n);\n}\n",
                  NUM_REL, NUM_REL + 1, NUM_REL + 2, NUM_REL + 3);
        cl_program p = kt_build(s, kt_width_options(n));
        free(s);
        struct kt_arg args[] = {{a, sizeof a, false}, {b, sizeof b, false}, {r, sizeof r, false}};
        if (kt_run(p, "t", COUNT / n, args, 3) != CL_SUCCESS) {
            KT_FAIL("double relational width %u did not run", n);
            clReleaseProgram(p);
            continue;
        }
        int truth = n == 1 ? 1 : -1;
        for (size_t f = 0; f < NUM_REL; f++)
            for (unsigned i = 0; i < COUNT; i++)
                if (r[f * COUNT + i] != (drel(f, a[i], b[i]) ? truth : 0)) {
                    KT_FAIL("%s(double) width %u (%a, %a) = %lld", rel_cases[f].name, n, a[i], b[i],
                            (long long)r[f * COUNT + i]);
                    break;
                }
        for (unsigned i = 0; i < COUNT; i++) {
            uint64_t x = dbits(a[i]), y = dbits(b[i]);
            bool pick_y = n == 1 ? y != 0 : (int64_t)y < 0;
            if ((uint64_t)r[NUM_REL * COUNT + i] != (pick_y ? y : x) ||
                (uint64_t)r[(NUM_REL + 2) * COUNT + i] != (pick_y ? y : x))
                KT_FAIL("select(double) width %u element %u", n, i);
            if ((uint64_t)r[(NUM_REL + 1) * COUNT + i] != ((x & ~y) | (y & y)))
                KT_FAIL("bitselect(double) width %u element %u", n, i);
            unsigned base = i / n * n;
            int any = 0;
            for (unsigned j = 0; j < n; j++)
                any |= (int64_t)dbits(b[base + j]) < 0;
            if (r[(NUM_REL + 3) * COUNT + i] != any) {
                KT_FAIL("any(long) width %u element %u", n, i);
                break;
            }
        }
        clReleaseProgram(p);
    }
}

/* Double common functions against the same references, to double's ulp. */
static void test_common_double(void)
{
    static double a[COUNT], b[COUNT], c[COUNT], r[(NUM_COMMON + 1) * COUNT];
    for (unsigned i = 0; i < COUNT; i++)
        a[i] = drandom(100), b[i] = drandom(100), c[i] = drandom(100);
    for (unsigned i = 0; i < NUM_DSPECIALS; i++)
        a[i] = dspecials[i];
    for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        char *s = kt_format("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                            "%skernel void t(global const double *a, global const double *b,\n"
                            "              global const double *c, global double *r) {\n"
                            "    size_t i = get_global_id(0), n = get_global_size(0) * N;\n"
                            "    VEC(double) x = LOAD(i, a), y = LOAD(i, b), z = LOAD(i, c);\n",
                            kt_preamble());
        for (size_t f = 0; f < NUM_COMMON; f++)
            kt_append(&s, "    STORE(%s, i, r + %zu * n);\n", common_cases[f].call, f);
        /* the (gentype, scalar) forms of vectors: as the vector forms */
        kt_append(
            &s,
            "#if N > 1\n"
            "    STORE(clamp(x, -1.0, 2.0) - clamp(x, (VEC(double))-1.0, (VEC(double))2.0) +\n"
            "          max(x, 0.5) - max(x, (VEC(double))0.5) + step(0.25, x) -\n"
            "          step((VEC(double))0.25, x), i, r + %zu * n);\n"
            "#endif\n}\n",
            NUM_COMMON);
        cl_program p = kt_build(s, kt_width_options(n));
        free(s);
        struct kt_arg args[] = {
            {a, sizeof a, false}, {b, sizeof b, false}, {c, sizeof c, false}, {r, sizeof r, false}};
        if (kt_run(p, "t", COUNT / n, args, 4) != CL_SUCCESS) {
            KT_FAIL("double common width %u did not run", n);
            clReleaseProgram(p);
            continue;
        }
        for (size_t f = 0; f < NUM_COMMON; f++) {
            const struct common_case *cc = &common_cases[f];
            for (unsigned i = 0; i < COUNT; i++) {
                double want = cc->ref(a[i], b[i], c[i]);
                double got = r[f * COUNT + i];
                bool ok = dclose_to(got, want, cc->ulp) ||
                          (cc->abs_tol && fabs(got - want) <= 1e-12 * (1 + fabs(want)));
                if (strcmp(cc->name, "sign") == 0 && want == 0)
                    ok = got == 0 && !signbit(got) == !signbit(want);
                if (isinf(a[i]) && cc->ulp > 0 && cc->abs_tol > 0)
                    ok = true; /* mix of infinities is undefined */
                if (!ok) {
                    KT_FAIL("%s(double) width %u (%a, %a, %a) = %a, want %a", cc->name, n, a[i],
                            b[i], c[i], got, want);
                    break;
                }
            }
        }
        for (unsigned i = 0; i < COUNT && n > 1; i++)
            if (!isnan(a[i]) && !isinf(a[i]) && r[NUM_COMMON * COUNT + i] != 0) {
                KT_FAIL("(double vector, double) common forms width %u (%a) differ by %a", n, a[i],
                        r[NUM_COMMON * COUNT + i]);
                break;
            }
        clReleaseProgram(p);
    }
}

/* Double geometric, widths 1 to 4: dot, length, distance, normalize, cross. */
static void test_geometric_double(void)
{
    static double a[COUNT], b[COUNT], r[5 * COUNT];
    for (unsigned i = 0; i < COUNT; i++)
        a[i] = drandom(10), b[i] = drandom(10);
    a[0] = a[1] = a[2] = a[3] = 0x1p1000; /* length scales instead of overflowing */
    a[4] = -0x1p-1074, a[5] = 0x1p-1060, a[6] = -0x1.8p-1050, a[7] = 0x1p-1030;
    a[8] = 0x1p-530, a[9] = -0x1p-540, a[10] = 0x1p-535, a[11] = 0x1p-520;
    a[12] = 0x1p1020, a[13] = -0x1p1000, a[14] = 0x1p1022, a[15] = -0x1p1023;
    for (unsigned n = 1; n <= 4; n++) {
        char *s = kt_format(
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
            "%skernel void t(global const double *a, global const double *b, global double *r) {\n"
            "    size_t i = get_global_id(0), n = get_global_size(0) * N;\n"
            "    VEC(double) x = LOAD(i, a), y = LOAD(i, b);\n"
            "    r[i] = dot(x, y);\n"
            "    r[n + i] = length(x);\n"
            "    r[2 * n + i] = distance(x, y);\n"
            "    STORE(normalize(x), i, r + 3 * n);\n"
            "#if N >= 3\n"
            "    STORE(cross(x, y), i, r + 4 * n);\n"
            "#endif\n"
            "}\n",
            kt_preamble());
        cl_program p = kt_build(s, kt_width_options(n));
        free(s);
        memset(r, 0, sizeof r);
        struct kt_arg args[] = {{a, sizeof a, false}, {b, sizeof b, false}, {r, sizeof r, false}};
        if (kt_run(p, "t", COUNT / n, args, 3) != CL_SUCCESS) {
            KT_FAIL("double geometric width %u did not run", n);
            clReleaseProgram(p);
            continue;
        }
        for (unsigned v = 0; v < COUNT / n; v++) {
            const double *x = a + v * n, *y = b + v * n;
            long double dot = 0, sum = 0, l2 = 0, d2 = 0;
            for (unsigned j = 0; j < n; j++) {
                dot += (long double)x[j] * y[j], sum += fabsl((long double)x[j] * y[j]);
                l2 += (long double)x[j] * x[j];
                d2 += ((long double)x[j] - y[j]) * ((long double)x[j] - y[j]);
            }
            long double len = sqrtl(l2);
            if (v * n >= 16 && fabsl(r[v] - dot) > sum * n * 0x1p-52L)
                KT_FAIL("dot(double) width %u vector %u: %a, want %La", n, v, r[v], dot);
            if (!dclose_to(r[COUNT + v], len, 3))
                KT_FAIL("length(double) width %u vector %u: %a, want %La", n, v, r[COUNT + v], len);
            if (v * n >= 16 && !dclose_to(r[2 * COUNT + v], sqrtl(d2), 3))
                KT_FAIL("distance(double) width %u vector %u", n, v);
            for (unsigned j = 0; j < n && len > 0; j++)
                if (fabsl(r[3 * COUNT + v * n + j] - x[j] / len) > 4 * 0x1p-52L)
                    KT_FAIL("normalize(double) width %u vector %u", n, v);
            if (v * n < 16 || n < 3)
                continue;
            long double c[3] = {(long double)x[1] * y[2] - (long double)x[2] * y[1],
                                (long double)x[2] * y[0] - (long double)x[0] * y[2],
                                (long double)x[0] * y[1] - (long double)x[1] * y[0]};
            for (unsigned j = 0; j < 3; j++)
                if (fabsl(r[4 * COUNT + v * n + j] - c[j]) > 200 * 0x1p-52L)
                    KT_FAIL("cross(double) width %u vector %u", n, v);
            if (n == 4 && r[4 * COUNT + v * n + 3] != 0)
                KT_FAIL("cross(double) width 4: w is not 0");
        }
        clReleaseProgram(p);
    }
}

/*
 * vload/vstore from and to global, constant and private memory, at
 * element-aligned (not vector-aligned) addresses, for a few element types,
 * under OpenCL C 1.2 (unqualified pointers are private) and 3.0.
 */
static void test_vload(void)
{
    static const char *types[] = {"char", "ushort", "int", "long", "float", "double"};
    static const unsigned sizes[] = {1, 2, 4, 8, 4, 8};
    static unsigned char in[COUNT * 8 + 8], out[COUNT * 8 + 8], out2[COUNT * 8 + 8];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (unsigned char)kt_random();
    for (int std = 0; std < 2; std++)
        for (size_t t = 0; t < sizeof types / sizeof *types; t++)
            for (size_t w = 1; w < KT_NUM_WIDTHS; w++) {
                unsigned n = kt_widths[w];
                char *s = kt_format(
                    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n%s#define T %s\n"
                    "kernel void t(global const T *a, constant T *c, global T *r, global T *q) {\n"
                    "    size_t i = get_global_id(0);\n"
                    "    T p[N];\n"
                    "    STORE(LOAD(i, a + 1), 0, p);\n"
                    "    STORE(LOAD(0, p), i, r + 1);\n"
                    "    STORE(LOAD(i, c + 1), i, q + 1);\n"
                    "}\n",
                    kt_preamble(), types[t]);
                char options[64];
                snprintf(options, sizeof options, "-cl-std=%s -DN=%u", std ? "CL3.0" : "CL1.2", n);
                cl_program p = kt_build(s, options);
                free(s);
                memset(out, 0, sizeof out);
                memset(out2, 0, sizeof out2);
                size_t bytes = sizes[t] * (COUNT + 1);
                struct kt_arg args[] = {{in, bytes, false},
                                        {in, bytes, false},
                                        {out, bytes, false},
                                        {out2, bytes, false}};
                if (kt_run(p, "t", COUNT / n, args, 4) != CL_SUCCESS)
                    KT_FAIL("vload %s%u did not run", types[t], n);
                else if (memcmp(out + sizes[t], in + sizes[t], sizes[t] * COUNT) != 0 ||
                         memcmp(out2 + sizes[t], in + sizes[t], sizes[t] * COUNT) != 0 ||
                         memcmp(out, (unsigned char[8]){0}, sizes[t]) != 0)
                    KT_FAIL("vload/vstore %s%u (%s) copied wrong bytes", types[t], n,
                            std ? "CL3.0" : "CL1.2");
                clReleaseProgram(p);
            }
}

/*
 * The vector calling convention: a program's own functions taking float8
 * and float16 (by value in registers on AVX and AVX-512 hosts) and a
 * built-in taking float16 must agree with the library of the host's level.
 */
static void test_vector_abi(void)
{
    static float a[COUNT], r[COUNT];
    for (unsigned i = 0; i < COUNT; i++)
        a[i] = (float)i * 0.01f - 3.0f;
    const char *s = "__attribute__((noinline)) float16 f(float16 x, float8 y) {\n"
                    "    return sin(x) + (float16)(y, y);\n"
                    "}\n"
                    "__attribute__((noinline)) float8 g(float8 y) { return exp(y) * 0.5f; }\n"
                    "kernel void t(global const float *a, global float *r) {\n"
                    "    size_t i = get_global_id(0);\n"
                    "    vstore16(f(vload16(i, a), g(vload8(2 * i, a))), i, r);\n"
                    "}\n";
    cl_program p = kt_build(s, "-cl-std=CL3.0");
    struct kt_arg args[] = {{a, sizeof a, false}, {r, sizeof r, false}};
    if (kt_run(p, "t", COUNT / 16, args, 2) != CL_SUCCESS)
        KT_FAIL("vector ABI kernel did not run");
    for (unsigned i = 0; i < COUNT; i++) {
        double want = sin((double)a[i]) + exp((double)a[i / 16 * 16 + i % 8]) * 0.5;
        if (fabs(r[i] - want) > 1e-5 * (1 + fabs(want))) {
            KT_FAIL("vector ABI: element %u = %a, want %a", i, r[i], want);
            break;
        }
    }
    clReleaseProgram(p);
}

int main(void)
{
    kt_setup();
    test_relational();
    test_common();
    test_geometric();
    test_relational_double();
    test_common_double();
    test_geometric_double();
    test_vload();
    test_vector_abi();
    printf("relational, common, geometric (float, double), vload/vstore, vector ABI: checked\n");
    return kt_teardown();
}
