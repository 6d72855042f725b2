/* SPDX-License-Identifier: MIT */
/* Event objects: lifetime, waiting, status changes and callbacks. */
#include "event.h"

#include "context.h"
#include "mem.h"
#include "platform.h"
#include "queue.h"

#include <stdlib.h>

cl_event lanes_event_alloc(cl_context context, cl_command_queue queue, cl_command_type type,
                           cl_int status)
{
    cl_event e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (!lanes_object_init(&e->obj, LANES_KIND_EVENT)) {
        free(e);
        return NULL;
    }
    atomic_init(&e->keep, 1);
    e->context = context;
    lanes_context_retain(context);
    e->queue = queue;
    if (queue)
        lanes_queue_keep(queue);
    e->type = type;
    atomic_init(&e->status, status);
    e->times[LANES_T_QUEUED] = lanes_now_ns();
    pthread_mutex_init(&e->lock, NULL);
    atomic_init(&e->pending, 1);
    atomic_init(&e->failed_dep, false);
    atomic_init(&e->cmd.range_status, CL_COMPLETE);
    e->cmd.kept = e->cmd.kept_inline;
    e->cmd.cap_kept = sizeof e->cmd.kept_inline / sizeof *e->cmd.kept_inline;
    return e;
}

void lanes_event_keep(cl_event e)
{
    atomic_fetch_add_explicit(&e->keep, 1, memory_order_relaxed);
}

void lanes_event_unkeep(cl_event e)
{
    if (atomic_fetch_sub_explicit(&e->keep, 1, memory_order_acq_rel) != 1)
        return;
    /* Nothing refers to the event any more: every callback has run. */
    if (e->cmd.cleanup) /* a command discarded before it ran */
        e->cmd.cleanup(e);
    for (unsigned i = 0; i < e->cmd.num_kept; i++)
        lanes_mem_unkeep(e->cmd.kept[i]);
    if (e->cmd.kept != e->cmd.kept_inline)
        free(e->cmd.kept);
    free(e->cmd.edges);
    free(e->cmd.data);
    pthread_mutex_destroy(&e->lock);
    cl_command_queue q = e->queue;
    cl_context c = e->context;
    lanes_object_discard(&e->obj); /* in case its last reference was never dropped */
    free(e);
    if (q)
        lanes_queue_unkeep(q);
    lanes_context_release(c);
}

void lanes_event_release(cl_event e)
{
    if (lanes_object_release(&e->obj))
        lanes_event_unkeep(e);
}

static bool ended(void *e)
{
    return atomic_load(&((cl_event)e)->status) <= CL_COMPLETE;
}

cl_int lanes_event_wait(cl_event e)
{
    /* Run queued work while there is some; sleep only when there is none. */
    lanes_exec_help_until(ended, e);
    /*
     * The status is stored under the event's lock, before the ending thread
     * takes its waiters and callbacks: return once that thread has let go
     * of it, as a wait on the event's lock always did.
     */
    pthread_mutex_lock(&e->lock);
    cl_int s = atomic_load(&e->status);
    pthread_mutex_unlock(&e->lock);
    return s;
}

struct lanes_event_callback *lanes_event_take_callbacks(cl_event e, cl_int status)
{
    struct lanes_event_callback *due = NULL, **p = &e->callbacks;
    while (*p) {
        struct lanes_event_callback *cb = *p;
        if (status <= cb->type) {
            *p = cb->next;
            cb->next = due;
            due = cb;
        } else {
            p = &cb->next;
        }
    }
    return due;
}

static void call(struct lanes_event_callback *cb)
{
    cl_event e = cb->event;
    cb->fn(e, cb->status, cb->user_data);
    free(cb);
    lanes_event_unkeep(e);
}

static void call_task(struct lanes_task *t)
{
    call((struct lanes_event_callback *)((char *)t - offsetof(struct lanes_event_callback, task)));
}

/*
 * Callbacks are tasks of their own, run by workers only: never on an
 * application thread helping in a wait, and never inline in the command
 * whose status changed, so a callback that blocks (say, on a lock the
 * thread in clFinish holds) holds up no command; the waiting thread can run
 * the rest of the queue itself.
 */
void lanes_event_run_callbacks(cl_event e, struct lanes_event_callback *list, cl_int status)
{
    for (struct lanes_event_callback *cb = list, *next; cb; cb = next) {
        next = cb->next;
        cb->status = status < 0 ? status : cb->type;
        cb->event = e;
        lanes_event_keep(e);
        cb->task.run = call_task;
        lanes_exec_submit_to_workers(&cb->task);
    }
}

void lanes_event_advance(cl_event e, cl_int status)
{
    pthread_mutex_lock(&e->lock);
    atomic_store(&e->status, status);
    struct lanes_event_callback *due = e->callbacks ? lanes_event_take_callbacks(e, status) : NULL;
    pthread_mutex_unlock(&e->lock);
    if (due)
        lanes_event_run_callbacks(e, due, status);
}
