/* SPDX-License-Identifier: MIT */
/* Buffer entries, validating in the order of the OpenCL 3.0 specification. */
#include "check.h"
#include "context.h"
#include "info.h"
#include "mem.h"
#include "platform.h"
#include "svm.h"

#define KNOWN_MEM_FLAGS (LANES_MEM_ACCESS_FLAGS | LANES_MEM_HOST_FLAGS | LANES_MEM_PTR_FLAGS)

/* True when at most one bit of `bits` is set. */
static bool at_most_one(cl_mem_flags bits)
{
    return (bits & (bits - 1)) == 0;
}

/* Checks flags against the memory flags table: known bits, no exclusive pair. */
static cl_int check_flags(cl_mem_flags flags)
{
    LANES_CHECK(!(flags & ~KNOWN_MEM_FLAGS), CL_INVALID_VALUE, "unknown cl_mem_flags bits");
    LANES_CHECK(at_most_one(flags & LANES_MEM_ACCESS_FLAGS), CL_INVALID_VALUE,
                "more than one of READ_WRITE, WRITE_ONLY and READ_ONLY");
    LANES_CHECK(at_most_one(flags & LANES_MEM_HOST_FLAGS), CL_INVALID_VALUE,
                "more than one of HOST_WRITE_ONLY, HOST_READ_ONLY and HOST_NO_ACCESS");
    LANES_CHECK(!(flags & CL_MEM_USE_HOST_PTR) ||
                    !(flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)),
                CL_INVALID_VALUE, "USE_HOST_PTR with ALLOC_HOST_PTR or COPY_HOST_PTR");
    return CL_SUCCESS;
}

/* The largest allocation every device of the context accepts. */
static cl_ulong max_alloc(cl_context c)
{
    cl_ulong max = 0;
    for (cl_uint i = 0; i < c->num_devices; i++)
        if (c->devices[i]->max_alloc_size > max)
            max = c->devices[i]->max_alloc_size;
    return max;
}

static cl_mem create_buffer(cl_context context, const cl_mem_properties *properties,
                            cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    size_t num_props = 0;
    if (properties) {
        /* OpenCL 3.0 defines no buffer property, and no extension adds one here. */
        LANES_CHECK_OBJ(properties[0] == 0, CL_INVALID_PROPERTY, errcode_ret,
                        "unsupported buffer property");
        num_props = 1;
    }
    cl_int err = check_flags(flags);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad flags");
    LANES_CHECK_OBJ(size != 0, CL_INVALID_BUFFER_SIZE, errcode_ret, "size is 0");
    LANES_CHECK_OBJ(size <= max_alloc(context), CL_INVALID_BUFFER_SIZE, errcode_ret,
                    "size is above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    bool wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
    LANES_CHECK_OBJ(host_ptr || !wants_ptr, CL_INVALID_HOST_PTR, errcode_ret,
                    "USE_HOST_PTR or COPY_HOST_PTR with a NULL host_ptr");
    LANES_CHECK_OBJ(!host_ptr || wants_ptr, CL_INVALID_HOST_PTR, errcode_ret,
                    "host_ptr without USE_HOST_PTR or COPY_HOST_PTR");
    /* USE_HOST_PTR on an SVM pointer: the buffer must lie inside that allocation. */
    char *svm_base = NULL;
    size_t svm_size = 0;
    bool uses_svm =
        (flags & CL_MEM_USE_HOST_PTR) && lanes_svm_find(context, host_ptr, &svm_base, &svm_size);
    LANES_CHECK_OBJ(!uses_svm || size <= svm_size - (size_t)((char *)host_ptr - svm_base),
                    CL_INVALID_BUFFER_SIZE, errcode_ret,
                    "the buffer runs past the end of the SVM allocation holding host_ptr");
    cl_mem m = lanes_buffer_create(context, flags, size, host_ptr, properties, num_props, &err);
    LANES_CHECK_OBJ(m, err, errcode_ret, "allocating the buffer");
    m->uses_svm = uses_svm;
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                               void *host_ptr, cl_int *errcode_ret)
{
    return create_buffer(context, NULL, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                             const cl_mem_properties *properties,
                                                             cl_mem_flags flags, size_t size,
                                                             void *host_ptr, cl_int *errcode_ret)
{
    return create_buffer(context, properties, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                                  cl_buffer_create_type buffer_create_type,
                                                  const void *buffer_create_info,
                                                  cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_mem_is_buffer(buffer), CL_INVALID_MEM_OBJECT, errcode_ret,
                    "not a live buffer");
    LANES_CHECK_OBJ(!buffer->parent, CL_INVALID_MEM_OBJECT, errcode_ret, "buffer is a sub-buffer");
    cl_int err = check_flags(flags);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad flags");
    LANES_CHECK_OBJ(!(flags & LANES_MEM_PTR_FLAGS), CL_INVALID_VALUE, errcode_ret,
                    "USE, ALLOC and COPY_HOST_PTR are inherited, never given");
    err = lanes_mem_check_inherited(buffer->flags, flags);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "flags contradict the buffer's");
    LANES_CHECK_OBJ(buffer_create_type == CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE,
                    errcode_ret, "unknown buffer_create_type");
    LANES_CHECK_OBJ(buffer_create_info, CL_INVALID_VALUE, errcode_ret,
                    "buffer_create_info is NULL");
    const cl_buffer_region *region = buffer_create_info;
    LANES_CHECK_OBJ(region->origin <= buffer->size && region->size <= buffer->size - region->origin,
                    CL_INVALID_VALUE, errcode_ret, "the region is out of the buffer's bounds");
    LANES_CHECK_OBJ(region->size, CL_INVALID_BUFFER_SIZE, errcode_ret, "the region's size is 0");
    LANES_CHECK_OBJ(region->origin % LANES_MEM_ALIGN == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET,
                    errcode_ret, "origin is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN");

    cl_mem_flags inherited = buffer->flags & LANES_MEM_PTR_FLAGS;
    inherited |= flags & LANES_MEM_ACCESS_FLAGS ? flags & LANES_MEM_ACCESS_FLAGS
                                                : buffer->flags & LANES_MEM_ACCESS_FLAGS;
    inherited |= flags & LANES_MEM_HOST_FLAGS ? flags & LANES_MEM_HOST_FLAGS
                                              : buffer->flags & LANES_MEM_HOST_FLAGS;
    cl_mem m = lanes_sub_buffer_create(buffer, inherited, region->origin, region->size);
    LANES_CHECK_OBJ(m, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the sub-buffer");
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return m;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj)
{
    LANES_CHECK(lanes_mem_valid(memobj), CL_INVALID_MEM_OBJECT, "not a live memory object");
    lanes_object_retain(&memobj->obj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj)
{
    LANES_CHECK(lanes_mem_valid(memobj), CL_INVALID_MEM_OBJECT, "not a live memory object");
    lanes_mem_release(memobj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem memobj, void(CL_CALLBACK *pfn_notify)(cl_mem memobj, void *user_data), void *user_data)
{
    LANES_CHECK(lanes_mem_valid(memobj), CL_INVALID_MEM_OBJECT, "not a live memory object");
    LANES_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    return lanes_mem_add_destructor(memobj, pfn_notify, user_data);
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret)
{
    cl_mem m = memobj;
    LANES_CHECK(lanes_mem_valid(m), CL_INVALID_MEM_OBJECT, "not a live memory object");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    switch (param_name) {
    case CL_MEM_TYPE: return LANES_INFO(out, cl_mem_object_type, m->type);
    case CL_MEM_FLAGS: return LANES_INFO(out, cl_mem_flags, m->flags);
    case CL_MEM_SIZE: return LANES_INFO(out, size_t, m->size);
    case CL_MEM_HOST_PTR: return LANES_INFO(out, void *, m->host_ptr);
    case CL_MEM_MAP_COUNT: {
        pthread_mutex_lock(&m->lock);
        cl_uint count = m->map_count;
        pthread_mutex_unlock(&m->lock);
        return LANES_INFO(out, cl_uint, count);
    }
    case CL_MEM_REFERENCE_COUNT: return LANES_INFO(out, cl_uint, lanes_object_refs(&m->obj));
    case CL_MEM_CONTEXT: return LANES_INFO(out, cl_context, m->context);
    case CL_MEM_ASSOCIATED_MEMOBJECT: return LANES_INFO(out, cl_mem, m->parent);
    case CL_MEM_OFFSET: return LANES_INFO(out, size_t, m->offset);
    case CL_MEM_USES_SVM_POINTER: return LANES_INFO(out, cl_bool, m->uses_svm ? CL_TRUE : CL_FALSE);
    case CL_MEM_PROPERTIES:
        return lanes_info(out, m->props, m->num_props * sizeof(cl_mem_properties));
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}
