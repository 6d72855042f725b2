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

    /* Shared virtual memory: commands on it, clEnqueueSVMFree with and without a callback. */
    char *svm = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 4096, 0);
    char *fine = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096, 0);
    assert_non_null(svm);
    assert_non_null(fine);
    assert_int_equal(clEnqueueSVMMemFill(q2, svm, &v, sizeof v, 4096, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueSVMMemcpy(q2, CL_FALSE, fine, svm, 4096, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueSVMMap(q2, CL_FALSE, CL_MAP_READ, svm, 64, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueSVMUnmap(q2, svm, 0, NULL, NULL), CL_SUCCESS);
    const void *ptrs[] = {svm};
    assert_int_equal(clEnqueueSVMMigrateMem(q2, 1, ptrs, NULL, 0, 0, NULL, NULL), CL_SUCCESS);
    void *to_free[] = {svm};
    assert_int_equal(clEnqueueSVMFree(q2, 1, to_free, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(q2), CL_SUCCESS);
    assert_int_equal(fine[4095], 0);
    clSVMFree(ctx, fine);
    clReleaseCommandQueue(q2);
    clReleaseContext(ctx);

    /* Sub-devices by count, and by affinity domain where the machine has one. */
    const cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    const cl_device_partition_property domain[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                   CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
    cl_device_id subs[256];
    cl_uint n = 0;
    if (clCreateSubDevices(dev, counts, 1, subs, NULL) == CL_SUCCESS) {
        cl_context sub_ctx = clCreateContext(NULL, 1, subs, NULL, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        clReleaseDevice(subs[0]);
        clReleaseContext(sub_ctx);
    }
    if (clCreateSubDevices(dev, domain, 256, subs, &n) == CL_SUCCESS)
        for (cl_uint i = 0; i < n; i++)
            clReleaseDevice(subs[i]);
}

/* Programs, kernels and their launches: built, run, cloned and released. */
static void program_cycle(cl_device_id dev)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    const char *src = "kernel void k(global int *x, local int *t, int v) {\n"
                      "  t[get_local_id(0)] = v; barrier(CLK_LOCAL_MEM_FENCE);\n"
                      "  x[get_global_id(0)] = t[get_local_size(0) - 1 - get_local_id(0)]; }\n";
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(clBuildProgram(p, 1, &dev, "-cl-std=CL3.0", NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel clone = clCloneKernel(k, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem m = test_buffer(ctx, 0, 256 * sizeof(int), NULL);
    int v = 7;
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, 64 * sizeof(int), NULL), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof v, &v), CL_SUCCESS);
    size_t global = 256, local = 64;
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    /* The kernel is released while its command may still be queued. */
    clReleaseKernel(k);
    int out[256];
    assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(out[255], 7);
    size_t size;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
                     CL_SUCCESS);
    unsigned char *bin = malloc(size);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
    cl_program from_bin =
        clCreateProgramWithBinary(ctx, 1, &dev, &size, (const unsigned char **)&bin, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(from_bin, 1, &dev, NULL, NULL, NULL), CL_SUCCESS);
    free(bin);
    const char *broken = "kernel void broken( {";
    cl_program bad = clCreateProgramWithSource(ctx, 1, &broken, NULL, &err);
    assert_int_equal(clBuildProgram(bad, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    clReleaseProgram(bad);
    clReleaseProgram(from_bin);
    clReleaseKernel(clone);
    clReleaseMemObject(m);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

static void create_release_cycles(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    for (int i = 0; i < 20; i++)
        cycle(dev);
    for (int i = 0; i < 3; i++)
        program_cycle(dev);
    /* Every callback of the cycles runs: 2 destructors, 3 event callbacks each. */
    assert_int_equal(wait_for_counter(&callbacks, 20 * 5), 20 * 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(create_release_cycles)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
