/* SPDX-License-Identifier: MIT */
/*
 * The set of live objects: 64 shards, each an open-addressing table of
 * words (address | kind) probed linearly. Lookups read the words with no
 * lock, so a table a lookup may be reading is never freed: a shard that
 * outgrows its table publishes a larger one and keeps the old (the tables
 * kept add up to less than the live one). Removal leaves a tombstone; when
 * tombstones crowd the table it is rebuilt in place, inside a sequence
 * count that makes lookups overlapping the rebuild start again.
 */
#include "registry.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define SHARD_BITS 6
#define MIN_SLOTS 16
#define EMPTY ((uintptr_t)0)
#define TOMBSTONE ((uintptr_t)1) /* never an object: addresses are 8-aligned and not NULL */

struct table {
    size_t mask; /* slots - 1, slots a power of two */
    struct table *retired;
    _Atomic uintptr_t slot[];
};

struct shard {
    _Alignas(64) _Atomic unsigned seq; /* odd while the table is rebuilt in place */
    _Atomic(struct table *) table;
    pthread_mutex_t lock; /* held by whoever adds or removes */
    size_t live, used;    /* objects, and objects plus tombstones */
};

static struct shard shards[1u << SHARD_BITS] = {
    [0 ...(1u << SHARD_BITS) - 1] = {.lock = PTHREAD_MUTEX_INITIALIZER},
};

static uint64_t hash(const void *o)
{
    return (uint64_t)((uintptr_t)o >> 3) * 0x9e3779b97f4a7c15u;
}

static struct shard *shard_of(uint64_t h)
{
    return &shards[h >> (64 - SHARD_BITS)];
}

/* The first slot to probe: bits of the hash the shard index does not use. */
static size_t start(uint64_t h, const struct table *t)
{
    return (size_t)(h >> 16) & t->mask;
}

static bool probe(const struct table *t, uint64_t h, uintptr_t key)
{
    for (size_t i = start(h, t), n = 0; n <= t->mask; i = (i + 1) & t->mask, n++) {
        uintptr_t s = atomic_load_explicit(&t->slot[i], memory_order_relaxed);
        if (s == key)
            return true;
        if (s == EMPTY)
            return false;
    }
    return false;
}

bool lanes_registry_has(const void *o, enum lanes_kind k)
{
    if (!o || ((uintptr_t)o & 7))
        return false;
    uintptr_t key = (uintptr_t)o | (uintptr_t)k;
    uint64_t h = hash(o);
    struct shard *s = shard_of(h);
    for (;;) {
        unsigned seq = atomic_load_explicit(&s->seq, memory_order_acquire);
        if (seq & 1)
            continue; /* a rebuild is under way: it is short */
        const struct table *t = atomic_load_explicit(&s->table, memory_order_acquire);
        bool found = t && probe(t, h, key);
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&s->seq, memory_order_relaxed) == seq)
            return found;
    }
}

/* Stores `key` in the first free slot of its probe sequence (the shard's lock is held). */
static void put(struct shard *s, struct table *t, uint64_t h, uintptr_t key)
{
    for (size_t i = start(h, t);; i = (i + 1) & t->mask) {
        uintptr_t v = atomic_load_explicit(&t->slot[i], memory_order_relaxed);
        if (v == EMPTY || v == TOMBSTONE) {
            s->used += v == EMPTY;
            atomic_store_explicit(&t->slot[i], key, memory_order_release);
            return;
        }
    }
}

/* Room for one more object in `s`'s table, growing or rebuilding it; false when out of memory. */
static bool make_room(struct shard *s)
{
    struct table *t = atomic_load_explicit(&s->table, memory_order_relaxed);
    size_t slots = t ? t->mask + 1 : 0;
    if ((s->used + 1) * 4 <= slots * 3)
        return true;
    size_t want = MIN_SLOTS;
    while (want < (s->live + 1) * 2)
        want *= 2;
    if (want > slots) {
        /* A larger table, published whole; lookups still reading the old one may go on. */
        struct table *n = calloc(1, sizeof *n + want * sizeof n->slot[0]);
        if (!n)
            return false;
        n->mask = want - 1;
        n->retired = t;
        s->used = 0;
        for (size_t i = 0; i < slots; i++) {
            uintptr_t v = atomic_load_explicit(&t->slot[i], memory_order_relaxed);
            if (v != EMPTY && v != TOMBSTONE)
                put(s, n, hash((const void *)(v & ~(uintptr_t)7)), v);
        }
        atomic_store_explicit(&s->table, n, memory_order_release);
        return true;
    }
    /* Mostly tombstones: the same table again, rebuilt where lookups retry. */
    uintptr_t *keep = malloc(s->live * sizeof *keep + 1);
    if (!keep)
        return true; /* tombstones are free slots to put; lookups just probe further */
    size_t n = 0;
    for (size_t i = 0; i < slots; i++) {
        uintptr_t v = atomic_load_explicit(&t->slot[i], memory_order_relaxed);
        if (v != EMPTY && v != TOMBSTONE)
            keep[n++] = v;
    }
    atomic_store_explicit(&s->seq, atomic_load_explicit(&s->seq, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    for (size_t i = 0; i < slots; i++)
        atomic_store_explicit(&t->slot[i], EMPTY, memory_order_relaxed);
    s->used = 0;
    for (size_t i = 0; i < n; i++)
        put(s, t, hash((const void *)(keep[i] & ~(uintptr_t)7)), keep[i]);
    atomic_store_explicit(&s->seq, atomic_load_explicit(&s->seq, memory_order_relaxed) + 1,
                          memory_order_release);
    free(keep);
    return true;
}

bool lanes_registry_add(const void *o, enum lanes_kind k)
{
    assert(o && ((uintptr_t)o & 7) == 0);
    uint64_t h = hash(o);
    struct shard *s = shard_of(h);
    pthread_mutex_lock(&s->lock);
    bool ok = make_room(s);
    if (ok) {
        put(s, atomic_load_explicit(&s->table, memory_order_relaxed), h, (uintptr_t)o | k);
        s->live++;
    }
    pthread_mutex_unlock(&s->lock);
    return ok;
}

void lanes_registry_remove(const void *o, enum lanes_kind k)
{
    uintptr_t key = (uintptr_t)o | (uintptr_t)k;
    uint64_t h = hash(o);
    struct shard *s = shard_of(h);
    pthread_mutex_lock(&s->lock);
    struct table *t = atomic_load_explicit(&s->table, memory_order_relaxed);
    for (size_t i = t ? start(h, t) : 0, n = 0; t && n <= t->mask; i = (i + 1) & t->mask, n++) {
        uintptr_t v = atomic_load_explicit(&t->slot[i], memory_order_relaxed);
        if (v == key) {
            atomic_store_explicit(&t->slot[i], TOMBSTONE, memory_order_release);
            s->live--;
            break;
        }
        if (v == EMPTY)
            break;
    }
    pthread_mutex_unlock(&s->lock);
}
