/* SPDX-License-Identifier: MIT */
/*
 * What the whole-function vectorizer should speed up, on every platform the
 * loader lists, medians of 7 runs after a warm-up (enqueue + finish):
 * - mandelbrot: a divergent loop, 1024 x 1024 pixels over x in [-2, 1],
 *   y in [-1.2, 1.2], at most 256 iterations, groups of 16 x 4; in Mpixels/s
 *   and G iterations/s (the iterations the output counts, summed on the host);
 * - polynomial: compute-bound, each work-item runs 8 independent chains of
 *   8 dependent evaluations of a degree-16 polynomial by Horner's rule with
 *   fma (64 evaluations, 2048 flops), 1 Mi work-items in groups of 64; in
 *   GFLOP/s and as a share of the machine's FMA peak;
 * - chain: latency-bound, each work-item runs one chain of 64 dependent
 *   fma (the degree-16 polynomial's Horner steps, 4 rounds, each starting
 *   from the last result), 16 Mi work-items, the runtime's choice of
 *   work-group size; in GFLOP/s and as a share of the polynomial's figure
 *   (the same FMA units fed with independent work).
 * All are checked against the same operations in C on the host: mandelbrot
 * bit for bit (FP_CONTRACT OFF in the kernel, -ffp-contract=off here), the
 * polynomial within 1e-5 relative. A mismatch is printed and its figures
 * are not. Lanes' sub-group width comes from LANES_WIDTH (bench/README.md);
 * a kernel Lanes could not vectorize is named from the build log.
 * Streaming (saxpy) is bench_throughput's.
 */
#include "bench_peak.h"

#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

enum { RUNS = 7 };

#define MB_W 1024
#define MB_H 1024
#define MB_ITER 256
#define MB_X0 -2.0f
#define MB_Y0 -1.2f
#define MB_DX (3.0f / MB_W)
#define MB_DY (2.4f / MB_H)

#define POLY_N ((size_t)1 << 20)
#define POLY_FLOPS (8.0 * 8 * 16 * 2) /* per work-item: chains x rounds x Horner steps x 2 */
#define CHAIN_N ((size_t)16 << 20)
#define CHAIN_FLOPS (64.0 * 2) /* per work-item: dependent fma x 2 */

/* Chain j evaluates p_j(y) = x_j + sum_{k=1..16} c[k] y^k with c[k] = (-0.3)^k
 * (c[0] is unused: the constant term is the chain's own x_j = x - j / 16), and
 * feeds the result back as y. With x in [-0.5, 0.5], |p_j'| < 0.62: values stay
 * near the fixed point (about x_j / 1.3), with no denormals and no growth of
 * rounding differences, and every result depends on x and j. The same text is
 * the kernel's constant array and the host's. */
#define COEFFS                                                                                     \
    0.0f, -0.3f, 0.09f, -0.027f, 0.0081f, -0.00243f, 0.000729f, -0.0002187f, 6.561e-05f,           \
        -1.9683e-05f, 5.9049e-06f, -1.77147e-06f, 5.31441e-07f, -1.594323e-07f, 4.782969e-08f,     \
        -1.4348907e-08f, 4.3046721e-09f
#define STR(...) #__VA_ARGS__
#define XSTR(...) STR(__VA_ARGS__)
#define COEFFS_TEXT XSTR(COEFFS)

static const float coeffs[17] = {COEFFS};
static float *chain_in_host; /* the chain kernel's input, CHAIN_N values in [-0.5, 0.5] */

static const char *src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "kernel void mandelbrot(global int *out, int width, float x0, float y0, float dx,\n"
    "                       float dy, int max_iter) {\n"
    "    int px = get_global_id(0), py = get_global_id(1);\n"
    "    float cr = x0 + (float)px * dx, ci = y0 + (float)py * dy;\n"
    "    float zr = 0.0f, zi = 0.0f;\n"
    "    int n = 0;\n"
    "    while (n < max_iter) {\n"
    "        float zr2 = zr * zr, zi2 = zi * zi;\n"
    "        if (zr2 + zi2 > 4.0f)\n"
    "            break;\n"
    "        float t = zr2 - zi2 + cr;\n"
    "        zi = 2.0f * zr * zi + ci;\n"
    "        zr = t;\n"
    "        n++;\n"
    "    }\n"
    "    out[py * width + px] = n;\n"
    "}\n"
    "constant float c[17] = {" COEFFS_TEXT "};\n"
    "#define STEP(a, y) a = fma(a, y, c[k])\n"
    "kernel void polynomial(global float *out, global const float *in) {\n"
    "    size_t i = get_global_id(0);\n"
    "    float x = in[i];\n"
    "    float x0 = x, x1 = x - 0.0625f, x2 = x - 0.125f, x3 = x - 0.1875f;\n"
    "    float x4 = x - 0.25f, x5 = x - 0.3125f, x6 = x - 0.375f, x7 = x - 0.4375f;\n"
    "    float y0 = x0, y1 = x1, y2 = x2, y3 = x3, y4 = x4, y5 = x5, y6 = x6, y7 = x7;\n"
    "    for (int r = 0; r < 8; r++) {\n"
    "        float a0 = c[16], a1 = c[16], a2 = c[16], a3 = c[16];\n"
    "        float a4 = c[16], a5 = c[16], a6 = c[16], a7 = c[16];\n"
    "        for (int k = 15; k >= 1; k--) {\n"
    "            STEP(a0, y0); STEP(a1, y1); STEP(a2, y2); STEP(a3, y3);\n"
    "            STEP(a4, y4); STEP(a5, y5); STEP(a6, y6); STEP(a7, y7);\n"
    "        }\n"
    "        y0 = fma(a0, y0, x0), y1 = fma(a1, y1, x1), y2 = fma(a2, y2, x2);\n"
    "        y3 = fma(a3, y3, x3), y4 = fma(a4, y4, x4), y5 = fma(a5, y5, x5);\n"
    "        y6 = fma(a6, y6, x6), y7 = fma(a7, y7, x7);\n"
    "    }\n"
    "    out[i] = ((y0 + y1) + (y2 + y3)) + ((y4 + y5) + (y6 + y7));\n"
    "}\n"
    "kernel void chain(global float *out, global const float *in) {\n"
    "    size_t i = get_global_id(0);\n"
    "    float x = in[i], a = c[16];\n"
    "    for (int r = 0; r < 4; r++)\n"
    "        for (int k = 15; k >= 0; k--)\n"
    "            a = fma(a, x, c[k]);\n"
    "    out[i] = a;\n"
    "}\n";

/* The kernels' operations in the same order (this file is built with -ffp-contract=off). */
static int mandelbrot_ref(int px, int py)
{
    float cr = MB_X0 + (float)px * MB_DX, ci = MB_Y0 + (float)py * MB_DY;
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < MB_ITER) {
        float zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
            break;
        float t = zr2 - zi2 + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    return n;
}

static float polynomial_ref(float x)
{
    float xj[8], y[8], a[8];
    for (int j = 0; j < 8; j++)
        xj[j] = y[j] = j ? x - 0.0625f * (float)j : x;
    for (int r = 0; r < 8; r++) {
        for (int j = 0; j < 8; j++)
            a[j] = coeffs[16];
        for (int k = 15; k >= 1; k--)
            for (int j = 0; j < 8; j++)
                a[j] = fmaf(a[j], y[j], coeffs[k]);
        for (int j = 0; j < 8; j++)
            y[j] = fmaf(a[j], y[j], xj[j]);
    }
    return ((y[0] + y[1]) + (y[2] + y[3])) + ((y[4] + y[5]) + (y[6] + y[7]));
}

static float chain_ref(float x)
{
    float a = coeffs[16];
    for (int r = 0; r < 4; r++)
        for (int k = 15; k >= 0; k--)
            a = fmaf(a, x, coeffs[k]);
    return a;
}

/* FMA peak in GFLOP/s: CPUs x clock x (2 FMA units x lanes x 2 flops); 0 if unknown. */
static double fma_peak(void)
{
    cpu_set_t set;
    int cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    double mhz = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "cpu MHz", 7) == 0 && sscanf(strchr(line, ':') + 1, "%lf", &mhz) == 1)
            break;
    if (f)
        fclose(f);
    int avx512 = __builtin_cpu_supports("avx512f"), lanes = avx512 ? 16 : 8;
    double peak = cpus * mhz / 1e3 * 2 * lanes * 2;
    printf("FMA peak %.1f GFLOP/s = %d CPUs x %.3f GHz (cpu MHz of the first CPU: nominal or "
           "current clock) x 2 FMA x %d lanes (%s) x 2 flops\n",
           peak, cpus, mhz / 1e3, lanes, avx512 ? "AVX-512" : "AVX2");
    return peak;
}

/*
 * Reads n floats of `out` back and compares them with `ref` within 1e-5
 * relative; prints the platform and kernel, then the first mismatch if any
 * (the caller prints the figures when there is none).
 */
static bool read_matches(cl_command_queue q, cl_mem out, const float *ref, size_t n,
                         const char *platform, const char *kernel)
{
    float *got = malloc(n * sizeof *got);
    if (!got)
        exit(1);
    BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, n * sizeof *got, got, 0, NULL, NULL));
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - ref[i]) <= 1e-5f * fabsf(ref[i])) && !bad++)
            first = i;
    printf("  %-28s %s ", platform, kernel);
    if (bad)
        printf("MISMATCH: %zu of %zu results differ, first [%zu]: %.9g, want %.9g\n", bad, n, first,
               got[first], ref[first]);
    free(got);
    return bad == 0;
}

static void run(const struct bench_target *t, const int *mb_ref, const float *poly_in,
                const float *poly_ref, const float *chain_ref, double peak, double measured)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "-cl-std=CL3.0", NULL, NULL));
    cl_kernel mb = clCreateKernel(p, "mandelbrot", &err),
              poly = clCreateKernel(p, "polynomial", &err),
              chain = clCreateKernel(p, "chain", &err);
    BENCH_CHECK(err);
    size_t mb_bytes = (size_t)MB_W * MB_H * sizeof(int), poly_bytes = POLY_N * sizeof(float);
    cl_mem mb_out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, mb_bytes, NULL, &err);
    cl_mem poly_out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, poly_bytes, NULL, &err);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, poly_bytes, (void *)poly_in, &err);
    size_t chain_bytes = CHAIN_N * sizeof(float);
    cl_mem chain_out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, chain_bytes, NULL, &err);
    BENCH_CHECK(err);
    cl_mem chain_in =
        clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, chain_bytes, (void *)chain_in_host, &err);
    BENCH_CHECK(err);

    /* Mandelbrot. */
    int width = MB_W, max_iter = MB_ITER;
    float x0 = MB_X0, y0 = MB_Y0, dx = MB_DX, dy = MB_DY;
    BENCH_CHECK(clSetKernelArg(mb, 0, sizeof mb_out, &mb_out));
    BENCH_CHECK(clSetKernelArg(mb, 1, sizeof width, &width));
    BENCH_CHECK(clSetKernelArg(mb, 2, sizeof x0, &x0));
    BENCH_CHECK(clSetKernelArg(mb, 3, sizeof y0, &y0));
    BENCH_CHECK(clSetKernelArg(mb, 4, sizeof dx, &dx));
    BENCH_CHECK(clSetKernelArg(mb, 5, sizeof dy, &dy));
    BENCH_CHECK(clSetKernelArg(mb, 6, sizeof max_iter, &max_iter));
    size_t g2[2] = {MB_W, MB_H}, l2[2] = {16, 4};
    double s = bench_time_kernel(q, mb, RUNS, 2, g2, l2);
    int *mb_out_host = malloc(mb_bytes);
    if (!mb_out_host)
        exit(1);
    BENCH_CHECK(clEnqueueReadBuffer(q, mb_out, CL_TRUE, 0, mb_bytes, mb_out_host, 0, NULL, NULL));
    size_t bad = 0, first = 0;
    double iterations = 0;
    for (size_t i = 0; i < (size_t)MB_W * MB_H; i++) {
        iterations += mb_out_host[i];
        if (mb_out_host[i] != mb_ref[i] && !bad++)
            first = i;
    }
    printf("  %-28s mandelbrot ", t->name);
    if (bad)
        printf("MISMATCH: %zu of %d pixels differ, first (%zu, %zu): %d, want %d\n", bad,
               MB_W * MB_H, first % MB_W, first / MB_W, mb_out_host[first], mb_ref[first]);
    else {
        printf("%8.1f Mpixels/s %6.2f G iterations/s\n", (double)MB_W * MB_H / s / 1e6,
               iterations / s / 1e9);
        bench_result("vectorize", "mandelbrot", t->name, (double)MB_W * MB_H / s / 1e6,
                     "Mpixels/s");
    }
    free(mb_out_host);

    /* Polynomial. */
    BENCH_CHECK(clSetKernelArg(poly, 0, sizeof poly_out, &poly_out));
    BENCH_CHECK(clSetKernelArg(poly, 1, sizeof in, &in));
    size_t global = POLY_N, local = 64;
    s = bench_time_kernel(q, poly, RUNS, 1, &global, &local);
    bool ok = read_matches(q, poly_out, poly_ref, POLY_N, t->name, "polynomial");
    if (ok) {
        double gflops = POLY_N * POLY_FLOPS / s / 1e9;
        bench_result("vectorize", "polynomial", t->name, gflops, "GFLOP/s");
        printf("%8.1f GFLOP/s", gflops);
        if (peak > 0)
            printf(" (%.1f%% of nominal FMA peak", 100 * gflops / peak);
        if (measured > 0)
            printf("%s%.1f%% of measured)", peak > 0 ? ", " : " (", 100 * gflops / measured);
        else if (peak > 0)
            printf(")");
        printf("\n");
    }
    double poly_gflops = ok ? POLY_N * POLY_FLOPS / s / 1e9 : 0;

    /* The dependent chain. */
    BENCH_CHECK(clSetKernelArg(chain, 0, sizeof chain_out, &chain_out));
    BENCH_CHECK(clSetKernelArg(chain, 1, sizeof chain_in, &chain_in));
    global = CHAIN_N;
    s = bench_time_kernel(q, chain, RUNS, 1, &global, NULL);
    if (read_matches(q, chain_out, chain_ref, CHAIN_N, t->name, "chain     ")) {
        double gflops = CHAIN_N * CHAIN_FLOPS / s / 1e9;
        bench_result("vectorize", "chain", t->name, gflops, "GFLOP/s");
        printf("%8.1f GFLOP/s", gflops);
        if (poly_gflops > 0)
            printf(" (%.2fx the polynomial's)", gflops / poly_gflops);
        printf("\n");
    }

    bench_print_not_vectorized(p, t->device, t->name);

    clReleaseMemObject(mb_out), clReleaseMemObject(poly_out), clReleaseMemObject(in);
    clReleaseMemObject(chain_out), clReleaseMemObject(chain_in);
    clReleaseKernel(mb), clReleaseKernel(poly), clReleaseKernel(chain);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    int *mb_ref = malloc((size_t)MB_W * MB_H * sizeof(int));
    float *poly_in = malloc(POLY_N * sizeof(float)), *poly_ref = malloc(POLY_N * sizeof(float));
    chain_in_host = malloc(CHAIN_N * sizeof(float));
    float *chain_expect = malloc(CHAIN_N * sizeof(float));
    if (!mb_ref || !poly_in || !poly_ref || !chain_in_host || !chain_expect)
        return 1;
    for (int py = 0; py < MB_H; py++)
        for (int px = 0; px < MB_W; px++)
            mb_ref[(size_t)py * MB_W + px] = mandelbrot_ref(px, py);
    srand(1);
    for (size_t i = 0; i < POLY_N; i++) {
        poly_in[i] = -0.5f + (float)rand() / (float)RAND_MAX; /* [-0.5, 0.5] */
        poly_ref[i] = polynomial_ref(poly_in[i]);
    }
    for (size_t i = 0; i < CHAIN_N; i++) {
        chain_in_host[i] = -0.5f + (float)rand() / (float)RAND_MAX;
        chain_expect[i] = chain_ref(chain_in_host[i]);
    }
    const char *w = getenv("LANES_WIDTH");
    printf("vectorize, median of %d (LANES_WIDTH=%s; mandelbrot %dx%d, at most %d iterations, "
           "groups of 16x4; polynomial %zu Mi work-items x 64 Horner evaluations of degree 16, "
           "groups of 64; chain %zu Mi work-items x 64 dependent fma, groups of the runtime's "
           "choice)\n",
           RUNS, w ? w : "unset", MB_W, MB_H, MB_ITER, POLY_N >> 20, CHAIN_N >> 20);
    double peak = fma_peak(), measured = bench_measured_fma_peak();
    if (measured > 0)
        bench_result("vectorize", "polynomial", "FMA peak", measured, "GFLOP/s");
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    for (size_t i = 0; i < n; i++)
        run(&t[i], mb_ref, poly_in, poly_ref, chain_expect, peak, measured);
    free(mb_ref), free(poly_in), free(poly_ref), free(chain_in_host), free(chain_expect);
    return 0;
}
