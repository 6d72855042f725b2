/* SPDX-License-Identifier: MIT */
/* Event entries, validating in the order of the OpenCL 3.0 specification. */
#include "check.h"
#include "context.h"
#include "event.h"
#include "info.h"
#include "platform.h"
#include "queue.h"

#include <stdlib.h>

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    cl_event e = lanes_event_alloc(context, NULL, CL_COMMAND_USER, CL_SUBMITTED);
    LANES_CHECK_OBJ(e, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the event");
    e->times[LANES_T_SUBMIT] = e->times[LANES_T_QUEUED];
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return e;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status)
{
    LANES_CHECK(lanes_event_valid(event) && event->type == CL_COMMAND_USER && !event->queue,
                CL_INVALID_EVENT, "not a live user event");
    LANES_CHECK(execution_status <= CL_COMPLETE, CL_INVALID_VALUE,
                "execution_status is neither CL_COMPLETE nor negative");
    pthread_mutex_lock(&event->lock);
    bool was_set = event->user_set;
    event->user_set = true;
    pthread_mutex_unlock(&event->lock);
    LANES_CHECK(!was_set, CL_INVALID_OPERATION, "the status was set already");
    /* Another thread may drop the last reference while the waiters are told. */
    lanes_event_keep(event);
    event->times[LANES_T_START] = event->times[LANES_T_END] = event->times[LANES_T_COMPLETE] =
        lanes_now_ns();
    lanes_event_finish(event, execution_status);
    lanes_event_unkeep(event);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list)
{
    LANES_CHECK(num_events && event_list, CL_INVALID_VALUE, "no events given");
    for (cl_uint i = 0; i < num_events; i++)
        LANES_CHECK(lanes_event_valid(event_list[i]), CL_INVALID_EVENT, "not a live event");
    for (cl_uint i = 1; i < num_events; i++)
        LANES_CHECK(event_list[i]->context == event_list[0]->context, CL_INVALID_CONTEXT,
                    "the events belong to different contexts");
    /* Commands are submitted when enqueued, so no queue needs a flush. */
    bool failed = false;
    for (cl_uint i = 0; i < num_events; i++)
        failed |= lanes_event_wait(event_list[i]) < 0;
    LANES_CHECK(!failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                "an event ended with an error");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name,
                                               size_t param_value_size, void *param_value,
                                               size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_event_valid(event), CL_INVALID_EVENT, "not a live event");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    switch (param_name) {
    case CL_EVENT_COMMAND_QUEUE: return LANES_INFO(out, cl_command_queue, event->queue);
    case CL_EVENT_CONTEXT: return LANES_INFO(out, cl_context, event->context);
    case CL_EVENT_COMMAND_TYPE: return LANES_INFO(out, cl_command_type, event->type);
    case CL_EVENT_COMMAND_EXECUTION_STATUS:
        return LANES_INFO(out, cl_int, atomic_load(&event->status));
    case CL_EVENT_REFERENCE_COUNT: return LANES_INFO(out, cl_uint, lanes_object_refs(&event->obj));
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event)
{
    LANES_CHECK(lanes_event_valid(event), CL_INVALID_EVENT, "not a live event");
    lanes_object_retain(&event->obj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event)
{
    LANES_CHECK(lanes_event_valid(event), CL_INVALID_EVENT, "not a live event");
    lanes_event_release(event);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event event,
                                                   cl_int command_exec_callback_type,
                                                   lanes_event_notify pfn_notify, void *user_data)
{
    LANES_CHECK(lanes_event_valid(event), CL_INVALID_EVENT, "not a live event");
    LANES_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_event_notify is NULL");
    LANES_CHECK(command_exec_callback_type == CL_SUBMITTED ||
                    command_exec_callback_type == CL_RUNNING ||
                    command_exec_callback_type == CL_COMPLETE,
                CL_INVALID_VALUE, "not CL_SUBMITTED, CL_RUNNING or CL_COMPLETE");
    struct lanes_event_callback *cb = calloc(1, sizeof *cb);
    LANES_CHECK(cb, CL_OUT_OF_HOST_MEMORY, "allocating the callback");
    cb->type = command_exec_callback_type;
    cb->fn = pfn_notify;
    cb->user_data = user_data;
    pthread_mutex_lock(&event->lock);
    cl_int status = atomic_load(&event->status);
    bool reached = status <= command_exec_callback_type;
    if (!reached) {
        cb->next = event->callbacks;
        event->callbacks = cb;
    }
    pthread_mutex_unlock(&event->lock);
    /* A status reached already: the callback is due now. */
    if (reached)
        lanes_event_run_callbacks(event, cb, status);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event,
                                                        cl_profiling_info param_name,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_event_valid(event), CL_INVALID_EVENT, "not a live event");
    LANES_CHECK(event->queue, CL_PROFILING_INFO_NOT_AVAILABLE, "a user event has no profile");
    LANES_CHECK(event->queue->properties & CL_QUEUE_PROFILING_ENABLE,
                CL_PROFILING_INFO_NOT_AVAILABLE, "the queue does not profile");
    LANES_CHECK(atomic_load(&event->status) == CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE,
                "the command has not completed");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    switch (param_name) {
    case CL_PROFILING_COMMAND_QUEUED:
    case CL_PROFILING_COMMAND_SUBMIT:
    case CL_PROFILING_COMMAND_START:
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE:
        return LANES_INFO(out, cl_ulong, event->times[param_name - CL_PROFILING_COMMAND_QUEUED]);
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}
