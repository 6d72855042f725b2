/* SPDX-License-Identifier: MIT */
/*
 * Half precision (cl_khr_fp16) at every width against host references in
 * C's _Float16: + - * / on half scalars and vectors (correctly rounded:
 * each reference is computed in double, exact or rounded once far below
 * half's precision, then rounded to half), comparisons, and the conversion
 * of a comparison's result. Inputs: every special value (zeros,
 * denormals, the largest finite, infinities, NaNs) against each other,
 * then random bit patterns. A NaN result matches any NaN.
 *
 * The device offers half only under LANES_FP16=1 (docs/environment.md),
 * which CMakeLists.txt sets for this test; without it the test checks that
 * nothing of half is advertised.
 */
#include "kernels.h"

#include <CL/cl_ext.h> /* CL_DEVICE_HALF_FP_CONFIG */

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
    cl_device_fp_config required = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST;
    if ((config & required) != required || native == 0 || !kt_has_feature("__opencl_c_fp16"))
        KT_FAIL("cl_khr_fp16 with a half configuration %#llx, native width %u",
                (unsigned long long)config, native);

    printf("cl_khr_fp16: half configuration %#llx, native vector width %u\n",
           (unsigned long long)config, native);
    uint16_t *a = malloc(sizeof(uint16_t) * COUNT), *b = malloc(sizeof(uint16_t) * COUNT);
    fill(a, b);
    for (unsigned w = 0; w < KT_NUM_WIDTHS; w++)
        test_arithmetic(kt_widths[w], a, b);
    free(a);
    free(b);
    return kt_teardown();
}
