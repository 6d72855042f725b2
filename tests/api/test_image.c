/* SPDX-License-Identifier: MIT */
/*
 * Images and samplers on the host side: creation of every type, every
 * error code, the queries, and read / write / copy / fill / map round trips
 * against C references; kernel arguments. `test_image off` checks that
 * with LANES_IMAGES=0 images and samplers are refused with
 * CL_INVALID_OPERATION.
 */
#include "runtime_common.h"

#include <math.h>
#include <stdio.h>

static const cl_image_format rgba8 = {CL_RGBA, CL_UNORM_INT8};
static const cl_image_format r32f = {CL_R, CL_FLOAT};

static cl_mem image(cl_context ctx, cl_mem_flags flags, const cl_image_format *fmt,
                    cl_mem_object_type type, size_t w, size_t h, size_t d, size_t n, void *host)
{
    cl_image_desc desc = {.image_type = type,
                          .image_width = w,
                          .image_height = h,
                          .image_depth = d,
                          .image_array_size = n};
    cl_int err = -1;
    cl_mem m = clCreateImage(ctx, flags, fmt, &desc, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(m);
    return m;
}

static cl_int create_err(cl_context ctx, cl_mem_flags flags, const cl_image_format *fmt,
                         const cl_image_desc *desc, void *host)
{
    cl_int err = -1;
    cl_mem m = clCreateImage(ctx, flags, fmt, desc, host, &err);
    if (m)
        clReleaseMemObject(m);
    return err;
}

static size_t image_size(cl_mem m, cl_image_info p)
{
    size_t v = 12345;
    assert_int_equal(clGetImageInfo(m, p, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

static void fill_bytes(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 37 + seed);
}

static void device_limits(void **state)
{
    struct fixture *f = *state;
    cl_bool images = CL_FALSE;
    assert_int_equal(clGetDeviceInfo(f->dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL),
                     CL_SUCCESS);
    assert_true(images);
    size_t v;
    const struct {
        cl_device_info p;
        size_t min;
    } sizes[] = {
        {CL_DEVICE_IMAGE2D_MAX_WIDTH, 16384},   {CL_DEVICE_IMAGE2D_MAX_HEIGHT, 16384},
        {CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048},    {CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048},
        {CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048},    {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536},
        {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        assert_int_equal(clGetDeviceInfo(f->dev, sizes[i].p, sizeof v, &v, NULL), CL_SUCCESS);
        assert_true(v >= sizes[i].min);
    }
    cl_uint u;
    assert_int_equal(clGetDeviceInfo(f->dev, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof u, &u, NULL),
                     CL_SUCCESS);
    assert_int_equal(u, 1);
    assert_int_equal(
        clGetDeviceInfo(f->dev, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof u, &u, NULL),
        CL_SUCCESS);
    assert_int_equal(u, 1);
    assert_int_equal(clGetDeviceInfo(f->dev, CL_DEVICE_MAX_SAMPLERS, sizeof u, &u, NULL),
                     CL_SUCCESS);
    assert_true(u >= 16);
    /* With images come the extensions test_api's consistency checks pair with the limits. */
    char *ext = lanes_test_device_string(f->dev, CL_DEVICE_EXTENSIONS);
    assert_true(lanes_test_has_word(ext, "cl_khr_image2d_from_buffer"));
    assert_true(lanes_test_has_word(ext, "cl_khr_depth_images"));
    assert_true(lanes_test_has_word(ext, "cl_khr_3d_image_writes"));
    free(ext);
}

static bool has_format(const cl_image_format *list, cl_uint n, cl_channel_order o,
                       cl_channel_type t)
{
    for (cl_uint i = 0; i < n; i++)
        if (list[i].image_channel_order == o && list[i].image_channel_data_type == t)
            return true;
    return false;
}

static void supported_formats(void **state)
{
    struct fixture *f = *state;
    static const cl_mem_object_type types[] = {
        CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
        CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D,
    };
    static const cl_channel_type every[] = {
        CL_UNORM_INT8,     CL_UNORM_INT16,    CL_SNORM_INT8,   CL_SNORM_INT16,
        CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
        CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT,
    };
    static const cl_mem_flags flag_sets[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                             CL_MEM_KERNEL_READ_AND_WRITE};
    cl_image_format list[128];
    for (size_t t = 0; t < 6; t++) {
        for (size_t fl = 0; fl < 4; fl++) {
            cl_uint n = 0, n2 = 0;
            assert_int_equal(
                clGetSupportedImageFormats(f->ctx, flag_sets[fl], types[t], 0, NULL, &n),
                CL_SUCCESS);
            assert_true(n <= 128);
            assert_int_equal(
                clGetSupportedImageFormats(f->ctx, flag_sets[fl], types[t], n, list, &n2),
                CL_SUCCESS);
            assert_int_equal(n, n2);
            /* The minimum list of a full profile device. */
            for (size_t i = 0; i < 12; i++) {
                assert_true(has_format(list, n, CL_R, every[i]));
                assert_true(has_format(list, n, CL_RG, every[i]));
                assert_true(has_format(list, n, CL_RGBA, every[i]));
            }
            assert_true(has_format(list, n, CL_BGRA, CL_UNORM_INT8));
            assert_true(has_format(list, n, CL_ABGR, CL_UNORM_INT8));
            bool depth =
                types[t] == CL_MEM_OBJECT_IMAGE2D || types[t] == CL_MEM_OBJECT_IMAGE2D_ARRAY;
            assert_int_equal(has_format(list, n, CL_DEPTH, CL_FLOAT), depth);
            assert_int_equal(has_format(list, n, CL_DEPTH, CL_UNORM_INT16), depth);
            assert_int_equal(has_format(list, n, CL_sRGBA, CL_UNORM_INT8),
                             flag_sets[fl] == CL_MEM_READ_ONLY);
            /* A short array gets the first entries, the count stays whole. */
            assert_int_equal(
                clGetSupportedImageFormats(f->ctx, flag_sets[fl], types[t], 2, list, &n2),
                CL_SUCCESS);
            assert_int_equal(n2, n);
        }
    }
    cl_uint n;
    assert_int_equal(clGetSupportedImageFormats(NULL, 0, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
                     CL_INVALID_CONTEXT);
    assert_int_equal(clGetSupportedImageFormats(f->ctx, 0, CL_MEM_OBJECT_BUFFER, 0, NULL, &n),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetSupportedImageFormats(f->ctx, 0, CL_MEM_OBJECT_IMAGE2D, 0, list, &n),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetSupportedImageFormats(f->ctx, (cl_mem_flags)1 << 40,
                                                CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetSupportedImageFormats(f->ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                                CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
                     CL_INVALID_VALUE);
}

/* Every type: its queries, sizes and memory object info. */
static void every_type(void **state)
{
    struct fixture *f = *state;
    const struct {
        cl_mem_object_type type;
        size_t w, h, d, n;
        size_t height, depth, array, slice, size;
    } cases[] = {
        {CL_MEM_OBJECT_IMAGE1D, 100, 0, 0, 0, 0, 0, 0, 0, 400},
        {CL_MEM_OBJECT_IMAGE1D_ARRAY, 100, 0, 0, 5, 0, 0, 5, 400, 2000},
        {CL_MEM_OBJECT_IMAGE2D, 100, 7, 0, 0, 7, 0, 0, 0, 2800},
        {CL_MEM_OBJECT_IMAGE2D_ARRAY, 100, 7, 0, 3, 7, 0, 3, 2800, 8400},
        {CL_MEM_OBJECT_IMAGE3D, 100, 7, 4, 0, 7, 4, 0, 2800, 11200},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cl_mem m = image(f->ctx, 0, &rgba8, cases[i].type, cases[i].w, cases[i].h, cases[i].d,
                         cases[i].n, NULL);
        cl_image_format fmt;
        assert_int_equal(clGetImageInfo(m, CL_IMAGE_FORMAT, sizeof fmt, &fmt, NULL), CL_SUCCESS);
        assert_int_equal(fmt.image_channel_order, CL_RGBA);
        assert_int_equal(fmt.image_channel_data_type, CL_UNORM_INT8);
        assert_int_equal(image_size(m, CL_IMAGE_ELEMENT_SIZE), 4);
        assert_int_equal(image_size(m, CL_IMAGE_ROW_PITCH), 400);
        assert_int_equal(image_size(m, CL_IMAGE_SLICE_PITCH), cases[i].slice);
        assert_int_equal(image_size(m, CL_IMAGE_WIDTH), 100);
        assert_int_equal(image_size(m, CL_IMAGE_HEIGHT), cases[i].height);
        assert_int_equal(image_size(m, CL_IMAGE_DEPTH), cases[i].depth);
        assert_int_equal(image_size(m, CL_IMAGE_ARRAY_SIZE), cases[i].array);
        cl_mem buf = (cl_mem)1;
        assert_int_equal(clGetImageInfo(m, CL_IMAGE_BUFFER, sizeof buf, &buf, NULL), CL_SUCCESS);
        assert_null(buf);
        cl_uint u = 7;
        assert_int_equal(clGetImageInfo(m, CL_IMAGE_NUM_MIP_LEVELS, sizeof u, &u, NULL),
                         CL_SUCCESS);
        assert_int_equal(u, 0);
        assert_int_equal(clGetImageInfo(m, CL_IMAGE_NUM_SAMPLES, sizeof u, &u, NULL), CL_SUCCESS);
        assert_int_equal(u, 0);
        cl_mem_object_type t;
        assert_int_equal(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
        assert_int_equal(t, cases[i].type);
        size_t size;
        assert_int_equal(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
        assert_int_equal(size, cases[i].size);
        cl_mem_flags fl;
        assert_int_equal(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof fl, &fl, NULL), CL_SUCCESS);
        assert_int_equal(fl, 0);
        /* Errors of the query. */
        assert_int_equal(clGetImageInfo(m, CL_IMAGE_WIDTH, 1, &size, NULL), CL_INVALID_VALUE);
        assert_int_equal(clGetImageInfo(m, 0x7777, sizeof size, &size, NULL), CL_INVALID_VALUE);
        size_t ret = 0;
        assert_int_equal(clGetImageInfo(m, CL_IMAGE_FORMAT, 0, NULL, &ret), CL_SUCCESS);
        assert_int_equal(ret, sizeof(cl_image_format));
        /* Buffer entries refuse images. */
        char x[4];
        assert_int_equal(clEnqueueReadBuffer(f->q, m, CL_TRUE, 0, 4, x, 0, NULL, NULL),
                         CL_INVALID_MEM_OBJECT);
        clReleaseMemObject(m);
    }
    cl_mem b = test_buffer(f->ctx, 0, 64, NULL);
    size_t size;
    assert_int_equal(clGetImageInfo(b, CL_IMAGE_WIDTH, sizeof size, &size, NULL),
                     CL_INVALID_MEM_OBJECT);
    assert_int_equal(clGetImageInfo(NULL, CL_IMAGE_WIDTH, sizeof size, &size, NULL),
                     CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(b);
    /* Element sizes of some formats. */
    const struct {
        cl_image_format fmt;
        size_t elem;
    } elems[] = {
        {{CL_R, CL_UNORM_INT8}, 1},      {{CL_RG, CL_HALF_FLOAT}, 4},
        {{CL_RGBA, CL_FLOAT}, 16},       {{CL_RGBA, CL_SIGNED_INT16}, 8},
        {{CL_DEPTH, CL_UNORM_INT16}, 2}, {{CL_sRGBA, CL_UNORM_INT8}, 4},
    };
    for (size_t i = 0; i < sizeof elems / sizeof elems[0]; i++) {
        cl_mem m =
            image(f->ctx, CL_MEM_READ_ONLY, &elems[i].fmt, CL_MEM_OBJECT_IMAGE2D, 8, 8, 0, 0, NULL);
        assert_int_equal(image_size(m, CL_IMAGE_ELEMENT_SIZE), elems[i].elem);
        assert_int_equal(image_size(m, CL_IMAGE_ROW_PITCH), 8 * elems[i].elem);
        clReleaseMemObject(m);
    }
}

static void creation_errors(void **state)
{
    struct fixture *f = *state;
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 16, .image_height = 16};
    unsigned char host[16 * 16 * 16];
    assert_int_equal(create_err(NULL, 0, &rgba8, &d, NULL), CL_INVALID_CONTEXT);
    /* Properties: none is defined. */
    cl_int err;
    const cl_mem_properties bad_props[] = {0x1234, 0, 0};
    const cl_mem_properties no_props[] = {0};
    assert_null(clCreateImageWithProperties(f->ctx, bad_props, 0, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_PROPERTY);
    cl_mem m = clCreateImageWithProperties(f->ctx, no_props, 0, &rgba8, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t ret;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, NULL, &ret), CL_SUCCESS);
    assert_int_equal(ret, sizeof(cl_mem_properties));
    clReleaseMemObject(m);
    /* Flags. */
    assert_int_equal(create_err(f->ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba8, &d, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(
        create_err(f->ctx, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, &rgba8, &d, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        create_err(f->ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, &rgba8, &d, host),
        CL_INVALID_VALUE);
    assert_int_equal(create_err(f->ctx, CL_MEM_KERNEL_READ_AND_WRITE, &rgba8, &d, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(create_err(f->ctx, (cl_mem_flags)1 << 40, &rgba8, &d, NULL), CL_INVALID_VALUE);
    /* Format descriptors. */
    const cl_image_format bad_formats[] = {
        {0x1234, CL_UNORM_INT8},       {CL_RGBA, 0x1234},         {CL_RGB, CL_UNORM_INT8},
        {CL_RGBA, CL_UNORM_SHORT_565}, {CL_BGRA, CL_FLOAT},       {CL_INTENSITY, CL_SIGNED_INT8},
        {CL_sRGBA, CL_UNORM_INT16},    {CL_DEPTH, CL_UNORM_INT8}, {CL_LUMINANCE, CL_UNSIGNED_INT32},
    };
    for (size_t i = 0; i < sizeof bad_formats / sizeof bad_formats[0]; i++)
        assert_int_equal(create_err(f->ctx, 0, &bad_formats[i], &d, NULL),
                         CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    assert_int_equal(create_err(f->ctx, 0, NULL, &d, NULL), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    /* Valid formats Lanes does not support. */
    const cl_image_format unsupported[] = {
        {CL_RGB, CL_UNORM_SHORT_565},     {CL_A, CL_UNORM_INT8},
        {CL_INTENSITY, CL_FLOAT},         {CL_ARGB, CL_UNORM_INT8},
        {CL_RGBA, CL_UNORM_INT_101010_2},
    };
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        assert_int_equal(create_err(f->ctx, 0, &unsupported[i], &d, NULL),
                         CL_IMAGE_FORMAT_NOT_SUPPORTED);
    /* sRGBA only for images kernels read; depth only in 2D. */
    const cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8}, depth = {CL_DEPTH, CL_FLOAT};
    assert_int_equal(create_err(f->ctx, CL_MEM_WRITE_ONLY, &srgba, &d, NULL),
                     CL_IMAGE_FORMAT_NOT_SUPPORTED);
    assert_int_equal(create_err(f->ctx, CL_MEM_READ_ONLY, &srgba, &d, NULL), CL_SUCCESS);
    cl_image_desc d3 = {
        .image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 4, .image_height = 4, .image_depth = 4};
    assert_int_equal(create_err(f->ctx, 0, &depth, &d3, NULL), CL_IMAGE_FORMAT_NOT_SUPPORTED);
    assert_int_equal(create_err(f->ctx, 0, &depth, &d, NULL), CL_SUCCESS);

    /* Descriptors. */
    assert_int_equal(create_err(f->ctx, 0, &rgba8, NULL, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    cl_image_desc bad = d;
    bad.image_type = CL_MEM_OBJECT_BUFFER;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d;
    bad.image_width = 0;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d;
    bad.image_height = 0;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d3;
    bad.image_depth = 0;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    bad = (cl_image_desc){
        .image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 4, .image_height = 4};
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d;
    bad.num_mip_levels = 1;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d;
    bad.num_samples = 2;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d;
    bad.image_row_pitch = 64; /* without host_ptr */
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    bad.image_row_pitch = 60; /* below 16 x 4 */
    assert_int_equal(create_err(f->ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &bad, host),
                     CL_INVALID_IMAGE_DESCRIPTOR);
    bad.image_row_pitch = 66; /* not a multiple of the element size */
    assert_int_equal(create_err(f->ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &bad, host),
                     CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d3;
    bad.image_slice_pitch = 48; /* below row pitch x height */
    assert_int_equal(create_err(f->ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &bad, host),
                     CL_INVALID_IMAGE_DESCRIPTOR);
    bad = d;
    bad.mem_object = test_buffer(f->ctx, 0, 64, NULL);
    bad.image_type = CL_MEM_OBJECT_IMAGE3D;
    bad.image_depth = 2;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    clReleaseMemObject(bad.mem_object);
    bad = (cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 4};
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_DESCRIPTOR);

    /* Sizes above the device's limits. */
    size_t max2d;
    assert_int_equal(
        clGetDeviceInfo(f->dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max2d, &max2d, NULL),
        CL_SUCCESS);
    bad = d;
    bad.image_width = max2d + 1;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_SIZE);
    bad = d;
    bad.image_height = max2d + 1;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_SIZE);
    size_t max3d, max_array;
    assert_int_equal(
        clGetDeviceInfo(f->dev, CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof max3d, &max3d, NULL),
        CL_SUCCESS);
    bad = d3;
    bad.image_depth = max3d + 1;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_SIZE);
    assert_int_equal(
        clGetDeviceInfo(f->dev, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof max_array, &max_array, NULL),
        CL_SUCCESS);
    bad = (cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY,
                          .image_width = 4,
                          .image_array_size = max_array + 1};
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &bad, NULL), CL_INVALID_IMAGE_SIZE);
    /* The largest 2D image of 16-byte texels exceeds one allocation. */
    const cl_image_format rgba32f = {CL_RGBA, CL_FLOAT};
    bad = d;
    bad.image_width = max2d;
    bad.image_height = max2d;
    cl_ulong max_alloc;
    assert_int_equal(
        clGetDeviceInfo(f->dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL),
        CL_SUCCESS);
    if ((cl_ulong)max2d * max2d * 16 > max_alloc)
        assert_int_equal(create_err(f->ctx, 0, &rgba32f, &bad, NULL), CL_INVALID_IMAGE_SIZE);

    /* Host pointers. */
    assert_int_equal(create_err(f->ctx, CL_MEM_USE_HOST_PTR, &rgba8, &d, NULL),
                     CL_INVALID_HOST_PTR);
    assert_int_equal(create_err(f->ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &d, NULL),
                     CL_INVALID_HOST_PTR);
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &d, host), CL_INVALID_HOST_PTR);
    assert_int_equal(create_err(f->ctx, CL_MEM_ALLOC_HOST_PTR, &rgba8, &d, host),
                     CL_INVALID_HOST_PTR);
    assert_int_equal(
        create_err(f->ctx, CL_MEM_ALLOC_HOST_PTR | CL_MEM_HOST_NO_ACCESS, &rgba8, &d, NULL),
        CL_SUCCESS);
    /* errcode_ret may be NULL. */
    assert_null(clCreateImage(f->ctx, 0, NULL, &d, NULL, NULL));

    /* OpenCL 1.1's forms. */
    m = clCreateImage2D(f->ctx, 0, &rgba8, 16, 8, 0, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem_object_type t;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(t, CL_MEM_OBJECT_IMAGE2D);
    assert_int_equal(image_size(m, CL_IMAGE_HEIGHT), 8);
    clReleaseMemObject(m);
    assert_null(clCreateImage2D(f->ctx, 0, &rgba8, 0, 8, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    m = clCreateImage3D(f->ctx, CL_MEM_COPY_HOST_PTR, &rgba8, 4, 4, 4, 32, 32 * 4, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(image_size(m, CL_IMAGE_DEPTH), 4);
    assert_int_equal(image_size(m, CL_IMAGE_ROW_PITCH), 16); /* its own storage is packed */
    clReleaseMemObject(m);
    assert_null(clCreateImage3D(f->ctx, 0, &rgba8, 4, 4, 1, 0, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    assert_null(clCreateImage3D(f->ctx, 0, &rgba8, 4, 0, 4, 0, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_IMAGE_SIZE);
    assert_null(clCreateImage3D(NULL, 0, &rgba8, 4, 4, 4, 0, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
}

/* USE_HOST_PTR shares the application's memory, in its pitches; COPY_HOST_PTR reads them. */
static void host_pointers(void **state)
{
    struct fixture *f = *state;
    enum { W = 5, H = 3, D = 2, ROW = 32, SLICE = ROW * 4 };
    static float host[SLICE / 4 * D];
    for (size_t i = 0; i < SLICE / 4 * D; i++)
        host[i] = (float)i;
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                       .image_width = W,
                       .image_height = H,
                       .image_depth = D,
                       .image_row_pitch = ROW,
                       .image_slice_pitch = SLICE};
    cl_int err;
    cl_mem use = clCreateImage(f->ctx, CL_MEM_USE_HOST_PTR, &r32f, &d, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(image_size(use, CL_IMAGE_ROW_PITCH), ROW);
    assert_int_equal(image_size(use, CL_IMAGE_SLICE_PITCH), SLICE);
    void *hp = NULL;
    assert_int_equal(clGetMemObjectInfo(use, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
    assert_ptr_equal(hp, host);
    cl_mem copy = clCreateImage(f->ctx, CL_MEM_COPY_HOST_PTR, &r32f, &d, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(image_size(copy, CL_IMAGE_ROW_PITCH), W * 4);
    assert_int_equal(image_size(copy, CL_IMAGE_SLICE_PITCH), W * 4 * H);
    float out[W * H * D];
    const size_t o[3] = {0, 0, 0}, r[3] = {W, H, D};
    for (int k = 0; k < 2; k++) {
        memset(out, 0, sizeof out);
        assert_int_equal(
            clEnqueueReadImage(f->q, k ? copy : use, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL),
            CL_SUCCESS);
        for (size_t z = 0; z < D; z++)
            for (size_t y = 0; y < H; y++)
                for (size_t x = 0; x < W; x++)
                    assert_true(out[(z * H + y) * W + x] == host[z * SLICE / 4 + y * ROW / 4 + x]);
    }
    /* A write to the USE_HOST_PTR image lands in the application's memory. */
    float v = -1.5f;
    const size_t o2[3] = {2, 1, 1}, r1[3] = {1, 1, 1};
    assert_int_equal(clEnqueueWriteImage(f->q, use, CL_TRUE, o2, r1, 0, 0, &v, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_true(host[SLICE / 4 + ROW / 4 + 2] == -1.5f);
    clReleaseMemObject(use);
    clReleaseMemObject(copy);

    /* A 1D array's host layers lie a slice pitch apart. */
    unsigned char layers[3][24];
    fill_bytes(&layers[0][0], sizeof layers, 3);
    cl_image_desc a = {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY,
                       .image_width = 4,
                       .image_array_size = 3,
                       .image_slice_pitch = 24};
    /* A slice pitch must be a multiple of the row pitch. */
    assert_int_equal(create_err(f->ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &a, layers),
                     CL_INVALID_IMAGE_DESCRIPTOR);
    a.image_row_pitch = 24;
    cl_mem arr = clCreateImage(f->ctx, CL_MEM_COPY_HOST_PTR, &rgba8, &a, layers, &err);
    assert_int_equal(err, CL_SUCCESS);
    unsigned char back[3][16];
    const size_t ra[3] = {4, 3, 1};
    assert_int_equal(clEnqueueReadImage(f->q, arr, CL_TRUE, o, ra, 0, 0, back, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 3; i++)
        assert_memory_equal(back[i], layers[i], 16);
    clReleaseMemObject(arr);
}

/* A reference image in host memory: texels of `elem` bytes, packed. */
struct ref {
    unsigned char *p;
    size_t elem, dims[3];
};

static unsigned char *ref_at(struct ref *r, size_t x, size_t y, size_t z)
{
    return r->p + ((z * r->dims[1] + y) * r->dims[0] + x) * r->elem;
}

static void read_write_regions(void **state)
{
    struct fixture *f = *state;
    const struct {
        cl_mem_object_type type;
        size_t dims[3];
        size_t origin[3], region[3];
    } cases[] = {
        {CL_MEM_OBJECT_IMAGE1D, {37, 1, 1}, {5, 0, 0}, {20, 1, 1}},
        {CL_MEM_OBJECT_IMAGE1D_ARRAY, {37, 6, 1}, {5, 2, 0}, {20, 3, 1}},
        {CL_MEM_OBJECT_IMAGE2D, {37, 19, 1}, {3, 4, 0}, {30, 11, 1}},
        {CL_MEM_OBJECT_IMAGE2D_ARRAY, {17, 9, 5}, {1, 2, 1}, {12, 5, 3}},
        {CL_MEM_OBJECT_IMAGE3D, {17, 9, 5}, {4, 0, 2}, {13, 9, 2}},
    };
    const cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT16}; /* 8-byte texels */
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const size_t *dm = cases[c].dims, *o = cases[c].origin, *r = cases[c].region;
        struct ref ref = {malloc(dm[0] * dm[1] * dm[2] * 8), 8, {dm[0], dm[1], dm[2]}};
        fill_bytes(ref.p, dm[0] * dm[1] * dm[2] * 8, (unsigned)c);
        size_t h = cases[c].type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 0 : dm[1];
        size_t n = cases[c].type == CL_MEM_OBJECT_IMAGE1D_ARRAY   ? dm[1]
                   : cases[c].type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? dm[2]
                                                                  : 0;
        size_t depth = cases[c].type == CL_MEM_OBJECT_IMAGE3D ? dm[2] : 0;
        cl_mem m = image(f->ctx, 0, &fmt, cases[c].type, dm[0], h, depth, n, NULL);
        /* The whole image in, packed. */
        const size_t zero[3] = {0, 0, 0};
        assert_int_equal(
            clEnqueueWriteImage(f->q, m, CL_TRUE, zero, dm, 0, 0, ref.p, 0, NULL, NULL),
            CL_SUCCESS);
        /* A sub-box out, with padded pitches. */
        size_t row = r[0] * 8 + 24;
        bool slices = cases[c].type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                      cases[c].type == CL_MEM_OBJECT_IMAGE3D ||
                      cases[c].type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
        size_t slice =
            slices ? row * (cases[c].type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : r[1]) + 40 : 0;
        size_t layer = cases[c].type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
        size_t total = (slice ? slice : row * r[1]) * r[2] + layer * r[1];
        unsigned char *out = calloc(1, total);
        cl_event e;
        assert_int_equal(
            clEnqueueReadImage(f->ooo, m, CL_FALSE, o, r, row, slice, out, 0, NULL, &e),
            CL_SUCCESS);
        assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
        cl_command_type type;
        assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                         CL_SUCCESS);
        assert_int_equal(type, CL_COMMAND_READ_IMAGE);
        clReleaseEvent(e);
        size_t zs = slice ? slice : row * r[1];
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                assert_memory_equal(out + z * zs + y * layer,
                                    ref_at(&ref, o[0], o[1] + y, o[2] + z), r[0] * 8);
        /* The sub-box back in, changed, from those pitches; the rest stays. */
        for (size_t i = 0; i < total; i++)
            out[i] ^= 0x5a;
        assert_int_equal(
            clEnqueueWriteImage(f->q, m, CL_TRUE, o, r, row, slice, out, 0, NULL, NULL),
            CL_SUCCESS);
        for (size_t z = 0; z < r[2]; z++)
            for (size_t y = 0; y < r[1]; y++)
                for (size_t x = 0; x < r[0] * 8; x++)
                    ref_at(&ref, o[0], o[1] + y, o[2] + z)[x] ^= 0x5a;
        unsigned char *whole = malloc(dm[0] * dm[1] * dm[2] * 8);
        assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, zero, dm, 0, 0, whole, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_memory_equal(whole, ref.p, dm[0] * dm[1] * dm[2] * 8);
        free(whole);
        free(out);
        free(ref.p);
        clReleaseMemObject(m);
    }
}

static void transfer_errors(void **state)
{
    struct fixture *f = *state;
    cl_mem m = image(f->ctx, 0, &rgba8, CL_MEM_OBJECT_IMAGE2D, 16, 8, 0, 0, NULL);
    cl_mem m1 = image(f->ctx, 0, &rgba8, CL_MEM_OBJECT_IMAGE1D, 16, 0, 0, 0, NULL);
    unsigned char buf[16 * 8 * 4 * 2];
    const size_t o[3] = {0, 0, 0}, r[3] = {16, 8, 1};
    assert_int_equal(clEnqueueReadImage(NULL, m, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueReadImage(f->q, NULL, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    cl_mem b = test_buffer(f->ctx, 0, sizeof buf, NULL);
    assert_int_equal(clEnqueueReadImage(f->q, b, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    cl_int err;
    cl_context other = clCreateContext(NULL, 1, &f->dev, NULL, NULL, &err);
    cl_mem foreign = image(other, 0, &rgba8, CL_MEM_OBJECT_IMAGE2D, 16, 8, 0, 0, NULL);
    assert_int_equal(clEnqueueReadImage(f->q, foreign, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_CONTEXT);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, NULL, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o, NULL, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    const size_t r0[3] = {0, 8, 1}, big[3] = {17, 8, 1}, deep[3] = {16, 8, 2}, o1[3] = {1, 0, 0},
                 oz[3] = {0, 0, 1};
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o, r0, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o, big, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o1, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o, deep, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, oz, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    /* 1D: origin[1] 0, region[1] 1. */
    const size_t r1[3] = {16, 2, 1}, r1ok[3] = {16, 1, 1};
    assert_int_equal(clEnqueueReadImage(f->q, m1, CL_TRUE, o, r1, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(f->q, m1, CL_TRUE, o, r1ok, 0, 0, buf, 0, NULL, NULL),
                     CL_SUCCESS);
    /* Pitches: a row pitch below the region, a slice pitch for a 2D image. */
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o, r, 63, 0, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o, r, 0, 512, buf, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o, r, 0, 0, NULL, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueWriteImage(f->q, m, CL_TRUE, o, r, 0, 0, NULL, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o, r, 0, 0, buf, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    /* Host access flags. */
    cl_mem wo =
        image(f->ctx, CL_MEM_HOST_WRITE_ONLY, &rgba8, CL_MEM_OBJECT_IMAGE2D, 16, 8, 0, 0, NULL);
    cl_mem ro =
        image(f->ctx, CL_MEM_HOST_READ_ONLY, &rgba8, CL_MEM_OBJECT_IMAGE2D, 16, 8, 0, 0, NULL);
    cl_mem na =
        image(f->ctx, CL_MEM_HOST_NO_ACCESS, &rgba8, CL_MEM_OBJECT_IMAGE2D, 16, 8, 0, 0, NULL);
    assert_int_equal(clEnqueueWriteImage(f->q, wo, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadImage(f->q, wo, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueReadImage(f->q, ro, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueWriteImage(f->q, ro, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueReadImage(f->q, na, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    assert_int_equal(clEnqueueWriteImage(f->q, na, CL_TRUE, o, r, 0, 0, buf, 0, NULL, NULL),
                     CL_INVALID_OPERATION);
    size_t rp, sp;
    assert_null(
        clEnqueueMapImage(f->q, wo, CL_TRUE, CL_MAP_READ, o, r, &rp, &sp, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(
        clEnqueueMapImage(f->q, ro, CL_TRUE, CL_MAP_WRITE, o, r, &rp, &sp, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    /* Fills ignore host access flags (they are device commands). */
    const float color[4] = {0, 0, 0, 0};
    assert_int_equal(clEnqueueFillImage(f->q, na, color, o, r, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueFillImage(f->q, m, NULL, o, r, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueFillImage(f->q, m, color, o, big, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueFillImage(f->q, b, color, o, r, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    clReleaseMemObject(wo);
    clReleaseMemObject(ro);
    clReleaseMemObject(na);
    clReleaseMemObject(foreign);
    clReleaseContext(other);
    clReleaseMemObject(b);
    clReleaseMemObject(m);
    clReleaseMemObject(m1);
}

static void copies(void **state)
{
    struct fixture *f = *state;
    enum { W = 20, H = 10 };
    unsigned char in[W * H * 4], out[W * H * 4];
    fill_bytes(in, sizeof in, 9);
    const size_t zero[3] = {0, 0, 0}, whole[3] = {W, H, 1};
    cl_mem a = image(f->ctx, 0, &rgba8, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0, NULL);
    cl_mem b = image(f->ctx, 0, &rgba8, CL_MEM_OBJECT_IMAGE3D, W, H, 3, 0, NULL);
    assert_int_equal(clEnqueueWriteImage(f->q, a, CL_FALSE, zero, whole, 0, 0, in, 0, NULL, NULL),
                     CL_SUCCESS);
    /* A 2D box into the 3D image's slice 2, then back out to another place in a. */
    const size_t so[3] = {2, 3, 0}, dso[3] = {5, 1, 2}, reg[3] = {10, 6, 1};
    cl_event e;
    assert_int_equal(clEnqueueCopyImage(f->q, a, b, so, dso, reg, 0, NULL, &e), CL_SUCCESS);
    cl_command_type type;
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_COPY_IMAGE);
    clReleaseEvent(e);
    unsigned char box[10 * 6 * 4];
    assert_int_equal(clEnqueueReadImage(f->q, b, CL_TRUE, dso, reg, 0, 0, box, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t y = 0; y < 6; y++)
        assert_memory_equal(box + y * 40, in + ((3 + y) * W + 2) * 4, 40);
    /* Within one image: disjoint boxes copy, overlapping ones are refused. */
    const size_t to[3] = {10, 4, 0}, near[3] = {5, 3, 0};
    assert_int_equal(clEnqueueCopyImage(f->q, a, a, zero, to, reg, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueCopyImage(f->q, a, a, zero, near, reg, 0, NULL, NULL),
                     CL_MEM_COPY_OVERLAP);
    assert_int_equal(clEnqueueReadImage(f->q, a, CL_TRUE, zero, whole, 0, 0, out, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++) {
            bool moved = x >= 10 && y >= 4 && y < 10;
            size_t sx = moved ? x - 10 : x, sy = moved ? y - 4 : y;
            assert_memory_equal(out + (y * W + x) * 4, in + (sy * W + sx) * 4, 4);
        }
    /* Format mismatch, bad boxes, bad handles. */
    cl_mem c = image(f->ctx, 0, &r32f, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0, NULL);
    assert_int_equal(clEnqueueCopyImage(f->q, a, c, zero, zero, reg, 0, NULL, NULL),
                     CL_IMAGE_FORMAT_MISMATCH);
    const size_t far[3] = {15, 0, 0};
    assert_int_equal(clEnqueueCopyImage(f->q, a, b, far, zero, reg, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    const size_t deep[3] = {1, 1, 2};
    assert_int_equal(clEnqueueCopyImage(f->q, a, b, zero, zero, deep, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueCopyImage(f->q, a, NULL, zero, zero, reg, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);

    /* Image to buffer and back, packed in the buffer at an offset. */
    cl_mem buf = test_buffer(f->ctx, 0, 4096, NULL);
    assert_int_equal(clEnqueueCopyImageToBuffer(f->q, b, buf, dso, reg, 100, 0, NULL, &e),
                     CL_SUCCESS);
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_COPY_IMAGE_TO_BUFFER);
    clReleaseEvent(e);
    unsigned char packed[10 * 6 * 4];
    assert_int_equal(
        clEnqueueReadBuffer(f->q, buf, CL_TRUE, 100, sizeof packed, packed, 0, NULL, NULL),
        CL_SUCCESS);
    assert_memory_equal(packed, box, sizeof box);
    cl_mem d = image(f->ctx, 0, &rgba8, CL_MEM_OBJECT_IMAGE2D_ARRAY, 12, 8, 0, 2, NULL);
    const size_t dorg[3] = {1, 2, 1};
    assert_int_equal(clEnqueueCopyBufferToImage(f->q, buf, d, 100, dorg, reg, 0, NULL, &e),
                     CL_SUCCESS);
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_COPY_BUFFER_TO_IMAGE);
    clReleaseEvent(e);
    memset(box, 0, sizeof box);
    assert_int_equal(clEnqueueReadImage(f->q, d, CL_TRUE, dorg, reg, 0, 0, box, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(packed, box, sizeof box);
    assert_int_equal(clEnqueueCopyImageToBuffer(f->q, b, buf, dso, reg, 4096 - 200, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueCopyBufferToImage(f->q, buf, d, 4096 - 200, dorg, reg, 0, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clEnqueueCopyImageToBuffer(f->q, b, a, dso, reg, 0, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    assert_int_equal(clEnqueueCopyBufferToImage(f->q, a, d, 0, dorg, reg, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    assert_int_equal(clEnqueueCopyBufferToImage(f->q, buf, buf, 0, dorg, reg, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(buf);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    clReleaseMemObject(d);
}

/* Transfers big enough to be split over the workers, rows at pitches that differ. */
static void large_transfers(void **state)
{
    struct fixture *f = *state;
    enum { W = 1024, H = 600 };
    const cl_image_format rgba32f = {CL_RGBA, CL_FLOAT};
    size_t n = (size_t)W * H * 16;
    unsigned char *in = malloc(n), *out = malloc(n);
    fill_bytes(in, n, 11);
    cl_mem a = image(f->ctx, 0, &rgba32f, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0, NULL);
    cl_mem b = image(f->ctx, 0, &rgba32f, CL_MEM_OBJECT_IMAGE2D, W + 8, H + 3, 0, 0, NULL);
    const size_t zero[3] = {0, 0, 0}, all[3] = {W, H, 1}, at[3] = {8, 3, 0};
    assert_int_equal(clEnqueueWriteImage(f->q, a, CL_FALSE, zero, all, 0, 0, in, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueCopyImage(f->q, a, b, zero, at, all, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadImage(f->q, b, CL_TRUE, at, all, 0, 0, out, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(out, in, n);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    free(in);
    free(out);
}

/* One texel of a fill, read back. */
static void fill_one(struct fixture *f, cl_channel_order order, cl_channel_type type,
                     const void *color, const void *expect, size_t elem)
{
    const cl_image_format fmt = {order, type};
    cl_mem m = image(f->ctx, CL_MEM_READ_ONLY, &fmt, CL_MEM_OBJECT_IMAGE2D, 7, 5, 0, 0, NULL);
    const size_t o[3] = {1, 1, 0}, r[3] = {5, 3, 1}, zero[3] = {0, 0, 0}, all[3] = {7, 5, 1};
    unsigned char before[7 * 5 * 16], after[7 * 5 * 16];
    fill_bytes(before, sizeof before, 1);
    assert_int_equal(clEnqueueWriteImage(f->q, m, CL_TRUE, zero, all, 0, 0, before, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueFillImage(f->q, m, color, o, r, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, zero, all, 0, 0, after, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t y = 0; y < 5; y++)
        for (size_t x = 0; x < 7; x++) {
            bool in = x >= 1 && x < 6 && y >= 1 && y < 4;
            const unsigned char *got = after + (y * 7 + x) * elem;
            if (in)
                assert_memory_equal(got, expect, elem);
            else
                assert_memory_equal(got, before + (y * 7 + x) * elem, elem);
        }
    clReleaseMemObject(m);
}

static void fills(void **state)
{
    struct fixture *f = *state;
    const float fc[4] = {0.5f, 1.5f, -0.25f, 0.2f};
    const unsigned char unorm8[4] = {128, 255, 0, 51};
    fill_one(f, CL_RGBA, CL_UNORM_INT8, fc, unorm8, 4);
    const unsigned char bgra[4] = {0, 255, 128, 51};
    fill_one(f, CL_BGRA, CL_UNORM_INT8, fc, bgra, 4);
    const unsigned char abgr[4] = {51, 0, 255, 128};
    fill_one(f, CL_ABGR, CL_UNORM_INT8, fc, abgr, 4);
    const unsigned short unorm16[2] = {32768, 65535};
    fill_one(f, CL_RG, CL_UNORM_INT16, fc, unorm16, 4);
    const signed char snorm8[4] = {64, 127, -32, 25};
    fill_one(f, CL_RGBA, CL_SNORM_INT8, fc, snorm8, 4);
    const short snorm16[1] = {16384};
    fill_one(f, CL_R, CL_SNORM_INT16, fc, snorm16, 2);
    const unsigned short half[4] = {0x3800, 0x3e00, 0xb400, 0x3266};
    fill_one(f, CL_RGBA, CL_HALF_FLOAT, fc, half, 8);
    fill_one(f, CL_RGBA, CL_FLOAT, fc, fc, 16);
    const int ic[4] = {-300, 70000, 5, -1};
    const signed char i8[4] = {-128, 127, 5, -1};
    fill_one(f, CL_RGBA, CL_SIGNED_INT8, ic, i8, 4);
    const short i16[2] = {-300, 32767};
    fill_one(f, CL_RG, CL_SIGNED_INT16, ic, i16, 4);
    fill_one(f, CL_RGBA, CL_SIGNED_INT32, ic, ic, 16);
    const unsigned uc[4] = {300, 70000, 5, 0xffffffffu};
    const unsigned char u8[4] = {255, 255, 5, 255};
    fill_one(f, CL_RGBA, CL_UNSIGNED_INT8, uc, u8, 4);
    const unsigned short u16[1] = {300};
    fill_one(f, CL_R, CL_UNSIGNED_INT16, uc, u16, 2);
    fill_one(f, CL_RGBA, CL_UNSIGNED_INT32, uc, uc, 16);
    /* sRGB: 0.5 linear is 0.735 encoded (188), alpha stays linear. */
    const float sc[4] = {0.5f, 0.0f, 1.0f, 0.5f};
    const unsigned char srgb[4] = {188, 0, 255, 128};
    fill_one(f, CL_sRGBA, CL_UNORM_INT8, sc, srgb, 4);
    /* A depth image's colour is one float. */
    const float depth = 0.25f;
    const unsigned short d16[1] = {16384};
    fill_one(f, CL_DEPTH, CL_UNORM_INT16, &depth, d16, 2);
    fill_one(f, CL_DEPTH, CL_FLOAT, &depth, &depth, 4);
    /* NaN becomes 0 in normalized formats. */
    const float nan4[4] = {NAN, 1.0f, 0.0f, 1.0f};
    const unsigned char nanx[4] = {0, 255, 0, 255};
    fill_one(f, CL_RGBA, CL_UNORM_INT8, nan4, nanx, 4);

    /* A 3D fill big enough to run on several workers. */
    enum { W = 512, H = 512, D = 5 };
    const cl_image_format rgba32f = {CL_RGBA, CL_FLOAT};
    cl_mem m = image(f->ctx, 0, &rgba32f, CL_MEM_OBJECT_IMAGE3D, W, H, D, 0, NULL);
    const size_t o[3] = {0, 0, 1}, r[3] = {W, H, 3};
    cl_event e;
    assert_int_equal(clEnqueueFillImage(f->ooo, m, fc, o, r, 0, NULL, &e), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    cl_command_type type;
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_FILL_IMAGE);
    clReleaseEvent(e);
    float *out = malloc((size_t)W * H * 16);
    const size_t o3[3] = {0, 0, 3}, one[3] = {W, H, 1};
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o3, one, 0, 0, out, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t i = 0; i < (size_t)W * H; i++)
        assert_memory_equal(out + 4 * i, fc, 16);
    free(out);
    clReleaseMemObject(m);
}

static void map_unmap(void **state)
{
    struct fixture *f = *state;
    enum { W = 16, H = 8, D = 4 };
    cl_mem m = image(f->ctx, 0, &r32f, CL_MEM_OBJECT_IMAGE3D, W, H, D, 0, NULL);
    const size_t o[3] = {2, 3, 1}, r[3] = {5, 4, 2};
    size_t rp = 0, sp = 0;
    cl_int err;
    float *p = clEnqueueMapImage(f->q, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, o, r, &rp, &sp,
                                 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(p);
    assert_int_equal(rp, W * 4);
    assert_int_equal(sp, W * H * 4);
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 4; y++)
            for (size_t x = 0; x < 5; x++)
                p[z * sp / 4 + y * rp / 4 + x] = (float)(100 * z + 10 * y + x);
    cl_uint count;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL),
                     CL_SUCCESS);
    assert_int_equal(count, 1);
    /* A second map for writing over the same bytes is refused; one for reading is not. */
    size_t rp2, sp2;
    assert_null(
        clEnqueueMapImage(f->q, m, CL_TRUE, CL_MAP_WRITE, o, r, &rp2, &sp2, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    /* Boxes in the same rows but apart in x share no texel: both may be mapped for writing. */
    const size_t beside[3] = {7, 3, 1};
    float *q = clEnqueueMapImage(f->q, m, CL_TRUE, CL_MAP_WRITE, beside, r, &rp2, &sp2, 0, NULL,
                                 NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_ptr_equal(q, p + 5);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, m, q, 0, NULL, NULL), CL_SUCCESS);
    cl_event e;
    assert_int_equal(clEnqueueUnmapMemObject(f->q, m, p, 0, NULL, &e), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    clReleaseEvent(e);
    float box[2][4][5];
    assert_int_equal(clEnqueueReadImage(f->q, m, CL_TRUE, o, r, 0, 0, box, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t z = 0; z < 2; z++)
        for (size_t y = 0; y < 4; y++)
            for (size_t x = 0; x < 5; x++)
                assert_true(box[z][y][x] == (float)(100 * z + 10 * y + x));
    cl_command_type type;
    p = clEnqueueMapImage(f->ooo, m, CL_FALSE, CL_MAP_READ, o, r, &rp, &sp, 0, NULL, &e, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_MAP_IMAGE);
    clReleaseEvent(e);
    assert_true(p[sp / 4 + rp / 4 + 1] == 111.0f);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, m, p, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
    /* Errors. */
    assert_null(
        clEnqueueMapImage(f->q, m, CL_TRUE, CL_MAP_READ, o, r, NULL, &sp, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(
        clEnqueueMapImage(f->q, m, CL_TRUE, CL_MAP_READ, o, r, &rp, NULL, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clEnqueueMapImage(f->q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, o,
                                  r, &rp, &sp, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    const size_t out_of[3] = {12, 0, 0};
    assert_null(
        clEnqueueMapImage(f->q, m, CL_TRUE, CL_MAP_READ, out_of, r, &rp, &sp, 0, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    /* A 2D image's slice pitch may be NULL, and is 0. */
    cl_mem m2 = image(f->ctx, 0, &rgba8, CL_MEM_OBJECT_IMAGE2D, 9, 9, 0, 0, NULL);
    const size_t o2[3] = {0, 0, 0}, r2[3] = {9, 9, 1};
    void *p2 =
        clEnqueueMapImage(f->q, m2, CL_TRUE, CL_MAP_READ, o2, r2, &rp, NULL, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(rp, 36);
    assert_int_equal(clEnqueueUnmapMemObject(f->q, m2, p2, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    clReleaseMemObject(m2);
    clReleaseMemObject(m);
}

/* Images made from buffers share their memory. */
static void from_buffers(void **state)
{
    struct fixture *f = *state;
    enum { W = 10, H = 6, ROW = 48 };
    cl_mem b = test_buffer(f->ctx, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, ROW * H, NULL);
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                       .image_width = W,
                       .image_height = H,
                       .image_row_pitch = ROW,
                       .mem_object = b};
    cl_int err;
    cl_mem m = clCreateImage(f->ctx, 0, &rgba8, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(image_size(m, CL_IMAGE_ROW_PITCH), ROW);
    cl_mem assoc = NULL;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
                     CL_SUCCESS);
    assert_ptr_equal(assoc, b);
    assert_int_equal(clGetImageInfo(m, CL_IMAGE_BUFFER, sizeof assoc, &assoc, NULL), CL_SUCCESS);
    assert_ptr_equal(assoc, b);
    cl_mem_flags fl;
    assert_int_equal(clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof fl, &fl, NULL), CL_SUCCESS);
    assert_int_equal(fl, CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY); /* inherited */
    /* Bytes written through the buffer are the image's texels. */
    unsigned char bytes[ROW * H];
    fill_bytes(bytes, sizeof bytes, 4);
    assert_int_equal(clEnqueueWriteBuffer(f->q, b, CL_TRUE, 0, sizeof bytes, bytes, 0, NULL, NULL),
                     CL_SUCCESS);
    cl_mem dst = image(f->ctx, 0, &rgba8, CL_MEM_OBJECT_IMAGE2D, W, H, 0, 0, NULL);
    const size_t zero[3] = {0, 0, 0}, all[3] = {W, H, 1};
    assert_int_equal(clEnqueueCopyImage(f->q, m, dst, zero, zero, all, 0, NULL, NULL), CL_SUCCESS);
    unsigned char out[W * H * 4];
    assert_int_equal(clEnqueueReadImage(f->q, dst, CL_TRUE, zero, all, 0, 0, out, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t y = 0; y < H; y++)
        assert_memory_equal(out + y * W * 4, bytes + y * ROW, W * 4);
    /* sRGBA needs an image kernels only read: the buffer's READ_ONLY counts. */
    const cl_image_format srgba = {CL_sRGBA, CL_UNORM_INT8};
    assert_int_equal(create_err(f->ctx, 0, &srgba, &d, NULL), CL_SUCCESS);
    /* A 2D image may copy to the buffer it views (a 1D image buffer may not). */
    const size_t two[3] = {2, 1, 1};
    assert_int_equal(clEnqueueCopyImageToBuffer(f->q, m, b, zero, two, 0, 0, NULL, NULL),
                     CL_SUCCESS);
    /* The buffer outlives its release while the image holds it. */
    clReleaseMemObject(b);
    assert_int_equal(clEnqueueCopyImage(f->q, m, dst, zero, zero, all, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    clReleaseMemObject(m);

    /* A 1D image buffer. */
    cl_mem b1 = test_buffer(f->ctx, 0, 256, NULL);
    d = (cl_image_desc){
        .image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 64, .buffer = b1};
    cl_mem m1 = clCreateImage(f->ctx, CL_MEM_WRITE_ONLY, &r32f, &d, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem_object_type t;
    assert_int_equal(clGetMemObjectInfo(m1, CL_MEM_TYPE, sizeof t, &t, NULL), CL_SUCCESS);
    assert_int_equal(t, CL_MEM_OBJECT_IMAGE1D_BUFFER);
    assert_int_equal(image_size(m1, CL_IMAGE_WIDTH), 64);
    assert_int_equal(
        clGetMemObjectInfo(m1, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL),
        CL_SUCCESS);
    assert_ptr_equal(assoc, b1);
    size_t offset = 1, msize = 0;
    assert_int_equal(clGetMemObjectInfo(m1, CL_MEM_OFFSET, sizeof offset, &offset, NULL),
                     CL_SUCCESS);
    assert_int_equal(offset, 0);
    assert_int_equal(clGetMemObjectInfo(m1, CL_MEM_SIZE, sizeof msize, &msize, NULL), CL_SUCCESS);
    assert_int_equal(msize, 256);
    const float c[4] = {2.5f, 0, 0, 0};
    const size_t r1[3] = {64, 1, 1};
    assert_int_equal(clEnqueueFillImage(f->q, m1, c, zero, r1, 0, NULL, NULL), CL_SUCCESS);
    float got[64];
    assert_int_equal(clEnqueueReadBuffer(f->q, b1, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 64; i++)
        assert_true(got[i] == 2.5f);
    /* Copies between an image and the buffer it views are refused. */
    assert_int_equal(clEnqueueCopyImageToBuffer(f->q, m1, b1, zero, r1, 0, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    /* Too wide for the buffer. */
    d.image_width = 65;
    assert_int_equal(create_err(f->ctx, 0, &r32f, &d, NULL), CL_INVALID_IMAGE_SIZE);
    d.image_width = 64;
    /* Flags that contradict the buffer's, or pointer flags. */
    cl_mem wo = test_buffer(f->ctx, CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, 256, NULL);
    d.buffer = wo;
    assert_int_equal(create_err(f->ctx, CL_MEM_READ_ONLY, &r32f, &d, NULL), CL_INVALID_VALUE);
    assert_int_equal(create_err(f->ctx, CL_MEM_HOST_WRITE_ONLY, &r32f, &d, NULL), CL_INVALID_VALUE);
    assert_int_equal(create_err(f->ctx, CL_MEM_COPY_HOST_PTR, &r32f, &d, got), CL_INVALID_VALUE);
    assert_int_equal(create_err(f->ctx, 0, &r32f, &d, got), CL_INVALID_HOST_PTR);
    /* A 1D image buffer may give its row's pitch (the CTS does), not less than the row. */
    d.image_row_pitch = 252;
    assert_int_equal(create_err(f->ctx, 0, &r32f, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    clReleaseMemObject(wo);
    /* A 2D image's rows below the pitch alignment, or past the buffer. */
    d = (cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE2D,
                        .image_width = 8,
                        .image_height = 8,
                        .image_row_pitch = 30,
                        .buffer = b1};
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &d, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    d.image_row_pitch = 36;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &d, NULL), CL_INVALID_IMAGE_SIZE);
    d.image_row_pitch = 32;
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &d, NULL), CL_SUCCESS);
    cl_image_desc im = {
        .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 2, .image_height = 2, .buffer = dst};
    assert_int_equal(create_err(f->ctx, 0, &rgba8, &im, NULL), CL_INVALID_IMAGE_DESCRIPTOR);
    clReleaseMemObject(m1);
    clReleaseMemObject(b1);
    clReleaseMemObject(dst);
}

static void samplers(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_sampler s = clCreateSampler(f->ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_bool norm;
    cl_addressing_mode am;
    cl_filter_mode fm;
    cl_context c;
    cl_uint refs;
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL),
                     CL_SUCCESS);
    assert_int_equal(norm, CL_TRUE);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL),
                     CL_SUCCESS);
    assert_int_equal(am, CL_ADDRESS_REPEAT);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_SUCCESS);
    assert_int_equal(fm, CL_FILTER_LINEAR);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
    assert_ptr_equal(c, f->ctx);
    size_t ret = 1;
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &ret), CL_SUCCESS);
    assert_int_equal(ret, 0);
    assert_int_equal(clRetainSampler(s), CL_SUCCESS);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    assert_int_equal(refs, 2);
    assert_int_equal(clGetSamplerInfo(s, 0x7777, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, 1, &fm, NULL), CL_INVALID_VALUE);
    assert_int_equal(clReleaseSampler(s), CL_SUCCESS);
    assert_int_equal(clReleaseSampler(s), CL_SUCCESS);
    assert_int_equal(clReleaseSampler(NULL), CL_INVALID_SAMPLER);
    assert_int_equal(clReleaseSampler((cl_sampler)f->ctx), CL_INVALID_SAMPLER);
    /* A sampler is no other kind of handle. */
    s = clCreateSampler(f->ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clRetainMemObject((cl_mem)s), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clRetainContext((cl_context)s), CL_INVALID_CONTEXT);
    clReleaseSampler(s);

    /* Errors. */
    assert_null(clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateSampler(f->ctx, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(
        clCreateSampler(f->ctx, CL_FALSE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler(f->ctx, 2, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler(f->ctx, CL_TRUE, 0x7777, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSampler(f->ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x7777, &err));
    assert_int_equal(err, CL_INVALID_VALUE);

    /* With properties: defaults, the list kept as given, its errors. */
    s = clCreateSamplerWithProperties(f->ctx, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL),
                     CL_SUCCESS);
    assert_int_equal(norm, CL_TRUE);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL),
                     CL_SUCCESS);
    assert_int_equal(am, CL_ADDRESS_CLAMP);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_SUCCESS);
    assert_int_equal(fm, CL_FILTER_NEAREST);
    clReleaseSampler(s);
    const cl_sampler_properties props[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                           CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
    s = clCreateSamplerWithProperties(f->ctx, props, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_sampler_properties back[8];
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof back, back, &ret),
                     CL_SUCCESS);
    assert_int_equal(ret, sizeof props);
    assert_memory_equal(back, props, sizeof props);
    assert_int_equal(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL),
                     CL_SUCCESS);
    assert_int_equal(norm, CL_FALSE);
    clReleaseSampler(s);
    const cl_sampler_properties unknown[] = {0x7777, 1, 0};
    assert_null(clCreateSamplerWithProperties(f->ctx, unknown, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                           CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
    assert_null(clCreateSamplerWithProperties(f->ctx, twice, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    const cl_sampler_properties repeat_unnorm[] = {
        CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_REPEAT, 0};
    assert_null(clCreateSamplerWithProperties(f->ctx, repeat_unnorm, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    const cl_sampler_properties bad_mode[] = {CL_SAMPLER_ADDRESSING_MODE, 0x7777, 0};
    assert_null(clCreateSamplerWithProperties(f->ctx, bad_mode, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateSamplerWithProperties(NULL, props, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
}

/* Without LANES_IMAGES: no device supports images, so every creation is refused. */
/* Builds `src` with `options` on the fixture's context and returns kernel `name`. */
static cl_kernel image_kernel(struct fixture *f, const char *src, const char *name,
                              const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(f->ctx, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    err = clBuildProgram(p, 1, &f->dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(p, f->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "%s\n", log);
    }
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseProgram(p); /* the kernel holds it */
    return k;
}

/*
 * Image and sampler kernel arguments: every error of clSetKernelArg, then a
 * launch that reads through a sampler argument and a sampler of the source,
 * writes another image, reads a read_write one and queries them; a struct
 * whose name starts with "image" stays a plain pointer argument.
 */
static void kernel_arguments(void **state)
{
    struct fixture *f = *state;
    const char *src =
        "typedef struct { int w, h, order, type; } image_facts;\n"
        "const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |\n"
        "                       CLK_FILTER_NEAREST;\n"
        "kernel void k(read_only image2d_t a, write_only image2d_t b, read_write image2d_t c,\n"
        "              sampler_t s, global image_facts *facts) {\n"
        "    int x = get_global_id(0), y = get_global_id(1);\n"
        "    float4 p = read_imagef(a, edge, (int2)(x - 1, y));\n"
        "    float4 q = read_imagef(a, s, (float2)(x + 0.5f, y + 0.5f));\n"
        "    write_imagef(b, (int2)(x, y), p * 0.5f + q * 0.25f);\n"
        "    uint4 r = read_imageui(c, (int2)(x, y));\n"
        "    write_imageui(c, (int2)(x, y), r + 1);\n"
        "    if (x == 0 && y == 0)\n"
        "        *facts = (image_facts){get_image_width(b), get_image_height(c),\n"
        "                               get_image_channel_order(a), "
        "get_image_channel_data_type(c)};\n"
        "}\n";
    cl_kernel k = image_kernel(f, src, "k", "-cl-std=CL3.0");
    enum { W = 13, H = 3 };
    unsigned char in[H][W][4];
    fill_bytes(&in[0][0][0], sizeof in, 5);
    unsigned int counts[H][W];
    for (int i = 0; i < W * H; i++)
        (&counts[0][0])[i] = (unsigned)i * 7;
    cl_image_format r32ui = {CL_R, CL_UNSIGNED_INT32};
    cl_mem a = image(f->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba8, CL_MEM_OBJECT_IMAGE2D,
                     W, H, 1, 1, in);
    cl_mem b = image(f->ctx, CL_MEM_WRITE_ONLY, &rgba8, CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1, NULL);
    cl_mem c = image(f->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &r32ui,
                     CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1, counts);
    cl_mem three = image(f->ctx, CL_MEM_READ_ONLY, &rgba8, CL_MEM_OBJECT_IMAGE3D, 2, 2, 2, 1, NULL);
    cl_mem facts = test_buffer(f->ctx, 0, 4 * sizeof(int), NULL);
    cl_int err;
    cl_sampler s = clCreateSampler(f->ctx, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    assert_int_equal(err, CL_SUCCESS);

    /* Errors: size first, then the handle, its type, its access. */
    assert_int_equal(clSetKernelArg(k, 0, 1, &a), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 0, sizeof a, NULL), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clSetKernelArg(k, 0, sizeof facts, &facts), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clSetKernelArg(k, 0, sizeof s, &s), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clSetKernelArg(k, 0, sizeof three, &three), CL_INVALID_MEM_OBJECT);
    assert_int_equal(clSetKernelArg(k, 0, sizeof b, &b), CL_INVALID_ARG_VALUE);
    assert_int_equal(clSetKernelArg(k, 1, sizeof a, &a), CL_INVALID_ARG_VALUE);
    assert_int_equal(clSetKernelArg(k, 2, sizeof a, &a), CL_INVALID_ARG_VALUE);
    assert_int_equal(clSetKernelArg(k, 3, 1, &s), CL_INVALID_ARG_SIZE);
    assert_int_equal(clSetKernelArg(k, 3, sizeof s, NULL), CL_INVALID_SAMPLER);
    assert_int_equal(clSetKernelArg(k, 3, sizeof a, &a), CL_INVALID_SAMPLER);
    assert_int_equal(clSetKernelArg(k, 4, sizeof a, &a), CL_INVALID_MEM_OBJECT);

    assert_int_equal(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof b, &b), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof c, &c), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof s, &s), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 4, sizeof facts, &facts), CL_SUCCESS);
    size_t global[2] = {W, H};
    assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 2, NULL, global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    unsigned char out[H][W][4];
    unsigned int after[H][W];
    int got[4];
    const size_t o[3] = {0, 0, 0}, r[3] = {W, H, 1};
    assert_int_equal(clEnqueueReadImage(f->q, b, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadImage(f->q, c, CL_TRUE, o, r, 0, 0, after, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(f->q, facts, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            assert_int_equal(after[y][x], counts[y][x] + 1);
            for (int ch = 0; ch < 4; ch++) {
                /* p: the texel to the left, clamped to the edge; q: this one. */
                float p = in[y][x ? x - 1 : 0][ch] / 255.0f, q = in[y][x][ch] / 255.0f;
                float v = (p * 0.5f + q * 0.25f) * 255.0f;
                assert_true(fabsf(out[y][x][ch] - v) <= 0.5f + 1e-3f);
            }
        }
    assert_int_equal(got[0], W);
    assert_int_equal(got[1], H);
    assert_int_equal(got[2], CL_RGBA);
    assert_int_equal(got[3], CL_UNSIGNED_INT32);

    /*
     * The same kernel on an image of another format: launchers are compiled
     * for their images' formats (compiler/image_formats.c), so this is
     * another launcher, and the first one is not reused for it; then on the
     * first format again, and on an image that views a buffer.
     */
    float inf[H][W][4];
    for (int i = 0; i < W * H * 4; i++)
        (&inf[0][0][0])[i] = (&in[0][0][0])[i] / 255.0f;
    cl_image_format rgba32f = {CL_RGBA, CL_FLOAT};
    cl_mem af = image(f->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba32f,
                      CL_MEM_OBJECT_IMAGE2D, W, H, 1, 1, inf);
    /* And a 2D image made from a buffer holding the same texels (cl_khr_image2d_from_buffer). */
    cl_mem texels = test_buffer(f->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
    cl_image_desc from = {
        .image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = W, .image_height = H, .buffer = texels};
    cl_mem ab = clCreateImage(f->ctx, 0, &rgba8, &from, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem inputs[3] = {af, a, ab};
    for (int run = 0; run < 3; run++) {
        assert_int_equal(clSetKernelArg(k, 0, sizeof inputs[run], &inputs[run]), CL_SUCCESS);
        memset(out, 0, sizeof out);
        assert_int_equal(clEnqueueNDRangeKernel(f->q, k, 2, NULL, global, NULL, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(clEnqueueReadImage(f->q, b, CL_TRUE, o, r, 0, 0, out, 0, NULL, NULL),
                         CL_SUCCESS);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int ch = 0; ch < 4; ch++) {
                    float p = in[y][x ? x - 1 : 0][ch] / 255.0f, q = in[y][x][ch] / 255.0f;
                    float v = (p * 0.5f + q * 0.25f) * 255.0f;
                    assert_true(fabsf(out[y][x][ch] - v) <= 0.5f + 1e-3f);
                }
    }
    clReleaseMemObject(af);
    clReleaseMemObject(ab);
    clReleaseMemObject(texels);

    clReleaseMemObject(three);
    clReleaseSampler(s);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    clReleaseMemObject(facts);
    clReleaseKernel(k);
}

static void images_off(void **state)
{
    struct fixture *f = *state;
    cl_bool images = CL_TRUE;
    assert_int_equal(clGetDeviceInfo(f->dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL),
                     CL_SUCCESS);
    assert_false(images);
    size_t v = 1;
    assert_int_equal(clGetDeviceInfo(f->dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof v, &v, NULL),
                     CL_SUCCESS);
    assert_int_equal(v, 0);
    cl_uint u = 1;
    assert_int_equal(clGetDeviceInfo(f->dev, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof u, &u, NULL),
                     CL_SUCCESS);
    assert_int_equal(u, 0);
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
    cl_int err;
    assert_null(clCreateImage(f->ctx, 0, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateImageWithProperties(f->ctx, NULL, 0, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateImage2D(f->ctx, 0, &rgba8, 4, 4, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateImage3D(f->ctx, 0, &rgba8, 4, 4, 4, 0, 0, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateImage(NULL, 0, &rgba8, &d, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateSampler(f->ctx, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateSamplerWithProperties(f->ctx, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    cl_uint n = 7;
    assert_int_equal(
        clGetSupportedImageFormats(f->ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n),
        CL_SUCCESS);
    assert_int_equal(n, 0);
    /* Image transfers take no buffer either. */
    cl_mem b = test_buffer(f->ctx, 0, 64, NULL);
    const size_t o[3] = {0, 0, 0}, r[3] = {1, 1, 1};
    char x[4];
    assert_int_equal(clEnqueueReadImage(f->q, b, CL_TRUE, o, r, 0, 0, x, 0, NULL, NULL),
                     CL_INVALID_MEM_OBJECT);
    assert_int_equal(clGetImageInfo(b, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(b);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "off") == 0) {
        setenv("LANES_IMAGES", "0", 1);
        const struct CMUnitTest off[] = {cmocka_unit_test(images_off)};
        return cmocka_run_group_tests(off, fixture_setup, fixture_teardown);
    }
    unsetenv("LANES_IMAGES"); /* images are on by default */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(device_limits),   cmocka_unit_test(supported_formats),
        cmocka_unit_test(every_type),      cmocka_unit_test(creation_errors),
        cmocka_unit_test(host_pointers),   cmocka_unit_test(read_write_regions),
        cmocka_unit_test(transfer_errors), cmocka_unit_test(copies),
        cmocka_unit_test(large_transfers), cmocka_unit_test(fills),
        cmocka_unit_test(map_unmap),       cmocka_unit_test(from_buffers),
        cmocka_unit_test(samplers),        cmocka_unit_test(kernel_arguments),
    };
    return cmocka_run_group_tests(tests, fixture_setup, fixture_teardown);
}
