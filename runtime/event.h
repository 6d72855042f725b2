/* SPDX-License-Identifier: MIT */
/* Events: user events and the commands of the queues (runtime/sched). */
#ifndef LANES_RUNTIME_EVENT_H
#define LANES_RUNTIME_EVENT_H

#include "exec/exec.h"
#include "object.h"
#include "sched/sched.h"

#include <pthread.h>

typedef void(CL_CALLBACK *lanes_event_notify)(cl_event event, cl_int status, void *user_data);

/* A callback registered with clSetEventCallback. */
struct lanes_event_callback {
    struct lanes_task task; /* runs it on a worker */
    struct lanes_event_callback *next;
    cl_event event;
    cl_int type;   /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
    cl_int status; /* what it is called with */
    lanes_event_notify fn;
    void *user_data;
};

/* One "command waits for event" link, stored in the event it waits for. */
struct lanes_edge {
    struct lanes_edge *next;
    cl_event waiter;
    bool propagate; /* an error of the event stops the waiter */
};

/* Profiling timestamps, in CL_PROFILING_COMMAND_* order. */
enum { LANES_T_QUEUED, LANES_T_SUBMIT, LANES_T_START, LANES_T_END, LANES_T_COMPLETE, LANES_T_N };

/* The body of a command and what it keeps alive (runtime/sched/sched.c). */
struct lanes_command {
    lanes_command_fn run;
    cl_mem kept_inline[2];
    cl_mem *kept; /* kept_inline or a heap array */
    unsigned num_kept, cap_kept;
    struct lanes_edge *edges;          /* this command's links into the events it waits for */
    void *data;                        /* freed at completion */
    void (*cleanup)(cl_event command); /* called at completion, before data is freed */
    union {
        struct {
            char *dst;
            const char *src;
            size_t size;
        } copy;
        struct {
            char *dst;
            const char *src;
            size_t region[3];
            size_t src_pitch[2], dst_pitch[2]; /* row, slice */
        } rect;
        struct {
            char *dst;
            size_t size, pattern_size;
            unsigned char pattern[128];
        } fill;
        struct {
            char *dst;
            size_t region[3];    /* bytes, rows, slices */
            size_t pitch[2];     /* row, slice */
            size_t pattern_size; /* one texel, up to 16 bytes */
            unsigned char pattern[16];
        } fill_rect;
        struct {
            void(CL_CALLBACK *fn)(void *);
            size_t num_mems;
            cl_mem *mems;    /* data; NULL entries allowed */
            size_t *offsets; /* where each mem's address goes in the args */
        } native;
    } u;
    struct lanes_range range; /* for bodies that run on several workers */
    atomic_int range_status;
};

struct _cl_event {
    struct lanes_object obj; /* refs: the application's references */
    atomic_uint keep;        /* the runtime's: 1 while refs > 0, plus one per holder */
    cl_context context;
    cl_command_queue queue; /* NULL for a user event */
    cl_command_type type;
    atomic_int status;
    cl_ulong times[LANES_T_N];
    pthread_mutex_t lock;                   /* guards the lists below and user_set */
    struct lanes_event_callback *callbacks; /* not called yet */
    struct lanes_edge *waiters;             /* commands waiting for this event */
    bool user_set;                          /* clSetUserEventStatus was called */
    /* Scheduling state of a command. */
    atomic_uint pending; /* events still awaited, plus one until submitted */
    atomic_bool failed_dep;
    struct lanes_task task;
    cl_event qprev, qnext; /* in the queue's list of incomplete commands */
    struct lanes_command cmd;
};
LANES_OBJECT_FIRST(struct _cl_event);

/* True when `e` is a live event the application may use. */
static inline bool lanes_event_valid(cl_event e)
{
    return lanes_object_is(e, LANES_KIND_EVENT);
}

/* Allocates an event of `context` (and `queue`, NULL for a user event). */
cl_event lanes_event_alloc(cl_context context, cl_command_queue queue, cl_command_type type,
                           cl_int status);

/* Runtime references: keep alive without counting as an application reference. */
void lanes_event_keep(cl_event e);
void lanes_event_unkeep(cl_event e);

/* Drops an application reference. */
void lanes_event_release(cl_event e);

/* Waits until `e` has ended; returns its final status. Blocks the caller only. */
cl_int lanes_event_wait(cl_event e);

/*
 * Records a status change to CL_SUBMITTED or CL_RUNNING and calls the
 * callbacks registered for it. No lock may be held by the caller.
 */
void lanes_event_advance(cl_event e, cl_int status);

/*
 * Calls each callback of `list` with `status` (negative) or its own type:
 * inline on a worker, else on a worker through the pool. Keeps `e` alive
 * until each has returned.
 */
void lanes_event_run_callbacks(cl_event e, struct lanes_event_callback *list, cl_int status);

/* Takes from e->callbacks those due once the status is `status`; e->lock held. */
struct lanes_event_callback *lanes_event_take_callbacks(cl_event e, cl_int status);

#endif
