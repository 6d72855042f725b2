/* SPDX-License-Identifier: MIT */
/*
 * The executor: one pool of worker threads shared by every queue and context.
 * This is the whole interface between the scheduler (runtime/sched) and the
 * threads; nothing else in the runtime creates or waits on a thread.
 *
 * Threading and locking contract, for every function below:
 * - callable from any thread, workers included, with no lock of the caller's
 *   held that a task could need (a task may run before the call returns);
 * - never blocks on another task: submitting is a push onto a list, and a
 *   range returns as soon as no chunk is left to claim, without waiting for
 *   chunks other workers are still running;
 * - never allocates, so never fails: the caller owns the task or range
 *   record and keeps it alive until its function (or `done`) has run.
 *
 * The pool starts on first use. Its threads live until the library is
 * unloaded (or the process exits), when a destructor stops them: each
 * finishes the task in its hands, queued tasks are dropped, and the threads
 * are joined, so that neither dlclose nor a leak checker finds a live thread.
 */
#ifndef LANES_RUNTIME_EXEC_H
#define LANES_RUNTIME_EXEC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* More threads than this is a typo in LANES_NUM_THREADS, not a machine. */
#define LANES_EXEC_MAX_WORKERS 1024

/* A set of workers by index: the ones a sub-device made by affinity domain owns. */
struct lanes_worker_set {
    uint64_t bits[LANES_EXEC_MAX_WORKERS / 64];
};

static inline bool lanes_worker_set_has(const struct lanes_worker_set *s, unsigned i)
{
    return i < LANES_EXEC_MAX_WORKERS && (s->bits[i / 64] >> (i % 64) & 1);
}

static inline void lanes_worker_set_add(struct lanes_worker_set *s, unsigned i)
{
    s->bits[i / 64] |= (uint64_t)1 << (i % 64);
}

/*
 * Worker threads the pool runs: LANES_NUM_THREADS when set, else the CPUs
 * of the process's affinity mask. CL_DEVICE_MAX_COMPUTE_UNITS reports it.
 */
unsigned lanes_exec_num_workers(void);

/* A unit of work for one worker; embedded in the object it belongs to. */
struct lanes_task {
    struct lanes_task *next; /* owned by the pool while queued */
    void (*run)(struct lanes_task *task);
    bool workers_only; /* set by the submit functions */
};

/*
 * Queues `task`; a worker calls task->run(task) later, first come first
 * served. The record must stay valid until run starts; run may free it.
 * A waiting application thread may run it too (lanes_exec_help): only
 * Lanes' own work goes here.
 */
void lanes_exec_submit(struct lanes_task *task);

/*
 * lanes_exec_submit for work that runs the application's code (event
 * callbacks, build notifications, native kernels): only a worker runs it,
 * never a thread helping in a wait, which may hold locks that code takes.
 */
void lanes_exec_submit_to_workers(struct lanes_task *task);

/* Runs items [begin, end) of a range; called on any worker, concurrently. */
typedef void (*lanes_range_fn)(void *ctx, size_t begin, size_t end);

/* Called once, after the last item of a range has been processed. */
typedef void (*lanes_range_done)(void *ctx);

/* The state of one parallel range; opaque to its users, owned by the caller. */
struct lanes_range {
    struct lanes_range *next; /* in the pool's list of ranges with work left */
    lanes_range_fn fn;
    lanes_range_done done;
    void *ctx;
    size_t n, chunk;
    atomic_size_t claim; /* the next unclaimed item */
    atomic_uint users;   /* threads inside the range; the last one calls done */
    unsigned max_users;  /* workers that may run it at once (a sub-device's share) */
    const struct lanes_worker_set *only; /* the workers that may run it; NULL: any thread */
    bool listed;                         /* guarded by the pool lock */
};

/*
 * Runs fn over [0, n_items) in chunks of `chunk` items (0 picks one):
 * idle workers join in and every participant, the caller included, claims
 * chunks with an atomic counter until none is left. `done(ctx)` runs
 * exactly once, on whichever participant leaves last, after every chunk has
 * returned; the caller must not touch `r` after that. This is how a kernel
 * command runs its work-groups (n_items = work-groups) on all workers: the
 * command completes from `done`, and no worker ever waits for another.
 * n_items == 0 calls done at once.
 */
void lanes_exec_range(struct lanes_range *r, size_t n_items, size_t chunk, lanes_range_fn fn,
                      lanes_range_done done, void *ctx);

/*
 * Waits until ended(ctx) is true, running queued work meanwhile: a share of
 * a range with chunks left, else the oldest task not submitted to workers
 * only. The thread sleeps only while there is none, and wakes when work is
 * queued or lanes_exec_wake_helpers is called. A thread about to wait for an
 * event waits here, so a short command runs where its result is awaited
 * rather than after two thread wake-ups, and work-groups that must run at
 * once (a pair that waits for each other) find this thread too, even when
 * they are queued after it fell asleep. `ended` is called with the pool's
 * lock held: it must only read.
 */
void lanes_exec_help_until(bool (*ended)(void *ctx), void *ctx);

/*
 * Wakes the threads asleep in lanes_exec_help_until to ask their `ended`
 * again: call it after making one of them true (with a sequentially
 * consistent store). Cheap when nobody waits.
 */
void lanes_exec_wake_helpers(void);

/*
 * lanes_exec_range with at most `max_workers` threads (the caller included)
 * in the range at once: how a sub-device's command keeps to its share. With
 * `only`, just the workers of that set run chunks (the set must outlive the
 * range); a caller outside it lists the range and returns at once, and
 * `done` runs on the last of those workers.
 */
void lanes_exec_range_limited(struct lanes_range *r, size_t n_items, size_t chunk,
                              unsigned max_workers, const struct lanes_worker_set *only,
                              lanes_range_fn fn, lanes_range_done done, void *ctx);

/*
 * True when every worker can be pinned to a CPU of its own: the pool has
 * exactly one worker per CPU of the process's affinity mask and the machine's
 * topology is known. Worker i then belongs to lanes_machine()->cpu[i].
 */
bool lanes_exec_can_pin(void);

/*
 * Pins every worker to its CPU (once; later calls return at once), so that
 * a set of workers is a set of cores. Done when the first sub-device by
 * affinity domain is made, not before: unpinned threads let the OS balance
 * a busy machine. False when lanes_exec_can_pin() is false or pinning failed.
 */
bool lanes_exec_pin(void);

/* The index of the calling worker in [0, lanes_exec_num_workers()), or -1. */
int lanes_exec_worker_index(void);

#endif
