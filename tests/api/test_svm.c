/* SPDX-License-Identifier: MIT */
/*
 * Shared virtual memory through the loader: clSVMAlloc / clSVMFree, the
 * clEnqueueSVM* commands, kernels reading and writing coarse-grain,
 * fine-grain and system (malloc) memory, and SVM atomics. Each kind the
 * device advertises in CL_DEVICE_SVM_CAPABILITIES is proven here.
 */
#include "kernel_fixture.h"

#include <stdatomic.h>

static cl_command_type command_type(cl_event e)
{
    cl_command_type t = 0;
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    return t;
}

static void device_advertises_every_kind(void **state)
{
    (void)state;
    cl_device_svm_capabilities caps = 0;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL),
                     CL_SUCCESS);
    assert_int_equal(caps, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                               CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
}

static void alloc_and_free(void **state)
{
    (void)state;
    const cl_svm_mem_flags good[] = {
        0,
        CL_MEM_READ_WRITE,
        CL_MEM_READ_ONLY,
        CL_MEM_WRITE_ONLY,
        CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
        CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        char *p = clSVMAlloc(ctx, good[i], 1000, 0);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % 128, 0); /* the default: the largest type, long16 */
        memset(p, (int)i, 1000);
        clSVMFree(ctx, p);
    }
    const cl_uint aligns[] = {1, 2, 8, 64, 128};
    for (size_t i = 0; i < sizeof aligns / sizeof aligns[0]; i++) {
        void *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 24, aligns[i]);
        assert_non_null(p);
        assert_int_equal((uintptr_t)p % aligns[i], 0);
        clSVMFree(ctx, p);
    }
    cl_ulong max = 0;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL),
                     CL_SUCCESS);
    assert_null(clSVMAlloc(NULL, CL_MEM_READ_WRITE, 64, 0));
    assert_null(clSVMAlloc((cl_context)queue, CL_MEM_READ_WRITE, 64, 0));
    assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 0, 0));
    assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, (size_t)max + 1, 0));
    assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 3));
    assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 256));
    assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0));
    assert_null(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0));
    assert_null(clSVMAlloc(ctx, CL_MEM_USE_HOST_PTR, 64, 0));
    /* NULL, a foreign pointer or a bad context are ignored. */
    clSVMFree(ctx, NULL);
    void *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0);
    clSVMFree(NULL, p);
    int local;
    clSVMFree(ctx, &local);
    clSVMFree(ctx, p);
}

static void buffer_on_svm_pointer(void **state)
{
    (void)state;
    char *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 1024, 0);
    assert_non_null(p);
    cl_int err;
    cl_bool uses = CL_FALSE;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 512, p + 256, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL),
                     CL_SUCCESS);
    assert_int_equal(uses, CL_TRUE);
    cl_buffer_region r = {128, 128};
    cl_mem sub = clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    assert_int_equal(err, CL_SUCCESS);
    uses = CL_FALSE;
    assert_int_equal(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL),
                     CL_SUCCESS);
    assert_int_equal(uses, CL_TRUE);
    clReleaseMemObject(sub);
    clReleaseMemObject(m);
    /* Past the end of the allocation. */
    assert_null(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 2048, p, &err));
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    assert_null(clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 769, p + 256, &err));
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    /* COPY_HOST_PTR copies: the buffer does not use the SVM pointer. */
    m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, 2048, (char[2048]){0}, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL),
                     CL_SUCCESS);
    assert_int_equal(uses, CL_FALSE);
    clReleaseMemObject(m);
    clSVMFree(ctx, p);
    /* Freed: no longer an SVM pointer. */
    char host[64];
    m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL),
                     CL_SUCCESS);
    assert_int_equal(uses, CL_FALSE);
    clReleaseMemObject(m);
}

static void memcpy_blocking_and_not(void **state)
{
    (void)state;
    enum { N = 1 << 20 };
    unsigned char *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 0);
    unsigned char *b = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 0);
    assert_non_null(a);
    assert_non_null(b);
    for (size_t i = 0; i < N; i++)
        a[i] = (unsigned char)(i * 7);
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, b, a, N, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(a, b, N);
    /* Non-blocking, gated by a user event; then into plain host memory. */
    unsigned char *host = malloc(N);
    cl_int err;
    cl_event gate = clCreateUserEvent(ctx, &err), done;
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_FALSE, host, b, N, 1, &gate, &done), CL_SUCCESS);
    assert_int_equal(command_type(done), CL_COMMAND_SVM_MEMCPY);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_memory_equal(host, a, N);
    clReleaseEvent(done);
    clReleaseEvent(gate);
    /* Size 0 does nothing. */
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, b, a, 0, 0, NULL, NULL), CL_SUCCESS);

    assert_int_equal(clEnqueueSVMMemcpy(NULL, CL_TRUE, b, a, 16, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, NULL, a, 16, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, b, NULL, 16, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, a + 8, a, 16, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, a, a + 8, 16, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, a, a, 1, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, a + 16, a, 16, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, b, a, 16, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    /* A failed wait list: the blocking copy does not run. */
    gate = clCreateUserEvent(ctx, &err);
    assert_int_equal(clSetUserEventStatus(gate, -42), CL_SUCCESS);
    b[0] = 1, a[0] = 2;
    assert_int_equal(clEnqueueSVMMemcpy(queue, CL_TRUE, b, a, 16, 1, &gate, NULL),
                     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(b[0], 1);
    clReleaseEvent(gate);
    free(host);
    clSVMFree(ctx, a);
    clSVMFree(ctx, b);
}

static void memfill_patterns(void **state)
{
    (void)state;
    enum { N = 4096 };
    unsigned char *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, N, 0);
    assert_non_null(p);
    unsigned char pattern[128];
    for (int i = 0; i < 128; i++)
        pattern[i] = (unsigned char)(i + 1);
    for (size_t ps = 1; ps <= 128; ps *= 2) {
        memset(p, 0, N);
        cl_event e;
        assert_int_equal(clEnqueueSVMMemFill(queue, p + ps, pattern, ps, N - 2 * ps, 0, NULL, &e),
                         CL_SUCCESS);
        assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
        assert_int_equal(command_type(e), CL_COMMAND_SVM_MEMFILL);
        clReleaseEvent(e);
        for (size_t i = 0; i < N; i++) {
            unsigned char want = i < ps || i >= N - ps ? 0 : pattern[i % ps];
            assert_int_equal(p[i], want);
        }
    }
    /* Plain host memory (fine-grain system) too. */
    uint32_t host[64], v = 0xdeadbeef;
    assert_int_equal(clEnqueueSVMMemFill(queue, host, &v, sizeof v, sizeof host, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(host[i], 0xdeadbeef);

    assert_int_equal(clEnqueueSVMMemFill(NULL, p, pattern, 4, 16, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMMemFill(queue, NULL, pattern, 4, 16, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(queue, p + 2, pattern, 4, 16, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(queue, p, NULL, 4, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(queue, p, pattern, 0, 16, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(queue, p, pattern, 3, 18, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(queue, p, pattern, 256, 512, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(queue, p, pattern, 4, 18, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMemFill(queue, p, pattern, 4, 16, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    clSVMFree(ctx, p);
}

static void map_unmap_migrate(void **state)
{
    (void)state;
    int *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 256 * sizeof(int), 0);
    assert_non_null(p);
    cl_event e;
    assert_int_equal(
        clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, p, 256 * sizeof(int), 0, NULL, &e),
        CL_SUCCESS);
    assert_int_equal(command_type(e), CL_COMMAND_SVM_MAP);
    clReleaseEvent(e);
    for (int i = 0; i < 256; i++)
        p[i] = i;
    assert_int_equal(clEnqueueSVMUnmap(queue, p, 0, NULL, &e), CL_SUCCESS);
    assert_int_equal(command_type(e), CL_COMMAND_SVM_UNMAP);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    clReleaseEvent(e);
    /* Non-blocking map: it completes in order. */
    assert_int_equal(clEnqueueSVMMap(queue, CL_FALSE, CL_MAP_READ, p, 16, 0, NULL, &e), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    clReleaseEvent(e);
    assert_int_equal(clEnqueueSVMUnmap(queue, p, 0, NULL, NULL), CL_SUCCESS);

    assert_int_equal(clEnqueueSVMMap(NULL, CL_TRUE, CL_MAP_READ, p, 16, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, NULL, 16, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 0, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMap(queue, CL_TRUE, 1 << 7, p, 16, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                                     p, 16, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, p, 16, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueSVMUnmap(NULL, p, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMUnmap(queue, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMUnmap(queue, p, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);

    const void *ptrs[2] = {p, p + 128};
    size_t sizes[2] = {0, 128 * sizeof(int)};
    assert_int_equal(clEnqueueSVMMigrateMem(queue, 2, ptrs, NULL, 0, 0, NULL, &e), CL_SUCCESS);
    assert_int_equal(command_type(e), CL_COMMAND_SVM_MIGRATE_MEM);
    clReleaseEvent(e);
    assert_int_equal(
        clEnqueueSVMMigrateMem(queue, 2, ptrs, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL),
        CL_SUCCESS);
    assert_int_equal(clEnqueueSVMMigrateMem(NULL, 2, ptrs, NULL, 0, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMMigrateMem(queue, 0, ptrs, NULL, 0, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMigrateMem(queue, 2, NULL, NULL, 0, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    const void *with_null[2] = {p, NULL};
    assert_int_equal(clEnqueueSVMMigrateMem(queue, 2, with_null, NULL, 0, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    sizes[1] = 128 * sizeof(int) + 1;
    assert_int_equal(clEnqueueSVMMigrateMem(queue, 2, ptrs, sizes, 0, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    int host[4];
    const void *foreign[1] = {host};
    size_t foreign_size[1] = {sizeof host};
    assert_int_equal(clEnqueueSVMMigrateMem(queue, 1, foreign, foreign_size, 0, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMigrateMem(queue, 1, ptrs, NULL, 1 << 5, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMMigrateMem(queue, 1, ptrs, NULL, 0, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    clSVMFree(ctx, p);
}

struct free_record {
    atomic_int calls;
    cl_command_queue queue;
    cl_uint num;
    void *ptrs[2];
};

static void CL_CALLBACK free_cb(cl_command_queue q, cl_uint num, void *ptrs[], void *user_data)
{
    struct free_record *r = user_data;
    r->queue = q;
    r->num = num;
    for (cl_uint i = 0; i < num && i < 2; i++) {
        r->ptrs[i] = ptrs[i];
        clSVMFree(ctx, ptrs[i]);
    }
    atomic_fetch_add(&r->calls, 1);
}

static void enqueue_free(void **state)
{
    (void)state;
    void *ptrs[2] = {clSVMAlloc(ctx, 0, 64, 0), clSVMAlloc(ctx, 0, 64, 0)};
    struct free_record r = {0};
    cl_event e;
    assert_int_equal(clEnqueueSVMFree(queue, 2, ptrs, free_cb, &r, 0, NULL, &e), CL_SUCCESS);
    ptrs[0] = ptrs[1] = NULL; /* the list was copied */
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    assert_int_equal(command_type(e), CL_COMMAND_SVM_FREE);
    clReleaseEvent(e);
    assert_int_equal(atomic_load(&r.calls), 1);
    assert_ptr_equal(r.queue, queue);
    assert_int_equal(r.num, 2);
    assert_non_null(r.ptrs[0]);
    assert_non_null(r.ptrs[1]);

    /* No callback: the runtime frees them (no longer SVM pointers afterwards). */
    char *p = clSVMAlloc(ctx, 0, 64, 0);
    void *list[1] = {p};
    assert_int_equal(clEnqueueSVMFree(queue, 1, list, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    void *again = clSVMAlloc(ctx, 0, 64, 0); /* may reuse p: harmless */
    clSVMFree(ctx, again);
    /* An empty list is a command that does nothing. */
    assert_int_equal(clEnqueueSVMFree(queue, 0, NULL, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);

    assert_int_equal(clEnqueueSVMFree(NULL, 0, NULL, NULL, NULL, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueSVMFree(queue, 0, list, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMFree(queue, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueSVMFree(queue, 0, NULL, NULL, NULL, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
}

static const char *scale_src = "kernel void scale(global const int *in, global int *out, int k) {\n"
                               "    size_t i = get_global_id(0);\n"
                               "    out[i] = in[i] * k;\n"
                               "}\n"
                               "kernel void take(int x) {}\n";

static void set_arg_svm_pointer_errors(void **state)
{
    (void)state;
    cl_kernel k = kernel_of(scale_src, "scale", "-cl-std=CL3.0");
    int x;
    assert_int_equal(clSetKernelArgSVMPointer(NULL, 0, &x), CL_INVALID_KERNEL);
    assert_int_equal(clSetKernelArgSVMPointer((cl_kernel)ctx, 0, &x), CL_INVALID_KERNEL);
    assert_int_equal(clSetKernelArgSVMPointer(k, 3, &x), CL_INVALID_ARG_INDEX);
    assert_int_equal(clSetKernelArgSVMPointer(k, 2, &x), CL_INVALID_ARG_VALUE);
    /* Any value is accepted for a pointer argument, NULL included. */
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, NULL), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 1, (void *)(uintptr_t)0x1234), CL_SUCCESS);

    void *ptrs[2] = {&x, &x};
    assert_int_equal(clSetKernelExecInfo(NULL, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs),
                     CL_INVALID_KERNEL);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs),
                     CL_SUCCESS);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, ptrs),
                     CL_INVALID_VALUE);
    /* 0 and NULL unset the list (test_svm set_kernel_exec_info_svm_ptrs). */
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL), CL_SUCCESS);
    cl_bool yes = CL_TRUE, no = CL_FALSE;
    assert_int_equal(
        clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes),
        CL_SUCCESS);
    assert_int_equal(
        clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no, &no),
        CL_SUCCESS);
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &yes),
                     CL_INVALID_VALUE);
    assert_int_equal(
        clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(clSetKernelExecInfo(k, 0x12345, sizeof yes, &yes), CL_INVALID_VALUE);
    clReleaseKernel(k);
}

/* Runs scale(in, out, 3) over n items with SVM pointer arguments. */
static void run_scale(cl_kernel k, const int *in, int *out, size_t n)
{
    int three = 3;
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, in), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 1, out), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof three, &three), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
}

static void kernel_on_coarse_grain(void **state)
{
    (void)state;
    enum { N = 4096 };
    cl_kernel k = kernel_of(scale_src, "scale", "-cl-std=CL3.0");
    int *in = clSVMAlloc(ctx, CL_MEM_READ_ONLY, N * sizeof(int), 0);
    int *out = clSVMAlloc(ctx, CL_MEM_WRITE_ONLY, N * sizeof(int), 0);
    assert_non_null(in);
    assert_non_null(out);
    assert_int_equal(
        clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, in, N * sizeof(int), 0, NULL, NULL),
        CL_SUCCESS);
    for (int i = 0; i < N; i++)
        in[i] = i - 100;
    assert_int_equal(clEnqueueSVMUnmap(queue, in, 0, NULL, NULL), CL_SUCCESS);
    /* Pointers into the allocations, not only their bases. */
    run_scale(k, in + 96, out + 96, N - 96);
    assert_int_equal(
        clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, out, N * sizeof(int), 0, NULL, NULL),
        CL_SUCCESS);
    for (int i = 96; i < N; i++)
        assert_int_equal(out[i], 3 * (i - 100));
    assert_int_equal(clEnqueueSVMUnmap(queue, out, 0, NULL, NULL), CL_SUCCESS);

    /* A clSetKernelArg buffer replaces an SVM pointer, and the other way round. */
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, N * sizeof(int), out, &err);
    assert_int_equal(err, CL_SUCCESS);
    run_scale(k, out, out, 0 + 1); /* in place on item 0 through SVM... */
    assert_int_equal(clSetKernelArg(k, 1, sizeof m, &m), CL_SUCCESS);
    size_t n = N;
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, in), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 3 * (i - 100));
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clSVMFree(ctx, in);
    clSVMFree(ctx, out);
}

static void kernel_on_fine_grain_buffer(void **state)
{
    (void)state;
    enum { N = 10000 };
    cl_kernel k = kernel_of(scale_src, "scale", "-cl-std=CL3.0");
    int *in = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(int), 0);
    int *out =
        clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(int), 0);
    assert_non_null(in);
    assert_non_null(out);
    /* No map: the host writes and reads directly. */
    for (int i = 0; i < N; i++)
        in[i] = 7 * i;
    run_scale(k, in, out, N);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 21 * i);
    clReleaseKernel(k);
    clSVMFree(ctx, in);
    clSVMFree(ctx, out);
}

static void kernel_on_system_memory(void **state)
{
    (void)state;
    enum { N = 5000 };
    cl_kernel k = kernel_of(scale_src, "scale", "-cl-std=CL3.0");
    int *in = malloc(N * sizeof(int)), out_stack[64];
    int *out = malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)
        in[i] = N - i;
    cl_bool yes = CL_TRUE;
    assert_int_equal(
        clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes),
        CL_SUCCESS);
    run_scale(k, in, out, N);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 3 * (N - i));
    /* Stack memory is system memory too. */
    run_scale(k, in, out_stack, 64);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(out_stack[i], 3 * (N - i));
    clReleaseKernel(k);
    free(in);
    free(out);
}

/* Pointers stored inside SVM memory and followed by the kernel (CL_KERNEL_EXEC_INFO_SVM_PTRS). */
static void kernel_follows_pointers_in_svm(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("typedef struct node { global struct node *next; int value; } node;\n"
                            "kernel void sum(global node *head, global int *out) {\n"
                            "    int s = 0;\n"
                            "    for (global node *n = head; n; n = n->next) s += n->value;\n"
                            "    *out = s;\n"
                            "}\n",
                            "sum", "-cl-std=CL3.0");
    struct node {
        struct node *next;
        int value;
    };
    enum { N = 100 };
    struct node *nodes = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof *nodes, 0);
    int *out = clSVMAlloc(ctx, CL_MEM_SVM_FINE_GRAIN_BUFFER, sizeof(int), 0);
    assert_non_null(nodes);
    assert_non_null(out);
    for (int i = 0; i < N; i++)
        nodes[i] = (struct node){i + 1 < N ? &nodes[i + 1] : NULL, i};
    void *extra[1] = {nodes};
    assert_int_equal(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof extra, extra),
                     CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, nodes), CL_SUCCESS);
    assert_int_equal(clSetKernelArgSVMPointer(k, 1, out), CL_SUCCESS);
    assert_int_equal(clEnqueueTask(queue, k, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(queue), CL_SUCCESS);
    assert_int_equal(*out, N * (N - 1) / 2);
    clReleaseKernel(k);
    clSVMFree(ctx, nodes);
    clSVMFree(ctx, out);
}

/*
 * SVM atomics: many work-items on several workers atomic_fetch_add into a few
 * counters of fine-grain SVM memory while the host adds to the same counters
 * with its own atomics; every increment is counted.
 */
static void atomics_on_fine_grain_svm(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("kernel void count(global atomic_int *c, int n) {\n"
                            "    int i = (int)get_global_id(0);\n"
                            "    atomic_fetch_add_explicit(&c[i % n], 1, memory_order_relaxed,\n"
                            "                              memory_scope_all_svm_devices);\n"
                            "    atomic_fetch_add_explicit(&c[n], i, memory_order_seq_cst,\n"
                            "                              memory_scope_all_svm_devices);\n"
                            "}\n",
                            "count", "-cl-std=CL3.0");
    enum { COUNTERS = 4, ITEMS = 1 << 18, HOST = 100000 };
    _Atomic int *c =
        clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                   (COUNTERS + 1) * sizeof(int), 0);
    assert_non_null(c);
    for (int i = 0; i <= COUNTERS; i++)
        atomic_init(&c[i], 0);
    int n = COUNTERS;
    assert_int_equal(clSetKernelArgSVMPointer(k, 0, (void *)c), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof n, &n), CL_SUCCESS);
    size_t global = ITEMS, local = 64;
    cl_event done;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, &done),
                     CL_SUCCESS);
    for (int i = 0; i < HOST; i++)
        atomic_fetch_add_explicit(&c[i % COUNTERS], 1, memory_order_relaxed);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    clReleaseEvent(done);
    for (int i = 0; i < COUNTERS; i++)
        assert_int_equal(atomic_load(&c[i]), ITEMS / COUNTERS + HOST / COUNTERS);
    /* The sum of 0 .. ITEMS-1, modulo 2^32 as the kernel's int wraps. */
    uint32_t want = (uint32_t)((uint64_t)ITEMS * (ITEMS - 1) / 2);
    assert_int_equal((uint32_t)atomic_load(&c[COUNTERS]), want);
    clReleaseKernel(k);
    clSVMFree(ctx, (void *)c);
}

/* Releasing a context frees the SVM allocations left in it. */
static void context_release_frees_leftovers(void **state)
{
    (void)state;
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(clSVMAlloc(c, CL_MEM_READ_WRITE, 4096, 0));
    assert_int_equal(clReleaseContext(c), CL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(device_advertises_every_kind),
        cmocka_unit_test(alloc_and_free),
        cmocka_unit_test(buffer_on_svm_pointer),
        cmocka_unit_test(memcpy_blocking_and_not),
        cmocka_unit_test(memfill_patterns),
        cmocka_unit_test(map_unmap_migrate),
        cmocka_unit_test(enqueue_free),
        cmocka_unit_test(set_arg_svm_pointer_errors),
        cmocka_unit_test(kernel_on_coarse_grain),
        cmocka_unit_test(kernel_on_fine_grain_buffer),
        cmocka_unit_test(kernel_on_system_memory),
        cmocka_unit_test(kernel_follows_pointers_in_svm),
        cmocka_unit_test(atomics_on_fine_grain_svm),
        cmocka_unit_test(context_release_frees_leftovers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
