/* SPDX-License-Identifier: MIT */
/*
 * shuffle and shuffle2 (OpenCL C 3.0 6.15.12) for every element type, input
 * width m and mask width n, against a host reference: random source bits
 * and random masks whose bits above the log2(m) (shuffle) or log2(2m)
 * (shuffle2) that count are set too, plus constant masks, which the
 * compiler folds into a fixed permutation once the built-in is inlined.
 */
#include "kernels.h"

enum { COUNT = 256 }; /* work-items per run, each with its own sources and mask */

struct elem_type {
    const char *name, *mask; /* the element type and its same-size unsigned mask type */
    unsigned size;
};
static const struct elem_type types[] = {
    {"char", "uchar", 1}, {"uchar", "uchar", 1},  {"short", "ushort", 2}, {"ushort", "ushort", 2},
    {"int", "uint", 4},   {"uint", "uint", 4},    {"long", "ulong", 8},   {"ulong", "ulong", 8},
    {"float", "uint", 4}, {"double", "ulong", 8},
};
#define NUM_TYPES (sizeof types / sizeof *types)

static const unsigned widths[] = {2, 4, 8, 16};
#define NUM_WIDTHS (sizeof widths / sizeof *widths)

/* The constant masks: shuffle(x4, MASK4) and shuffle2(x8, y8, MASK8). */
static const unsigned const_mask4[4] = {3, 0x12, 0x71, 0x7e};
static const unsigned const_mask8[8] = {15, 0, 0x1d, 12, 0x68, 7, 0x3a, 0x50};

/* One result region of the output: a function at (m, n), or a constant-mask case. */
struct region {
    bool two;      /* shuffle2 */
    unsigned m, n; /* source and mask widths */
    bool constant; /* the mask is const_mask4 / const_mask8, not the mask buffer */
    size_t offset; /* in elements */
};

/* Element i of a packed array of `size`-byte elements, as raw bits. */
static uint64_t get(const uint8_t *p, unsigned size, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, p + i * size, size);
    return v;
}

/* All regions, their offsets, the total number of output elements. */
static size_t layout(struct region *r, unsigned *count)
{
    size_t off = 0;
    unsigned k = 0;
    for (unsigned two = 0; two < 2; two++)
        for (size_t a = 0; a < NUM_WIDTHS; a++)
            for (size_t b = 0; b < NUM_WIDTHS; b++) {
                r[k] = (struct region){two, widths[a], widths[b], false, off};
                off += (size_t)COUNT * widths[b];
                k++;
            }
    r[k] = (struct region){false, 4, 4, true, off};
    off += (size_t)COUNT * 4;
    k++;
    r[k] = (struct region){true, 8, 8, true, off};
    off += (size_t)COUNT * 8;
    k++;
    *count = k;
    return off;
}

/* One kernel computing every region for work-item g: sources at g * m, masks at g * n. */
static char *program_source(const struct elem_type *t, const struct region *r, unsigned count)
{
    char *s = kt_format("kernel void t(global const %s *x, global const %s *y,\n"
                        "              global const %s *mask, global %s *r) {\n"
                        "    size_t g = get_global_id(0);\n",
                        t->name, t->name, t->mask, t->name);
    for (unsigned k = 0; k < count; k++) {
        char mask[160];
        if (!r[k].constant)
            snprintf(mask, sizeof mask, "vload%u(g, mask)", r[k].n);
        else if (r[k].m == 4)
            snprintf(mask, sizeof mask, "(%s4)(%u, %u, %u, %u)", t->mask, const_mask4[0],
                     const_mask4[1], const_mask4[2], const_mask4[3]);
        else
            snprintf(mask, sizeof mask, "(%s8)(%u, %u, %u, %u, %u, %u, %u, %u)", t->mask,
                     const_mask8[0], const_mask8[1], const_mask8[2], const_mask8[3], const_mask8[4],
                     const_mask8[5], const_mask8[6], const_mask8[7]);
        if (r[k].two)
            kt_append(&s, "    vstore%u(shuffle2(vload%u(g, x), vload%u(g, y), %s), g, r + %zu);\n",
                      r[k].n, r[k].m, r[k].m, mask, r[k].offset);
        else
            kt_append(&s, "    vstore%u(shuffle(vload%u(g, x), %s), g, r + %zu);\n", r[k].n, r[k].m,
                      mask, r[k].offset);
    }
    kt_append(&s, "}\n");
    return s;
}

/* Compares region k of the output with the host reference; reports the first mismatch. */
static void check(const struct elem_type *t, const struct region *r, const uint8_t *x,
                  const uint8_t *y, const uint8_t *mask, const uint8_t *out)
{
    unsigned m = r->m, n = r->n, bits = r->two ? 2 * m - 1 : m - 1;
    for (size_t g = 0; g < COUNT; g++)
        for (unsigned k = 0; k < n; k++) {
            uint64_t sel = !r->constant ? get(mask, t->size, g * n + k)
                           : m == 4     ? const_mask4[k]
                                        : const_mask8[k];
            unsigned idx = (unsigned)(sel & bits);
            uint64_t want =
                idx < m ? get(x, t->size, g * m + idx) : get(y, t->size, g * m + idx - m);
            uint64_t got = get(out, t->size, r->offset + g * n + k);
            if (got != want) {
                KT_FAIL("%s(%s%u, %s%u%s) work-item %zu element %u (mask %#llx): got %#llx, want "
                        "%#llx",
                        r->two ? "shuffle2" : "shuffle", t->name, m, t->mask, n,
                        r->constant ? " constant" : "", g, k, (unsigned long long)sel,
                        (unsigned long long)got, (unsigned long long)want);
                return;
            }
        }
}

int main(void)
{
    kt_setup();
    struct region regions[2 * NUM_WIDTHS * NUM_WIDTHS + 2];
    unsigned count;
    size_t total = layout(regions, &count);
    size_t in_size = (size_t)COUNT * 16 * 8;
    uint8_t *x = malloc(in_size), *y = malloc(in_size), *mask = malloc(in_size);
    uint8_t *out = malloc(total * 8);
    for (size_t ti = 0; ti < NUM_TYPES; ti++) {
        const struct elem_type *t = &types[ti];
        for (size_t i = 0; i < in_size; i += 8) {
            uint64_t a = kt_random(), b = kt_random(), c = kt_random();
            memcpy(x + i, &a, 8), memcpy(y + i, &b, 8), memcpy(mask + i, &c, 8);
        }
        memset(out, 0, total * t->size);
        char *source = program_source(t, regions, count);
        cl_program p = kt_build(source, "-cl-std=CL3.0");
        free(source);
        size_t size = (size_t)COUNT * 16 * t->size;
        struct kt_arg args[] = {
            {x, size, false}, {y, size, false}, {mask, size, false}, {out, total * t->size, false}};
        if (kt_run(p, "t", COUNT, args, 4) != CL_SUCCESS)
            KT_FAIL("%s did not run", t->name);
        else
            for (unsigned k = 0; k < count; k++)
                check(t, &regions[k], x, y, mask, out);
        clReleaseProgram(p);
    }
    free(x), free(y), free(mask), free(out);
    return kt_teardown();
}
