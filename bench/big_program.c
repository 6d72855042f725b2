/* SPDX-License-Identifier: MIT */
/*
 * What a small kernel of a big program costs to launch first, on every
 * platform the loader lists, in a fresh disk cache (XDG_CACHE_HOME is
 * pointed at a new directory before any OpenCL call). Real programs are one
 * source with a large include library and many kernels (hashcat's hold
 * about 230,000 LLVM instructions); this one is generated: HELPERS helper
 * functions of STEPS hashing steps each (about 220,000 instructions as
 * Clang emits them), a kernel calling all of them, a memset kernel, and a
 * kernel calling two helpers of the library (one of which calls a third),
 * and a big kernel calling BIG_HELPERS of them (about 13,000 instructions
 * once they are inlined, as a real program's main hash kernel).
 * Figures: clBuildProgram, then for the memset kernel, the library user
 * and the big kernel each, the first launch (enqueue + finish, local size
 * 64: compiles a specialization) and the first launch at a second local
 * size (another specialization of the same kernel); each result is checked.
 */
#include "bench_common.h"

#include <stdlib.h>
#include <unistd.h>

enum { HELPERS = 300, STEPS = 80, N = 1024 };
enum { BIG_FIRST = 10, BIG_HELPERS = 40 }; /* the big kernel calls h10 ... h49 */

/* The helpers' hashing, shared by the host's check. */
static unsigned step(unsigned y, unsigned h, unsigned s)
{
    y = y * (2654435761u + 2 * s) + h;
    return y ^ (y >> (s % 13 + 3));
}

static unsigned helper(unsigned h, unsigned x)
{
    unsigned y = x ^ h;
    for (unsigned s = 0; s < STEPS; s++)
        y = step(y, h, s);
    return y;
}

/* The program's source (malloc'd); `salt` makes it one no cache has seen. */
static char *generate(long salt)
{
    size_t cap = (size_t)HELPERS * STEPS * 64 + 65536;
    char *src = malloc(cap), *p = src;
    if (!src)
        exit(1);
    for (unsigned h = 0; h < HELPERS; h++) {
        p += sprintf(p, "uint h%u(uint x) {\n    uint y = x ^ %uu;\n", h, h);
        for (unsigned s = 0; s < STEPS; s++)
            p += sprintf(p, "    y = y * %uu + %uu; y ^= y >> %u;\n", 2654435761u + 2 * s, h,
                         s % 13 + 3);
        if (h == 1)
            p += sprintf(p, "    y = h2(y);\n");
        p += sprintf(p, "    return y;\n}\n");
        if (h == 0)
            p += sprintf(p, "uint h2(uint x);\n");
    }
    p += sprintf(p, "kernel void everything(global uint *o) {\n"
                    "    size_t i = get_global_id(0);\n    uint x = o[i], r = 0;\n");
    for (unsigned h = 0; h < HELPERS; h++)
        p += sprintf(p, "    r += h%u(x);\n", h);
    p += sprintf(p, "    o[i] = r;\n}\n");
    p += sprintf(p,
                 "kernel void fill(global uint *o, uint v) { o[get_global_id(0)] = v + %ldu; }\n"
                 "kernel void user(global uint *o) {\n"
                 "    size_t i = get_global_id(0);\n"
                 "    o[i] = h0(o[i]) + h1((uint)i);\n"
                 "}\n",
                 salt);
    p += sprintf(p, "kernel void big(global uint *o) {\n"
                    "    size_t i = get_global_id(0);\n    uint x = o[i];\n");
    for (unsigned h = BIG_FIRST; h < BIG_FIRST + BIG_HELPERS; h++)
        p += sprintf(p, "    x = h%u(x);\n", h);
    p += sprintf(p, "    o[i] = x;\n}\n");
    return src;
}

/* Enqueue + finish of `k` over N work-items in groups of `local`; ms. */
static double launch_ms(cl_command_queue q, cl_kernel k, size_t local)
{
    size_t global = N;
    double t0 = bench_now_us();
    BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    BENCH_CHECK(clFinish(q));
    return (bench_now_us() - t0) / 1e3;
}

static void run(const struct bench_target *t, const char *src, long salt)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &t->device, NULL, NULL, &err);
    BENCH_CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t->device, NULL, &err);
    BENCH_CHECK(err);
    double t0 = bench_now_us();
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    BENCH_CHECK(err);
    BENCH_CHECK(clBuildProgram(p, 1, &t->device, "", NULL, NULL));
    double build = (bench_now_us() - t0) / 1e3;
    unsigned in[N], out[N];
    for (unsigned i = 0; i < N; i++)
        in[i] = i * 7 + 1;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    BENCH_CHECK(err);
    const char *names[] = {"fill", "user", "big"};
    double first[3], second[3];
    int wrong = 0;
    for (int n = 0; n < 3; n++) {
        cl_kernel k = clCreateKernel(p, names[n], &err);
        BENCH_CHECK(err);
        unsigned v = 5;
        BENCH_CHECK(clSetKernelArg(k, 0, sizeof m, &m));
        if (n == 0)
            BENCH_CHECK(clSetKernelArg(k, 1, sizeof v, &v));
        first[n] = launch_ms(q, k, 64);
        second[n] = launch_ms(q, k, 32);
        BENCH_CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (unsigned i = 0; i < N && !wrong; i++) {
            /* fill ran twice over `in`, user twice over fill's output, big twice over user's. */
            unsigned want = v + (unsigned)salt;
            for (int u = 0; u < 2 && n >= 1; u++)
                want = helper(0, want) + helper(2, helper(1, i));
            for (int u = 0; u < 2 && n == 2; u++)
                for (unsigned h = BIG_FIRST; h < BIG_FIRST + BIG_HELPERS; h++)
                    want = helper(h, want);
            wrong = out[i] != want;
        }
        clReleaseKernel(k);
    }
    if (wrong)
        printf("  %-28s WRONG RESULTS\n", t->name);
    printf("  %-28s build %8.1f ms   first launch: fill %7.2f ms, user %7.2f ms, big %7.1f ms   "
           "another local size: fill %6.2f ms, user %6.2f ms, big %7.1f ms\n",
           t->name, build, first[0], first[1], first[2], second[0], second[1], second[2]);
    bench_result("big_program", "build", t->name, build, "ms");
    bench_result("big_program", "first launch, memset kernel", t->name, first[0], "ms");
    bench_result("big_program", "first launch, library user", t->name, first[1], "ms");
    bench_result("big_program", "first launch, 13,000-instruction kernel", t->name, first[2], "ms");
    bench_print_not_vectorized(p, t->device, t->name);
    clReleaseMemObject(m);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

int main(void)
{
    char dir[] = "/tmp/lanes-big-program-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    setenv("XDG_CACHE_HOME", dir, 1);
    long salt = (long)getpid();
    char *src = generate(salt);
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    printf("a program of %d helpers of %d steps (%zu KiB of source), cold disk cache %s\n", HELPERS,
           STEPS, strlen(src) >> 10, dir);
    for (size_t i = 0; i < n; i++)
        run(&t[i], src, salt);
    free(src);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
