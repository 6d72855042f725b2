/* SPDX-License-Identifier: MIT */
/*
 * Scans and stream compaction with the Khronos sub-group extensions, on
 * every platform the loader lists, medians of 7 runs after a warm-up, beside
 * the machine's read bandwidth (a plain C loop summing the same array with
 * every CPU of the affinity mask, bench_host.h):
 * - input: 64 Mi floats (256 MiB) of (i % 17) - 5, small integers whose sums
 *   stay exact in float;
 * - scan: each sub-group scans one contiguous block of W x 256 floats with
 *   sub_group_scan_inclusive_add, 256 steps of W, carrying the block's sum
 *   from step to step with sub_group_broadcast of the last lane (added to
 *   the carry, so that the steps' scans do not wait for each other); 256 Ki
 *   work-items in groups of 256 (so 64 Mi floats read and 64 Mi written);
 *   the host checks every output against its own scan of each block;
 * - compaction: the same blocks, keeping the positive floats (11 of each 17)
 *   in order: a first pass counts the block's kept floats
 *   (sub_group_ballot, sub_group_ballot_bit_count), the elected lane
 *   (sub_group_elect) reserves room with one atomic_add (and notes where,
 *   for the check), and
 *   sub_group_broadcast_first hands the base to the others; a second pass
 *   reads the block again (from cache: 8 KiB to 32 KiB) and each kept float
 *   goes to base + sub_group_ballot_exclusive_scan of the ballot. The host
 *   checks the count and each block's floats at its base.
 * GB/s counts the 256 MiB of input read once; each figure is also given as
 * a share of the C loop's read bandwidth. A platform without the extensions
 * a kernel needs is skipped with a line saying so.
 */
#include "bench_host.h"

enum { RUNS = BENCH_HOST_RUNS };
#define N BENCH_HOST_N
#define PER_ITEM 256u
#define GLOBAL (N / PER_ITEM) /* work-items */
#define LOCAL ((size_t)256)

static const char *scan_src =
    "kernel void scan(global float *out, global const float *in, uint per_item) {\n"
    "    uint w = get_max_sub_group_size(), lane = get_sub_group_local_id();\n"
    "    size_t sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();\n"
    "    size_t base = sg * w * per_item + lane;\n"
    "    float carry = 0.0f;\n"
    "    for (uint k = 0; k < per_item; k++) {\n"
    "        float s = sub_group_scan_inclusive_add(in[base + k * w]);\n"
    "        out[base + k * w] = s + carry;\n"
    "        carry += sub_group_broadcast(s, w - 1);\n"
    "    }\n"
    "}\n";

static const char *compact_src =
    "kernel void compact(global float *out, global const float *in, volatile global uint *count,\n"
    "                    global uint *bases, uint per_item) {\n"
    "    uint w = get_max_sub_group_size(), lane = get_sub_group_local_id();\n"
    "    size_t sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();\n"
    "    global const float *p = in + sg * w * per_item + lane;\n"
    "    uint n = 0;\n"
    "    for (uint k = 0; k < per_item; k++)\n"
    "        n += sub_group_ballot_bit_count(sub_group_ballot(p[k * w] > 0.0f));\n"
    "    uint base = 0;\n"
    "    if (sub_group_elect())\n"
    "        bases[sg] = base = atomic_add(count, n);\n"
    "    base = sub_group_broadcast_first(base);\n"
    "    for (uint k = 0; k < per_item; k++) {\n"
    "        float x = p[k * w];\n"
    "        uint4 kept = sub_group_ballot(x > 0.0f);\n"
    "        if (x > 0.0f)\n"
    "            out[base + sub_group_ballot_exclusive_scan(kept)] = x;\n"
    "        base += sub_group_ballot_bit_count(kept);\n"
    "    }\n"
    "}\n";

/* The first wrong output of the scan, or -1: each block of w x PER_ITEM scanned on its own. */
static long check_scan(const float *in, const float *out, size_t w)
{
    for (size_t b = 0; b < N; b += w * PER_ITEM) {
        float s = 0.0f;
        for (size_t i = b; i < b + w * PER_ITEM; i++) {
            s += in[i];
            if (out[i] != s)
                return (long)i;
        }
    }
    return -1;
}

/*
 * Whether the compaction kept exactly the positive floats, each block's in
 * order from the base its sub-group reserved (bases[block]).
 */
static int check_compact(const float *in, const float *out, const cl_uint *bases, cl_uint count,
                         size_t w)
{
    size_t block = w * PER_ITEM, total = 0;
    for (size_t b = 0; b < N / block; b++) {
        size_t o = bases[b];
        for (size_t i = b * block; i < (b + 1) * block; i++)
            if (in[i] > 0.0f && (o >= count || out[o++] != in[i]))
                return 0;
        total += o - bases[b];
    }
    return total == count;
}

static double gbs(double s)
{
    return N * sizeof(float) / s / 1e9;
}

static void report(const char *platform, const char *what, double s, double c_gbs, size_t sg,
                   const char *error)
{
    printf("  %-28s %-11s", platform, what);
    if (error) {
        printf("MISMATCH: %s\n", error);
        return;
    }
    printf("%7.2f GB/s", gbs(s));
    bench_result("scan", what, platform, gbs(s), "GB/s");
    if (c_gbs > 0)
        printf(" %6.1f%% of the read bandwidth", 100 * gbs(s) / c_gbs);
    printf(" (sub-group size %zu)\n", sg);
}

/* Builds `src` and times its kernel `name` over in -> out (count: the compaction's counter). */
static void run_one(const struct bench_target *t, cl_context ctx, cl_command_queue q,
                    const char *src, const char *name, cl_mem in, cl_mem out, cl_mem count,
                    cl_mem bases, const float *in_host, double c_gbs)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "-cl-std=CL3.0", NULL, NULL));
    cl_kernel k = clCreateKernel(p, name, &err);
    BENCH_CHECK(err);
    cl_uint per_item = PER_ITEM, zero = 0;
    int a = 0;
    BENCH_CHECK(clSetKernelArg(k, a++, sizeof out, &out));
    BENCH_CHECK(clSetKernelArg(k, a++, sizeof in, &in));
    if (count) {
        BENCH_CHECK(clSetKernelArg(k, a++, sizeof count, &count));
        BENCH_CHECK(clSetKernelArg(k, a++, sizeof bases, &bases));
    }
    BENCH_CHECK(clSetKernelArg(k, a++, sizeof per_item, &per_item));
    size_t global = GLOBAL, local = LOCAL, sg = 0;
    BENCH_CHECK(clGetKernelSubGroupInfo(k, t->device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                        sizeof local, &local, sizeof sg, &sg, NULL));
    /* Each run starts from an empty output: the counter is reset before it. */
    double times[RUNS];
    for (int r = -1; r < RUNS; r++) {
        if (count)
            BENCH_CHECK(
                clEnqueueWriteBuffer(q, count, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL));
        double t0 = bench_now_us();
        BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
        BENCH_CHECK(clFinish(q));
        if (r >= 0)
            times[r] = (bench_now_us() - t0) / 1e6;
    }
    float *result = malloc(N * sizeof(float));
    if (!result)
        exit(1);
    BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, N * sizeof(float), result, 0, NULL, NULL));
    char error[128];
    const char *bad = NULL;
    if (count) {
        cl_uint n = 0, *base = malloc(GLOBAL * sizeof *base);
        if (!base)
            exit(1);
        BENCH_CHECK(clEnqueueReadBuffer(q, count, CL_TRUE, 0, sizeof n, &n, 0, NULL, NULL));
        BENCH_CHECK(
            clEnqueueReadBuffer(q, bases, CL_TRUE, 0, GLOBAL * sizeof *base, base, 0, NULL, NULL));
        int ok = check_compact(in_host, result, base, n, sg);
        free(base);
        if (!ok) {
            snprintf(error, sizeof error, "%u floats kept, or not in order", n);
            bad = error;
        }
    } else {
        long i = check_scan(in_host, result, sg);
        if (i >= 0) {
            snprintf(error, sizeof error, "output %ld is %g", i, result[i]);
            bad = error;
        }
    }
    free(result);
    report(t->name, name, bench_median(times, RUNS), c_gbs, sg, bad);
    if (strcmp(t->name, "Lanes") == 0)
        bench_print_not_vectorized(p, t->device, t->name);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void run(const struct bench_target *t, const float *in_host, double c_gbs)
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
    BENCH_CHECK(err);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float),
                               (void *)in_host, &err);
    BENCH_CHECK(err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
    BENCH_CHECK(err);
    cl_mem count = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    BENCH_CHECK(err);
    /* A base per sub-group: room for sub-groups of one work-item. */
    cl_mem bases = clCreateBuffer(ctx, CL_MEM_READ_WRITE, GLOBAL * sizeof(cl_uint), NULL, &err);
    BENCH_CHECK(err);
    run_one(t, ctx, q, scan_src, "scan", in, out, NULL, NULL, in_host, c_gbs);
    if (bench_has_extension(t->device, "cl_khr_subgroup_ballot") &&
        bench_has_extension(t->device, "cl_khr_subgroup_non_uniform_vote"))
        run_one(t, ctx, q, compact_src, "compact", in, out, count, bases, in_host, c_gbs);
    else
        printf("  %-28s compact    skipped: no cl_khr_subgroup_ballot and "
               "cl_khr_subgroup_non_uniform_vote\n",
               t->name);
    clReleaseMemObject(in), clReleaseMemObject(out), clReleaseMemObject(count);
    clReleaseMemObject(bases);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    double expected = 0;
    float *x = bench_host_input(&expected);
    const char *w = getenv("LANES_WIDTH");
    printf("scan and compaction, median of %d (LANES_WIDTH=%s; %zu Mi floats = %zu MiB, each "
           "sub-group a block of W x %u, %zu Ki work-items in groups of %zu)\n",
           RUNS, w ? w : "unset", N >> 20, N * sizeof(float) >> 20, PER_ITEM, GLOBAL >> 10, LOCAL);
    double c_gbs = bench_host_read_loop(x, expected);
    if (c_gbs > 0) {
        bench_result("scan", "scan", "C loop", c_gbs, "GB/s");
        bench_result("scan", "compact", "C loop", c_gbs, "GB/s");
    }
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    for (size_t i = 0; i < n; i++)
        run(&t[i], x, c_gbs);
    free(x);
    return 0;
}
