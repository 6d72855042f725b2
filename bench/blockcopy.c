/* SPDX-License-Identifier: MIT */
/*
 * A copy written with Intel's block reads and writes
 * (intel_sub_group_block_read8 / _write8 on __global uint: each sub-group
 * moves 8 x W uints per step, a block of 64 KiB in all), 256 MiB, on every
 * platform the loader lists that offers cl_intel_subgroups, median of 7
 * runs after a warm-up, beside a plain C copy of the same buffers with one
 * pinned thread per CPU of the affinity mask (memcpy of one contiguous
 * chunk each, thread creation timed as launching is in a kernel's). GB/s
 * counts the bytes read and written; the copy is checked.
 */
#include "bench_common.h"
#include "bench_pinned.h"

enum { RUNS = 7 };
#define N ((size_t)64 << 20)   /* uints: 256 MiB */
#define PER_SG ((size_t)16384) /* uints per sub-group: 64 KiB */

static const char *src =
    "kernel void copy(global uint *out, global const uint *in) {\n"
    "    size_t sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();\n"
    "    uint w = get_max_sub_group_size();\n"
    "    size_t base = sg * 16384;\n"
    "    for (uint k = 0; k < 16384; k += 8 * w) {\n"
    "        uint8 v = intel_sub_group_block_read8(in + base + k);\n"
    "        intel_sub_group_block_write8(out + base + k, v);\n"
    "    }\n"
    "}\n";

static double gbs(double s)
{
    return 2.0 * N * sizeof(cl_uint) / s / 1e9;
}

static void run(const struct bench_target *t, const cl_uint *host, double c_gbs)
{
    if (!bench_has_extension(t->device, "cl_intel_subgroups")) {
        printf("  %-28s skipped: no cl_intel_subgroups\n", t->name);
        return;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "-cl-std=CL3.0", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "copy", &err);
    BENCH_CHECK(err);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(cl_uint),
                               (void *)host, &err);
    BENCH_CHECK(err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(cl_uint), NULL, &err);
    BENCH_CHECK(err);
    BENCH_CHECK(clSetKernelArg(k, 0, sizeof out, &out));
    BENCH_CHECK(clSetKernelArg(k, 1, sizeof in, &in));
    size_t local = 64, sg = 0;
    BENCH_CHECK(clGetKernelSubGroupInfo(k, t->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                        sizeof local, &local, sizeof sg, &sg, NULL));
    size_t global = N / PER_SG * sg;
    double s = bench_time_kernel(q, k, RUNS, 1, &global, &local);
    cl_uint *back = malloc(N * sizeof(cl_uint));
    if (!back)
        exit(1);
    BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, N * sizeof(cl_uint), back, 0, NULL, NULL));
    printf("  %-28s ", t->name);
    if (memcmp(back, host, N * sizeof(cl_uint)) != 0)
        printf("MISMATCH: the copy differs (sub-group size %zu)\n", sg);
    else
        printf("%7.2f GB/s %6.1f%% of the C copy (sub-group size %zu)\n", gbs(s),
               100 * gbs(s) / c_gbs, sg);
    if (!memcmp(back, host, N * sizeof(cl_uint)))
        bench_result("blockcopy", "block read/write copy", t->name, gbs(s), "GB/s");
    free(back);
    clReleaseMemObject(in), clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

struct chunk {
    cl_uint *out;
    const cl_uint *in;
    size_t n;
};

static void *copy_chunk(void *arg)
{
    struct chunk *c = arg;
    memcpy(c->out, c->in, c->n * sizeof(cl_uint));
    return NULL;
}

/* The C copy's GB/s, median of RUNS after a warm-up. */
static double host_copy(const cl_uint *in)
{
    cl_uint *out = malloc(N * sizeof(cl_uint));
    if (!out)
        exit(1);
    int cpus[CPU_SETSIZE], threads = bench_cpus(cpus);
    struct chunk chunk[CPU_SETSIZE];
    size_t per = N / (size_t)threads;
    for (int j = 0; j < threads; j++)
        chunk[j] =
            (struct chunk){out + j * per, in + j * per, j == threads - 1 ? N - j * per : per};
    double t[RUNS];
    for (int r = -1; r < RUNS; r++) {
        double t0 = bench_now_us();
        bench_run_pinned(copy_chunk, chunk, sizeof *chunk, cpus, threads);
        if (r >= 0)
            t[r] = (bench_now_us() - t0) / 1e6;
    }
    double g = gbs(bench_median(t, RUNS));
    bench_result("blockcopy", "block read/write copy", "C loop", g, "GB/s");
    printf("  %-28s %7.2f GB/s (memcpy, %d thread%s)%s\n", "plain C copy", g, threads,
           threads > 1 ? "s" : "", memcmp(out, in, N * sizeof(cl_uint)) ? " WRONG" : "");
    free(out);
    return g;
}

int main(void)
{
    cl_uint *in = malloc(N * sizeof(cl_uint));
    if (!in)
        return 1;
    for (size_t i = 0; i < N; i++)
        in[i] = (cl_uint)(i * 2654435761u);
    printf("block copy, median of %d (256 MiB with intel_sub_group_block_read8 / _write8, "
           "64 KiB per sub-group, groups of 64)\n",
           RUNS);
    double c_gbs = host_copy(in);
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    for (size_t i = 0; i < n; i++)
        run(&t[i], in, c_gbs);
    free(in);
    return 0;
}
