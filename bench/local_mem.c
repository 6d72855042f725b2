/* SPDX-License-Identifier: MIT */
/*
 * How much local memory a work-group can use before it costs, on every
 * platform the loader lists (the measurement behind Lanes'
 * CL_DEVICE_LOCAL_MEM_SIZE): a kernel that stages a tile of S bytes of a
 * 256 MiB array in a __local buffer (each work-item copies its share,
 * barrier) and then reads the whole tile 8 times over (the work-group
 * together, a float per work-item per step), for S from 16 KiB to the
 * device's CL_DEVICE_LOCAL_MEM_SIZE, groups of 256; GB/s of local memory
 * read (8 x 256 MiB), median of 5. A tile that no longer fits the core's
 * caches shows as a drop.
 */
#include "bench_common.h"

enum { RUNS = 5 };
#define N ((size_t)64 << 20) /* floats: 256 MiB */
#define LOCAL ((size_t)256)

static const char *src =
    "kernel void tile(global const float *in, global float *out, local float *t, uint n) {\n"
    "    size_t base = get_group_id(0) * (size_t)n;\n"
    "    uint l = get_local_id(0);\n"
    "    for (uint i = l; i < n; i += 256)\n"
    "        t[i] = in[base + i];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    float s = 0.0f;\n"
    "    for (uint r = 0; r < 8; r++)\n"
    "        for (uint i = l; i < n; i += 256)\n"
    "            s += t[i];\n"
    "    out[get_global_id(0)] = s;\n"
    "}\n";

static void run(const struct bench_target *t)
{
    cl_int err;
    cl_ulong max_local = 0;
    BENCH_CHECK(
        clGetDeviceInfo(t->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof max_local, &max_local, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "tile", &err);
    BENCH_CHECK(err);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY, N * sizeof(float), NULL, &err);
    BENCH_CHECK(err);
    float one = 1.0f;
    BENCH_CHECK(clEnqueueFillBuffer(q, in, &one, sizeof one, 0, N * sizeof(float), 0, NULL, NULL));
    printf("  %-28s (CL_DEVICE_LOCAL_MEM_SIZE %llu KiB)\n", t->name,
           (unsigned long long)(max_local >> 10));
    /* The kernel itself takes no local memory but the argument. */
    for (size_t bytes = 16 << 10; bytes <= max_local; bytes *= 2) {
        cl_uint n = (cl_uint)(bytes / sizeof(float));
        size_t groups = N / n, global = groups * LOCAL, local = LOCAL;
        cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, global * sizeof(float), NULL, &err);
        BENCH_CHECK(err);
        BENCH_CHECK(clSetKernelArg(k, 0, sizeof in, &in));
        BENCH_CHECK(clSetKernelArg(k, 1, sizeof out, &out));
        BENCH_CHECK(clSetKernelArg(k, 2, bytes, NULL));
        BENCH_CHECK(clSetKernelArg(k, 3, sizeof n, &n));
        double s = bench_time_kernel(q, k, RUNS, 1, &global, &local);
        float check = 0;
        BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof check, &check, 0, NULL, NULL));
        printf("    tile %5zu KiB %7.2f GB/s of local reads%s\n", bytes >> 10,
               8.0 * N * sizeof(float) / s / 1e9,
               check == (float)(8 * (n / 256)) ? "" : " (WRONG RESULT)");
        clReleaseMemObject(out);
    }
    clReleaseMemObject(in);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    printf("local memory tiles of 16 KiB .. CL_DEVICE_LOCAL_MEM_SIZE over 256 MiB, groups of %zu, "
           "median of %d\n",
           LOCAL, RUNS);
    for (size_t i = 0; i < n; i++)
        run(&t[i]);
    return 0;
}
