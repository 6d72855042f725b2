/* SPDX-License-Identifier: MIT */
/*
 * The live objects, by address and kind: a handle is checked by looking it
 * up here, never by reading through it, so that garbage, a released handle
 * or a handle of another kind is refused without touching its memory.
 *
 * Threading: lookups take no lock and may run at any time, from any thread;
 * adding and removing lock one shard of the set. A lookup racing with the
 * removal of the same object may see it either way (the application is then
 * using a handle while releasing it).
 */
#ifndef LANES_RUNTIME_REGISTRY_H
#define LANES_RUNTIME_REGISTRY_H

#include <stdbool.h>
#include <stdint.h>

/* The kinds of object; a kind fits in the low 3 bits of an object's (8-aligned) address. */
enum lanes_kind {
    LANES_KIND_PLATFORM,
    LANES_KIND_DEVICE,
    LANES_KIND_CONTEXT,
    LANES_KIND_PROGRAM,
    LANES_KIND_KERNEL,
    LANES_KIND_QUEUE,
    LANES_KIND_EVENT,
    LANES_KIND_MEM,
};

/* Records `o` as a live object of kind `k`; false when out of memory. */
bool lanes_registry_add(const void *o, enum lanes_kind k);

/* Forgets `o` (of kind `k`); nothing happens when it is not recorded. */
void lanes_registry_remove(const void *o, enum lanes_kind k);

/* True when `o` is a live object of kind `k`; never dereferences `o`. */
bool lanes_registry_has(const void *o, enum lanes_kind k);

#endif
