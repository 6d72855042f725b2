/* SPDX-License-Identifier: MIT */
/*
 * cl_khr_extended_bit_ops: bitfield_insert, bitfield_extract_signed,
 * bitfield_extract_unsigned and bit_reverse of every integer type at every
 * vector width, against a reference in C. Offsets and counts vary per
 * work-item over every field that fits (offset + count <= the type's bits,
 * the specification's defined cases: count 0 and fields reaching the top
 * bit among them), and are uniform in a second kernel over the edge cases.
 */
#include "kernels.h"

#include <stdint.h>

static const char source[] =
    "#define K(T, U, S, n)                                                              \\\n"
    "kernel void k_##T##n(global const T##n *base, global const T##n *ins,              \\\n"
    "                     global const uint *off, global const uint *cnt,               \\\n"
    "                     global T##n *o_ins, global S##n *o_es, global U##n *o_eu,      \\\n"
    "                     global T##n *o_rev) {                                         \\\n"
    "    size_t i = get_global_id(0);                                                   \\\n"
    "    uint of = off[i], c = cnt[i];                                                  \\\n"
    "    o_ins[i] = bitfield_insert(base[i], ins[i], of, c);                            \\\n"
    "    o_es[i] = bitfield_extract_signed(base[i], of, c);                             \\\n"
    "    o_eu[i] = bitfield_extract_unsigned(base[i], of, c);                           \\\n"
    "    o_rev[i] = bit_reverse(base[i]);                                               \\\n"
    "}                                                                                  \\\n"
    "kernel void u_##T##n(global const T##n *base, global const T##n *ins, uint of,     \\\n"
    "                     uint c, global T##n *o_ins, global S##n *o_es,                \\\n"
    "                     global U##n *o_eu) {                                          \\\n"
    "    size_t i = get_global_id(0);                                                   \\\n"
    "    o_ins[i] = bitfield_insert(base[i], ins[i], of, c);                            \\\n"
    "    o_es[i] = bitfield_extract_signed(base[i], of, c);                             \\\n"
    "    o_eu[i] = bitfield_extract_unsigned(base[i], of, c);                           \\\n"
    "}\n"
    "#define TYPES(n) K(char, uchar, char, n) K(uchar, uchar, char, n)                   \\\n"
    "    K(short, ushort, short, n) K(ushort, ushort, short, n) K(int, uint, int, n)     \\\n"
    "    K(uint, uint, int, n) K(long, ulong, long, n) K(ulong, ulong, long, n)\n"
    "TYPES() TYPES(2) TYPES(3) TYPES(4) TYPES(8) TYPES(16)\n";

static const struct {
    const char *name;
    unsigned bytes;
} types[] = {{"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2},
             {"int", 4},  {"uint", 4},  {"long", 8},  {"ulong", 8}};

enum { N = 2304, MAX_ELEMS = N * 16 };

static uint8_t base[MAX_ELEMS * 8], ins[MAX_ELEMS * 8];
static uint8_t o_ins[MAX_ELEMS * 8], o_es[MAX_ELEMS * 8], o_eu[MAX_ELEMS * 8], o_rev[MAX_ELEMS * 8];
static uint32_t off[N], cnt[N];

static uint64_t get(const uint8_t *p, size_t j, unsigned bytes)
{
    uint64_t x = 0;
    memcpy(&x, p + j * bytes, bytes); /* little-endian host */
    return x;
}

static uint64_t low(unsigned count)
{
    return count == 0 ? 0 : count == 64 ? ~0ull : (1ull << count) - 1;
}

static uint64_t ref_insert(uint64_t b, uint64_t i, unsigned of, unsigned c, unsigned bits)
{
    uint64_t mask = of >= 64 ? 0 : low(c) << of;
    return ((b & ~mask) | ((of >= 64 ? 0 : i << of) & mask)) & low(bits);
}

static uint64_t ref_extract_unsigned(uint64_t b, unsigned of, unsigned c)
{
    return c == 0 ? 0 : (b >> of) & low(c);
}

static uint64_t ref_extract_signed(uint64_t b, unsigned of, unsigned c, unsigned bits)
{
    uint64_t f = ref_extract_unsigned(b, of, c);
    if (c && c < 64 && (f >> (c - 1)) & 1)
        f |= ~low(c);
    return f & low(bits);
}

static uint64_t ref_reverse(uint64_t b, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned k = 0; k < bits; k++)
        r |= ((b >> k) & 1) << (bits - 1 - k);
    return r;
}

/* Compares the elements of work-items [0, n) of one result. */
static void compare(const char *what, const char *kernel, const uint8_t *got, size_t n,
                    unsigned elems, unsigned stride, unsigned bytes, bool uniform, unsigned u_of,
                    unsigned u_c)
{
    unsigned bits = bytes * 8;
    for (size_t i = 0; i < n; i++)
        for (unsigned e = 0; e < elems; e++) {
            size_t j = i * stride + e;
            unsigned of = uniform ? u_of : off[i], c = uniform ? u_c : cnt[i];
            uint64_t b = get(base, j, bytes), x = get(ins, j, bytes), want;
            if (strcmp(what, "insert") == 0)
                want = ref_insert(b, x, of, c, bits);
            else if (strcmp(what, "extract_signed") == 0)
                want = ref_extract_signed(b, of, c, bits);
            else if (strcmp(what, "extract_unsigned") == 0)
                want = ref_extract_unsigned(b, of, c);
            else
                want = ref_reverse(b, bits);
            uint64_t have = get(got, j, bytes);
            if (have != want) {
                KT_FAIL("%s %s, work-item %zu element %u, offset %u count %u: base %#llx insert "
                        "%#llx: got %#llx, expected %#llx",
                        kernel, what, i, e, of, c, (unsigned long long)b, (unsigned long long)x,
                        (unsigned long long)have, (unsigned long long)want);
                return;
            }
        }
}

int main(void)
{
    kt_setup();
    if (!kt_has_extension("cl_khr_extended_bit_ops")) {
        KT_FAIL("cl_khr_extended_bit_ops is not listed");
        return kt_teardown();
    }
    cl_program p = kt_build(source, "");
    for (size_t k = 0; k < sizeof base; k++) {
        base[k] = (uint8_t)kt_random();
        ins[k] = (uint8_t)kt_random();
    }
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        unsigned bytes = types[t].bytes, bits = bytes * 8;
        /* Every field that fits, over and over, then random ones. */
        size_t i = 0;
        for (unsigned of = 0; of <= bits && i < N; of++)
            for (unsigned c = 0; of + c <= bits && i < N; c++, i++)
                off[i] = of, cnt[i] = c;
        for (size_t j = 0; i < N; i++, j++)
            off[i] = off[j], cnt[i] = cnt[j];
        for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
            unsigned n = kt_widths[w], stride = n == 3 ? 4 : n;
            size_t size = (size_t)N * stride * bytes;
            char kernel[32];
            snprintf(kernel, sizeof kernel, "k_%s%s%.0u", types[t].name, "", n == 1 ? 0 : n);
            struct kt_arg args[] = {{base, size, false},      {ins, size, false},
                                    {off, sizeof off, false}, {cnt, sizeof cnt, false},
                                    {o_ins, size, false},     {o_es, size, false},
                                    {o_eu, size, false},      {o_rev, size, false}};
            KT_CHECK_CL(kt_run(p, kernel, N, args, 8));
            compare("insert", kernel, o_ins, N, n, stride, bytes, false, 0, 0);
            compare("extract_signed", kernel, o_es, N, n, stride, bytes, false, 0, 0);
            compare("extract_unsigned", kernel, o_eu, N, n, stride, bytes, false, 0, 0);
            compare("reverse", kernel, o_rev, N, n, stride, bytes, false, 0, 0);

            const unsigned uniform[][2] = {{0, 0},        {bits, 0},     {0, bits},
                                           {bits - 1, 1}, {3, bits - 5}, {bits / 2, bits / 2},
                                           {1, 0}};
            kernel[0] = 'u';
            for (size_t u = 0; u < sizeof uniform / sizeof *uniform; u++) {
                cl_uint of = uniform[u][0], c = uniform[u][1];
                struct kt_arg uargs[] = {{base, size, false},    {ins, size, false},
                                         {&of, sizeof of, true}, {&c, sizeof c, true},
                                         {o_ins, size, false},   {o_es, size, false},
                                         {o_eu, size, false}};
                KT_CHECK_CL(kt_run(p, kernel, 256, uargs, 7));
                compare("insert", kernel, o_ins, 256, n, stride, bytes, true, of, c);
                compare("extract_signed", kernel, o_es, 256, n, stride, bytes, true, of, c);
                compare("extract_unsigned", kernel, o_eu, 256, n, stride, bytes, true, of, c);
            }
        }
    }
    clReleaseProgram(p);
    return kt_teardown();
}
