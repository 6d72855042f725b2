/* SPDX-License-Identifier: MIT */
/*
 * The dependency graph. Every enqueued command is an event (struct
 * _cl_event, runtime/event.h) with a body: a run function and the objects
 * it uses. A command becomes ready when its wait list is complete and its
 * queue's order allows; ready commands go to the worker pool
 * (runtime/exec); completion, or an error, propagates to the commands that
 * wait on it.
 *
 * Order within a queue:
 * - in-order: each command waits for the one enqueued before it;
 * - out-of-order: a command waits for its wait list and the newest barrier;
 *   a marker or barrier with an empty wait list waits for every command
 *   enqueued before it that has not completed.
 *
 * Errors: a command whose wait list holds an event that ended with a
 * negative status does not run; it ends with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, and so on down the graph.
 * A marker or barrier with an empty wait list treats every command it waits
 * for as its wait list. Queue order alone (in-order predecessor, barrier
 * seen by a later command) orders execution but passes no error on.
 *
 * Lifetime: a command keeps its queue, and every memory object it uses,
 * until it completes; the queue keeps its incomplete commands.
 *
 * Locking: a queue's lock is taken before an event's lock, never after;
 * neither is held while a command body or a callback runs.
 */
#ifndef LANES_RUNTIME_SCHED_H
#define LANES_RUNTIME_SCHED_H

#include <CL/cl.h>
#include <stdbool.h>

/* Returned by a command body that completes later via lanes_command_complete. */
#define LANES_COMMAND_PENDING 1

/*
 * The body of a command: returns CL_COMPLETE, a negative error status, or
 * LANES_COMMAND_PENDING. Runs on a worker with no runtime lock held.
 */
typedef cl_int (*lanes_command_fn)(cl_event command);

/* How a command is ordered against the other commands of its queue. */
enum lanes_order {
    LANES_ORDER_COMMAND, /* an ordinary command */
    LANES_ORDER_MARKER,  /* clEnqueueMarker*: no wait list means every earlier command */
    LANES_ORDER_BARRIER, /* the same, and every later command waits for it */
};

/*
 * Checks an event_wait_list against the specification: CL_INVALID_EVENT_WAIT_LIST
 * for a count/list mismatch or a handle that is not a live event,
 * CL_INVALID_CONTEXT for an event of another context.
 */
cl_int lanes_check_wait_list(cl_context context, cl_uint num_events, const cl_event *events);

/* A new command of `type` for `queue` running `run`; NULL when out of memory. */
cl_event lanes_command_create(cl_command_queue queue, cl_command_type type, lanes_command_fn run);

/*
 * Keeps `mem` alive until the command completes (and releases it then);
 * CL_OUT_OF_HOST_MEMORY on failure.
 */
cl_int lanes_command_keep_mem(cl_event command, cl_mem mem);

/* Frees a command that was never submitted (an entry failing late). */
void lanes_command_discard(cl_event command);

/*
 * Submits a command: it waits for `wait` and the queue order, then runs.
 * Hands the caller an event through `event_ret` when not NULL. When
 * `blocking`, returns once the command has completed, with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it did not run. The
 * command belongs to the scheduler after this call, whatever it returns.
 * Thread-safe; takes the queue lock and the locks of the waited-for events.
 */
cl_int lanes_command_submit(cl_event command, cl_uint num_wait, const cl_event *wait,
                            enum lanes_order order, cl_event *event_ret, bool blocking);

/*
 * Completes a command whose body returned LANES_COMMAND_PENDING, from any
 * thread holding no runtime lock (typically the `done` of an exec range).
 */
void lanes_command_complete(cl_event command, cl_int status);

/*
 * Ends an event: records `status` (CL_COMPLETE or negative), wakes its
 * waiters, readies the commands that wait on it and runs its callbacks.
 * The caller holds a reference that keeps `e` alive through the call.
 */
void lanes_event_finish(cl_event e, cl_int status);

#endif
