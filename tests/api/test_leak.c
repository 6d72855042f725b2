/* SPDX-License-Identifier: MIT */
/*
 * Create/release cycles of every object this runtime makes: contexts,
 * queues, buffers, sub-buffers, user and command events, callbacks,
 * mappings, native kernels, commands still pending when their objects are
 * released. ctest runs it under valgrind (api.test_leak.valgrind): nothing
 * may be definitely or indirectly lost.
 */
#include "runtime_common.h"

static int callbacks;

static void CL_CALLBACK on_event(cl_event e, cl_int status, void *p)
{
    (void)e, (void)status, (void)p;
    __atomic_fetch_add(&callbacks, 1, __ATOMIC_SEQ_CST);
}

static void CL_CALLBACK on_mem(cl_mem m, void *p)
{
    (void)m, (void)p;
    __atomic_fetch_add(&callbacks, 1, __ATOMIC_SEQ_CST);
}

static void CL_CALLBACK native(void *p)
{
    int **out = p;
    **out = 1;
}

static void cycle(cl_device_id dev)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    const cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    cl_command_queue ooo = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
    assert_int_equal(err, CL_SUCCESS);

    static char host[4096];
    const cl_mem_flags kinds[] = {0, CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR,
                                  CL_MEM_ALLOC_HOST_PTR};
    cl_mem bufs[4];
    for (int i = 0; i < 4; i++)
        bufs[i] =
            test_buffer(ctx, kinds[i], sizeof host,
                        kinds[i] & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) ? host : NULL);
    const cl_mem_properties none[] = {0};
    cl_mem with_props = clCreateBufferWithProperties(ctx, none, 0, 256, NULL, &err);
    assert_int_equal(clSetMemObjectDestructorCallback(with_props, on_mem, NULL), CL_SUCCESS);
    cl_buffer_region r = {1024, 1024};
    cl_mem sub = clCreateSubBuffer(bufs[0], 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    assert_int_equal(clSetMemObjectDestructorCallback(sub, on_mem, NULL), CL_SUCCESS);

    /* Commands gated by a user event, their objects released before they run. */
    cl_event gate = clCreateUserEvent(ctx, &err), read, marker;
    const int v = 3;
    assert_int_equal(clEnqueueFillBuffer(q, sub, &v, sizeof v, 0, 1024, 1, &gate, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(ooo, bufs[1], bufs[2], 0, 0, 4096, 1, &gate, NULL),
                     CL_SUCCESS);
    char out[64];
    assert_int_equal(clEnqueueReadBuffer(ooo, bufs[3], CL_FALSE, 0, 64, out, 1, &gate, &read),
                     CL_SUCCESS);
    assert_int_equal(clSetEventCallback(read, CL_COMPLETE, on_event, NULL), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(read, CL_RUNNING, on_event, NULL), CL_SUCCESS);
    void *p = clEnqueueMapBuffer(ooo, bufs[0], CL_FALSE, CL_MAP_WRITE, 0, 64, 1, &gate, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(ooo, bufs[0], p, 0, NULL, NULL), CL_SUCCESS);
    /* A mapping never unmapped is freed with its buffer. */
    assert_non_null(
        clEnqueueMapBuffer(q, bufs[2], CL_FALSE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err));
    int flag = 0, *fp = &flag;
    assert_int_equal(
        clEnqueueNativeKernel(ooo, native, &fp, sizeof fp, 0, NULL, NULL, 1, &gate, NULL),
        CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(ooo, 0, NULL, &marker), CL_SUCCESS);
    assert_int_equal(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueMigrateMemObjects(q, 1, &bufs[1], 0, 0, NULL, NULL), CL_SUCCESS);

    for (int i = 0; i < 4; i++)
        clReleaseMemObject(bufs[i]);
    clReleaseMemObject(sub);
    clReleaseMemObject(with_props);
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(ooo);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &marker), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &read), CL_SUCCESS);
    assert_int_equal(flag, 1);
    clReleaseEvent(marker);
    clReleaseEvent(read);
    clReleaseEvent(gate);

    /* A failed user event and the commands it stops. */
    cl_command_queue q2 = clCreateCommandQueue(ctx, dev, 0, &err);
    cl_event bad = clCreateUserEvent(ctx, &err), stopped;
    assert_int_equal(clEnqueueMarkerWithWaitList(q2, 1, &bad, &stopped), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(stopped, CL_COMPLETE, on_event, NULL), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(bad, -1), CL_SUCCESS);
    assert_int_equal(clFinish(q2), CL_SUCCESS);
    clReleaseEvent(stopped);
    clReleaseEvent(bad);
    clReleaseCommandQueue(q2);
    clReleaseContext(ctx);
}

static void create_release_cycles(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    for (int i = 0; i < 20; i++)
        cycle(dev);
    /* Every callback of the cycles runs: 2 destructors, 3 event callbacks each. */
    assert_int_equal(wait_for_counter(&callbacks, 20 * 5), 20 * 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(create_release_cycles)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
