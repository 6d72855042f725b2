/* SPDX-License-Identifier: MIT */
/*
 * What a new specialization costs, on every platform the loader lists, in a
 * fresh disk cache (XDG_CACHE_HOME is pointed at a new directory before any
 * OpenCL call, so Lanes' cache starts cold):
 * - first launch: enqueue + finish of a small kernel at a local size it has
 *   not run with (each compiles a specialization), median over 20 local
 *   sizes, beside the second launch of the same shape;
 * - queries meanwhile: another thread calls clGetProgramInfo on the same
 *   program in a loop while 20 more new shapes (or more, for 0.2 s at
 *   least) launch twice each; the median and the longest wait of one call;
 * - build plus first launch: clBuildProgram of a program and the first
 *   launch of its kernel, cold (a kernel no cache has seen: a unique
 *   constant in its code) and warm (the same source again in a new program
 *   object), median of 7.
 */
#include "bench_common.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

enum { SHAPES = 20 };

static const char *src = "kernel void axpy(global float *y, global const float *x, float a) {\n"
                         "    size_t i = get_global_id(0);\n"
                         "    y[i] = a * x[i] + y[i];\n"
                         "}\n";

struct query_thread {
    cl_program program;
    atomic_int stop;
    double longest_us, samples[1 << 16];
    size_t n;
};

static void *query_loop(void *arg)
{
    struct query_thread *q = arg;
    while (!atomic_load(&q->stop)) {
        cl_uint kernels = 0;
        double t0 = bench_now_us();
        clGetProgramInfo(q->program, CL_PROGRAM_NUM_KERNELS, sizeof(size_t), &kernels, NULL);
        double us = bench_now_us() - t0;
        if (us > q->longest_us)
            q->longest_us = us;
        if (q->n < sizeof q->samples / sizeof *q->samples)
            q->samples[q->n++] = us;
    }
    return NULL;
}

/* Launches `k` with local size `local` (global 4 x local); the wall time in ms. */
static double launch_ms(cl_command_queue q, cl_kernel k, size_t local)
{
    size_t global = 4 * local;
    double t0 = bench_now_us();
    BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    BENCH_CHECK(clFinish(q));
    return (bench_now_us() - t0) / 1e3;
}

/* clBuildProgram of `text` and the first launch of its kernel (local size 64); ms. */
static double build_and_launch_ms(cl_context ctx, cl_command_queue q, cl_device_id dev,
                                  const char *text)
{
    cl_int err;
    double t0 = bench_now_us();
    cl_program p = clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    BENCH_CHECK(err);
    BENCH_CHECK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "axpy", &err);
    BENCH_CHECK(err);
    cl_mem y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(float), NULL, &err);
    cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(float), NULL, &err);
    BENCH_CHECK(err);
    float a = 2.0f;
    BENCH_CHECK(clSetKernelArg(k, 0, sizeof y, &y));
    BENCH_CHECK(clSetKernelArg(k, 1, sizeof x, &x));
    BENCH_CHECK(clSetKernelArg(k, 2, sizeof a, &a));
    size_t global = 256, local = 64;
    BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    BENCH_CHECK(clFinish(q));
    double ms = (bench_now_us() - t0) / 1e3;
    clReleaseMemObject(x), clReleaseMemObject(y);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return ms;
}

static void run(const struct bench_target *t, size_t *next_local)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "axpy", &err);
    BENCH_CHECK(err);
    size_t max_local = 0;
    BENCH_CHECK(clGetKernelWorkGroupInfo(k, t->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_local,
                                         &max_local, NULL));
    cl_mem y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * max_local * sizeof(float), NULL, &err);
    cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * max_local * sizeof(float), NULL, &err);
    BENCH_CHECK(err);
    float a = 2.0f, zero = 0.0f;
    BENCH_CHECK(clEnqueueFillBuffer(q, y, &zero, sizeof zero, 0, 4 * max_local * sizeof(float), 0,
                                    NULL, NULL));
    BENCH_CHECK(clEnqueueFillBuffer(q, x, &zero, sizeof zero, 0, 4 * max_local * sizeof(float), 0,
                                    NULL, NULL));
    BENCH_CHECK(clSetKernelArg(k, 0, sizeof y, &y));
    BENCH_CHECK(clSetKernelArg(k, 1, sizeof x, &x));
    BENCH_CHECK(clSetKernelArg(k, 2, sizeof a, &a));
    double first[SHAPES], second[SHAPES];
    for (int s = 0; s < SHAPES; s++) {
        size_t local = (*next_local)++ % max_local + 1;
        first[s] = launch_ms(q, k, local);
        second[s] = launch_ms(q, k, local);
    }
    static struct query_thread qt;
    qt = (struct query_thread){.program = p};
    pthread_t tid;
    if (pthread_create(&tid, NULL, query_loop, &qt) != 0)
        exit(1);
    /* Each new shape twice (Lanes compiles its own launcher meanwhile), for 0.2 s at least. */
    double start = bench_now_us();
    for (int s = 0; s < SHAPES || bench_now_us() - start < 2e5; s++) {
        size_t local = (*next_local)++ % max_local + 1;
        launch_ms(q, k, local);
        launch_ms(q, k, local);
    }
    atomic_store(&qt.stop, 1);
    pthread_join(tid, NULL);
    bench_result("first_launch", "first launch", t->name, bench_median(first, SHAPES), "ms");
    bench_result("first_launch", "query during a first launch, longest", t->name,
                 qt.longest_us / 1e3, "ms");
    printf("  %-28s first launch %7.2f ms   second %6.3f ms   clGetProgramInfo meanwhile: "
           "median %.1f us, longest %.1f ms (%zu calls)\n",
           t->name, bench_median(first, SHAPES), bench_median(second, SHAPES),
           qt.n ? bench_median(qt.samples, qt.n) : 0.0, qt.longest_us / 1e3, qt.n);
    clReleaseMemObject(x), clReleaseMemObject(y);
    clReleaseKernel(k);
    clReleaseProgram(p);

    /* Build plus first launch, cold and warm. */
    double cold[7], warm[7];
    for (int r = 0; r < 7; r++) {
        /* A constant no cache has seen in the kernel's code: Clang and the JIT both run. */
        char text[512];
        snprintf(text, sizeof text,
                 "kernel void axpy(global float *y, global const float *x, float a) {\n"
                 "    size_t i = get_global_id(0);\n"
                 "    y[i] = a * x[i] + y[i] + %ld.%d;\n"
                 "}\n",
                 (long)getpid(), (int)(bench_now_us()) % 1000000 * 10 + r);
        cold[r] = build_and_launch_ms(ctx, q, t->device, text);
        warm[r] = build_and_launch_ms(ctx, q, t->device, text);
    }
    double c = bench_median(cold, 7), w = bench_median(warm, 7);
    printf("  %-28s build + first launch: cold %7.2f ms   warm %7.2f ms\n", t->name, c, w);
    bench_result("first_launch", "build + first launch, cold", t->name, c, "ms");
    bench_result("first_launch", "build + first launch, warm", t->name, w, "ms");
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    char dir[] = "/tmp/lanes-first-launch-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    setenv("XDG_CACHE_HOME", dir, 1);
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    printf("first launches of new local sizes, median of %d shapes (cold disk cache %s)\n", SHAPES,
           dir);
    /* Local sizes no earlier run of this process used: 37, 38, ... */
    size_t next_local = 37;
    for (size_t i = 0; i < n; i++)
        run(&t[i], &next_local);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
