/* SPDX-License-Identifier: MIT */
/* Buffers and sub-buffers through the loader: flags, queries, lifetime, errors. */
#include "runtime_common.h"

static void check_info(cl_mem m, cl_context ctx, cl_mem_flags flags, size_t size, void *host,
                       cl_mem parent, size_t offset)
{
    cl_mem_object_type type = 0;
    cl_mem_flags got_flags = 0;
    size_t got_size = 0, got_offset = 99, ret = 0;
    void *got_host = (void *)1;
    cl_uint maps = 99, refs = 0;
    cl_context got_ctx = NULL;
    cl_mem got_parent = (cl_mem)1;
    cl_bool svm = CL_TRUE;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, &ret), CL_SUCCESS);
    assert_int_equal(ret, sizeof type);
    assert_int_equal(type, CL_MEM_OBJECT_BUFFER);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof got_flags, &got_flags, NULL),
                     CL_SUCCESS);
    assert_int_equal(got_flags, flags);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof got_size, &got_size, NULL),
                     CL_SUCCESS);
    assert_int_equal(got_size, size);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof got_host, &got_host, NULL),
                     CL_SUCCESS);
    assert_ptr_equal(got_host, host);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL), CL_SUCCESS);
    assert_int_equal(maps, 0);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    assert_int_equal(refs, 1);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof got_ctx, &got_ctx, NULL),
                     CL_SUCCESS);
    assert_ptr_equal(got_ctx, ctx);
    assert_int_equal(
        clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof got_parent, &got_parent, NULL),
        CL_SUCCESS);
    assert_ptr_equal(got_parent, parent);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof got_offset, &got_offset, NULL),
                     CL_SUCCESS);
    assert_int_equal(got_offset, offset);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_USES_SVM_POINTER, sizeof svm, &svm, NULL),
                     CL_SUCCESS);
    assert_int_equal(svm, CL_FALSE);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &ret), CL_SUCCESS);
    assert_int_equal(ret, 0);
    assert_int_equal(clGetMemObjectInfo(m, 0x7fff, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, 1, &got_size, NULL), CL_INVALID_VALUE);
}

static void create_every_flag(void **state)
{
    struct fixture *f = *state;
    static char host[4096];
    const cl_mem_flags access[] = {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY};
    const cl_mem_flags hosts[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                  CL_MEM_HOST_NO_ACCESS};
    const cl_mem_flags ptrs[] = {0, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR,
                                 CL_MEM_COPY_HOST_PTR,
                                 CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
    for (size_t a = 0; a < 4; a++)
        for (size_t h = 0; h < 4; h++)
            for (size_t p = 0; p < 5; p++) {
                cl_mem_flags flags = access[a] | hosts[h] | ptrs[p];
                bool wants = ptrs[p] & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
                cl_mem m = test_buffer(f->ctx, flags, sizeof host, wants ? host : NULL);
                check_info(m, f->ctx, flags, sizeof host, flags & CL_MEM_USE_HOST_PTR ? host : NULL,
                           NULL, 0);
                assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
            }
}

static void create_errors(void **state)
{
    struct fixture *f = *state;
    char host[64];
    cl_int err = CL_SUCCESS;
    assert_null(clCreateBuffer(NULL, 0, 64, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateBuffer((cl_context)f->q, 0, 64, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    const cl_mem_flags bad_flags[] = {
        CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
        CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY,
        CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY,
        CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
        CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY,
        CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_WRITE_ONLY,
        CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
        CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
        (cl_mem_flags)1 << 40,
        CL_MEM_KERNEL_READ_AND_WRITE,
    };
    for (size_t i = 0; i < sizeof bad_flags / sizeof *bad_flags; i++) {
        bool wants = bad_flags[i] & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
        assert_null(clCreateBuffer(f->ctx, bad_flags[i], 64, wants ? host : NULL, &err));
        assert_int_equal(err, CL_INVALID_VALUE);
    }
    assert_null(clCreateBuffer(f->ctx, 0, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    cl_ulong max = 0;
    assert_int_equal(clGetDeviceInfo(f->dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL),
                     CL_SUCCESS);
    assert_null(clCreateBuffer(f->ctx, 0, (size_t)max + 1, NULL, &err));
    assert_int_equal(err, CL_INVALID_BUFFER_SIZE);
    assert_null(clCreateBuffer(f->ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &err));
    assert_int_equal(err, CL_INVALID_HOST_PTR);
    assert_null(clCreateBuffer(f->ctx, CL_MEM_COPY_HOST_PTR, 64, NULL, &err));
    assert_int_equal(err, CL_INVALID_HOST_PTR);
    assert_null(clCreateBuffer(f->ctx, CL_MEM_ALLOC_HOST_PTR, 64, host, &err));
    assert_int_equal(err, CL_INVALID_HOST_PTR);
    assert_null(clCreateBuffer(f->ctx, 0, 64, host, &err));
    assert_int_equal(err, CL_INVALID_HOST_PTR);

    assert_int_equal(clRetainMemObject(NULL), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clReleaseMemObject((cl_mem)f->q), CL_INVALID_MEM_OBJECT);
    cl_uint refs;
    assert_int_equal(clGetMemObjectInfo(NULL, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_INVALID_MEM_OBJECT);
}

static void with_properties(void **state)
{
    struct fixture *f = *state;
    cl_int err = -1;
    cl_mem m = clCreateBufferWithProperties(f->ctx, NULL, 0, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t size = 99;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &size), CL_SUCCESS);
    assert_int_equal(size, 0);
    clReleaseMemObject(m);
    const cl_mem_properties empty[] = {0};
    m = clCreateBufferWithProperties(f->ctx, empty, CL_MEM_READ_ONLY, 64, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem_properties got[4] = {9, 9, 9, 9};
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, sizeof got, got, &size), CL_SUCCESS);
    assert_int_equal(size, sizeof empty);
    assert_int_equal(got[0], 0);
    clReleaseMemObject(m);
    const cl_mem_properties unknown[] = {0x7fff, 1, 0};
    assert_null(clCreateBufferWithProperties(f->ctx, unknown, 0, 64, NULL, &err));
    assert_int_equal(err, CL_INVALID_PROPERTY);
    assert_null(clCreateBufferWithProperties(NULL, empty, 0, 64, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
}

static void host_pointers(void **state)
{
    struct fixture *f = *state;
    int host[256];
    for (int i = 0; i < 256; i++)
        host[i] = i;
    /* COPY_HOST_PTR copies at creation: the host array is free afterwards. */
    cl_mem copy = test_buffer(f->ctx, CL_MEM_COPY_HOST_PTR, sizeof host, host);
    /* USE_HOST_PTR aliases: what the queue writes lands in the host array. */
    cl_mem use = test_buffer(f->ctx, CL_MEM_USE_HOST_PTR, sizeof host, host);
    host[0] = -1;
    int got[256];
    assert_int_equal(clEnqueueReadBuffer(f->q, copy, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(got[0], 0);
    assert_int_equal(got[255], 255);
    const int v = 42;
    assert_int_equal(clEnqueueFillBuffer(f->q, use, &v, sizeof v, 16, 32, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    assert_int_equal(host[3], 3);
    for (int i = 4; i < 12; i++)
        assert_int_equal(host[i], 42);
    assert_int_equal(host[12], 12);
    /* Allocations follow CL_DEVICE_MEM_BASE_ADDR_ALIGN. */
    cl_uint align_bits = 0;
    assert_int_equal(clGetDeviceInfo(f->dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                                     &align_bits, NULL),
                     CL_SUCCESS);
    cl_mem alloc = test_buffer(f->ctx, CL_MEM_ALLOC_HOST_PTR, 100, NULL);
    cl_int err;
    void *p = clEnqueueMapBuffer(f->q, alloc, CL_TRUE, CL_MAP_READ, 0, 100, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal((uintptr_t)p % (align_bits / 8), 0);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, alloc, p, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    clReleaseMemObject(alloc);
    clReleaseMemObject(copy);
    clReleaseMemObject(use);
}

static void sub_buffers(void **state)
{
    struct fixture *f = *state;
    static char host[1024];
    cl_int err = -1;
    cl_mem parent = test_buffer(
        f->ctx, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, sizeof host, host);
    cl_buffer_region r = {256, 128};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    assert_int_equal(err, CL_SUCCESS);
    /* Access, host access and host-pointer flags are inherited. */
    check_info(sub, f->ctx, CL_MEM_USE_HOST_PTR | CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, 128,
               host + 256, parent, 256);
    cl_uint refs = 0;
    assert_int_equal(clGetMemObjectInfo(parent, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    assert_int_equal(refs, 1);
    /* A sub-buffer of a sub-buffer is refused. */
    cl_buffer_region inner = {0, 64};
    assert_null(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &inner, &err));
    assert_int_equal(err, CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(sub);

    /* Flags given explicitly narrow what is inherited. */
    cl_mem rw = test_buffer(f->ctx, CL_MEM_READ_WRITE, 1024, NULL);
    sub = clCreateSubBuffer(rw, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS,
                            CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    assert_int_equal(err, CL_SUCCESS);
    check_info(sub, f->ctx, CL_MEM_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS, 128, NULL, rw, 256);
    clReleaseMemObject(sub);

    struct {
        cl_mem buffer;
        cl_mem_flags flags;
        cl_buffer_region region;
        cl_int err;
    } cases[] = {
        {parent, CL_MEM_READ_WRITE, {0, 64}, CL_INVALID_VALUE},
        {parent, CL_MEM_WRITE_ONLY, {0, 64}, CL_INVALID_VALUE},
        {parent, CL_MEM_HOST_WRITE_ONLY, {0, 64}, CL_INVALID_VALUE},
        {parent, CL_MEM_USE_HOST_PTR, {0, 64}, CL_INVALID_VALUE},
        {rw, CL_MEM_ALLOC_HOST_PTR, {0, 64}, CL_INVALID_VALUE},
        {rw, CL_MEM_COPY_HOST_PTR, {0, 64}, CL_INVALID_VALUE},
        {rw, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, {0, 64}, CL_INVALID_VALUE},
        {rw, 0, {1024, 1}, CL_INVALID_VALUE},
        {rw, 0, {896, 256}, CL_INVALID_VALUE},
        {rw, 0, {128, SIZE_MAX}, CL_INVALID_VALUE},
        {rw, 0, {128, 0}, CL_INVALID_BUFFER_SIZE},
        {rw, 0, {64, 64}, CL_MISALIGNED_SUB_BUFFER_OFFSET},
        {rw, 0, {1, 64}, CL_MISALIGNED_SUB_BUFFER_OFFSET},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        err = CL_SUCCESS;
        assert_null(clCreateSubBuffer(cases[i].buffer, cases[i].flags, CL_BUFFER_CREATE_TYPE_REGION,
                                      &cases[i].region, &err));
        assert_int_equal(err, cases[i].err);
    }
    cl_mem wo = test_buffer(f->ctx, CL_MEM_WRITE_ONLY | CL_MEM_HOST_WRITE_ONLY, 1024, NULL);
    assert_null(clCreateSubBuffer(wo, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(
        clCreateSubBuffer(wo, CL_MEM_HOST_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    cl_mem na = test_buffer(f->ctx, CL_MEM_HOST_NO_ACCESS, 1024, NULL);
    assert_null(
        clCreateSubBuffer(na, CL_MEM_HOST_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSubBuffer(rw, 0, 0x7fff, &r, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSubBuffer(rw, 0, CL_BUFFER_CREATE_TYPE_REGION, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSubBuffer(NULL, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err));
    assert_int_equal(err, CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(wo);
    clReleaseMemObject(na);
    clReleaseMemObject(rw);
    clReleaseMemObject(parent);
}

static void sub_buffer_shares_storage(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_mem parent = test_buffer(f->ctx, 0, 4096, NULL);
    unsigned char zero = 0, one = 1;
    assert_int_equal(clEnqueueFillBuffer(f->q, parent, &zero, 1, 0, 4096, 0, NULL, NULL),
                     CL_SUCCESS);
    cl_buffer_region r = {1024, 512};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    assert_int_equal(clEnqueueFillBuffer(f->q, sub, &one, 1, 0, 512, 0, NULL, NULL), CL_SUCCESS);
    /* The parent may be released first: the sub-buffer keeps it. */
    assert_int_equal(clReleaseMemObject(parent), CL_SUCCESS);
    unsigned char got[512];
    assert_int_equal(clEnqueueReadBuffer(f->q, sub, CL_TRUE, 0, 512, got, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 512; i++)
        assert_int_equal(got[i], 1);
    clReleaseMemObject(sub);
}

struct dtor_log {
    int n;
    int order[8];
};

struct dtor_data {
    struct dtor_log *log;
    int id;
};

static void CL_CALLBACK dtor(cl_mem m, void *p)
{
    (void)m;
    struct dtor_data *d = p;
    int i = __atomic_fetch_add(&d->log->n, 1, __ATOMIC_SEQ_CST);
    d->log->order[i] = d->id;
}

static void destructor_callbacks(void **state)
{
    struct fixture *f = *state;
    struct dtor_log log = {0};
    struct dtor_data data[3] = {{&log, 1}, {&log, 2}, {&log, 3}};
    cl_int err;
    cl_mem m = test_buffer(f->ctx, 0, 256, NULL);
    for (int i = 0; i < 3; i++)
        assert_int_equal(clSetMemObjectDestructorCallback(m, dtor, &data[i]), CL_SUCCESS);
    assert_int_equal(clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clSetMemObjectDestructorCallback(NULL, dtor, NULL), CL_INVALID_MEM_OBJECT);
    /* A command still using the buffer keeps it alive past its release. */
    cl_event gate = clCreateUserEvent(f->ctx, &err);
    const int v = 5;
    assert_int_equal(clEnqueueFillBuffer(f->q, m, &v, sizeof v, 0, 256, 1, &gate, NULL),
                     CL_SUCCESS);
    assert_int_equal(clReleaseMemObject(m), CL_SUCCESS);
    sleep_ms(10);
    assert_int_equal(__atomic_load_n(&log.n, __ATOMIC_SEQ_CST), 0);
    /* Released but alive: the handle is refused. */
    assert_int_equal(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    assert_int_equal(log.n, 3);
    /* Newest first. */
    assert_int_equal(log.order[0], 3);
    assert_int_equal(log.order[1], 2);
    assert_int_equal(log.order[2], 1);
    clReleaseEvent(gate);

    /* A parent outlives its sub-buffers. */
    struct dtor_log log2 = {0};
    struct dtor_data pd = {&log2, 10}, sd = {&log2, 20};
    cl_mem parent = test_buffer(f->ctx, 0, 1024, NULL);
    cl_buffer_region r = {0, 128};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    clSetMemObjectDestructorCallback(parent, dtor, &pd);
    clSetMemObjectDestructorCallback(sub, dtor, &sd);
    clReleaseMemObject(parent);
    assert_int_equal(log2.n, 0);
    clReleaseMemObject(sub);
    assert_int_equal(log2.n, 2);
    assert_int_equal(log2.order[0], 20);
    assert_int_equal(log2.order[1], 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_every_flag),    cmocka_unit_test(create_errors),
        cmocka_unit_test(with_properties),      cmocka_unit_test(host_pointers),
        cmocka_unit_test(sub_buffers),          cmocka_unit_test(sub_buffer_shares_storage),
        cmocka_unit_test(destructor_callbacks),
    };
    return cmocka_run_group_tests(tests, fixture_setup, fixture_teardown);
}
