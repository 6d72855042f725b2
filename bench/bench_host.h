/* SPDX-License-Identifier: MIT */
/*
 * Shared by the sub-group benchmarks (reduce.c, scan.c): their input, 64 Mi
 * floats (256 MiB) of (i % 17) - 5, small integers whose sums stay exact in
 * float and in any order; the machine's read bandwidth on it, a plain C loop
 * summing it with one pinned thread per CPU of the affinity mask (8
 * independent accumulators each, thread creation timed as launching is in a
 * kernel's); and whether a device offers sub-groups.
 */
#ifndef LANES_BENCH_HOST_H
#define LANES_BENCH_HOST_H

#include "bench_common.h"
#include "bench_pinned.h"

enum { BENCH_HOST_RUNS = 7, BENCH_HOST_ACCS = 8 };
#define BENCH_HOST_N ((size_t)64 << 20) /* floats: 256 MiB */
/* C loop: floats per block, so that float partial sums stay exact. */
#define BENCH_HOST_BLOCK ((size_t)8192)

/* The input, and its exact sum in *expected. */
static float *bench_host_input(double *expected)
{
    float *x = malloc(BENCH_HOST_N * sizeof(float));
    if (!x)
        exit(1);
    *expected = 0;
    for (size_t i = 0; i < BENCH_HOST_N; i++) {
        x[i] = (float)(i % 17) - 5.0f;
        *expected += x[i];
    }
    return x;
}

/* Whether kernels built with -cl-std=CL3.0 may call the sub-group functions. */
static int bench_has_sub_groups(cl_device_id device)
{
    int found = 0;
    size_t size = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size) == CL_SUCCESS &&
        size) {
        cl_name_version *f = malloc(size);
        if (f && clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, f, NULL) == CL_SUCCESS)
            for (size_t i = 0; i < size / sizeof *f; i++)
                found |= strcmp(f[i].name, "__opencl_c_subgroups") == 0;
        free(f);
    }
    return found || bench_has_extension(device, "cl_khr_subgroups");
}

/* One C loop thread's share: floats [begin, end) of x, pinned to one CPU. */
struct bench_chunk {
    const float *x;
    size_t begin, end;
    double sum;
};

/* Sums a chunk: 8 independent float accumulators per block of BENCH_HOST_BLOCK floats,
 * so that the adds keep up with memory, then the block's sum in double. */
static void *bench_sum_chunk(void *arg)
{
    struct bench_chunk *c = arg;
    double total = 0;
    for (size_t b = c->begin; b < c->end; b += BENCH_HOST_BLOCK) {
        size_t end = b + BENCH_HOST_BLOCK < c->end ? b + BENCH_HOST_BLOCK : c->end, i = b;
        float a[BENCH_HOST_ACCS] = {0};
        for (; i + BENCH_HOST_ACCS <= end; i += BENCH_HOST_ACCS)
            for (int j = 0; j < BENCH_HOST_ACCS; j++)
                a[j] += c->x[i + j];
        for (; i < end; i++)
            a[0] += c->x[i];
        for (int j = 0; j < BENCH_HOST_ACCS; j++)
            total += a[j];
    }
    c->sum = total;
    return NULL;
}

/* The C loop's GB/s (median of BENCH_HOST_RUNS after a warm-up), printed with the best run; 0 if
 * wrong. */
static double bench_host_read_loop(const float *x, double expected)
{
    int cpu[CPU_SETSIZE], threads = bench_cpus(cpu);
    struct bench_chunk *chunk = calloc((size_t)threads, sizeof *chunk);
    if (!chunk)
        exit(1);
    size_t per = (BENCH_HOST_N / (size_t)threads + BENCH_HOST_BLOCK - 1) / BENCH_HOST_BLOCK *
                 BENCH_HOST_BLOCK; /* whole blocks */
    for (int j = 0; j < threads; j++) {
        chunk[j].x = x;
        chunk[j].begin = (size_t)j * per < BENCH_HOST_N ? (size_t)j * per : BENCH_HOST_N;
        chunk[j].end = (size_t)(j + 1) * per < BENCH_HOST_N ? (size_t)(j + 1) * per : BENCH_HOST_N;
    }
    double t[BENCH_HOST_RUNS], sum = 0;
    for (int r = -1; r < BENCH_HOST_RUNS; r++) {
        double t0 = bench_now_us();
        bench_run_pinned(bench_sum_chunk, chunk, sizeof *chunk, cpu, threads);
        sum = 0;
        for (int j = 0; j < threads; j++)
            sum += chunk[j].sum;
        if (r >= 0)
            t[r] = (bench_now_us() - t0) / 1e6;
    }
    free(chunk);
    char name[64];
    snprintf(name, sizeof name, "plain C loop, %d thread%s", threads, threads > 1 ? "s" : "");
    printf("  %-28s ", name);
    if (sum != expected) {
        printf("MISMATCH: %.1f, want %.1f\n", sum, expected);
        return 0;
    }
    double median = bench_median(t, BENCH_HOST_RUNS), best = t[0]; /* sorted by bench_median */
    double gbs = BENCH_HOST_N * sizeof(float) / median / 1e9;
    printf("%7.2f GB/s (best %.2f GB/s; %d accumulators per thread)\n", gbs,
           BENCH_HOST_N * sizeof(float) / best / 1e9, BENCH_HOST_ACCS);
    return gbs;
}

#endif
