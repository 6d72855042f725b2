/* SPDX-License-Identifier: MIT */
/*
 * A context, device and in-order queue for tests that build and run
 * kernels (cmocka group setup/teardown), with helpers that fail the test
 * with the build log when a program does not build.
 */
#ifndef LANES_TESTS_KERNEL_FIXTURE_H
#define LANES_TESTS_KERNEL_FIXTURE_H

#include "common.h"

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue queue;

static int setup(void **state)
{
    (void)state;
    dev = lanes_test_device();
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    return err != CL_SUCCESS;
}

static int teardown(void **state)
{
    (void)state;
    clReleaseCommandQueue(queue);
    return clReleaseContext(ctx) != CL_SUCCESS;
}

/* A program of `src` built with `options`. */
static inline cl_program program_of(const char *src, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    if (clBuildProgram(p, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
        char log[4096];
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fail_msg("build failed: %s", log);
    }
    return p;
}

/* Kernel `name` of `src` built with `options`; the kernel keeps the program alive. */
static inline cl_kernel kernel_of(const char *src, const char *name, const char *options)
{
    cl_program p = program_of(src, options);
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseProgram(p);
    return k;
}

/* A read-write buffer, filled from `init` when it is not NULL. */
static inline cl_mem buffer(size_t size, void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0), size,
                              init, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

#endif
