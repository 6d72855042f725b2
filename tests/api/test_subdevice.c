/* SPDX-License-Identifier: MIT */
/*
 * Sub-devices: partitions equally and by counts, their queries, reference
 * counts and errors, and kernels running on them. Run with
 * LANES_NUM_THREADS=4 so that the root device has four compute units.
 */
#include "common.h"

#define GET(dev, param, var)                                                                       \
    assert_int_equal(clGetDeviceInfo(dev, param, sizeof(var), &(var), NULL), CL_SUCCESS)

static void partitions(void **state)
{
    (void)state;
    cl_device_id root = lanes_test_device();
    cl_uint units, max;
    GET(root, CL_DEVICE_MAX_COMPUTE_UNITS, units);
    GET(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, max);
    assert_int_equal(units, 4);
    assert_int_equal(max, 4);
    cl_device_partition_property schemes[4];
    size_t size;
    assert_int_equal(
        clGetDeviceInfo(root, CL_DEVICE_PARTITION_PROPERTIES, sizeof schemes, schemes, &size),
        CL_SUCCESS);
    assert_int_equal(size, 2 * sizeof *schemes);

    const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 2, 0};
    cl_uint n = 0;
    assert_int_equal(clCreateSubDevices(root, equally, 0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 2);
    cl_device_id sub[4];
    assert_int_equal(clCreateSubDevices(root, equally, 1, sub, NULL), CL_INVALID_VALUE);
    assert_int_equal(clCreateSubDevices(root, equally, 4, sub, &n), CL_SUCCESS);
    for (cl_uint i = 0; i < n; i++) {
        cl_device_id parent;
        cl_uint cu, refs;
        cl_device_type type;
        GET(sub[i], CL_DEVICE_PARENT_DEVICE, parent);
        GET(sub[i], CL_DEVICE_MAX_COMPUTE_UNITS, cu);
        GET(sub[i], CL_DEVICE_REFERENCE_COUNT, refs);
        GET(sub[i], CL_DEVICE_TYPE, type);
        assert_ptr_equal(parent, root);
        assert_int_equal(cu, 2);
        assert_int_equal(refs, 1);
        assert_int_equal(type, CL_DEVICE_TYPE_CPU);
        cl_device_partition_property got[4];
        assert_int_equal(clGetDeviceInfo(sub[i], CL_DEVICE_PARTITION_TYPE, sizeof got, got, &size),
                         CL_SUCCESS);
        assert_int_equal(size, sizeof equally);
        assert_memory_equal(got, equally, sizeof equally);
        assert_int_equal(clRetainDevice(sub[i]), CL_SUCCESS);
        GET(sub[i], CL_DEVICE_REFERENCE_COUNT, refs);
        assert_int_equal(refs, 2);
        assert_int_equal(clReleaseDevice(sub[i]), CL_SUCCESS);
    }
    /* A sub-device partitions further. */
    const cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_device_id subsub[2];
    assert_int_equal(clCreateSubDevices(sub[0], counts, 2, subsub, &n), CL_SUCCESS);
    assert_int_equal(n, 2);
    for (int i = 0; i < 2; i++) {
        cl_uint cu;
        GET(subsub[i], CL_DEVICE_MAX_COMPUTE_UNITS, cu);
        assert_int_equal(cu, 1);
        assert_int_equal(clReleaseDevice(subsub[i]), CL_SUCCESS);
    }
    for (cl_uint i = 0; i < 2; i++)
        assert_int_equal(clReleaseDevice(sub[i]), CL_SUCCESS);
}

static void bad_partitions(void **state)
{
    (void)state;
    cl_device_id root = lanes_test_device(), sub[8];
    const cl_device_partition_property zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
    const cl_device_partition_property too_many[] = {CL_DEVICE_PARTITION_EQUALLY, 5, 0};
    const cl_device_partition_property whole[] = {CL_DEVICE_PARTITION_EQUALLY, 4, 0};
    const cl_device_partition_property over[] = {CL_DEVICE_PARTITION_BY_COUNTS, 3, 2,
                                                 CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    const cl_device_partition_property zero_count[] = {CL_DEVICE_PARTITION_BY_COUNTS, 0,
                                                       CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    const cl_device_partition_property unknown[] = {0x7777, 1, 0};
    assert_int_equal(clCreateSubDevices(root, zero, 8, sub, NULL), CL_INVALID_VALUE);
    assert_int_equal(clCreateSubDevices(root, too_many, 8, sub, NULL),
                     CL_INVALID_DEVICE_PARTITION_COUNT);
    assert_int_equal(clCreateSubDevices(root, whole, 8, sub, NULL), CL_DEVICE_PARTITION_FAILED);
    assert_int_equal(clCreateSubDevices(root, over, 8, sub, NULL),
                     CL_INVALID_DEVICE_PARTITION_COUNT);
    assert_int_equal(clCreateSubDevices(root, zero_count, 8, sub, NULL),
                     CL_INVALID_DEVICE_PARTITION_COUNT);
    assert_int_equal(clCreateSubDevices(root, unknown, 8, sub, NULL), CL_INVALID_VALUE);
    assert_int_equal(clCreateSubDevices(root, NULL, 8, sub, NULL), CL_INVALID_VALUE);
    assert_int_equal(clCreateSubDevices(NULL, zero, 8, sub, NULL), CL_INVALID_DEVICE);
}

/* A context and queue on a sub-device run kernels; the context keeps the sub-device alive. */
static void kernels_on_a_sub_device(void **state)
{
    (void)state;
    cl_device_id root = lanes_test_device(), sub[4];
    const cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, 3,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_uint n;
    assert_int_equal(clCreateSubDevices(root, counts, 4, sub, &n), CL_SUCCESS);
    for (cl_uint d = 0; d < n; d++) {
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &sub[d], NULL, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clReleaseDevice(sub[d]), CL_SUCCESS); /* the context holds it */
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, sub[d], NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        const char *src = "kernel void k(global int *x) { x[get_global_id(0)] += 3; }";
        cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
        assert_int_equal(clBuildProgram(p, 1, &sub[d], NULL, NULL, NULL), CL_SUCCESS);
        cl_kernel k = clCreateKernel(p, "k", &err);
        enum { N = 1 << 16 };
        static int data[N];
        for (int i = 0; i < N; i++)
            data[i] = i;
        cl_mem m =
            clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
        assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        size_t global = N, local = 64;
        assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL),
                         CL_SUCCESS);
        for (int i = 0; i < N; i++)
            assert_int_equal(data[i], i + 3);
        clReleaseMemObject(m);
        clReleaseKernel(k);
        clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(partitions),
        cmocka_unit_test(bad_partitions),
        cmocka_unit_test(kernels_on_a_sub_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
