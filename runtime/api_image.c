/* SPDX-License-Identifier: MIT */
/* Image entries. CL_DEVICE_IMAGE_SUPPORT is false: no format is supported yet. */
#include "check.h"
#include "context.h"

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                                           cl_mem_object_type image_type,
                                                           cl_uint num_entries,
                                                           cl_image_format *image_formats,
                                                           cl_uint *num_image_formats)
{
    const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                               CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
                               CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
                               CL_MEM_HOST_NO_ACCESS | CL_MEM_KERNEL_READ_AND_WRITE;
    LANES_CHECK(lanes_context_valid(context), CL_INVALID_CONTEXT, "not a live context");
    LANES_CHECK((flags & ~known) == 0, CL_INVALID_VALUE, "unknown flags");
    switch (image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D: break;
    default: LANES_FAIL(CL_INVALID_VALUE, "image_type is not an image type");
    }
    LANES_CHECK(!(num_entries == 0 && image_formats), CL_INVALID_VALUE,
                "num_entries is 0 but image_formats is not NULL");
    if (num_image_formats)
        *num_image_formats = 0;
    return CL_SUCCESS;
}
