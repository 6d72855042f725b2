/* SPDX-License-Identifier: MIT */
/* Contexts: a set of devices, properties and callbacks. */
#ifndef LANES_RUNTIME_CONTEXT_H
#define LANES_RUNTIME_CONTEXT_H

#include "object.h"

#include <pthread.h>

typedef void(CL_CALLBACK *lanes_context_notify)(const char *errinfo, const void *private_info,
                                                size_t cb, void *user_data);
typedef void(CL_CALLBACK *lanes_context_destructor)(cl_context context, void *user_data);

struct lanes_context_destructor_cb {
    struct lanes_context_destructor_cb *next; /* the one registered before */
    lanes_context_destructor fn;
    void *user_data;
};

struct _cl_context {
    struct lanes_object obj; /* refs: the application's references; valid while it exists */
    atomic_uint keep;        /* the runtime's: 1 while refs > 0, plus one per object made in it */
    cl_uint num_devices;
    cl_device_id *devices;
    /* The properties as given, with their terminating 0; none: count 0. */
    cl_context_properties *properties;
    size_t num_properties;
    cl_bool interop_user_sync;
    lanes_context_notify notify;
    void *notify_data;
    pthread_mutex_t lock;                            /* guards destructors and svm */
    struct lanes_context_destructor_cb *destructors; /* newest first */
    struct lanes_svm_alloc *svm;                     /* clSVMAlloc's allocations (svm.h) */
};
LANES_OBJECT_FIRST(struct _cl_context);

/* True when `c` is a live context. */
static inline bool lanes_context_valid(cl_context c)
{
    return lanes_object_is(c, LANES_KIND_CONTEXT);
}

/* True when `d` is one of the context's devices. */
bool lanes_context_has_device(cl_context c, cl_device_id d);

/* Creates a context after its arguments were validated; NULL when out of memory. */
cl_context lanes_context_create(const cl_context_properties *properties, size_t num_properties,
                                cl_bool interop_user_sync, cl_uint num_devices,
                                const cl_device_id *devices, lanes_context_notify notify,
                                void *notify_data);

/*
 * The runtime's references (queues, memory objects, programs and events
 * made in the context keep it): an application that releases the context
 * once too often makes its handle invalid, never frees it under them.
 */
void lanes_context_retain(cl_context c);

/* Drops one of the runtime's references; the last runs the destructor callbacks and frees. */
void lanes_context_release(cl_context c);

/* clRetainContext, clReleaseContext (object.h); the latter false when the application holds none.
 */
void lanes_context_retain_handle(cl_context c);
bool lanes_context_release_handle(cl_context c);

/* Registers a callback run when the context is destroyed; CL_OUT_OF_HOST_MEMORY on failure. */
cl_int lanes_context_add_destructor(cl_context c, lanes_context_destructor fn, void *user_data);

#endif
