/* SPDX-License-Identifier: MIT */
/*
 * The launchers of a program's kernels, one owner for them: the program's
 * table of shapes (kernel, specialization) and their launchers, built by
 * the compiler (compiler/launcher.h) at most once each, and the tiers: a
 * new shape runs the launcher of every local size (tier 0) while its own
 * (tier 1) compiles on the background compiler's thread.
 */
#include "launchers.h"

#include "check.h"
#include "env.h"
#include "program.h"

#include "../compiler/jit.h"
#include "../compiler/program.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_spec(const struct lanes_specialization *a, const struct lanes_specialization *b)
{
    return a->work_dim == b->work_dim && a->width == b->width && a->small_ids == b->small_ids &&
           a->rows == b->rows && memcmp(a->local_size, b->local_size, sizeof a->local_size) == 0 &&
           memcmp(a->group_size, b->group_size, sizeof a->group_size) == 0 &&
           memcmp(a->image_formats, b->image_formats, sizeof a->image_formats) == 0;
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

/*
 * Builds e's launcher unless another thread did, holding e's lock (not the
 * program's). Unless `compile`, only loads it from this process's JIT or
 * the disk cache: NULL with *missing set when neither has it.
 */
static const struct lanes_launcher *build_entry(cl_program program, struct lanes_launcher_entry *e,
                                                bool compile, bool *missing)
{
    *missing = false;
    pthread_mutex_lock(&e->build);
    if (atomic_load_explicit(&e->ready, memory_order_acquire)) {
        pthread_mutex_unlock(&e->build);
        return &e->launcher;
    }
    char *log = NULL;
    lanes_launcher_fn fn =
        compile ? lanes_launcher_build(program->module, e->kernel, &e->spec, &e->launcher, &log)
                : lanes_launcher_load(program->module, e->kernel, &e->spec, &e->launcher, &log);
    if (fn)
        atomic_store_explicit(&e->ready, 1, memory_order_release);
    pthread_mutex_unlock(&e->build);
    if (!fn && !log && !compile) {
        *missing = true;
        return NULL;
    }
    if (!fn || log) { /* why it failed, or why the kernel was not vectorized */
        pthread_mutex_lock(&program->lock);
        append_log(program, log ? log : "lanes: out of host memory for a launcher\n");
        pthread_mutex_unlock(&program->lock);
        if (fn)
            lanes_refuse("lanes_launchers_get", "width 1", log);
    }
    free(log);
    return fn ? &e->launcher : NULL;
}

/* The entry of `spec`, added if there is none; NULL when out of memory (the log says so). */
static struct lanes_launcher_entry *get_entry(cl_program program,
                                              const struct lanes_kernel_info *kernel,
                                              const struct lanes_specialization *spec)
{
    struct lanes_launcher_entry *e = find_entry(program, kernel, spec);
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
    }
    return e;
}

static bool ready(struct lanes_launcher_entry *e)
{
    return atomic_load_explicit(&e->ready, memory_order_acquire);
}

const struct lanes_launcher *lanes_launchers_get(cl_program program,
                                                 const struct lanes_kernel_info *kernel,
                                                 const struct lanes_specialization *spec)
{
    struct lanes_launcher_entry *e = get_entry(program, kernel, spec);
    if (!e)
        return NULL;
    bool missing;
    return ready(e) ? &e->launcher : build_entry(program, e, true, &missing);
}

/*
 * The background compiler: one thread, started at the first shape that
 * launches twice on tier 0, compiling the queued shapes' own launchers one
 * at a time (a core of its own at most, beside the workers). Each job
 * keeps its program; the thread is stopped and joined when Lanes is
 * unloaded, after the compile it is running.
 */
struct tier_job {
    struct tier_job *next;
    cl_program program;
    struct lanes_launcher_entry *entry;
};

static pthread_mutex_t tier_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tier_wake = PTHREAD_COND_INITIALIZER, tier_idle = PTHREAD_COND_INITIALIZER;
static struct tier_job *tier_head, **tier_tail = &tier_head;
static cl_program tier_running; /* the program of the job being compiled */
static bool tier_started, tier_stopping;
static pthread_t tier_thread;

/* LANES_TIER: 0 runs tier 0 only, 1 compiles every shape before it runs, unset both. */
enum tier_mode { TIER_ONLY_0, TIER_ONLY_1, TIER_BOTH };

static enum tier_mode tier_mode(void)
{
    const char *v = getenv("LANES_TIER");
    return !v || !*v ? TIER_BOTH : strcmp(v, "0") == 0 ? TIER_ONLY_0 : TIER_ONLY_1;
}

static void describe(const struct lanes_launcher_entry *e, const char *what)
{
    if (lanes_env_flag("LANES_DEBUG"))
        fprintf(stderr, "lanes: kernel %s: work-groups of %llu x %llu x %llu (width %u) %s\n",
                e->kernel->name, (unsigned long long)lanes_spec_group_size(&e->spec, 0),
                (unsigned long long)lanes_spec_group_size(&e->spec, 1),
                (unsigned long long)lanes_spec_group_size(&e->spec, 2), e->spec.width, what);
}

/*
 * The tier 0 specialization for the shapes like `spec`: sizes 0 (read at
 * run time) in work_dim, and whether W divides the rows.
 */
static struct lanes_specialization tier0_spec(const struct lanes_specialization *spec)
{
    struct lanes_specialization g = {.work_dim = spec->work_dim,
                                     .width = spec->width,
                                     .small_ids = spec->small_ids,
                                     .dynamic = 1,
                                     .rows = lanes_spec_rows(spec)};
    memcpy(g.image_formats, spec->image_formats, sizeof g.image_formats);
    for (unsigned d = spec->work_dim; d < 3; d++)
        g.local_size[d] = 1;
    return g;
}

/* Tier 1 for a job: the shape's own launcher, installed for the launches that follow. */
static void promote(cl_program program, struct lanes_launcher_entry *e)
{
    /* A program the application has let go of runs no more launches worth compiling for. */
    if (ready(e) || lanes_object_refs(&program->obj) + atomic_load(&program->kernels) == 0)
        return;
    struct lanes_launcher l;
    char *log = NULL;
    pthread_mutex_lock(&e->build);
    if (!ready(e) && lanes_launcher_build(program->module, e->kernel, &e->spec, &l, &log)) {
        if (l.width != e->spec.width) {
            /*
             * Narrower than tier 0 ran it (which a shape's code may depend
             * on: sub-group sizes): the shape keeps tier 0, no longer looked up.
             */
            struct lanes_specialization g = tier0_spec(&e->spec);
            struct lanes_launcher_entry *t0 = find_entry(program, e->kernel, &g);
            lanes_jit_release(l.code);
            if (t0 && ready(t0)) {
                l = t0->launcher;
                lanes_jit_retain(l.code);
            } else {
                l.fn = NULL;
            }
        }
        if (l.fn) {
            e->launcher = l;
            atomic_store_explicit(&e->ready, 1, memory_order_release);
            describe(e, "now run their own launcher (tier 1)");
        }
    }
    pthread_mutex_unlock(&e->build);
    free(log); /* a failure leaves the shape on tier 0, which works */
}

static void stop_tiers(void);

static void *tier_main(void *arg)
{
    (void)arg;
    unsigned jobs = 0;
    pthread_mutex_lock(&tier_lock);
    for (;;) {
        while (!tier_stopping && !tier_head)
            pthread_cond_wait(&tier_wake, &tier_lock);
        if (tier_stopping)
            break;
        struct tier_job *job = tier_head;
        if (!(tier_head = job->next))
            tier_tail = &tier_head;
        tier_running = job->program;
        pthread_mutex_unlock(&tier_lock);
        promote(job->program, job->entry);
        pthread_mutex_lock(&tier_lock);
        tier_running = NULL;
        pthread_cond_broadcast(&tier_idle);
        pthread_mutex_unlock(&tier_lock);
        lanes_program_release(job->program);
        free(job);
        /* Statics a real job used first (rare passes, the bitcode reader) go after this too. */
        if (++jobs <= 8)
            atexit(stop_tiers);
        pthread_mutex_lock(&tier_lock);
    }
    pthread_mutex_unlock(&tier_lock);
    return NULL;
}

/* Queues e's compile; false when it cannot be (out of memory, no thread, unloading). */
static bool queue_promotion(cl_program program, struct lanes_launcher_entry *e)
{
    struct tier_job *job = malloc(sizeof *job);
    if (!job)
        return false;
    *job = (struct tier_job){.program = program, .entry = e};
    /*
     * LLVM's function-local statics are destroyed by exit handlers
     * registered when they were first used, newest first. A process that
     * compiled nothing yet (its tier-0 code came from the disk cache) would
     * construct them in the first background compile, after stop_tiers was
     * registered: at exit they would go before it ran, under a compile
     * still using them (a process that never exited, or crashed). So such a
     * process compiles a warm-up first, once, on this thread and outside
     * tier_lock (a no-op once a launcher was optimized here).
     */
    lanes_launcher_warm_up();
    pthread_mutex_lock(&tier_lock);
    bool ok = !tier_stopping;
    if (ok && !tier_started) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, (size_t)8 << 20); /* LLVM recurses */
        atexit(stop_tiers);                                /* after the warm-up below */
        ok = tier_started = pthread_create(&tier_thread, &attr, tier_main, NULL) == 0;
        pthread_attr_destroy(&attr);
    }
    if (ok) {
        lanes_program_retain(program);
        *tier_tail = job;
        tier_tail = &job->next;
        pthread_cond_signal(&tier_wake);
    }
    pthread_mutex_unlock(&tier_lock);
    if (!ok)
        free(job);
    return ok;
}

void lanes_launchers_forget_background(cl_program program)
{
    struct tier_job *dropped = NULL;
    pthread_mutex_lock(&tier_lock);
    for (struct tier_job **p = &tier_head; *p;) {
        struct tier_job *job = *p;
        if (job->program == program) {
            *p = job->next;
            job->next = dropped;
            dropped = job;
        } else {
            p = &job->next;
        }
    }
    tier_tail = &tier_head;
    while (*tier_tail)
        tier_tail = &(*tier_tail)->next;
    while (tier_running == program)
        pthread_cond_wait(&tier_idle, &tier_lock);
    pthread_mutex_unlock(&tier_lock);
    while (dropped) {
        struct tier_job *next = dropped->next;
        atomic_store(&dropped->entry->queued, false);
        lanes_program_release(dropped->program); /* the caller holds one more */
        free(dropped);
        dropped = next;
    }
}

/*
 * Unloading or exiting: the compile running finishes before LLVM's own
 * destructors run. LLVM's function-local statics (its pass registry)
 * are destroyed by exit handlers registered when they were first used,
 * which run before library destructors: so this also runs as an exit
 * handler, registered when the thread starts (after LLVM was used, or a
 * warm-up compile, in this process) and again after each of the first 8
 * jobs, since exit handlers run newest first.
 */
static void stop_tiers(void)
{
    pthread_mutex_lock(&tier_lock);
    tier_stopping = true;
    bool started = tier_started;
    tier_started = false; /* a second call has nothing to join */
    pthread_cond_broadcast(&tier_wake);
    pthread_mutex_unlock(&tier_lock);
    if (started && !pthread_equal(pthread_self(), tier_thread))
        pthread_join(tier_thread, NULL);
}

__attribute__((destructor)) static void stop_tiers_on_unload(void)
{
    stop_tiers();
}

const struct lanes_launcher *lanes_launchers_for_launch(cl_program program,
                                                        const struct lanes_kernel_info *kernel,
                                                        const struct lanes_specialization *spec,
                                                        bool *tier0)
{
    *tier0 = false;
    struct lanes_launcher_entry *e = get_entry(program, kernel, spec);
    if (!e)
        return NULL;
    if (ready(e))
        return &e->launcher;
    enum tier_mode mode = tier_mode();
    bool missing = true;
    if (mode == TIER_ONLY_1)
        return build_entry(program, e, true, &missing);
    /* Compiled by an earlier process or another program, or queued and done meanwhile. */
    if (mode == TIER_BOTH && !atomic_load(&e->not_cached)) {
        const struct lanes_launcher *l = build_entry(program, e, false, &missing);
        if (l || !missing)
            return l;
        atomic_store(&e->not_cached, true);
    }
    struct lanes_specialization g = tier0_spec(spec);
    const struct lanes_launcher *t0 = lanes_launchers_get(program, kernel, &g);
    if (!t0 || t0->width != spec->width) /* not at this width: the shape's own, now */
        return build_entry(program, e, true, &missing);
    unsigned uses = atomic_fetch_add(&e->uses, 1);
    if (uses == 0)
        describe(e, "run the launcher of every local size (tier 0)");
    if (mode == TIER_BOTH && uses >= 1 && !atomic_exchange(&e->queued, true) &&
        !queue_promotion(program, e))
        atomic_store(&e->queued, false);
    *tier0 = true;
    return t0;
}
