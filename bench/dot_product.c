/* SPDX-License-Identifier: MIT */
/*
 * Byte dot products (cl_khr_integer_dot_product) as an int8 layer computes
 * them, on every platform the loader lists that has the extension, beside a
 * plain C loop; medians of 7 after a warm-up:
 * - each of 256 Ki work-items holds 16 bytes of activations (4 packed
 *   uints) and runs them against 4,096 packed weights read by all lanes
 *   alike (a uniform load), in 4 independent saturating accumulators: a
 *   loop bound by the dot products, not by memory;
 * - forms: dot_acc_sat_4x8packed_us_int (unsigned x signed: one vpdpbusds
 *   with VNNI), _ss_int and _uu_uint (two vpdpbusd and a correction), and
 *   dot_acc_sat(uchar4, char4, int) on vector types;
 * - C loop: the same sums with the same saturation, one pinned thread per
 *   CPU of the affinity mask, compiled with the project's flags; thread
 *   creation is timed, as launching is in the kernel's time; median of 3.
 * GOPS counts 8 operations per dot product (4 multiplies, 4 adds). Every
 * output is checked against the C loop's. Lanes takes VNNI where the host
 * has it; run again with LANES_VNNI=0 for its generic code.
 */
#include "bench_common.h"
#include "bench_pinned.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

enum { RUNS = 7, C_RUNS = 3, N = 256 << 10, K = 4096, FORMS = 4 };

static const char *src =
    "#define BODY(ACC, T, A, W)                                                   \\\n"
    "    size_t i = get_global_id(0);                                             \\\n"
    "    uint a0 = a[4 * i], a1 = a[4 * i + 1], a2 = a[4 * i + 2], a3 = a[4 * i + 3]; \\\n"
    "    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                        \\\n"
    "    for (uint k = 0; k < K; k += 4) {                                        \\\n"
    "        s0 = ACC(A(a0), W(w[k]), s0);                                        \\\n"
    "        s1 = ACC(A(a1), W(w[k + 1]), s1);                                    \\\n"
    "        s2 = ACC(A(a2), W(w[k + 2]), s2);                                    \\\n"
    "        s3 = ACC(A(a3), W(w[k + 3]), s3);                                    \\\n"
    "    }                                                                        \\\n"
    "    out[4 * i] = s0, out[4 * i + 1] = s1, out[4 * i + 2] = s2, out[4 * i + 3] = s3;\n"
    "#define SAME(x) (x)\n"
    "kernel void us(global const uint *a, global const uint *w, global int *out) {\n"
    "    BODY(dot_acc_sat_4x8packed_us_int, int, SAME, SAME)\n"
    "}\n"
    "kernel void ss(global const uint *a, global const uint *w, global int *out) {\n"
    "    BODY(dot_acc_sat_4x8packed_ss_int, int, SAME, SAME)\n"
    "}\n"
    "kernel void uu(global const uint *a, global const uint *w, global uint *out) {\n"
    "    BODY(dot_acc_sat_4x8packed_uu_uint, uint, SAME, SAME)\n"
    "}\n"
    "kernel void us_vec(global const uint *a, global const uint *w, global int *out) {\n"
    "    BODY(dot_acc_sat, int, as_uchar4, as_char4)\n"
    "}\n";

static const char *const kernels[FORMS] = {"us", "ss", "uu", "us_vec"};
static const char *const labels[FORMS] = {"packed us, acc_sat", "packed ss, acc_sat",
                                          "packed uu, acc_sat", "uchar4 . char4, acc_sat"};

/* The four products of one dword, in 32 bits as the built-ins take them. */
#define U8(x, k) ((int32_t)(uint8_t)((x) >> (8 * (k))))
#define S8(x, k) ((int32_t)(int8_t)((x) >> (8 * (k))))
#define DOT(A, B, a, b)                                                                            \
    (A(a, 0) * B(b, 0) + A(a, 1) * B(b, 1) + A(a, 2) * B(b, 2) + A(a, 3) * B(b, 3))

static inline uint32_t sat_int(int64_t s)
{
    return (uint32_t)(int32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
}

/* One form's accumulation, saturated as the built-in saturates. */
static inline uint32_t acc_sat(int form, uint32_t a, uint32_t w, uint32_t acc)
{
    switch (form) {
    case 0: return sat_int((int64_t)(int32_t)acc + DOT(U8, S8, a, w));
    case 1: return sat_int((int64_t)(int32_t)acc + DOT(S8, S8, a, w));
    default: {
        uint64_t s = (uint64_t)acc + (uint32_t)DOT(U8, U8, a, w);
        return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
    }
    }
}

struct chunk {
    int form;
    const uint32_t *a, *w;
    uint32_t *out;
    size_t begin, end;
};

/* The loop of one form, with the form a constant in each copy. */
#define C_LOOP(form)                                                                               \
    for (size_t i = c->begin; i < c->end; i++) {                                                   \
        uint32_t s[4] = {0, 0, 0, 0};                                                              \
        for (size_t k = 0; k < K; k += 4)                                                          \
            for (int j = 0; j < 4; j++)                                                            \
                s[j] = acc_sat(form, c->a[4 * i + j], c->w[k + j], s[j]);                          \
        memcpy(&c->out[4 * i], s, sizeof s);                                                       \
    }

static void *c_chunk(void *arg)
{
    const struct chunk *c = arg;
    if (c->form == 0)
        C_LOOP(0)
    else if (c->form == 1)
        C_LOOP(1)
    else
        C_LOOP(2)
    return NULL;
}

/* The C loop's GOPS (median) for `form`, its outputs in `want`. */
static double c_loop(int form, const uint32_t *a, const uint32_t *w, uint32_t *want)
{
    int cpu[CPU_SETSIZE], threads = bench_cpus(cpu);
    struct chunk *chunk = calloc((size_t)threads, sizeof *chunk);
    if (!chunk)
        exit(1);
    size_t per = (N + (size_t)threads - 1) / (size_t)threads;
    for (int j = 0; j < threads; j++)
        chunk[j] = (struct chunk){form,
                                  a,
                                  w,
                                  want,
                                  (size_t)j * per < N ? (size_t)j * per : N,
                                  (size_t)(j + 1) * per < N ? (size_t)(j + 1) * per : N};
    double t[C_RUNS];
    for (int r = -1; r < C_RUNS; r++) {
        double t0 = bench_now_us();
        bench_run_pinned(c_chunk, chunk, sizeof *chunk, cpu, threads);
        if (r >= 0)
            t[r] = (bench_now_us() - t0) / 1e6;
    }
    free(chunk);
    return 8.0 * N * K / bench_median(t, C_RUNS) / 1e9;
}

static void run(const struct bench_target *t, const uint32_t *a_host, const uint32_t *w_host,
                uint32_t *want[FORMS], const double c_gops[FORMS])
{
    if (!bench_has_extension(t->device, "cl_khr_integer_dot_product")) {
        printf("  %-28s no cl_khr_integer_dot_product: skipped\n", t->name);
        return;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    char options[64];
    snprintf(options, sizeof options, "-DK=%du", K);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, options, NULL, NULL));
    size_t bytes = (size_t)4 * N * sizeof(cl_uint);
    cl_mem a =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, (void *)a_host, &err);
    BENCH_CHECK(err);
    cl_mem w = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, K * sizeof(cl_uint),
                              (void *)w_host, &err);
    BENCH_CHECK(err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    BENCH_CHECK(err);
    uint32_t *got = malloc(bytes);
    if (!got)
        exit(1);
    for (int f = 0; f < FORMS; f++) {
        cl_kernel k = clCreateKernel(p, kernels[f], &err);
        BENCH_CHECK(err);
        BENCH_CHECK(clSetKernelArg(k, 0, sizeof a, &a));
        BENCH_CHECK(clSetKernelArg(k, 1, sizeof w, &w));
        BENCH_CHECK(clSetKernelArg(k, 2, sizeof out, &out));
        size_t global = N;
        double s = bench_time_kernel(q, k, RUNS, 1, &global, NULL);
        BENCH_CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, bytes, got, 0, NULL, NULL));
        printf("  %-28s %-24s ", t->name, labels[f]);
        size_t bad = SIZE_MAX;
        for (size_t i = 0; i < 4 * (size_t)N && bad == SIZE_MAX; i++)
            if (got[i] != want[f][i])
                bad = i;
        if (bad != SIZE_MAX) {
            printf("MISMATCH: output %zu holds %#x, want %#x\n", bad, got[bad], want[f][bad]);
        } else {
            double gops = 8.0 * N * K / s / 1e9;
            bench_result("dot_product", labels[f], t->name, gops, "GOPS");
            printf("%8.1f GOPS %6.2fx the C loop\n", gops, gops / c_gops[f]);
        }
        clReleaseKernel(k);
    }
    if (strcmp(t->name, "Lanes") == 0)
        bench_print_not_vectorized(p, t->device, t->name);
    free(got);
    clReleaseMemObject(a), clReleaseMemObject(w), clReleaseMemObject(out);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    uint32_t *a = malloc((size_t)4 * N * sizeof *a), *w = malloc(K * sizeof *w), *want[FORMS];
    for (int f = 0; f < FORMS; f++)
        want[f] = malloc((size_t)4 * N * sizeof **want);
    if (!a || !w || !want[0] || !want[1] || !want[2] || !want[3])
        return 1;
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < (size_t)4 * N; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        a[i] = (uint32_t)(s >> 16);
    }
    for (size_t k = 0; k < K; k++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        w[k] = (uint32_t)(s >> 16);
    }
    const char *lw = getenv("LANES_WIDTH"), *vnni = getenv("LANES_VNNI");
    printf("int8 dot products, median of %d (LANES_WIDTH=%s, LANES_VNNI=%s; %d work-items x %d "
           "packed weights, 4 accumulators each)\n",
           RUNS, lw ? lw : "unset", vnni ? vnni : "unset", N, K);
    double c_gops[FORMS];
    for (int f = 0; f < FORMS; f++) {
        /* us_vec is the us sums on vector types: the same C loop. */
        c_gops[f] = c_loop(f == 3 ? 0 : f, a, w, want[f]);
        bench_result("dot_product", labels[f], "C loop", c_gops[f], "GOPS");
        printf("  %-28s %-24s %8.1f GOPS\n", "plain C loop", labels[f], c_gops[f]);
    }
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    for (size_t i = 0; i < n; i++)
        run(&t[i], a, w, want, c_gops);
    free(a), free(w);
    for (int f = 0; f < FORMS; f++)
        free(want[f]);
    return 0;
}
