/* SPDX-License-Identifier: MIT */
/*
 * Image entries: creation, queries and the image transfer commands,
 * validating in the order of the OpenCL 3.0 specification. An image is a
 * memory object (mem.c) whose texels lie in rows and slices at the pitches
 * of its struct lanes_image, so its transfers are the rectangle copies and
 * fills of transfer.c. Only devices with `images` set accept them: all,
 * unless LANES_IMAGES=0 turns them off (platform.h).
 */
#include "check.h"
#include "context.h"
#include "event.h"
#include "image.h"
#include "info.h"
#include "mem.h"
#include "platform.h"
#include "queue.h"
#include "svm.h"
#include "transfer.h"

#include <string.h>

#define CHECK_OK(expr)                                                                             \
    do {                                                                                           \
        cl_int err_ = (expr);                                                                      \
        if (err_ != CL_SUCCESS)                                                                    \
            return err_;                                                                           \
    } while (0)

/* The device of the context that supports images with the largest limits, or NULL. */
static cl_device_id image_device(cl_context c)
{
    cl_device_id best = NULL;
    for (cl_uint i = 0; i < c->num_devices; i++)
        if (c->devices[i]->images &&
            (!best || c->devices[i]->max_alloc_size > best->max_alloc_size))
            best = c->devices[i];
    return best;
}

static bool at_most_one(cl_mem_flags bits)
{
    return (bits & (bits - 1)) == 0;
}

#define IMAGE_FLAGS (LANES_MEM_ACCESS_FLAGS | LANES_MEM_HOST_FLAGS | LANES_MEM_PTR_FLAGS)

static cl_int check_flags(cl_mem_flags flags, cl_mem_flags known)
{
    LANES_CHECK(!(flags & ~known), CL_INVALID_VALUE, "unknown cl_mem_flags bits");
    LANES_CHECK(at_most_one(flags & LANES_MEM_ACCESS_FLAGS), CL_INVALID_VALUE,
                "more than one of READ_WRITE, WRITE_ONLY and READ_ONLY");
    LANES_CHECK(at_most_one(flags & LANES_MEM_HOST_FLAGS), CL_INVALID_VALUE,
                "more than one of HOST_WRITE_ONLY, HOST_READ_ONLY and HOST_NO_ACCESS");
    LANES_CHECK(!(flags & CL_MEM_USE_HOST_PTR) ||
                    !(flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)),
                CL_INVALID_VALUE, "USE_HOST_PTR with ALLOC_HOST_PTR or COPY_HOST_PTR");
    return CL_SUCCESS;
}

/* The CL_INVALID_VALUE cases of an image made from a buffer whose flags it contradicts. */
static cl_int check_inherited(cl_mem_flags parent, cl_mem_flags flags)
{
    LANES_CHECK(!(flags & LANES_MEM_PTR_FLAGS), CL_INVALID_VALUE,
                "USE, ALLOC and COPY_HOST_PTR are inherited from the buffer, never given");
    return lanes_mem_check_inherited(parent, flags);
}

/* a * b, false on overflow. */
static bool mul(size_t a, size_t b, size_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static bool is_array(cl_mem_object_type t)
{
    return t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
}

/* True for the types with slices: 3D images and both arrays. */
static bool has_slices(cl_mem_object_type t)
{
    return is_array(t) || t == CL_MEM_OBJECT_IMAGE3D;
}

/* True for the types with rows of their own: 2D, 2D arrays, 3D. */
static bool has_rows(cl_mem_object_type t)
{
    return t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
           t == CL_MEM_OBJECT_IMAGE3D;
}

/*
 * Checks an image descriptor's sizes and pitches against its format and,
 * with `buffer`, the buffer it views; fills in `img` (the pitches of its
 * storage given `own_pitches`, else the descriptor's) and its size.
 * Returns CL_INVALID_IMAGE_DESCRIPTOR or CL_INVALID_IMAGE_SIZE.
 */
static cl_int resolve(cl_device_id dev, const cl_image_desc *d, size_t elem, bool has_host,
                      cl_mem buffer, struct lanes_image *img, size_t host_pitch[2], size_t *size)
{
    cl_mem_object_type t = d->image_type;
    LANES_CHECK(d->image_width, CL_INVALID_IMAGE_DESCRIPTOR, "image_width is 0");
    LANES_CHECK(!has_rows(t) || d->image_height, CL_INVALID_IMAGE_DESCRIPTOR, "image_height is 0");
    LANES_CHECK(t != CL_MEM_OBJECT_IMAGE3D || d->image_depth, CL_INVALID_IMAGE_DESCRIPTOR,
                "image_depth is 0");
    LANES_CHECK(!is_array(t) || d->image_array_size, CL_INVALID_IMAGE_DESCRIPTOR,
                "image_array_size is 0");
    LANES_CHECK(d->num_mip_levels == 0 && d->num_samples == 0, CL_INVALID_IMAGE_DESCRIPTOR,
                "num_mip_levels and num_samples must be 0");
    /* A 1D image buffer may give the pitch of its one row (the CTS does), as a 2D image from a
     * buffer gives its rows'. */
    bool given_pitches = has_host || buffer;
    LANES_CHECK(given_pitches || d->image_row_pitch == 0, CL_INVALID_IMAGE_DESCRIPTOR,
                "image_row_pitch is not 0 without host_ptr");
    LANES_CHECK(has_host || !has_slices(t) || d->image_slice_pitch == 0,
                CL_INVALID_IMAGE_DESCRIPTOR, "image_slice_pitch is not 0 without host_ptr");
    size_t height = has_rows(t) ? d->image_height : 1;
    size_t tight_row;
    LANES_CHECK(mul(d->image_width, elem, &tight_row), CL_INVALID_IMAGE_SIZE, "image too large");
    size_t row = d->image_row_pitch ? d->image_row_pitch : tight_row;
    LANES_CHECK(row >= tight_row && row % elem == 0, CL_INVALID_IMAGE_DESCRIPTOR,
                "image_row_pitch is below width x element size or not a multiple of it");
    size_t tight_slice = 0, slice = 0;
    if (has_slices(t)) {
        LANES_CHECK(mul(row, t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : height, &tight_slice),
                    CL_INVALID_IMAGE_SIZE, "image too large");
        slice = d->image_slice_pitch ? d->image_slice_pitch : tight_slice;
        LANES_CHECK(slice >= tight_slice && slice % row == 0, CL_INVALID_IMAGE_DESCRIPTOR,
                    "image_slice_pitch is below its minimum or not a multiple of the row pitch");
    }

    /* The limits of the device with images (any one that supports it will do). */
    size_t w = d->image_width;
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        LANES_CHECK(w <= dev->image2d_max && height <= dev->image2d_max, CL_INVALID_IMAGE_SIZE,
                    "above CL_DEVICE_IMAGE2D_MAX_WIDTH or _HEIGHT");
        break;
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        LANES_CHECK(w <= dev->image_max_buffer, CL_INVALID_IMAGE_SIZE,
                    "above CL_DEVICE_IMAGE_MAX_BUFFER_SIZE");
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        LANES_CHECK(w <= dev->image3d_max && height <= dev->image3d_max &&
                        d->image_depth <= dev->image3d_max,
                    CL_INVALID_IMAGE_SIZE, "above CL_DEVICE_IMAGE3D_MAX_*");
        break;
    }
    LANES_CHECK(!is_array(t) || d->image_array_size <= dev->image_max_array, CL_INVALID_IMAGE_SIZE,
                "above CL_DEVICE_IMAGE_MAX_ARRAY_SIZE");

    memset(img, 0, sizeof *img);
    img->desc = *d;
    img->elem_size = elem;
    img->dims[0] = w;
    switch (t) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        img->dims[1] = d->image_array_size;
        img->dims[2] = 1;
        break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        img->dims[1] = height;
        img->dims[2] = d->image_array_size;
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        img->dims[1] = height;
        img->dims[2] = d->image_depth;
        break;
    default: img->dims[1] = height; img->dims[2] = 1;
    }
    /* The host's pitches (as given), and the image's own. */
    host_pitch[0] = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice : row;
    host_pitch[1] = has_slices(t) ? slice : row * height;
    size_t own_row = buffer ? row : tight_row;
    size_t own_slice =
        has_slices(t) ? (t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? own_row : own_row * height) : 0;
    img->desc.image_row_pitch = own_row;
    img->desc.image_slice_pitch = own_slice;
    img->pitch[0] = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? own_slice : own_row;
    LANES_CHECK(mul(img->pitch[0], img->dims[1], &img->pitch[1]), CL_INVALID_IMAGE_SIZE,
                "image too large");
    if (t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D)
        img->pitch[1] = own_slice;
    LANES_CHECK(mul(img->pitch[1], img->dims[2], size), CL_INVALID_IMAGE_SIZE, "image too large");
    if (buffer) {
        LANES_CHECK(*size <= buffer->size, CL_INVALID_IMAGE_SIZE,
                    "the buffer is smaller than the image (row pitch x height)");
        LANES_CHECK((uintptr_t)lanes_mem_address(buffer) % elem == 0, CL_INVALID_IMAGE_DESCRIPTOR,
                    "the buffer's address is not a multiple of "
                    "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT texels");
    }
    LANES_CHECK(*size <= dev->max_alloc_size, CL_INVALID_IMAGE_SIZE,
                "above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    return CL_SUCCESS;
}

/* Makes an image's storage follow the host's pitches (CL_MEM_USE_HOST_PTR). */
static void use_host_pitches(struct lanes_image *img, const size_t host_pitch[2], size_t *size)
{
    cl_mem_object_type t = img->desc.image_type;
    img->pitch[0] = host_pitch[0];
    img->pitch[1] = host_pitch[1];
    if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
        img->desc.image_slice_pitch = host_pitch[0];
        img->pitch[1] = host_pitch[0] * img->dims[1];
    } else {
        if (has_slices(t))
            img->desc.image_slice_pitch = host_pitch[1];
        else
            img->pitch[1] = host_pitch[0] * img->dims[1];
    }
    *size = img->pitch[1] * img->dims[2];
}

static cl_mem create_image(cl_context context, const cl_mem_properties *properties,
                           cl_mem_flags flags, const cl_image_format *format,
                           const cl_image_desc *desc, void *host_ptr, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    cl_device_id dev = image_device(context);
    LANES_CHECK_OBJ(dev, CL_INVALID_OPERATION, errcode_ret,
                    "no device of the context supports images");
    size_t num_props = 0;
    if (properties) {
        /* OpenCL 3.0 defines no image property, and no extension Lanes lists adds one. */
        LANES_CHECK_OBJ(properties[0] == 0, CL_INVALID_PROPERTY, errcode_ret,
                        "unsupported image property");
        num_props = 1;
    }
    cl_int err = check_flags(flags, IMAGE_FLAGS);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad flags");
    cl_mem buffer = desc ? desc->mem_object : NULL;
    if (buffer && lanes_mem_is_buffer(buffer)) {
        err = check_inherited(buffer->flags, flags);
        LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "flags contradict the buffer's");
    }
    size_t elem = format ? lanes_image_elem_size(format) : 0;
    LANES_CHECK_OBJ(elem, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, errcode_ret,
                    "image_format is NULL or not a valid format");
    LANES_CHECK_OBJ(desc, CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret, "image_desc is NULL");
    cl_mem_object_type t = desc->image_type;
    LANES_CHECK_OBJ(lanes_image_type_valid(t), CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret,
                    "image_type is not an image type");
    if (t == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        LANES_CHECK_OBJ(buffer, CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret,
                        "a 1D image buffer needs a buffer");
    LANES_CHECK_OBJ(!buffer || t == CL_MEM_OBJECT_IMAGE1D_BUFFER || t == CL_MEM_OBJECT_IMAGE2D,
                    CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret,
                    "only 1D image buffers and 2D images are made from a memory object");
    LANES_CHECK_OBJ(!buffer || lanes_mem_is_buffer(buffer), CL_INVALID_IMAGE_DESCRIPTOR,
                    errcode_ret, "mem_object is not a live buffer (images from images: not yet)");
    LANES_CHECK_OBJ(!buffer || buffer->context == context, CL_INVALID_IMAGE_DESCRIPTOR, errcode_ret,
                    "the buffer belongs to another context");
    struct lanes_image img;
    size_t host_pitch[2], size;
    err = resolve(dev, desc, elem, host_ptr != NULL, buffer, &img, host_pitch, &size);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad image_desc");
    img.format = *format;
    bool wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
    LANES_CHECK_OBJ(host_ptr || !wants_ptr, CL_INVALID_HOST_PTR, errcode_ret,
                    "USE_HOST_PTR or COPY_HOST_PTR with a NULL host_ptr");
    LANES_CHECK_OBJ(!host_ptr || wants_ptr, CL_INVALID_HOST_PTR, errcode_ret,
                    "host_ptr without USE_HOST_PTR or COPY_HOST_PTR");
    LANES_CHECK_OBJ(!host_ptr || !buffer, CL_INVALID_HOST_PTR, errcode_ret,
                    "host_ptr with an image made from a buffer");
    if (buffer) {
        /* Access and host flags not given are the buffer's; USE/ALLOC/COPY always are. */
        cl_mem_flags p = buffer->flags;
        flags |= p & LANES_MEM_PTR_FLAGS;
        if (!(flags & LANES_MEM_ACCESS_FLAGS))
            flags |= p & LANES_MEM_ACCESS_FLAGS;
        if (!(flags & LANES_MEM_HOST_FLAGS))
            flags |= p & LANES_MEM_HOST_FLAGS;
        img.desc.buffer = buffer;
    }
    /* Judged on the flags the image has, a buffer's access flags included. */
    LANES_CHECK_OBJ(lanes_image_format_supported(t, flags, format), CL_IMAGE_FORMAT_NOT_SUPPORTED,
                    errcode_ret, "format not supported for this image type and these flags");
    if (flags & CL_MEM_USE_HOST_PTR && !buffer) {
        use_host_pitches(&img, host_pitch, &size);
        img.desc.image_row_pitch =
            desc->image_row_pitch ? desc->image_row_pitch : desc->image_width * elem;
    }
    bool uses_svm = false;
    if ((flags & CL_MEM_USE_HOST_PTR) && !buffer) {
        char *svm_base;
        size_t svm_size;
        uses_svm = lanes_svm_find(context, host_ptr, &svm_base, &svm_size);
    }
    cl_mem m = lanes_image_create(context, flags, &img, size, host_ptr, host_pitch, properties,
                                  num_props, &err);
    LANES_CHECK_OBJ(m, err, errcode_ret, "allocating the image");
    if (!buffer)
        m->uses_svm = uses_svm;
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                              const cl_image_format *image_format,
                                              const cl_image_desc *image_desc, void *host_ptr,
                                              cl_int *errcode_ret)
{
    return create_image(context, NULL, flags, image_format, image_desc, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                                            const cl_mem_properties *properties,
                                                            cl_mem_flags flags,
                                                            const cl_image_format *image_format,
                                                            const cl_image_desc *image_desc,
                                                            void *host_ptr, cl_int *errcode_ret)
{
    return create_image(context, properties, flags, image_format, image_desc, host_ptr,
                        errcode_ret);
}

/* OpenCL 1.1's forms: a size of 0 (or a depth below 2) is CL_INVALID_IMAGE_SIZE there. */
CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format,
                                                size_t image_width, size_t image_height,
                                                size_t image_row_pitch, void *host_ptr,
                                                cl_int *errcode_ret)
{
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                       .image_width = image_width,
                       .image_height = image_height,
                       .image_row_pitch = image_row_pitch};
    cl_int err;
    cl_mem m = create_image(context, NULL, flags, image_format, &d, host_ptr, &err);
    if (err == CL_INVALID_IMAGE_DESCRIPTOR && (!image_width || !image_height))
        err = CL_INVALID_IMAGE_SIZE;
    lanes_set_error(errcode_ret, err);
    return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                                const cl_image_format *image_format,
                                                size_t image_width, size_t image_height,
                                                size_t image_depth, size_t image_row_pitch,
                                                size_t image_slice_pitch, void *host_ptr,
                                                cl_int *errcode_ret)
{
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D,
                       .image_width = image_width,
                       .image_height = image_height,
                       .image_depth = image_depth,
                       .image_row_pitch = image_row_pitch,
                       .image_slice_pitch = image_slice_pitch};
    cl_int err;
    cl_mem m = create_image(context, NULL, flags, image_format, &d, host_ptr, &err);
    if (m && image_depth < 2) {
        clReleaseMemObject(m);
        m = NULL;
        lanes_refuse(__func__, "CL_INVALID_IMAGE_SIZE", "image_depth is below 2");
        err = CL_INVALID_IMAGE_SIZE;
    }
    if (err == CL_INVALID_IMAGE_DESCRIPTOR && (!image_width || !image_height || !image_depth))
        err = CL_INVALID_IMAGE_SIZE;
    lanes_set_error(errcode_ret, err);
    return m;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type,
                                                           cl_uint num_entries,
                                                           cl_image_format *image_formats,
                                                           cl_uint *num_image_formats)
{
    LANES_CHECK(lanes_context_valid(context), CL_INVALID_CONTEXT, "not a live context");
    CHECK_OK(check_flags(flags, IMAGE_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE));
    LANES_CHECK(lanes_image_type_valid(image_type), CL_INVALID_VALUE,
                "image_type is not an image type");
    LANES_CHECK(!(num_entries == 0 && image_formats), CL_INVALID_VALUE,
                "num_entries is 0 but image_formats is not NULL");
    /* Without a device that supports images, no format is supported. */
    cl_uint n = image_device(context)
                    ? lanes_image_formats(image_type, flags, image_formats, num_entries)
                    : 0;
    if (num_image_formats)
        *num_image_formats = n;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_mem_is_image(image), CL_INVALID_MEM_OBJECT, "not a live image");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    const struct lanes_image *img = &image->image;
    cl_mem_object_type t = image->type;
    switch (param_name) {
    case CL_IMAGE_FORMAT: return lanes_info(out, &img->format, sizeof img->format);
    case CL_IMAGE_ELEMENT_SIZE: return LANES_INFO(out, size_t, img->elem_size);
    case CL_IMAGE_ROW_PITCH: return LANES_INFO(out, size_t, img->desc.image_row_pitch);
    case CL_IMAGE_SLICE_PITCH:
        return LANES_INFO(out, size_t, has_slices(t) ? img->desc.image_slice_pitch : 0);
    case CL_IMAGE_WIDTH: return LANES_INFO(out, size_t, img->desc.image_width);
    case CL_IMAGE_HEIGHT: return LANES_INFO(out, size_t, has_rows(t) ? img->desc.image_height : 0);
    case CL_IMAGE_DEPTH:
        return LANES_INFO(out, size_t, t == CL_MEM_OBJECT_IMAGE3D ? img->desc.image_depth : 0);
    case CL_IMAGE_ARRAY_SIZE:
        return LANES_INFO(out, size_t, is_array(t) ? img->desc.image_array_size : 0);
    case CL_IMAGE_BUFFER: return LANES_INFO(out, cl_mem, img->desc.buffer);
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES: return LANES_INFO(out, cl_uint, 0);
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

/* --- Transfers --------------------------------------------------------------------------- */

/* The queue is live, `image` a live image of its context, its device supports images. */
static cl_int check_target(cl_command_queue q, cl_mem image)
{
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(lanes_mem_is_image(image), CL_INVALID_MEM_OBJECT, "not a live image");
    LANES_CHECK(image->context == q->context, CL_INVALID_CONTEXT,
                "the image belongs to another context");
    LANES_CHECK(q->device->images, CL_INVALID_OPERATION, "the queue's device has no images");
    return CL_SUCCESS;
}

/* Checks a box of texels against an image's type and size. */
static cl_int check_box(cl_mem image, const size_t *origin, const size_t *region)
{
    LANES_CHECK(origin && region, CL_INVALID_VALUE, "origin or region is NULL");
    LANES_CHECK(region[0] && region[1] && region[2], CL_INVALID_VALUE, "a region element is 0");
    cl_mem_object_type t = image->type;
    if (t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER)
        LANES_CHECK(origin[1] == 0 && region[1] == 1, CL_INVALID_VALUE,
                    "a 1D image's origin[1] must be 0 and region[1] 1");
    if (t != CL_MEM_OBJECT_IMAGE2D_ARRAY && t != CL_MEM_OBJECT_IMAGE3D)
        LANES_CHECK(origin[2] == 0 && region[2] == 1, CL_INVALID_VALUE,
                    "origin[2] must be 0 and region[2] 1 for this image type");
    for (int i = 0; i < 3; i++)
        LANES_CHECK(origin[i] <= image->image.dims[i] &&
                        region[i] <= image->image.dims[i] - origin[i],
                    CL_INVALID_VALUE, "origin + region is out of the image");
    return CL_SUCCESS;
}

/* The byte offset of texel `origin` in the image. */
static size_t box_start(cl_mem image, const size_t *origin)
{
    const struct lanes_image *img = &image->image;
    return origin[0] * img->elem_size + origin[1] * img->pitch[0] + origin[2] * img->pitch[1];
}

static cl_event command(cl_command_queue q, cl_command_type type, lanes_command_fn run, cl_mem a,
                        cl_mem b)
{
    cl_event cmd = lanes_command_create(q, type, run);
    if (!cmd)
        return NULL;
    if ((a && lanes_command_keep_mem(cmd, a) != CL_SUCCESS) ||
        (b && lanes_command_keep_mem(cmd, b) != CL_SUCCESS)) {
        lanes_command_discard(cmd);
        return NULL;
    }
    return cmd;
}

/* Fills a rectangle command: dst and src each with their start and pitches. */
static void set_rect(cl_event cmd, char *dst, const size_t dst_pitch[2], const char *src,
                     const size_t src_pitch[2], const size_t *region, size_t elem)
{
    struct lanes_command *c = &cmd->cmd;
    c->u.rect.dst = dst;
    c->u.rect.src = src;
    c->u.rect.region[0] = region[0] * elem;
    c->u.rect.region[1] = region[1];
    c->u.rect.region[2] = region[2];
    for (int i = 0; i < 2; i++) {
        c->u.rect.dst_pitch[i] = dst_pitch[i];
        c->u.rect.src_pitch[i] = src_pitch[i];
    }
}

static cl_int read_write(cl_command_queue q, cl_mem image, bool write, cl_bool blocking,
                         const size_t *origin, const size_t *region, size_t row_pitch,
                         size_t slice_pitch, void *ptr, cl_uint num_wait, const cl_event *wait,
                         cl_event *event)
{
    CHECK_OK(check_target(q, image));
    CHECK_OK(check_box(image, origin, region));
    cl_mem_object_type t = image->type;
    size_t elem = image->image.elem_size, tight;
    LANES_CHECK(mul(region[0], elem, &tight), CL_INVALID_VALUE, "region too large");
    LANES_CHECK(row_pitch == 0 || row_pitch >= tight, CL_INVALID_VALUE,
                "row_pitch is below region[0] x element size");
    if (row_pitch == 0)
        row_pitch = tight;
    LANES_CHECK(has_slices(t) || slice_pitch == 0, CL_INVALID_VALUE,
                "slice_pitch is not 0 for a 1D or 2D image");
    size_t min_slice = row_pitch * (t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : region[1]);
    LANES_CHECK(slice_pitch == 0 || slice_pitch >= min_slice, CL_INVALID_VALUE,
                "slice_pitch is below its minimum");
    if (slice_pitch == 0)
        slice_pitch = min_slice;
    LANES_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    CHECK_OK(lanes_check_wait_list(q->context, num_wait, wait));
    if (write)
        LANES_CHECK(!(image->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, "the image is HOST_READ_ONLY or HOST_NO_ACCESS");
    else
        LANES_CHECK(!(image->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, "the image is HOST_WRITE_ONLY or HOST_NO_ACCESS");
    cl_event cmd = command(q, write ? CL_COMMAND_WRITE_IMAGE : CL_COMMAND_READ_IMAGE,
                           lanes_transfer_rect, image, NULL);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    char *mem = (char *)lanes_mem_address(image) + box_start(image, origin);
    /* The host's rows: a 1D array's layers are its slices. */
    size_t host[2] = {t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice_pitch : row_pitch, slice_pitch};
    if (write)
        set_rect(cmd, mem, image->image.pitch, ptr, host, region, elem);
    else
        set_rect(cmd, ptr, host, mem, image->image.pitch, region, elem);
    return lanes_command_submit(cmd, num_wait, wait, LANES_ORDER_COMMAND, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                                   cl_bool blocking_read, const size_t *origin,
                                                   const size_t *region, size_t row_pitch,
                                                   size_t slice_pitch, void *ptr,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event)
{
    return read_write(command_queue, image, false, blocking_read, origin, region, row_pitch,
                      slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(
    cl_command_queue command_queue, cl_mem image, cl_bool blocking_write, const size_t *origin,
    const size_t *region, size_t input_row_pitch, size_t input_slice_pitch, const void *ptr,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    return read_write(command_queue, image, true, blocking_write, origin, region, input_row_pitch,
                      input_slice_pitch, (void *)ptr, num_events_in_wait_list, event_wait_list,
                      event);
}

/* True when two boxes of `region` texels at `a` and `b` share a texel. */
static bool boxes_overlap(const size_t *a, const size_t *b, const size_t *region)
{
    for (int i = 0; i < 3; i++)
        if (a[i] + region[i] <= b[i] || b[i] + region[i] <= a[i])
            return false;
    return true;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                                   cl_mem dst_image, const size_t *src_origin,
                                                   const size_t *dst_origin, const size_t *region,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    CHECK_OK(check_target(q, src_image));
    CHECK_OK(check_target(q, dst_image));
    LANES_CHECK(src_image->image.format.image_channel_order ==
                        dst_image->image.format.image_channel_order &&
                    src_image->image.format.image_channel_data_type ==
                        dst_image->image.format.image_channel_data_type,
                CL_IMAGE_FORMAT_MISMATCH, "the images' formats differ");
    CHECK_OK(check_box(src_image, src_origin, region));
    CHECK_OK(check_box(dst_image, dst_origin, region));
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    LANES_CHECK(src_image != dst_image || !boxes_overlap(src_origin, dst_origin, region),
                CL_MEM_COPY_OVERLAP, "the source and destination regions overlap");
    cl_event cmd = command(q, CL_COMMAND_COPY_IMAGE, lanes_transfer_rect, src_image, dst_image);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    set_rect(cmd, (char *)lanes_mem_address(dst_image) + box_start(dst_image, dst_origin),
             dst_image->image.pitch,
             (char *)lanes_mem_address(src_image) + box_start(src_image, src_origin),
             src_image->image.pitch, region, src_image->image.elem_size);
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

/*
 * Checks the buffer side of an image-buffer copy: a live buffer of the
 * queue's context, not the one a 1D image buffer views, holding the packed
 * box.
 */
static cl_int check_buffer_side(cl_command_queue q, cl_mem image, cl_mem buffer, size_t offset,
                                const size_t *region, size_t pitch[2])
{
    LANES_CHECK(lanes_mem_is_buffer(buffer), CL_INVALID_MEM_OBJECT, "not a live buffer");
    LANES_CHECK(buffer->context == q->context, CL_INVALID_CONTEXT,
                "the buffer belongs to another context");
    LANES_CHECK(image->type != CL_MEM_OBJECT_IMAGE1D_BUFFER || image->image.desc.buffer != buffer,
                CL_INVALID_MEM_OBJECT, "the image is a 1D image buffer made from this buffer");
    size_t row, slice, size;
    bool ok = mul(region[0], image->image.elem_size, &row) && mul(row, region[1], &slice) &&
              mul(slice, region[2], &size);
    LANES_CHECK(ok && offset <= buffer->size && size <= buffer->size - offset, CL_INVALID_VALUE,
                "the buffer's side is out of its bounds");
    pitch[0] = row;
    pitch[1] = slice;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(
    cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer, const size_t *src_origin,
    const size_t *region, size_t dst_offset, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    CHECK_OK(check_target(q, src_image));
    CHECK_OK(check_box(src_image, src_origin, region));
    size_t pitch[2];
    CHECK_OK(check_buffer_side(q, src_image, dst_buffer, dst_offset, region, pitch));
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    cl_event cmd =
        command(q, CL_COMMAND_COPY_IMAGE_TO_BUFFER, lanes_transfer_rect, src_image, dst_buffer);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    set_rect(cmd, (char *)lanes_mem_address(dst_buffer) + dst_offset, pitch,
             (char *)lanes_mem_address(src_image) + box_start(src_image, src_origin),
             src_image->image.pitch, region, src_image->image.elem_size);
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image, size_t src_offset,
    const size_t *dst_origin, const size_t *region, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(lanes_mem_is_buffer(src_buffer), CL_INVALID_MEM_OBJECT, "not a live buffer");
    CHECK_OK(check_target(q, dst_image));
    CHECK_OK(check_box(dst_image, dst_origin, region));
    size_t pitch[2];
    CHECK_OK(check_buffer_side(q, dst_image, src_buffer, src_offset, region, pitch));
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    cl_event cmd =
        command(q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, lanes_transfer_rect, src_buffer, dst_image);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    set_rect(cmd, (char *)lanes_mem_address(dst_image) + box_start(dst_image, dst_origin),
             dst_image->image.pitch, (char *)lanes_mem_address(src_buffer) + src_offset, pitch,
             region, dst_image->image.elem_size);
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                                   const void *fill_color, const size_t *origin,
                                                   const size_t *region,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    CHECK_OK(check_target(q, image));
    LANES_CHECK(fill_color, CL_INVALID_VALUE, "fill_color is NULL");
    CHECK_OK(check_box(image, origin, region));
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    cl_event cmd = command(q, CL_COMMAND_FILL_IMAGE, lanes_transfer_fill_rect, image, NULL);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    struct lanes_command *c = &cmd->cmd;
    const struct lanes_image *img = &image->image;
    c->u.fill_rect.dst = (char *)lanes_mem_address(image) + box_start(image, origin);
    c->u.fill_rect.region[0] = region[0] * img->elem_size;
    c->u.fill_rect.region[1] = region[1];
    c->u.fill_rect.region[2] = region[2];
    c->u.fill_rect.pitch[0] = img->pitch[0];
    c->u.fill_rect.pitch[1] = img->pitch[1];
    c->u.fill_rect.pattern_size = img->elem_size;
    lanes_image_pack(&img->format, fill_color, c->u.fill_rect.pattern);
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

#define MAP_FLAGS (CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)

CL_API_ENTRY void *CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                                 cl_bool blocking_map, cl_map_flags map_flags,
                                                 const size_t *origin, const size_t *region,
                                                 size_t *image_row_pitch, size_t *image_slice_pitch,
                                                 cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list, cl_event *event,
                                                 cl_int *errcode_ret)
{
    cl_command_queue q = command_queue;
    cl_int err = check_target(q, image);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad queue or image");
    err = check_box(image, origin, region);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad origin or region");
    LANES_CHECK_OBJ(image_row_pitch, CL_INVALID_VALUE, errcode_ret, "image_row_pitch is NULL");
    LANES_CHECK_OBJ(!has_slices(image->type) || image_slice_pitch, CL_INVALID_VALUE, errcode_ret,
                    "image_slice_pitch is NULL for a 3D image or an image array");
    LANES_CHECK_OBJ(!(map_flags & ~MAP_FLAGS), CL_INVALID_VALUE, errcode_ret,
                    "unknown map_flags bits");
    LANES_CHECK_OBJ(!(map_flags & CL_MAP_WRITE_INVALIDATE_REGION) ||
                        !(map_flags & (CL_MAP_READ | CL_MAP_WRITE)),
                    CL_INVALID_VALUE, errcode_ret,
                    "CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or CL_MAP_WRITE");
    err = lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad event_wait_list");
    LANES_CHECK_OBJ(!(map_flags & CL_MAP_READ) ||
                        !(image->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, errcode_ret,
                    "CL_MAP_READ of a HOST_WRITE_ONLY or HOST_NO_ACCESS image");
    LANES_CHECK_OBJ(!(map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ||
                        !(image->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, errcode_ret,
                    "mapping for writing a HOST_READ_ONLY or HOST_NO_ACCESS image");

    /* The host shares the image's memory: the map hands out the box's first texel. */
    size_t start = box_start(image, origin);
    void *ptr = (char *)lanes_mem_address(image) + start;
    cl_event cmd = command(q, CL_COMMAND_MAP_IMAGE, NULL, image, NULL);
    LANES_CHECK_OBJ(cmd, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the command");
    /* Maps for writing overlap when their boxes share a texel. */
    err = lanes_mem_map_add_box(image, ptr, origin, region, map_flags);
    if (err != CL_SUCCESS) {
        lanes_command_discard(cmd);
        LANES_CHECK_OBJ(false, err, errcode_ret,
                        "overlapping regions mapped for writing, or out of memory");
    }
    lanes_mem_keep(image);
    err = lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                               event, blocking_map);
    if (err != CL_SUCCESS)
        lanes_mem_map_remove(image, ptr);
    lanes_mem_unkeep(image);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "the map command failed");
    *image_row_pitch = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY
                           ? image->image.desc.image_row_pitch
                           : image->image.pitch[0];
    if (image_slice_pitch)
        *image_slice_pitch = has_slices(image->type) ? image->image.desc.image_slice_pitch : 0;
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return ptr;
}
