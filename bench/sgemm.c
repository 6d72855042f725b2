/* SPDX-License-Identifier: MIT */
/*
 * SGEMM written as GPU libraries write it for Intel's sub-groups
 * (kernels-tests/sgemm_kernel.h: block reads of A and B, A broadcast with
 * intel_sub_group_shuffle, reqd_work_group_size(SG, 4, 1) with
 * intel_reqd_sub_group_size(SG)), C = A B at 2048 x 2048 x 2048, in
 * GFLOP/s (2 N^3 flops), median of 5 runs after a warm-up, on every platform
 * the loader lists that offers cl_intel_subgroups and
 * cl_intel_required_subgroup_size, for each sub-group size it offers (8 and
 * 16; 32 where offered), beside OpenBLAS's cblas_sgemm on the same
 * matrices (libopenblas0, loaded at run time; a line says so when it is not
 * installed) and the machine's FMA peak measured in C (bench_peak.h). The
 * inputs are multiples of 1/8 below 1: C is checked exactly against
 * OpenBLAS's where it ran (else on a sample of rows against a loop in C).
 */
#include "bench_peak.h"
#include "bench_sgemm.h"
#include "sgemm_kernel.h"

#include <CL/cl_ext.h>

enum { RUNS = 5, SIZE = 2048 };

static double gflops(double seconds)
{
    return 2.0 * SIZE * SIZE * SIZE / seconds / 1e9;
}

/* OpenBLAS's figure (0 if it is not installed), leaving its C in `c`. */
static double openblas(const float *a, const float *b, float *c)
{
    double g = bench_openblas_sgemm(a, b, c, SIZE, RUNS);
    if (g == 0)
        return 0;
    printf("  %-34s %7.1f GFLOP/s\n", "OpenBLAS cblas_sgemm", g);
    for (unsigned sg = 8; sg <= 32; sg *= 2) {
        char what[32];
        snprintf(what, sizeof what, "sgemm 2048^3, %u lanes", sg);
        bench_result("sgemm", what, "OpenBLAS", g, "GFLOP/s");
    }
    return g;
}

static void run(const struct bench_target *t, const float *a, const float *b, const float *ref,
                double blas, double peak)
{
    if (!bench_has_extension(t->device, "cl_intel_subgroups") ||
        !bench_has_extension(t->device, "cl_intel_required_subgroup_size")) {
        printf("  %-34s skipped: no cl_intel_subgroups and cl_intel_required_subgroup_size\n",
               t->name);
        return;
    }
    size_t sizes[4], bytes = 0;
    BENCH_CHECK(
        clGetDeviceInfo(t->device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &bytes));
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    size_t n = (size_t)SIZE * SIZE * sizeof(float);
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n, (void *)a, &err);
    BENCH_CHECK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n, (void *)b, &err);
    BENCH_CHECK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n, NULL, &err);
    BENCH_CHECK(err);
    float *c = malloc(n);
    if (!c)
        exit(1);
    for (size_t s = 0; s < bytes / sizeof(size_t); s++) {
        /* The tiles that did best on a 2-core Zen 4 (bench/README.md). */
        unsigned sg = (unsigned)sizes[s], tm = sg >= 32 ? 4 : 6, tn = sg >= 32 ? 2 : 4;
        char options[128];
        snprintf(options, sizeof options, "-cl-std=CL3.0 -DSG=%u -DTM=%u -DTN=%u", sg, tm, tn);
        const char *src = sgemm_source;
        cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
        BENCH_CHECK(clBuildProgram(p, 1, &t->device, options, NULL, NULL));
        cl_kernel k = clCreateKernel(p, "sgemm", &err);
        BENCH_CHECK(err);
        int dim = SIZE;
        BENCH_CHECK(clSetKernelArg(k, 0, sizeof da, &da));
        BENCH_CHECK(clSetKernelArg(k, 1, sizeof db, &db));
        BENCH_CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
        for (int i = 3; i < 6; i++)
            BENCH_CHECK(clSetKernelArg(k, (cl_uint)i, sizeof dim, &dim));
        size_t global[2], local[2];
        sgemm_range(SIZE, SIZE, sg, tm, tn, global, local);
        double s_median = bench_time_kernel(q, k, RUNS, 2, global, local);
        BENCH_CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, n, c, 0, NULL, NULL));
        char name[64];
        snprintf(name, sizeof name, "%.28s, %u lanes (%ux%u tile)", t->name, sg, tm, tn * sg);
        printf("  %-34s ", name);
        if (bench_sgemm_wrong(c, ref, a, b, SIZE)) {
            printf("MISMATCH against %s\n", ref ? "OpenBLAS" : "the C loop");
        } else {
            double g = gflops(s_median);
            char what[32];
            snprintf(what, sizeof what, "sgemm 2048^3, %u lanes", sg);
            bench_result("sgemm", what, t->name, g, "GFLOP/s");
            printf("%7.1f GFLOP/s", g);
            if (blas > 0)
                printf(" %6.1f%% of OpenBLAS", 100 * g / blas);
            if (peak > 0)
                printf(" %6.1f%% of the FMA peak", 100 * g / peak);
            printf("\n");
        }
        if (strcmp(t->name, "Lanes") == 0)
            bench_print_not_vectorized(p, t->device, t->name);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    free(c);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    size_t n = (size_t)SIZE * SIZE;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    float *ref = malloc(n * sizeof(float));
    if (!a || !b || !ref)
        return 1;
    bench_sgemm_inputs(a, b, SIZE);
    printf("sgemm %d x %d x %d, median of %d\n", SIZE, SIZE, SIZE, RUNS);
    double peak = bench_measured_fma_peak();
    if (peak > 0)
        for (unsigned sg = 8; sg <= 32; sg *= 2) {
            char what[32];
            snprintf(what, sizeof what, "sgemm 2048^3, %u lanes", sg);
            bench_result("sgemm", what, "FMA peak", peak, "GFLOP/s");
        }
    double blas = openblas(a, b, ref);
    struct bench_target t[8];
    size_t count = bench_targets(t, 8);
    for (size_t i = 0; i < count; i++)
        run(&t[i], a, b, blas > 0 ? ref : NULL, blas, peak);
    free(a), free(b), free(ref);
    return 0;
}
