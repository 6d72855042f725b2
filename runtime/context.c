/* SPDX-License-Identifier: MIT */
#include "context.h"

#include "platform.h"
#include "svm.h"

#include <stdlib.h>
#include <string.h>

bool lanes_context_has_device(cl_context c, cl_device_id d)
{
    for (cl_uint i = 0; i < c->num_devices; i++)
        if (c->devices[i] == d)
            return true;
    return false;
}

cl_context lanes_context_create(const cl_context_properties *properties, size_t num_properties,
                                cl_bool interop_user_sync, cl_uint num_devices,
                                const cl_device_id *devices, lanes_context_notify notify,
                                void *notify_data)
{
    cl_context c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->devices = malloc(num_devices * sizeof *c->devices);
    c->properties = num_properties ? malloc(num_properties * sizeof *c->properties) : NULL;
    if (!c->devices || (num_properties && !c->properties) ||
        !lanes_object_init(&c->obj, LANES_KIND_CONTEXT)) {
        free(c->devices);
        free(c->properties);
        free(c);
        return NULL;
    }
    /* Devices named twice count once. */
    for (cl_uint i = 0; i < num_devices; i++)
        if (!lanes_context_has_device(c, devices[i]))
            c->devices[c->num_devices++] = devices[i];
    for (cl_uint i = 0; i < c->num_devices; i++)
        clRetainDevice(c->devices[i]);
    if (num_properties)
        memcpy(c->properties, properties, num_properties * sizeof *c->properties);
    c->num_properties = num_properties;
    c->interop_user_sync = interop_user_sync;
    c->notify = notify;
    c->notify_data = notify_data;
    pthread_mutex_init(&c->lock, NULL);
    atomic_init(&c->keep, 1);
    return c;
}

void lanes_context_retain(cl_context c)
{
    atomic_fetch_add_explicit(&c->keep, 1, memory_order_relaxed);
}

void lanes_context_retain_handle(cl_context c)
{
    if (lanes_object_retain_handle(&c->obj))
        lanes_context_retain(c);
}

bool lanes_context_release_handle(cl_context c)
{
    int last = lanes_object_release_handle(&c->obj);
    if (last > 0)
        lanes_context_release(c);
    return last >= 0;
}

void lanes_context_release(cl_context c)
{
    if (atomic_fetch_sub_explicit(&c->keep, 1, memory_order_acq_rel) != 1)
        return;
    lanes_object_discard(&c->obj); /* the handle turns invalid when the object goes */
    /* Newest first, as the specification orders them; no lock is held. */
    for (struct lanes_context_destructor_cb *cb = c->destructors, *next; cb; cb = next) {
        next = cb->next;
        cb->fn(c, cb->user_data);
        free(cb);
    }
    lanes_svm_free_all(c);
    for (cl_uint i = 0; i < c->num_devices; i++)
        clReleaseDevice(c->devices[i]);
    pthread_mutex_destroy(&c->lock);
    free(c->devices);
    free(c->properties);
    free(c);
}

cl_int lanes_context_add_destructor(cl_context c, lanes_context_destructor fn, void *user_data)
{
    struct lanes_context_destructor_cb *cb = malloc(sizeof *cb);
    if (!cb)
        return CL_OUT_OF_HOST_MEMORY;
    cb->fn = fn;
    cb->user_data = user_data;
    pthread_mutex_lock(&c->lock);
    cb->next = c->destructors;
    c->destructors = cb;
    pthread_mutex_unlock(&c->lock);
    return CL_SUCCESS;
}
