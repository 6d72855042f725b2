/* SPDX-License-Identifier: MIT */
/*
 * cl_khr_integer_dot_product: dot and dot_acc_sat of uchar4/char4 in all
 * four mixes of signedness, and the packed dot_4x8packed_{uu,ss,us,su} and
 * dot_acc_sat_4x8packed_* forms, against a reference in C: random bytes,
 * then the extremes of each byte (0, 127, 128, 255 in every lane) and
 * accumulators at the edges of int and uint, where the saturation bites
 * or only just does not. Run in uniform control flow and under a
 * divergent branch (half the lanes inactive), with local sizes of one
 * sub-group, several and a partial last one.
 */
#include "kernels.h"

#include <limits.h>
#include <stdint.h>

enum { N = 4032, F = 16 }; /* 42 work-groups of 96 */

static const char source[] =
    "#define PACKED(i, a, b, acc, o)                                                  \\\n"
    "    o[i * 16 + 0] = dot_4x8packed_uu_uint(a, b);                                 \\\n"
    "    o[i * 16 + 1] = dot_4x8packed_ss_int(a, b);                                  \\\n"
    "    o[i * 16 + 2] = dot_4x8packed_us_int(a, b);                                  \\\n"
    "    o[i * 16 + 3] = dot_4x8packed_su_int(a, b);                                  \\\n"
    "    o[i * 16 + 4] = dot_acc_sat_4x8packed_uu_uint(a, b, (uint)acc);              \\\n"
    "    o[i * 16 + 5] = dot_acc_sat_4x8packed_ss_int(a, b, acc);                     \\\n"
    "    o[i * 16 + 6] = dot_acc_sat_4x8packed_us_int(a, b, acc);                     \\\n"
    "    o[i * 16 + 7] = dot_acc_sat_4x8packed_su_int(a, b, acc);\n"
    "#define VECTORS(i, ua, sa, ub, sb, acc, o)                                       \\\n"
    "    o[i * 16 + 8] = dot(ua, ub);                                                 \\\n"
    "    o[i * 16 + 9] = dot(sa, sb);                                                 \\\n"
    "    o[i * 16 + 10] = dot(ua, sb);                                                \\\n"
    "    o[i * 16 + 11] = dot(sa, ub);                                                \\\n"
    "    o[i * 16 + 12] = dot_acc_sat(ua, ub, (uint)acc);                             \\\n"
    "    o[i * 16 + 13] = dot_acc_sat(sa, sb, acc);                                   \\\n"
    "    o[i * 16 + 14] = dot_acc_sat(ua, sb, acc);                                   \\\n"
    "    o[i * 16 + 15] = dot_acc_sat(sa, ub, acc);\n"
    "kernel void all(global const uint *a, global const uint *b, global const int *acc,\n"
    "                global const uchar4 *ua, global const char4 *sa, global const uchar4 *ub,\n"
    "                global const char4 *sb, global uint *o) {\n"
    "    size_t i = get_global_id(0);\n"
    "    PACKED(i, a[i], b[i], acc[i], o)\n"
    "    VECTORS(i, ua[i], sa[i], ub[i], sb[i], acc[i], o)\n"
    "}\n"
    "kernel void divergent(global const uint *a, global const uint *b, global const int *acc,\n"
    "                      global const uchar4 *ua, global const char4 *sa,\n"
    "                      global const uchar4 *ub, global const char4 *sb, global uint *o) {\n"
    "    size_t i = get_global_id(0);\n"
    "    if ((a[i] ^ b[i]) & 0x100) {\n"
    "        PACKED(i, a[i], b[i], acc[i], o)\n"
    "        VECTORS(i, ua[i], sa[i], ub[i], sb[i], acc[i], o)\n"
    "    }\n"
    "}\n"
    "kernel void features(global int *o) {\n"
    "#if defined(cl_khr_integer_dot_product) && \\\n"
    "    defined(__opencl_c_integer_dot_product_input_4x8bit) && \\\n"
    "    defined(__opencl_c_integer_dot_product_input_4x8bit_packed)\n"
    "    o[0] = 1;\n"
    "#else\n"
    "    o[0] = 0;\n"
    "#endif\n"
    "}\n";

static int64_t byte_of(uint32_t x, int k, bool is_signed)
{
    uint8_t u = (uint8_t)(x >> (8 * k));
    return is_signed ? (int64_t)(int8_t)u : (int64_t)u;
}

static int64_t dot_ref(uint32_t a, uint32_t b, bool sa, bool sb)
{
    int64_t s = 0;
    for (int k = 0; k < 4; k++)
        s += byte_of(a, k, sa) * byte_of(b, k, sb);
    return s;
}

static uint32_t sat_signed(int64_t x)
{
    return (uint32_t)(int32_t)(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x);
}

static uint32_t sat_unsigned(int64_t x)
{
    return (uint32_t)(x > UINT32_MAX ? UINT32_MAX : x);
}

/* The 16 results of the kernels' PACKED and VECTORS for one work-item. */
static void reference(uint32_t a, uint32_t b, int32_t acc, uint32_t out[F])
{
    static const bool sign[4][2] = {{false, false}, {true, true}, {false, true}, {true, false}};
    for (int form = 0; form < 2; form++)
        for (int m = 0; m < 4; m++) {
            int64_t d = dot_ref(a, b, sign[m][0], sign[m][1]);
            out[form * 8 + m] = (uint32_t)d;
            out[form * 8 + 4 + m] =
                m == 0 ? sat_unsigned(d + (int64_t)(uint32_t)acc) : sat_signed(d + acc);
        }
}

static const uint32_t extremes[] = {0x00000000u, 0x7f7f7f7fu, 0x80808080u,
                                    0xffffffffu, 0x807f80ffu, 0x01ff7f80u};
static const uint32_t edges[] = {0x7fffffffu, 0x7ffffff0u, 0x80000000u, 0x80000010u, 0xffffffffu,
                                 0xfffc0000u, 0xfffbfffbu, 0x00000000u, 0xffff0000u};

static uint32_t a[N], b[N], out[N * F], want[F];
static int32_t acc[N];

static void run(cl_program p, const char *kernel, const size_t *local)
{
    memset(out, 0xa5, sizeof out);
    struct kt_arg args[] = {{a, sizeof a, false}, {b, sizeof b, false},    {acc, sizeof acc, false},
                            {a, sizeof a, false}, {a, sizeof a, false},    {b, sizeof b, false},
                            {b, sizeof b, false}, {out, sizeof out, false}};
    KT_CHECK_CL(kt_run_local(p, kernel, N, local, args, 8));
    bool divergent = strcmp(kernel, "divergent") == 0;
    int reported = 0;
    for (size_t i = 0; i < N && reported < 8; i++) {
        if (divergent && !((a[i] ^ b[i]) & 0x100)) {
            if (out[i * F] != 0xa5a5a5a5u) {
                KT_FAIL("%s: inactive work-item %zu wrote", kernel, i);
                reported++;
            }
            continue;
        }
        reference(a[i], b[i], acc[i], want);
        for (int f = 0; f < F; f++)
            if (out[i * F + f] != want[f]) {
                KT_FAIL("%s (local %zu), work-item %zu, result %d: a %#x b %#x acc %#x: got %#x, "
                        "expected %#x",
                        kernel, local ? *local : 0, i, f, a[i], b[i], (uint32_t)acc[i],
                        out[i * F + f], want[f]);
                reported++;
            }
    }
}

int main(void)
{
    kt_setup();
    if (!kt_has_extension("cl_khr_integer_dot_product")) {
        KT_FAIL("cl_khr_integer_dot_product is not listed");
        return kt_teardown();
    }
    cl_program p = kt_build(source, "");
    size_t ne = sizeof extremes / sizeof *extremes, nd = sizeof edges / sizeof *edges, i = 0;
    /* Every pair of extreme operands with every edge accumulator, then random. */
    for (size_t x = 0; x < ne; x++)
        for (size_t y = 0; y < ne; y++)
            for (size_t z = 0; z < nd; z++, i++) {
                a[i] = extremes[x];
                b[i] = extremes[y];
                acc[i] = (int32_t)edges[z];
            }
    for (; i < N; i++) {
        uint64_t r = kt_random();
        a[i] = (uint32_t)r;
        b[i] = (uint32_t)(r >> 32);
        uint32_t s = (uint32_t)kt_random();
        /* A third of the accumulators near the edges, where sums saturate. */
        acc[i] = (int32_t)(i % 3 == 0 ? s : edges[s % nd] + (s >> 24) - 128);
    }
    static const size_t locals[] = {8, 24, 96}; /* 24, 96: a partial sub-group at W = 16, 32 */
    run(p, "all", NULL);
    run(p, "divergent", NULL);
    for (size_t l = 0; l < sizeof locals / sizeof *locals; l++) {
        run(p, "all", &locals[l]);
        run(p, "divergent", &locals[l]);
    }
    clReleaseProgram(p);
    /* The macros under OpenCL C 3.0 too (the default is 1.2). */
    p = kt_build(source, "-cl-std=CL3.0");
    int defined = 0;
    struct kt_arg args[] = {{&defined, sizeof defined, false}};
    KT_CHECK_CL(kt_run(p, "features", 1, args, 1));
    if (!defined)
        KT_FAIL("the extension's macros are not defined under -cl-std=CL3.0");
    clReleaseProgram(p);
    return kt_teardown();
}
