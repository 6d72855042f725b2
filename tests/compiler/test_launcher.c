/* SPDX-License-Identifier: MIT */
/*
 * Launchers built from OpenCL C and run here, work-group by work-group,
 * against results computed in C: work-item functions in 1, 2 and 3
 * dimensions with offsets and non-uniform groups, every kind of argument,
 * __local memory, the refusals a log must explain, and launcher code shared
 * by identical programs and unloaded with the last one.
 */
#include "../../compiler/jit.h"
#include "../../compiler/launcher.h"
#include "../../compiler/program.h"

#include <setjmp.h> /* cmocka needs these first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cl_name_version versions[] = {{CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
                                           {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"}};
static const cl_name_version features[] = {{CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"}};

/* The module build() made last. */
static struct lanes_program_module *built;

/* Builds `src` and the launcher of its first kernel for the given shape. */
static lanes_launcher_fn build(const char *src, const char *options, unsigned work_dim,
                               const uint64_t local[3], struct lanes_program_module **module,
                               char **log)
{
    struct lanes_options o;
    assert_int_equal(lanes_options_parse(options, LANES_OPTIONS_BUILD, versions, 2, &o), 0);
    struct lanes_language lang = {.features = features, .num_features = 1};
    char *build_log = NULL;
    *module = lanes_program_build(src, strlen(src), &o, &lang, &build_log);
    lanes_options_free(&o);
    if (!*module)
        fail_msg("build failed: %s", build_log);
    free(build_log);
    built = *module;
    struct lanes_specialization spec = {
        .local_size = {local[0], local[1], local[2]}, .work_dim = work_dim, .width = 1};
    struct lanes_launcher l; /* its code stays loaded */
    return lanes_launcher_build(*module, &(*module)->kernels[0], &spec, &l, log);
}

/*
 * The launcher of the last module built for work-groups of `size` (smaller
 * than `local` in the dimensions where an NDRange is not uniform), as the
 * runtime picks one per shape.
 */
static lanes_launcher_fn launcher_for(unsigned work_dim, const uint64_t local[3],
                                      const uint64_t size[3])
{
    struct lanes_specialization spec = {.local_size = {local[0], local[1], local[2]},
                                        .group_size = {size[0], size[1], size[2]},
                                        .work_dim = work_dim,
                                        .width = 1};
    char *log = NULL;
    struct lanes_launcher l; /* its code stays loaded */
    lanes_launcher_fn fn = lanes_launcher_build(built, &built->kernels[0], &spec, &l, &log);
    if (!fn)
        fail_msg("%s", log);
    free(log);
    return fn;
}

/* Coroutine frames for one work-group: a bump allocator reset before each. */
static char frames[1 << 20];
static size_t frames_used;

static void *frame_alloc(uint64_t size)
{
    void *p = frames + frames_used;
    frames_used += (size + 63) / 64 * 64;
    assert_true(frames_used <= sizeof frames);
    return p;
}

/* Runs every work-group of an NDRange, as runtime/exec will. */
static void run(lanes_launcher_fn fn, const void *args, unsigned work_dim, const uint64_t global[3],
                const uint64_t local[3], const uint64_t offset[3], size_t local_bytes)
{
    struct lanes_wg wg = {.work_dim = work_dim, .frame_alloc = frame_alloc};
    char *local_mem = aligned_alloc(128, local_bytes ? (local_bytes + 127) / 128 * 128 : 128);
    wg.local_mem = local_mem;
    for (unsigned d = 0; d < 3; d++) {
        wg.global_size[d] = global[d];
        wg.global_offset[d] = offset[d];
        wg.enqueued_local_size[d] = local[d];
        wg.num_groups[d] = (global[d] + local[d] - 1) / local[d];
    }
    for (uint64_t gz = 0; gz < wg.num_groups[2]; gz++)
        for (uint64_t gy = 0; gy < wg.num_groups[1]; gy++)
            for (uint64_t gx = 0; gx < wg.num_groups[0]; gx++) {
                uint64_t g[3] = {gx, gy, gz};
                bool cut = false;
                for (unsigned d = 0; d < 3; d++) {
                    wg.group_id[d] = g[d];
                    uint64_t rest = global[d] - g[d] * local[d];
                    wg.local_size[d] = rest < local[d] ? rest : local[d];
                    cut |= rest < local[d];
                }
                frames_used = 0;
                (cut ? launcher_for(work_dim, local, wg.local_size) : fn)(args, &wg);
            }
    free(local_mem);
}

static void one_dimension_non_uniform(void **state)
{
    (void)state;
    const char *src = "kernel void axpy(global float *out, global const float *in, float a,\n"
                      "                 uint n) {\n"
                      "    size_t i = get_global_id(0) - get_global_offset(0);\n"
                      "    if (i < n) out[i] = a * in[i] + (float)get_local_id(0)\n"
                      "        + 1000.0f * get_group_id(0) + get_local_size(0) * 0.5f;\n"
                      "}\n";
    uint64_t local[3] = {16, 1, 1}, global[3] = {100, 1, 1}, offset[3] = {7, 0, 0};
    struct lanes_program_module *m;
    char *log;
    lanes_launcher_fn fn = build(src, "", 1, local, &m, &log);
    if (!fn)
        fail_msg("%s", log);
    const struct lanes_kernel_info *k = &m->kernels[0];
    float in[100], out[100];
    for (int i = 0; i < 100; i++)
        in[i] = (float)i * 0.25f;
    unsigned char args[64] = {0};
    float *pout = out, a = 3.0f;
    const float *pin = in;
    uint32_t n = 100;
    memcpy(args + k->args[0].offset, &pout, sizeof pout);
    memcpy(args + k->args[1].offset, &pin, sizeof pin);
    memcpy(args + k->args[2].offset, &a, sizeof a);
    memcpy(args + k->args[3].offset, &n, sizeof n);
    run(fn, args, 1, global, local, offset, 0);
    for (int i = 0; i < 100; i++) {
        /* The last group holds 100 - 6 * 16 = 4 work-items. */
        float size = i >= 96 ? 4.0f : 16.0f;
        float expect = 3.0f * in[i] + (float)(i % 16) + 1000.0f * (float)(i / 16) + size * 0.5f;
        assert_float_equal(out[i], expect, 0.0f);
    }
    lanes_program_module_free(m);
}

static void three_dimensions(void **state)
{
    (void)state;
    const char *src =
        "kernel void ids(global ulong *out, uint d) {\n"
        "    size_t i = get_global_linear_id();\n"
        "    out[4 * i + 0] = get_global_id(0) + 100 * get_global_id(1) + 10000 * "
        "get_global_id(2);\n"
        "    out[4 * i + 1] = get_local_linear_id() + 1000 * get_num_groups(d);\n"
        "    out[4 * i + 2] = get_global_size(d) + 1000 * get_enqueued_local_size(d);\n"
        "    out[4 * i + 3] = get_work_dim() + 10 * get_local_id(d) + 100 * get_global_size(7);\n"
        "}\n";
    uint64_t local[3] = {4, 3, 2}, global[3] = {10, 6, 3}, offset[3] = {1, 2, 3};
    struct lanes_program_module *m;
    char *log;
    lanes_launcher_fn fn = build(src, "-cl-std=CL3.0", 3, local, &m, &log);
    if (!fn)
        fail_msg("%s", log);
    enum { N = 10 * 6 * 3 };
    uint64_t *out = calloc(4 * N, sizeof *out);
    for (uint32_t d = 0; d < 3; d++) {
        unsigned char args[16];
        memcpy(args, &out, sizeof out);
        memcpy(args + 8, &d, sizeof d);
        run(fn, args, 3, global, local, offset, 0);
        for (uint64_t z = 0; z < 3; z++)
            for (uint64_t y = 0; y < 6; y++)
                for (uint64_t x = 0; x < 10; x++) {
                    uint64_t i = (z * 6 + y) * 10 + x, *o = out + 4 * i;
                    uint64_t l[3] = {x % 4, y % 3, z % 2}, g[3] = {10, 6, 3};
                    uint64_t lsz[3] = {x >= 8 ? 2 : 4, 3, z >= 2 ? 1 : 2};
                    uint64_t groups[3] = {3, 2, 2};
                    assert_int_equal(o[0], (x + 1) + 100 * (y + 2) + 10000 * (z + 3));
                    assert_int_equal(o[1],
                                     (l[2] * lsz[1] + l[1]) * lsz[0] + l[0] + 1000 * groups[d]);
                    assert_int_equal(o[2], g[d] + 1000 * local[d]);
                    assert_int_equal(o[3], 3 + 10 * l[d] + 100);
                }
    }
    free(out);
    lanes_program_module_free(m);
}

/* Structs by value, vectors, chars, __constant and __local arguments, kernel __local arrays. */
static void argument_kinds(void **state)
{
    (void)state;
    const char *src =
        "typedef struct { int a; float b; char c; long d; } S;\n"
        "kernel void k(global int *out, S s, float4 v, char c, constant int *tab,\n"
        "              local int *scratch, global int *none) {\n"
        "    local int mine[8];\n"
        "    size_t i = get_global_id(0);\n"
        "    s.a += 1; /* a private copy: must not change the argument block */\n"
        "    scratch[get_local_id(0)] = (int)i;\n"
        "    mine[get_local_id(0) % 8] = tab[i % 4];\n"
        "    out[i] = s.a + (int)s.b + s.c + (int)s.d + (int)v.w + c + scratch[get_local_id(0)]\n"
        "             + mine[get_local_id(0) % 8] + (none == 0 ? 1000 : 0);\n"
        "}\n";
    uint64_t local[3] = {8, 1, 1}, global[3] = {32, 1, 1}, offset[3] = {0};
    struct lanes_program_module *m;
    char *log;
    lanes_launcher_fn fn = build(src, "", 1, local, &m, &log);
    if (!fn)
        fail_msg("%s", log);
    const struct lanes_kernel_info *k = &m->kernels[0];
    assert_int_equal(k->local_mem_size, 8 * sizeof(int));
    struct {
        int a;
        float b;
        char c;
        long d;
    } s = {10, 2.5f, 3, 400};
    float v[4] = {0, 0, 0, 5};
    char c = 6;
    int tab[4] = {20, 30, 40, 50}, out[32];
    int *pout = out, *none = NULL;
    const int *ptab = tab;
    uint64_t scratch_offset = 64; /* after the kernel's own 32 bytes, aligned */
    unsigned char *args = calloc(1, k->args_size);
    memcpy(args + k->args[0].offset, &pout, 8);
    assert_int_equal(k->args[1].size, sizeof s);
    memcpy(args + k->args[1].offset, &s, sizeof s);
    memcpy(args + k->args[2].offset, v, sizeof v);
    memcpy(args + k->args[3].offset, &c, 1);
    memcpy(args + k->args[4].offset, &ptab, 8);
    memcpy(args + k->args[5].offset, &scratch_offset, 8);
    memcpy(args + k->args[6].offset, &none, 8);
    run(fn, args, 1, global, local, offset, 64 + 8 * sizeof(int));
    for (int i = 0; i < 32; i++)
        assert_int_equal(out[i], 11 + 2 + 3 + 400 + 5 + 6 + i + tab[i % 4] + 1000);
    int a;
    memcpy(&a, args + k->args[1].offset, sizeof a);
    assert_int_equal(a, 10);
    free(args);
    lanes_program_module_free(m);
}

/*
 * Barriers across the work-items of a work-group: a tree reduction in local
 * memory with a barrier in a loop whose trip count depends on the data (but
 * is the same for the whole group), then a transpose through local memory.
 */
static void barriers(void **state)
{
    (void)state;
    const char *src = "kernel void reduce(global const int *in, global int *out, local int *tmp,\n"
                      "                   global const int *rounds) {\n"
                      "    size_t l = get_local_id(0), n = get_local_size(0);\n"
                      "    int acc = 0;\n"
                      "    for (int r = 0; r < rounds[get_group_id(0)]; r++) {\n"
                      "        tmp[l] = in[get_global_id(0)] + r;\n"
                      "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "        for (size_t s = n / 2; s > 0; s /= 2) {\n"
                      "            if (l < s) tmp[l] += tmp[l + s];\n"
                      "            barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "        }\n"
                      "        acc += tmp[0];\n"
                      "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "    }\n"
                      "    out[get_global_id(0)] = acc;\n"
                      "}\n";
    uint64_t local[3] = {16, 1, 1}, global[3] = {64, 1, 1}, offset[3] = {0};
    struct lanes_program_module *m;
    char *log;
    lanes_launcher_fn fn = build(src, "", 1, local, &m, &log);
    if (!fn)
        fail_msg("%s", log);
    int in[64], out[64], rounds[4] = {1, 3, 0, 2};
    for (int i = 0; i < 64; i++)
        in[i] = i * 7 - 100;
    const int *pin = in, *prounds = rounds;
    int *pout = out;
    uint64_t tmp = 0;
    unsigned char args[32];
    memcpy(args, &pin, 8);
    memcpy(args + 8, &pout, 8);
    memcpy(args + 16, &tmp, 8);
    memcpy(args + 24, &prounds, 8);
    run(fn, args, 1, global, local, offset, 16 * sizeof(int));
    for (int g = 0; g < 4; g++) {
        int expect = 0;
        for (int r = 0; r < rounds[g]; r++)
            for (int i = 0; i < 16; i++)
                expect += in[16 * g + i] + r;
        for (int i = 0; i < 16; i++)
            assert_int_equal(out[16 * g + i], expect);
    }
    lanes_program_module_free(m);

    const char *transpose = "kernel void t(global const float *in, global float *out) {\n"
                            "    local float tile[8][9];\n"
                            "    size_t x = get_local_id(0), y = get_local_id(1);\n"
                            "    size_t gx = get_group_id(0) * 8, gy = get_group_id(1) * 8;\n"
                            "    size_t w = get_global_size(0), h = get_global_size(1);\n"
                            "    tile[y][x] = in[(gy + y) * w + gx + x];\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    out[(gx + y) * h + gy + x] = tile[x][y];\n"
                            "}\n";
    uint64_t l2[3] = {8, 8, 1}, g2[3] = {32, 16, 1};
    fn = build(transpose, "", 2, l2, &m, &log);
    if (!fn)
        fail_msg("%s", log);
    float a[32 * 16], t[16 * 32];
    for (int i = 0; i < 32 * 16; i++)
        a[i] = (float)i;
    const float *pa = a;
    float *pt = t;
    memcpy(args, &pa, 8);
    memcpy(args + 8, &pt, 8);
    run(fn, args, 2, g2, l2, offset, m->kernels[0].local_mem_size);
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 32; x++)
            assert_float_equal(t[x * 16 + y], a[y * 32 + x], 0.0f);
    lanes_program_module_free(m);
}

/* The log explains what cannot build instead of failing later. */
static void refusals_are_explained(void **state)
{
    (void)state;
    /*
     * Overloadable, hence mangled, as a built-in missing from the library
     * would be: the build fails, naming it, before any launcher is built.
     */
    static const char src[] = "float __attribute__((overloadable)) no_such_function(float);\n"
                              "kernel void s(global float *x) { x[0] = no_such_function(x[1]); }";
    struct lanes_options o;
    assert_int_equal(lanes_options_parse("", LANES_OPTIONS_BUILD, versions, 2, &o), 0);
    struct lanes_language lang = {.features = features, .num_features = 1};
    char *log = NULL;
    struct lanes_program_module *m = lanes_program_build(src, strlen(src), &o, &lang, &log);
    lanes_options_free(&o);
    assert_null(m);
    assert_non_null(log);
    assert_non_null(strstr(log, "_Z16no_such_functionf"));
    free(log);
}

/* Runs a 1-D launcher of `k(global int *o)` over 8 work-items in one group. */
static void run_fill(lanes_launcher_fn fn, const struct lanes_program_module *m, int *out)
{
    unsigned char args[64] = {0};
    memcpy(args + m->kernels[0].args[0].offset, &out, sizeof out);
    uint64_t local[3] = {8, 1, 1}, global[3] = {8, 1, 1}, offset[3] = {0};
    run(fn, args, 1, global, local, offset, 0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], 5 * i + 8);
}

/*
 * A launcher's code is loaded once for identical programs, stays while one
 * of them holds it, goes with the last reference and loads again after.
 */
static void code_is_shared_and_unloaded(void **state)
{
    (void)state;
    const char *src = "kernel void k(global int *o) {\n"
                      "    o[get_global_id(0)] = 5 * (int)get_global_id(0) + get_local_size(0);\n"
                      "}\n";
    uint64_t other[3] = {4, 1, 1}; /* build()'s launcher, kept for ever (no reference taken) */
    struct lanes_program_module *m2;
    char *log = NULL;
    build(src, "", 1, other, &m2, &log);
    free(log);
    struct lanes_specialization spec = {.local_size = {8, 1, 1}, .work_dim = 1, .width = 1};
    size_t before = lanes_jit_loaded();
    struct lanes_launcher l1, l2, l3;
    lanes_launcher_fn f1 = lanes_launcher_build(m2, &m2->kernels[0], &spec, &l1, &log);
    assert_non_null(f1);
    assert_non_null(l1.code);
    assert_int_equal(lanes_jit_loaded(), before + 1);
    /* Its frames, from the object's stack sizes: some, and far below a worker's stack. */
    assert_true(l1.stack_bytes < 4096); /* from the object's stack sizes (0 if a leaf) */
    struct lanes_program_module *m3;
    build(src, "", 1, other, &m3, &log); /* identical to m2 */
    free(log);
    lanes_launcher_fn f2 = lanes_launcher_build(m2, &m2->kernels[0], &spec, &l2, &log);
    lanes_launcher_fn f3 = lanes_launcher_build(m3, &m3->kernels[0], &spec, &l3, &log);
    assert_ptr_equal(f2, f1);
    assert_ptr_equal(f3, f1);
    assert_ptr_equal(l2.code, l1.code);
    assert_ptr_equal(l3.code, l1.code);
    assert_int_equal(lanes_jit_loaded(), before + 1);
    int out[8];
    lanes_jit_release(l1.code);
    lanes_jit_release(l2.code);
    lanes_program_module_free(m2);
    run_fill(f3, m3, out); /* still loaded for m3 */
    lanes_jit_release(l3.code);
    assert_int_equal(lanes_jit_loaded(), before);
    /* Loaded again (from the disk cache or compiled), under the same symbol. */
    lanes_launcher_fn f4 = lanes_launcher_build(m3, &m3->kernels[0], &spec, &l3, &log);
    if (!f4)
        fail_msg("%s", log);
    assert_int_equal(lanes_jit_loaded(), before + 1);
    memset(out, 0, sizeof out);
    run_fill(f4, m3, out);
    lanes_jit_release(l3.code);
    assert_int_equal(lanes_jit_loaded(), before);
    lanes_program_module_free(m3);
}

/*
 * Programs that differ, but not in what their kernel compiles to (here in a
 * kernel it does not call), share one compile and one copy of the code.
 */
static void identical_modules_share_code(void **state)
{
    (void)state;
    const char *a = "kernel void k(global int *o) { o[get_global_id(0)] = 7; }\n"
                    "kernel void other(global int *o) { o[0] = 1; }\n";
    const char *b = "kernel void k(global int *o) { o[get_global_id(0)] = 7; }\n"
                    "kernel void other(global int *o) { o[1] = 2; }\n";
    uint64_t local[3] = {1, 1, 1};
    struct lanes_program_module *ma, *mb;
    char *log = NULL;
    build(a, "", 1, local, &ma, &log);
    free(log);
    build(b, "", 1, local, &mb, &log);
    free(log);
    struct lanes_specialization spec = {.local_size = {4, 1, 1}, .work_dim = 1, .width = 1};
    size_t before = lanes_jit_loaded();
    struct lanes_launcher la, lb;
    lanes_launcher_fn fa = lanes_launcher_build(ma, &ma->kernels[0], &spec, &la, &log);
    free(log);
    lanes_launcher_fn fb = lanes_launcher_build(mb, &mb->kernels[0], &spec, &lb, &log);
    free(log);
    assert_non_null(fa);
    assert_ptr_equal(fb, fa);
    assert_ptr_equal(lb.code, la.code);
    assert_int_equal(lanes_jit_loaded(), before + 1);
    int out[4] = {0}, *p = out;
    unsigned char args[64] = {0};
    memcpy(args + mb->kernels[0].args[0].offset, &p, sizeof p);
    uint64_t size[3] = {4, 1, 1}, offset[3] = {0};
    run(fb, args, 1, size, size, offset, 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], 7);
    lanes_jit_release(la.code);
    lanes_jit_release(lb.code);
    assert_int_equal(lanes_jit_loaded(), before);
    lanes_program_module_free(ma);
    lanes_program_module_free(mb);
}

/* A launcher's stack use counts its private memory, which the runtime sizes stacks by. */
static void stack_bytes_count_private_memory(void **state)
{
    (void)state;
    const char *src = "kernel void k(global int *o) {\n"
                      "    int a[4096];\n"
                      "    for (int j = 0; j < 4096; j++) a[j] = o[j];\n"
                      "    o[get_global_id(0)] = a[o[4096] & 4095];\n"
                      "}\n";
    uint64_t local[3] = {1, 1, 1};
    struct lanes_program_module *m;
    char *log = NULL;
    build(src, "", 1, local, &m, &log);
    free(log);
    struct lanes_specialization spec = {.local_size = {2, 1, 1}, .work_dim = 1, .width = 1};
    struct lanes_launcher l;
    assert_non_null(lanes_launcher_build(m, &m->kernels[0], &spec, &l, &log));
    assert_true(l.stack_bytes >= 4096 * sizeof(int) && l.stack_bytes < 5 * 4096);
    lanes_jit_release(l.code);
    lanes_program_module_free(m);
}

/* Two threads loading and unloading one launcher: each load finds it loaded or loads it anew. */
struct churn {
    struct lanes_program_module *m;
    int failures;
    char *log;
};

static void *churn_thread(void *arg)
{
    struct churn *c = arg;
    struct lanes_specialization spec = {.local_size = {16, 1, 1}, .work_dim = 1, .width = 1};
    for (int i = 0; i < 2000 && !c->failures; i++) {
        struct lanes_launcher l;
        char *log = NULL;
        if (!lanes_launcher_build(c->m, &c->m->kernels[0], &spec, &l, &log)) {
            c->failures++;
            c->log = log;
            break;
        }
        free(log);
        lanes_jit_release(l.code);
    }
    return NULL;
}

static void loads_race_unloads(void **state)
{
    (void)state;
    const char *src = "kernel void k(global int *o) { o[get_global_id(0)] = 3; }\n";
    uint64_t local[3] = {1, 1, 1};
    struct lanes_program_module *m;
    char *log = NULL;
    build(src, "", 1, local, &m, &log);
    free(log);
    struct churn c[2] = {{.m = m}, {.m = m}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, churn_thread, &c[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++)
        if (c[i].failures)
            fail_msg("%s", c[i].log ? c[i].log : "no log");
    lanes_program_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_dimension_non_uniform),
        cmocka_unit_test(three_dimensions),
        cmocka_unit_test(argument_kinds),
        cmocka_unit_test(barriers),
        cmocka_unit_test(refusals_are_explained),
        cmocka_unit_test(code_is_shared_and_unloaded),
        cmocka_unit_test(identical_modules_share_code),
        cmocka_unit_test(stack_bytes_count_private_memory),
        cmocka_unit_test(loads_race_unloads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
