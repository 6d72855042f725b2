/* SPDX-License-Identifier: MIT */
/*
 * The worker pool. One mutex guards the task list and the list of ranges
 * with chunks left; tasks and range chunks themselves run with no pool lock
 * held. Idle workers sleep on one condition variable.
 */
#include "exec.h"

#include "../../compiler/abi.h"
#include "../../compiler/crash.h"
#include "../env.h"
#include "../machine.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_WORKERS LANES_EXEC_MAX_WORKERS

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    struct lanes_task *head, *tail; /* tasks, oldest first */
    struct lanes_range *ranges;     /* ranges with chunks left to claim */
    unsigned idle;                  /* workers asleep on `wake` */
    pthread_cond_t helper_wake;     /* application threads asleep in lanes_exec_help_until */
    atomic_uint helpers;            /* how many sleep on it (read without the lock) */
    bool stop;
    unsigned count;
    pthread_t *threads;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER,
          .wake = PTHREAD_COND_INITIALIZER,
          .helper_wake = PTHREAD_COND_INITIALIZER};

static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static struct lanes_worker_set all_workers; /* written once, by start() */
static _Thread_local int worker_index = -1;

unsigned lanes_exec_num_workers(void)
{
    unsigned long n = lanes_env_uint("LANES_NUM_THREADS", lanes_machine()->cpus);
    return n > MAX_WORKERS ? MAX_WORKERS : (unsigned)n;
}

int lanes_exec_worker_index(void)
{
    return worker_index;
}

/* Claims and runs chunks until none is left. */
static void range_work(struct lanes_range *r)
{
    for (;;) {
        size_t begin = atomic_fetch_add_explicit(&r->claim, r->chunk, memory_order_relaxed);
        if (begin >= r->n)
            return;
        size_t end = r->n - begin < r->chunk ? r->n : begin + r->chunk;
        r->fn(r->ctx, begin, end);
    }
}

/*
 * Leaves a range whose chunks are all claimed. It is unlisted first, so no
 * thread can join after the user count reaches zero; the last user out has
 * seen every chunk return (each user returns only after its own chunks).
 */
static void range_leave(struct lanes_range *r)
{
    pthread_mutex_lock(&pool.lock);
    if (r->listed) {
        struct lanes_range **p = &pool.ranges;
        while (*p != r)
            p = &(*p)->next;
        *p = r->next;
        r->listed = false;
    }
    pthread_mutex_unlock(&pool.lock);
    if (atomic_fetch_sub_explicit(&r->users, 1, memory_order_acq_rel) == 1)
        r->done(r->ctx);
}

/*
 * Called with the pool lock held: if there is work, releases the lock, does
 * one piece of it (a share of a range, else the oldest task) and returns
 * true; else returns false with the lock still held.
 */
static bool work_one(void)
{
    struct lanes_range *r = pool.ranges;
    while (r && (atomic_load_explicit(&r->users, memory_order_relaxed) >= r->max_users ||
                 (r->only &&
                  (worker_index < 0 || !lanes_worker_set_has(r->only, (unsigned)worker_index)))))
        r = r->next; /* full (its share of workers is inside), or not ours to run */
    if (r) {
        atomic_fetch_add_explicit(&r->users, 1, memory_order_relaxed);
        pthread_mutex_unlock(&pool.lock);
        range_work(r);
        range_leave(r);
        return true;
    }
    /* The oldest task this thread may run: an application thread skips the workers' own. */
    struct lanes_task *t = pool.head, *prev = NULL;
    while (t && t->workers_only && worker_index < 0)
        prev = t, t = t->next;
    if (!t)
        return false;
    *(prev ? &prev->next : &pool.head) = t->next;
    if (pool.tail == t)
        pool.tail = prev;
    pthread_mutex_unlock(&pool.lock);
    t->run(t);
    return true;
}

static void *worker_main(void *arg)
{
    worker_index = (int)(size_t)arg;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        if (work_one()) {
            pthread_mutex_lock(&pool.lock);
            continue;
        }
        if (pool.stop)
            break; /* after the work queued before the stop */
        pool.idle++;
        pthread_cond_wait(&pool.wake, &pool.lock);
        pool.idle--;
    }
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

static void stop(void);

static void start(void)
{
    unsigned n = lanes_exec_num_workers();
    pool.threads = calloc(n, sizeof *pool.threads);
    if (!pool.threads)
        n = 1, pool.threads = calloc(1, sizeof *pool.threads);
    if (!pool.threads) {
        fprintf(stderr, "lanes: cannot allocate the worker pool\n");
        abort();
    }
    /*
     * Big stacks, for the compiler's deep recursions (builds and their
     * callbacks run on workers); work-groups run on the stacks of
     * runtime/exec/wgmem.c.
     */
    pthread_attr_t attr;
    bool attr_made = pthread_attr_init(&attr) == 0;
    bool sized = attr_made && pthread_attr_setstacksize(&attr, LANES_WORKER_STACK_BYTES) == 0;
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&pool.threads[i], sized ? &attr : NULL, worker_main,
                           (void *)(size_t)i) != 0)
            break;
        lanes_worker_set_add(&all_workers, i);
        pool.count++;
    }
    if (attr_made)
        pthread_attr_destroy(&attr);
    if (!pool.count) {
        /* Without a worker no command could ever run: fail loudly. */
        fprintf(stderr, "lanes: cannot start any worker thread\n");
        abort();
    }
    /*
     * At exit the workers stop in an exit handler, before the exit handlers
     * registered earlier (LeakSanitizer's check among them, which otherwise
     * stops and scans every idle worker; its tracer once crashed doing so),
     * and not only in the library's destructor, which runs after them all.
     * The workers first finish the work queued; work submitted after the
     * stop runs on the submitting thread (submit).
     */
    atexit(stop);
}

/* Stops and joins the workers when the process exits or the library is unloaded (twice: once). */
__attribute__((destructor)) static void stop(void)
{
    /* Work drained below that compiles must not find LLVM's statics gone: it fails. */
    lanes_compiles_stop();
    pthread_mutex_lock(&pool.lock);
    bool started = pool.threads != NULL;
    pool.stop = true;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    if (!started)
        return;
    for (unsigned i = 0; i < pool.count; i++)
        if (!pthread_equal(pool.threads[i], pthread_self()))
            pthread_join(pool.threads[i], NULL);
    free(pool.threads);
    pool.threads = NULL;
}

bool lanes_exec_can_pin(void)
{
    const struct lanes_machine *m = lanes_machine();
    return m->cpu && lanes_exec_num_workers() == m->cpus;
}

static bool pinned;

static void pin_workers(void)
{
    const struct lanes_machine *m = lanes_machine();
    bool ok = pool.count == m->cpus;
    for (unsigned i = 0; ok && i < pool.count; i++) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(m->cpu[i].id, &set);
        ok = pthread_setaffinity_np(pool.threads[i], sizeof set, &set) == 0;
    }
    pinned = ok;
}

bool lanes_exec_pin(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    if (!lanes_exec_can_pin())
        return false;
    pthread_once(&pool_once, start);
    pthread_once(&once, pin_workers);
    return pinned;
}

void lanes_exec_help_until(bool (*ended)(void *ctx), void *ctx)
{
    pthread_mutex_lock(&pool.lock);
    while (!ended(ctx)) {
        if (work_one()) {
            pthread_mutex_lock(&pool.lock);
            continue;
        }
        /*
         * Nothing to run: sleep until work is queued or lanes_exec_wake_helpers
         * says a wait may have ended. The count goes up before `ended` is read
         * again, and the ending side stores before it reads the count (both
         * sequentially consistent): one of the two sees the other.
         */
        atomic_fetch_add(&pool.helpers, 1);
        if (!ended(ctx))
            pthread_cond_wait(&pool.helper_wake, &pool.lock);
        atomic_fetch_sub(&pool.helpers, 1);
    }
    pthread_mutex_unlock(&pool.lock);
}

void lanes_exec_wake_helpers(void)
{
    if (atomic_load(&pool.helpers) == 0)
        return;
    pthread_mutex_lock(&pool.lock);
    pthread_cond_broadcast(&pool.helper_wake);
    pthread_mutex_unlock(&pool.lock);
}

/* Called with the pool lock held, after queueing work an application thread may run. */
static void offer_to_helpers(void)
{
    if (atomic_load_explicit(&pool.helpers, memory_order_relaxed))
        pthread_cond_broadcast(&pool.helper_wake);
}

static void submit(struct lanes_task *task, bool workers_only)
{
    pthread_once(&pool_once, start);
    task->next = NULL;
    task->workers_only = workers_only;
    pthread_mutex_lock(&pool.lock);
    if (pool.stop) {
        /* Tearing down (e.g. a static destructor still using OpenCL): run here. */
        pthread_mutex_unlock(&pool.lock);
        task->run(task);
        return;
    }
    if (pool.tail)
        pool.tail->next = task;
    else
        pool.head = task;
    pool.tail = task;
    if (pool.idle)
        pthread_cond_signal(&pool.wake);
    if (!workers_only)
        offer_to_helpers();
    pthread_mutex_unlock(&pool.lock);
}

void lanes_exec_submit(struct lanes_task *task)
{
    submit(task, false);
}

void lanes_exec_submit_to_workers(struct lanes_task *task)
{
    submit(task, true);
}

void lanes_exec_range(struct lanes_range *r, size_t n_items, size_t chunk, lanes_range_fn fn,
                      lanes_range_done done, void *ctx)
{
    lanes_exec_range_limited(r, n_items, chunk, MAX_WORKERS + 1, NULL, fn, done, ctx);
}

void lanes_exec_range_limited(struct lanes_range *r, size_t n_items, size_t chunk,
                              unsigned max_workers, const struct lanes_worker_set *only,
                              lanes_range_fn fn, lanes_range_done done, void *ctx)
{
    if (n_items == 0) {
        done(ctx);
        return;
    }
    pthread_once(&pool_once, start);
    if (chunk == 0) {
        /* A few chunks per worker balance the load without much claiming. */
        chunk = n_items / (4 * (size_t)pool.count);
        if (chunk == 0)
            chunk = 1;
    }
    r->fn = fn;
    r->done = done;
    r->ctx = ctx;
    r->n = n_items;
    r->chunk = chunk;
    atomic_init(&r->claim, 0);
    r->max_users = max_workers ? max_workers : 1;
    r->only = only;
    r->listed = false;
    bool join = !only || (worker_index >= 0 && lanes_worker_set_has(only, (unsigned)worker_index));
    if (!join) {
        /* Handed to the set's workers; the last of them to leave calls done. */
        atomic_init(&r->users, 0);
        pthread_mutex_lock(&pool.lock);
        if (!pool.stop) {
            r->listed = true;
            r->next = pool.ranges;
            pool.ranges = r;
            pthread_cond_broadcast(&pool.wake);
            pthread_mutex_unlock(&pool.lock);
            return;
        }
        pthread_mutex_unlock(&pool.lock);
        /* Tearing down: no worker will come, run it here. */
        atomic_init(&r->users, 1);
        range_work(r);
        range_leave(r);
        return;
    }
    atomic_init(&r->users, 1); /* the caller */
    if (n_items > chunk && r->max_users > 1) {
        pthread_mutex_lock(&pool.lock);
        r->listed = !pool.stop;
        r->next = pool.ranges;
        if (r->listed)
            pool.ranges = r;
        if (pool.idle)
            pthread_cond_broadcast(&pool.wake);
        offer_to_helpers();
        pthread_mutex_unlock(&pool.lock);
    }
    range_work(r);
    range_leave(r);
}
