/* SPDX-License-Identifier: MIT */
/*
 * Loops of atomics, the loops independent forward progress puts yield
 * points on (compiler/yield.c) and those it leaves alone, on every platform
 * the loader lists; medians of 9 after a warm-up, in ns per work-item:
 * - cas global: 16 Mi work-items in groups of 256 each add a float into one
 *   of 64 __global sums with a compare-exchange loop (its condition reads
 *   the value the exchange returned: a yield point on Lanes);
 * - cas local: the same into one __local sum per work-group, between two
 *   barriers (a coroutine already; the loop's yield joins the barriers');
 * - inc loop: 64 Ki work-items, each a grid-strided loop of atomic_inc over
 *   16 Mi words into 1,024 __global bins (its condition reads nothing the
 *   atomics return: no yield point);
 * - hand-off: groups of 256; the sub-groups of a work-group take turns in
 *   reverse order, each spinning on a __local counter until the one after
 *   it has added its work-items' values and moved the counter on. Without
 *   independent forward progress the first sub-group spins for ever, so
 *   only devices that report CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS
 *   and list cl_khr_subgroups run it.
 * Every result is checked on the host.
 */
#include "bench_common.h"

#include <stdbool.h>

enum { RUNS = 9, LOCAL = 256, SUMS = 64, BINS = 1024 };
#define N ((size_t)16 << 20)
#define INC_ITEMS ((size_t)64 << 10)

static const char *src =
    "kernel void cas_global(global float *sum, global const float *x) {\n"
    "    float v = x[get_global_id(0)];\n"
    "    volatile global int *p = (volatile global int *)&sum[get_group_id(0) & 63];\n"
    "    int old = *p, assumed;\n"
    "    do {\n"
    "        assumed = old;\n"
    "        old = atomic_cmpxchg(p, assumed, as_int(as_float(assumed) + v));\n"
    "    } while (old != assumed);\n"
    "}\n"
    "kernel void cas_local(global float *sum, global const float *x) {\n"
    "    local float s;\n"
    "    if (get_local_id(0) == 0)\n"
    "        s = 0.0f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float v = x[get_global_id(0)];\n"
    "    volatile local int *p = (volatile local int *)&s;\n"
    "    int old = *p, assumed;\n"
    "    do {\n"
    "        assumed = old;\n"
    "        old = atomic_cmpxchg(p, assumed, as_int(as_float(assumed) + v));\n"
    "    } while (old != assumed);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0)\n"
    "        sum[get_group_id(0)] = s;\n"
    "}\n"
    "kernel void inc_loop(global uint *bins, global const float *x, uint n) {\n"
    "    for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "        atomic_inc(&bins[(uint)x[i] & 1023u]);\n"
    "}\n"
    "#ifdef cl_khr_subgroups\n"
    "kernel void hand_off(global float *sum, global const float *x) {\n"
    "    local uint turn;\n"
    "    local float s;\n"
    "    if (get_local_id(0) == 0) {\n"
    "        turn = 0;\n"
    "        s = 0.0f;\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    uint mine = get_num_sub_groups() - 1 - get_sub_group_id();\n"
    "    while (atomic_add(&turn, 0u) != mine)\n"
    "        ;\n"
    "    float v = sub_group_reduce_add(x[get_global_id(0)]);\n"
    "    if (get_sub_group_local_id() == 0) {\n"
    "        s += v;\n"
    "        atomic_inc(&turn);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_local_id(0) == 0)\n"
    "        sum[get_group_id(0)] = s;\n"
    "}\n"
    "#endif\n";

/* x[i]: small integers, so that float sums are exact in any order. */
static float value(size_t i)
{
    return (float)(i % 7);
}

static double run_kernel(cl_command_queue q, cl_kernel k, cl_mem out, size_t out_bytes,
                         size_t global)
{
    size_t local = LOCAL;
    double t[RUNS];
    for (int r = -1; r < RUNS; r++) {
        cl_uint zero = 0;
        BENCH_CHECK(clEnqueueFillBuffer(q, out, &zero, sizeof zero, 0, out_bytes, 0, NULL, NULL));
        BENCH_CHECK(clFinish(q));
        double t0 = bench_now_us();
        BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
        BENCH_CHECK(clFinish(q));
        if (r >= 0)
            t[r] = (bench_now_us() - t0) * 1e3 / (double)global; /* ns per work-item */
    }
    return bench_median(t, RUNS);
}

/* Whether the sums out[0..n) are those of x over each work-group (or group & 63, `folded`). */
static bool check_sums(const float *got, size_t n, bool folded)
{
    size_t groups = N / LOCAL;
    double *want = calloc(groups, sizeof *want);
    if (!want)
        exit(1);
    for (size_t g = 0; g < groups; g++)
        for (size_t i = g * LOCAL; i < (g + 1) * LOCAL; i++)
            want[folded ? g % SUMS : g] += value(i);
    bool ok = true;
    for (size_t s = 0; s < n; s++)
        ok &= (double)got[s] == want[s];
    free(want);
    return ok;
}

static void run(const struct bench_target *t, cl_mem_flags flags, const float *x_host)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "-cl-std=CL3.0", NULL, NULL));
    cl_mem x = clCreateBuffer(ctx, flags, N * sizeof(float), (void *)x_host, &err);
    BENCH_CHECK(err);
    size_t out_words = N / LOCAL > BINS ? N / LOCAL : BINS;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, out_words * 4, NULL, &err);
    BENCH_CHECK(err);
    float *got = malloc(out_words * 4);
    if (!got)
        exit(1);

    cl_bool ifp = CL_FALSE;
    clGetDeviceInfo(t->device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof ifp, &ifp,
                    NULL);
    bool hand_off = ifp && bench_has_extension(t->device, "cl_khr_subgroups");
    const char *names[] = {"cas_global", "cas_local", "inc_loop", "hand_off"};
    const char *what[] = {"cas global", "cas local", "inc loop", "hand-off"};
    for (int k = 0; k < 4; k++) {
        if (k == 3 && !hand_off) {
            printf("  %-12s %-12s  (no independent forward progress)\n", t->name, what[k]);
            continue;
        }
        cl_kernel kk = clCreateKernel(p, names[k], &err);
        BENCH_CHECK(err);
        BENCH_CHECK(clSetKernelArg(kk, 0, sizeof out, &out));
        BENCH_CHECK(clSetKernelArg(kk, 1, sizeof x, &x));
        size_t global = N;
        if (k == 2) {
            cl_uint n = (cl_uint)N;
            BENCH_CHECK(clSetKernelArg(kk, 2, sizeof n, &n));
            global = INC_ITEMS;
        }
        double ns = run_kernel(q, kk, out, out_words * 4, global);
        BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, out_words * 4, got, 0, NULL, NULL));
        bool ok;
        if (k == 2) {
            uint32_t bins[BINS] = {0};
            for (size_t i = 0; i < N; i++)
                bins[(uint32_t)value(i) & (BINS - 1)]++;
            ok = memcmp(bins, got, sizeof bins) == 0;
        } else {
            ok = check_sums(got, k == 0 ? SUMS : N / LOCAL, k == 0);
        }
        printf("  %-12s %-12s %8.2f ns per work-item%s\n", t->name, what[k], ns,
               ok ? "" : "  WRONG RESULT");
        if (ok)
            bench_result("atomic_loops", what[k], t->name, ns, "ns");
        clReleaseKernel(kk);
    }
    bench_print_not_vectorized(p, t->device, t->name);
    free(got);
    clReleaseMemObject(out);
    clReleaseMemObject(x);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    float *x = malloc(N * sizeof *x);
    if (!x)
        return 1;
    for (size_t i = 0; i < N; i++)
        x[i] = value(i);
    printf("atomic_loops, median of %d (ns per work-item; groups of %d; see bench/README.md)\n",
           RUNS, LOCAL);
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    for (size_t i = 0; i < n; i++)
        run(&t[i], CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, x);
    free(x);
    return 0;
}
