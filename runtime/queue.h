/* SPDX-License-Identifier: MIT */
/* Command queues: where commands are ordered before the scheduler runs them. */
#ifndef LANES_RUNTIME_QUEUE_H
#define LANES_RUNTIME_QUEUE_H

#include "object.h"

#include <pthread.h>

struct _cl_command_queue {
    struct lanes_object obj; /* refs: the application's references */
    atomic_uint keep;        /* the runtime's: 1 while refs > 0, plus one per event */
    cl_context context;
    cl_device_id device;
    cl_command_queue_properties properties;
    /* The CL_QUEUE_PROPERTIES_ARRAY as given, with its 0; none: count 0. */
    cl_queue_properties *props;
    size_t num_props;
    pthread_mutex_t lock; /* guards everything below */
    pthread_cond_t idle;  /* broadcast when no command is left */
    cl_event head, tail;  /* incomplete commands, in enqueue order */
    size_t pending;       /* how many */
    cl_event last;        /* the newest incomplete command */
    cl_event barrier;     /* the newest incomplete barrier (out-of-order) */
};
LANES_OBJECT_FIRST(struct _cl_command_queue);

/* True when `q` is a live command-queue. */
static inline bool lanes_queue_valid(cl_command_queue q)
{
    return lanes_object_is(q, LANES_KIND_QUEUE);
}

/* Creates a queue from validated arguments; NULL when out of memory. */
cl_command_queue lanes_queue_create(cl_context context, cl_device_id device,
                                    cl_command_queue_properties properties,
                                    const cl_queue_properties *props, size_t num_props);

/* Runtime references (events of the queue hold one each). */
void lanes_queue_keep(cl_command_queue q);
void lanes_queue_unkeep(cl_command_queue q);

/* Drops an application reference. */
void lanes_queue_release(cl_command_queue q);

/* Blocks until every command enqueued so far has completed. */
void lanes_queue_finish(cl_command_queue q);

#endif
