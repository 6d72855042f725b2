/* SPDX-License-Identifier: MIT */
/*
 * Integer built-ins (OpenCL C 3.0 6.15.4) for every integer type and width,
 * against references computed in 128-bit arithmetic on the host, over edge
 * values (MIN, MAX, 0, -1, powers of two) and random bits.
 */
#include "kernels.h"

struct int_type {
    const char *name, *uname, *wide; /* wide: upsample's result, NULL for 64 bits */
    unsigned bits;
    bool is_signed;
};
static const struct int_type types[] = {
    {"char", "uchar", "short", 8, true},  {"uchar", "uchar", "ushort", 8, false},
    {"short", "ushort", "int", 16, true}, {"ushort", "ushort", "uint", 16, false},
    {"int", "uint", "long", 32, true},    {"uint", "uint", "ulong", 32, false},
    {"long", "ulong", NULL, 64, true},    {"ulong", "ulong", NULL, 64, false},
};

typedef __int128 i128;
typedef unsigned __int128 u128;

/* A function: its OpenCL C call and its reference on values of type t. */
struct int_case {
    const char *name, *call;
    i128 (*ref)(const struct int_type *t, i128 x, i128 y, i128 z);
    bool only_32; /* mul24 and mad24: int and uint only */
};

static i128 tmin(const struct int_type *t)
{
    return t->is_signed ? -((i128)1 << (t->bits - 1)) : 0;
}
static i128 tmax(const struct int_type *t)
{
    return t->is_signed ? ((i128)1 << (t->bits - 1)) - 1 : ((i128)1 << t->bits) - 1;
}
static i128 sat(const struct int_type *t, i128 v)
{
    return v < tmin(t) ? tmin(t) : v > tmax(t) ? tmax(t) : v;
}
static uint64_t ubits(const struct int_type *t, i128 v)
{
    return t->bits == 64 ? (uint64_t)v : (uint64_t)v & ((1ull << t->bits) - 1);
}
static i128 r_abs(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)t, (void)y, (void)z;
    return x < 0 ? -x : x;
}
static i128 r_abs_diff(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)t, (void)z;
    return x > y ? x - y : y - x;
}
static i128 r_add_sat(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)z;
    return sat(t, x + y);
}
static i128 r_sub_sat(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)z;
    return sat(t, x - y);
}
static i128 r_hadd(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)t, (void)z;
    return (x + y) >> 1;
}
static i128 r_rhadd(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)t, (void)z;
    return (x + y + 1) >> 1;
}
static i128 r_max(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)t, (void)z;
    return x > y ? x : y;
}
static i128 r_min(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)t, (void)z;
    return x < y ? x : y;
}
static i128 r_clamp(const struct int_type *t, i128 x, i128 y, i128 z)
{
    i128 lo = r_min(t, y, z, 0), hi = r_max(t, y, z, 0);
    return x < lo ? lo : x > hi ? hi : x;
}
static i128 r_popcount(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)y, (void)z;
    return __builtin_popcountll(ubits(t, x));
}
static i128 r_clz(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)y, (void)z;
    uint64_t u = ubits(t, x);
    return u ? __builtin_clzll(u) - (64 - (int)t->bits) : (int)t->bits;
}
static i128 r_ctz(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)y, (void)z;
    uint64_t u = ubits(t, x);
    return u ? __builtin_ctzll(u) : (int)t->bits;
}
static i128 r_rotate(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)z;
    uint64_t u = ubits(t, x);
    unsigned s = (unsigned)(ubits(t, y) & (t->bits - 1));
    return s ? (u << s) | (u >> (t->bits - s)) : u;
}
static i128 r_mul_hi(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)z;
    if (!t->is_signed)
        return (i128)(((u128)x * (u128)y) >> t->bits);
    return (x * y) >> t->bits;
}
static i128 r_mad_hi(const struct int_type *t, i128 x, i128 y, i128 z)
{
    return r_mul_hi(t, x, y, 0) + z;
}
static i128 r_mad_sat(const struct int_type *t, i128 x, i128 y, i128 z)
{
    if (!t->is_signed) {
        u128 p = (u128)x * (u128)y;
        return p > (u128)tmax(t) ? tmax(t) : sat(t, (i128)p + z);
    }
    return sat(t, x * y + z);
}
static i128 r_mul24(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)t, (void)z;
    return x * y;
}
static i128 r_mad24(const struct int_type *t, i128 x, i128 y, i128 z)
{
    (void)t;
    return x * y + z;
}

static const struct int_case cases[] = {
    {"abs", "abs(x)", r_abs, false},
    {"abs_diff", "abs_diff(x, y)", r_abs_diff, false},
    {"add_sat", "add_sat(x, y)", r_add_sat, false},
    {"sub_sat", "sub_sat(x, y)", r_sub_sat, false},
    {"hadd", "hadd(x, y)", r_hadd, false},
    {"rhadd", "rhadd(x, y)", r_rhadd, false},
    {"max", "max(x, y)", r_max, false},
    {"min", "min(x, y)", r_min, false},
    {"clamp", "clamp(x, min(y, z), max(y, z))", r_clamp, false},
    {"popcount", "popcount(x)", r_popcount, false},
    {"clz", "clz(x)", r_clz, false},
    {"ctz", "ctz(x)", r_ctz, false},
    {"rotate", "rotate(x, y)", r_rotate, false},
    {"mul_hi", "mul_hi(x, y)", r_mul_hi, false},
    {"mad_hi", "mad_hi(x, y, z)", r_mad_hi, false},
    {"mad_sat", "mad_sat(x, y, z)", r_mad_sat, false},
    {"mul24", "mul24(x, y)", r_mul24, true},
    {"mad24", "mad24(x, y, z)", r_mad24, true},
};
#define NUM_CASES (sizeof cases / sizeof *cases)

enum { COUNT = 16 * 3 * 64 };

/* Element i of a buffer of type t, as a value. */
static i128 load(const struct int_type *t, const void *buf, size_t i)
{
    switch (t->bits) {
    case 8: return t->is_signed ? (i128)((const int8_t *)buf)[i] : (i128)((const uint8_t *)buf)[i];
    case 16:
        return t->is_signed ? (i128)((const int16_t *)buf)[i] : (i128)((const uint16_t *)buf)[i];
    case 32:
        return t->is_signed ? (i128)((const int32_t *)buf)[i] : (i128)((const uint32_t *)buf)[i];
    }
    return t->is_signed ? (i128)((const int64_t *)buf)[i] : (i128)((const uint64_t *)buf)[i];
}

static void store(const struct int_type *t, void *buf, size_t i, uint64_t v)
{
    memcpy((char *)buf + i * (t->bits / 8), &v, t->bits / 8); /* little-endian */
}

/* Edge values first, then random bits. */
static void fill(const struct int_type *t, void *buf, unsigned salt)
{
    const i128 edges[] = {
        0,    1,   -1,  2, tmin(t), tmax(t), tmin(t) + 1, tmax(t) - 1, (i128)1 << (t->bits / 2),
        0x55, 100, -100};
    const size_t num_edges = sizeof edges / sizeof *edges;
    for (size_t i = 0; i < COUNT; i++) {
        if (i < num_edges * num_edges * num_edges) {
            size_t k = salt == 0 ? i : salt == 1 ? i / num_edges : i / num_edges / num_edges;
            store(t, buf, i, (uint64_t)edges[k % num_edges]);
        } else {
            uint64_t r = kt_random();
            /* sometimes small numbers: 24-bit products and shifts see them */
            store(t, buf, i, (i & 3) == 0 ? r % 64 : r);
        }
    }
}

static char *program_source(const struct int_type *t)
{
    char *s = kt_format("%s#define S %s\n#define U %s\n", kt_preamble(), t->name, t->uname);
    kt_append(&s, "kernel void t(global const S *a, global const S *b, global const S *c,\n"
                  "              global S *r) {\n"
                  "    size_t i = get_global_id(0), n = get_global_size(0) * N;\n"
                  "    VEC(S) x = LOAD(i, a), y = LOAD(i, b), z = LOAD(i, c);\n");
    for (size_t f = 0; f < NUM_CASES; f++)
        if (!cases[f].only_32 || t->bits == 32)
            kt_append(&s, "    STORE(CAT(as_, VEC(S))(%s), i, r + %zu * n);\n", cases[f].call, f);
    kt_append(&s, "}\n");
    if (t->wide)
        kt_append(&s,
                  "kernel void up(global const S *a, global const U *b, global %s *r) {\n"
                  "    size_t i = get_global_id(0);\n"
                  "    STORE(upsample(LOAD(i, a), LOAD(i, b)), i, r);\n"
                  "}\n",
                  t->wide);
    return s;
}

static void check_upsample(cl_program p, const struct int_type *t, unsigned n, void *a, void *b)
{
    static uint64_t r[COUNT];
    struct kt_arg args[] = {{a, COUNT * t->bits / 8, false},
                            {b, COUNT * t->bits / 8, false},
                            {r, COUNT * t->bits / 4, false}};
    if (kt_run(p, "up", COUNT / n, args, 3) != CL_SUCCESS) {
        KT_FAIL("upsample %s%u did not run", t->name, n);
        return;
    }
    struct int_type wide = {t->wide, NULL, NULL, t->bits * 2, t->is_signed};
    struct int_type u = *t;
    u.is_signed = false;
    for (size_t i = 0; i < COUNT; i++) {
        i128 want = (load(t, a, i) * ((i128)1 << t->bits)) | load(&u, b, i);
        i128 got = load(&wide, r, i);
        if (ubits(&wide, got) != ubits(&wide, want)) {
            KT_FAIL("upsample %s%u element %zu", t->name, n, i);
            return;
        }
    }
}

int main(void)
{
    kt_setup();
    static uint64_t a[COUNT], b[COUNT], c[COUNT], r[NUM_CASES * COUNT];
    for (size_t ti = 0; ti < sizeof types / sizeof *types; ti++) {
        const struct int_type *t = &types[ti];
        char *source = program_source(t);
        fill(t, a, 0), fill(t, b, 1), fill(t, c, 2);
        for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
            unsigned n = kt_widths[w];
            cl_program p = kt_build(source, kt_width_options(n));
            size_t size = COUNT * t->bits / 8;
            memset(r, 0, sizeof r);
            struct kt_arg args[] = {
                {a, size, false}, {b, size, false}, {c, size, false}, {r, NUM_CASES * size, false}};
            if (kt_run(p, "t", COUNT / n, args, 4) != CL_SUCCESS) {
                KT_FAIL("%s%u did not run", t->name, n);
                clReleaseProgram(p);
                continue;
            }
            for (size_t f = 0; f < NUM_CASES; f++) {
                if (cases[f].only_32 && t->bits != 32)
                    continue;
                for (size_t i = 0; i < COUNT; i++) {
                    i128 x = load(t, a, i), y = load(t, b, i), z = load(t, c, i);
                    uint64_t want = ubits(t, cases[f].ref(t, x, y, z));
                    uint64_t got = ubits(t, load(t, r, f * COUNT + i));
                    if (got != want) {
                        KT_FAIL("%s on %s%u: x=%lld y=%lld z=%lld: got %#llx, want %#llx",
                                cases[f].name, t->name, n, (long long)x, (long long)y, (long long)z,
                                (unsigned long long)got, (unsigned long long)want);
                        break;
                    }
                }
            }
            if (t->wide)
                check_upsample(p, t, n, a, b);
            clReleaseProgram(p);
        }
        free(source);
    }
    printf("integer: %zu functions x %zu types x %zu widths checked\n", NUM_CASES,
           sizeof types / sizeof *types, KT_NUM_WIDTHS);
    return kt_teardown();
}
