/* SPDX-License-Identifier: MIT */
/*
 * clBuildProgram wall time for a ~50-line kernel on every platform the
 * loader lists: cold (a source no cache has seen: a unique comment each
 * time) and warm (the same source and options again). Medians.
 */
#include "bench_common.h"

#include <unistd.h>

enum { RUNS = 21 };

static const char *body =
    "typedef struct { float scale; float bias; int n; } params;\n"
    "inline float activation(float x) { return x > 0.0f ? x : 0.01f * x; }\n"
    "inline float dot4(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; "
    "}\n"
    "kernel void layer(global const float *in, global const float *w,\n"
    "                  global float *out, params p) {\n"
    "    size_t row = get_global_id(0);\n"
    "    float acc = 0.0f;\n"
    "    for (int i = 0; i + 4 <= p.n; i += 4) {\n"
    "        float4 a = (float4)(in[i], in[i + 1], in[i + 2], in[i + 3]);\n"
    "        float4 b = (float4)(w[row * p.n + i], w[row * p.n + i + 1],\n"
    "                            w[row * p.n + i + 2], w[row * p.n + i + 3]);\n"
    "        acc += dot4(a, b);\n"
    "    }\n"
    "    for (int i = p.n & ~3; i < p.n; i++)\n"
    "        acc += in[i] * w[row * p.n + i];\n"
    "    out[row] = activation(acc * p.scale + p.bias);\n"
    "}\n"
    "kernel void reduce(global const float *in, global float *out, local float *tmp) {\n"
    "    size_t l = get_local_id(0);\n"
    "    tmp[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "        if (l < s)\n"
    "            tmp[l] += tmp[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0)\n"
    "        out[get_group_id(0)] = tmp[0];\n"
    "}\n"
    "kernel void scale(global float *x, float a, int n) {\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        x[i] = x[i] * a + (float)i;\n"
    "}\n"
    "kernel void histogram(global const uchar *in, global uint *bins, int n) {\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n) {\n"
    "        uint b = in[i] >> 4;\n"
    "        bins[b] += 1;\n"
    "    }\n"
    "}\n";

static double build_ms(cl_context ctx, cl_device_id dev, const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(err);
    double t0 = bench_now_us();
    BENCH_CHECK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
    double ms = (bench_now_us() - t0) / 1e3;
    clReleaseProgram(p);
    return ms;
}

int main(void)
{
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    if (!n) {
        fprintf(stderr, "no OpenCL platform\n");
        return 1;
    }
    printf("clBuildProgram of a 50-line program, median of %d\n", RUNS);
    static char src[8192];
    for (size_t i = 0; i < n; i++) {
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &t[i].device, NULL, NULL, &err);
        BENCH_CHECK(err);
        double cold[RUNS], warm[RUNS];
        for (int r = 0; r < RUNS; r++) {
            /* A comment no cache has seen makes the build cold. */
            snprintf(src, sizeof src, "// %ld-%zu-%d-%f\n%s", (long)getpid(), i, r, bench_now_us(),
                     body);
            cold[r] = build_ms(ctx, t[i].device, src);
            warm[r] = build_ms(ctx, t[i].device, src);
        }
        double c = bench_median(cold, RUNS), w = bench_median(warm, RUNS);
        printf("  %-24s cold %8.2f ms   warm %8.2f ms\n", t[i].name, c, w);
        bench_result("build_time", "cold build", t[i].name, c, "ms");
        bench_result("build_time", "warm build", t[i].name, w, "ms");
        clReleaseContext(ctx);
    }
    return 0;
}
