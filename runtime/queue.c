/* SPDX-License-Identifier: MIT */
/* Command-queue objects: lifetime and waiting; ordering lives in sched/sched.c. */
#include "queue.h"

#include "context.h"
#include "event.h"

#include <stdlib.h>
#include <string.h>

cl_command_queue lanes_queue_create(cl_context context, cl_device_id device,
                                    cl_command_queue_properties properties,
                                    const cl_queue_properties *props, size_t num_props)
{
    cl_command_queue q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    if (num_props) {
        q->props = malloc(num_props * sizeof *q->props);
        if (!q->props) {
            free(q);
            return NULL;
        }
        memcpy(q->props, props, num_props * sizeof *q->props);
    }
    if (!lanes_object_init(&q->obj, LANES_KIND_QUEUE)) {
        free(q->props);
        free(q);
        return NULL;
    }
    atomic_init(&q->keep, 1);
    q->num_props = num_props;
    q->context = context;
    lanes_context_retain(context);
    q->device = device;
    q->properties = properties;
    pthread_mutex_init(&q->lock, NULL);
    pthread_cond_init(&q->idle, NULL);
    return q;
}

void lanes_queue_keep(cl_command_queue q)
{
    atomic_fetch_add_explicit(&q->keep, 1, memory_order_relaxed);
}

void lanes_queue_unkeep(cl_command_queue q)
{
    if (atomic_fetch_sub_explicit(&q->keep, 1, memory_order_acq_rel) != 1)
        return;
    /* No event of the queue is left, so no command either. */
    cl_context c = q->context;
    pthread_cond_destroy(&q->idle);
    pthread_mutex_destroy(&q->lock);
    free(q->props);
    lanes_object_discard(&q->obj); /* in case its last reference was never dropped */
    free(q);
    lanes_context_release(c);
}

void lanes_queue_release(cl_command_queue q)
{
    /* Commands were submitted as they were enqueued: the implicit flush is done. */
    if (lanes_object_release(&q->obj))
        lanes_queue_unkeep(q);
}

void lanes_queue_finish(cl_command_queue q)
{
    /*
     * A marker waits for exactly the commands enqueued so far, so commands
     * other threads keep enqueueing cannot hold this call up.
     */
    cl_event marker = lanes_command_create(q, CL_COMMAND_MARKER, NULL);
    if (marker) {
        cl_event e = NULL;
        if (lanes_command_submit(marker, 0, NULL, LANES_ORDER_MARKER, &e, false) == CL_SUCCESS) {
            lanes_event_wait(e);
            lanes_event_release(e);
            return;
        }
    }
    /* Out of memory: wait for the queue to drain instead. */
    pthread_mutex_lock(&q->lock);
    while (q->pending)
        pthread_cond_wait(&q->idle, &q->lock);
    pthread_mutex_unlock(&q->lock);
}
