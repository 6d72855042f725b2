/* SPDX-License-Identifier: MIT */
/*
 * The set of live objects: 64 shards, each an open-addressing table of
 * words (address | kind) probed linearly. Lookups read the words with no
 * lock, so a table a lookup may be reading is never freed: a shard that
 * outgrows its table publishes a larger one and keeps the old (the tables
 * kept add up to less than the live one). Removal leaves a tombstone; when
 * tombstones crowd the table it is rebuilt in place, inside a sequence
 * count that makes a lookup which found nothing while it overlapped the
 * rebuild look again (a key found needs no such check: only live keys are
 * ever stored). The lookup's first probe is in registry.h, inlined into
 * every API entry; the rest is lanes_registry_has_slow.
 */
#include "registry.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define MIN_SLOTS 16
#define EMPTY ((uintptr_t)0)
#define TOMBSTONE ((uintptr_t)1) /* never an object: addresses are 8-aligned and not NULL */

struct shard {
    pthread_mutex_t lock; /* held by whoever adds or removes */
    size_t live, used;    /* objects, and objects plus tombstones */
};

static struct shard shards[1u << LANES_REGISTRY_SHARD_BITS] = {
    [0 ...(1u << LANES_REGISTRY_SHARD_BITS) - 1] = {.lock = PTHREAD_MUTEX_INITIALIZER},
};

/* Every shard's first table: one empty slot, so that a lookup never finds no table. */
static struct lanes_registry_table none = {.mask = 0, .slot = {EMPTY}};

_Alignas(64) struct lanes_registry_head lanes_registry_heads[1u << LANES_REGISTRY_SHARD_BITS] = {
    [0 ...(1u << LANES_REGISTRY_SHARD_BITS) - 1] = {.table = &none},
};

/* True when `key` is in `t`, in the probe sequence of its hash `h`. */
static bool probe(const struct lanes_registry_table *t, uint64_t h, uintptr_t key)
{
    size_t mask = t->mask;
    for (size_t i = lanes_registry_start(h, t), n = 0; n <= mask; i = (i + 1) & mask, n++) {
        uintptr_t s = atomic_load_explicit(&t->slot[i], memory_order_acquire);
        if (s == key)
            return true;
        if (s == EMPTY)
            return false;
    }
    return false;
}

bool lanes_registry_has_slow(const void *o, enum lanes_kind k)
{
    uint64_t h = lanes_registry_hash(o);
    struct lanes_registry_head *s = &lanes_registry_heads[lanes_registry_shard(h)];
    for (;;) {
        unsigned seq = atomic_load_explicit(&s->seq, memory_order_acquire);
        const struct lanes_registry_table *t =
            atomic_load_explicit(&s->table, memory_order_acquire);
        if (probe(t, h, (uintptr_t)o | LANES_KIND_TAG(k)))
            return true;
        atomic_thread_fence(memory_order_acquire);
        if (!(seq & 1) && atomic_load_explicit(&s->seq, memory_order_relaxed) == seq)
            return false;
    }
}

/* Stores `key` in the first free slot of its probe sequence (the shard's lock is held). */
static void put(struct shard *s, struct lanes_registry_table *t, uint64_t h, uintptr_t key)
{
    for (size_t i = lanes_registry_start(h, t);; i = (i + 1) & t->mask) {
        uintptr_t v = atomic_load_explicit(&t->slot[i], memory_order_relaxed);
        if (v == EMPTY || v == TOMBSTONE) {
            s->used += v == EMPTY;
            atomic_store_explicit(&t->slot[i], key, memory_order_release);
            return;
        }
    }
}

/* Room for one more object in shard `i`'s table, growing or rebuilding it; false if out of memory.
 */
static bool make_room(size_t i)
{
    struct shard *s = &shards[i];
    struct lanes_registry_head *head = &lanes_registry_heads[i];
    struct lanes_registry_table *t = atomic_load_explicit(&head->table, memory_order_relaxed);
    size_t slots = t->mask + 1;
    if ((s->used + 1) * 4 <= slots * 3)
        return true;
    size_t want = MIN_SLOTS;
    while (want < (s->live + 1) * 2)
        want *= 2;
    if (want > slots) {
        /* A larger table, published whole; lookups still reading the old one may go on. */
        struct lanes_registry_table *n = calloc(1, sizeof *n + want * sizeof n->slot[0]);
        if (!n)
            return false;
        n->mask = want - 1;
        n->retired = t;
        s->used = 0;
        for (size_t j = 0; j < slots; j++) {
            uintptr_t v = atomic_load_explicit(&t->slot[j], memory_order_relaxed);
            if (v != EMPTY && v != TOMBSTONE)
                put(s, n, lanes_registry_hash((const void *)(v & ~(uintptr_t)7)), v);
        }
        atomic_store_explicit(&head->table, n, memory_order_release);
        return true;
    }
    /* Mostly tombstones: the same table again, rebuilt where lookups retry. */
    uintptr_t *keep = malloc(s->live * sizeof *keep + 1);
    if (!keep)
        return true; /* tombstones are free slots to put; lookups just probe further */
    size_t n = 0;
    for (size_t j = 0; j < slots; j++) {
        uintptr_t v = atomic_load_explicit(&t->slot[j], memory_order_relaxed);
        if (v != EMPTY && v != TOMBSTONE)
            keep[n++] = v;
    }
    atomic_store_explicit(&head->seq, atomic_load_explicit(&head->seq, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    for (size_t j = 0; j < slots; j++)
        atomic_store_explicit(&t->slot[j], EMPTY, memory_order_relaxed);
    s->used = 0;
    for (size_t j = 0; j < n; j++)
        put(s, t, lanes_registry_hash((const void *)(keep[j] & ~(uintptr_t)7)), keep[j]);
    atomic_store_explicit(&head->seq, atomic_load_explicit(&head->seq, memory_order_relaxed) + 1,
                          memory_order_release);
    free(keep);
    return true;
}

bool lanes_registry_add(const void *o, enum lanes_kind k)
{
    assert(o && ((uintptr_t)o & 7) == 0);
    assert(k != LANES_KIND_PLATFORM); /* its tag is the sampler's */
    uint64_t h = lanes_registry_hash(o);
    size_t i = lanes_registry_shard(h);
    struct shard *s = &shards[i];
    pthread_mutex_lock(&s->lock);
    bool ok = make_room(i);
    if (ok) {
        put(s, atomic_load_explicit(&lanes_registry_heads[i].table, memory_order_relaxed), h,
            (uintptr_t)o | LANES_KIND_TAG(k));
        s->live++;
    }
    pthread_mutex_unlock(&s->lock);
    return ok;
}

void lanes_registry_remove(const void *o, enum lanes_kind k)
{
    uintptr_t key = (uintptr_t)o | LANES_KIND_TAG(k);
    uint64_t h = lanes_registry_hash(o);
    size_t i = lanes_registry_shard(h);
    struct shard *s = &shards[i];
    pthread_mutex_lock(&s->lock);
    struct lanes_registry_table *t =
        atomic_load_explicit(&lanes_registry_heads[i].table, memory_order_relaxed);
    for (size_t j = lanes_registry_start(h, t), n = 0; n <= t->mask; j = (j + 1) & t->mask, n++) {
        uintptr_t v = atomic_load_explicit(&t->slot[j], memory_order_relaxed);
        if (v == key) {
            atomic_store_explicit(&t->slot[j], TOMBSTONE, memory_order_release);
            s->live--;
            break;
        }
        if (v == EMPTY)
            break;
    }
    pthread_mutex_unlock(&s->lock);
}
