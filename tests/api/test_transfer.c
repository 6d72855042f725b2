/* SPDX-License-Identifier: MIT */
/* Buffer transfers through the loader: data, geometry, overlap, host flags, errors. */
#include "runtime_common.h"

static void fill_bytes(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 31 + seed);
}

static void read_write(void **state)
{
    struct fixture *f = *state;
    enum { N = 4096 };
    unsigned char in[N], out[N];
    fill_bytes(in, N, 1);
    cl_mem b = test_buffer(f->ctx, 0, N, NULL);
    cl_event w, r;
    assert_int_equal(clEnqueueWriteBuffer(f->ooo, b, CL_FALSE, 0, N, in, 0, NULL, &w), CL_SUCCESS);
    memset(out, 0, N);
    assert_int_equal(clEnqueueReadBuffer(f->ooo, b, CL_FALSE, 100, N - 100, out, 1, &w, &r),
                     CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &r), CL_SUCCESS);
    assert_memory_equal(out, in + 100, N - 100);
    cl_command_type type;
    assert_int_equal(clGetEventInfo(w, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_WRITE_BUFFER);
    assert_int_equal(clGetEventInfo(r, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_READ_BUFFER);
    clReleaseEvent(w);
    clReleaseEvent(r);
    /* Blocking forms, and a zero-sized transfer. */
    assert_int_equal(clEnqueueWriteBuffer(f->q, b, CL_TRUE, 10, 20, in, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, 10, 20, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, in, 20);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, N, 0, out, 0, NULL, NULL), CL_SUCCESS);

    /* Errors, in the specification's order. */
    assert_int_equal(clEnqueueReadBuffer(NULL, b, CL_TRUE, 0, 4, out, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueReadBuffer(f->q, NULL, CL_TRUE, 0, 4, out, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    assert_int_equal(clEnqueueWriteBuffer(f->q, (cl_mem)f->q, CL_TRUE, 0, 4, in, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &f->dev, NULL, NULL, &err);
    cl_mem foreign = test_buffer(other, 0, 64, NULL);
    assert_int_equal(clEnqueueReadBuffer(f->q, foreign, CL_TRUE, 0, 4, out, 0, NULL, NULL),
                     CL_INVALID_CONTEXT);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, N - 3, 4, out, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, N + 1, 0, out, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueWriteBuffer(f->q, b, CL_TRUE, 8, SIZE_MAX, in, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, 0, 4, NULL, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueWriteBuffer(f->q, b, CL_TRUE, 0, 4, NULL, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, 0, 4, out, 2, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    clReleaseMemObject(foreign);
    clReleaseContext(other);
    clReleaseMemObject(b);
}

static void host_access_flags(void **state)
{
    struct fixture *f = *state;
    unsigned char buf[64] = {0};
    cl_mem wo = test_buffer(f->ctx, CL_MEM_HOST_WRITE_ONLY, 64, NULL);
    cl_mem ro = test_buffer(f->ctx, CL_MEM_HOST_READ_ONLY, 64, NULL);
    cl_mem na = test_buffer(f->ctx, CL_MEM_HOST_NO_ACCESS, 64, NULL);
    const size_t o[3] = {0, 0, 0}, reg[3] = {8, 2, 1};
    cl_int err;
    assert_int_equal(clEnqueueWriteBuffer(f->q, wo, CL_TRUE, 0, 64, buf, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(f->q, wo, CL_TRUE, 0, 64, buf, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    assert_int_equal(
        clEnqueueReadBufferRect(f->q, wo, CL_TRUE, o, o, reg, 0, 0, 0, 0, buf, 0, NULL, NULL),
        CL_INVALID_OPERATION);
    assert_null(clEnqueueMapBuffer(f->q, wo, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    void *p = clEnqueueMapBuffer(f->q, wo, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, 0, NULL,
                                 NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, wo, p, 0, NULL, NULL), CL_SUCCESS);

    assert_int_equal(clEnqueueReadBuffer(f->q, ro, CL_TRUE, 0, 64, buf, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(f->q, ro, CL_TRUE, 0, 64, buf, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    assert_int_equal(
        clEnqueueWriteBufferRect(f->q, ro, CL_TRUE, o, o, reg, 0, 0, 0, 0, buf, 0, NULL, NULL),
        CL_INVALID_OPERATION);
    assert_null(clEnqueueMapBuffer(f->q, ro, CL_TRUE, CL_MAP_WRITE, 0, 64, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);

    assert_int_equal(clEnqueueReadBuffer(f->q, na, CL_TRUE, 0, 64, buf, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueWriteBuffer(f->q, na, CL_TRUE, 0, 64, buf, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    assert_null(clEnqueueMapBuffer(f->q, na, CL_TRUE, CL_MAP_READ, 0, 64, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    /* Copies and fills are not host accesses. */
    const unsigned char v = 9;
    assert_int_equal(clEnqueueFillBuffer(f->q, na, &v, 1, 0, 64, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(f->q, na, wo, 0, 0, 64, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(f->q, na, ro, 0, 0, 64, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(f->q, ro, CL_TRUE, 0, 64, buf, 0, NULL, NULL), CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_int_equal(buf[i], 9);
    clReleaseMemObject(wo);
    clReleaseMemObject(ro);
    clReleaseMemObject(na);
}

/*
 * Host memory that overlaps a USE_HOST_PTR buffer's own bytes: the same
 * bytes (allowed: nothing moves) or, the application's mistake, shifted
 * ones; the copy behaves as memmove (it was a memcpy of overlapping
 * ranges, which ASan reports: the API fuzzer's find).
 */
static void host_memory_overlapping_the_buffer(void **state)
{
    struct fixture *f = *state;
    unsigned char h[64], want[64];
    for (int i = 0; i < 64; i++)
        h[i] = want[i] = (unsigned char)i;
    cl_mem m = test_buffer(f->ctx, CL_MEM_USE_HOST_PTR, sizeof h, h);
    assert_int_equal(clEnqueueReadBuffer(f->q, m, CL_TRUE, 8, 16, h + 8, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(h, want, 64);
    assert_int_equal(clEnqueueReadBuffer(f->q, m, CL_TRUE, 0, 16, h + 11, 0, NULL, NULL),
                     CL_SUCCESS);
    memmove(want + 11, want, 16);
    assert_memory_equal(h, want, 64);
    assert_int_equal(clEnqueueWriteBuffer(f->q, m, CL_TRUE, 20, 16, h + 13, 0, NULL, NULL),
                     CL_SUCCESS);
    memmove(want + 20, want + 13, 16);
    assert_memory_equal(h, want, 64);
    clReleaseMemObject(m);
}

static void copy_and_overlap(void **state)
{
    struct fixture *f = *state;
    enum { N = 2048 };
    unsigned char in[N], out[N];
    fill_bytes(in, N, 7);
    cl_mem a = test_buffer(f->ctx, CL_MEM_COPY_HOST_PTR, N, in);
    cl_mem b = test_buffer(f->ctx, 0, N, NULL);
    assert_int_equal(clEnqueueCopyBuffer(f->q, a, b, 0, 0, N, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(f->q, a, a, 0, 1024, 1024, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, in, N);
    assert_int_equal(clEnqueueReadBuffer(f->q, a, CL_TRUE, 1024, 1024, out, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(out, in, 1024);

    assert_int_equal(clEnqueueCopyBuffer(f->q, a, a, 0, 1023, 1024, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueCopyBuffer(f->q, a, a, 100, 100, 1, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    cl_int err;
    cl_buffer_region r1 = {0, 1024}, r2 = {512, 1024}, r3 = {1024, 1024};
    cl_mem s1 = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
    cl_mem s2 = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r2, &err);
    cl_mem s3 = clCreateSubBuffer(a, 0, CL_BUFFER_CREATE_TYPE_REGION, &r3, &err);
    /* Sub-buffers of one buffer overlap in that buffer. */
    assert_int_equal(clEnqueueCopyBuffer(f->q, s1, s2, 0, 0, 600, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueCopyBuffer(f->q, s1, s2, 0, 512, 512, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(f->q, s1, s3, 0, 0, 1024, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueCopyBuffer(f->q, a, s3, 1028, 0, 10, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueCopyBuffer(f->q, s1, s1, 0, 512, 512, 0, NULL, NULL), CL_SUCCESS);

    assert_int_equal(clEnqueueCopyBuffer(f->q, a, b, 1, 0, N, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueCopyBuffer(f->q, a, b, 0, 1, N, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueCopyBuffer(f->q, NULL, b, 0, 0, 1, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    assert_int_equal(clEnqueueCopyBuffer(f->q, a, NULL, 0, 0, 1, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    assert_int_equal(clEnqueueCopyBuffer(NULL, a, b, 0, 0, 1, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueCopyBuffer(f->q, a, b, 0, 0, 1, 0, (cl_event *)&a, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    cl_mem all[] = {s1, s2, s3, a, b};
    for (int i = 0; i < 5; i++)
        clReleaseMemObject(all[i]);
}

/* The reference: what a rectangle copy between two byte arrays does. */
static void rect_reference(unsigned char *dst, const unsigned char *src, const size_t so[3],
                           const size_t d_o[3], const size_t reg[3], size_t srp, size_t ssp,
                           size_t drp, size_t dsp)
{
    for (size_t z = 0; z < reg[2]; z++)
        for (size_t y = 0; y < reg[1]; y++)
            memcpy(dst + (d_o[2] + z) * dsp + (d_o[1] + y) * drp + d_o[0],
                   src + (so[2] + z) * ssp + (so[1] + y) * srp + so[0], reg[0]);
}

static void rectangles(void **state)
{
    struct fixture *f = *state;
    enum { N = 8192 };
    static unsigned char host[N], buf_ref[N], host_ref[N], out[N];
    fill_bytes(host, N, 3);
    cl_mem b = test_buffer(f->ctx, 0, N, NULL);
    unsigned char zero = 0;
    assert_int_equal(clEnqueueFillBuffer(f->q, b, &zero, 1, 0, N, 0, NULL, NULL), CL_SUCCESS);
    memset(buf_ref, 0, N);

    /* 3D write: host pitches 40/400, buffer pitches 32/256 (given) and defaults. */
    const size_t bo[3] = {4, 1, 2}, ho[3] = {3, 2, 1}, reg[3] = {10, 5, 3};
    assert_int_equal(clEnqueueWriteBufferRect(f->q, b, CL_FALSE, bo, ho, reg, 32, 256, 40, 400,
                                              host, 0, NULL, NULL),
                     CL_SUCCESS);
    rect_reference(buf_ref, host, ho, bo, reg, 40, 400, 32, 256);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, buf_ref, N);

    /* 3D read back into a host array with default pitches. */
    memset(out, 0xee, N);
    memcpy(host_ref, out, N);
    const size_t zero3[3] = {0, 0, 0};
    assert_int_equal(clEnqueueReadBufferRect(f->q, b, CL_TRUE, bo, zero3, reg, 32, 256, 0, 0, out,
                                             0, NULL, NULL),
                     CL_SUCCESS);
    rect_reference(host_ref, buf_ref, bo, zero3, reg, 32, 256, reg[0], reg[0] * reg[1]);
    assert_memory_equal(out, host_ref, N);

    /* Copy within one buffer, non-overlapping rectangles, same pitches. */
    const size_t so[3] = {0, 0, 0}, d_o[3] = {16, 0, 0}, creg[3] = {16, 8, 4};
    assert_int_equal(
        clEnqueueCopyBufferRect(f->q, b, b, so, d_o, creg, 32, 256, 32, 256, 0, NULL, NULL),
        CL_SUCCESS);
    rect_reference(buf_ref, buf_ref, so, d_o, creg, 32, 256, 32, 256);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, 0, N, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, buf_ref, N);
    /* The same rectangles shifted by one byte overlap. */
    const size_t d1[3] = {15, 0, 0};
    assert_int_equal(
        clEnqueueCopyBufferRect(f->q, b, b, so, d1, creg, 32, 256, 32, 256, 0, NULL, NULL),
        CL_MEM_COPY_OVERLAP);
    /* Rows interleaved in the gaps of each other do not. */
    const size_t rows[3] = {8, 4, 1}, ro[3] = {0, 0, 0}, rd[3] = {8, 0, 0};
    assert_int_equal(clEnqueueCopyBufferRect(f->q, b, b, ro, rd, rows, 16, 0, 16, 0, 0, NULL, NULL),
                     CL_SUCCESS);
    rect_reference(buf_ref, buf_ref, ro, rd, rows, 16, 64, 16, 64);
    cl_event done;
    /* Copy between two buffers with different pitches. */
    cl_mem c = test_buffer(f->ctx, 0, N, NULL);
    assert_int_equal(clEnqueueFillBuffer(f->q, c, &zero, 1, 0, N, 0, NULL, NULL), CL_SUCCESS);
    static unsigned char c_ref[N];
    memset(c_ref, 0, N);
    const size_t cs[3] = {1, 2, 0}, cd[3] = {5, 0, 1}, cr[3] = {7, 6, 2};
    assert_int_equal(
        clEnqueueCopyBufferRect(f->q, b, c, cs, cd, cr, 32, 512, 24, 288, 0, NULL, &done),
        CL_SUCCESS);
    rect_reference(c_ref, buf_ref, cs, cd, cr, 32, 512, 24, 288);
    assert_int_equal(clEnqueueReadBuffer(f->q, c, CL_TRUE, 0, N, out, 1, &done, NULL), CL_SUCCESS);
    assert_memory_equal(out, c_ref, N);
    cl_command_type type;
    assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_COPY_BUFFER_RECT);
    clReleaseEvent(done);

    /* Errors. */
    const size_t zreg[3] = {0, 1, 1}, big[3] = {N, 2, 1};
    assert_int_equal(
        clEnqueueReadBufferRect(f->q, b, CL_TRUE, NULL, ho, reg, 0, 0, 0, 0, out, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueReadBufferRect(f->q, b, CL_TRUE, bo, ho, zreg, 0, 0, 0, 0, out, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueReadBufferRect(f->q, b, CL_TRUE, bo, ho, big, 0, 0, 0, 0, out, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueReadBufferRect(f->q, b, CL_TRUE, bo, ho, reg, 9, 0, 0, 0, out, 0, NULL, NULL),
        CL_INVALID_VALUE); /* row pitch < region[0] */
    assert_int_equal(
        clEnqueueReadBufferRect(f->q, b, CL_TRUE, bo, ho, reg, 32, 100, 0, 0, out, 0, NULL, NULL),
        CL_INVALID_VALUE); /* slice pitch < rows * row pitch */
    assert_int_equal(
        clEnqueueReadBufferRect(f->q, b, CL_TRUE, bo, ho, reg, 32, 260, 0, 0, out, 0, NULL, NULL),
        CL_INVALID_VALUE); /* slice pitch not a multiple of the row pitch */
    assert_int_equal(
        clEnqueueWriteBufferRect(f->q, b, CL_TRUE, bo, ho, reg, 0, 0, 5, 0, host, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueWriteBufferRect(f->q, b, CL_TRUE, bo, ho, reg, 0, 0, 10, 49, host, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueWriteBufferRect(f->q, b, CL_TRUE, bo, ho, reg, 0, 0, 0, 0, NULL, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueCopyBufferRect(f->q, b, b, so, d_o, creg, 32, 256, 64, 512, 0, NULL, NULL),
        CL_INVALID_VALUE); /* one buffer, two pitches */
    assert_int_equal(clEnqueueCopyBufferRect(f->q, b, c, so, NULL, creg, 0, 0, 0, 0, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueCopyBufferRect(f->q, b, NULL, so, d_o, creg, 0, 0, 0, 0, 0, NULL, NULL),
        CL_INVALID_MEM_OBJECT);
    assert_int_equal(
        clEnqueueReadBufferRect(NULL, b, CL_TRUE, bo, ho, reg, 0, 0, 0, 0, out, 0, NULL, NULL),
        CL_INVALID_COMMAND_QUEUE);
    clReleaseMemObject(c);
    clReleaseMemObject(b);
}

static void fills(void **state)
{
    struct fixture *f = *state;
    enum { N = 4096 };
    static unsigned char out[N], ref[N];
    unsigned char pattern[128];
    fill_bytes(pattern, 128, 11);
    cl_mem b = test_buffer(f->ctx, 0, N, NULL);
    for (size_t p = 1; p <= 128; p *= 2) {
        unsigned char zero = 0;
        assert_int_equal(clEnqueueFillBuffer(f->q, b, &zero, 1, 0, N, 0, NULL, NULL), CL_SUCCESS);
        memset(ref, 0, N);
        size_t offset = p * 3, size = p * 17;
        assert_int_equal(clEnqueueFillBuffer(f->q, b, pattern, p, offset, size, 0, NULL, NULL),
                         CL_SUCCESS);
        for (size_t i = 0; i < size; i++)
            ref[offset + i] = pattern[i % p];
        assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, 0, N, out, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_memory_equal(out, ref, N);
    }
    assert_int_equal(clEnqueueFillBuffer(f->q, b, pattern, 4, 0, 0, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueFillBuffer(f->q, b, pattern, 3, 0, 12, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueFillBuffer(f->q, b, pattern, 0, 0, 12, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueFillBuffer(f->q, b, pattern, 256, 0, 256, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueFillBuffer(f->q, b, pattern, 4, 2, 12, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueFillBuffer(f->q, b, pattern, 4, 0, 10, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueFillBuffer(f->q, b, NULL, 4, 0, 16, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueFillBuffer(f->q, b, pattern, 4, N, 4, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueFillBuffer(f->q, NULL, pattern, 4, 0, 4, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(b);
}

/* Transfers big enough to be split over every worker. */
static void large_transfers(void **state)
{
    struct fixture *f = *state;
    const size_t n = (size_t)24 << 20;
    unsigned char *in = malloc(n), *out = malloc(n);
    fill_bytes(in, n, 5);
    cl_mem a = test_buffer(f->ctx, 0, n, NULL), b = test_buffer(f->ctx, 0, n, NULL);
    assert_int_equal(clEnqueueWriteBuffer(f->ooo, a, CL_TRUE, 0, n, in, 0, NULL, NULL), CL_SUCCESS);
    cl_event copied;
    assert_int_equal(clEnqueueCopyBuffer(f->ooo, a, b, 0, 0, n, 0, NULL, &copied), CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(f->ooo, b, CL_TRUE, 0, n, out, 1, &copied, NULL),
                     CL_SUCCESS);
    assert_memory_equal(out, in, n);
    const cl_uint16 pattern = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
    assert_int_equal(
        clEnqueueFillBuffer(f->q, b, &pattern, sizeof pattern, 64, n - 128, 0, NULL, NULL),
        CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, 0, n, out, 0, NULL, NULL), CL_SUCCESS);
    assert_memory_equal(out, in, 64);
    for (size_t i = 64; i < n - 64; i += 4)
        assert_int_equal(*(cl_uint *)(out + i), ((i - 64) / 4) % 16 + 1);
    assert_memory_equal(out + n - 64, in + n - 64, 64);
    /* A big rectangle: every other 1 KiB row. */
    const size_t o[3] = {0, 0, 0}, reg[3] = {1024, 8192, 1};
    assert_int_equal(
        clEnqueueCopyBufferRect(f->q, a, b, o, o, reg, 2048, 0, 2048, 0, 0, NULL, NULL),
        CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(f->q, b, CL_TRUE, 0, n, out, 0, NULL, NULL), CL_SUCCESS);
    for (size_t row = 0; row < 8192; row++)
        assert_memory_equal(out + row * 2048, in + row * 2048, 1024);
    clReleaseEvent(copied);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(in);
    free(out);
}

static void map_unmap(void **state)
{
    struct fixture *f = *state;
    static int host[1024];
    for (int i = 0; i < 1024; i++)
        host[i] = i;
    cl_int err = -1;
    cl_mem use = test_buffer(f->ctx, CL_MEM_USE_HOST_PTR, sizeof host, host);
    /* USE_HOST_PTR maps hand back the host memory itself. */
    int *p = clEnqueueMapBuffer(f->q, use, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 64, 256, 0, NULL,
                                NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_ptr_equal(p, (char *)host + 64);
    cl_event mapped;
    int *q2 = clEnqueueMapBuffer(f->q, use, CL_FALSE, CL_MAP_READ, 0, 16, 0, NULL, &mapped, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &mapped), CL_SUCCESS);
    assert_int_equal(q2[3], 3);
    cl_uint count = 0;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_MAP_COUNT, sizeof count, &count, NULL),
                     CL_SUCCESS);
    assert_int_equal(count, 2);
    cl_command_type type;
    assert_int_equal(clGetEventInfo(mapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_MAP_BUFFER);
    clReleaseEvent(mapped);
    p[0] = -5;
    cl_event unmapped;
    assert_int_equal(clEnqueueUnmapMemObject(f->q, use, p, 0, NULL, &unmapped), CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, use, q2, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &unmapped), CL_SUCCESS);
    assert_int_equal(clGetEventInfo(unmapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_UNMAP_MEM_OBJECT);
    clReleaseEvent(unmapped);
    /* Unmapped twice, or never mapped: refused. */
    assert_int_equal(clEnqueueUnmapMemObject(f->q, use, p, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, use, host, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_MAP_COUNT, sizeof count, &count, NULL),
                     CL_SUCCESS);
    assert_int_equal(count, 0);
    int got;
    assert_int_equal(clEnqueueReadBuffer(f->q, use, CL_TRUE, 64, sizeof got, &got, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(got, -5);

    /* Other buffers map their own memory; writes through the map are kept. */
    cl_mem own = test_buffer(f->ctx, 0, 4096, NULL);
    int *w = clEnqueueMapBuffer(f->q, own, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, 4096, 0,
                                NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    for (int i = 0; i < 1024; i++)
        w[i] = 3 * i;
    /* Two overlapping regions mapped for writing are refused; for reading, fine. */
    assert_null(
        clEnqueueMapBuffer(f->q, own, CL_TRUE, CL_MAP_WRITE, 4000, 96, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    void *r2 = clEnqueueMapBuffer(f->q, own, CL_TRUE, CL_MAP_READ, 0, 16, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, own, r2, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, own, w, 0, NULL, NULL), CL_SUCCESS);
    int back[1024];
    assert_int_equal(clEnqueueReadBuffer(f->q, own, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 1024; i++)
        assert_int_equal(back[i], 3 * i);
    /* A sub-buffer maps into its buffer's memory. */
    cl_buffer_region r = {1024, 1024};
    cl_mem sub = clCreateSubBuffer(own, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    int *s = clEnqueueMapBuffer(f->q, sub, CL_TRUE, CL_MAP_READ, 4, 8, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(s[0], 3 * 257);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, own, s, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, sub, s, 0, NULL, NULL), CL_SUCCESS);

    /* Errors. */
    assert_null(clEnqueueMapBuffer(f->q, own, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(
        clEnqueueMapBuffer(f->q, own, CL_TRUE, CL_MAP_READ, 4000, 100, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clEnqueueMapBuffer(f->q, own, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                                   0, 4, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clEnqueueMapBuffer(f->q, own, CL_TRUE, 1 << 7, 0, 4, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clEnqueueMapBuffer(NULL, own, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_COMMAND_QUEUE);
    assert_null(clEnqueueMapBuffer(f->q, NULL, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_MEM_OBJECT);
    assert_null(clEnqueueMapBuffer(f->q, own, CL_TRUE, CL_MAP_READ, 0, 4, 1, NULL, NULL, NULL));
    assert_int_equal(clEnqueueUnmapMemObject(NULL, own, w, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, NULL, w, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    clReleaseMemObject(sub);
    clReleaseMemObject(own);
    clReleaseMemObject(use);
}

static void migrate(void **state)
{
    struct fixture *f = *state;
    cl_mem a = test_buffer(f->ctx, 0, 64, NULL), b = test_buffer(f->ctx, 0, 64, NULL);
    cl_mem both[] = {a, b};
    cl_event e;
    assert_int_equal(
        clEnqueueMigrateMemObjects(f->ooo, 2, both, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &e),
        CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    cl_command_type type;
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_MIGRATE_MEM_OBJECTS);
    clReleaseEvent(e);
    assert_int_equal(clEnqueueMigrateMemObjects(
                         f->q, 1, &a, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueMigrateMemObjects(f->q, 0, both, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueMigrateMemObjects(f->q, 2, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueMigrateMemObjects(f->q, 2, both, 1 << 5, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    cl_mem bad[] = {a, NULL};
    assert_int_equal(clEnqueueMigrateMemObjects(f->q, 2, bad, 0, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    assert_int_equal(clEnqueueMigrateMemObjects(NULL, 2, both, 0, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueMigrateMemObjects(f->q, 2, both, 0, 0, (const cl_event *)both, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_write),       cmocka_unit_test(host_access_flags),
        cmocka_unit_test(copy_and_overlap), cmocka_unit_test(host_memory_overlapping_the_buffer),
        cmocka_unit_test(rectangles),       cmocka_unit_test(fills),
        cmocka_unit_test(large_transfers),  cmocka_unit_test(map_unmap),
        cmocka_unit_test(migrate),
    };
    return cmocka_run_group_tests(tests, fixture_setup, fixture_teardown);
}
