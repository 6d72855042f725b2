/* SPDX-License-Identifier: MIT */
/*
 * Running kernels. A kernel command runs its work-groups as one exec range
 * (runtime/exec): workers claim chunks of work-groups and call the launcher
 * for each, with __local memory from an arena of their own, reused across
 * work-groups and commands.
 */
#include "ndrange.h"
#include "check.h"

#include "../compiler/jit.h"
#include "../compiler/program.h"
#include "event.h"
#include "platform.h"
#include "program.h"
#include "queue.h"
#include "sched/sched.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

/*
 * What a thread needs to run work-groups: __local memory, grown on demand,
 * and the coroutine frames of a barrier kernel's sub-groups, bump-allocated
 * from chunks that never move and all reused by the next work-group. Freed
 * when the thread exits.
 */
struct frame_chunk {
    struct frame_chunk *next;
    size_t size, used;
    /* Frames hold vectors (a uchar16 argument, AVX-512 spills): align them as chunks are. */
    alignas(64) char data[];
};

static_assert(LANES_MAX_WORK_GROUP_SIZE <= LANES_WG_SCRATCH_ITEMS,
              "the work-group scratch has a slot for every work-item");

struct arena {
    char *local;
    size_t local_size;
    char *scratch; /* wg->scratch: LANES_WG_SCRATCH_SIZE bytes */
    struct frame_chunk *chunks, *current;
};
static pthread_key_t arena_key;
static pthread_once_t arena_once = PTHREAD_ONCE_INIT;
static _Thread_local struct arena *arena;
/* Where frame_alloc goes when there is no memory for a frame: out of the work-group (run_groups).
 */
static _Thread_local jmp_buf *frame_failed;

static void arena_free(void *p)
{
    struct arena *a = p;
    for (struct frame_chunk *c = a->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a->local);
    free(a->scratch);
    free(a);
}

static void arena_init(void)
{
    pthread_key_create(&arena_key, arena_free);
}

/* The calling thread's arena with at least `local` bytes of __local memory; NULL if out of memory.
 */
static struct arena *arena_get(size_t local)
{
    if (!arena) {
        pthread_once(&arena_once, arena_init);
        if (!(arena = calloc(1, sizeof *arena)))
            return NULL;
        pthread_setspecific(arena_key, arena);
    }
    if (!arena->scratch && !(arena->scratch = aligned_alloc(64, LANES_WG_SCRATCH_SIZE)))
        return NULL;
    if (!arena->local || arena->local_size < local) {
        size_t grown = local > 4096 ? (local + 4095) / 4096 * 4096 : 4096;
        char *p = aligned_alloc(128, grown);
        if (!p)
            return NULL;
        free(arena->local);
        arena->local = p;
        arena->local_size = grown;
    }
    for (struct frame_chunk *c = arena->chunks; c; c = c->next)
        c->used = 0;
    arena->current = arena->chunks;
    return arena;
}

/* wg->frame_alloc: a frame for one sub-group of the work-group this thread runs. */
static void *frame_alloc(uint64_t size)
{
    size = (size + 63) / 64 * 64;
    for (struct frame_chunk *c = arena->current; c; c = c->next) {
        if (c->size - c->used >= size) {
            arena->current = c;
            c->used += size;
            return c->data + c->used - size;
        }
    }
    size_t bytes = size > (64u << 10) ? size : (64u << 10);
    /* LANES_CRASH_TEST=frames: how the tests run out of memory here. */
    const char *test = getenv("LANES_CRASH_TEST");
    struct frame_chunk *c = test && strcmp(test, "frames") == 0
                                ? NULL
                                : aligned_alloc(64, (sizeof *c + bytes + 63) / 64 * 64);
    if (!c) {
        /*
         * A coroutine cannot report it: leave the work-group's code (JIT code
         * with nothing to unwind, its frames in this arena) for run_groups,
         * which fails the launch with CL_OUT_OF_RESOURCES.
         */
        if (frame_failed)
            longjmp(*frame_failed, 1);
        abort();
    }
    *c = (struct frame_chunk){NULL, bytes, size};
    /* Appended, so that the frames already handed out stay where they are. */
    struct frame_chunk **tail = &arena->chunks;
    while (*tail)
        tail = &(*tail)->next;
    *tail = arena->current = c;
    return c->data;
}

static bool same_spec(const struct lanes_specialization *a, const struct lanes_specialization *b)
{
    return a->work_dim == b->work_dim && a->width == b->width && a->small_ids == b->small_ids &&
           memcmp(a->local_size, b->local_size, sizeof a->local_size) == 0 &&
           memcmp(a->group_size, b->group_size, sizeof a->group_size) == 0;
}

/* Adds a line to the program's build log (under its lock). */
static void append_log(cl_program p, const char *line)
{
    size_t old = strlen(p->log);
    char *grown = realloc(p->log, old + strlen(line) + 1);
    if (grown) {
        strcpy(grown + old, line);
        p->log = grown;
    }
}

/* The entry of `kernel` for `spec` in the program's list, or NULL. */
static struct lanes_launcher_entry *find_entry(cl_program program,
                                               const struct lanes_kernel_info *kernel,
                                               const struct lanes_specialization *spec)
{
    for (struct lanes_launcher_entry *e =
             atomic_load_explicit(&program->launchers, memory_order_acquire);
         e; e = e->next)
        if (e->kernel == kernel && same_spec(&e->spec, spec))
            return e;
    return NULL;
}

/* Builds e's launcher unless another thread did, holding e's lock (not the program's). */
static const struct lanes_launcher *build_entry(cl_program program, struct lanes_launcher_entry *e)
{
    pthread_mutex_lock(&e->build);
    if (atomic_load_explicit(&e->ready, memory_order_acquire)) {
        pthread_mutex_unlock(&e->build);
        return &e->launcher;
    }
    char *log = NULL;
    lanes_launcher_fn fn =
        lanes_launcher_build(program->module, e->kernel, &e->spec, &e->launcher, &log);
    if (fn)
        atomic_store_explicit(&e->ready, 1, memory_order_release);
    pthread_mutex_unlock(&e->build);
    if (!fn || log) { /* why it failed, or why the kernel was not vectorized */
        pthread_mutex_lock(&program->lock);
        append_log(program, log ? log : "lanes: out of host memory for a launcher\n");
        pthread_mutex_unlock(&program->lock);
        if (fn)
            lanes_refuse("lanes_ndrange_launcher", "width 1", log);
    }
    free(log);
    return fn ? &e->launcher : NULL;
}

const struct lanes_launcher *lanes_ndrange_launcher(cl_program program,
                                                    const struct lanes_kernel_info *kernel,
                                                    const struct lanes_specialization *spec)
{
    struct lanes_launcher_entry *e = find_entry(program, kernel, spec);
    if (e && atomic_load_explicit(&e->ready, memory_order_acquire))
        return &e->launcher;
    if (!e) {
        /* The list grows under the program's lock, for as long as a push takes. */
        pthread_mutex_lock(&program->lock);
        e = find_entry(program, kernel, spec);
        if (!e && (e = calloc(1, sizeof *e))) {
            e->kernel = kernel;
            e->spec = *spec;
            pthread_mutex_init(&e->build, NULL);
            e->next = atomic_load_explicit(&program->launchers, memory_order_relaxed);
            atomic_store_explicit(&program->launchers, e, memory_order_release);
        }
        if (!e)
            append_log(program, "lanes: out of host memory for a launcher\n");
        pthread_mutex_unlock(&program->lock);
        if (!e)
            return NULL;
    }
    return build_entry(program, e);
}

void lanes_ndrange_free_launchers(struct lanes_launcher_entry *list)
{
    while (list) {
        struct lanes_launcher_entry *next = list->next;
        pthread_mutex_destroy(&list->build);
        lanes_jit_release(list->launcher.code);
        free(list);
        list = next;
    }
}

static void run_groups(void *ctx, size_t begin, size_t end)
{
    cl_event cmd = ctx;
    const struct lanes_ndrange *nd = cmd->cmd.data;
    struct lanes_wg wg = nd->wg;
    wg.frame_alloc = frame_alloc;
    struct arena *a = arena_get(nd->local_bytes);
    if (!a) {
        atomic_store(&cmd->cmd.range_status, CL_OUT_OF_RESOURCES);
        return;
    }
    wg.scratch = a->scratch;
    wg.local_mem_size = nd->local_bytes;
    /* Every launcher frame, hence every work-item's private memory, lies below this one. */
    wg.stack_top = __builtin_frame_address(0);
    jmp_buf failed;
    if (setjmp(failed)) {
        frame_failed = NULL;
        atomic_store(&cmd->cmd.range_status, CL_OUT_OF_RESOURCES);
        return;
    }
    frame_failed = &failed;
    for (size_t g = begin; g < end; g++) {
        size_t rest = g;
        unsigned cut = 0; /* the dimensions in which this work-group is the smaller last one */
        for (unsigned d = 0; d < 3; d++) {
            wg.group_id[d] = rest % nd->wg.num_groups[d];
            rest /= nd->wg.num_groups[d];
            uint64_t left = nd->wg.global_size[d] - wg.group_id[d] * nd->wg.enqueued_local_size[d];
            wg.local_size[d] =
                left < nd->wg.enqueued_local_size[d] ? left : nd->wg.enqueued_local_size[d];
            if (left < nd->wg.enqueued_local_size[d])
                cut |= 1u << d;
        }
        arena_get(0); /* every frame of the previous work-group is free again */
        wg.local_mem = a->local;
        nd->fn[cut](nd->args, &wg);
    }
    frame_failed = NULL;
}

static void groups_done(void *ctx)
{
    cl_event cmd = ctx;
    lanes_command_complete(cmd, atomic_load(&cmd->cmd.range_status));
}

cl_int lanes_ndrange_run(cl_event cmd)
{
    const struct lanes_ndrange *nd = cmd->cmd.data;
    if (nd->num_groups == 0)
        return CL_COMPLETE;
    atomic_store(&cmd->cmd.range_status, CL_COMPLETE);
    /* Chunks small enough for every worker to get several, large enough to amortize claims. */
    size_t chunk = nd->num_groups / (8 * (size_t)lanes_exec_num_workers());
    /* On a sub-device, the work-groups run on its share of the workers. */
    cl_device_id dev = cmd->queue->device;
    const struct lanes_worker_set *only = dev->restricted ? &dev->workers : NULL;
    if (!only && nd->workers_only)
        only = lanes_exec_all_workers();
    lanes_exec_range_limited(&cmd->cmd.range, nd->num_groups, chunk ? chunk : 1, dev->compute_units,
                             only, run_groups, groups_done, cmd);
    return LANES_COMMAND_PENDING;
}
