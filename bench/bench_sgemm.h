/* SPDX-License-Identifier: MIT */
/*
 * The host side of the SGEMM benchmarks (bench/sgemm.c, bench/half.c):
 * their inputs, OpenBLAS's cblas_sgemm on them (libopenblas0, loaded at run
 * time) and the check of a product against it.
 */
#ifndef LANES_BENCH_SGEMM_H
#define LANES_BENCH_SGEMM_H

#include "bench_common.h"

#include <dlfcn.h>
#include <stdbool.h>

/* cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ...) */
typedef void (*bench_cblas_sgemm_fn)(int, int, int, int, int, int, float, const float *, int,
                                     const float *, int, float, float *, int);

/*
 * A and B of n x n: multiples of 1/8 in [-1, 1), exact in half, whose
 * products and sums of up to 2^18 terms are exact in float.
 */
static inline void bench_sgemm_inputs(float *a, float *b, int n)
{
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++) {
        a[i] = (float)((int)(i * 7 % 17) - 8) / 8.0f;
        b[i] = (float)((int)(i * 5 % 13) - 6) / 8.0f;
    }
}

/*
 * OpenBLAS's C = A B (n x n x n, row-major) into `c`, median of `runs`
 * after a warm-up, in GFLOP/s; 0, with a line saying so, when libopenblas0
 * is not installed.
 */
static inline double bench_openblas_sgemm(const float *a, const float *b, float *c, int n, int runs)
{
    void *lib = dlopen("libopenblas.so.0", RTLD_NOW);
    bench_cblas_sgemm_fn sgemm = lib ? (bench_cblas_sgemm_fn)dlsym(lib, "cblas_sgemm") : NULL;
    if (!sgemm) {
        printf("  %-34s not installed (Debian: libopenblas0)\n", "OpenBLAS cblas_sgemm");
        return 0;
    }
    double *t = malloc((size_t)runs * sizeof *t);
    if (!t)
        exit(1);
    for (int r = -1; r < runs; r++) {
        double t0 = bench_now_us();
        sgemm(101, 111, 111, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
        if (r >= 0)
            t[r] = (bench_now_us() - t0) / 1e6;
    }
    double g = 2.0 * n * n * n / bench_median(t, (size_t)runs) / 1e9;
    free(t);
    return g;
}

/*
 * Whether `c` differs from the product of bench_sgemm_inputs: exactly from
 * `ref` (OpenBLAS's, when it ran), else on a sample of rows recomputed.
 */
static inline bool bench_sgemm_wrong(const float *c, const float *ref, const float *a,
                                     const float *b, int n)
{
    for (int r = 0; r < n; r += ref ? 1 : 97)
        for (int col = 0; col < n; col++) {
            float want = 0.0f;
            if (ref)
                want = ref[(size_t)r * n + col];
            else
                for (int k = 0; k < n; k++)
                    want += a[(size_t)r * n + k] * b[(size_t)k * n + col];
            if (c[(size_t)r * n + col] != want)
                return true;
        }
    return false;
}

#endif
