/* SPDX-License-Identifier: MIT */
/* Samplers: how a kernel's image reads address and filter. */
#ifndef LANES_RUNTIME_SAMPLER_H
#define LANES_RUNTIME_SAMPLER_H

#include "object.h"

#include <stdint.h>

struct _cl_sampler {
    struct lanes_object obj;
    cl_context context;
    cl_bool normalized_coords;
    cl_addressing_mode addressing_mode;
    cl_filter_mode filter_mode;
    /* The properties as given to clCreateSamplerWithProperties, with their 0. */
    cl_sampler_properties props[7];
    size_t num_props;
};
LANES_OBJECT_FIRST(struct _cl_sampler);

/* True when `s` is a live sampler. */
static inline bool lanes_sampler_valid(cl_sampler s)
{
    return lanes_object_is(s, LANES_KIND_SAMPLER);
}

/*
 * What a kernel receives for `s` (compiler/abi.h): the CLK_* bits of
 * opencl-c-base.h, those of a sampler written in the kernel's source.
 */
static inline uint64_t lanes_sampler_bits(cl_sampler s)
{
    return (s->normalized_coords ? 1u : 0u) |
           (uint64_t)(s->addressing_mode - CL_ADDRESS_NONE) << 1 |
           (s->filter_mode == CL_FILTER_LINEAR ? 0x20u : 0x10u);
}

#endif
