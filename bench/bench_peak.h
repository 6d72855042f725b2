/* SPDX-License-Identifier: MIT */
/*
 * The machine's FMA peak, measured in C (bench_vectorize, bench_sgemm):
 * the limit compute-bound kernels are given as a share of.
 */
#ifndef LANES_BENCH_PEAK_H
#define LANES_BENCH_PEAK_H

#include "bench_common.h"

#include <immintrin.h>
#include <pthread.h>
#include <sched.h>

/*
 * The FMA throughput this machine gives, measured: one pinned thread per
 * CPU of the affinity mask, each running 16 independent chains of vector
 * FMAs (the widest vectors the CPU has) 4 Mi times; GFLOP/s of the median
 * of 5 runs. Unlike the nominal peak below it needs no clock (a VM's
 * /proc/cpuinfo gives the nominal one, not the turbo one) and counts a
 * 512-bit FMA at what the core really does (Zen 4 runs it as two halves).
 */
enum { PEAK_CHAINS = 16, PEAK_ITERS = 4 << 20 };

__attribute__((target("avx512f"))) static float fma_loop_avx512(float seed)
{
    __m512 acc[PEAK_CHAINS], a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    for (int c = 0; c < PEAK_CHAINS; c++)
        acc[c] = _mm512_set1_ps(seed + (float)c);
    for (int i = 0; i < PEAK_ITERS; i++)
#pragma GCC unroll 16
        for (int c = 0; c < PEAK_CHAINS; c++)
            acc[c] = _mm512_fmadd_ps(acc[c], a, b);
    float r = 0;
    for (int c = 0; c < PEAK_CHAINS; c++)
        r += _mm512_reduce_add_ps(acc[c]);
    return r;
}

__attribute__((target("avx2,fma"))) static float fma_loop_avx2(float seed)
{
    __m256 acc[PEAK_CHAINS], a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    for (int c = 0; c < PEAK_CHAINS; c++)
        acc[c] = _mm256_set1_ps(seed + (float)c);
    for (int i = 0; i < PEAK_ITERS; i++)
#pragma GCC unroll 16
        for (int c = 0; c < PEAK_CHAINS; c++)
            acc[c] = _mm256_fmadd_ps(acc[c], a, b);
    float r[8] = {0}, t = 0;
    for (int c = 0; c < PEAK_CHAINS; c++) {
        _mm256_storeu_ps(r, acc[c]);
        for (int k = 0; k < 8; k++)
            t += r[k];
    }
    return t;
}

static volatile float fma_sink;

static void *fma_thread(void *arg)
{
    int cpu = *(int *)arg;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
    fma_sink =
        __builtin_cpu_supports("avx512f") ? fma_loop_avx512((float)cpu) : fma_loop_avx2((float)cpu);
    return NULL;
}

static double bench_measured_fma_peak(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 ||
        !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")))
        return 0;
    int cpus[CPU_SETSIZE], n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set))
            cpus[n++] = c;
    pthread_t tid[CPU_SETSIZE];
    double s[5];
    for (int r = 0; r < 5; r++) {
        double t0 = bench_now_us();
        int started = 0;
        while (started < n && pthread_create(&tid[started], NULL, fma_thread, &cpus[started]) == 0)
            started++;
        for (int j = 0; j < started; j++)
            pthread_join(tid[j], NULL);
        if (started < n)
            return 0; /* no figure rather than a wrong one */
        s[r] = (bench_now_us() - t0) / 1e6;
    }
    int lanes = __builtin_cpu_supports("avx512f") ? 16 : 8;
    double gflops = (double)n * PEAK_ITERS * PEAK_CHAINS * lanes * 2 / bench_median(s, 5) / 1e9;
    printf("FMA peak measured %.1f GFLOP/s: %d threads x %d chains of %d-lane FMAs in C, median "
           "of 5\n",
           gflops, n, PEAK_CHAINS, lanes);
    return gflops;
}

#endif
