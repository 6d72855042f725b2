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

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The kinds of object; a kind's tag (its low 3 bits) fits in the low bits of
 * an object's (8-aligned) address. The platform lives as long as the process
 * and is never recorded, so the sampler shares its tag 0.
 */
enum lanes_kind {
    LANES_KIND_PLATFORM,
    LANES_KIND_DEVICE,
    LANES_KIND_CONTEXT,
    LANES_KIND_PROGRAM,
    LANES_KIND_KERNEL,
    LANES_KIND_QUEUE,
    LANES_KIND_EVENT,
    LANES_KIND_MEM,
    LANES_KIND_SAMPLER,
};

/* The tag of kind `k` in a recorded word. */
#define LANES_KIND_TAG(k) ((uintptr_t)7 & (uintptr_t)(k))

/* Records `o` as a live object of kind `k`; false when out of memory. */
bool lanes_registry_add(const void *o, enum lanes_kind k);

/* Forgets `o` (of kind `k`); nothing happens when it is not recorded. */
void lanes_registry_remove(const void *o, enum lanes_kind k);

/*
 * What the lookup reads, here so that its first probe is inlined into
 * every API entry: the two calls a check took cost as much as the lookup.
 * Only registry.c writes them.
 */
#define LANES_REGISTRY_SHARD_BITS 6

/* One shard's open-addressing table of words (address | kind), probed linearly. */
struct lanes_registry_table {
    size_t mask; /* slots - 1, slots a power of two */
    struct lanes_registry_table *retired;
    _Atomic uintptr_t slot[];
};

/*
 * What a lookup reads of each shard, apart from the lock and counts that
 * every add and remove writes, so that lookups do not share their cache lines.
 */
struct lanes_registry_head {
    _Atomic unsigned seq; /* odd while the table is rebuilt in place */
    _Atomic(struct lanes_registry_table *) table;
};

extern struct lanes_registry_head lanes_registry_heads[1u << LANES_REGISTRY_SHARD_BITS];

static inline uint64_t lanes_registry_hash(const void *o)
{
    return (uint64_t)(uintptr_t)o * 0x9e3779b97f4a7c15u;
}

/* The shard of a hash: its top bits. */
static inline size_t lanes_registry_shard(uint64_t h)
{
    return (size_t)(h >> (64 - LANES_REGISTRY_SHARD_BITS));
}

/* The first slot to probe: bits of the hash the shard index does not use. */
static inline size_t lanes_registry_start(uint64_t h, const struct lanes_registry_table *t)
{
    return (size_t)(h >> 16) & t->mask;
}

/*
 * The whole lookup, for a key not in the first slot of its probe sequence:
 * each slot up to an empty one, again while the shard's sequence count says
 * a rebuild overlapped.
 */
__attribute__((cold)) bool lanes_registry_has_slow(const void *o, enum lanes_kind k);

/*
 * True when `o` is a live object of kind `k`; never dereferences `o`.
 * A key found is live: a table, current or retired, only ever holds live
 * keys (and a retired one those live when it was retired, which only a
 * lookup racing with their removal can see). So the first slot probed is
 * read here with no sequence count, and only a key elsewhere (displaced, or
 * moved by a rebuild, or not live) pays for the loop, the sequence count
 * and a call.
 */
static inline bool lanes_registry_has(const void *o, enum lanes_kind k)
{
    if (!o || ((uintptr_t)o & 7))
        return false;
    uint64_t h = lanes_registry_hash(o);
    const struct lanes_registry_table *t = atomic_load_explicit(
        &lanes_registry_heads[lanes_registry_shard(h)].table, memory_order_acquire);
    uintptr_t first =
        atomic_load_explicit(&t->slot[lanes_registry_start(h, t)], memory_order_acquire);
    if (__builtin_expect(first == ((uintptr_t)o | LANES_KIND_TAG(k)), 1))
        return true;
    return lanes_registry_has_slow(o, k);
}

#endif
