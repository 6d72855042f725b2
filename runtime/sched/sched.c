/* SPDX-License-Identifier: MIT */
/* The dependency graph: ordering, readiness, running and completion of commands. */
#include "sched.h"

#include "../check.h"
#include "../event.h"
#include "../mem.h"
#include "../platform.h"
#include "../queue.h"

#include <stdlib.h>

cl_int lanes_check_wait_list(cl_context context, cl_uint num_events, const cl_event *events)
{
    LANES_CHECK((events == NULL) == (num_events == 0), CL_INVALID_EVENT_WAIT_LIST,
                "event_wait_list and num_events_in_wait_list disagree");
    for (cl_uint i = 0; i < num_events; i++)
        LANES_CHECK(lanes_event_valid(events[i]), CL_INVALID_EVENT_WAIT_LIST,
                    "event_wait_list holds an invalid event");
    for (cl_uint i = 0; i < num_events; i++)
        LANES_CHECK(events[i]->context == context, CL_INVALID_CONTEXT,
                    "an event of event_wait_list belongs to another context");
    return CL_SUCCESS;
}

cl_event lanes_command_create(cl_command_queue queue, cl_command_type type, lanes_command_fn run)
{
    cl_event e = lanes_event_alloc(queue->context, queue, type, CL_QUEUED);
    if (e)
        e->cmd.run = run;
    return e;
}

cl_int lanes_command_keep_mem(cl_event command, cl_mem mem)
{
    struct lanes_command *c = &command->cmd;
    if (c->num_kept == c->cap_kept) {
        unsigned cap = c->cap_kept * 2;
        cl_mem *kept = malloc(cap * sizeof *kept);
        if (!kept)
            return CL_OUT_OF_HOST_MEMORY;
        for (unsigned i = 0; i < c->num_kept; i++)
            kept[i] = c->kept[i];
        if (c->kept != c->kept_inline)
            free(c->kept);
        c->kept = kept;
        c->cap_kept = cap;
    }
    lanes_mem_keep(mem);
    c->kept[c->num_kept++] = mem;
    return CL_SUCCESS;
}

void lanes_command_discard(cl_event command)
{
    lanes_event_release(command);
}

/*
 * Readies a command: its body runs on a worker, or on an application thread
 * waiting for it; a native kernel (the application's code) on a worker only.
 */
static void execute(struct lanes_task *t);

static void make_ready(cl_event cmd)
{
    cmd->task.run = execute;
    if (cmd->type == CL_COMMAND_NATIVE_KERNEL)
        lanes_exec_submit_to_workers(&cmd->task);
    else
        lanes_exec_submit(&cmd->task);
}

/* One awaited event of `cmd` has ended. */
static void dependency_done(cl_event cmd, bool failed)
{
    if (failed)
        atomic_store(&cmd->failed_dep, true);
    if (atomic_fetch_sub_explicit(&cmd->pending, 1, memory_order_acq_rel) == 1)
        make_ready(cmd);
}

void lanes_event_finish(cl_event e, cl_int status)
{
    pthread_mutex_lock(&e->lock);
    atomic_store(&e->status, status);
    struct lanes_edge *waiters = e->waiters;
    e->waiters = NULL;
    struct lanes_event_callback *due = e->callbacks ? lanes_event_take_callbacks(e, status) : NULL;
    pthread_mutex_unlock(&e->lock);
    lanes_exec_wake_helpers(); /* threads waiting for `e` in lanes_event_wait */

    for (struct lanes_edge *edge = waiters, *next; edge; edge = next) {
        /* The waiter may run, end and free its edges once told: read first. */
        next = edge->next;
        cl_event waiter = edge->waiter;
        bool failed = status < 0 && edge->propagate;
        dependency_done(waiter, failed);
        lanes_event_unkeep(e); /* the edge's reference; the caller still holds one */
    }
    if (due)
        lanes_event_run_callbacks(e, due, status);
}

/*
 * Makes `cmd` wait for `dep` through `edge` unless `dep` has ended already.
 * Takes dep's lock; the caller holds the queue lock (the documented order).
 */
static void add_dependency(cl_event cmd, struct lanes_edge *edge, cl_event dep, bool propagate)
{
    pthread_mutex_lock(&dep->lock);
    cl_int s = atomic_load(&dep->status);
    if (s <= CL_COMPLETE) {
        pthread_mutex_unlock(&dep->lock);
        if (s < 0 && propagate)
            atomic_store(&cmd->failed_dep, true);
        return;
    }
    edge->waiter = cmd;
    edge->propagate = propagate;
    edge->next = dep->waiters;
    dep->waiters = edge;
    atomic_fetch_add_explicit(&cmd->pending, 1, memory_order_relaxed);
    lanes_event_keep(dep);
    pthread_mutex_unlock(&dep->lock);
}

/* Takes a completed command off its queue's list; drops the list's reference. */
static void unlink_command(cl_event cmd)
{
    cl_command_queue q = cmd->queue;
    pthread_mutex_lock(&q->lock);
    if (cmd->qprev)
        cmd->qprev->qnext = cmd->qnext;
    else
        q->head = cmd->qnext;
    if (cmd->qnext)
        cmd->qnext->qprev = cmd->qprev;
    else
        q->tail = cmd->qprev;
    if (q->last == cmd)
        q->last = NULL;
    if (q->barrier == cmd)
        q->barrier = NULL;
    if (--q->pending == 0)
        pthread_cond_broadcast(&q->idle);
    pthread_mutex_unlock(&q->lock);
    lanes_event_unkeep(cmd);
}

void lanes_command_complete(cl_event cmd, cl_int status)
{
    struct lanes_command *c = &cmd->cmd;
    /*
     * Let go of the memory objects first: once the event ends, the
     * application may expect its released buffers to be gone (their
     * destructor callbacks called) after clFinish or clWaitForEvents.
     */
    if (c->cleanup)
        c->cleanup(cmd);
    c->cleanup = NULL;
    for (unsigned i = 0; i < c->num_kept; i++)
        lanes_mem_unkeep(c->kept[i]);
    c->num_kept = 0;
    cl_ulong now = lanes_now_ns();
    cmd->times[LANES_T_END] = cmd->times[LANES_T_COMPLETE] = now;
    lanes_event_finish(cmd, status);
    unlink_command(cmd);
}

static void execute(struct lanes_task *t)
{
    cl_event cmd = (cl_event)((char *)t - offsetof(struct _cl_event, task));
    if (atomic_load(&cmd->failed_dep)) {
        lanes_command_complete(cmd, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        return;
    }
    cmd->times[LANES_T_START] = lanes_now_ns();
    lanes_event_advance(cmd, CL_RUNNING);
    cl_int status = cmd->cmd.run ? cmd->cmd.run(cmd) : CL_COMPLETE;
    if (status != LANES_COMMAND_PENDING)
        lanes_command_complete(cmd, status);
}

cl_int lanes_command_submit(cl_event cmd, cl_uint num_wait, const cl_event *wait,
                            enum lanes_order order, cl_event *event_ret, bool blocking)
{
    cl_command_queue q = cmd->queue;
    bool ooo = (q->properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0;
    bool all_previous = order != LANES_ORDER_COMMAND && num_wait == 0;

    pthread_mutex_lock(&q->lock);
    size_t n_edges = num_wait + 1;
    if (ooo && all_previous)
        n_edges = q->pending;
    struct lanes_edge *edges = n_edges ? calloc(n_edges, sizeof *edges) : NULL;
    if (n_edges && !edges) {
        pthread_mutex_unlock(&q->lock);
        lanes_command_discard(cmd);
        LANES_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the dependencies");
    }
    cmd->cmd.edges = edges;
    size_t k = 0;
    for (cl_uint i = 0; i < num_wait; i++)
        add_dependency(cmd, &edges[k++], wait[i], true);
    if (!ooo) {
        if (q->last)
            add_dependency(cmd, &edges[k++], q->last, all_previous);
    } else if (all_previous) {
        for (cl_event e = q->head; e; e = e->qnext)
            add_dependency(cmd, &edges[k++], e, true);
    } else if (q->barrier) {
        add_dependency(cmd, &edges[k++], q->barrier, false);
    }
    if (ooo && order == LANES_ORDER_BARRIER)
        q->barrier = cmd;
    q->last = cmd;
    cmd->qprev = q->tail;
    cmd->qnext = NULL;
    if (q->tail)
        q->tail->qnext = cmd;
    else
        q->head = cmd;
    q->tail = cmd;
    q->pending++;
    lanes_event_keep(cmd); /* the queue list's reference */
    /* Commands go to the scheduler at once: every enqueue is a flush. */
    cmd->times[LANES_T_SUBMIT] = lanes_now_ns();
    atomic_store(&cmd->status, CL_SUBMITTED);
    pthread_mutex_unlock(&q->lock);

    if (blocking)
        lanes_event_keep(cmd);
    if (event_ret)
        *event_ret = cmd; /* the creation reference becomes the application's */
    else
        lanes_event_release(cmd);
    /* Drop the submission guard: with nothing to wait for, it runs now. */
    dependency_done(cmd, false);
    if (!blocking)
        return CL_SUCCESS;
    cl_int s = lanes_event_wait(cmd);
    lanes_event_unkeep(cmd);
    LANES_CHECK(s >= 0, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                "the blocking command did not run: an event it waited for failed");
    return CL_SUCCESS;
}
