/* SPDX-License-Identifier: MIT */
/*
 * Handles as the first argument, with no loader in between (a loader reads
 * the dispatch table through that handle before Lanes sees it): liblanes.so
 * (argv[1]) is called through its dispatch table with garbage, released
 * handles and handles of another kind, and refuses each with the
 * specification's code.
 */
#include "common.h"

#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *library;
static void *lib;
static const cl_icd_dispatch *t;
static cl_platform_id platform;
static cl_device_id device;
static void *unreadable, *scribble;

static int setup(void **state)
{
    (void)state;
    lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 1;
    typedef cl_int (*get_ids_fn)(cl_uint, cl_platform_id *, cl_uint *);
    get_ids_fn get_ids = (get_ids_fn)dlsym(lib, "clIcdGetPlatformIDsKHR");
    if (!get_ids || get_ids(1, &platform, NULL) != CL_SUCCESS)
        return 1;
    t = *(const cl_icd_dispatch *const *)platform;
    if (t->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS)
        return 1;
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 1;
    unreadable = p + 64;
    scribble = malloc(256);
    for (size_t i = 0; scribble && i < 256 / sizeof(void *); i++)
        ((void **)scribble)[i] = scribble;
    return scribble == NULL;
}

static int teardown(void **state)
{
    (void)state;
    free(scribble);
    return 0; /* liblanes.so stays loaded: its workers run until exit */
}

/* Every entry of each kind refuses `h`, which is no live handle of that kind. */
static void refuse_context(cl_context h)
{
    cl_uint refs;
    cl_int err = 0;
    assert_int_equal(t->clRetainContext(h), CL_INVALID_CONTEXT);
    assert_int_equal(t->clReleaseContext(h), CL_INVALID_CONTEXT);
    assert_int_equal(t->clGetContextInfo(h, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_INVALID_CONTEXT);
    assert_null(t->clCreateBuffer(h, CL_MEM_READ_WRITE, 64, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(t->clCreateCommandQueueWithProperties(h, device, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(t->clCreateUserEvent(h, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
}

static void refuse_queue(cl_command_queue h)
{
    cl_uint refs;
    assert_int_equal(t->clRetainCommandQueue(h), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(t->clReleaseCommandQueue(h), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(
        t->clGetCommandQueueInfo(h, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL),
        CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(t->clFinish(h), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(t->clFlush(h), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(t->clEnqueueMarkerWithWaitList(h, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    size_t one = 1;
    assert_int_equal(t->clEnqueueNDRangeKernel(h, NULL, 1, NULL, &one, NULL, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
}

static void refuse_event(cl_event h)
{
    cl_uint refs;
    assert_int_equal(t->clRetainEvent(h), CL_INVALID_EVENT);
    assert_int_equal(t->clReleaseEvent(h), CL_INVALID_EVENT);
    assert_int_equal(t->clGetEventInfo(h, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_INVALID_EVENT);
    assert_int_equal(t->clSetUserEventStatus(h, CL_COMPLETE), CL_INVALID_EVENT);
    assert_int_equal(t->clWaitForEvents(1, &h), CL_INVALID_EVENT);
}

static void refuse_mem(cl_mem h)
{
    cl_uint refs;
    cl_int err = 0;
    assert_int_equal(t->clRetainMemObject(h), CL_INVALID_MEM_OBJECT);
    assert_int_equal(t->clReleaseMemObject(h), CL_INVALID_MEM_OBJECT);
    assert_int_equal(t->clGetMemObjectInfo(h, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_INVALID_MEM_OBJECT);
    cl_buffer_region r = {0, 16};
    assert_null(t->clCreateSubBuffer(h, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
    assert_int_equal(err, CL_INVALID_MEM_OBJECT);
}

static void refuse_program(cl_program h)
{
    cl_uint refs;
    cl_int err = 0;
    assert_int_equal(t->clRetainProgram(h), CL_INVALID_PROGRAM);
    assert_int_equal(t->clReleaseProgram(h), CL_INVALID_PROGRAM);
    assert_int_equal(t->clGetProgramInfo(h, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_INVALID_PROGRAM);
    assert_int_equal(t->clBuildProgram(h, 0, NULL, "", NULL, NULL), CL_INVALID_PROGRAM);
    assert_null(t->clCreateKernel(h, "k", &err));
    assert_int_equal(err, CL_INVALID_PROGRAM);
}

static void refuse_kernel(cl_kernel h)
{
    cl_uint refs;
    int x = 0;
    assert_int_equal(t->clRetainKernel(h), CL_INVALID_KERNEL);
    assert_int_equal(t->clReleaseKernel(h), CL_INVALID_KERNEL);
    assert_int_equal(t->clGetKernelInfo(h, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_INVALID_KERNEL);
    assert_int_equal(t->clSetKernelArg(h, 0, sizeof x, &x), CL_INVALID_KERNEL);
}

static void refuse_device(cl_device_id h)
{
    cl_uint units;
    assert_int_equal(t->clGetDeviceInfo(h, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL),
                     CL_INVALID_DEVICE);
    assert_int_equal(t->clRetainDevice(h), CL_INVALID_DEVICE);
    assert_int_equal(t->clReleaseDevice(h), CL_INVALID_DEVICE);
}

static void garbage(void **state)
{
    (void)state;
    void *bad[] = {unreadable, scribble};
    for (size_t i = 0; i < 2; i++) {
        refuse_context(bad[i]);
        refuse_queue(bad[i]);
        refuse_event(bad[i]);
        refuse_mem(bad[i]);
        refuse_program(bad[i]);
        refuse_kernel(bad[i]);
        refuse_device(bad[i]);
    }
}

static const char *const src = "kernel void k(global int *p) { *p = 1; }";

static void released(void **state)
{
    (void)state;
    cl_int err;
    cl_context ctx = t->clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue q = t->clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_mem m = t->clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_event e = t->clCreateUserEvent(ctx, &err);
    const char *text = src;
    cl_program p = t->clCreateProgramWithSource(ctx, 1, &text, NULL, &err);
    assert_int_equal(t->clBuildProgram(p, 1, &device, "", NULL, NULL), CL_SUCCESS);
    cl_kernel k = t->clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_device_id sub;
    const cl_device_partition_property by_count[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                                     CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    assert_int_equal(t->clCreateSubDevices(device, by_count, 1, &sub, NULL), CL_SUCCESS);

    /* Of another kind while they live. */
    refuse_context((cl_context)q);
    refuse_queue((cl_command_queue)ctx);
    refuse_event((cl_event)m);
    refuse_mem((cl_mem)e);
    refuse_program((cl_program)k);
    refuse_kernel((cl_kernel)p);
    refuse_device((cl_device_id)ctx);

    assert_int_equal(t->clReleaseKernel(k), CL_SUCCESS);
    refuse_kernel(k);
    assert_int_equal(t->clReleaseProgram(p), CL_SUCCESS);
    refuse_program(p);
    assert_int_equal(t->clSetUserEventStatus(e, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(t->clReleaseEvent(e), CL_SUCCESS);
    refuse_event(e);
    assert_int_equal(t->clReleaseMemObject(m), CL_SUCCESS);
    refuse_mem(m);
    assert_int_equal(t->clReleaseCommandQueue(q), CL_SUCCESS);
    refuse_queue(q);
    assert_int_equal(t->clReleaseDevice(sub), CL_SUCCESS);
    refuse_device(sub);
    assert_int_equal(t->clReleaseContext(ctx), CL_SUCCESS);
    refuse_context(ctx);
}

/* A live handle moved by 1 to 7 bytes: its address | kind may spell a live object's key. */
static void inside_live_objects(void **state)
{
    (void)state;
    cl_int err;
    cl_context ctx = t->clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue q = t->clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_mem m = t->clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    cl_event e = t->clCreateUserEvent(ctx, &err);
    for (uintptr_t d = 1; d < 8; d++) {
        refuse_context((cl_context)((uintptr_t)ctx + d));
        refuse_queue((cl_command_queue)((uintptr_t)q + d));
        refuse_mem((cl_mem)((uintptr_t)m + d));
        refuse_event((cl_event)((uintptr_t)e + d));
    }
    size_t size = 0;
    assert_int_equal(t->clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
    assert_int_equal(size, 64);
    assert_int_equal(t->clSetUserEventStatus(e, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(t->clReleaseEvent(e), CL_SUCCESS);
    assert_int_equal(t->clReleaseMemObject(m), CL_SUCCESS);
    assert_int_equal(t->clReleaseCommandQueue(q), CL_SUCCESS);
    assert_int_equal(t->clReleaseContext(ctx), CL_SUCCESS);
}

enum { MANY = 4096 };

/* True when `m` answers as a live buffer of `size` bytes. */
static bool answers(cl_mem m, size_t size)
{
    size_t got = 0;
    return t->clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof got, &got, NULL) == CL_SUCCESS &&
           got == size;
}

/*
 * Enough live objects that many keys sit past the first slot they probe,
 * and that tables grow, fill with tombstones and are rebuilt: every live
 * handle is still found, every released one refused.
 */
static void many_handles(void **state)
{
    (void)state;
    cl_int err;
    cl_context ctx = t->clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    static cl_mem m[MANY];
    for (size_t i = 0; i < MANY; i++) {
        m[i] = t->clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 + i, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    for (size_t i = 0; i < MANY; i++)
        assert_true(answers(m[i], 64 + i));
    for (size_t round = 0; round < 4; round++) {
        for (size_t i = round % 2; i < MANY; i += 2)
            assert_int_equal(t->clReleaseMemObject(m[i]), CL_SUCCESS);
        for (size_t i = round % 2; i < MANY; i += 2)
            refuse_mem(m[i]);
        for (size_t i = 1 - round % 2; i < MANY; i += 2)
            assert_true(answers(m[i], 64 + i));
        for (size_t i = round % 2; i < MANY; i += 2) {
            m[i] = t->clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 + i, NULL, &err);
            assert_int_equal(err, CL_SUCCESS);
        }
        for (size_t i = 0; i < MANY; i++)
            assert_true(answers(m[i], 64 + i));
    }
    for (size_t i = 0; i < MANY; i++)
        assert_int_equal(t->clReleaseMemObject(m[i]), CL_SUCCESS);
    for (size_t i = 0; i < MANY; i++)
        refuse_mem(m[i]);
    assert_int_equal(t->clReleaseContext(ctx), CL_SUCCESS);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s liblanes.so\n", argv[0]);
        return 2;
    }
    library = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(garbage),
        cmocka_unit_test(released),
        cmocka_unit_test(inside_live_objects),
        cmocka_unit_test(many_handles),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
