/* SPDX-License-Identifier: MIT */
/*
 * Entries whose issue has not landed yet. Each answers with a specification
 * error code and never touches its arguments: an entry whose first handle is
 * of a kind no call can create yet answers that handle's "invalid" code (no
 * such handle can be valid); the others answer CL_INVALID_OPERATION. An
 * entry moves out of this file when its real implementation lands, and the
 * stubs taking a handle of a newly creatable kind switch to
 * CL_INVALID_OPERATION.
 */
#include "../runtime/check.h"

#include <CL/cl_egl.h>
#include <CL/cl_ext.h>
#include <CL/cl_gl.h>

/* The stubs ignore their arguments by design. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define NOT_YET(err) LANES_FAIL(err, "not implemented yet")
#define NOT_YET_OBJ(err)                                                                           \
    do {                                                                                           \
        lanes_refuse(__func__, #err, "not implemented yet");                                       \
        lanes_set_error(errcode_ret, (err));                                                       \
        return NULL;                                                                               \
    } while (0)

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context context, cl_mem_flags flags,
                                                     cl_GLuint bufobj, cl_int *errcode_ret)
{
    NOT_YET_OBJ(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags,
                                                        cl_GLenum target, cl_GLint miplevel,
                                                        cl_GLuint texture, cl_int *errcode_ret)
{
    NOT_YET_OBJ(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags,
                                                        cl_GLenum target, cl_GLint miplevel,
                                                        cl_GLuint texture, cl_int *errcode_ret)
{
    NOT_YET_OBJ(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags,
                                                           cl_GLuint renderbuffer,
                                                           cl_int *errcode_ret)
{
    NOT_YET_OBJ(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type,
                                                  cl_GLuint *gl_object_name)
{
    NOT_YET(CL_INVALID_MEM_OBJECT);
}

CL_API_ENTRY cl_int CL_API_CALL clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret)
{
    NOT_YET(CL_INVALID_MEM_OBJECT);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireGLObjects(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    NOT_YET(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseGLObjects(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    NOT_YET(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clGetGLContextInfoKHR(const cl_context_properties *properties,
                                                      cl_gl_context_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret)
{
    NOT_YET(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL
clCreateSubDevicesEXT(cl_device_id in_device, const cl_device_partition_property_ext *properties,
                      cl_uint num_entries, cl_device_id *out_devices, cl_uint *num_devices)
{
    NOT_YET(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDeviceEXT(cl_device_id device)
{
    NOT_YET(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDeviceEXT(cl_device_id device)
{
    NOT_YET(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_event CL_API_CALL clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync,
                                                             cl_int *errcode_ret)
{
    NOT_YET_OBJ(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromGLTexture(cl_context context, cl_mem_flags flags,
                                                      cl_GLenum target, cl_GLint miplevel,
                                                      cl_GLuint texture, cl_int *errcode_ret)
{
    NOT_YET_OBJ(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateFromEGLImageKHR(
    cl_context context, CLeglDisplayKHR egldisplay, CLeglImageKHR eglimage, cl_mem_flags flags,
    const cl_egl_image_properties_khr *properties, cl_int *errcode_ret)
{
    NOT_YET_OBJ(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueAcquireEGLObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    NOT_YET(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReleaseEGLObjectsKHR(
    cl_command_queue command_queue, cl_uint num_objects, const cl_mem *mem_objects,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    NOT_YET(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_event CL_API_CALL clCreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync,
                                                              CLeglDisplayKHR display,
                                                              cl_int *errcode_ret)
{
    NOT_YET_OBJ(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags,
                                             cl_uint pipe_packet_size, cl_uint pipe_max_packets,
                                             const cl_pipe_properties *properties,
                                             cl_int *errcode_ret)
{
    NOT_YET_OBJ(CL_INVALID_OPERATION);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name,
                                              size_t param_value_size, void *param_value,
                                              size_t *param_value_size_ret)
{
    NOT_YET(CL_INVALID_MEM_OBJECT);
}
