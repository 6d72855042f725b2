/* SPDX-License-Identifier: MIT */
/* Contexts through the loader: creation, properties, queries, callbacks, errors. */
#include "common.h"

static void create_and_query(void **state)
{
    (void)state;
    cl_platform_id p = lanes_test_platform();
    cl_device_id dev = lanes_test_device();
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p,
                                           CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
    cl_int err = -1;
    cl_context ctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(ctx);

    cl_uint refs, ndev;
    cl_device_id devs[2];
    cl_context_properties got[8];
    size_t size;
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    assert_int_equal(refs, 1);
    assert_int_equal(clRetainContext(ctx), CL_SUCCESS);
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    assert_int_equal(refs, 2);
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof ndev, &ndev, NULL),
                     CL_SUCCESS);
    assert_int_equal(ndev, 1);
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, sizeof devs, devs, &size),
                     CL_SUCCESS);
    assert_int_equal(size, sizeof(cl_device_id));
    assert_ptr_equal(devs[0], dev);
    /* The properties come back exactly as given. */
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, sizeof got, got, &size),
                     CL_SUCCESS);
    assert_int_equal(size, sizeof props);
    assert_memory_equal(got, props, sizeof props);
    assert_int_equal(clGetContextInfo(ctx, 0x7fff, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, 1, devs, NULL), CL_INVALID_VALUE);
    assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
    assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
}

static void no_properties(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t size = 99;
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
    assert_int_equal(size, 0);
    assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
}

static void from_type(void **state)
{
    (void)state;
    const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                           (cl_context_properties)lanes_test_platform(), 0};
    cl_int err;
    cl_context ctx = clCreateContextFromType(props, CL_DEVICE_TYPE_CPU, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_uint n;
    assert_int_equal(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, NULL), CL_SUCCESS);
    assert_int_equal(n, 1);
    assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);

    ctx = clCreateContextFromType(props, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
    assert_null(ctx);
    assert_int_equal(err, CL_DEVICE_NOT_FOUND);
    ctx = clCreateContextFromType(props, (cl_device_type)1 << 40, NULL, NULL, &err);
    assert_null(ctx);
    assert_int_equal(err, CL_INVALID_DEVICE_TYPE);
}

static int order[4], calls;

static void CL_CALLBACK destructor(cl_context ctx, void *user_data)
{
    (void)ctx;
    order[calls++] = (int)(intptr_t)user_data;
}

/* Destructor callbacks run once, newest first, when the last reference goes. */
static void destructor_callbacks(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    calls = 0;
    assert_int_equal(clSetContextDestructorCallback(ctx, destructor, (void *)1), CL_SUCCESS);
    assert_int_equal(clSetContextDestructorCallback(ctx, destructor, (void *)2), CL_SUCCESS);
    assert_int_equal(clSetContextDestructorCallback(ctx, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clRetainContext(ctx), CL_SUCCESS);
    assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
    assert_int_equal(calls, 0);
    assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
    assert_int_equal(calls, 2);
    assert_int_equal(order[0], 2);
    assert_int_equal(order[1], 1);
}

static void CL_CALLBACK notify(const char *info, const void *priv, size_t cb, void *user)
{
    (void)info, (void)priv, (void)cb, (void)user;
}

static void bad_input(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_int err;
    const cl_context_properties unknown[] = {0x7777, 1, 0};
    assert_null(clCreateContext(unknown, 1, &dev, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_PROPERTY);
    const cl_context_properties twice[] = {
        CL_CONTEXT_PLATFORM, (cl_context_properties)lanes_test_platform(), CL_CONTEXT_PLATFORM,
        (cl_context_properties)lanes_test_platform(), 0};
    assert_null(clCreateContext(twice, 1, &dev, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_PROPERTY);
    const cl_context_properties no_platform[] = {CL_CONTEXT_PLATFORM, 0, 0};
    assert_null(clCreateContext(no_platform, 1, &dev, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_PLATFORM);
    assert_null(clCreateContext(NULL, 0, &dev, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateContext(NULL, 1, NULL, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateContext(NULL, 1, &dev, NULL, (void *)1, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    cl_device_id two[2] = {dev, NULL};
    assert_null(clCreateContext(NULL, 2, two, notify, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);
    /* A NULL errcode_ret is allowed. */
    assert_null(clCreateContext(NULL, 0, &dev, NULL, NULL, NULL));
}

/* Entries whose issue has not landed answer with an error code, never crash. */
static void pending_entries_refuse(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_int err = CL_SUCCESS;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_mem mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    if (mem) {
        clReleaseMemObject(mem); /* buffers have landed */
    } else {
        assert_int_not_equal(err, CL_SUCCESS);
    }
    cl_uint n = 0;
    assert_int_equal(
        clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
        CL_SUCCESS);
    assert_true(n > 0); /* images have landed */
    assert_int_equal(clReleaseContext(ctx), CL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_and_query), cmocka_unit_test(no_properties),
        cmocka_unit_test(from_type),        cmocka_unit_test(destructor_callbacks),
        cmocka_unit_test(bad_input),        cmocka_unit_test(pending_entries_refuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
