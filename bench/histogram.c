/* SPDX-License-Identifier: MIT */
/*
 * A 256-bin histogram of 64 MiB of bytes with __local atomics, on every
 * platform the loader lists, beside a plain C loop; medians of 7 after a
 * warm-up:
 * - input: 64 MiB of bytes from a fixed xorshift generator, skewed (a byte
 *   is the smaller of two draws, so low bins are hit more often: counters
 *   that collide, as in real images);
 * - kernel: groups of 256, 1,024 groups; each group clears a __local
 *   histogram of 256 uint, each work-item reads uint4s grid-strided and
 *   counts their 16 bytes with atomic_inc on the __local bins, then after
 *   a barrier each work-item adds one bin into the global histogram with
 *   atomic_add; the host checks every bin;
 * - C loop: one thread per CPU of the affinity mask, pinned, each counting
 *   a contiguous chunk into 4 private histograms (no atomics), merged at the
 *   end; thread creation is timed, as launching is in the kernel's time.
 * GB/s counts the 64 MiB read.
 */
#include "bench_common.h"
#include "bench_pinned.h"

enum { RUNS = 7, BINS = 256, GROUPS = 1024, LOCAL = 256 };
#define N ((size_t)64 << 20) /* bytes */

static const char *src =
    "kernel void histogram(global const uint4 *in, global uint *bins, uint n4) {\n"
    "    local uint h[256];\n"
    "    uint l = get_local_id(0);\n"
    "    h[l] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint i = get_global_id(0); i < n4; i += get_global_size(0)) {\n"
    "        uint4 v = in[i];\n"
    "        for (uint s = 0; s < 32; s += 8) {\n"
    "            atomic_inc(&h[(v.x >> s) & 255]);\n"
    "            atomic_inc(&h[(v.y >> s) & 255]);\n"
    "            atomic_inc(&h[(v.z >> s) & 255]);\n"
    "            atomic_inc(&h[(v.w >> s) & 255]);\n"
    "        }\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_add(&bins[l], h[l]);\n"
    "}\n";

struct chunk {
    const unsigned char *in;
    size_t begin, end;
    uint32_t bins[BINS];
};

static void *count_chunk(void *arg)
{
    struct chunk *c = arg;
    uint32_t h[4][BINS] = {{0}};
    size_t i = c->begin;
    for (; i + 4 <= c->end; i += 4) {
        h[0][c->in[i]]++;
        h[1][c->in[i + 1]]++;
        h[2][c->in[i + 2]]++;
        h[3][c->in[i + 3]]++;
    }
    for (; i < c->end; i++)
        h[0][c->in[i]]++;
    for (int b = 0; b < BINS; b++)
        c->bins[b] = h[0][b] + h[1][b] + h[2][b] + h[3][b];
    return NULL;
}

/* The C loop's GB/s (median), its histogram in `want`. */
static double c_loop(const unsigned char *in, uint32_t want[BINS])
{
    int cpu[CPU_SETSIZE], threads = bench_cpus(cpu);
    struct chunk *chunk = calloc((size_t)threads, sizeof *chunk);
    if (!chunk)
        exit(1);
    size_t per = (N / (size_t)threads + 63) / 64 * 64;
    for (int j = 0; j < threads; j++) {
        chunk[j].in = in;
        chunk[j].begin = (size_t)j * per < N ? (size_t)j * per : N;
        chunk[j].end = (size_t)(j + 1) * per < N ? (size_t)(j + 1) * per : N;
    }
    double t[RUNS];
    for (int r = -1; r < RUNS; r++) {
        double t0 = bench_now_us();
        bench_run_pinned(count_chunk, chunk, sizeof *chunk, cpu, threads);
        memset(want, 0, BINS * sizeof *want);
        for (int j = 0; j < threads; j++) {
            for (int b = 0; b < BINS; b++)
                want[b] += chunk[j].bins[b];
        }
        if (r >= 0)
            t[r] = (bench_now_us() - t0) / 1e6;
    }
    free(chunk);
    double gbs = N / bench_median(t, RUNS) / 1e9;
    char name[64];
    snprintf(name, sizeof name, "plain C loop, %d thread%s", threads, threads > 1 ? "s" : "");
    printf("  %-28s %7.2f GB/s\n", name, gbs);
    return gbs;
}

static void run(const struct bench_target *t, const unsigned char *in_host,
                const uint32_t want[BINS], double c_gbs)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "", NULL, NULL));
    cl_kernel k = clCreateKernel(p, "histogram", &err);
    BENCH_CHECK(err);
    cl_mem in =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N, (void *)in_host, &err);
    BENCH_CHECK(err);
    cl_mem bins = clCreateBuffer(ctx, CL_MEM_READ_WRITE, BINS * sizeof(cl_uint), NULL, &err);
    BENCH_CHECK(err);
    cl_uint n4 = (cl_uint)(N / 16);
    BENCH_CHECK(clSetKernelArg(k, 0, sizeof in, &in));
    BENCH_CHECK(clSetKernelArg(k, 1, sizeof bins, &bins));
    BENCH_CHECK(clSetKernelArg(k, 2, sizeof n4, &n4));
    size_t global = (size_t)GROUPS * LOCAL, local = LOCAL;
    double s = bench_time_kernel(q, k, RUNS, 1, &global, &local);
    /* The warm-up and the timed runs all added into the bins: one more, alone, to check. */
    cl_uint zero = 0, got[BINS];
    BENCH_CHECK(clEnqueueFillBuffer(q, bins, &zero, sizeof zero, 0, sizeof got, 0, NULL, NULL));
    BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    BENCH_CHECK(clEnqueueReadBuffer(q, bins, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    printf("  %-28s ", t->name);
    int bad = -1;
    for (int b = 0; b < BINS && bad < 0; b++)
        if (got[b] != want[b])
            bad = b;
    if (bad >= 0) {
        printf("MISMATCH: bin %d holds %u, want %u\n", bad, got[bad], want[bad]);
    } else {
        double gbs = N / s / 1e9;
        bench_result("histogram", "local atomics", t->name, gbs, "GB/s");
        printf("%7.2f GB/s", gbs);
        if (c_gbs > 0)
            printf(" %6.1f%% of the C loop", 100 * gbs / c_gbs);
        printf("\n");
    }
    if (strcmp(t->name, "Lanes") == 0)
        bench_print_not_vectorized(p, t->device, t->name);
    clReleaseMemObject(in), clReleaseMemObject(bins);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    unsigned char *in = malloc(N);
    if (!in)
        return 1;
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < N; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        unsigned a = (unsigned)(s >> 24) & 255, b = (unsigned)(s >> 40) & 255;
        in[i] = (unsigned char)(a < b ? a : b);
    }
    const char *w = getenv("LANES_WIDTH");
    printf("histogram, median of %d (LANES_WIDTH=%s; 256 bins of %zu MiB of bytes, __local "
           "atomic_inc per byte, %d groups of %d)\n",
           RUNS, w ? w : "unset", N >> 20, GROUPS, LOCAL);
    uint32_t want[BINS];
    double c_gbs = c_loop(in, want);
    bench_result("histogram", "local atomics", "C loop", c_gbs, "GB/s");
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    for (size_t i = 0; i < n; i++)
        run(&t[i], in, want, c_gbs);
    free(in);
    return 0;
}
