/* SPDX-License-Identifier: MIT */
/* The header every OpenCL object starts with, and the handle checks. */
#ifndef LANES_RUNTIME_OBJECT_H
#define LANES_RUNTIME_OBJECT_H

#include "registry.h"

#include <CL/cl_icd.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The ICD loader reads the dispatch pointer at offset 0 of every handle, so
 * it must come first; each object type static_asserts that it embeds this
 * header at offset 0.
 */
struct lanes_object {
    const cl_icd_dispatch *dispatch;
    enum lanes_kind kind;
    atomic_uint refs;
};

#define LANES_OBJECT_FIRST(type)                                                                   \
    static_assert(offsetof(type, obj) == 0, #type " must start with its header")

/* The table every handle this driver returns points to (icd/dispatch.c). */
extern const cl_icd_dispatch lanes_dispatch;

/*
 * Fills in the header of a new object with one reference and records it
 * as live; false when out of memory (the object is then not recorded).
 */
__attribute__((warn_unused_result)) static inline bool lanes_object_init(struct lanes_object *o,
                                                                         enum lanes_kind k)
{
    o->dispatch = &lanes_dispatch;
    o->kind = k;
    atomic_init(&o->refs, 1);
    return lanes_registry_add(o, k);
}

/* Fills in the header of an object that lives as long as the process, which is not recorded. */
static inline void lanes_object_init_static(struct lanes_object *o, enum lanes_kind k)
{
    o->dispatch = &lanes_dispatch;
    o->kind = k;
    atomic_init(&o->refs, 1);
}

/* Forgets an object whose lanes_object_init succeeded but which is freed unreleased. */
static inline void lanes_object_discard(struct lanes_object *o)
{
    lanes_registry_remove(o, o->kind);
}

/* True when `o` is a live object of kind `k`: looked up, never read through. */
static inline bool lanes_object_is(const void *o, enum lanes_kind k)
{
    return lanes_registry_has(o, k);
}

static inline void lanes_object_retain(struct lanes_object *o)
{
    atomic_fetch_add_explicit(&o->refs, 1, memory_order_relaxed);
}

/*
 * Drops one reference; true when it was the last and the caller must free.
 * The handle is then invalid: every API entry refuses it.
 */
static inline bool lanes_object_release(struct lanes_object *o)
{
    if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) != 1)
        return false;
    lanes_registry_remove(o, o->kind);
    return true;
}

/*
 * For objects the runtime keeps apart from the application (contexts and
 * programs, kept by what was made from them): the handle stays valid while
 * the object exists, since an application may get it back from a query
 * (CL_QUEUE_CONTEXT, CL_KERNEL_PROGRAM) after its own last release and use
 * or retain it again. The application's count starts again from 0 on a
 * retain (true: take the application's share of the runtime's count again)
 * and a release at 0 is refused (false), so releasing once too often can
 * never drop a reference that something else holds.
 */
static inline bool lanes_object_retain_handle(struct lanes_object *o)
{
    return atomic_fetch_add_explicit(&o->refs, 1, memory_order_acq_rel) == 0;
}

/* -1: the application holds no reference; 1: it dropped its last; 0: otherwise. */
static inline int lanes_object_release_handle(struct lanes_object *o)
{
    unsigned r = atomic_load_explicit(&o->refs, memory_order_relaxed);
    do {
        if (r == 0)
            return -1;
    } while (!atomic_compare_exchange_weak_explicit(&o->refs, &r, r - 1, memory_order_acq_rel,
                                                    memory_order_relaxed));
    return r == 1;
}

static inline cl_uint lanes_object_refs(const struct lanes_object *o)
{
    return atomic_load_explicit(&o->refs, memory_order_relaxed);
}

#endif
