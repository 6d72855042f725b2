/* SPDX-License-Identifier: MIT */
/* Sampler entries, validating in the order of the OpenCL 3.0 specification. */
#include "check.h"
#include "context.h"
#include "info.h"
#include "platform.h"
#include "sampler.h"

#include <stdlib.h>
#include <string.h>

static bool context_has_images(cl_context c)
{
    for (cl_uint i = 0; i < c->num_devices; i++)
        if (c->devices[i]->images)
            return true;
    return false;
}

static cl_sampler create_sampler(cl_context context, cl_bool normalized,
                                 cl_addressing_mode addressing, cl_filter_mode filter,
                                 const cl_sampler_properties *props, size_t num_props,
                                 cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(normalized == CL_TRUE || normalized == CL_FALSE, CL_INVALID_VALUE, errcode_ret,
                    "normalized_coords is neither CL_TRUE nor CL_FALSE");
    switch (addressing) {
    case CL_ADDRESS_NONE:
    case CL_ADDRESS_CLAMP_TO_EDGE:
    case CL_ADDRESS_CLAMP: break;
    case CL_ADDRESS_REPEAT:
    case CL_ADDRESS_MIRRORED_REPEAT:
        LANES_CHECK_OBJ(normalized, CL_INVALID_VALUE, errcode_ret,
                        "REPEAT and MIRRORED_REPEAT need normalized coordinates");
        break;
    default: LANES_FAIL_OBJ(CL_INVALID_VALUE, errcode_ret, "unknown addressing mode");
    }
    LANES_CHECK_OBJ(filter == CL_FILTER_NEAREST || filter == CL_FILTER_LINEAR, CL_INVALID_VALUE,
                    errcode_ret, "unknown filter mode");
    LANES_CHECK_OBJ(context_has_images(context), CL_INVALID_OPERATION, errcode_ret,
                    "no device of the context supports images");
    cl_sampler s = calloc(1, sizeof *s);
    LANES_CHECK_OBJ(s, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the sampler");
    if (!lanes_object_init(&s->obj, LANES_KIND_SAMPLER)) {
        free(s);
        LANES_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY, errcode_ret, "recording the sampler");
    }
    s->context = context;
    s->normalized_coords = normalized;
    s->addressing_mode = addressing;
    s->filter_mode = filter;
    if (num_props)
        memcpy(s->props, props, num_props * sizeof *props);
    s->num_props = num_props;
    lanes_context_retain(context);
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return s;
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                                    cl_addressing_mode addressing_mode,
                                                    cl_filter_mode filter_mode, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    return create_sampler(context, normalized_coords, addressing_mode, filter_mode, NULL, 0,
                          errcode_ret);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *sampler_properties, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    /* Defaults: normalized coordinates, clamp, nearest. */
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    size_t n = 0;
    if (sampler_properties) {
        bool seen[3] = {false, false, false};
        for (; sampler_properties[n]; n += 2) {
            cl_sampler_properties name = sampler_properties[n], v = sampler_properties[n + 1];
            int k = name == CL_SAMPLER_NORMALIZED_COORDS ? 0
                    : name == CL_SAMPLER_ADDRESSING_MODE ? 1
                    : name == CL_SAMPLER_FILTER_MODE     ? 2
                                                         : -1;
            LANES_CHECK_OBJ(k >= 0, CL_INVALID_VALUE, errcode_ret, "unknown sampler property");
            LANES_CHECK_OBJ(!seen[k], CL_INVALID_VALUE, errcode_ret,
                            "a sampler property is given twice");
            seen[k] = true;
            if (k == 0) {
                LANES_CHECK_OBJ(v == CL_TRUE || v == CL_FALSE, CL_INVALID_VALUE, errcode_ret,
                                "CL_SAMPLER_NORMALIZED_COORDS is neither CL_TRUE nor CL_FALSE");
                normalized = (cl_bool)v;
            } else if (k == 1) {
                addressing = (cl_addressing_mode)v;
                LANES_CHECK_OBJ(addressing == v, CL_INVALID_VALUE, errcode_ret,
                                "unknown addressing mode");
            } else {
                filter = (cl_filter_mode)v;
                LANES_CHECK_OBJ(filter == v, CL_INVALID_VALUE, errcode_ret, "unknown filter mode");
            }
        }
        n++; /* the terminating 0 */
    }
    return create_sampler(context, normalized, addressing, filter, sampler_properties, n,
                          errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler sampler)
{
    LANES_CHECK(lanes_sampler_valid(sampler), CL_INVALID_SAMPLER, "not a live sampler");
    lanes_object_retain(&sampler->obj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler)
{
    LANES_CHECK(lanes_sampler_valid(sampler), CL_INVALID_SAMPLER, "not a live sampler");
    if (lanes_object_release(&sampler->obj)) {
        cl_context c = sampler->context;
        free(sampler);
        lanes_context_release(c);
    }
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret)
{
    cl_sampler s = sampler;
    LANES_CHECK(lanes_sampler_valid(s), CL_INVALID_SAMPLER, "not a live sampler");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT: return LANES_INFO(out, cl_uint, lanes_object_refs(&s->obj));
    case CL_SAMPLER_CONTEXT: return LANES_INFO(out, cl_context, s->context);
    case CL_SAMPLER_NORMALIZED_COORDS: return LANES_INFO(out, cl_bool, s->normalized_coords);
    case CL_SAMPLER_ADDRESSING_MODE: return LANES_INFO(out, cl_addressing_mode, s->addressing_mode);
    case CL_SAMPLER_FILTER_MODE: return LANES_INFO(out, cl_filter_mode, s->filter_mode);
    case CL_SAMPLER_PROPERTIES:
        return lanes_info(out, s->props, s->num_props * sizeof(cl_sampler_properties));
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}
