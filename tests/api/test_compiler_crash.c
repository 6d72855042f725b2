/* SPDX-License-Identifier: MIT */
/*
 * A crash of the compiler (Clang, the vectorizer, LLVM) fails the build,
 * link or launch that hit it, with a log line, and the process goes on:
 * LANES_CRASH_TEST=<stage> raises SIGSEGV inside the compiler where a real
 * crash would happen, and the same program then builds and runs.
 */
#include "kernel_fixture.h"

#include <stdio.h>
#include <time.h>

static const char src[] = "kernel void k(global int *x) { x[get_global_id(0)] = 7 * SEED; }\n";

static void log_has(cl_program p, const char *want)
{
    char log[4096];
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    if (!strstr(log, want))
        fail_msg("the build log lacks \"%s\": %s", want, log);
}

/* Runs k over 64 work-items; the enqueue's result (x[i] checked on success). */
static cl_int run(cl_program p, int seed)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem m = buffer(64 * sizeof(int), NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t global = 64, local = 16;
    err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (err == CL_SUCCESS) {
        int r[64];
        assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                         CL_SUCCESS);
        for (int i = 0; i < 64; i++)
            assert_int_equal(r[i], 7 * seed);
    }
    clReleaseMemObject(m);
    clReleaseKernel(k);
    return err;
}

/* A fresh seed per build, so that no cache answers for the compiler. */
static int next_seed(void)
{
    static int seed = 0;
    return (int)(time(NULL) % 100000) * 100 + ++seed;
}

/*
 * Under ThreadSanitizer the crash stages are skipped: CrashRecoveryContext
 * leaves the signal handler by a jump, never by a return, so TSan takes all
 * the thread does afterwards for code inside a signal handler and reports
 * every free. The recovery itself is tested without it, ASan included.
 */
#ifdef __SANITIZE_THREAD__
#define SKIP_UNDER_TSAN() skip()
#else
#define SKIP_UNDER_TSAN() ((void)0)
#endif

static void crash_in_compile(void **state)
{
    (void)state;
    SKIP_UNDER_TSAN();
    char options[64];
    int seed = next_seed();
    snprintf(options, sizeof options, "-DSEED=%d", seed);
    const char *s = src;
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    setenv("LANES_CRASH_TEST", "compile", 1);
    assert_int_equal(clBuildProgram(p, 1, &dev, options, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    unsetenv("LANES_CRASH_TEST");
    log_has(p, "the compiler crashed (SIGSEGV) while compiling the program");
    assert_int_equal(clBuildProgram(p, 1, &dev, options, NULL, NULL), CL_SUCCESS);
    assert_int_equal(run(p, seed), CL_SUCCESS);
    clReleaseProgram(p);
}

static void crash_in_link(void **state)
{
    (void)state;
    SKIP_UNDER_TSAN();
    char options[64];
    int seed = next_seed();
    snprintf(options, sizeof options, "-DSEED=%d", seed);
    const char *s = src;
    cl_int err;
    cl_program obj = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    assert_int_equal(clCompileProgram(obj, 1, &dev, options, 0, NULL, NULL, NULL, NULL),
                     CL_SUCCESS);
    setenv("LANES_CRASH_TEST", "link", 1);
    cl_program exe = clLinkProgram(ctx, 1, &dev, "", 1, &obj, NULL, NULL, &err);
    unsetenv("LANES_CRASH_TEST");
    assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
    log_has(exe, "the compiler crashed (SIGSEGV) while linking the program");
    clReleaseProgram(exe);
    exe = clLinkProgram(ctx, 1, &dev, "", 1, &obj, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(run(exe, seed), CL_SUCCESS);
    clReleaseProgram(exe);
    clReleaseProgram(obj);
}

static void crash_in_launcher(void **state)
{
    (void)state;
    SKIP_UNDER_TSAN();
    char options[64];
    int seed = next_seed();
    snprintf(options, sizeof options, "-DSEED=%d", seed);
    cl_program p = program_of(src, options);
    setenv("LANES_CRASH_TEST", "launcher", 1);
    assert_int_equal(run(p, seed), CL_OUT_OF_RESOURCES);
    unsetenv("LANES_CRASH_TEST");
    log_has(p, "the compiler crashed (SIGSEGV) while compiling it");
    assert_int_equal(run(p, seed), CL_SUCCESS); /* a later launch tries again */
    clReleaseProgram(p);
}

/*
 * A crash while taking what the kernel reaches from its program, which the
 * next compile of the kernel would wait for: the slot is given back, and a
 * later launch takes it (it waited for ever).
 */
static void crash_taking_reach(void **state)
{
    (void)state;
    SKIP_UNDER_TSAN();
    char options[64];
    int seed = next_seed();
    snprintf(options, sizeof options, "-DSEED=%d", seed);
    cl_program p = program_of(src, options);
    setenv("LANES_CRASH_TEST", "reach", 1);
    assert_int_equal(run(p, seed), CL_OUT_OF_RESOURCES);
    unsetenv("LANES_CRASH_TEST");
    log_has(p, "the compiler crashed (SIGSEGV) while compiling it");
    assert_int_equal(run(p, seed), CL_SUCCESS);
    clReleaseProgram(p);
}

/*
 * Not the compiler but memory: a kernel whose private variables live across
 * a barrier keeps them in frames the runtime allocates per work-group. With
 * no memory for one (LANES_CRASH_TEST=frames) the launch ends with
 * CL_OUT_OF_RESOURCES; it used to abort the process.
 */
static void no_memory_for_frames(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("kernel void f(global int *x) {\n"
                            "  int a[64];\n"
                            "  for (int i = 0; i < 64; i++) a[i] = i * (int)get_local_id(0);\n"
                            "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                            "  int s = 0;\n"
                            "  for (int i = 0; i < 64; i++) s += a[(i * 7) % 64];\n"
                            "  x[get_global_id(0)] = s; }\n",
                            "f", NULL);
    cl_mem m = buffer(128 * sizeof(int), NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t global = 128, local = 64; /* several sub-groups: a coroutine kernel */
    for (int attempt = 0; attempt < 2; attempt++) {
        if (attempt == 0)
            setenv("LANES_CRASH_TEST", "frames", 1);
        cl_event e;
        assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, &e),
                         CL_SUCCESS);
        clWaitForEvents(1, &e);
        unsetenv("LANES_CRASH_TEST");
        cl_int status = 1;
        assert_int_equal(
            clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL),
            CL_SUCCESS);
        assert_int_equal(status, attempt == 0 ? CL_OUT_OF_RESOURCES : CL_COMPLETE);
        clReleaseEvent(e);
    }
    int r[128];
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 128; i++)
        assert_int_equal(r[i], 2016 * (i % 64));
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crash_in_compile),     cmocka_unit_test(crash_in_link),
        cmocka_unit_test(crash_in_launcher),    cmocka_unit_test(crash_taking_reach),
        cmocka_unit_test(no_memory_for_frames),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
