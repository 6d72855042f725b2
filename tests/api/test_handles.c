/* SPDX-License-Identifier: MIT */
/*
 * Handles Lanes reads from the application's memory (wait lists, kernel
 * argument values, lists of memory objects, devices and programs), through
 * the loader: garbage, a released handle and a handle of another kind are
 * each refused with the specification's code, never read through.
 */
#include "kernel_fixture.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <unistd.h>

/* An address inside a page nobody may read: reading through it kills the process. */
static void *unreadable;
/* A block of plausible-looking bytes that was never a Lanes object. */
static void *scribble;

static int handles_setup(void **state)
{
    if (setup(state))
        return 1;
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 1;
    unreadable = p + 64;
    scribble = malloc(256);
    if (!scribble)
        return 1;
    /* What a header looks like: a pointer, then small integers. */
    for (size_t i = 0; i < 256 / sizeof(void *); i++)
        ((void **)scribble)[i] = scribble;
    return 0;
}

static int handles_teardown(void **state)
{
    free(scribble);
    return teardown(state);
}

/* A released user event, buffer and program: their handles are dead. */
static cl_event dead_event(void)
{
    cl_int err;
    cl_event e = clCreateUserEvent(ctx, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clReleaseEvent(e), CL_SUCCESS);
    return e;
}

static cl_mem dead_buffer(void)
{
    cl_mem m = buffer(64, NULL);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    return m;
}

static void wait_lists(void **state)
{
    (void)state;
    cl_int err;
    cl_event live = clCreateUserEvent(ctx, &err);
    assert_int_equal(clSetUserEventStatus(live, CL_COMPLETE), CL_SUCCESS);
    cl_mem buf = buffer(64, NULL);
    cl_event bad[] = {(cl_event)unreadable, (cl_event)scribble, dead_event(), (cl_event)buf,
                      (cl_event)queue};
    char host[64];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cl_event list[] = {live, bad[i]};
        assert_int_equal(clEnqueueMarkerWithWaitList(queue, 1, &bad[i], NULL),
                         CL_INVALID_EVENT_WAIT_LIST);
        assert_int_equal(clEnqueueMarkerWithWaitList(queue, 2, list, NULL),
                         CL_INVALID_EVENT_WAIT_LIST);
        assert_int_equal(clEnqueueBarrierWithWaitList(queue, 2, list, NULL),
                         CL_INVALID_EVENT_WAIT_LIST);
        assert_int_equal(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, 64, host, 2, list, NULL),
                         CL_INVALID_EVENT_WAIT_LIST);
        /* The loader reads the first event of clWaitForEvents itself: the others are ours. */
        assert_int_equal(clWaitForEvents(2, list), CL_INVALID_EVENT);
        assert_int_equal(clEnqueueWaitForEvents(queue, 2, list), CL_INVALID_EVENT);
    }
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    clReleaseMemObject(buf);
    clReleaseEvent(live);
}

static const char *const copy_src = "kernel void copy(global int *d, global const int *s)"
                                    "{ d[get_global_id(0)] = s[get_global_id(0)]; }";

static void kernel_arguments(void **state)
{
    (void)state;
    cl_kernel k = kernel_of(copy_src, "copy", "");
    cl_mem buf = buffer(64, NULL);
    cl_mem bad[] = {(cl_mem)unreadable, (cl_mem)scribble, dead_buffer(), (cl_mem)queue, (cl_mem)k};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &bad[i]), CL_INVALID_MEM_OBJECT);

    /* A buffer released after it was set is no argument any more: the launch is refused. */
    cl_mem gone = buffer(64, NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &buf), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof(cl_mem), &gone), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(gone), CL_SUCCESS);
    size_t global = 16;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_INVALID_KERNEL_ARGS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof(cl_mem), &buf), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
}

static void noop(void *args)
{
    (void)args;
}

static void memory_object_lists(void **state)
{
    (void)state;
    cl_mem buf = buffer(64, NULL);
    cl_mem bad[] = {(cl_mem)unreadable, (cl_mem)scribble, dead_buffer(), (cl_mem)queue};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cl_mem list[] = {buf, bad[i]};
        assert_int_equal(clEnqueueMigrateMemObjects(queue, 2, list, 0, 0, NULL, NULL),
                         CL_INVALID_MEM_OBJECT);
        void *args[2] = {0};
        const void *loc[] = {&args[0], &args[1]};
        assert_int_equal(
            clEnqueueNativeKernel(queue, noop, args, sizeof args, 2, list, loc, 0, NULL, NULL),
            CL_INVALID_MEM_OBJECT);
    }
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    clReleaseMemObject(buf);
}

static void device_and_program_lists(void **state)
{
    (void)state;
    cl_int err;
    cl_device_id devices[] = {dev, (cl_device_id)unreadable};
    assert_null(clCreateContext(NULL, 2, devices, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);
    devices[1] = (cl_device_id)scribble;
    assert_null(clCreateContext(NULL, 2, devices, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);
    devices[1] = (cl_device_id)ctx;
    assert_null(clCreateContext(NULL, 2, devices, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);

    const char *src = "kernel void k(global int *p) { *p = 1; }";
    cl_program live = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(clCompileProgram(live, 1, &dev, "", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_program dead = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(clReleaseProgram(dead), CL_SUCCESS);
    cl_program bad[] = {(cl_program)unreadable, (cl_program)scribble, dead, (cl_program)queue};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cl_program inputs[] = {live, bad[i]};
        assert_null(clLinkProgram(ctx, 1, &dev, "", 2, inputs, NULL, NULL, &err));
        assert_int_equal(err, CL_INVALID_PROGRAM);
        const char *names[] = {"a.h"};
        assert_int_equal(clCompileProgram(live, 1, &dev, "", 1, &bad[i], names, NULL, NULL),
                         CL_INVALID_VALUE);
    }
    clReleaseProgram(live);
}

static atomic_bool churning;

/* Creates and releases user events until told to stop: the registry grows and is rebuilt. */
static void *churn(void *arg)
{
    (void)arg;
    cl_event batch[256];
    while (atomic_load(&churning)) {
        for (int i = 0; i < 256; i++)
            batch[i] = clCreateUserEvent(ctx, NULL);
        for (int i = 0; i < 256; i++)
            clReleaseEvent(batch[i]);
    }
    return NULL;
}

static void live_handles_stay_valid_under_churn(void **state)
{
    (void)state;
    cl_mem m = buffer(64, NULL);
    cl_event e = clCreateUserEvent(ctx, NULL);
    pthread_t t[2];
    atomic_store(&churning, true);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, churn, NULL), 0);
    size_t size;
    cl_int status;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        bad += clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS;
        bad += clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) !=
               CL_SUCCESS;
    }
    atomic_store(&churning, false);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert_int_equal(bad, 0);
    clReleaseEvent(e);
    clReleaseMemObject(m);
}

/*
 * The API fuzzer's first find: a context or program released once more than
 * the application held it, while objects made from it kept it, dropped their
 * reference and was freed under them. Such a handle stays valid while the
 * object exists (queries hand it back), and a release it does not hold is
 * refused.
 */
static void released_once_too_often(void **state)
{
    (void)state;
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
    assert_int_equal(clReleaseContext(c), CL_INVALID_CONTEXT); /* the buffer's, not ours */
    cl_context got = NULL;
    cl_uint refs = 7;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof got, &got, NULL), CL_SUCCESS);
    assert_ptr_equal(got, c);
    assert_int_equal(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    assert_int_equal(refs, 0);
    /* Retained again from the query's answer, it works as before. */
    assert_int_equal(clRetainContext(c), CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(c, dev, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    m = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, NULL, &err);
    int pattern = 5, back = 0;
    assert_int_equal(clEnqueueFillBuffer(q, m, &pattern, sizeof pattern, 0, 64, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 60, 4, &back, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(back, 5);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);

    cl_program p = program_of("kernel void k(global int *x) { x[get_global_id(0)] = 9; }", NULL);
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clReleaseProgram(p), CL_SUCCESS);
    assert_int_equal(clReleaseProgram(p), CL_INVALID_PROGRAM); /* the kernel's, not ours */
    cl_program kp = NULL;
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof kp, &kp, NULL), CL_SUCCESS);
    assert_ptr_equal(kp, p);
    size_t n = 0;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL), CL_SUCCESS);
    assert_int_equal(n, 1);
    assert_int_equal(clRetainProgram(p), CL_SUCCESS);
    assert_int_equal(clReleaseProgram(p), CL_SUCCESS);
    m = buffer(16 * sizeof(int), NULL);
    size_t global = 16;
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    int out[16] = {0};
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(out[15], 9);
    clReleaseMemObject(m);
    assert_int_equal(clReleaseKernel(k), CL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wait_lists),
        cmocka_unit_test(kernel_arguments),
        cmocka_unit_test(memory_object_lists),
        cmocka_unit_test(device_and_program_lists),
        cmocka_unit_test(live_handles_stay_valid_under_churn),
        cmocka_unit_test(released_once_too_often),
    };
    return cmocka_run_group_tests(tests, handles_setup, handles_teardown);
}
