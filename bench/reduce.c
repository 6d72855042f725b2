/* SPDX-License-Identifier: MIT */
/*
 * Bandwidth of sub_group_reduce_add on every platform the loader lists,
 * medians of 7 runs after a warm-up (enqueue + finish), beside a plain C
 * loop summing the same data with every CPU of the affinity mask:
 * - input: 64 Mi floats (256 MiB), (i % 17) - 5: small integers whose sums
 *   stay exact in float and in any order, with a mean of about 3 so that a
 *   lost or doubled partial sum changes the total;
 * - kernel: 64 Ki work-items in groups of 256, each summing 1024 floats
 *   grid-strided (element gid + k * global size, so that neighbouring
 *   work-items read neighbouring floats), then one sub_group_reduce_add and
 *   a store of the sub-group's sum by its lane 0; the host adds the partial
 *   sums and compares them with the exact total (a mismatch is printed
 *   instead of the figures); then the same with each sub-group summing one
 *   contiguous block of W x 1024 floats (lane l reads element l of each
 *   step of W), the pattern a CPU's prefetchers follow;
 * - C loop: one thread per CPU of the affinity mask, each pinned to its CPU
 *   and summing one contiguous chunk with 8 independent accumulators
 *   (thread creation included in the time, as launching is in the kernel's).
 * GB/s counts the 256 MiB read. The target is 80 % of the C loop.
 * A platform without sub-groups (neither the OpenCL C feature
 * __opencl_c_subgroups nor cl_khr_subgroups) is skipped with a line saying
 * so. Lanes' sub-group width comes from LANES_WIDTH (bench/README.md); if
 * Lanes could not vectorize the kernel, the build log's line is printed.
 */
#include "bench_host.h"

enum { RUNS = BENCH_HOST_RUNS };
#define N BENCH_HOST_N            /* floats: 256 MiB */
#define GLOBAL ((size_t)64 << 10) /* work-items, each summing N / GLOBAL = 1024 floats */
#define LOCAL ((size_t)256)

static const char *src =
    "kernel void reduce(global float *out, global const float *in, uint per_item) {\n"
    "    size_t gid = get_global_id(0), stride = get_global_size(0);\n"
    "    float acc = 0.0f;\n"
    "    for (uint k = 0; k < per_item; k++)\n"
    "        acc += in[gid + k * stride];\n"
    "    float s = sub_group_reduce_add(acc);\n"
    "    /* Sub-groups may straddle rows of a group: number them per group. */\n"
    "    if (get_sub_group_local_id() == 0)\n"
    "        out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;\n"
    "}\n"
    "/* The same sums, each sub-group reading one contiguous block (full sub-groups). */\n"
    "kernel void reduce_blocked(global float *out, global const float *in, uint per_item) {\n"
    "    uint w = get_max_sub_group_size(), lane = get_sub_group_local_id();\n"
    "    size_t sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();\n"
    "    global const float *p = in + sg * w * per_item + lane;\n"
    "    float acc = 0.0f;\n"
    "    for (uint k = 0; k < per_item; k++)\n"
    "        acc += p[k * w];\n"
    "    float s = sub_group_reduce_add(acc);\n"
    "    if (lane == 0)\n"
    "        out[sg] = s;\n"
    "}\n";

static const char *const kernels[] = {"reduce", "reduce_blocked"};
static const char *const patterns[] = {"grid-strided", "blocked"};

static void run(const struct bench_target *t, const float *in_host, double expected, double c_gbs)
{
    if (!bench_has_sub_groups(t->device)) {
        printf("  %-28s skipped: neither the OpenCL C feature __opencl_c_subgroups nor "
               "cl_khr_subgroups\n",
               t->name);
        return;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "-cl-std=CL3.0", NULL, NULL));
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float),
                               (void *)in_host, &err);
    BENCH_CHECK(err);
    /* Room for sub-groups of one work-item; zeros where larger sub-groups write nothing. */
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, GLOBAL * sizeof(float), NULL, &err);
    BENCH_CHECK(err);
    for (size_t v = 0; v < sizeof kernels / sizeof *kernels; v++) {
        cl_kernel k = clCreateKernel(p, kernels[v], &err);
        BENCH_CHECK(err);
        float zero = 0.0f;
        BENCH_CHECK(clEnqueueFillBuffer(q, out, &zero, sizeof zero, 0, GLOBAL * sizeof(float), 0,
                                        NULL, NULL));
        cl_uint per_item = (cl_uint)(N / GLOBAL);
        BENCH_CHECK(clSetKernelArg(k, 0, sizeof out, &out));
        BENCH_CHECK(clSetKernelArg(k, 1, sizeof in, &in));
        BENCH_CHECK(clSetKernelArg(k, 2, sizeof per_item, &per_item));
        size_t global = GLOBAL, local = LOCAL, sg = 0;
        char sg_text[32] = "?";
        if (clGetKernelSubGroupInfo(k, t->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof local, &local, sizeof sg, &sg, NULL) == CL_SUCCESS)
            snprintf(sg_text, sizeof sg_text, "%zu", sg);
        double s = bench_time_kernel(q, k, RUNS, 1, &global, &local);
        float *partial = malloc(GLOBAL * sizeof(float));
        if (!partial)
            exit(1);
        BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, GLOBAL * sizeof(float), partial, 0,
                                        NULL, NULL));
        double sum = 0;
        for (size_t i = 0; i < GLOBAL; i++)
            sum += partial[i];
        printf("  %-28s %-13s", t->name, patterns[v]);
        if (sum != expected)
            printf("MISMATCH: the partial sums add up to %.1f, want %.1f (sub-group size %s)\n",
                   sum, expected, sg_text);
        else {
            double gbs = N * sizeof(float) / s / 1e9;
            bench_result("reduce", patterns[v], t->name, gbs, "GB/s");
            printf("%7.2f GB/s", gbs);
            if (c_gbs > 0)
                printf(" %6.1f%% of the C loop", 100 * gbs / c_gbs);
            printf(" (sub-group size %s)\n", sg_text);
        }
        free(partial);
        if (strcmp(t->name, "Lanes") == 0 && v == 0)
            bench_print_not_vectorized(p, t->device, t->name);
        clReleaseKernel(k);
    }
    clReleaseMemObject(in), clReleaseMemObject(out);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    double expected = 0;
    float *x = bench_host_input(&expected);
    const char *w = getenv("LANES_WIDTH");
    printf("reduce, median of %d (LANES_WIDTH=%s; sub_group_reduce_add over %zu Mi floats = %zu "
           "MiB, %zu Ki work-items x %zu floats grid-strided, groups of %zu; target: >= 80%% of "
           "the C loop)\n",
           RUNS, w ? w : "unset", N >> 20, N * sizeof(float) >> 20, GLOBAL >> 10, N / GLOBAL,
           LOCAL);
    double c_gbs = bench_host_read_loop(x, expected);
    if (c_gbs > 0) {
        bench_result("reduce", "grid-strided", "C loop", c_gbs, "GB/s");
        bench_result("reduce", "blocked", "C loop", c_gbs, "GB/s");
    }
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    for (size_t i = 0; i < n; i++)
        run(&t[i], x, expected, c_gbs);
    free(x);
    return 0;
}
