/* SPDX-License-Identifier: MIT */
/*
 * Memory throughput of two kernels on every platform the loader lists,
 * medians of 7 runs after a warm-up:
 * - streaming: out[i] = a * x[i] + y[i] over 256 MiB arrays, beside the same
 *   loop in plain C on the host (one thread);
 * - barrier-heavy: a tiled transpose through local memory, work-groups of
 *   16 x 16 = 256 with a barrier between the load and the store.
 * GB/s counts the bytes the kernel must read and write.
 */
#include "bench_common.h"

enum { RUNS = 7 };
#define N ((size_t)64 << 20) /* floats: 256 MiB per array */
#define SIDE 4096            /* transpose: 4096 x 4096 floats, 64 MiB */

static const char *src =
    "kernel void saxpy(global float *out, global const float *x, global const float *y,\n"
    "                  float a) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = a * x[i] + y[i];\n"
    "}\n"
    "kernel void transpose(global float *out, global const float *in, int side) {\n"
    "    local float tile[16][17];\n"
    "    int lx = get_local_id(0), ly = get_local_id(1);\n"
    "    int gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;\n"
    "    tile[ly][lx] = in[(gy + ly) * side + gx + lx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[(gx + ly) * side + gy + lx] = tile[lx][ly];\n"
    "}\n";

static void run(const struct bench_target *t)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, NULL, NULL, NULL));
    cl_kernel saxpy = clCreateKernel(p, "saxpy", &err), tr = clCreateKernel(p, "transpose", &err);
    BENCH_CHECK(err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
    cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
    cl_mem y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
    BENCH_CHECK(err);
    float one = 1.0f, a = 2.0f;
    BENCH_CHECK(clEnqueueFillBuffer(q, x, &one, sizeof one, 0, N * sizeof(float), 0, NULL, NULL));
    BENCH_CHECK(clEnqueueFillBuffer(q, y, &one, sizeof one, 0, N * sizeof(float), 0, NULL, NULL));
    BENCH_CHECK(clSetKernelArg(saxpy, 0, sizeof out, &out));
    BENCH_CHECK(clSetKernelArg(saxpy, 1, sizeof x, &x));
    BENCH_CHECK(clSetKernelArg(saxpy, 2, sizeof y, &y));
    BENCH_CHECK(clSetKernelArg(saxpy, 3, sizeof a, &a));
    size_t global = N, local = 256;
    double s = bench_time_kernel(q, saxpy, RUNS, 1, &global, &local);
    float check;
    BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 4 * sizeof(float), sizeof check, &check, 0,
                                    NULL, NULL));
    int side = SIDE;
    BENCH_CHECK(clSetKernelArg(tr, 0, sizeof out, &out));
    BENCH_CHECK(clSetKernelArg(tr, 1, sizeof x, &x));
    BENCH_CHECK(clSetKernelArg(tr, 2, sizeof side, &side));
    size_t g2[2] = {SIDE, SIDE}, l2[2] = {16, 16};
    double tt = bench_time_kernel(q, tr, RUNS, 2, g2, l2);
    printf("  %-28s saxpy %7.2f GB/s%s   transpose %7.2f GB/s\n", t->name,
           3.0 * N * sizeof(float) / s / 1e9, check == 3.0f ? "" : " (WRONG RESULT)",
           2.0 * SIDE * SIDE * sizeof(float) / tt / 1e9);
    if (check == 3.0f)
        bench_result("throughput", "saxpy", t->name, 3.0 * N * sizeof(float) / s / 1e9, "GB/s");
    bench_result("throughput", "transpose", t->name, 2.0 * SIDE * SIDE * sizeof(float) / tt / 1e9,
                 "GB/s");
    clReleaseMemObject(out), clReleaseMemObject(x), clReleaseMemObject(y);
    clReleaseKernel(saxpy), clReleaseKernel(tr);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

/* The same streaming loop in plain C, one host thread. */
static void host_loop(void)
{
    float *out = malloc(N * sizeof(float)), *x = malloc(N * sizeof(float)),
          *y = malloc(N * sizeof(float));
    if (!out || !x || !y)
        exit(1);
    for (size_t i = 0; i < N; i++)
        x[i] = y[i] = 1.0f, out[i] = 0.0f;
    double t[RUNS];
    for (int r = -1; r < RUNS; r++) {
        double t0 = bench_now_us();
        for (size_t i = 0; i < N; i++)
            out[i] = 2.0f * x[i] + y[i];
        if (r >= 0)
            t[r] = (bench_now_us() - t0) / 1e6;
    }
    double g = 3.0 * N * sizeof(float) / bench_median(t, RUNS) / 1e9;
    printf("  %-28s saxpy %7.2f GB/s (check %.0f)\n", "plain C loop, one thread", g, out[N / 2]);
    bench_result("throughput", "saxpy", "C loop", g, "GB/s");
    free(out), free(x), free(y);
}

int main(void)
{
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    printf("throughput, median of %d (saxpy: 3 x 256 MiB; transpose: 2 x 64 MiB, groups of 256)\n",
           RUNS);
    host_loop();
    for (size_t i = 0; i < n; i++)
        run(&t[i]);
    return 0;
}
