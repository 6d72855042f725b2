/* SPDX-License-Identifier: MIT */
/*
 * The generic address-space overloads of the built-ins with pointer
 * arguments: frexp, fract, modf, sincos, lgamma_r, remquo, and vload_half,
 * vloada_half, vstore_half and vstorea_half with every rounding mode.
 * Programs reach them as OpenCL C 3.0 when the device has the generic
 * address space; until it does, kernels-tests check only the overloads of
 * the named spaces against host references (test_math_int, test_vload_half).
 *
 * Here one source is built twice at every width: as OpenCL C 1.2, calling
 * the named overloads with pointers to __global, __local and __private
 * memory, and as 3.0 with __opencl_c_generic_address_space, calling the
 * generic overloads with the same pointers converted to generic ones. The
 * launchers run without the runtime; the two builds must agree bit for bit.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include "../../compiler/launcher.h"
#include "../../compiler/program.h"

#include <setjmp.h> /* cmocka needs these first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cl_name_version versions[] = {{CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
                                           {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"}};
static const cl_name_version features[] = {
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_generic_address_space"}};

enum { ITEMS = 48, LOCAL = 16, SLOTS = 3 * 6 + 3 * 2, HALVES = 48, HSLOTS = 5 };
/* SLOTS: results per work-item (6 functions and 2 loads in 3 spaces); HSLOTS: stores per space */

static const char source[] =
    "#define CAT_(a, b) a##b\n"
    "#define CAT(a, b) CAT_(a, b)\n"
    "#if N == 1\n"
    "#define VEC(t) t\n"
    "#define LOAD(i, p) (p)[i]\n"
    "#define STORE(v, i, p) ((p)[i] = (v))\n"
    "#define VLOADH vload_half\n"
    "#define VLOADAH vload_half\n" /* there is no vloada_half */
    "#define VSTOREH(m) vstore_half##m\n"
    "#define VSTOREAH(m) vstore_half##m\n"
    "#else\n"
    "#define VEC(t) CAT(t, N)\n"
    "#define LOAD(i, p) CAT(vload, N)(i, p)\n"
    "#define STORE(v, i, p) CAT(vstore, N)(v, i, p)\n"
    "#define VLOADH CAT(vload_half, N)\n"
    "#define VLOADAH CAT(vloada_half, N)\n"
    "#define VSTOREH(m) CAT(CAT(vstore_half, N), m)\n"
    "#define VSTOREAH(m) CAT(CAT(vstorea_half, N), m)\n"
    "#endif\n"
    /* the pointers as they are (1.2), or converted to generic ones (3.0) */
    "#ifdef __opencl_c_generic_address_space\n"
    "#define PF(p) ((VEC(float) *)(p))\n"
    "#define PI(p) ((VEC(int) *)(p))\n"
    "#define HG(p) ((half *)(p))\n"
    "#define HL(p) ((half *)(p))\n"
    "#define HP(p) ((half *)(p))\n"
    "#else\n"
    "#define PF(p) (p)\n"
    "#define PI(p) (p)\n"
    "#define HG(p) ((global half *)(p))\n"
    "#define HL(p) ((local half *)(p))\n"
    "#define HP(p) ((private half *)(p))\n"
    "#endif\n"
    "#define OUT(v, p) STORE(v, i + n * s, p)\n"
    "#define MATH(F, I) \\\n"
    "    OUT(frexp(x, I), r); OUT(*(I), o); s++; \\\n"
    "    OUT(fract(x, F), r); OUT(*(F), q); s++; \\\n"
    "    OUT(modf(x, F), r); OUT(*(F), q); s++; \\\n"
    "    OUT(sincos(x, F), r); OUT(*(F), q); s++; \\\n"
    "    OUT(lgamma_r(x, I), r); OUT(*(I), o); s++; \\\n"
    "    OUT(remquo(x, y, I), r); OUT(*(I), o); s++;\n"
    /* this work-item's HALVES halves at mem: loads one half past an aligned
       address and 32 halves in, then every store there, each copied out */
    "#define STORE_MODE(H, mem, m) \\\n"
    "    VSTOREH(m)(x, 0, H(mem + 1)); VSTOREAH(m)(y, 0, H(mem + 32)); \\\n"
    "    for (int j = 0; j < 48; j++) hout[(i + n * t) * 48 + j] = mem[j]; \\\n"
    "    t++;\n"
    "#define HALF(H, mem) \\\n"
    "    for (int j = 0; j < 48; j++) mem[j] = hin[i * 48 + j]; \\\n"
    "    OUT(VLOADH(0, H(mem + 1)), r); s++; \\\n"
    "    OUT(VLOADAH(0, H(mem + 32)), r); s++; \\\n"
    "    STORE_MODE(H, mem, ) STORE_MODE(H, mem, _rte) STORE_MODE(H, mem, _rtz) \\\n"
    "    STORE_MODE(H, mem, _rtp) STORE_MODE(H, mem, _rtn)\n"
    "kernel void k(global const float *a, global const float *b, global float *r,\n"
    "              global int *o, global float *q, global VEC(float) *gf, global VEC(int) *gi,\n"
    "              global const ushort *hin, global ushort *hg, global ushort *hout) {\n"
    "    size_t i = get_global_id(0), l = get_local_id(0), n = get_global_size(0);\n"
    "    size_t s = 0, t = 0;\n"
    "    local VEC(float) lf[16];\n"
    "    local VEC(int) li[16];\n"
    "    local ushort16 lh[16 * 3];\n"
    "    VEC(float) pf;\n"
    "    VEC(int) pi;\n"
    "    ushort16 ph[3];\n"
    "    VEC(float) x = LOAD(i, a), y = LOAD(i, b);\n"
    "    MATH(PF(&gf[i]), PI(&gi[i]))\n"
    "    MATH(PF(&lf[l]), PI(&li[l]))\n"
    "    MATH(PF(&pf), PI(&pi))\n"
    "    HALF(HG, (hg + i * 48))\n"
    "    HALF(HL, ((local ushort *)&lh[l * 3]))\n"
    "    HALF(HP, ((ushort *)ph))\n"
    "}\n";

static char frames[1 << 20];
static size_t frames_used;

static void *frame_alloc(uint64_t size)
{
    void *p = frames + frames_used;
    frames_used += (size + 63) / 64 * 64;
    assert_true(frames_used <= sizeof frames);
    return p;
}

/* Buffers of one run, in the kernel's argument order, aligned as a runtime's. */
#define A _Alignas(128)
struct buffers {
    A float a[ITEMS * 16];
    A float b[ITEMS * 16];
    A float r[SLOTS * ITEMS * 16];
    A int o[SLOTS * ITEMS * 16];
    A float q[SLOTS * ITEMS * 16];
    A float gf[ITEMS * 16];
    A int gi[ITEMS * 16];
    A uint16_t hin[ITEMS * HALVES];
    A uint16_t hg[ITEMS * HALVES];
    A uint16_t hout[3 * HSLOTS * ITEMS * HALVES];
};
#undef A

/* Builds the source for width n, as `std`, and runs it over `buf`. */
static void run(unsigned n, const char *std, struct buffers *buf)
{
    char options[64];
    snprintf(options, sizeof options, "-cl-std=%s -DN=%u", std, n);
    struct lanes_options o;
    assert_int_equal(lanes_options_parse(options, LANES_OPTIONS_BUILD, versions, 2, &o), 0);
    struct lanes_language lang = {.features = features, .num_features = 2};
    char *log = NULL;
    struct lanes_program_module *m = lanes_program_build(source, strlen(source), &o, &lang, &log);
    lanes_options_free(&o);
    if (!m)
        fail_msg("build failed (%s): %s", options, log);
    free(log);
    log = NULL;
    /* the overloads this build calls: named ones, or generic ones only */
    bool generic = strcmp(std, "CL3.0") == 0;
    bool has_named = memmem(m->bitcode, m->bitcode_size, "PU8CLglobal", 11) != NULL;
    bool has_generic = memmem(m->bitcode, m->bitcode_size, "PU9CLgeneric", 12) != NULL;
    assert_true(generic ? has_generic && !has_named : has_named && !has_generic);

    uint64_t local[3] = {LOCAL, 1, 1};
    struct lanes_specialization spec = {.local_size = {LOCAL, 1, 1}, .work_dim = 1, .width = 1};
    struct lanes_launcher l; /* its code stays loaded */
    lanes_launcher_fn fn = lanes_launcher_build(m, &m->kernels[0], &spec, &l, &log);
    if (!fn)
        fail_msg("launcher (%s): %s", options, log);
    const struct lanes_kernel_info *k = &m->kernels[0];
    unsigned char *args = aligned_alloc(128, (k->args_size + 127) / 128 * 128);
    void *ptrs[] = {buf->a,  buf->b,  buf->r,   buf->o,  buf->q,
                    buf->gf, buf->gi, buf->hin, buf->hg, buf->hout};
    assert_int_equal(k->num_args, sizeof ptrs / sizeof *ptrs);
    for (size_t i = 0; i < k->num_args; i++)
        memcpy(args + k->args[i].offset, &ptrs[i], sizeof ptrs[i]);
    size_t local_bytes = (k->local_mem_size + 127) / 128 * 128;
    char *local_mem = aligned_alloc(128, local_bytes ? local_bytes : 128);
    struct lanes_wg wg = {.work_dim = 1, .frame_alloc = frame_alloc, .local_mem = local_mem};
    wg.global_size[0] = ITEMS, wg.enqueued_local_size[0] = local[0];
    wg.num_groups[0] = ITEMS / LOCAL;
    for (unsigned d = 1; d < 3; d++)
        wg.global_size[d] = wg.enqueued_local_size[d] = wg.num_groups[d] = wg.local_size[d] = 1;
    for (uint64_t g = 0; g < ITEMS / LOCAL; g++) {
        wg.group_id[0] = g;
        wg.local_size[0] = LOCAL;
        frames_used = 0;
        fn(args, &wg);
    }
    free(local_mem);
    free(args);
    lanes_program_module_free(m);
}

/* Reproducible inputs: special values first, then random bits and moderate values. */
static void fill(struct buffers *b)
{
    static const float specials[] = {
        0.0f, -0.0f, 1.0f, -1.5f,    0x1p-149f, -0x1p-130f, INFINITY, -INFINITY,
        NAN,  -3.0f, 0.5f, 65520.0f, 1e30f,     -7.25f,     0x1p-25f, 0x1.8p-25f};
    uint64_t s = 0x2545f4914f6cdd1dull;
    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < ITEMS * 16; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        uint32_t bits = (uint32_t)(s >> 32);
        float v;
        memcpy(&v, &bits, sizeof v);
        b->a[i] = i < 16 ? specials[i] : (s & 1) ? v : (float)(int32_t)bits * 0x1p-26f;
        b->b[i] = i < 16 ? specials[15 - i] : (s & 2) ? v : (float)(int32_t)(bits >> 3) * 0x1p-27f;
    }
    for (size_t i = 0; i < ITEMS * HALVES; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        b->hin[i] = (uint16_t)(s >> 40);
    }
}

/* Floats equal bit for bit (NaNs included). */
static void same(const void *x, const void *y, size_t size, const char *what, unsigned n)
{
    if (memcmp(x, y, size) != 0)
        fail_msg("%s differ between the named and the generic overloads at width %u", what, n);
}

static void generic_matches_named(void **state)
{
    (void)state;
    /* the scalar, the odd one (three elements in a four-element type) and the widest */
    static const unsigned widths[] = {1, 3, 16};
    struct buffers *named = aligned_alloc(128, sizeof *named);
    struct buffers *generic = aligned_alloc(128, sizeof *generic);
    for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
        fill(named);
        fill(generic);
        run(widths[w], "CL1.2", named);
        run(widths[w], "CL3.0", generic);
        same(named->r, generic->r, sizeof named->r, "results", widths[w]);
        same(named->o, generic->o, sizeof named->o, "int outputs", widths[w]);
        same(named->q, generic->q, sizeof named->q, "float outputs", widths[w]);
        same(named->hout, generic->hout, sizeof named->hout, "stored halves", widths[w]);
        /* the stores wrote something: not all outputs are still zero */
        size_t nonzero = 0;
        for (size_t i = 0; i < sizeof named->hout / sizeof *named->hout; i++)
            nonzero += named->hout[i] != 0;
        assert_true(nonzero > sizeof named->hout / sizeof *named->hout / 4);
    }
    free(named);
    free(generic);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(generic_matches_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
