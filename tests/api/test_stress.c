/* SPDX-License-Identifier: MIT */
/*
 * Stress: 8 host threads share 4 queues (2 in-order, 2 out-of-order) and
 * enqueue chains of dependent fills, copies, maps, unmaps and reads, each
 * chain gated by a user event and crossing queues through events. Every read
 * is checked byte for byte in its completion callback; a side chain gated by a
 * failing user event checks that errors reach their callbacks. Prints
 * commands per second and wall time; asserts correctness, no lost callback
 * and (through ctest's timeout) no deadlock.
 */
#include "runtime_common.h"

#include <pthread.h>
#include <stdio.h>

enum { THREADS = 8, QUEUES = 4, ITERATIONS = 3000, WORDS = 256, CHECK_EVERY = 25 };

static cl_context ctx;
static cl_command_queue queues[QUEUES];
static int reads_done, reads_bad, errors_seen, commands;

struct slot {
    cl_uint expected;
    cl_uint data[WORDS];
};

static void CL_CALLBACK check_read(cl_event e, cl_int status, void *p)
{
    (void)e;
    struct slot *s = p;
    bool ok = status == CL_COMPLETE;
    for (int i = 0; ok && i < WORDS; i++)
        ok = s->data[i] == s->expected;
    if (!ok)
        __atomic_fetch_add(&reads_bad, 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(&reads_done, 1, __ATOMIC_SEQ_CST);
}

static void CL_CALLBACK check_error(cl_event e, cl_int status, void *p)
{
    (void)e, (void)p;
    if (status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        __atomic_fetch_add(&errors_seen, 1, __ATOMIC_SEQ_CST);
}

struct worker {
    int id;
    cl_int failure; /* first unexpected error code */
    struct slot *slots;
};

#define TRY(call)                                                                                  \
    do {                                                                                           \
        cl_int err_ = (call);                                                                      \
        if (err_ != CL_SUCCESS) {                                                                  \
            w->failure = err_;                                                                     \
            fprintf(stderr, "thread %d: %s = %d\n", w->id, #call, err_);                           \
            return NULL;                                                                           \
        }                                                                                          \
    } while (0)

static void *run(void *arg)
{
    struct worker *w = arg;
    cl_int err;
    cl_mem a = clCreateBuffer(ctx, 0, sizeof(cl_uint) * WORDS, NULL, &err);
    cl_mem b = clCreateBuffer(ctx, 0, sizeof(cl_uint) * WORDS, NULL, &err);
    cl_mem scratch = clCreateBuffer(ctx, 0, 64, NULL, &err);
    cl_event prev = NULL;
    size_t size = sizeof(cl_uint) * WORDS;
    for (int i = 0; i < ITERATIONS; i++) {
        cl_command_queue q[4];
        for (int k = 0; k < 4; k++)
            q[k] = queues[(w->id + i + k) % QUEUES];
        cl_uint pattern = ((cl_uint)w->id << 20) | (cl_uint)i;
        cl_event gate = clCreateUserEvent(ctx, &err), filled, copied, mapped, unmapped, read;
        TRY(err);
        cl_event fill_wait[2] = {gate, prev};
        TRY(clEnqueueFillBuffer(q[0], a, &pattern, sizeof pattern, 0, size, prev ? 2 : 1, fill_wait,
                                &filled));
        TRY(clEnqueueCopyBuffer(q[1], a, b, 0, 0, size, 1, &filled, &copied));
        void *p =
            clEnqueueMapBuffer(q[2], b, CL_FALSE, CL_MAP_READ, 0, size, 1, &copied, &mapped, &err);
        TRY(err);
        TRY(clEnqueueUnmapMemObject(q[2], b, p, 1, &mapped, &unmapped));
        struct slot *s = &w->slots[i];
        s->expected = pattern;
        TRY(clEnqueueReadBuffer(q[3], b, CL_FALSE, 0, size, s->data, 1, &unmapped, &read));
        TRY(clSetEventCallback(read, CL_COMPLETE, check_read, s));
        __atomic_fetch_add(&commands, 5, __ATOMIC_RELAXED);
        /* A side chain that fails: its error must reach the callback. */
        if (i % 50 == 7) {
            cl_event bad = clCreateUserEvent(ctx, &err), doomed;
            TRY(clEnqueueFillBuffer(q[1], scratch, &pattern, sizeof pattern, 0, 64, 1, &bad,
                                    &doomed));
            TRY(clSetEventCallback(doomed, CL_COMPLETE, check_error, NULL));
            TRY(clSetUserEventStatus(bad, -42));
            clReleaseEvent(doomed);
            clReleaseEvent(bad);
            __atomic_fetch_add(&commands, 1, __ATOMIC_RELAXED);
        }
        /* Out-of-order queues also see barriers. */
        if (i % 40 == 3) {
            TRY(clEnqueueBarrierWithWaitList(queues[1], 0, NULL, NULL));
            __atomic_fetch_add(&commands, 1, __ATOMIC_RELAXED);
        }
        TRY(clSetUserEventStatus(gate, CL_COMPLETE));
        if (prev)
            clReleaseEvent(prev);
        prev = read;
        /* Now and then, a blocking map checks the chain from the host. */
        if (i % CHECK_EVERY == CHECK_EVERY - 1) {
            cl_uint *m =
                clEnqueueMapBuffer(q[3], b, CL_TRUE, CL_MAP_READ, 0, size, 1, &read, NULL, &err);
            TRY(err);
            for (int k = 0; k < WORDS; k++)
                if (m[k] != pattern) {
                    fprintf(stderr, "thread %d: map %d word %d: %x != %x\n", w->id, i, k, m[k],
                            pattern);
                    w->failure = -1;
                    return NULL;
                }
            cl_event done;
            TRY(clEnqueueUnmapMemObject(q[3], b, m, 0, NULL, &done));
            clReleaseEvent(prev);
            prev = done;
            __atomic_fetch_add(&commands, 2, __ATOMIC_RELAXED);
        }
        clReleaseEvent(gate);
        clReleaseEvent(filled);
        clReleaseEvent(copied);
        clReleaseEvent(mapped);
        clReleaseEvent(unmapped);
    }
    TRY(clWaitForEvents(1, &prev));
    clReleaseEvent(prev);
    cl_uint final[WORDS];
    TRY(clEnqueueReadBuffer(queues[w->id % QUEUES], b, CL_TRUE, 0, size, final, 0, NULL, NULL));
    for (int k = 0; k < WORDS; k++)
        if (final[k] != (((cl_uint)w->id << 20) | (ITERATIONS - 1)))
            w->failure = -2;
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(scratch);
    return NULL;
}

static void stress(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    for (int i = 0; i < QUEUES; i++) {
        queues[i] = clCreateCommandQueue(ctx, dev,
                                         i % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0, &err);
        assert_int_equal(err, CL_SUCCESS);
    }
    struct worker workers[THREADS];
    pthread_t threads[THREADS];
    cl_ulong start, end;
    clGetHostTimer(dev, &start);
    for (int t = 0; t < THREADS; t++) {
        workers[t] = (struct worker){t, CL_SUCCESS, calloc(ITERATIONS, sizeof(struct slot))};
        assert_non_null(workers[t].slots);
        assert_int_equal(pthread_create(&threads[t], NULL, run, &workers[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(threads[t], NULL);
    for (int i = 0; i < QUEUES; i++)
        assert_int_equal(clFinish(queues[i]), CL_SUCCESS);
    clGetHostTimer(dev, &end);
    /* Callbacks may trail the events they report on: give them a moment. */
    int expected_errors = THREADS * ((ITERATIONS - 7 + 49) / 50);
    wait_for_counter(&reads_done, THREADS * ITERATIONS);
    wait_for_counter(&errors_seen, expected_errors);
    double seconds = (double)(end - start) / 1e9;
    printf("stress: %d threads x %d queues, %d commands in %.3f s: %.0f commands/s\n", THREADS,
           QUEUES, commands, seconds, commands / seconds);
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(workers[t].failure, CL_SUCCESS);
        free(workers[t].slots);
    }
    assert_int_equal(reads_done, THREADS * ITERATIONS);
    assert_int_equal(reads_bad, 0);
    assert_int_equal(errors_seen, expected_errors);
    for (int i = 0; i < QUEUES; i++)
        clReleaseCommandQueue(queues[i]);
    clReleaseContext(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(stress)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
