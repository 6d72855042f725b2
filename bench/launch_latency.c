/* SPDX-License-Identifier: MIT */
/*
 * Launch latency: clEnqueueNDRangeKernel + clFinish of an empty kernel with
 * a global size of 1, on every platform the loader lists; median of many
 * runs after a warm-up, and each platform's ratio to the first.
 */
#include "bench_common.h"

enum { WARMUP = 200, RUNS = 5000 };

static double latency_us(const struct bench_target *t)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    const char *src = "kernel void empty(global int *x) { }";
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "empty", &err);
    BENCH_CHECK(err);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    BENCH_CHECK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t one = 1;
    static double samples[RUNS];
    for (int i = 0; i < WARMUP + RUNS; i++) {
        double t0 = bench_now_us();
        BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
        BENCH_CHECK(clFinish(q));
        if (i >= WARMUP)
            samples[i - WARMUP] = bench_now_us() - t0;
    }
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return bench_median(samples, RUNS);
}

int main(void)
{
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    if (!n) {
        fprintf(stderr, "no OpenCL platform\n");
        return 1;
    }
    printf("launch latency (enqueue + finish, global size 1), median of %d\n", RUNS);
    double first = 0;
    for (size_t i = 0; i < n; i++) {
        double us = latency_us(&t[i]);
        if (i == 0)
            first = us;
        printf("  %-24s %8.2f us   x%.2f of %s\n", t[i].name, us, us / first, t[0].name);
        bench_result("launch_latency", "enqueue + finish", t[i].name, us, "us");
    }
    return 0;
}
