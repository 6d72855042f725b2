/* SPDX-License-Identifier: MIT */
/*
 * OpenCL C forbids recursion: a program whose functions call themselves,
 * directly or through others, fails its build with the functions named in
 * the log. Call graphs that share callees (no recursion) build in time
 * linear in their size.
 */
#include "kernel_fixture.h"

#include <stdio.h>
#include <time.h>

/* The build log of `p` for the test's device, malloc'ed. */
static char *build_log(cl_program p)
{
    size_t size = 0;
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size),
                     CL_SUCCESS);
    char *log = malloc(size);
    assert_non_null(log);
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL),
                     CL_SUCCESS);
    return log;
}

/* Builds `src` with `options`, expects CL_BUILD_PROGRAM_FAILURE and a log naming `names`. */
static void refused(const char *src, const char *options, const char *const *names)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(p, 1, &dev, options, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char *log = build_log(p);
    assert_non_null(strstr(log, "recursion"));
    for (const char *const *n = names; *n; n++)
        if (!strstr(log, *n))
            fail_msg("the log does not name %s:\n%s", *n, log);
    free(log);
    clReleaseProgram(p);
}

static void self_recursion(void **state)
{
    (void)state;
    /* Two calls of itself: a walk that revisits callees takes 2^depth steps. */
    const char *src = "int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }\n"
                      "kernel void k(global int *p) { p[0] = fib(p[1]); }\n";
    const char *const names[] = {"fib", NULL};
    refused(src, "", names);
    refused(src, "-cl-opt-disable", names);
}

static void mutual_recursion(void **state)
{
    (void)state;
    const char *src = "int odd(int n);\n"
                      "int even(int n) { return n == 0 ? 1 : odd(n - 1) + odd(n - 2); }\n"
                      "int odd(int n) { return n == 0 ? 0 : even(n - 1) + even(n - 2); }\n"
                      "kernel void k(global int *p) { p[0] = even(p[1]); }\n";
    const char *const names[] = {"even", "odd", NULL};
    refused(src, "-cl-opt-disable", names);
    refused(src, "", names);
}

static void kernel_calling_itself(void **state)
{
    (void)state;
    const char *src = "kernel void k(global int *p) { if (p[0]-- > 0) k(p); }\n";
    const char *const names[] = {"k", NULL};
    refused(src, "-cl-opt-disable", names);
}

/* A program whose LEVELS functions each call the one below twice: 2^LEVELS paths, no cycle. */
enum { LEVELS = 48 };

static void shared_callees_build_quickly(void **state)
{
    (void)state;
    char *src = malloc(LEVELS * 160 + 256), *at = src;
    at += sprintf(at, "__attribute__((noinline)) int f0(int x) { return x + 1; }\n");
    for (int i = 1; i < LEVELS; i++)
        at += sprintf(at,
                      "__attribute__((noinline)) int f%d(int x) { return f%d(x) + f%d(x + 1); "
                      "}\n",
                      i, i - 1, i - 1);
    sprintf(at, "kernel void k(global int *p) { p[0] = f%d(p[1]); }\n", LEVELS - 1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cl_program p = program_of(src, "-cl-opt-disable");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (s > 10)
        fail_msg("the build took %.1f s", s);
    clReleaseProgram(p);
    free(src);
}

static void recursion_across_a_link(void **state)
{
    (void)state;
    const char *a = "int pong(int n);\n"
                    "int ping(int n) { return n ? pong(n - 1) : 0; }\n"
                    "kernel void k(global int *p) { p[0] = ping(p[1]); }\n";
    const char *b = "int ping(int n);\n"
                    "int pong(int n) { return n ? ping(n - 1) : 1; }\n";
    cl_int err;
    cl_program pa = clCreateProgramWithSource(ctx, 1, &a, NULL, &err);
    cl_program pb = clCreateProgramWithSource(ctx, 1, &b, NULL, &err);
    assert_int_equal(clCompileProgram(pa, 1, &dev, "", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clCompileProgram(pb, 1, &dev, "", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program in[] = {pa, pb};
    cl_program linked = clLinkProgram(ctx, 1, &dev, "", 2, in, NULL, NULL, &err);
    assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
    assert_non_null(linked);
    char *log = build_log(linked);
    if (!strstr(log, "recursion") || !strstr(log, "ping") || !strstr(log, "pong"))
        fail_msg("the log does not name the cycle:\n%s", log);
    free(log);
    clReleaseProgram(linked);
    clReleaseProgram(pb);
    clReleaseProgram(pa);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(self_recursion),          cmocka_unit_test(mutual_recursion),
        cmocka_unit_test(kernel_calling_itself),   cmocka_unit_test(shared_callees_build_quickly),
        cmocka_unit_test(recursion_across_a_link),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
