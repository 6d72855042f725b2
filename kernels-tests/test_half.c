/* SPDX-License-Identifier: MIT */
/*
 * Half precision (cl_khr_fp16) at every width against host references in
 * C's _Float16 and long double. A NaN result matches any NaN.
 *   Arithmetic: + - * / on half scalars and vectors, correctly rounded
 *   (each reference is computed in double, exact or rounded once far below
 *   half's precision, then rounded to half), a comparison and a select;
 *   C casts between half and the integer and floating types.
 *   Conversions: convert_<T>[_sat][_r](halfn) for every integer type, float
 *   and double, and convert_halfn[_r](Tn) from each of them, in every
 *   rounding mode, exactly (references round in C); the vector forms load
 *   and store through vloadn and vstoren of half pointers.
 *   Math: every half (unary functions) or specials and random pairs, the
 *   worst error in ulp printed per function and checked against a bound:
 *   the library computes in float and rounds once, which leaves results
 *   within 0.51 ulp; exact functions at 0 and the correctly rounded sqrt,
 *   fdim and fma at 0.5.
 *   Relational and common functions, exactly or within their bound;
 *   shuffle and shuffle2 of half vectors;
 *   geometric ones within their bound; read_imageh and write_imageh.
 * All in OpenCL C 3.0; the functions with pointers also in OpenCL C 1.2.
 * Inputs: every special value (zeros, denormals, the largest finite,
 * infinities, NaNs) against each other, then random bit patterns.
 *
 * The device offers half unless LANES_FP16=0 (docs/environment.md); with
 * it off (or on a host without F16C) the test checks that nothing of half
 * is advertised.
 */
#include "kt_math.h"

#include <CL/cl_ext.h> /* CL_DEVICE_HALF_FP_CONFIG */
#include <limits.h>

enum { COUNT = 3 * 16 * 512 }; /* a multiple of every width */

typedef _Float16 half;

static half bits_half(uint16_t u)
{
    half h;
    memcpy(&h, &u, sizeof h);
    return h;
}

static uint16_t half_bits(half h)
{
    uint16_t u;
    memcpy(&u, &h, sizeof u);
    return u;
}

static bool is_nan_bits(uint16_t u)
{
    return (u & 0x7c00) == 0x7c00 && (u & 0x3ff) != 0;
}

/* Equal bits, or both NaN. */
static bool same_half(uint16_t got, uint16_t want)
{
    return got == want || (is_nan_bits(got) && is_nan_bits(want));
}

static const uint16_t specials[] = {
    0x0000, 0x8000,                                         /* zeros */
    0x0001, 0x8001, 0x03ff, 0x0200, 0x83ff,                 /* denormals */
    0x0400, 0x8400,                                         /* the smallest normals */
    0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x4000, 0x3555, 0x4248, /* 1, -1, around 1, 2, 1/3, pi */
    0x7bff, 0xfbff, 0x7bfe,                                 /* the largest finite */
    0x7c00, 0xfc00,                                         /* infinities */
    0x7e00, 0xfe00, 0x7c01,                                 /* NaNs */
};
#define NUM_SPECIALS (sizeof specials / sizeof *specials)

/* Inputs: specials against each other first (a), then random halves. */
static void fill(uint16_t *a, uint16_t *b)
{
    for (unsigned i = 0; i < COUNT; i++) {
        if (i < NUM_SPECIALS * NUM_SPECIALS) {
            a[i] = specials[i / NUM_SPECIALS];
            b[i] = specials[i % NUM_SPECIALS];
        } else {
            uint64_t r = kt_random();
            a[i] = (uint16_t)r;
            b[i] = (uint16_t)(r >> 16);
            /* A quarter of pairs near each other, where subtraction cancels. */
            if ((r >> 32) % 4 == 0)
                b[i] = (uint16_t)(a[i] + (int)((r >> 40) % 8) - 4);
        }
    }
}

/* ---- arithmetic ----------------------------------------------------------- */

static const char *const arith_ops[] = {"+", "-", "*", "/"};
enum { NUM_ARITH = 4 };

static half arith_ref(int op, half x, half y)
{
    double a = x, b = y;
    switch (op) {
    case 0: return (half)(a + b); /* exact in double: rounded once */
    case 1: return (half)(a - b);
    case 2: return (half)(a * b);  /* 22 bits: exact */
    default: return (half)(a / b); /* 53 bits >= 2 * 11 + 2: rounding twice is rounding once */
    }
}

static void test_arithmetic(unsigned n, const uint16_t *a, const uint16_t *b)
{
    char *src = kt_format("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                          "%s"
                          "typedef VEC(half) T;\n"
                          "typedef VEC(short) S;\n"
                          "kernel void arith(global const T *a, global const T *b, global T *sum,\n"
                          "                  global T *dif, global T *pro, global T *quo,\n"
                          "                  global S *lt, global T *eq) {\n"
                          "    size_t i = get_global_id(0);\n"
                          "    T x = a[i], y = b[i];\n"
                          "    sum[i] = x + y;\n"
                          "    dif[i] = x - y;\n"
                          "    pro[i] = x * y;\n"
                          "    quo[i] = x / y;\n"
                          "    lt[i] = (S)(x < y);\n"
                          "    eq[i] = x == y ? x : y - (half)1.0h;\n"
                          "}\n",
                          kt_preamble());
    cl_program p = kt_build(src, kt_width_options(n));
    free(src);
    /* half3 is laid out as half4 in memory: the fourth element is padding. */
    unsigned stride = n == 3 ? 4 : n, items = COUNT / stride;
    size_t bytes = sizeof(uint16_t) * COUNT;
    uint16_t *out[NUM_ARITH], *lt = malloc(bytes), *eq = malloc(bytes);
    for (int k = 0; k < NUM_ARITH; k++)
        out[k] = calloc(COUNT, sizeof(uint16_t));
    struct kt_arg args[] = {
        {(void *)a, bytes, false}, {(void *)b, bytes, false}, {out[0], bytes, false},
        {out[1], bytes, false},    {out[2], bytes, false},    {out[3], bytes, false},
        {lt, bytes, false},        {eq, bytes, false},
    };
    KT_CHECK_CL(kt_run(p, "arith", items, args, 8));
    int bad = 0;
    for (unsigned i = 0; i < COUNT; i++) {
        if (i % stride >= n)
            continue; /* padding */
        half x = bits_half(a[i]), y = bits_half(b[i]);
        for (int k = 0; k < NUM_ARITH; k++) {
            uint16_t want = half_bits(arith_ref(k, x, y));
            if (!same_half(out[k][i], want) && bad++ < 8)
                KT_FAIL("half%u: %#06x %s %#06x = %#06x, expected %#06x", n, a[i], arith_ops[k],
                        b[i], out[k][i], want);
        }
        uint16_t want_lt = x < y ? (n == 1 ? 1 : 0xffff) : 0;
        if (lt[i] != want_lt && bad++ < 8)
            KT_FAIL("half%u: %#06x < %#06x = %#x, expected %#x", n, a[i], b[i], lt[i], want_lt);
        uint16_t want_eq = x == y ? a[i] : half_bits((half)((double)y - 1.0));
        if (!same_half(eq[i], want_eq) && bad++ < 8)
            KT_FAIL("half%u: select on %#06x == %#06x gave %#06x, expected %#06x", n, a[i], b[i],
                    eq[i], want_eq);
    }
    for (int k = 0; k < NUM_ARITH; k++)
        free(out[k]);
    free(lt);
    free(eq);
    clReleaseProgram(p);
}

/*
 * __builtin_canonicalize{f16,f,} (llvm.canonicalize, which LLVM 19 cannot
 * select on x86: compiler/workarounds.c lowers it): the same bits, a
 * signalling NaN quieted (its quiet bit set, its payload kept), denormals
 * kept (the device does not flush them). Float and double beside half.
 */
static void test_canonicalize(void)
{
    static const char src[] =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void canon(global const ushort *h, global ushort *ho, global const uint *f,\n"
        "                  global uint *fo, global const ulong *d, global ulong *dout) {\n"
        "    size_t i = get_global_id(0);\n"
        "    ho[i] = as_ushort(__builtin_canonicalizef16(as_half(h[i])));\n"
        "    fo[i] = as_uint(__builtin_canonicalizef(as_float(f[i])));\n"
        "    dout[i] = as_ulong(__builtin_canonicalize(as_double(d[i])));\n"
        "}\n";
    enum { N = 512 };
    uint16_t h[N], ho[N];
    uint32_t f[N], fo[N];
    uint64_t d[N], dout[N];
    static const uint16_t hs[] = {0x7c01, 0xfd23, 0x7e00, 0x0001, 0x8000, 0x7c00, 0x3c00, 0x03ff};
    static const uint32_t fs[] = {0x7f800001, 0xff812345, 0x7fc00000, 0x00000001,
                                  0x80000000, 0x7f800000, 0x3f800000, 0x007fffff};
    static const uint64_t ds[] = {
        0x7ff0000000000001, 0xfff0123456789abc, 0x7ff8000000000000, 1,
        0x8000000000000000, 0x7ff0000000000000, 0x3ff0000000000000, 0x000fffffffffffff};
    for (unsigned i = 0; i < N; i++) {
        bool special = i < 8;
        h[i] = special ? hs[i] : (uint16_t)kt_random();
        f[i] = special ? fs[i] : (uint32_t)kt_random();
        d[i] = special ? ds[i] : (uint64_t)kt_random() << 32 | (uint32_t)kt_random();
    }
    cl_program p = kt_build(src, "-cl-std=CL3.0");
    struct kt_arg args[] = {{h, sizeof h, false}, {ho, sizeof ho, false},
                            {f, sizeof f, false}, {fo, sizeof fo, false},
                            {d, sizeof d, false}, {dout, sizeof dout, false}};
    KT_CHECK_CL(kt_run(p, "canon", N, args, 6));
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        uint16_t wh = (h[i] & 0x7c00) == 0x7c00 && (h[i] & 0x3ff) ? h[i] | 0x200 : h[i];
        uint32_t wf =
            (f[i] & 0x7f800000) == 0x7f800000 && (f[i] & 0x7fffff) ? f[i] | 0x400000 : f[i];
        uint64_t wd = (d[i] >> 52 & 0x7ff) == 0x7ff && (d[i] << 12) ? d[i] | 1ull << 51 : d[i];
        if (ho[i] != wh && bad++ < 8)
            KT_FAIL("canonicalize(half %#06x) = %#06x, expected %#06x", h[i], ho[i], wh);
        if (fo[i] != wf && bad++ < 8)
            KT_FAIL("canonicalize(float %#010x) = %#010x, expected %#010x", f[i], fo[i], wf);
        if (dout[i] != wd && bad++ < 8)
            KT_FAIL("canonicalize(double %#llx) = %#llx, expected %#llx", (unsigned long long)d[i],
                    (unsigned long long)dout[i], (unsigned long long)wd);
    }
    clReleaseProgram(p);
}

/* ---- host references ------------------------------------------------------ */

static const char pragma[] = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";

/* The rounding modes of conversions: "" is rte to half and float, rtz to integers. */
static const char *const modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
enum mode { DEFAULT, RTE, RTZ, RTP, RTN, NUM_MODES };

/* v rounded to half in mode m (DEFAULT as RTE); the bits of the result. */
static uint16_t round_to_half(long double v, enum mode m)
{
    if (isnan(v))
        return 0x7e00;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    long double a = fabsl(v);
    if (isinf(a))
        return sign | 0x7c00;
    bool neg = sign != 0;
    if (a >= 65536.0L) { /* beyond the binade of the largest half */
        bool to_max = m == RTZ || (m == RTP && neg) || (m == RTN && !neg);
        return sign | (to_max ? 0x7bff : 0x7c00);
    }
    int e;
    frexpl(a, &e); /* a = f 2^e, 1/2 <= f < 1 */
    long double unit = ldexpl(1.0L, (e - 1 < -14 ? -14 : e - 1) - 10);
    long double q = floorl(a / unit), rest = a - q * unit;
    bool up;
    switch (m) {
    case RTZ: up = false; break;
    case RTP: up = rest > 0 && !neg; break;
    case RTN: up = rest > 0 && neg; break;
    default: up = rest > unit / 2 || (rest == unit / 2 && fmodl(q, 2) != 0); break;
    }
    long double r = (q + (up ? 1 : 0)) * unit;
    if (r > 65504.0L)
        return sign | 0x7c00;
    return (uint16_t)(sign | half_bits((half)(double)r)); /* exact */
}

static long double half_value(uint16_t u)
{
    return (long double)bits_half(u);
}

/* A random half: any bit pattern, or (one in four) a moderate value. */
static uint16_t random_half(void)
{
    uint64_t r = kt_random();
    if (r % 4 == 0)
        return half_bits((half)((double)(int32_t)(r >> 32) * 0x1p-27));
    return (uint16_t)(r >> 16);
}

/* ---- casts ---------------------------------------------------------------- */

/*
 * C casts in a kernel: half from int, long, uint, ulong, float and double
 * (rounded to nearest even, once), and integers from half (truncated, in
 * range). Scalar only: OpenCL C has no casts between vector types.
 */
static void test_casts(void)
{
    enum { N = 3 * 16 * 64 };
    static int32_t i32[N];
    static int64_t i64[N];
    static float f32[N];
    static double f64[N];
    static uint16_t h[N], from[6][N];
    static int32_t to_i[N];
    static int64_t to_l[N];
    static uint32_t to_u[N];
    for (unsigned i = 0; i < N; i++) {
        uint64_t r = kt_random();
        i32[i] = i % 2 ? (int32_t)r : (int32_t)(r % 140000) - 70000;
        i64[i] = i % 2 ? (int64_t)r : (int64_t)(r % 140000) - 70000;
        f32[i] =
            kt_bits_float((uint32_t)(r >> 32) % 0x10000000u + (i % 2 ? 0x30000000u : 0x38000000u));
        f32[i] = i % 3 ? f32[i] : -f32[i];
        f64[i] = (double)f32[i] * (1.0 + 0x1p-40 * (double)((int)(r % 5) - 2));
        h[i] = random_half();
    }
    const char *src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                      "kernel void casts(global const int *i32, global const long *i64,\n"
                      "                  global const float *f32, global const double *f64,\n"
                      "                  global const half *h, global half *a, global half *b,\n"
                      "                  global half *c, global half *d, global half *e,\n"
                      "                  global half *f, global int *ti, global long *tl,\n"
                      "                  global uint *tu) {\n"
                      "    size_t i = get_global_id(0);\n"
                      "    a[i] = (half)i32[i];\n"
                      "    b[i] = (half)i64[i];\n"
                      "    c[i] = (half)(uint)i32[i];\n"
                      "    d[i] = (half)(ulong)i64[i];\n"
                      "    e[i] = (half)f32[i];\n"
                      "    f[i] = (half)f64[i];\n"
                      "    half x = h[i];\n"
                      "    ti[i] = (int)x;\n"
                      "    tl[i] = (long)x;\n"
                      "    tu[i] = x >= 0 ? (uint)x : 0u;\n"
                      "}\n";
    cl_program p = kt_build(src, "-cl-std=CL3.0");
    struct kt_arg args[] = {
        {i32, sizeof i32, false},
        {i64, sizeof i64, false},
        {f32, sizeof f32, false},
        {f64, sizeof f64, false},
        {h, sizeof h, false},
        {from[0], sizeof from[0], false},
        {from[1], sizeof from[1], false},
        {from[2], sizeof from[2], false},
        {from[3], sizeof from[3], false},
        {from[4], sizeof from[4], false},
        {from[5], sizeof from[5], false},
        {to_i, sizeof to_i, false},
        {to_l, sizeof to_l, false},
        {to_u, sizeof to_u, false},
    };
    KT_CHECK_CL(kt_run(p, "casts", N, args, 14));
    static const char *const names[] = {"int", "long", "uint", "ulong", "float", "double"};
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        long double src_value[6] = {i32[i],           i64[i], (uint32_t)i32[i],
                                    (uint64_t)i64[i], f32[i], f64[i]};
        for (int k = 0; k < 6; k++) {
            uint16_t want = round_to_half(src_value[k], RTE);
            if (!same_half(from[k][i], want) && bad++ < 8)
                KT_FAIL("(half)(%s)%La = %#06x, expected %#06x", names[k], src_value[k], from[k][i],
                        want);
        }
        long double x = half_value(h[i]);
        if (!isfinite(x))
            continue;
        if ((to_i[i] != (int32_t)truncl(x) || to_l[i] != (int64_t)truncl(x)) && bad++ < 8)
            KT_FAIL("(int)/(long) of half %#06x = %d, %lld", h[i], to_i[i], (long long)to_l[i]);
        if (x >= 0 && to_u[i] != (uint32_t)truncl(x) && bad++ < 8)
            KT_FAIL("(uint) of half %#06x = %u", h[i], to_u[i]);
    }
    clReleaseProgram(p);
}

/* ---- conversions ---------------------------------------------------------- */

struct int_type {
    const char *name;
    unsigned size;
    bool is_signed;
};
static const struct int_type int_types[] = {
    {"char", 1, true}, {"uchar", 1, false}, {"short", 2, true}, {"ushort", 2, false},
    {"int", 4, true},  {"uint", 4, false},  {"long", 8, true},  {"ulong", 8, false},
};
enum { NUM_INT_TYPES = 8, CCOUNT = 3 * 16 * 256 };

static long double int_min(const struct int_type *t)
{
    return t->is_signed ? -ldexpl(1.0L, (int)t->size * 8 - 1) : 0;
}

static long double int_max(const struct int_type *t)
{
    return ldexpl(1.0L, (int)t->size * 8 - (t->is_signed ? 1 : 0)) - 1;
}

/* Element i of an array of integer type t, as a long double (exact). */
static long double int_at(const struct int_type *t, const void *p, unsigned i)
{
    const unsigned char *b = (const unsigned char *)p + (size_t)i * t->size;
    switch (t->size) {
    case 1: return t->is_signed ? (long double)*(const int8_t *)b : (long double)*b;
    case 2: {
        uint16_t u;
        memcpy(&u, b, 2);
        return t->is_signed ? (long double)(int16_t)u : (long double)u;
    }
    case 4: {
        uint32_t u;
        memcpy(&u, b, 4);
        return t->is_signed ? (long double)(int32_t)u : (long double)u;
    }
    default: {
        uint64_t u;
        memcpy(&u, b, 8);
        return t->is_signed ? (long double)(int64_t)u : (long double)u;
    }
    }
}

/* x rounded to an integer in mode m (DEFAULT is rtz for integer results). */
static long double round_int(long double x, enum mode m)
{
    switch (m) {
    case RTE: return nearbyintl(x); /* the host's mode: to nearest even */
    case RTP: return ceill(x);
    case RTN: return floorl(x);
    default: return truncl(x);
    }
}

static char *conversion_source(void)
{
    char *s = NULL;
    kt_append(&s, "%s%s", pragma, kt_preamble());
    /* One kernel per pair of types (and _sat): the five modes into r, CCOUNT elements apart. */
    kt_append(&s,
              "#define C(D, SUFFIX, x) CAT(CAT(convert_, VEC(D)), SUFFIX)(x)\n"
              "#define MODES(D, SAT, x, r)                               \\\n"
              "    STORE(C(D, SAT, x), i, r);                            \\\n"
              "    STORE(C(D, CAT(SAT, _rte), x), i, r + %d);            \\\n"
              "    STORE(C(D, CAT(SAT, _rtz), x), i, r + 2 * %d);        \\\n"
              "    STORE(C(D, CAT(SAT, _rtp), x), i, r + 3 * %d);        \\\n"
              "    STORE(C(D, CAT(SAT, _rtn), x), i, r + 4 * %d)\n"
              "#define FROM_HALF(D, SAT) kernel void h2##D##SAT(global const half *a, "
              "global D *r) { size_t i = get_global_id(0); MODES(D, SAT, LOAD(i, a), r); }\n"
              "#define TO_HALF(S) kernel void S##2h(global const S *a, global half *r) "
              "{ size_t i = get_global_id(0); MODES(half, , LOAD(i, a), r); }\n",
              CCOUNT, CCOUNT, CCOUNT, CCOUNT);
    for (int t = 0; t < NUM_INT_TYPES; t++)
        kt_append(&s, "FROM_HALF(%s, )\nFROM_HALF(%s, _sat)\nTO_HALF(%s)\n", int_types[t].name,
                  int_types[t].name, int_types[t].name);
    kt_append(&s, "FROM_HALF(float, )\nFROM_HALF(double, )\n"
                  "TO_HALF(float)\nTO_HALF(double)\nTO_HALF(half)\n");
    return s;
}

/* Runs conversion kernel `name` of p over CCOUNT / n work-items; out holds its five modes. */
static void run_conversion(cl_program p, const char *name, unsigned n, void *in, size_t in_size,
                           void *out, size_t out_size)
{
    memset(out, 0, out_size);
    struct kt_arg args[] = {{in, in_size, false}, {out, out_size, false}};
    if (kt_run(p, name, CCOUNT / n, args, 2) != CL_SUCCESS)
        KT_FAIL("%s (width %u) did not run", name, n);
}

static void test_conversions(void)
{
    static uint16_t h[CCOUNT], r16[NUM_MODES * CCOUNT];
    static unsigned char ints[CCOUNT * 8], out[NUM_MODES * CCOUNT * 8];
    static float f[CCOUNT];
    static double d[CCOUNT];
    static uint64_t bits[CCOUNT];
    for (unsigned i = 0; i < CCOUNT; i++) {
        h[i] = i < NUM_SPECIALS ? specials[i] : random_half();
        uint64_t r = kt_random();
        /* Around the halves: one in four a tie between neighbours, some beyond the range. */
        long double base = half_value(random_half() & 0x7fff);
        if (!isfinite(base))
            base = 65504;
        long double step = ldexpl(1.0L, -25);
        if (base >= 0x1p-14L) {
            int e;
            frexpl(base, &e);
            step = ldexpl(1.0L, e - 12);
        }
        long double v = base + (long double)(r % 4) * step / 2 + (r & 4 ? 0x1p-30L * base : 0);
        if (r % 16 == 5)
            v = 65504 + (long double)(r >> 8 & 0xffff) / 8;
        f[i] = (float)((r & 8 ? -1 : 1) * v);
        d[i] = (double)((r & 8 ? -1 : 1) * (v + (r & 16 ? 0x1p-40L * v : 0)));
        if (i < 4)
            f[i] = d[i] = i < 2 ? INFINITY : NAN;
        /* Integers: half of them within +-70000 (where halves are), the rest any. */
        bits[i] = r & 32 ? kt_random() : (uint64_t)((int64_t)(kt_random() % 140001) - 70000);
    }
    char *src = conversion_source();
    for (unsigned w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        cl_program p = kt_build(src, kt_width_options(n));
        int bad = 0;
        char name[64];
        for (int t = 0; t < NUM_INT_TYPES; t++) {
            const struct int_type *it = &int_types[t];
            for (int sat = 0; sat < 2; sat++) { /* from half */
                snprintf(name, sizeof name, "h2%s%s", it->name, sat ? "_sat" : "");
                run_conversion(p, name, n, h, sizeof h, out, NUM_MODES * CCOUNT * it->size);
                for (int m = 0; m < NUM_MODES; m++)
                    for (unsigned i = 0; i < CCOUNT; i++) {
                        long double x = half_value(h[i]), want = round_int(x, (enum mode)m);
                        bool in_range = want >= int_min(it) && want <= int_max(it);
                        if (isnan(x))
                            want = 0, in_range = sat;
                        else if (!in_range && sat)
                            want = want < 0 ? int_min(it) : int_max(it);
                        long double got = int_at(it, out, m * CCOUNT + i);
                        if ((in_range || sat) && got != want && bad++ < 8)
                            KT_FAIL("%s%s (width %u) of %#06x = %.0Lf, expected %.0Lf", name,
                                    modes[m], n, h[i], got, want);
                    }
            }
            /* to half, from values of the type's width */
            for (unsigned i = 0; i < CCOUNT; i++)
                memcpy(ints + (size_t)i * it->size, &bits[i], it->size); /* little-endian */
            snprintf(name, sizeof name, "%s2h", it->name);
            run_conversion(p, name, n, ints, CCOUNT * it->size, r16, sizeof r16);
            for (int m = 0; m < NUM_MODES; m++)
                for (unsigned i = 0; i < CCOUNT; i++) {
                    long double x = int_at(it, ints, i);
                    uint16_t want = round_to_half(x, (enum mode)m);
                    if (r16[m * CCOUNT + i] != want && bad++ < 8)
                        KT_FAIL("%s%s (width %u) of %.0Lf = %#06x, expected %#06x", name, modes[m],
                                n, x, r16[m * CCOUNT + i], want);
                }
        }
        run_conversion(p, "float2h", n, f, sizeof f, r16, sizeof r16);
        for (int m = 0; m < NUM_MODES; m++)
            for (unsigned i = 0; i < CCOUNT; i++) {
                uint16_t want = round_to_half(f[i], (enum mode)m);
                if (!same_half(r16[m * CCOUNT + i], want) && bad++ < 8)
                    KT_FAIL("float2h%s (width %u) of %a = %#06x, expected %#06x", modes[m], n, f[i],
                            r16[m * CCOUNT + i], want);
            }
        run_conversion(p, "double2h", n, d, sizeof d, r16, sizeof r16);
        for (int m = 0; m < NUM_MODES; m++)
            for (unsigned i = 0; i < CCOUNT; i++) {
                uint16_t want = round_to_half(d[i], (enum mode)m);
                if (!same_half(r16[m * CCOUNT + i], want) && bad++ < 8)
                    KT_FAIL("double2h%s (width %u) of %a = %#06x, expected %#06x", modes[m], n,
                            d[i], r16[m * CCOUNT + i], want);
            }
        run_conversion(p, "half2h", n, h, sizeof h, r16, sizeof r16);
        for (int m = 0; m < NUM_MODES; m++)
            for (unsigned i = 0; i < CCOUNT; i++)
                if (!same_half(r16[m * CCOUNT + i], h[i]) && bad++ < 8)
                    KT_FAIL("half2h%s (width %u) of %#06x = %#06x", modes[m], n, h[i],
                            r16[m * CCOUNT + i]);
        /* half to float and double: exact */
        run_conversion(p, "h2float", n, h, sizeof h, out, NUM_MODES * CCOUNT * sizeof(float));
        for (int m = 0; m < NUM_MODES; m++)
            for (unsigned i = 0; i < CCOUNT; i++) {
                float got;
                memcpy(&got, out + (m * CCOUNT + i) * sizeof got, sizeof got);
                long double x = half_value(h[i]);
                if (got != x && !(isnan(x) && isnan(got)) && bad++ < 8)
                    KT_FAIL("h2float%s (width %u) of %#06x = %a", modes[m], n, h[i], got);
            }
        run_conversion(p, "h2double", n, h, sizeof h, out, NUM_MODES * CCOUNT * sizeof(double));
        for (int m = 0; m < NUM_MODES; m++)
            for (unsigned i = 0; i < CCOUNT; i++) {
                double got;
                memcpy(&got, out + (m * CCOUNT + i) * sizeof got, sizeof got);
                long double x = half_value(h[i]);
                if (got != x && !(isnan(x) && isnan(got)) && bad++ < 8)
                    KT_FAIL("h2double%s (width %u) of %#06x = %a", modes[m], n, h[i], got);
            }
        clReleaseProgram(p);
    }
    free(src);
}

/* ---- math ----------------------------------------------------------------- */

enum domain {
    ANY,    /* every half (unary), specials and random halves */
    UNIT,   /* [0, 1] */
    SMOOTH, /* edges e0 < e1 within +-4, x within +-6 */
    CLAMP,  /* finite x, finite lo <= hi */
};

static long double nextafter_ref(long double x, long double y)
{
    if (isnan(x) || isnan(y))
        return NAN;
    if (x == y)
        return y;
    uint16_t u = half_bits((half)(double)x);
    if (x == 0)
        u = (uint16_t)((signbit(y) ? 0x8000 : 0) | 1);
    else
        u = (uint16_t)((x < y) == !signbit(x) ? u + 1 : u - 1);
    return half_value(u);
}
static long double fdim_ref(long double x, long double y)
{
    return isnan(x) || isnan(y) ? NAN : x > y ? x - y : 0;
}
static long double degrees_ref(long double x)
{
    return x * (180 / 3.14159265358979323846264338327950288L);
}
static long double radians_ref(long double x)
{
    return x * (3.14159265358979323846264338327950288L / 180);
}
static long double sign_ref(long double x)
{
    return isnan(x) ? 0 : x == 0 ? x : copysignl(1, x);
}
static long double step_ref(long double edge, long double x)
{
    return x < edge ? 0 : 1;
}
static long double clamp_ref(long double x, long double lo, long double hi)
{
    return fminl(fmaxl(x, lo), hi);
}
static long double mix_ref(long double x, long double y, long double a)
{
    return x + (y - x) * a;
}
static long double smoothstep_ref(long double e0, long double e1, long double x)
{
    long double t = clamp_ref((x - e0) / (e1 - e0), 0, 1);
    return t * t * (3 - 2 * t);
}

/*
 * The bounds: 0 for exact functions, 0.5 for correctly rounded ones (sqrt,
 * fdim, fma), 0.51 for the rest: the library's float result, a few float
 * ulp (2^-13 half ulp each) from the exact one, rounded once to half, is
 * the correctly rounded half unless the exact result lies that close to a
 * midpoint between two halves (unary functions are tested on every half:
 * a few dozen such arguments each); stricter than OpenCL C's half bounds.
 */
static const struct math_case cases[] = {
    F1(fabs, fabsl, 0, ANY),
    F1(floor, floorl, 0, ANY),
    F1(ceil, ceill, 0, ANY),
    F1(trunc, truncl, 0, ANY),
    F1(round, roundl, 0, ANY),
    F1(rint, rint_ref, 0, ANY),
    F1(logb, logbl, 0, ANY),
    F2(fmin, fminl, 0, ANY),
    F2(fmax, fmaxl, 0, ANY),
    F2(fmod, fmodl, 0, ANY),
    F2(remainder, remainderl, 0, ANY),
    F2(copysign, copysignl, 0, ANY),
    F2(maxmag, maxmag_ref, 0, ANY),
    F2(minmag, minmag_ref, 0, ANY),
    F2(nextafter, nextafter_ref, 0, ANY),
    F1(sqrt, sqrtl, 0.5, ANY),
    F2(fdim, fdim_ref, 0.5, ANY),
    F3(fma, fmal, 0.5, ANY),
    F3(mad, mad_ref, 0.51, UNIT),
    F1(rsqrt, rsqrt_ref, 0.51, ANY),
    F1(cbrt, cbrtl, 0.51, ANY),
    F1(exp, expl, 0.51, ANY),
    F1(exp2, exp2l, 0.51, ANY),
    F1(exp10, exp10_ref, 0.51, ANY),
    F1(expm1, expm1l, 0.51, ANY),
    F1(log, logl, 0.51, ANY),
    F1(log2, log2l, 0.51, ANY),
    F1(log10, log10l, 0.51, ANY),
    F1(log1p, log1pl, 0.51, ANY),
    F1(sin, sinl, 0.51, ANY),
    F1(cos, cosl, 0.51, ANY),
    F1(tan, tanl, 0.51, ANY),
    F1(sinpi, sinpi_ref, 0.51, ANY),
    F1(cospi, cospi_ref, 0.51, ANY),
    F1(tanpi, tanpi_ref, 0.51, ANY),
    F1(asin, asinl, 0.51, ANY),
    F1(acos, acosl, 0.51, ANY),
    F1(atan, atanl, 0.51, ANY),
    F1(asinpi, asinpi_ref, 0.51, ANY),
    F1(acospi, acospi_ref, 0.51, ANY),
    F1(atanpi, atanpi_ref, 0.51, ANY),
    F1(sinh, sinhl, 0.51, ANY),
    F1(cosh, coshl, 0.51, ANY),
    F1(tanh, tanhl, 0.51, ANY),
    F1(asinh, asinhl, 0.51, ANY),
    F1(acosh, acoshl, 0.51, ANY),
    F1(atanh, atanhl, 0.51, ANY),
    F1(erf, erfl, 0.51, ANY),
    F1(erfc, erfcl, 0.51, ANY),
    F1(tgamma, tgammal, 0.51, ANY),
    F1(lgamma, lgammal, 0.51, ANY), /* no bound in the specification */
    F2(atan2, atan2l, 0.51, ANY),
    F2(atan2pi, atan2pi_ref, 0.51, ANY),
    F2(hypot, hypotl, 0.51, ANY),
    F2(pow, powl, 0.51, ANY),
    F2(powr, powr_ref, 0.51, ANY),
    /* common functions */
    F2(max, fmaxl, 0, CLAMP),
    F2(min, fminl, 0, CLAMP),
    F1(sign, sign_ref, 0, ANY),
    F2(step, step_ref, 0, CLAMP),
    F3(clamp, clamp_ref, 0, CLAMP),
    F1(degrees, degrees_ref, 0.51, ANY),
    F1(radians, radians_ref, 0.51, ANY),
    F3(mix, mix_ref, 0.51, UNIT),
    F3(smoothstep, smoothstep_ref, 0.51, SMOOTH),
};
#define NUM_CASES (sizeof cases / sizeof *cases)

enum { MCOUNT = 3 * 16 * 1366 }; /* every half first, a multiple of every width */

static uint16_t random_in(long double lo, long double hi)
{
    long double u = (long double)(kt_random() >> 11) * 0x1p-53L;
    return half_bits((half)(double)(lo + (hi - lo) * u));
}

/* The inputs of a function of `arity` arguments: a, b, c. */
static void fill_math(enum domain d, unsigned arity, uint16_t *a, uint16_t *b, uint16_t *c)
{
    for (unsigned i = 0; i < MCOUNT; i++) {
        switch (d) {
        case UNIT: a[i] = random_in(0, 1), b[i] = random_in(0, 1), c[i] = random_in(0, 1); break;
        case SMOOTH: {
            uint16_t e0 = random_in(-4, 4), e1 = random_in(-4, 4);
            if (half_value(e0) > half_value(e1)) {
                uint16_t t = e0;
                e0 = e1, e1 = t;
            }
            if (e0 == e1)
                e1 = half_bits((half)(half_value(e0) + 1));
            a[i] = e0, b[i] = e1, c[i] = random_in(-6, 6);
            break;
        }
        case CLAMP: {
            uint16_t lo = random_half() & 0xfbff, hi = random_half() & 0xfbff; /* finite */
            if (half_value(lo) > half_value(hi)) {
                uint16_t t = lo;
                lo = hi, hi = t;
            }
            a[i] = random_half() & 0xfbff, b[i] = lo, c[i] = hi;
            break;
        }
        default:
            if (arity == 1 && i < 0x10000) {
                a[i] = (uint16_t)i; /* every half */
            } else if (i < NUM_SPECIALS * NUM_SPECIALS) {
                a[i] = specials[i / NUM_SPECIALS];
                b[i] = specials[i % NUM_SPECIALS];
            } else {
                a[i] = random_half();
                b[i] = random_half();
            }
            c[i] = random_half();
            if (arity == 1 && i >= 0x10000)
                a[i] = random_half();
        }
    }
}

static double half_ulp_error(uint16_t got, long double want)
{
    return kt_ulp_error(half_value(got), want, 10, -14, 65504.0L, false);
}

static void test_math(void)
{
    static uint16_t a[MCOUNT], b[MCOUNT], c[MCOUNT], r[MCOUNT];
    double worst[NUM_CASES] = {0};
    char *src = kt_math_program(cases, NUM_CASES, "half", pragma);
    for (unsigned w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        cl_program p = kt_build(src, kt_width_options(n));
        for (size_t f = 0; f < NUM_CASES; f++) {
            const struct math_case *mc = &cases[f];
            fill_math((enum domain)mc->domain, mc->arity, a, b, c);
            memset(r, 0, sizeof r);
            struct kt_arg args[] = {{a, sizeof a, false},
                                    {b, sizeof b, false},
                                    {c, sizeof c, false},
                                    {r, sizeof r, false}};
            char kname[64];
            snprintf(kname, sizeof kname, "t_%s", mc->name);
            if (kt_run(p, kname, MCOUNT / n, args, 4) != CL_SUCCESS) {
                KT_FAIL("%s (width %u) did not run", mc->name, n);
                continue;
            }
            unsigned reported = 0;
            for (unsigned i = 0; i < MCOUNT; i++) {
                long double want =
                    kt_reference(mc, half_value(a[i]), half_value(b[i]), half_value(c[i]));
                double err = half_ulp_error(r[i], want);
                if (err > worst[f])
                    worst[f] = err;
                if (err > mc->ulp && reported++ < 3)
                    KT_FAIL("%s half%u: f(%#06x, %#06x, %#06x) = %#06x (%a), want %La (%.2f ulp)",
                            mc->name, n, a[i], b[i], c[i], r[i], (double)half_value(r[i]), want,
                            err);
            }
        }
        clReleaseProgram(p);
    }
    free(src);
    printf("%-14s %10s %8s\n", "function", "worst ulp", "bound");
    for (size_t f = 0; f < NUM_CASES; f++)
        printf("%-14s %10.4f %8.2f\n", cases[f].name, worst[f], cases[f].ulp);
}

/* ---- functions with int arguments or results, or output pointers ---------- */

/* Each kernel: r = the half result, o = the second one (int or half). */
static const struct int_case {
    const char *name, *call; /* call of x, y, k and P, a private output */
    const char *out;         /* the type of the second result, NULL when none */
} int_cases[] = {
    {"frexp", "frexp(x, &P)", "int"},
    {"fract", "fract(x, &P)", "half"},
    {"modf", "modf(x, &P)", "half"},
    {"sincos", "sincos(x, &P)", "half"},
    {"remquo", "remquo(x, y, &P)", "int"},
    {"lgamma_r", "lgamma_r(x, &P)", "int"},
    {"ilogb", "CAT(convert_, VEC(half))(ilogb(x))", NULL},
    {"ldexp", "ldexp(x, k)", NULL},
    {"pown", "pown(x, k)", NULL},
    {"rootn", "rootn(x, k)", NULL},
    {"nan", "nan(CAT(convert_, VEC(ushort))(k))", NULL},
};
#define NUM_INT_CASES (sizeof int_cases / sizeof *int_cases)

static char *int_program_source(void)
{
    char *s = NULL;
    kt_append(&s, "%s%s", pragma, kt_preamble());
    for (size_t f = 0; f < NUM_INT_CASES; f++) {
        const struct int_case *ic = &int_cases[f];
        const char *ot = ic->out ? ic->out : "half";
        kt_append(&s,
                  "kernel void t_%s(global const half *a, global const half *b,\n"
                  "                 global const int *kk, global half *r, global %s *o) {\n"
                  "    size_t i = get_global_id(0);\n"
                  "    VEC(half) x = LOAD(i, a), y = LOAD(i, b);\n"
                  "    VEC(int) k = LOAD(i, kk);\n"
                  "    VEC(%s) P = 0;\n"
                  "    (void)y; (void)k;\n"
                  "    STORE(%s, i, r);\n"
                  "    STORE(P, i, o);\n"
                  "}\n",
                  ic->name, ot, ot, ic->call);
    }
    return s;
}

static long double rootn_ref(long double x, int k)
{
    bool odd = k & 1;
    if (k == 0 || isnan(x) || (x < 0 && !odd))
        return NAN;
    long double sign = odd && signbit(x) ? -1 : 1;
    if (x == 0)
        return k > 0 ? sign * 0.0L : sign * (long double)INFINITY;
    if (isinf(x))
        return k > 0 ? sign * (long double)INFINITY : sign * 0.0L;
    return sign * expl(logl(fabsl(x)) / k);
}

static void test_int_functions(void)
{
    enum { ICOUNT = 3 * 16 * 256 };
    static uint16_t a[ICOUNT], b[ICOUNT], r[ICOUNT], oh[ICOUNT];
    static int k[ICOUNT], oi[ICOUNT];
    static const int special_k[] = {0, 1, -1, 2, -2, 3, -3, 7, -8, 15, 16, -24, -25, 30, 40, -40};
    for (unsigned i = 0; i < ICOUNT; i++) {
        a[i] = i < NUM_SPECIALS * NUM_SPECIALS ? specials[i / NUM_SPECIALS] : random_half();
        b[i] = i < NUM_SPECIALS * NUM_SPECIALS ? specials[i % NUM_SPECIALS] : random_half();
        uint64_t rr = kt_random();
        k[i] = i % 2 ? special_k[rr % 16] : (int)(rr % 81) - 40;
        if (i >= ICOUNT / 2 && i < ICOUNT * 3 / 4) { /* remquo: quotients up to a few hundred */
            b[i] = random_in(-8, 8);
            a[i] = half_bits((half)(half_value(b[i]) * (long double)(rr % 300) * 1.001L));
        }
    }
    char *src = int_program_source();
    double worst[NUM_INT_CASES] = {0};
    /* Every width in OpenCL C 3.0, then half4 in OpenCL C 1.2 (the named address spaces). */
    for (unsigned w = 0; w <= KT_NUM_WIDTHS; w++) {
        unsigned n = w < KT_NUM_WIDTHS ? kt_widths[w] : 4;
        char opts[64];
        snprintf(opts, sizeof opts, "-cl-std=CL%s -DN=%u", w < KT_NUM_WIDTHS ? "3.0" : "1.2", n);
        cl_program p = kt_build(src, opts);
        for (size_t f = 0; f < NUM_INT_CASES; f++) {
            const struct int_case *ic = &int_cases[f];
            bool int_out = ic->out && strcmp(ic->out, "int") == 0;
            struct kt_arg args[] = {
                {a, sizeof a, false},
                {b, sizeof b, false},
                {k, sizeof k, false},
                {r, sizeof r, false},
                {int_out ? (void *)oi : (void *)oh, int_out ? sizeof oi : sizeof oh, false}};
            char kname[64];
            snprintf(kname, sizeof kname, "t_%s", ic->name);
            if (kt_run(p, kname, ICOUNT / n, args, 5) != CL_SUCCESS) {
                KT_FAIL("%s (width %u) did not run", ic->name, n);
                continue;
            }
            unsigned reported = 0;
            for (unsigned i = 0; i < ICOUNT; i++) {
                long double x = half_value(a[i]), y = half_value(b[i]), want = 0, want2 = 0;
                double bound = 0, err2 = 0;
                int wanti = 0;
                bool check_int = false, check_half2 = false;
                switch (f) {
                case 0: /* frexp: exact */
                    want = x;
                    if (x != 0 && isfinite(x))
                        want = frexpl(x, &wanti);
                    check_int = true;
                    break;
                case 1: /* fract: below 1, correctly rounded */
                    want2 = floorl(x);
                    want = isinf(x) ? copysignl(0, x) : fminl(x - floorl(x), 0x1.ffcp-1L);
                    if (x == 0 || isnan(x))
                        want = x;
                    bound = 0.5;
                    check_half2 = true;
                    break;
                case 2: /* modf: exact */
                    want2 = truncl(x);
                    want = isinf(x) ? copysignl(0, x) : copysignl(x - truncl(x), x);
                    check_half2 = true;
                    break;
                case 3: /* sincos */
                    want = sinl(x), want2 = cosl(x), bound = 0.51;
                    check_half2 = true;
                    break;
                case 4: { /* remquo: the remainder exactly, the quotient's low 3 bits and sign */
                    int q;
                    want = remquol(x, y, &q);
                    bool neg = signbit(x) != signbit(y);
                    int got = oi[i];
                    if (!isnan(want) &&
                        ((abs(got) & 7) != (abs(q) & 7) || (got != 0 && (got < 0) != neg)) &&
                        reported++ < 3)
                        KT_FAIL("remquo half%u: quo(%La, %La) = %d, want %d (mod 8)", n, x, y, got,
                                q);
                    break;
                }
                case 5: { /* lgamma_r: the value as lgamma, the sign exactly */
                    bool defined;
                    want = lgammal(x), bound = 0.51;
                    wanti = kt_gamma_sign(x, &defined);
                    check_int = defined;
                    break;
                }
                case 6: /* ilogb, as a half (exact); OpenCL C's FP_ILOGBNAN is INT_MAX, FP_ILOGB0
                           INT_MIN */
                    want = isnan(x) || isinf(x) ? INT_MAX : x == 0 ? INT_MIN : ilogbl(x);
                    want = half_value(round_to_half(want, RTE));
                    break;
                case 7: /* ldexp: rounded once */ want = ldexpl(x, k[i]), bound = 0.5; break;
                case 8: /* pown */ want = k[i] == 0 ? 1 : powl(x, k[i]), bound = 0.51; break;
                case 9: /* rootn */ want = rootn_ref(x, k[i]), bound = 0.51; break;
                default: /* nan: a NaN */ want = NAN; break;
                }
                double err = half_ulp_error(r[i], want);
                if (check_half2)
                    err2 = half_ulp_error(oh[i], want2);
                if (err > worst[f] && !isinf(err))
                    worst[f] = err;
                if (err2 > worst[f] && !isinf(err2))
                    worst[f] = err2;
                if ((err > bound || err2 > bound) && reported++ < 3)
                    KT_FAIL("%s half%u: f(%La, %La, %d) = %#06x, %#06x; want %La, %La", ic->name, n,
                            x, y, k[i], r[i], oh[i], want, want2);
                if (check_int && oi[i] != wanti && reported++ < 3)
                    KT_FAIL("%s half%u: f(%La) int result %d, want %d", ic->name, n, x, oi[i],
                            wanti);
            }
        }
        clReleaseProgram(p);
    }
    free(src);
    for (size_t f = 0; f < NUM_INT_CASES; f++)
        printf("%-14s %10.4f\n", int_cases[f].name, worst[f]);
}

/* ---- relational ----------------------------------------------------------- */

static const char *const relationals[] = {
    "isnan(x)",         "isinf(x)",          "isfinite(x)",
    "isnormal(x)",      "signbit(x)",        "isequal(x, y)",
    "isnotequal(x, y)", "isgreater(x, y)",   "isgreaterequal(x, y)",
    "isless(x, y)",     "islessequal(x, y)", "islessgreater(x, y)",
    "isordered(x, y)",  "isunordered(x, y)",
};
enum { NUM_RELATIONALS = sizeof relationals / sizeof *relationals };

static bool relational_ref(int f, long double x, long double y)
{
    switch (f) {
    case 0: return isnan(x);
    case 1: return isinf(x);
    case 2: return isfinite(x);
    case 3: return isnormal((double)x) && fabsl(x) >= 0x1p-14L;
    case 4: return signbit(x);
    case 5: return x == y;
    case 6: return x != y;
    case 7: return x > y;
    case 8: return x >= y;
    case 9: return x < y;
    case 10: return x <= y;
    case 11: return x < y || x > y;
    case 12: return !isnan(x) && !isnan(y);
    default: return isnan(x) || isnan(y);
    }
}

/* The relational functions (as shorts: 1 for scalars, -1 for vectors), select and bitselect. */
static void test_relational(const uint16_t *a, const uint16_t *b)
{
    char *src = NULL;
    kt_append(&src,
              "%s%s"
              "kernel void rel(global const half *a, global const half *b, global const short *c,\n"
              "                global short *o, global half *sel, global half *bsel,\n"
              "                global half *sh) {\n"
              "    size_t i = get_global_id(0);\n"
              "    VEC(half) x = LOAD(i, a), y = LOAD(i, b);\n"
              "    VEC(short) m = LOAD(i, c);\n",
              pragma, kt_preamble());
    for (int f = 0; f < NUM_RELATIONALS; f++)
        kt_append(&src, "    STORE(CAT(convert_, VEC(short))(%s), i, o + %d);\n", relationals[f],
                  f * COUNT);
    kt_append(&src,
              "    STORE(select(x, y, m), i, sel);\n"
              "    STORE(select(x, y, CAT(as_, VEC(ushort))(m)), i, sel + %d);\n"
              "    STORE(bitselect(x, y, CAT(as_, VEC(half))(m)), i, bsel);\n"
              "#if N == 2 || N == 4 || N == 8 || N == 16\n"
              "    VEC(ushort) k = CAT(as_, VEC(ushort))(m);\n"
              "    STORE(shuffle(x, k & (ushort)(N - 1)), i, sh);\n"
              "    STORE(shuffle2(x, y, k & (ushort)(2 * N - 1)), i, sh + %d);\n"
              "#endif\n"
              "}\n",
              COUNT, COUNT);
    static short c[COUNT], o[NUM_RELATIONALS * COUNT];
    static uint16_t sel[2 * COUNT], bsel[COUNT], sh[2 * COUNT];
    for (unsigned i = 0; i < COUNT; i++)
        c[i] = (short)kt_random();
    for (unsigned w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        cl_program p = kt_build(src, kt_width_options(n));
        struct kt_arg args[] = {{(void *)a, COUNT * 2, false}, {(void *)b, COUNT * 2, false},
                                {c, sizeof c, false},          {o, sizeof o, false},
                                {sel, sizeof sel, false},      {bsel, sizeof bsel, false},
                                {sh, sizeof sh, false}};
        KT_CHECK_CL(kt_run(p, "rel", COUNT / n, args, 7));
        bool shuffles = n == 2 || n == 4 || n == 8 || n == 16;
        int bad = 0;
        for (unsigned i = 0; i < COUNT; i++) {
            long double x = half_value(a[i]), y = half_value(b[i]);
            for (int f = 0; f < NUM_RELATIONALS; f++) {
                short want = relational_ref(f, x, y) ? (n == 1 ? 1 : -1) : 0;
                if (o[f * COUNT + i] != want && bad++ < 8)
                    KT_FAIL("half%u: %s of %#06x, %#06x = %d, expected %d", n, relationals[f], a[i],
                            b[i], o[f * COUNT + i], want);
            }
            bool pick = n == 1 ? c[i] != 0 : c[i] < 0;
            uint16_t want_sel = pick ? b[i] : a[i];
            uint16_t want_bsel = (uint16_t)((a[i] & ~(uint16_t)c[i]) | (b[i] & (uint16_t)c[i]));
            size_t base = i - i % n;
            uint16_t k = (uint16_t)c[i], k1 = (uint16_t)(k & (n - 1)),
                     k2 = (uint16_t)(k & (2 * n - 1));
            if (shuffles &&
                (sh[i] != a[base + k1] ||
                 sh[COUNT + i] != (k2 < n ? a[base + k2] : b[base + k2 - n])) &&
                bad++ < 8)
                KT_FAIL("half%u: shuffle, shuffle2 #%u = %#06x, %#06x", n, i, sh[i], sh[COUNT + i]);
            if ((sel[i] != want_sel || sel[COUNT + i] != want_sel || bsel[i] != want_bsel) &&
                bad++ < 8)
                KT_FAIL("half%u: select/bitselect of %#06x, %#06x, %#06x = %#06x, %#06x, %#06x", n,
                        a[i], b[i], (uint16_t)c[i], sel[i], sel[COUNT + i], bsel[i]);
        }
        clReleaseProgram(p);
    }
    free(src);
}

/* ---- geometric ------------------------------------------------------------ */

/*
 * dot, length, distance, normalize and cross of half, half2, half3, half4
 * (inputs within +-8): length, distance and cross within 0.51 ulp (one
 * rounding of a float result a few float ulp off), normalize within 1;
 * dot, whose sum may cancel, within 0.51 ulp plus 2^-20 of the sum of the
 * products' magnitudes (float's rounding of the partial sums).
 */
static void test_geometric(void)
{
    enum { G = 3 * 16 * 64 };
    static uint16_t a[4 * G], b[4 * G], dot[G], len[G], dist[G], norm[4 * G], cross[4 * G];
    for (unsigned i = 0; i < 4 * G; i++)
        a[i] = random_in(-8, 8), b[i] = random_in(-8, 8);
    for (unsigned n = 1; n <= 4; n++) {
        char *src = kt_format(
            "%s%s"
            "kernel void geo(global const half *a, global const half *b, global half *d,\n"
            "                global half *l, global half *s, global half *m, global half *c) {\n"
            "    size_t i = get_global_id(0);\n"
            "    VEC(half) x = LOAD(i, a), y = LOAD(i, b);\n"
            "    d[i] = dot(x, y);\n"
            "    l[i] = length(x);\n"
            "    s[i] = distance(x, y);\n"
            "    STORE(normalize(x), i, m);\n"
            "#if N >= 3\n"
            "    STORE(cross(x, y), i, c);\n"
            "#endif\n"
            "}\n",
            pragma, kt_preamble());
        cl_program p = kt_build(src, kt_width_options(n));
        free(src);
        struct kt_arg args[] = {{a, n * G * 2, false},      {b, n * G * 2, false},
                                {dot, sizeof dot, false},   {len, sizeof len, false},
                                {dist, sizeof dist, false}, {norm, n * G * 2, false},
                                {cross, n * G * 2, false}};
        KT_CHECK_CL(kt_run(p, "geo", G, args, 7));
        int bad = 0;
        for (unsigned i = 0; i < G; i++) {
            long double x[4], y[4], d = 0, mag = 0, l2 = 0, s2 = 0;
            for (unsigned j = 0; j < n; j++) {
                x[j] = half_value(a[i * n + j]), y[j] = half_value(b[i * n + j]);
                d += x[j] * y[j], mag += fabsl(x[j] * y[j]);
                l2 += x[j] * x[j], s2 += (x[j] - y[j]) * (x[j] - y[j]);
            }
            long double unit = ldexpl(1.0L, -24);
            if (fabsl(d) >= 0x1p-14L) {
                int e;
                frexpl(d, &e);
                unit = ldexpl(1.0L, e - 11);
            }
            long double got_dot = half_value(dot[i]);
            if ((!isfinite(got_dot) || fabsl(got_dot - d) > 0.51L * unit + mag * 0x1p-20L) &&
                bad++ < 8)
                KT_FAIL("dot half%u #%u = %a, want %La", n, i, (double)got_dot, d);
            if (half_ulp_error(len[i], sqrtl(l2)) > 0.51 && bad++ < 8)
                KT_FAIL("length half%u #%u = %a, want %La", n, i, (double)half_value(len[i]),
                        sqrtl(l2));
            if (half_ulp_error(dist[i], sqrtl(s2)) > 0.51 && bad++ < 8)
                KT_FAIL("distance half%u #%u = %a, want %La", n, i, (double)half_value(dist[i]),
                        sqrtl(s2));
            for (unsigned j = 0; j < n && l2 > 0; j++)
                if (half_ulp_error(norm[i * n + j], x[j] / sqrtl(l2)) > 1 && bad++ < 8)
                    KT_FAIL("normalize half%u #%u[%u] = %a, want %La", n, i, j,
                            (double)half_value(norm[i * n + j]), x[j] / sqrtl(l2));
            if (n >= 3) {
                long double c[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2],
                                    x[0] * y[1] - x[1] * y[0]};
                for (unsigned j = 0; j < 3; j++)
                    if (half_ulp_error(cross[i * n + j], c[j]) > 0.51 && bad++ < 8)
                        KT_FAIL("cross half%u #%u[%u] = %a, want %La", n, i, j,
                                (double)half_value(cross[i * n + j]), c[j]);
                if (n == 4 && cross[i * n + 3] != 0 && bad++ < 8)
                    KT_FAIL("cross half4 #%u: w = %#06x, want 0", i, cross[i * n + 3]);
            }
        }
        clReleaseProgram(p);
    }
}

/* ---- images --------------------------------------------------------------- */

static cl_mem make_image(cl_channel_type type, cl_mem_flags flags, size_t w, size_t h, void *data)
{
    cl_image_format f = {CL_RGBA, type};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h};
    cl_int err;
    cl_mem m = clCreateImage(kt.ctx, flags | (data ? CL_MEM_COPY_HOST_PTR : 0), &f, &d, data, &err);
    KT_CHECK_CL(err);
    return m;
}

/*
 * read_imageh with a sampler (integer and float coordinates) and without,
 * write_imageh: a CL_HALF_FLOAT image read exactly and written exactly (its
 * values doubled), a CL_UNORM_INT8 one read as the float value rounded to
 * half and written back to the same bytes.
 */
static void test_images(void)
{
    cl_bool images = CL_FALSE;
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (!images) {
        printf("skip images: none on the device\n");
        return;
    }
    enum { W = 16, H = 8, N = 4 * W * H };
    static uint16_t a[N], ra[N], rf[N], c[N];
    static uint8_t b[N], d[N];
    static uint16_t rb[N];
    for (unsigned i = 0; i < N; i++) {
        do
            a[i] = random_half();
        while (is_nan_bits(a[i]));
        b[i] = (uint8_t)kt_random();
    }
    const char *src =
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void img(read_only image2d_t a, read_only image2d_t b, write_only image2d_t c,\n"
        "                write_only image2d_t d, global half *ra, global half *rf,\n"
        "                global half *rb) {\n"
        "    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
        "                        CLK_FILTER_NEAREST;\n"
        "    int2 p = (int2)(get_global_id(0), get_global_id(1));\n"
        "    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
        "    half4 x = read_imageh(a, s, p), y = read_imageh(b, p);\n"
        "    vstore4(x, i, ra);\n"
        "    vstore4(read_imageh(a, s, convert_float2(p) + 0.5f), i, rf);\n"
        "    vstore4(y, i, rb);\n"
        "    write_imageh(c, p, x * (half)2.0h);\n"
        "    write_imageh(d, p, y);\n"
        "}\n";
    cl_program p = kt_build(src, "-cl-std=CL3.0");
    cl_int err;
    cl_kernel k = clCreateKernel(p, "img", &err);
    KT_CHECK_CL(err);
    cl_mem ia = make_image(CL_HALF_FLOAT, CL_MEM_READ_ONLY, W, H, a);
    cl_mem ib = make_image(CL_UNORM_INT8, CL_MEM_READ_ONLY, W, H, b);
    cl_mem ic = make_image(CL_HALF_FLOAT, CL_MEM_WRITE_ONLY, W, H, NULL);
    cl_mem id = make_image(CL_UNORM_INT8, CL_MEM_WRITE_ONLY, W, H, NULL);
    cl_mem bufs[3];
    for (int j = 0; j < 3; j++) {
        bufs[j] = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE, sizeof ra, NULL, &err);
        KT_CHECK_CL(err);
    }
    cl_mem args[] = {ia, ib, ic, id, bufs[0], bufs[1], bufs[2]};
    for (cl_uint j = 0; j < 7; j++)
        KT_CHECK_CL(clSetKernelArg(k, j, sizeof(cl_mem), &args[j]));
    size_t global[2] = {W, H};
    KT_CHECK_CL(clEnqueueNDRangeKernel(kt.queue, k, 2, NULL, global, NULL, 0, NULL, NULL));
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, bufs[0], CL_TRUE, 0, sizeof ra, ra, 0, NULL, NULL));
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, bufs[1], CL_TRUE, 0, sizeof rf, rf, 0, NULL, NULL));
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, bufs[2], CL_TRUE, 0, sizeof rb, rb, 0, NULL, NULL));
    size_t origin[3] = {0, 0, 0}, region[3] = {W, H, 1};
    KT_CHECK_CL(clEnqueueReadImage(kt.queue, ic, CL_TRUE, origin, region, 0, 0, c, 0, NULL, NULL));
    KT_CHECK_CL(clEnqueueReadImage(kt.queue, id, CL_TRUE, origin, region, 0, 0, d, 0, NULL, NULL));
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        uint16_t want_b = half_bits((half)(float)(b[i] / 255.0)); /* read_imagef's, rounded */
        uint16_t want_c = half_bits((half)(2 * (double)half_value(a[i])));
        if ((ra[i] != a[i] || rf[i] != a[i] || rb[i] != want_b || c[i] != want_c || d[i] != b[i]) &&
            bad++ < 8)
            KT_FAIL("images, element %u: read %#06x %#06x (want %#06x), unorm8 %u read %#06x (want "
                    "%#06x), written %#06x (want %#06x) and %u",
                    i, ra[i], rf[i], a[i], b[i], rb[i], want_b, c[i], want_c, d[i]);
    }
    for (int j = 0; j < 3; j++)
        clReleaseMemObject(bufs[j]);
    clReleaseMemObject(ia);
    clReleaseMemObject(ib);
    clReleaseMemObject(ic);
    clReleaseMemObject(id);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

int main(void)
{
    kt_setup();
    bool on = kt_has_extension("cl_khr_fp16");
    cl_device_fp_config config = 0;
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_HALF_FP_CONFIG, sizeof config, &config, NULL));
    cl_uint native = 0;
    KT_CHECK_CL(
        clGetDeviceInfo(kt.dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof native, &native, NULL));
    const char *env = getenv("LANES_FP16");
    if (!on) {
        /* Off (or a host without F16C): nothing of half may be advertised. */
        if (config != 0 || native != 0 || kt_has_feature("__opencl_c_fp16"))
            KT_FAIL("no cl_khr_fp16, but a half configuration %#llx, native width %u or the "
                    "feature",
                    (unsigned long long)config, native);
        if (env && strcmp(env, "1") == 0)
            printf("LANES_FP16=1 but no cl_khr_fp16: the host has no F16C\n");
        return kt_teardown();
    }
    cl_device_fp_config required =
        CL_FP_FMA | CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST;
    if ((config & required) != required || native == 0 || !kt_has_feature("__opencl_c_fp16"))
        KT_FAIL("cl_khr_fp16 with a half configuration %#llx, native width %u",
                (unsigned long long)config, native);

    printf("cl_khr_fp16: half configuration %#llx, native vector width %u\n",
           (unsigned long long)config, native);
    uint16_t *a = malloc(sizeof(uint16_t) * COUNT), *b = malloc(sizeof(uint16_t) * COUNT);
    fill(a, b);
    for (unsigned w = 0; w < KT_NUM_WIDTHS; w++)
        test_arithmetic(kt_widths[w], a, b);
    test_relational(a, b);
    test_casts();
    test_conversions();
    test_math();
    test_int_functions();
    test_geometric();
    test_images();
    test_canonicalize();
    free(a);
    free(b);
    return kt_teardown();
}
