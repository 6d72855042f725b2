/* SPDX-License-Identifier: MIT */
/* Samplers: how a kernel's image reads address and filter (API objects for now). */
#ifndef LANES_RUNTIME_SAMPLER_H
#define LANES_RUNTIME_SAMPLER_H

#include "object.h"

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

#endif
