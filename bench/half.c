/* SPDX-License-Identifier: MIT */
/*
 * Half precision (cl_khr_fp16) beside float, on every platform the loader
 * lists that offers cl_khr_fp16 (Lanes: unless LANES_FP16=0), medians of RUNS
 * after a warm-up:
 *  - math throughput: out[i] = f(x[i]) over 16 Mi elements of half and of
 *    float, scalar work-items, in elements per second (inputs as
 *    bench_math_throughput's, rounded to half; pow's exponent halved, so
 *    that x^y stays below half's 65504); a sum of a few results shows a
 *    wrong kernel;
 *  - an add/mul loop: each work-item x = x * m + c, 256 times, without
 *    contraction (FP_CONTRACT OFF: a multiply and an add, each rounded), in
 *    Gop/s (2 operations a step), half beside float;
 *  - the SGEMM of kernels-tests/sgemm_kernel.h at 2048^3 written for Intel's
 *    sub-groups (block reads, shuffles), float, with A and B half read with
 *    intel_sub_group_block_read_us and float sums (-DHALF=1), and all in half
 *    (-DHALF=2, each step a half mad), at each sub-group size the platform
 *    offers, in GFLOP/s beside OpenBLAS's cblas_sgemm on the same matrices.
 *    The inputs are multiples of 1/8 below 1, exact in half: the float and
 *    HALF=1 products are checked exactly against OpenBLAS's (or a C loop's on
 *    a sample of rows); HALF=2 rounds every step to half, so it is checked by
 *    its relative error (Frobenius norm, under 5%: a wrong kernel is near 100%).
 */
#include "bench_sgemm.h"
#include "sgemm_kernel.h"

#include <CL/cl_ext.h>
#include <math.h>

enum { RUNS = 5, SIZE = 2048, LOOP_STEPS = 256 };
#define N ((size_t)16 << 20) /* math elements */
#define LOOP_N ((size_t)4 << 20)

typedef _Float16 half_t;

static const char *names[] = {"sin", "exp", "log", "sqrt", "pow"};
#define NUM_FNS (sizeof names / sizeof *names)

#define MATH_KERNELS(T, p)                                                                         \
    "kernel void " p "sin(global " T " *o, global const " T " *x, global const " T " *y)\n"        \
    "{ size_t i = get_global_id(0); o[i] = sin(x[i]); }\n"                                         \
    "kernel void " p "exp(global " T " *o, global const " T " *x, global const " T " *y)\n"        \
    "{ size_t i = get_global_id(0); o[i] = exp(y[i]); }\n"                                         \
    "kernel void " p "log(global " T " *o, global const " T " *x, global const " T " *y)\n"        \
    "{ size_t i = get_global_id(0); o[i] = log(x[i]); }\n"                                         \
    "kernel void " p "sqrt(global " T " *o, global const " T " *x, global const " T " *y)\n"       \
    "{ size_t i = get_global_id(0); o[i] = sqrt(x[i]); }\n"                                        \
    "kernel void " p "pow(global " T " *o, global const " T " *x, global const " T " *y)\n"        \
    "{ size_t i = get_global_id(0); o[i] = pow(x[i], y[i] * (" T ")0.5f); }\n"
#define LOOP_KERNEL(T, p)                                                                          \
    "kernel void " p "loop(global " T " *x, " T " m, " T " c)\n"                                   \
    "{\n"                                                                                          \
    "    size_t i = get_global_id(0);\n"                                                           \
    "    " T " v = x[i];\n"                                                                        \
    "    for (int s = 0; s < 256; s++)\n"                                                          \
    "        v = v * m + c;\n"                                                                     \
    "    x[i] = v;\n"                                                                              \
    "}\n"
static const char *math_src =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#pragma OPENCL FP_CONTRACT OFF\n" MATH_KERNELS("half", "h_") MATH_KERNELS("float", "f_")
        LOOP_KERNEL("half", "h_") LOOP_KERNEL("float", "f_");

static double gflops(double seconds)
{
    return 2.0 * SIZE * SIZE * SIZE / seconds / 1e9;
}

static double openblas(const float *a, const float *b, float *c)
{
    double g = bench_openblas_sgemm(a, b, c, SIZE, RUNS);
    if (g > 0) {
        printf("  %-40s %7.1f GFLOP/s\n", "OpenBLAS cblas_sgemm (float)", g);
        bench_result("half", "gemm 2048^3", "OpenBLAS sgemm", g, "GFLOP/s");
    }
    return g;
}

static double run_kernel(cl_command_queue q, cl_kernel k, size_t global, size_t local)
{
    double s[RUNS];
    for (int r = -1; r < RUNS; r++) {
        double t0 = bench_now_us();
        BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
        BENCH_CHECK(clFinish(q));
        if (r >= 0)
            s[r] = (bench_now_us() - t0) / 1e6;
    }
    return bench_median(s, RUNS);
}

static void math(const struct bench_target *t, cl_context ctx, cl_command_queue q, const float *x,
                 const float *y, const float *l)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &math_src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, NULL, NULL, NULL));
    half_t *hx = malloc(N * sizeof *hx), *hy = malloc(N * sizeof *hy);
    half_t *hl = malloc(LOOP_N * sizeof *hl);
    if (!hx || !hy || !hl)
        exit(1);
    for (size_t i = 0; i < N; i++)
        hx[i] = (half_t)x[i], hy[i] = (half_t)y[i];
    for (size_t i = 0; i < LOOP_N; i++)
        hl[i] = (half_t)l[i];
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
    cl_mem fx = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof(float), (void *)x, &err);
    cl_mem fy = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof(float), (void *)y, &err);
    cl_mem mhx = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof *hx, hx, &err);
    cl_mem mhy = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof *hy, hy, &err);
    BENCH_CHECK(err);
    printf("  %-28s math, M elements/s [sum of 4 results]\n", t->name);
    for (size_t f = 0; f < NUM_FNS; f++) {
        double rate[2];
        float sum[2];
        for (int h = 0; h < 2; h++) {
            char name[16];
            snprintf(name, sizeof name, "%s_%s", h ? "h" : "f", names[f]);
            cl_kernel k = clCreateKernel(p, name, &err);
            BENCH_CHECK(err);
            BENCH_CHECK(clSetKernelArg(k, 0, sizeof out, &out));
            BENCH_CHECK(clSetKernelArg(k, 1, sizeof fx, h ? &mhx : &fx));
            BENCH_CHECK(clSetKernelArg(k, 2, sizeof fy, h ? &mhy : &fy));
            rate[h] = N / run_kernel(q, k, N, 64) / 1e6;
            size_t at = N / 2;
            if (h) {
                half_t s4[4];
                BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, at * sizeof *s4, sizeof s4, s4, 0,
                                                NULL, NULL));
                sum[h] = (float)s4[0] + (float)s4[1] + (float)s4[2] + (float)s4[3];
            } else {
                float s4[4];
                BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, at * sizeof *s4, sizeof s4, s4, 0,
                                                NULL, NULL));
                sum[h] = s4[0] + s4[1] + s4[2] + s4[3];
            }
            char what[32];
            snprintf(what, sizeof what, "%s %s", names[f], h ? "half" : "float");
            bench_result("half", what, t->name, rate[h], "M/s");
            clReleaseKernel(k);
        }
        printf("    %-6s half %7.0f [%.4g]  float %7.0f [%.4g]  half/float %.2f\n", names[f],
               rate[1], sum[1], rate[0], sum[0], rate[1] / rate[0]);
    }

    /* The add/mul loop: m and c keep v in [0.5, 2) so that nothing overflows or goes denormal. */
    double gops[2];
    for (int h = 0; h < 2; h++) {
        cl_kernel k = clCreateKernel(p, h ? "h_loop" : "f_loop", &err);
        BENCH_CHECK(err);
        BENCH_CHECK(clSetKernelArg(k, 0, sizeof out, &out));
        if (h) {
            half_t m = (half_t)0.5f, c = (half_t)0.5f;
            BENCH_CHECK(clSetKernelArg(k, 1, sizeof m, &m));
            BENCH_CHECK(clSetKernelArg(k, 2, sizeof c, &c));
            BENCH_CHECK(
                clEnqueueWriteBuffer(q, out, CL_TRUE, 0, LOOP_N * sizeof *hl, hl, 0, NULL, NULL));
        } else {
            float m = 0.5f, c = 0.5f;
            BENCH_CHECK(clSetKernelArg(k, 1, sizeof m, &m));
            BENCH_CHECK(clSetKernelArg(k, 2, sizeof c, &c));
            BENCH_CHECK(
                clEnqueueWriteBuffer(q, out, CL_TRUE, 0, LOOP_N * sizeof *l, l, 0, NULL, NULL));
        }
        gops[h] = 2.0 * LOOP_STEPS * LOOP_N / run_kernel(q, k, LOOP_N, 64) / 1e9;
        bench_result("half", h ? "add/mul loop half" : "add/mul loop float", t->name, gops[h],
                     "Gop/s");
        clReleaseKernel(k);
    }
    printf("    add/mul loop (x = x * m + c, not fused): half %.1f Gop/s, float %.1f Gop/s, "
           "half/float %.2f\n",
           gops[1], gops[0], gops[1] / gops[0]);
    free(hx), free(hy), free(hl);
    clReleaseMemObject(out), clReleaseMemObject(fx), clReleaseMemObject(fy);
    clReleaseMemObject(mhx), clReleaseMemObject(mhy);
    clReleaseProgram(p);
}

/* HALF=2's relative error (Frobenius) against the exact product, on a sample of rows. */
static double half_error(const half_t *c, const float *a, const float *b)
{
    double num = 0, den = 0;
    for (int r = 0; r < SIZE; r += 61)
        for (int col = 0; col < SIZE; col++) {
            double want = 0;
            for (int k = 0; k < SIZE; k++)
                want += (double)a[(size_t)r * SIZE + k] * b[(size_t)k * SIZE + col];
            double d = (double)c[(size_t)r * SIZE + col] - want;
            num += d * d, den += want * want;
        }
    return sqrt(num / den);
}

static void gemm(const struct bench_target *t, cl_context ctx, cl_command_queue q, const float *a,
                 const float *b, const float *ref, double blas)
{
    if (!bench_has_extension(t->device, "cl_intel_subgroups") ||
        !bench_has_extension(t->device, "cl_intel_subgroups_short") ||
        !bench_has_extension(t->device, "cl_intel_required_subgroup_size")) {
        printf("  %-40s gemm skipped: no cl_intel_subgroups, _short and "
               "cl_intel_required_subgroup_size\n",
               t->name);
        return;
    }
    size_t sizes[4], bytes = 0, n = (size_t)SIZE * SIZE;
    BENCH_CHECK(
        clGetDeviceInfo(t->device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &bytes));
    half_t *ha = malloc(n * sizeof *ha), *hb = malloc(n * sizeof *hb);
    float *c = malloc(n * sizeof *c);
    if (!ha || !hb || !c)
        exit(1);
    for (size_t i = 0; i < n; i++)
        ha[i] = (half_t)a[i], hb[i] = (half_t)b[i];
    cl_int err;
    cl_mem fa = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * sizeof *a, (void *)a, &err);
    cl_mem fb = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * sizeof *b, (void *)b, &err);
    cl_mem mha = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * sizeof *ha, ha, &err);
    cl_mem mhb = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, n * sizeof *hb, hb, &err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    BENCH_CHECK(err);
    static const char *kinds[] = {"float", "half A, B; float sums", "half (mad in half)"};
    for (size_t s = 0; s < bytes / sizeof(size_t); s++) {
        unsigned sg = (unsigned)sizes[s], tm = sg >= 32 ? 4 : 6, tn = sg >= 32 ? 2 : 4;
        for (int kind = 0; kind < 3; kind++) {
            char options[128];
            snprintf(options, sizeof options, "-cl-std=CL3.0 -DSG=%u -DTM=%u -DTN=%u -DHALF=%d", sg,
                     tm, tn, kind);
            const char *src = sgemm_source;
            cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
            BENCH_CHECK(clBuildProgram(p, 1, &t->device, options, NULL, NULL));
            cl_kernel k = clCreateKernel(p, "sgemm", &err);
            BENCH_CHECK(err);
            int dim = SIZE;
            BENCH_CHECK(clSetKernelArg(k, 0, sizeof fa, kind ? &mha : &fa));
            BENCH_CHECK(clSetKernelArg(k, 1, sizeof fb, kind ? &mhb : &fb));
            BENCH_CHECK(clSetKernelArg(k, 2, sizeof dc, &dc));
            for (int i = 3; i < 6; i++)
                BENCH_CHECK(clSetKernelArg(k, (cl_uint)i, sizeof dim, &dim));
            size_t global[2], local[2];
            sgemm_range(SIZE, SIZE, sg, tm, tn, global, local);
            double g = gflops(bench_time_kernel(q, k, RUNS, 2, global, local));
            BENCH_CHECK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0,
                                            n * (kind == 2 ? sizeof(half_t) : sizeof(float)), c, 0,
                                            NULL, NULL));
            char name[96];
            snprintf(name, sizeof name, "%.20s %u lanes, %s", t->name, sg, kinds[kind]);
            printf("  %-52s ", name);
            double error = kind == 2 ? half_error((const half_t *)c, a, b) : 0;
            if (kind == 2 ? !(error < 0.05) : bench_sgemm_wrong(c, ref, a, b, SIZE)) {
                printf("MISMATCH (relative error %.3g)\n", error);
            } else {
                char what[64];
                snprintf(what, sizeof what, "gemm 2048^3 %s, %u lanes", kinds[kind], sg);
                bench_result("half", what, t->name, g, "GFLOP/s");
                printf("%7.1f GFLOP/s", g);
                if (blas > 0)
                    printf(" %6.1f%% of OpenBLAS sgemm", 100 * g / blas);
                if (kind == 2)
                    printf(" (relative error %.2g)", error);
                printf("\n");
            }
            if (strcmp(t->name, "Lanes") == 0)
                bench_print_not_vectorized(p, t->device, t->name);
            clReleaseKernel(k);
            clReleaseProgram(p);
        }
    }
    free(ha), free(hb), free(c);
    clReleaseMemObject(fa), clReleaseMemObject(fb), clReleaseMemObject(mha);
    clReleaseMemObject(mhb), clReleaseMemObject(dc);
}

int main(void)
{
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    size_t n = (size_t)SIZE * SIZE;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    float *ref = malloc(n * sizeof(float)), *l = malloc(LOOP_N * sizeof(float));
    if (!x || !y || !a || !b || !ref || !l)
        return 1;
    srand(1);
    for (size_t i = 0; i < N; i++) {
        x[i] = 0.001f + 100.0f * (float)rand() / (float)RAND_MAX;
        y[i] = -4.0f + 8.0f * (float)rand() / (float)RAND_MAX;
    }
    /* The loop's inputs: [0.5, 2) keeps v = v / 2 + 1 / 2 there. */
    for (size_t i = 0; i < LOOP_N; i++)
        l[i] = 0.5f + (float)(i % 3) * 0.5f;
    bench_sgemm_inputs(a, b, SIZE);
    printf("half beside float, median of %d\n", RUNS);
    double blas = openblas(a, b, ref);
    struct bench_target t[8];
    size_t count = bench_targets(t, 8);
    for (size_t i = 0; i < count; i++) {
        if (!bench_has_extension(t[i].device, "cl_khr_fp16")) {
            printf("  %-40s skipped: no cl_khr_fp16\n", t[i].name);
            continue;
        }
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &t[i].device, NULL, NULL, &err);
        BENCH_CHECK(err);
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t[i].device, NULL, &err);
        BENCH_CHECK(err);
        math(&t[i], ctx, q, x, y, l);
        gemm(&t[i], ctx, q, a, b, blas > 0 ? ref : NULL, blas);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
    free(x), free(y), free(a), free(b), free(ref), free(l);
    return 0;
}
