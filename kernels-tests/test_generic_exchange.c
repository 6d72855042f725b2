/* SPDX-License-Identifier: MIT */
/*
 * Generic pointers into another work-group's memory. Two work-groups that
 * run at once, on two threads, trade pointers through __global memory: each
 * work-item publishes pointers to its __local memory, its private array, a
 * private variable kept across a barrier (a coroutine frame's, when the
 * kernel has one and several sub-groups) and a __global buffer, waits for
 * its partner in the other work-group to publish, then asks to_global,
 * to_local, to_private and get_fence about the partner's pointers. They lie
 * in the other thread's local memory, stack or frames: still __local and
 * private memory, as on a GPU, whatever thread wrote them.
 *
 * Pairs of work-groups wait for each other, so they must run on two
 * threads at once (a work-item gives up after a bounded wait and reports
 * it). Two ways of getting two threads:
 *   - workers: the host polls the command's status without waiting in
 *     OpenCL, so the pool's two workers run the groups;
 *   - helper: a native kernel holds one worker, and the host waits in
 *     clFinish, so the application thread runs work-groups beside the
 *     other worker;
 *   - late helper: the same, but the command waits for a user event that
 *     another thread sets once the host sleeps in clFinish: the sleeping
 *     thread must wake to run work-groups queued after it fell asleep
 *     (a worker that took the command first, to compile its kernel, left
 *     the waiting thread asleep and ran every group alone).
 * Every width runs it (kernels.test_generic_exchange.w<N>).
 */
#include "kernels.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#define FENCE_LOCAL 1 /* CLK_LOCAL_MEM_FENCE */
#define FENCE_GLOBAL 2

/* classify()'s bits for a pointer of each space, as test_generic.c's. */
enum { IS_GLOBAL = 1, IS_LOCAL = 2, IS_PRIVATE = 4, SAME = 8, TIMED_OUT = 1 << 30 };
#define CLASS(space) ((space) | SAME | ((space) == IS_LOCAL ? FENCE_LOCAL : FENCE_GLOBAL) << 4)

/* Results per work-item: the class of each of the partner's pointers. */
enum { R_LOCAL, R_LOCAL_ARG, R_PRIVATE, R_KEPT, R_GLOBAL, R_COUNT };

static const char source[] =
    "typedef struct { int *l, *la, *p, *kept, *g; } ptrs;\n"
    "\n"
    "int classify(int *p) {\n"
    "    global int *g = to_global(p);\n"
    "    local int *l = to_local(p);\n"
    "    private int *q = to_private(p);\n"
    "    int same = (!g || g == p) && (!l || l == p) && (!q || q == p);\n"
    "    return (g != 0) | (l != 0) << 1 | (q != 0) << 2 | same << 3 | get_fence(p) << 4;\n"
    "}\n"
    "\n"
    "#ifdef WITH_BARRIER\n"
    "#define SYNC() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)\n"
    "#else\n"
    "#define SYNC()\n"
    "#endif\n"
    "\n"
    /* Work-group 2k trades with 2k + 1, work-item for work-item. */
    "kernel void exchange(global ptrs *slots, global atomic_int *ready, global int *out,\n"
    "                     global int *gbuf, local int *larg, long patience) {\n"
    "    local int lvar[256];\n"
    "    int arr[4];\n"
    "    int gid = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);\n"
    "    int partner = (get_group_id(0) ^ 1) * size + lid;\n"
    "    for (int i = 0; i < 4; i++) arr[i] = gid + i;\n"
    "    int kept = gid * 3;\n"
    "    lvar[lid] = gid;\n"
    "    larg[lid] = -gid;\n"
    "    ptrs mine = {&lvar[lid], &larg[lid], &arr[gid & 3], &kept, &gbuf[gid]};\n"
    "    slots[gid] = mine;\n"
    "    atomic_store_explicit(&ready[gid], 1, memory_order_release, memory_scope_device);\n"
    "    SYNC();\n"
    "    long waited = 0;\n"
    "    while (!atomic_load_explicit(&ready[partner], memory_order_acquire, memory_scope_device)\n"
    "           && ++waited < patience) {}\n"
    "    global int *o = out + gid * 5;\n"
    "    ptrs theirs = slots[partner];\n"
    "    int late = waited == patience ? 1 << 30 : 0;\n"
    "    o[0] = late ? late : classify(theirs.l);\n"
    "    o[1] = late ? late : classify(theirs.la);\n"
    "    o[2] = late ? late : classify(theirs.p);\n"
    "    o[3] = late ? late : classify(theirs.kept);\n"
    "    o[4] = late ? late : classify(theirs.g);\n"
    "    SYNC();\n"
    /* The private values stay in use after the barrier: `kept` lives in the frame. */
    "    gbuf[gid] = kept + arr[(gid + 1) & 3] + lvar[lid] + larg[lid];\n"
    "}\n";

/* How many times a work-item looks for its partner before it gives up (seconds of spinning). */
static const long patience = 1L << 31;

static atomic_int holding; /* 1 while the native kernel holds its worker */
static atomic_int release_worker;

static void hold_worker(void *args)
{
    (void)args;
    atomic_store(&holding, 1);
    while (!atomic_load(&release_worker)) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

enum mode { WORKERS, HELPER, LATE_HELPER };

/* Sets the user event after a while, from a thread of the application's own. */
static void *set_later(void *event)
{
    struct timespec wait = {0, 100000000};
    nanosleep(&wait, NULL);
    clSetUserEventStatus(event, CL_COMPLETE);
    return NULL;
}

static void check(cl_program p, enum mode mode, size_t groups, size_t local, bool barrier)
{
    size_t global = groups * local;
    cl_int err;
    cl_kernel k = clCreateKernel(p, "exchange", &err);
    KT_CHECK_CL(err);
    size_t slot = 5 * sizeof(void *);
    int *out = malloc(global * R_COUNT * sizeof *out), *gbuf = calloc(global, sizeof *gbuf);
    int *ready = calloc(global, sizeof *ready);
    cl_mem m_slots = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE, global * slot, NULL, &err);
    KT_CHECK_CL(err);
    cl_mem m_ready = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                    global * sizeof *ready, ready, &err);
    KT_CHECK_CL(err);
    cl_mem m_out =
        clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE, global * R_COUNT * sizeof *out, NULL, &err);
    KT_CHECK_CL(err);
    cl_mem m_gbuf = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   global * sizeof *gbuf, gbuf, &err);
    KT_CHECK_CL(err);
    cl_mem mems[] = {m_slots, m_ready, m_out, m_gbuf};
    for (cl_uint i = 0; i < 4; i++)
        KT_CHECK_CL(clSetKernelArg(k, i, sizeof(cl_mem), &mems[i]));
    KT_CHECK_CL(clSetKernelArg(k, 4, local * sizeof(int), NULL));
    cl_long wait = patience;
    KT_CHECK_CL(clSetKernelArg(k, 5, sizeof wait, &wait));

    cl_command_queue holder = NULL;
    if (mode != WORKERS) {
        /* A worker busy with the application's code: the other runs beside this thread. */
        holder = clCreateCommandQueueWithProperties(kt.ctx, kt.dev, NULL, &err);
        KT_CHECK_CL(err);
        atomic_store(&holding, 0);
        atomic_store(&release_worker, 0);
        KT_CHECK_CL(
            clEnqueueNativeKernel(holder, hold_worker, NULL, 0, 0, NULL, NULL, 0, NULL, NULL));
        KT_CHECK_CL(clFlush(holder));
        while (!atomic_load(&holding)) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
    cl_event done, start = NULL;
    pthread_t setter;
    if (mode == LATE_HELPER) {
        start = clCreateUserEvent(kt.ctx, &err);
        KT_CHECK_CL(err);
        if (pthread_create(&setter, NULL, set_later, start) != 0)
            KT_FAIL("exchange: cannot start a thread");
    }
    KT_CHECK_CL(clEnqueueNDRangeKernel(kt.queue, k, 1, NULL, &global, &local, start ? 1 : 0,
                                       start ? &start : NULL, &done));
    if (mode != WORKERS) {
        KT_CHECK_CL(clFinish(kt.queue)); /* this thread runs work-groups while it waits */
        if (start) {
            pthread_join(setter, NULL);
            clReleaseEvent(start);
        }
        atomic_store(&release_worker, 1);
        KT_CHECK_CL(clFinish(holder));
        clReleaseCommandQueue(holder);
    } else {
        /* Poll without waiting in OpenCL: only the workers run the work-groups. */
        KT_CHECK_CL(clFlush(kt.queue));
        cl_int status = CL_QUEUED;
        do {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
            KT_CHECK_CL(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                       &status, NULL));
        } while (status > CL_COMPLETE);
        if (status != CL_COMPLETE)
            KT_FAIL("exchange: the command ended with %d", status);
    }
    clReleaseEvent(done);
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, m_out, CL_TRUE, 0, global * R_COUNT * sizeof *out,
                                    out, 0, NULL, NULL));
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, m_gbuf, CL_TRUE, 0, global * sizeof *gbuf, gbuf, 0,
                                    NULL, NULL));
    static const char *names[R_COUNT] = {"__local variable", "__local argument", "private array",
                                         "private variable kept across the barrier", "__global"};
    static const int expect[R_COUNT] = {CLASS(IS_LOCAL), CLASS(IS_LOCAL), CLASS(IS_PRIVATE),
                                        CLASS(IS_PRIVATE), CLASS(IS_GLOBAL)};
    const char *how = mode == WORKERS  ? "two workers"
                      : mode == HELPER ? "a worker and the waiting thread"
                                       : "a worker and the thread asleep in clFinish";
    size_t wrong[R_COUNT] = {0}, timed_out = 0;
    for (size_t i = 0; i < global; i++) {
        const int *o = out + i * R_COUNT;
        if (o[0] == TIMED_OUT) {
            timed_out++;
            continue;
        }
        for (int r = 0; r < R_COUNT; r++)
            if (o[r] != expect[r] && wrong[r]++ == 0)
                KT_FAIL("exchange (%s, %s, %zu groups of %zu): work-item %zu: the partner's "
                        "pointer to its %s classifies as %#x, expected %#x",
                        how, barrier ? "barrier" : "no barrier", groups, local, i, names[r], o[r],
                        expect[r]);
        int gid = (int)i;
        int sum = gid * 3 + (gid + ((gid + 1) & 3)) + gid - gid;
        if (gbuf[i] != sum && wrong[0]++ == 0)
            KT_FAIL("exchange: work-item %zu's own memory holds %d, expected %d", i, gbuf[i], sum);
    }
    for (int r = 0; r < R_COUNT; r++)
        if (wrong[r] > 1)
            KT_FAIL("exchange (%s): %zu work-items in all got the %s wrong", how, wrong[r],
                    names[r]);
    if (timed_out)
        KT_FAIL("exchange (%s, %zu groups of %zu): %zu work-items never saw their partner: the "
                "work-groups did not run at once",
                how, groups, local, timed_out);
    for (cl_uint i = 0; i < 4; i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(k);
    free(out);
    free(gbuf);
    free(ready);
}

int main(void)
{
    /* Two workers whatever the machine: the pairs of work-groups need two threads. */
    setenv("LANES_NUM_THREADS", "2", 1);
    kt_setup();
    cl_device_exec_capabilities caps = 0;
    KT_CHECK_CL(
        clGetDeviceInfo(kt.dev, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL));
    /* Local sizes of one sub-group, several, and a partial last one. */
    static const size_t locals[] = {1, 16, 64, 40};
    for (int barrier = 0; barrier < 2; barrier++) {
        cl_program p = kt_build(source, barrier ? "-cl-std=CL3.0 -DWITH_BARRIER" : "-cl-std=CL3.0");
        for (size_t l = 0; l < sizeof locals / sizeof *locals; l++) {
            check(p, WORKERS, 8, locals[l], barrier);
            if (caps & CL_EXEC_NATIVE_KERNEL) {
                check(p, HELPER, 4, locals[l], barrier);
                check(p, LATE_HELPER, 4, locals[l], barrier);
            }
        }
        clReleaseProgram(p);
    }
    if (!(caps & CL_EXEC_NATIVE_KERNEL))
        KT_FAIL("the device runs no native kernel: the waiting thread's case was not run");
    return kt_teardown();
}
