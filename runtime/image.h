/* SPDX-License-Identifier: MIT */
/* Image formats: which are valid, which are supported, texel sizes, fill colours as texels. */
#ifndef LANES_RUNTIME_IMAGE_H
#define LANES_RUNTIME_IMAGE_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* True when `type` is one of the six image types. */
bool lanes_image_type_valid(cl_mem_object_type type);

/* The bytes of one texel of a valid format; 0 when the format descriptor is not valid. */
size_t lanes_image_elem_size(const cl_image_format *format);

/*
 * True when images of `type` in `format` may be made with `flags` (its
 * kernel access bits: READ_ONLY, WRITE_ONLY, READ_WRITE or
 * KERNEL_READ_AND_WRITE; none means READ_WRITE).
 */
bool lanes_image_format_supported(cl_mem_object_type type, cl_mem_flags flags,
                                  const cl_image_format *format);

/*
 * Writes the supported formats of `type` for `flags` to `out` (up to `max`)
 * and returns how many there are.
 */
cl_uint lanes_image_formats(cl_mem_object_type type, cl_mem_flags flags, cl_image_format *out,
                            cl_uint max);

/*
 * The texel clEnqueueFillImage writes for `color` (float[4], int[4] or
 * uint[4] by the channel type; one float for CL_DEPTH), in `format`'s
 * layout: `texel` gets lanes_image_elem_size(format) bytes.
 */
void lanes_image_pack(const cl_image_format *format, const void *color, unsigned char texel[16]);

/* The channels a texel of `order` stores (1, 2, 3 or 4); 0 for an unknown order. */
int lanes_image_channels(cl_channel_order order);

/* `f` as an IEEE half, rounded to nearest even. */
unsigned short lanes_float_to_half(float f);

#endif
