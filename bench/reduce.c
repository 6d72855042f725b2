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
#include "bench_common.h"

#include <pthread.h>
#include <sched.h>

enum { RUNS = 7, ACCS = 8 };
#define N ((size_t)64 << 20)      /* floats: 256 MiB */
#define GLOBAL ((size_t)64 << 10) /* work-items, each summing N / GLOBAL = 1024 floats */
#define LOCAL ((size_t)256)
#define BLOCK ((size_t)8192) /* C loop: floats per block, so that float partial sums stay exact */

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

/* Whether `word` is one of the space-separated words of `list`. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Whether kernels built with -cl-std=CL3.0 may call the sub-group functions. */
static int has_sub_groups(cl_device_id device)
{
    int found = 0;
    size_t size = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size) == CL_SUCCESS &&
        size) {
        cl_name_version *f = malloc(size);
        if (f && clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, f, NULL) == CL_SUCCESS)
            for (size_t i = 0; i < size / sizeof *f; i++)
                found |= strcmp(f[i].name, "__opencl_c_subgroups") == 0;
        free(f);
    }
    if (!found && clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) == CL_SUCCESS &&
        size) {
        char *ext = malloc(size);
        if (ext && clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, ext, NULL) == CL_SUCCESS)
            found = has_word(ext, "cl_khr_subgroups");
        free(ext);
    }
    return found;
}

static void run(const struct bench_target *t, const float *in_host, double expected, double c_gbs)
{
    if (!has_sub_groups(t->device)) {
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

/* One C loop thread's share: floats [begin, end) of x, pinned to one CPU. */
struct chunk {
    const float *x;
    size_t begin, end;
    double sum;
};

/* Sums a chunk: 8 independent float accumulators per block of BLOCK floats,
 * so that the adds keep up with memory, then the block's sum in double. */
static void *sum_chunk(void *arg)
{
    struct chunk *c = arg;
    double total = 0;
    for (size_t b = c->begin; b < c->end; b += BLOCK) {
        size_t end = b + BLOCK < c->end ? b + BLOCK : c->end, i = b;
        float a[ACCS] = {0};
        for (; i + ACCS <= end; i += ACCS)
            for (int j = 0; j < ACCS; j++)
                a[j] += c->x[i + j];
        for (; i < end; i++)
            a[0] += c->x[i];
        for (int j = 0; j < ACCS; j++)
            total += a[j];
    }
    c->sum = total;
    return NULL;
}

/* The C loop's GB/s (median of RUNS after a warm-up), printed with the best run; 0 if wrong. */
static double host_loop(const float *x, double expected)
{
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) {
        CPU_ZERO(&mask);
        CPU_SET(0, &mask);
    }
    int threads = CPU_COUNT(&mask), cpu[CPU_SETSIZE];
    for (int c = 0, n = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &mask))
            cpu[n++] = c;
    struct chunk *chunk = calloc((size_t)threads, sizeof *chunk);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!chunk || !tid)
        exit(1);
    size_t per = (N / (size_t)threads + BLOCK - 1) / BLOCK * BLOCK; /* whole blocks */
    for (int j = 0; j < threads; j++) {
        chunk[j].x = x;
        chunk[j].begin = (size_t)j * per < N ? (size_t)j * per : N;
        chunk[j].end = (size_t)(j + 1) * per < N ? (size_t)(j + 1) * per : N;
    }
    double t[RUNS], sum = 0;
    for (int r = -1; r < RUNS; r++) {
        double t0 = bench_now_us();
        for (int j = 0; j < threads; j++) {
            pthread_attr_t attr;
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu[j], &one);
            pthread_attr_init(&attr);
            pthread_attr_setaffinity_np(&attr, sizeof one, &one);
            if (pthread_create(&tid[j], &attr, sum_chunk, &chunk[j]) != 0)
                exit(1);
            pthread_attr_destroy(&attr);
        }
        sum = 0;
        for (int j = 0; j < threads; j++) {
            pthread_join(tid[j], NULL);
            sum += chunk[j].sum;
        }
        if (r >= 0)
            t[r] = (bench_now_us() - t0) / 1e6;
    }
    free(chunk), free(tid);
    char name[64];
    snprintf(name, sizeof name, "plain C loop, %d thread%s", threads, threads > 1 ? "s" : "");
    printf("  %-28s ", name);
    if (sum != expected) {
        printf("MISMATCH: %.1f, want %.1f\n", sum, expected);
        return 0;
    }
    double median = bench_median(t, RUNS), best = t[0]; /* sorted by bench_median */
    double gbs = N * sizeof(float) / median / 1e9;
    printf("%7.2f GB/s (best %.2f GB/s; %d accumulators per thread)\n", gbs,
           N * sizeof(float) / best / 1e9, ACCS);
    return gbs;
}

int main(void)
{
    float *x = malloc(N * sizeof(float));
    if (!x)
        return 1;
    double expected = 0;
    for (size_t i = 0; i < N; i++) {
        x[i] = (float)(i % 17) - 5.0f;
        expected += x[i];
    }
    const char *w = getenv("LANES_WIDTH");
    printf("reduce, median of %d (LANES_WIDTH=%s; sub_group_reduce_add over %zu Mi floats = %zu "
           "MiB, %zu Ki work-items x %zu floats grid-strided, groups of %zu; target: >= 80%% of "
           "the C loop)\n",
           RUNS, w ? w : "unset", N >> 20, N * sizeof(float) >> 20, GLOBAL >> 10, N / GLOBAL,
           LOCAL);
    double c_gbs = host_loop(x, expected);
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    for (size_t i = 0; i < n; i++)
        run(&t[i], x, expected, c_gbs);
    free(x);
    return 0;
}
