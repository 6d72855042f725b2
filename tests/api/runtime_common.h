/* SPDX-License-Identifier: MIT */
/* Shared by the queue, event, buffer and transfer tests: a context and queues. */
#ifndef LANES_TESTS_RUNTIME_COMMON_H
#define LANES_TESTS_RUNTIME_COMMON_H

#include "common.h"

#include <stdbool.h>
#include <time.h>

struct fixture {
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;   /* in-order */
    cl_command_queue ooo; /* out-of-order, profiling */
};

static inline int fixture_setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    cl_int err;
    f->dev = lanes_test_device();
    f->ctx = clCreateContext(NULL, 1, &f->dev, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return -1;
    f->q = clCreateCommandQueue(f->ctx, f->dev, 0, &err);
    if (err != CL_SUCCESS)
        return -1;
    const cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE, 0};
    f->ooo = clCreateCommandQueueWithProperties(f->ctx, f->dev, props, &err);
    if (err != CL_SUCCESS)
        return -1;
    *state = f;
    return 0;
}

static inline int fixture_teardown(void **state)
{
    struct fixture *f = *state;
    clFinish(f->q);
    clFinish(f->ooo);
    clReleaseCommandQueue(f->q);
    clReleaseCommandQueue(f->ooo);
    clReleaseContext(f->ctx);
    free(f);
    return 0;
}

static inline cl_mem test_buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host)
{
    cl_int err = -1;
    cl_mem m = clCreateBuffer(ctx, flags, size, host, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(m);
    return m;
}

static inline cl_int event_status(cl_event e)
{
    cl_int s = 99;
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL),
                     CL_SUCCESS);
    return s;
}

static inline void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Spins (politely) until *flag reaches want or about 5 s have passed. */
static inline int wait_for_counter(volatile int *flag, int want)
{
    for (int i = 0; i < 5000 && __atomic_load_n(flag, __ATOMIC_ACQUIRE) < want; i++)
        sleep_ms(1);
    return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
}

#endif
