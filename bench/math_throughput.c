/* SPDX-License-Identifier: MIT */
/*
 * Throughput of math built-ins on every platform the loader lists:
 * out[i] = f(x[i]) (exp, atan: f(y[i]); pow: f(x[i], y[i]); atan2: f(y[i],
 * x[i])) over 16 Mi floats,
 * medians of 7 runs after a warm-up, in elements per second: once on
 * float16 vectors (1 Mi work-items: the library's vector code), once on
 * floats (16 Mi work-items: the scalar built-in, which Lanes' vectorizer
 * turns into vector code at the sub-group's width).
 * Inputs lie where each function is defined and finite (x in (0, 100] for
 * log, sqrt and the base of pow; y in [-4, 4] for exp and the exponent), so
 * that no platform takes a special-value path. A sum of a few
 * results is compared across platforms so that a wrong kernel shows.
 * Each platform runs the program built without options, then with
 * -cl-fast-relaxed-math (OpenCL C 7.4's relaxed accuracy).
 */
#include "bench_common.h"

#include <math.h>

enum { RUNS = 7 };
#define N ((size_t)16 << 20) /* floats */

static const char *names[] = {"sin", "exp", "log", "pow", "sqrt", "atan", "atan2"};
#define NUM_FNS (sizeof names / sizeof *names)

#define KERNELS(T, p)                                                                              \
    "kernel void " p "sin(global " T " *o, global const " T " *x, global const " T " *y)\n"        \
    "{ size_t i = get_global_id(0); o[i] = sin(x[i]); }\n"                                         \
    "kernel void " p "exp(global " T " *o, global const " T " *x, global const " T " *y)\n"        \
    "{ size_t i = get_global_id(0); o[i] = exp(y[i]); }\n"                                         \
    "kernel void " p "log(global " T " *o, global const " T " *x, global const " T " *y)\n"        \
    "{ size_t i = get_global_id(0); o[i] = log(x[i]); }\n"                                         \
    "kernel void " p "pow(global " T " *o, global const " T " *x, global const " T " *y)\n"        \
    "{ size_t i = get_global_id(0); o[i] = pow(x[i], y[i]); }\n"                                   \
    "kernel void " p "sqrt(global " T " *o, global const " T " *x, global const " T " *y)\n"       \
    "{ size_t i = get_global_id(0); o[i] = sqrt(x[i]); }\n"                                        \
    "kernel void " p "atan(global " T " *o, global const " T " *x, global const " T " *y)\n"       \
    "{ size_t i = get_global_id(0); o[i] = atan(y[i]); }\n"                                        \
    "kernel void " p "atan2(global " T " *o, global const " T " *x, global const " T " *y)\n"      \
    "{ size_t i = get_global_id(0); o[i] = atan2(y[i], x[i]); }\n"
static const char *src = KERNELS("float16", "v_") KERNELS("float", "s_");

static void run(const struct bench_target *t, const char *options, const float *x, const float *y)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, options, NULL, NULL));
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
    cl_mem mx = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof(float), (void *)x, &err);
    cl_mem my = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof(float), (void *)y, &err);
    BENCH_CHECK(err);
    for (int width = 16; width >= 1; width -= 15) {
        printf("  %-28s %-7s %-8s", t->name, width == 16 ? "float16" : "float",
               options ? "relaxed" : "precise");
        for (size_t f = 0; f < NUM_FNS; f++) {
            char name[16];
            snprintf(name, sizeof name, "%s_%s", width == 16 ? "v" : "s", names[f]);
            cl_kernel k = clCreateKernel(p, name, &err);
            BENCH_CHECK(err);
            BENCH_CHECK(clSetKernelArg(k, 0, sizeof out, &out));
            BENCH_CHECK(clSetKernelArg(k, 1, sizeof mx, &mx));
            BENCH_CHECK(clSetKernelArg(k, 2, sizeof my, &my));
            size_t global = N / (size_t)width, local = 64;
            double s[RUNS];
            for (int r = -1; r < RUNS; r++) {
                double t0 = bench_now_us();
                BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
                BENCH_CHECK(clFinish(q));
                if (r >= 0)
                    s[r] = (bench_now_us() - t0) / 1e6;
            }
            float sample[4];
            BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, (N / 2) * sizeof(float), sizeof sample,
                                            sample, 0, NULL, NULL));
            double m = N / bench_median(s, RUNS) / 1e6;
            printf(" %s %6.0f M/s [%.4g]", names[f], m,
                   sample[0] + sample[1] + sample[2] + sample[3]);
            char what[64];
            snprintf(what, sizeof what, "%s %s, %s", names[f], width == 16 ? "float16" : "float",
                     options ? "relaxed" : "precise");
            bench_result("math_throughput", what, t->name, m, "M/s");
            clReleaseKernel(k);
        }
        printf("\n");
    }
    clReleaseMemObject(out), clReleaseMemObject(mx), clReleaseMemObject(my);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    if (!x || !y)
        return 1;
    srand(1);
    for (size_t i = 0; i < N; i++) {
        x[i] = 0.001f + 100.0f * (float)rand() / (float)RAND_MAX; /* (0, 100]: log, sqrt, pow */
        y[i] = -4.0f + 8.0f * (float)rand() / (float)RAND_MAX;
    }
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    printf("math throughput on float16 and float work-items, elements/s, median of %d over "
           "%zu Mi floats [sum of 4 results]\n",
           RUNS, N >> 20);
    for (size_t i = 0; i < n; i++) {
        run(&t[i], NULL, x, y);
        run(&t[i], "-cl-fast-relaxed-math", x, y);
    }
    free(x), free(y);
    return 0;
}
