/* SPDX-License-Identifier: MIT */
/* The header every OpenCL object starts with, and the handle checks. */
#ifndef LANES_RUNTIME_OBJECT_H
#define LANES_RUNTIME_OBJECT_H

#include <CL/cl_icd.h>
#include <assert.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Tags that tell one kind of object from another (and from freed memory). */
enum lanes_magic {
    LANES_MAGIC_PLATFORM = 0x4c504c54u, /* 'LPLT' */
    LANES_MAGIC_DEVICE = 0x4c444556u,   /* 'LDEV' */
    LANES_MAGIC_CONTEXT = 0x4c435458u,  /* 'LCTX' */
    LANES_MAGIC_PROGRAM = 0x4c505247u,  /* 'LPRG' */
    LANES_MAGIC_KERNEL = 0x4c4b524eu,   /* 'LKRN' */
    LANES_MAGIC_QUEUE = 0x4c515545u,    /* 'LQUE' */
    LANES_MAGIC_EVENT = 0x4c45564eu,    /* 'LEVN' */
    LANES_MAGIC_MEM = 0x4c4d454du,      /* 'LMEM' */
    LANES_MAGIC_DEAD = 0xdeadbeefu,
};

/*
 * The ICD loader reads the dispatch pointer at offset 0 of every handle, so
 * it must come first; each object type static_asserts that it embeds this
 * header at offset 0.
 */
struct lanes_object {
    const cl_icd_dispatch *dispatch;
    uint32_t magic;
    atomic_uint refs;
};

#define LANES_OBJECT_FIRST(type)                                                                   \
    static_assert(offsetof(type, obj) == 0, #type " must start with its header")

/* The table every handle this driver returns points to (icd/dispatch.c). */
extern const cl_icd_dispatch lanes_dispatch;

/* Fills in the header of a new object with one reference. */
static inline void lanes_object_init(struct lanes_object *o, enum lanes_magic m)
{
    o->dispatch = &lanes_dispatch;
    o->magic = m;
    atomic_init(&o->refs, 1);
}

/* True when `o` is a live object of kind `m`. */
static inline bool lanes_object_is(const void *o, enum lanes_magic m)
{
    return o != NULL && ((const struct lanes_object *)o)->magic == m;
}

static inline void lanes_object_retain(struct lanes_object *o)
{
    atomic_fetch_add_explicit(&o->refs, 1, memory_order_relaxed);
}

/* Drops one reference; true when it was the last and the caller must free. */
static inline bool lanes_object_release(struct lanes_object *o)
{
    if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) != 1)
        return false;
    o->magic = LANES_MAGIC_DEAD;
    return true;
}

static inline cl_uint lanes_object_refs(const struct lanes_object *o)
{
    return atomic_load_explicit(&o->refs, memory_order_relaxed);
}

#endif
