/* SPDX-License-Identifier: MIT */
/*
 * convert_D[_sat][_rte|_rtz|_rtp|_rtn] between every pair of the integer
 * types, float and double, at every width, against exact references on the host:
 * saturation, the four rounding modes, NaN, infinities, type boundaries.
 */
#include "kernels.h"

#include <fenv.h>

struct conv_type {
    const char *name;
    unsigned bits;
    bool is_signed, is_float;
};
static const struct conv_type types[] = {
    {"char", 8, true, false},     {"uchar", 8, false, false},  {"short", 16, true, false},
    {"ushort", 16, false, false}, {"int", 32, true, false},    {"uint", 32, false, false},
    {"long", 64, true, false},    {"ulong", 64, false, false}, {"float", 32, true, true},
    {"double", 64, true, true},
};
#define NUM_TYPES (sizeof types / sizeof *types)
static const char *modes[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};
enum { NUM_MODES = 5, COUNT = 16 * 3 * 8 };

typedef __int128 i128;

static long double load(const struct conv_type *t, const void *buf, size_t i)
{
    const char *p = (const char *)buf + i * (t->bits / 8);
    if (t->is_float && t->bits == 64) {
        double f;
        memcpy(&f, p, 8);
        return f;
    }
    if (t->is_float) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    uint64_t u = 0;
    memcpy(&u, p, t->bits / 8);
    if (t->is_signed && t->bits < 64 && (u >> (t->bits - 1)) & 1)
        u |= ~0ull << t->bits;
    return t->is_signed ? (long double)(int64_t)u : (long double)u;
}

static void fill(const struct conv_type *t, void *buf)
{
    static const float fspecial[] = {
        0.0f,          -0.0f,     0.5f,     -0.5f,         1.5f,          -1.5f,
        2.5f,          -2.5f,     127.5f,   128.0f,        -129.0f,       255.5f,
        256.0f,        32767.5f,  65536.0f, 2147483520.0f, 2147483648.0f, -2147483648.0f,
        4294967296.0f, 0x1p63f,   -0x1p63f, 0x1p64f,       1e30f,         -1e30f,
        INFINITY,      -INFINITY, NAN,      0x1p-149f,     -0x1p-149f,    0.99999994f};
    const uint64_t ispecial[] = {0,
                                 1,
                                 ~0ull,
                                 0x7f,
                                 0x80,
                                 0xff,
                                 0x7fff,
                                 0x8000,
                                 0xffff,
                                 0x7fffffff,
                                 0x80000000,
                                 0xffffffff,
                                 0x1000001,
                                 0x1000003,
                                 0x7fffffffffffffff,
                                 0x8000000000000000,
                                 0xfffffffffffffe00,
                                 0x20000010000001};
    /* doubles: float rounding boundaries and overflow, integer boundaries, subnormals */
    static const double dspecial[] = {0.0,
                                      -0.0,
                                      0.5,
                                      -0.5,
                                      -1.5,
                                      2.5,
                                      127.5,
                                      -128.5,
                                      255.5,
                                      32767.5,
                                      -32768.5,
                                      65535.5,
                                      2147483647.5,
                                      -2147483648.5,
                                      4294967295.5,
                                      4294967296.0,
                                      0x1p63,
                                      -0x1p63,
                                      0x1.fffffffffffffp62,
                                      0x1.fffffffffffffp63,
                                      0x1p64,
                                      1.0 + 0x1p-24,
                                      1.0 + 0x1p-30,
                                      -(1.0 + 0x1p-30),
                                      1.0 + 0x1.8p-24,
                                      0x1.fffffefffffffp127,
                                      0x1.ffffffp127,
                                      -0x1p200,
                                      1e300,
                                      0x1p-149,
                                      0x1p-150,
                                      -0x1.000001p-150,
                                      0x1p-1074,
                                      -0x1p-1074,
                                      INFINITY,
                                      -INFINITY,
                                      NAN,
                                      0x1.fffffffffffffp-1};
    for (size_t i = 0; i < COUNT; i++) {
        char *p = (char *)buf + i * (t->bits / 8);
        uint64_t r = kt_random();
        if (t->is_float && t->bits == 64) {
            double f = i < sizeof dspecial / sizeof *dspecial ? dspecial[i]
                       : i % 3 == 0                           ? (double)(int64_t)r / 0x1p30
                       : i % 3 == 1                           ? (double)kt_bits_float((uint32_t)r)
                                                              : 0;
            if (i >= sizeof dspecial / sizeof *dspecial && i % 3 == 2)
                memcpy(&f, &r, 8);
            memcpy(p, &f, 8);
        } else if (t->is_float) {
            float f = i < sizeof fspecial / sizeof *fspecial ? fspecial[i]
                      : i & 1                                ? kt_bits_float((uint32_t)r)
                                                             : (float)((double)(int64_t)r / 0x1p40);
            memcpy(p, &f, 4);
        } else {
            uint64_t v = i < sizeof ispecial / sizeof *ispecial ? ispecial[i]
                         : i & 1                                ? r
                                                                : r >> (r & 63);
            memcpy(p, &v, t->bits / 8);
        }
    }
}

static i128 int_min(const struct conv_type *t)
{
    return t->is_signed ? -((i128)1 << (t->bits - 1)) : 0;
}
static i128 int_max(const struct conv_type *t)
{
    return t->is_signed ? ((i128)1 << (t->bits - 1)) - 1 : ((i128)1 << t->bits) - 1;
}

/* The expected bits of convert_<d><mode><sat>(x); false when the result is implementation-defined.
 */
static bool expect(const struct conv_type *d, const struct conv_type *s, long double x, int mode,
                   bool sat, uint64_t *out)
{
    if (d->is_float) {
        static const int fe[] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
        fesetround(fe[mode]);
        volatile long double vx = x;
        if (d->bits == 64) {
            volatile double f = (double)vx;
            fesetround(FE_TONEAREST);
            double g = f;
            memcpy(out, &g, 8);
            return true;
        }
        volatile float f = (float)vx;
        fesetround(FE_TONEAREST);
        uint32_t u = kt_float_bits(f);
        *out = u;
        return true;
    }
    long double r = x;
    if (s->is_float) {
        if (isnan(x)) {
            *out = 0;
            return sat;
        }
        r = mode == 1 ? nearbyintl(x) : mode == 3 ? ceill(x) : mode == 4 ? floorl(x) : truncl(x);
    }
    if (r < (long double)int_min(d) || r > (long double)int_max(d)) {
        if (!sat && s->is_float)
            return false;
        if (sat) {
            *out = (uint64_t)(r < 0 ? int_min(d) : int_max(d));
            goto mask;
        }
    }
    i128 v = s->is_float ? (i128)r : (s->is_signed ? (i128)(int64_t)r : (i128)(uint64_t)r);
    *out = (uint64_t)v;
mask:
    if (d->bits < 64)
        *out &= (1ull << d->bits) - 1;
    return true;
}

static char *program_source(const struct conv_type *d, unsigned n)
{
    char width[12] = "";
    if (n > 1)
        snprintf(width, sizeof width, "%u", n);
    char *s = kt_format("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n%s", kt_preamble());
    kt_append(&s, "kernel void t(");
    for (size_t i = 0; i < NUM_TYPES; i++)
        kt_append(&s, "global const %s *s%zu, ", types[i].name, i);
    kt_append(&s, "global %s *r) {\n    size_t i = get_global_id(0), n = get_global_size(0) * N;\n",
              d->name);
    unsigned slot = 0;
    for (size_t i = 0; i < NUM_TYPES; i++)
        for (int m = 0; m < NUM_MODES; m++)
            for (int sat = 0; sat < (d->is_float ? 1 : 2); sat++)
                kt_append(&s, "    STORE(convert_%s%s%s%s(LOAD(i, s%zu)), i, r + %u * n);\n",
                          d->name, width, sat ? "_sat" : "", modes[m], i, slot++);
    kt_append(&s, "}\n");
    return s;
}

int main(void)
{
    kt_setup();
    static uint64_t in[NUM_TYPES][COUNT];
    static uint64_t out[NUM_TYPES * NUM_MODES * 2 * COUNT];
    for (size_t i = 0; i < NUM_TYPES; i++)
        fill(&types[i], in[i]);
    unsigned checked = 0;
    for (size_t di = 0; di < NUM_TYPES; di++) {
        const struct conv_type *d = &types[di];
        for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
            unsigned n = kt_widths[w];
            char *source = program_source(d, n);
            cl_program p = kt_build(source, kt_width_options(n));
            free(source);
            struct kt_arg args[NUM_TYPES + 1];
            for (size_t i = 0; i < NUM_TYPES; i++)
                args[i] = (struct kt_arg){in[i], COUNT * types[i].bits / 8, false};
            size_t slots = NUM_TYPES * NUM_MODES * (d->is_float ? 1 : 2);
            args[NUM_TYPES] = (struct kt_arg){out, slots * COUNT * d->bits / 8, false};
            if (kt_run(p, "t", COUNT / n, args, NUM_TYPES + 1) != CL_SUCCESS) {
                KT_FAIL("convert_%s%u did not run", d->name, n);
                clReleaseProgram(p);
                continue;
            }
            struct conv_type du = *d;
            du.is_signed = false;
            du.is_float = false; /* read results as raw bits */
            unsigned slot = 0;
            for (size_t si = 0; si < NUM_TYPES; si++)
                for (int m = 0; m < NUM_MODES; m++)
                    for (int sat = 0; sat < (d->is_float ? 1 : 2); sat++, slot++)
                        for (size_t i = 0; i < COUNT; i++) {
                            long double x = load(&types[si], in[si], i);
                            uint64_t want;
                            if (!expect(d, &types[si], x, m, sat, &want))
                                continue;
                            uint64_t got = (uint64_t)load(&du, out, slot * COUNT + i);
                            checked++;
                            if (d->is_float && isnan(x)) /* any NaN, payload aside */
                                got = want = d->bits == 64
                                                 ? (got & ~(1ull << 63)) > 0x7ff0000000000000ull
                                                 : (got & 0x7fffffff) > 0x7f800000;
                            if (got != want) {
                                KT_FAIL("convert_%s%u%s%s(%s %Lg): got %#llx, want %#llx", d->name,
                                        n, sat ? "_sat" : "", modes[m], types[si].name, x,
                                        (unsigned long long)got, (unsigned long long)want);
                                break;
                            }
                        }
            clReleaseProgram(p);
        }
    }
    printf("conversions: %u results checked\n", checked);
    return kt_teardown();
}
