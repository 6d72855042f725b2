/* SPDX-License-Identifier: MIT */
/*
 * Command-queue entries, and the commands that only order others (markers,
 * barriers, waits) plus native kernels, validating in the order of the
 * OpenCL 3.0 specification.
 */
#include "check.h"
#include "context.h"
#include "event.h"
#include "info.h"
#include "mem.h"
#include "platform.h"
#include "queue.h"

#include <stdlib.h>
#include <string.h>

/* What a host queue may ask for; on-device queues are not offered. */
#define HOST_QUEUE_PROPERTIES (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE)
#define KNOWN_QUEUE_PROPERTIES                                                                     \
    (HOST_QUEUE_PROPERTIES | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)

static cl_int check_context_device(cl_context context, cl_device_id device)
{
    LANES_CHECK(lanes_context_valid(context), CL_INVALID_CONTEXT, "not a live context");
    LANES_CHECK(lanes_device_valid(device), CL_INVALID_DEVICE, "not a Lanes device");
    LANES_CHECK(lanes_context_has_device(context, device), CL_INVALID_DEVICE,
                "device is not in the context");
    return CL_SUCCESS;
}

/* Checks the bits of CL_QUEUE_PROPERTIES: invalid, or valid but not offered. */
static cl_int check_queue_bits(cl_command_queue_properties p)
{
    LANES_CHECK(!(p & ~KNOWN_QUEUE_PROPERTIES), CL_INVALID_VALUE, "unknown queue property bits");
    LANES_CHECK(!(p & CL_QUEUE_ON_DEVICE_DEFAULT) || (p & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE,
                "CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE");
    LANES_CHECK(!(p & CL_QUEUE_ON_DEVICE) || (p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
                CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE without out-of-order execution");
    LANES_CHECK(!(p & CL_QUEUE_ON_DEVICE), CL_INVALID_QUEUE_PROPERTIES,
                "the device has no on-device queues");
    return CL_SUCCESS;
}

static cl_command_queue create(cl_context context, cl_device_id device,
                               cl_command_queue_properties bits, const cl_queue_properties *props,
                               size_t num_props, cl_int *errcode_ret)
{
    cl_command_queue q = lanes_queue_create(context, device, bits, props, num_props);
    LANES_CHECK_OBJ(q, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the queue");
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return q;
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties *properties, cl_int *errcode_ret)
{
    cl_int err = check_context_device(context, device);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad context or device");
    cl_command_queue_properties bits = 0;
    bool seen_bits = false, seen_size = false;
    size_t n = 0;
    if (properties) {
        for (; properties[n]; n += 2) {
            switch (properties[n]) {
            case CL_QUEUE_PROPERTIES:
                LANES_CHECK_OBJ(!seen_bits, CL_INVALID_VALUE, errcode_ret,
                                "CL_QUEUE_PROPERTIES given twice");
                seen_bits = true;
                bits = (cl_command_queue_properties)properties[n + 1];
                break;
            case CL_QUEUE_SIZE:
                LANES_CHECK_OBJ(!seen_size, CL_INVALID_VALUE, errcode_ret,
                                "CL_QUEUE_SIZE given twice");
                seen_size = true;
                break;
            default:
                LANES_CHECK_OBJ(false, CL_INVALID_VALUE, errcode_ret, "unknown queue property");
            }
        }
        n++; /* the terminating 0 */
    }
    err = check_queue_bits(bits);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad CL_QUEUE_PROPERTIES");
    /* With CL_QUEUE_ON_DEVICE refused above, a size is never valid. */
    LANES_CHECK_OBJ(!seen_size, CL_INVALID_VALUE, errcode_ret,
                    "CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE");
    return create(context, device, bits, properties, n, errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context context, cl_device_id device,
                     cl_command_queue_properties properties, cl_int *errcode_ret)
{
    cl_int err = check_context_device(context, device);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad context or device");
    LANES_CHECK_OBJ(!(properties & ~HOST_QUEUE_PROPERTIES), CL_INVALID_VALUE, errcode_ret,
                    "properties outside the clCreateCommandQueue table");
    return create(context, device, properties, NULL, 0, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context,
                                                               cl_device_id device,
                                                               cl_command_queue command_queue)
{
    (void)command_queue;
    cl_int err = check_context_device(context, device);
    if (err != CL_SUCCESS)
        return err;
    LANES_FAIL(CL_INVALID_OPERATION, "the device has no replaceable default on-device queue");
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue)
{
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    lanes_object_retain(&command_queue->obj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue)
{
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    lanes_queue_release(command_queue);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                                      cl_command_queue_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    switch (param_name) {
    case CL_QUEUE_CONTEXT: return LANES_INFO(out, cl_context, q->context);
    case CL_QUEUE_DEVICE: return LANES_INFO(out, cl_device_id, q->device);
    case CL_QUEUE_REFERENCE_COUNT: return LANES_INFO(out, cl_uint, lanes_object_refs(&q->obj));
    case CL_QUEUE_PROPERTIES: return LANES_INFO(out, cl_command_queue_properties, q->properties);
    case CL_QUEUE_PROPERTIES_ARRAY:
        return lanes_info(out, q->props, q->num_props * sizeof(cl_queue_properties));
    case CL_QUEUE_SIZE: LANES_FAIL(CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE asks a device queue");
    case CL_QUEUE_DEVICE_DEFAULT: return LANES_INFO(out, cl_command_queue, NULL);
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

/*
 * Modifying a queue's properties is required of OpenCL 1.0 devices only; the
 * specification lets this device refuse it unconditionally.
 */
CL_API_ENTRY cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties properties,
                          cl_bool enable, cl_command_queue_properties *old_properties)
{
    (void)properties, (void)enable, (void)old_properties;
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_FAIL(CL_INVALID_OPERATION, "the device does not modify queue properties");
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue command_queue)
{
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    /* Every enqueue submits its command at once: nothing is ever held back. */
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue command_queue)
{
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    lanes_queue_finish(command_queue);
    return CL_SUCCESS;
}

/* Enqueues a command whose only job is to be ordered: a marker or a barrier. */
static cl_int enqueue_sync(cl_command_queue q, cl_command_type type, enum lanes_order order,
                           cl_uint num_events, const cl_event *events, cl_event *event)
{
    cl_event cmd = lanes_command_create(q, type, NULL);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    return lanes_command_submit(cmd, num_events, events, order, event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event *event_wait_list,
                                                            cl_event *event)
{
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    cl_int err =
        lanes_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return enqueue_sync(command_queue, CL_COMMAND_MARKER, LANES_ORDER_MARKER,
                        num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event *event_wait_list,
                                                             cl_event *event)
{
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    cl_int err =
        lanes_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;
    return enqueue_sync(command_queue, CL_COMMAND_BARRIER, LANES_ORDER_BARRIER,
                        num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event *event)
{
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(event, CL_INVALID_VALUE, "event is NULL");
    return enqueue_sync(command_queue, CL_COMMAND_MARKER, LANES_ORDER_MARKER, 0, NULL, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue)
{
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    return enqueue_sync(command_queue, CL_COMMAND_BARRIER, LANES_ORDER_BARRIER, 0, NULL, NULL);
}

/*
 * OpenCL 1.1: the later commands of the queue wait for the events, as after a
 * barrier with that wait list (its event, CL_COMMAND_BARRIER, stays internal).
 */
CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue,
                                                       cl_uint num_events,
                                                       const cl_event *event_list)
{
    LANES_CHECK(lanes_queue_valid(command_queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(num_events && event_list, CL_INVALID_VALUE, "no events given");
    for (cl_uint i = 0; i < num_events; i++)
        LANES_CHECK(lanes_event_valid(event_list[i]), CL_INVALID_EVENT, "not a live event");
    for (cl_uint i = 0; i < num_events; i++)
        LANES_CHECK(event_list[i]->context == command_queue->context, CL_INVALID_CONTEXT,
                    "an event belongs to another context");
    return enqueue_sync(command_queue, CL_COMMAND_BARRIER, LANES_ORDER_BARRIER, num_events,
                        event_list, NULL);
}

/* Native kernels: the application's function, called with a copy of its arguments. */
static cl_int run_native(cl_event cmd)
{
    struct lanes_command *c = &cmd->cmd;
    char *args = c->data;
    for (size_t i = 0; i < c->u.native.num_mems; i++) {
        cl_mem m = c->u.native.mems[i];
        void *address = m ? lanes_mem_address(m) : NULL;
        memcpy(args + c->u.native.offsets[i], &address, sizeof address);
    }
    c->u.native.fn(args);
    return CL_COMPLETE;
}

static void free_native(cl_event cmd)
{
    free(cmd->cmd.u.native.mems);
    free(cmd->cmd.u.native.offsets);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(
    cl_command_queue command_queue, void(CL_CALLBACK *user_func)(void *), void *args,
    size_t cb_args, cl_uint num_mem_objects, const cl_mem *mem_list, const void **args_mem_loc,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(user_func, CL_INVALID_VALUE, "user_func is NULL");
    LANES_CHECK(args || (cb_args == 0 && num_mem_objects == 0), CL_INVALID_VALUE,
                "args is NULL but cb_args or num_mem_objects is not 0");
    LANES_CHECK(!args || cb_args, CL_INVALID_VALUE, "args is not NULL but cb_args is 0");
    LANES_CHECK(!num_mem_objects || (mem_list && args_mem_loc), CL_INVALID_VALUE,
                "mem_list or args_mem_loc is NULL");
    LANES_CHECK(num_mem_objects || (!mem_list && !args_mem_loc), CL_INVALID_VALUE,
                "mem_list or args_mem_loc given without memory objects");
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        cl_mem m = mem_list[i];
        LANES_CHECK(!m || lanes_mem_is_buffer(m), CL_INVALID_MEM_OBJECT,
                    "mem_list holds something that is not a buffer");
        LANES_CHECK(!m || m->context == q->context, CL_INVALID_CONTEXT,
                    "a buffer of mem_list belongs to another context");
        size_t at = (size_t)((const char *)args_mem_loc[i] - (const char *)args);
        LANES_CHECK((const char *)args_mem_loc[i] >= (const char *)args && at < cb_args &&
                        cb_args - at >= sizeof(void *),
                    CL_INVALID_VALUE, "an args_mem_loc entry points outside args");
    }
    cl_int err = lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;

    cl_event cmd = lanes_command_create(q, CL_COMMAND_NATIVE_KERNEL, run_native);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    struct lanes_command *c = &cmd->cmd;
    c->u.native.fn = user_func;
    c->u.native.num_mems = num_mem_objects;
    c->cleanup = free_native;
    c->data = cb_args ? malloc(cb_args) : NULL;
    if (num_mem_objects) {
        c->u.native.mems = malloc(num_mem_objects * sizeof(cl_mem));
        c->u.native.offsets = malloc(num_mem_objects * sizeof(size_t));
    }
    bool ok =
        (!cb_args || c->data) && (!num_mem_objects || (c->u.native.mems && c->u.native.offsets));
    for (cl_uint i = 0; ok && i < num_mem_objects; i++) {
        c->u.native.mems[i] = mem_list[i];
        c->u.native.offsets[i] = (size_t)((const char *)args_mem_loc[i] - (const char *)args);
        if (mem_list[i])
            ok = lanes_command_keep_mem(cmd, mem_list[i]) == CL_SUCCESS;
    }
    if (!ok) {
        lanes_command_discard(cmd);
        LANES_FAIL(CL_OUT_OF_HOST_MEMORY, "copying the arguments");
    }
    if (cb_args)
        memcpy(c->data, args, cb_args);
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}
