/* SPDX-License-Identifier: MIT */
/* Kernels enqueued through the loader and checked against C: ids, arguments, errors. */
#include "kernel_fixture.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

static void vector_add_with_offset(void **state)
{
    (void)state;
    enum { N = 1000 };
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++)
        a[i] = (float)i, b[i] = 0.5f * (float)i;
    cl_kernel k = kernel_of("kernel void add(global const float *a, global const float *b,\n"
                            "                global float *c, float s) {\n"
                            "    size_t i = get_global_id(0);\n"
                            "    c[i] = a[i] + s * b[i];\n"
                            "}\n",
                            "add", "");
    cl_mem ma = buffer(sizeof a, a), mb = buffer(sizeof b, b), mc = buffer(sizeof c, NULL);
    float s = 2.0f;
    assert_int_equal(clSetKernelArg(k, 0, sizeof ma, &ma), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof mb, &mb), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof mc, &mc), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof s, &s), CL_SUCCESS);
    size_t offset = 100, global = N - 100, local = 100;
    cl_event done;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, &offset, &global, &local, 0, NULL, &done),
                     CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    cl_int status;
    assert_int_equal(
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
        CL_SUCCESS);
    assert_int_equal(status, CL_COMPLETE);
    clReleaseEvent(done);
    assert_int_equal(clEnqueueReadBuffer(queue, mc, CL_TRUE, 100 * sizeof(float),
                                         (N - 100) * sizeof(float), c + 100, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 100; i < N; i++)
        assert_float_equal(c[i], a[i] + 2.0f * b[i], 0.0f);
    clReleaseMemObject(ma), clReleaseMemObject(mb), clReleaseMemObject(mc);
    clReleaseKernel(k);
}

/* Every id and size in 2D and 3D, the local size chosen by Lanes when none is given. */
static void ids_in_three_dimensions(void **state)
{
    (void)state;
    cl_kernel k = kernel_of(
        "kernel void ids(global uint *out) {\n"
        "    size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1))\n"
        "               * get_global_size(0) + get_global_id(0);\n"
        "    out[3 * i + 0] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2);\n"
        "    out[3 * i + 1] = get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2);\n"
        "    out[3 * i + 2] = get_local_size(0) * get_num_groups(0) + get_work_dim();\n"
        "}\n",
        "ids", "");
    enum { X = 12, Y = 6, Z = 4 };
    cl_mem out = buffer(3 * X * Y * Z * sizeof(cl_uint), NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t global[3] = {X, Y, Z}, local[3] = {4, 3, 2};
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 3, NULL, global, local, 0, NULL, NULL),
                     CL_SUCCESS);
    cl_uint r[3 * X * Y * Z];
    assert_int_equal(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int z = 0; z < Z; z++)
        for (int y = 0; y < Y; y++)
            for (int x = 0; x < X; x++) {
                cl_uint *o = r + 3 * ((z * Y + y) * X + x);
                assert_int_equal(o[0], x % 4 + 10 * (y % 3) + 100 * (z % 2));
                assert_int_equal(o[1], x / 4 + 10 * (y / 3) + 100 * (z / 2));
                assert_int_equal(o[2], X + 3);
            }
    /* No local size: Lanes picks one that divides the global size. */
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 3, NULL, global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < X * Y * Z; i++)
        assert_int_equal(r[3 * i + 2], X + 3);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* __local arguments, the kernel's own __local array, structs and NULL buffers. */
static void local_memory_and_values(void **state)
{
    (void)state;
    cl_kernel k =
        kernel_of("typedef struct { int scale; short add; } params;\n"
                  "kernel void k(global int *out, local int *a, params p,\n"
                  "              local float *b, global int *none) {\n"
                  "    local int own[16];\n"
                  "    size_t l = get_local_id(0);\n"
                  "    a[l] = (int)get_global_id(0);\n"
                  "    b[l] = 0.5f;\n"
                  "    own[l] = p.add;\n"
                  "    out[get_global_id(0)] = a[l] * p.scale + (int)(2 * b[l]) + own[l]\n"
                  "                            + (none ? 1 : 0);\n"
                  "}\n",
                  "k", "");
    enum { N = 64 };
    cl_mem out = buffer(N * sizeof(int), NULL), none = NULL;
    struct {
        cl_int scale;
        cl_short add;
    } p = {3, 7};
    assert_int_equal(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, 16 * sizeof(int), NULL), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof p, &p), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, 16 * sizeof(float), NULL), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 4, sizeof none, &none), CL_SUCCESS);
    cl_ulong local_mem;
    assert_int_equal(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_mem,
                                              &local_mem, NULL),
                     CL_SUCCESS);
    assert_int_equal(local_mem, 16 * sizeof(int) * 3);
    size_t global = N, local = 16;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    int r[N];
    assert_int_equal(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(r[i], 3 * i + 1 + 7);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

static void task_and_many_launches(void **state)
{
    (void)state;
    cl_kernel k =
        kernel_of("kernel void inc(global int *x) { x[get_global_id(0)] += 1; }", "inc", "");
    int zero[4] = {0};
    cl_mem m = buffer(sizeof zero, zero);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    for (int i = 0; i < 500; i++)
        assert_int_equal(clEnqueueTask(queue, k, 0, NULL, NULL), CL_SUCCESS);
    size_t global = 4;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    int r[4];
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(r[0], 501);
    assert_int_equal(r[1], 1);
    assert_int_equal(r[3], 1);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

/* Enqueues k(x) over 16 work-items in groups of 8 and checks x[i] = 3 i + 8. */
static void run_shared(cl_kernel k)
{
    int r[16] = {0};
    cl_mem m = buffer(sizeof r, r);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t global = 16, local = 8;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 16; i++)
        assert_int_equal(r[i], 3 * i + 8);
    clReleaseMemObject(m);
}

/*
 * Identical programs share their launchers' code, which stays while one of
 * them lives and is unloaded with the last: a program released does not
 * take the code from under another, and the next one loads it again.
 */
static void identical_programs_share_code(void **state)
{
    (void)state;
    const char *src = "kernel void k(global int *x) {\n"
                      "    x[get_global_id(0)] = 3 * (int)get_global_id(0) + get_local_size(0);\n"
                      "}\n";
    cl_kernel a = kernel_of(src, "k", ""), b = kernel_of(src, "k", "");
    run_shared(a);
    run_shared(b);
    clReleaseKernel(a); /* its program goes, and with it a reference to the code */
    run_shared(b);
    for (int i = 0; i < 20; i++) { /* loaded and released while b holds it */
        cl_kernel c = kernel_of(src, "k", "");
        run_shared(c);
        clReleaseKernel(c);
    }
    clReleaseKernel(b);
    for (int i = 0; i < 3; i++) { /* unloaded each time, then loaded again */
        cl_kernel c = kernel_of(src, "k", "");
        run_shared(c);
        clReleaseKernel(c);
    }
}

/* Runs k(o) over `global` work-items in groups of 16; the enqueue's result. */
static cl_int run_private(cl_kernel k, cl_mem out, size_t global)
{
    assert_int_equal(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t local = 16;
    cl_int err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        assert_int_equal(clFinish(queue), CL_SUCCESS);
    return err;
}

/* o[i] = the sum of a private array of N ints filled from i (N a macro of the source). */
static const char private_src[] =
    "kernel void k(global int *o) {\n"
    "    int a[N];\n"
    "    int i = (int)get_global_id(0);\n"
    "    for (int j = 0; j < N; j += 64) a[j] = i + j;\n"
    "    int s = 0;\n"
    "    for (int j = 0; j < N; j += 64) s += a[(j + o[4096] * 64) % N];\n"
    "    o[i] = s;\n"
    "}\n";

static void check_private(cl_mem out, long n)
{
    int r[4096];
    assert_int_equal(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < (n == 1 << 16 ? 4096 : 64); i++) {
        long want = 0;
        for (long j = 0; j < n; j += 64)
            want += i + j;
        assert_int_equal(r[i], (int)want);
    }
}

/*
 * A kernel whose every work-item has undefined behaviour (here a store at
 * an index converted from an out-of-range double) compiles to an empty
 * function, which the JIT gives no address: the queries that compile a
 * launcher and the enqueue fail with CL_OUT_OF_RESOURCES and the reason in
 * the build log (the source fuzzer found it crashing the process).
 */
static void kernel_with_empty_code(void **state)
{
    (void)state;
    cl_kernel k =
        kernel_of("kernel void k(global int *o) { o[get_global_id(-1e308)] = 1; }\n", "k", "-w");
    cl_ulong private_size = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE,
                                              sizeof private_size, &private_size, NULL),
                     CL_OUT_OF_RESOURCES);
    size_t multiple = 0, local = 16, width = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                              sizeof multiple, &multiple, NULL),
                     CL_SUCCESS);
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                             sizeof local, &local, sizeof width, &width, NULL),
                     CL_SUCCESS);
    static int zero[64];
    cl_mem out = buffer(sizeof zero, zero);
    assert_int_equal(run_private(k, out, 64), CL_OUT_OF_RESOURCES);
    cl_program p;
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof p, &p, NULL), CL_SUCCESS);
    char log[4096];
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "cannot run"));
    assert_non_null(strstr(log, "compiled code is empty"));
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

struct small_stack_run {
    cl_kernel k;
    cl_mem out;
    cl_int err;
};

static void *run_on_small_stack(void *p)
{
    struct small_stack_run *r = p;
    r->err = run_private(r->k, r->out, 4096); /* 256 work-groups: this thread helps */
    return NULL;
}

/*
 * Private memory takes stack: a kernel whose sub-group's frames do not fit
 * a worker's stack runs a work-item per sub-group, and one whose work-item
 * alone does not fit fails at enqueue with CL_OUT_OF_RESOURCES and the
 * reason in the build log (it crashed the process); big frames run on
 * workers, never on the stack of an application thread helping in a wait
 * (here a thread of 256 KiB, in clFinish).
 */
static void private_memory_and_stacks(void **state)
{
    (void)state;
    static int zero[4097];
    cl_mem out = buffer(sizeof zero, zero);

    cl_kernel k = kernel_of(private_src, "k", "-DN=(1<<28)"); /* 1 GiB a work-item */
    assert_int_equal(run_private(k, out, 64), CL_OUT_OF_RESOURCES);
    cl_ulong private_size = 0;
    assert_int_equal(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE,
                                              sizeof private_size, &private_size, NULL),
                     CL_OUT_OF_RESOURCES);
    cl_program p;
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof p, &p, NULL), CL_SUCCESS);
    char log[4096];
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "cannot run"));
    assert_non_null(strstr(log, "more than a worker thread's"));
    clReleaseKernel(k);

    k = kernel_of(private_src, "k", "-DN=(1<<20)"); /* 4 MiB a work-item: too big at W > 8 */
    assert_int_equal(run_private(k, out, 64), CL_SUCCESS);
    check_private(out, 1 << 20);
    clReleaseKernel(k);

    k = kernel_of(private_src, "k", "-DN=(1<<16)"); /* 256 KiB a work-item */
    assert_int_equal(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE,
                                              sizeof private_size, &private_size, NULL),
                     CL_SUCCESS);
    /* The array (the optimizer may trim its unread tail) and a few spills. */
    assert_true(private_size >= 255 << 10 && private_size < (256 << 10) + 4096);
    struct small_stack_run r = {k, out, -1};
    pthread_attr_t attr;
    pthread_t t;
    assert_int_equal(pthread_attr_init(&attr), 0);
    assert_int_equal(pthread_attr_setstacksize(&attr, 256 << 10), 0);
    assert_int_equal(pthread_create(&t, &attr, run_on_small_stack, &r), 0);
    pthread_join(t, NULL);
    pthread_attr_destroy(&attr);
    assert_int_equal(r.err, CL_SUCCESS);
    check_private(out, 1 << 16);
    clReleaseKernel(k);
    clReleaseMemObject(out);
}

/*
 * A switch of 100,000 cases compiles in seconds (LLVM's optimizer and code
 * generator took hours, quadratic in the cases): such a kernel is compiled
 * at width 1, lightly optimized, without jump tables, and the log says why.
 */
static void huge_switch(void **state)
{
    (void)state;
    enum { CASES = 100000, N = 256 };
    char *src = malloc(64 * (size_t)CASES + 512), *p = src;
    p += sprintf(p, "kernel void k(global int *o) {\n"
                    "    int x = o[get_global_id(0)], r;\n"
                    "    switch (x) {\n");
    for (int c = 0; c < CASES; c++)
        p += sprintf(p, "    case %d: r = %d; break;\n", 7 * c, 3 * c + 1);
    sprintf(p, "    default: r = -1;\n    }\n    o[get_global_id(0)] = r;\n}\n");
    cl_kernel k = kernel_of(src, "k", "");
    free(src);
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = i % 5 == 4 ? 7 * i * 390 + 3 : 7 * (i * 390 + i % 4); /* cases, and not */
    cl_mem m = buffer(sizeof in, in);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t global = N, local = 64;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        int c = in[i] / 7;
        assert_int_equal(out[i], in[i] % 7 == 0 && c < CASES ? 3 * c + 1 : -1);
    }
    cl_program prog;
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof prog, &prog, NULL), CL_SUCCESS);
    char log[4096];
    assert_int_equal(clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    size_t width = 0;
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                             sizeof local, &local, sizeof width, &width, NULL),
                     CL_SUCCESS);
    assert_int_equal(width, 1);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

/*
 * A command keeps its launchers' code: the kernel and its program released
 * before it runs (it waits for a user event), it still runs (it jumped
 * into unloaded code before).
 */
static void released_before_it_runs(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("kernel void k(global int *x) {\n"
                            "    x[get_global_id(0)] = 5 * (int)get_global_id(0) + 11;\n"
                            "}\n",
                            "k", "");
    int r[64] = {0};
    cl_mem m = buffer(sizeof r, r);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t global = 64, local = 16;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 1, &gate, NULL),
                     CL_SUCCESS);
    clReleaseKernel(k); /* and with it the program, the last holder of the code but the command */
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(r[i], 5 * i + 11);
    clReleaseEvent(gate);
    clReleaseMemObject(m);
}

static void bad_launches(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("kernel __attribute__((reqd_work_group_size(4, 1, 1)))\n"
                            "void r(global int *x, int v) { x[get_global_id(0)] = v; }",
                            "r", "");
    size_t global = 8, local = 4, two = 2, zero = 0, big[3] = {4096, 2, 1};
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_INVALID_KERNEL_ARGS);
    cl_mem m = buffer(64, NULL);
    int v = 5;
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof v - 1, &v), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 1, sizeof v, NULL), CL_INVALID_ARG_VALUE);
    /* A handle of another kind where a buffer is expected. */
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &k), CL_INVALID_MEM_OBJECT);
    /* A sampler argument of a wrong size is a size error before anything else. */
    cl_kernel ks = kernel_of("kernel void s(sampler_t s, global int *x) { x[0] = 1; }", "s", "");
    cl_sampler none = NULL;
    assert_int_equal(clSetKernelArg(ks, 0, 1, &none), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(ks, 0, sizeof none, &none), CL_INVALID_SAMPLER);
    clReleaseKernel(ks);
    assert_int_equal(clSetKernelArg(k, 2, sizeof v, &v), CL_INVALID_ARG_INDEX);
    assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 0, NULL, &global, &local, 0, NULL, NULL),
                     CL_INVALID_WORK_DIMENSION);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &two, 0, NULL, NULL),
                     CL_INVALID_WORK_GROUP_SIZE);
    /* Without a local size, the one the kernel requires is used. */
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &zero, 0, NULL, NULL),
                     CL_INVALID_WORK_GROUP_SIZE);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueNDRangeKernel(NULL, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueNDRangeKernel(queue, NULL, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_INVALID_KERNEL);
    /* A global size of 0 runs nothing and completes. */
    cl_event e;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &zero, &local, 0, NULL, &e),
                     CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    clReleaseEvent(e);
    clReleaseKernel(k);

    /* OpenCL C 1.2 asks for uniform work-groups; too large a group is refused. */
    k = kernel_of("kernel void w(global int *x) { x[get_global_id(0)] = 1; }", "w", "");
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t odd = 10, three = 3;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &odd, &three, 0, NULL, NULL),
                     CL_INVALID_WORK_GROUP_SIZE);
    size_t g2[2] = {4096, 2};
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 2, NULL, g2, big, 0, NULL, NULL),
                     CL_INVALID_WORK_GROUP_SIZE);
    clReleaseKernel(k);

    /*
     * An overloadable (mangled) function that no one defines, as a built-in
     * missing from the library would be, fails the build, and the log names
     * it (it built and failed every launch before).
     */
    cl_int err;
    const char *src = "float __attribute__((overloadable)) no_such_function(float);\n"
                      "kernel void s(global float *x) { x[0] = no_such_function(x[1]); }";
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[1024];
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "undefined function 'no_such_function'"));
    assert_non_null(strstr(log, "_Z16no_such_functionf"));
    clReleaseProgram(p);
    clReleaseMemObject(m);
}

/* Independent kernels on an out-of-order queue, each with its own buffer. */
static void concurrent_kernels(void **state)
{
    (void)state;
    cl_int err;
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                         CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue ooo = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel k = kernel_of("kernel void fill(global int *x, int v) {\n"
                            "    for (int j = 0; j < 100; j++) x[get_global_id(0)] += v;\n"
                            "}\n",
                            "fill", "");
    enum { K = 8, N = 4096 };
    cl_mem m[K];
    for (int i = 0; i < K; i++) {
        int v = i + 1;
        m[i] = buffer(N * sizeof(int), NULL);
        int zero = 0;
        assert_int_equal(
            clEnqueueFillBuffer(ooo, m[i], &zero, sizeof zero, 0, N * sizeof(int), 0, NULL, NULL),
            CL_SUCCESS);
        assert_int_equal(clEnqueueBarrierWithWaitList(ooo, 0, NULL, NULL), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 0, sizeof m[i], &m[i]), CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
        size_t global = N;
        assert_int_equal(clEnqueueNDRangeKernel(ooo, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                         CL_SUCCESS);
    }
    assert_int_equal(clFinish(ooo), CL_SUCCESS);
    for (int i = 0; i < K; i++) {
        int r[N];
        assert_int_equal(clEnqueueReadBuffer(ooo, m[i], CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                         CL_SUCCESS);
        for (int j = 0; j < N; j++)
            assert_int_equal(r[j], 100 * (i + 1));
        clReleaseMemObject(m[i]);
    }
    clReleaseKernel(k);
    clReleaseCommandQueue(ooo);
}

/*
 * OpenCL C 3.0: a smaller last work-group, 64-bit integers (the one optional
 * feature the device lists) and the 2.0 work-item functions.
 */
static void opencl_c_3_non_uniform(void **state)
{
    (void)state;
    cl_kernel k =
        kernel_of("kernel void k(global ulong *out) {\n"
                  "    ulong big = (ulong)get_global_id(0) << 40;\n"
                  "    out[get_global_linear_id()] = big + get_local_size(0) * 100\n"
                  "        + get_enqueued_local_size(0) * 10000 + get_local_linear_id();\n"
                  "}\n",
                  "k", "-cl-std=CL3.0");
    enum { N = 10 };
    cl_mem out = buffer(N * sizeof(cl_ulong), NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    size_t global = N, local = 4;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    cl_ulong r[N];
    assert_int_equal(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (cl_ulong i = 0; i < N; i++)
        assert_int_equal(r[i], (i << 40) + (i >= 8 ? 2 : 4) * 100 + 4 * 10000 + i % 4);
    clReleaseKernel(k);
    /* -cl-uniform-work-group-size asks for the 1.x rule again. */
    k = kernel_of("kernel void u(global int *x) { x[get_global_id(0)] = 1; }", "u",
                  "-cl-std=CL3.0 -cl-uniform-work-group-size");
    assert_int_equal(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_INVALID_WORK_GROUP_SIZE);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/* Work-groups of many work-items meeting at barriers: a tree reduction in local memory. */
static void barrier_reduction(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("kernel void sum(global const int *in, global int *out,\n"
                            "                local int *tmp) {\n"
                            "    size_t l = get_local_id(0);\n"
                            "    tmp[l] = in[get_global_id(0)];\n"
                            "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
                            "        if (l < s) tmp[l] += tmp[l + s];\n"
                            "        barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "    }\n"
                            "    if (l == 0) out[get_group_id(0)] = tmp[0];\n"
                            "}\n",
                            "sum", "");
    enum { N = 1 << 14, L = 256 };
    static int in[N];
    for (int i = 0; i < N; i++)
        in[i] = (i * 37) % 101 - 50;
    cl_mem min = buffer(sizeof in, in), mout = buffer(N / L * sizeof(int), NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof min, &min), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof mout, &mout), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, L * sizeof(int), NULL), CL_SUCCESS);
    size_t global = N, local = L;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    int out[N / L];
    assert_int_equal(clEnqueueReadBuffer(queue, mout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int g = 0; g < N / L; g++) {
        int expect = 0;
        for (int i = 0; i < L; i++)
            expect += in[g * L + i];
        assert_int_equal(out[g], expect);
    }
    clReleaseMemObject(min), clReleaseMemObject(mout);
    clReleaseKernel(k);
}

/* The predefined macros follow the device: version, endianness, features, extensions. */
static void predefined_macros(void **state)
{
    (void)state;
    cl_device_fp_config fp;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp, &fp, NULL),
                     CL_SUCCESS);
    char exts[4096];
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof exts, exts, NULL),
                     CL_SUCCESS);
    int fp64 = strstr(exts, "cl_khr_fp64") != NULL;
    static const char *src = "kernel void m(global int *o) {\n"
                             "    o[0] = __OPENCL_VERSION__;\n"
                             "    o[1] = __OPENCL_C_VERSION__;\n"
                             "#ifdef __ENDIAN_LITTLE__\n"
                             "    o[2] = 1;\n"
                             "#endif\n"
                             "#ifdef __IMAGE_SUPPORT__\n"
                             "    o[3] = 1;\n"
                             "#endif\n"
                             "#ifdef FP_FAST_FMAF\n"
                             "    o[4] = 1;\n"
                             "#endif\n"
                             "#ifdef __FAST_RELAXED_MATH__\n"
                             "    o[5] = 1;\n"
                             "#endif\n"
                             "#ifdef cl_khr_fp64\n"
                             "    o[6] = 1;\n"
                             "#endif\n"
                             "#ifdef __opencl_c_int64\n"
                             "    o[7] = 1;\n"
                             "#endif\n"
                             "#ifdef __opencl_c_images\n"
                             "    o[8] = 1;\n"
                             "#endif\n"
                             "#ifdef cl_khr_global_int32_base_atomics\n"
                             "    o[9] = 1;\n"
                             "#endif\n"
                             "#ifdef __opencl_c_fp64\n"
                             "    o[10] = 1;\n"
                             "#endif\n"
                             "}\n";
    const char *options[] = {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-fast-relaxed-math"};
    for (int v = 0; v < 2; v++) {
        cl_kernel k = kernel_of(src, "m", options[v]);
        int zero[11] = {0};
        cl_mem m = buffer(sizeof zero, zero);
        assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        assert_int_equal(clEnqueueTask(queue, k, 0, NULL, NULL), CL_SUCCESS);
        int r[11];
        assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(r[0], 300);
        assert_int_equal(r[1], 300);
        assert_int_equal(r[2], 1);
        assert_int_equal(r[3], 1); /* images are supported */
        assert_int_equal(r[4], (fp & CL_FP_FMA) ? 1 : 0);
        assert_int_equal(r[5], v);
        assert_int_equal(r[6], fp64 ? 1 : 0); /* as the device lists cl_khr_fp64 */
        assert_int_equal(r[7], 1);
        assert_int_equal(r[8], 1); /* __opencl_c_images */
        assert_int_equal(r[9], 1);
        assert_int_equal(r[10], fp64 ? 1 : 0); /* the feature with the extension */
        clReleaseMemObject(m);
        clReleaseKernel(k);
    }
}

/* cl_khr_suggested_local_work_size: what a launch without a local size takes, and the errors. */
static void suggested_local_sizes(void **state)
{
    (void)state;
    cl_platform_id platform;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL),
                     CL_SUCCESS);
    clGetKernelSuggestedLocalWorkSizeKHR_fn suggest =
        (clGetKernelSuggestedLocalWorkSizeKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clGetKernelSuggestedLocalWorkSizeKHR");
    assert_non_null(suggest);
    char ext[8192];
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    assert_true(lanes_test_has_word(ext, "cl_khr_suggested_local_work_size"));

    const char *src = "kernel void k(global uint *out) {\n"
                      "    if (get_global_id(0) == get_global_offset(0) &&\n"
                      "        get_global_id(1) == get_global_offset(1) &&\n"
                      "        get_global_id(2) == get_global_offset(2)) {\n"
                      "        out[0] = get_local_size(0); out[1] = get_local_size(1);\n"
                      "        out[2] = get_local_size(2);\n"
                      "    }\n"
                      "}\n";
    const struct {
        const char *options;
        bool uniform;
    } programs[] = {{"", true}, {"-cl-std=CL3.0", false}};
    const struct {
        cl_uint dims;
        size_t global[3];
    } shapes[] = {{1, {1}},          {1, {3}},        {1, {16}},          {1, {100}},
                  {1, {113}},        {1, {1000}},     {1, {4096}},        {1, {1 << 20}},
                  {2, {64, 3}},      {2, {12, 113}},  {2, {7, 7}},        {3, {16, 4, 2}},
                  {3, {113, 3, 12}}, {3, {1, 1, 64}}, {2, {1 << 16, 16}}, {3, {5, 6, 7}}};
    cl_mem out = buffer(3 * sizeof(cl_uint), NULL);
    size_t max_group = 0;
    for (size_t p = 0; p < sizeof programs / sizeof *programs; p++) {
        cl_kernel k = kernel_of(src, "k", programs[p].options);
        /* Before the argument is set: CL_INVALID_KERNEL_ARGS, as clEnqueueNDRangeKernel. */
        size_t g1 = 64, l[3] = {0};
        assert_int_equal(suggest(queue, k, 1, NULL, &g1, l), CL_INVALID_KERNEL_ARGS);
        assert_int_equal(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
        assert_int_equal(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE,
                                                  sizeof max_group, &max_group, NULL),
                         CL_SUCCESS);
        for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
            cl_uint dims = shapes[s].dims;
            const size_t *global = shapes[s].global;
            size_t offset[3] = {5, 7, 11}, local[3] = {0, 0, 0};
            assert_int_equal(suggest(queue, k, dims, s % 2 ? offset : NULL, global, local),
                             CL_SUCCESS);
            size_t total = 1;
            for (cl_uint d = 0; d < dims; d++) {
                assert_true(local[d] >= 1);
                if (programs[p].uniform)
                    assert_int_equal(global[d] % local[d], 0);
                total *= local[d];
            }
            assert_true(total <= max_group);
            /* The launch without a local size takes the same. */
            assert_int_equal(clEnqueueNDRangeKernel(queue, k, dims, s % 2 ? offset : NULL, global,
                                                    NULL, 0, NULL, NULL),
                             CL_SUCCESS);
            cl_uint seen[3];
            assert_int_equal(
                clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof seen, seen, 0, NULL, NULL),
                CL_SUCCESS);
            for (cl_uint d = 0; d < 3; d++)
                assert_int_equal(seen[d], d < dims ? local[d] : 1);
        }
        /* Errors. */
        assert_int_equal(suggest(NULL, k, 1, NULL, &g1, l), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(suggest(queue, NULL, 1, NULL, &g1, l), CL_INVALID_KERNEL);
        assert_int_equal(suggest(queue, k, 0, NULL, &g1, l), CL_INVALID_WORK_DIMENSION);
        assert_int_equal(suggest(queue, k, 4, NULL, &g1, l), CL_INVALID_WORK_DIMENSION);
        assert_int_equal(suggest(queue, k, 1, NULL, NULL, l), CL_INVALID_GLOBAL_WORK_SIZE);
        size_t zero[2] = {8, 0}, huge[2] = {SIZE_MAX / 2, SIZE_MAX / 2}, at_end = SIZE_MAX;
        assert_int_equal(suggest(queue, k, 2, NULL, zero, l), CL_INVALID_GLOBAL_WORK_SIZE);
        assert_int_equal(suggest(queue, k, 2, NULL, huge, l), CL_INVALID_GLOBAL_WORK_SIZE);
        assert_int_equal(suggest(queue, k, 1, &at_end, &g1, l), CL_INVALID_GLOBAL_OFFSET);
        assert_int_equal(suggest(queue, k, 1, NULL, &g1, NULL), CL_INVALID_VALUE);
        cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
        cl_command_queue other_queue = clCreateCommandQueueWithProperties(other, dev, NULL, NULL);
        assert_int_equal(suggest(other_queue, k, 1, NULL, &g1, l), CL_INVALID_CONTEXT);
        clReleaseCommandQueue(other_queue);
        clReleaseContext(other);
        clReleaseKernel(k);
    }

    /* A kernel with reqd_work_group_size: that size. */
    cl_kernel k =
        kernel_of("kernel __attribute__((reqd_work_group_size(4, 2, 1)))\n"
                  "void r(global int *x) { x[get_global_id(1) * 8 + get_global_id(0)] = 1; }",
                  "r", "");
    cl_mem m = buffer(64 * sizeof(cl_int), NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t global[2] = {8, 8}, local[2] = {0, 0};
    assert_int_equal(suggest(queue, k, 2, NULL, global, local), CL_SUCCESS);
    assert_int_equal(local[0], 4);
    assert_int_equal(local[1], 2);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseMemObject(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vector_add_with_offset),
        cmocka_unit_test(ids_in_three_dimensions),
        cmocka_unit_test(local_memory_and_values),
        cmocka_unit_test(task_and_many_launches),
        cmocka_unit_test(identical_programs_share_code),
        cmocka_unit_test(released_before_it_runs),
        cmocka_unit_test(private_memory_and_stacks),
        cmocka_unit_test(kernel_with_empty_code),
        cmocka_unit_test(huge_switch),
        cmocka_unit_test(bad_launches),
        cmocka_unit_test(concurrent_kernels),
        cmocka_unit_test(barrier_reduction),
        cmocka_unit_test(opencl_c_3_non_uniform),
        cmocka_unit_test(predefined_macros),
        cmocka_unit_test(suggested_local_sizes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
