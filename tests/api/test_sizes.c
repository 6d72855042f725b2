/* SPDX-License-Identifier: MIT */
/*
 * Sizes from the application that overflow size_t when multiplied or added
 * (NDRanges, source lengths, rectangles, offsets, local memory, partition
 * counts) are refused with the specification's code, never wrapped around.
 */
#include "kernel_fixture.h"

#include <stdint.h>

static const char *const fill_src = "kernel void fill(global int *p) { p[0] = 1; }";

static void ndrange_products(void **state)
{
    (void)state;
    cl_kernel k = kernel_of(fill_src, "fill", "");
    cl_mem m = buffer(64, NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    const size_t big = (size_t)1 << 40;
    const size_t sizes[][3] = {
        {big, big, 1},                                       /* 2^80 work-items */
        {(size_t)1 << 32, (size_t)1 << 32, 1},               /* exactly 2^64 */
        {(size_t)1 << 22, (size_t)1 << 21, (size_t)1 << 21}, /* 2^64 in three dimensions */
        {SIZE_MAX, 2, 1},
    };
    const size_t ones[3] = {1, 1, 1};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        for (cl_uint dims = 2; dims <= 3; dims++) {
            if (dims == 2 && sizes[i][2] != 1)
                continue;
            assert_int_equal(
                clEnqueueNDRangeKernel(queue, k, dims, NULL, sizes[i], NULL, 0, NULL, NULL),
                CL_INVALID_GLOBAL_WORK_SIZE);
            assert_int_equal(
                clEnqueueNDRangeKernel(queue, k, dims, NULL, sizes[i], ones, 0, NULL, NULL),
                CL_INVALID_GLOBAL_WORK_SIZE);
        }
    }
    /* Offset plus size past SIZE_MAX. */
    const size_t offset[1] = {SIZE_MAX - 7}, global[1] = {16};
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, offset, global, NULL, 0, NULL, NULL),
                     CL_INVALID_GLOBAL_OFFSET);
    /* The largest 1-D range, in groups of 2 (the last cut short), is accepted: gated by a
     * failed event, it never runs. */
    cl_kernel k3 = kernel_of(fill_src, "fill", "-cl-std=CL3.0");
    assert_int_equal(clSetKernelArg(k3, 0, sizeof m, &m), CL_SUCCESS);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err), done;
    const size_t huge[1] = {SIZE_MAX};
    const size_t two[1] = {2};
    assert_int_equal(clEnqueueNDRangeKernel(queue, k3, 1, NULL, huge, two, 1, &gate, &done),
                     CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(gate, -1), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clReleaseEvent(done);
    clReleaseEvent(gate);
    clReleaseKernel(k3);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

static void source_lengths(void **state)
{
    (void)state;
    const char *s = "kernel void k() {}";
    const char *strings[] = {s, s};
    cl_int err = 0;
    const size_t wrap[] = {SIZE_MAX, 2};
    assert_null(clCreateProgramWithSource(ctx, 2, strings, wrap, &err));
    assert_int_equal(err, CL_OUT_OF_HOST_MEMORY);
    const size_t max[] = {SIZE_MAX};
    assert_null(clCreateProgramWithSource(ctx, 1, strings, max, &err));
    assert_int_equal(err, CL_OUT_OF_HOST_MEMORY);
}

static void buffers(void **state)
{
    (void)state;
    cl_int err = 0;
    assert_null(clCreateBuffer(ctx, CL_MEM_READ_WRITE, SIZE_MAX, NULL, &err));
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    cl_ulong max_alloc;
    assert_int_equal(
        clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL),
        CL_SUCCESS);
    assert_null(clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)max_alloc + 1, NULL, &err));
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, SIZE_MAX, 0));

    cl_mem m = buffer(256, NULL);
    cl_buffer_region r = {SIZE_MAX - 127, 256};
    assert_null(clCreateSubBuffer(m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    char host[256];
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 16, SIZE_MAX, host, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueWriteBuffer(queue, m, CL_TRUE, SIZE_MAX, 16, host, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    int pattern = 0;
    assert_int_equal(clEnqueueFillBuffer(queue, m, &pattern, sizeof pattern, 16, SIZE_MAX - 15 - 3,
                                         0, NULL, NULL),
                     CL_INVALID_VALUE);
    cl_mem n = buffer(256, NULL);
    assert_int_equal(clEnqueueCopyBuffer(queue, m, n, SIZE_MAX - 3, 0, 8, 0, NULL, NULL),
                     CL_INVALID_VALUE);

    /* Rectangles whose pitches times rows, or origins, overflow. */
    const size_t zero[3] = {0, 0, 0};
    const size_t regions[][3] = {{SIZE_MAX, 1, 1}, {16, SIZE_MAX, 1}, {16, 2, SIZE_MAX}};
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(clEnqueueReadBufferRect(queue, m, CL_TRUE, zero, zero, regions[i], 0, 0, 0,
                                                 0, host, 0, NULL, NULL),
                         CL_INVALID_VALUE);
    const size_t region[3] = {16, 2, 2};
    assert_int_equal(clEnqueueReadBufferRect(queue, m, CL_TRUE, zero, zero, region, SIZE_MAX / 2, 0,
                                             0, 0, host, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadBufferRect(queue, m, CL_TRUE, zero, zero, region, 0, 0,
                                             SIZE_MAX / 2, 0, host, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    const size_t far[3] = {SIZE_MAX - 8, 0, 0};
    assert_int_equal(clEnqueueReadBufferRect(queue, m, CL_TRUE, zero, far, region, 0, 0, 0, 0, host,
                                             0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueCopyBufferRect(queue, m, n, far, zero, region, 0, 0, 0, 0, 0, NULL, NULL),
        CL_INVALID_VALUE);

    /* SVM copies whose ends wrap around the address space are no overlap to compute. */
    char *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0);
    assert_non_null(a);
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, a + 8, a, SIZE_MAX, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    clSVMFree(ctx, a);
    clReleaseMemObject(n);
    clReleaseMemObject(m);
}

static const char *const local_src = "kernel void two(local int *a, local int *b, global int *p)"
                                     "{ a[0] = 1; b[0] = 2; p[0] = a[0] + b[0]; }";

static void local_memory(void **state)
{
    (void)state;
    cl_kernel k = kernel_of(local_src, "two", "");
    cl_ulong local;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL),
                     CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, SIZE_MAX, NULL), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 0, (size_t)local + 1, NULL), CL_INVALID_ARG_SIZE);
    cl_mem m = buffer(64, NULL);
    assert_int_equal(clSetKernelArg(k, 0, (size_t)local, NULL), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, (size_t)local, NULL), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof m, &m), CL_SUCCESS);
    size_t one = 1;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL),
                     CL_OUT_OF_RESOURCES);
    assert_int_equal(clSetKernelArg(k, 1, 4, NULL), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, 4, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, &one, 0, NULL, NULL),
                     CL_SUCCESS);
    int out = 0;
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, &out, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(out, 3);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

static void partition_counts(void **state)
{
    (void)state;
    cl_uint units;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL),
                     CL_SUCCESS);
    /* 2^32 + 1 compute units must not be read as 1. */
    const cl_device_partition_property counts[] = {
        CL_DEVICE_PARTITION_BY_COUNTS, (cl_device_partition_property)(((int64_t)1 << 32) + 1),
        CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_device_id sub;
    assert_int_equal(clCreateSubDevices(dev, counts, 1, &sub, NULL),
                     CL_INVALID_DEVICE_PARTITION_COUNT);
    const cl_device_partition_property equally[] = {
        CL_DEVICE_PARTITION_EQUALLY, (cl_device_partition_property)(((int64_t)1 << 32) + 1), 0};
    assert_int_equal(clCreateSubDevices(dev, equally, 1, &sub, NULL),
                     CL_INVALID_DEVICE_PARTITION_COUNT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ndrange_products), cmocka_unit_test(source_lengths),
        cmocka_unit_test(buffers),          cmocka_unit_test(local_memory),
        cmocka_unit_test(partition_counts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
