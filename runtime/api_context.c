/* SPDX-License-Identifier: MIT */
/* Context entries, validating in the order of the OpenCL 3.0 specification. */
#include "check.h"
#include "context.h"
#include "info.h"
#include "platform.h"

/*
 * Checks a context property list; counts its entries including the
 * terminating 0 (0 when the list is NULL) and reads INTEROP_USER_SYNC.
 */
static cl_int parse_properties(const cl_context_properties *props, size_t *count,
                               cl_bool *user_sync)
{
    bool seen_platform = false, seen_sync = false;
    *count = 0;
    *user_sync = CL_FALSE;
    if (!props)
        return CL_SUCCESS;
    size_t i = 0;
    for (; props[i]; i += 2) {
        switch (props[i]) {
        case CL_CONTEXT_PLATFORM:
            LANES_CHECK(!seen_platform, CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
            seen_platform = true;
            LANES_CHECK(props[i + 1] && lanes_platform_valid((cl_platform_id)props[i + 1]),
                        CL_INVALID_PLATFORM, "CL_CONTEXT_PLATFORM is not Lanes");
            break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
            LANES_CHECK(!seen_sync, CL_INVALID_PROPERTY,
                        "CL_CONTEXT_INTEROP_USER_SYNC given twice");
            seen_sync = true;
            LANES_CHECK(props[i + 1] == CL_TRUE || props[i + 1] == CL_FALSE, CL_INVALID_PROPERTY,
                        "CL_CONTEXT_INTEROP_USER_SYNC is not a cl_bool");
            *user_sync = (cl_bool)props[i + 1];
            break;
        default: LANES_FAIL(CL_INVALID_PROPERTY, "unknown context property");
        }
    }
    *count = i + 1;
    return CL_SUCCESS;
}

/* Reports an error through pfn_notify as well as errcode_ret. */
static cl_context create(const cl_context_properties *properties, cl_uint num_devices,
                         const cl_device_id *devices, lanes_context_notify pfn_notify,
                         void *user_data, cl_int *errcode_ret)
{
    size_t num_props;
    cl_bool user_sync;
    cl_int err = parse_properties(properties, &num_props, &user_sync);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad properties");
    LANES_CHECK_OBJ(devices && num_devices, CL_INVALID_VALUE, errcode_ret, "no devices given");
    LANES_CHECK_OBJ(pfn_notify || !user_data, CL_INVALID_VALUE, errcode_ret,
                    "user_data without pfn_notify");
    for (cl_uint i = 0; i < num_devices; i++)
        LANES_CHECK_OBJ(lanes_device_valid(devices[i]), CL_INVALID_DEVICE, errcode_ret,
                        "a device is not a Lanes device");
    cl_context c = lanes_context_create(properties, num_props, user_sync, num_devices, devices,
                                        pfn_notify, user_data);
    LANES_CHECK_OBJ(c, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the context");
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return c;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
    void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *), void *user_data,
    cl_int *errcode_ret)
{
    return create(properties, num_devices, devices, pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                        void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                        void *user_data, cl_int *errcode_ret)
{
    size_t num_props;
    cl_bool user_sync;
    cl_int err = parse_properties(properties, &num_props, &user_sync);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad properties");
    LANES_CHECK_OBJ(pfn_notify || !user_data, CL_INVALID_VALUE, errcode_ret,
                    "user_data without pfn_notify");
    LANES_CHECK_OBJ(lanes_device_type_valid(device_type), CL_INVALID_DEVICE_TYPE, errcode_ret,
                    "unknown device_type bits");
    LANES_CHECK_OBJ(lanes_device_type_matches(device_type), CL_DEVICE_NOT_FOUND, errcode_ret,
                    "Lanes has one device, of type CL_DEVICE_TYPE_CPU");
    cl_device_id dev = lanes_platform()->device;
    return create(properties, 1, &dev, pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context)
{
    LANES_CHECK(lanes_context_valid(context), CL_INVALID_CONTEXT, "not a live context");
    lanes_context_retain_handle(context);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context)
{
    LANES_CHECK(lanes_context_valid(context), CL_INVALID_CONTEXT, "not a live context");
    LANES_CHECK(lanes_context_release_handle(context), CL_INVALID_CONTEXT,
                "released more often than created and retained (other objects keep it)");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_context_valid(context), CL_INVALID_CONTEXT, "not a live context");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT:
        return LANES_INFO(out, cl_uint, lanes_object_refs(&context->obj));
    case CL_CONTEXT_NUM_DEVICES: return LANES_INFO(out, cl_uint, context->num_devices);
    case CL_CONTEXT_DEVICES:
        return lanes_info(out, context->devices, context->num_devices * sizeof(cl_device_id));
    case CL_CONTEXT_PROPERTIES:
        return lanes_info(out, context->properties,
                          context->num_properties * sizeof(cl_context_properties));
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context context, void(CL_CALLBACK *pfn_notify)(cl_context, void *), void *user_data)
{
    LANES_CHECK(lanes_context_valid(context), CL_INVALID_CONTEXT, "not a live context");
    LANES_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    return lanes_context_add_destructor(context, pfn_notify, user_data);
}
