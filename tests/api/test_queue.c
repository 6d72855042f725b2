/* SPDX-License-Identifier: MIT */
/* Command-queues through the loader: creation, queries, ordering, errors. */
#include "runtime_common.h"

static void create_legacy(void **state)
{
    struct fixture *f = *state;
    const cl_command_queue_properties all[] = {
        0, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, CL_QUEUE_PROFILING_ENABLE,
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        cl_int err = -1;
        cl_command_queue q = clCreateCommandQueue(f->ctx, f->dev, all[i], &err);
        assert_int_equal(err, CL_SUCCESS);
        cl_context ctx;
        cl_device_id dev;
        cl_uint refs;
        cl_command_queue_properties props;
        cl_command_queue def = (cl_command_queue)1;
        size_t size = 99;
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL),
                         CL_SUCCESS);
        assert_ptr_equal(ctx, f->ctx);
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL),
                         CL_SUCCESS);
        assert_ptr_equal(dev, f->dev);
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, &size),
                         CL_SUCCESS);
        assert_int_equal(size, sizeof props);
        assert_int_equal(props, all[i]);
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size),
                         CL_SUCCESS);
        assert_int_equal(size, 0);
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof def, &def, NULL),
                         CL_SUCCESS);
        assert_null(def);
        assert_int_equal(
            clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL),
            CL_SUCCESS);
        assert_int_equal(refs, 1);
        assert_int_equal(clRetainCommandQueue(q), CL_SUCCESS);
        assert_int_equal(
            clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL),
            CL_SUCCESS);
        assert_int_equal(refs, 2);
        /* Not a device queue: CL_QUEUE_SIZE cannot be asked. */
        cl_uint qsize;
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof qsize, &qsize, NULL),
                         CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clGetCommandQueueInfo(q, 0x7fff, sizeof refs, &refs, NULL),
                         CL_INVALID_VALUE);
        assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, 1, &ctx, NULL),
                         CL_INVALID_VALUE);
        assert_int_equal(clFlush(q), CL_SUCCESS);
        assert_int_equal(clFinish(q), CL_SUCCESS);
        assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
        assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    }
}

static void create_with_properties(void **state)
{
    struct fixture *f = *state;
    cl_int err = -1;
    cl_command_queue q = clCreateCommandQueueWithProperties(f->ctx, f->dev, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue_properties props = 99;
    size_t size = 99;
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL),
                     CL_SUCCESS);
    assert_int_equal(props, 0);
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size),
                     CL_SUCCESS);
    assert_int_equal(size, 0);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);

    /* The array comes back as given, in order. */
    const cl_queue_properties given[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    q = clCreateCommandQueueWithProperties(f->ctx, f->dev, given, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_queue_properties got[8];
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof got, got, &size),
                     CL_SUCCESS);
    assert_int_equal(size, sizeof given);
    assert_memory_equal(got, given, sizeof given);
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL),
                     CL_SUCCESS);
    assert_int_equal(props, CL_QUEUE_PROFILING_ENABLE);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);

    /* An empty list is a list: it comes back as the lone 0. */
    const cl_queue_properties empty[] = {0};
    q = clCreateCommandQueueWithProperties(f->ctx, f->dev, empty, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &size),
                     CL_SUCCESS);
    assert_int_equal(size, sizeof(cl_queue_properties));
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
}

static void refuse_properties(void **state)
{
    struct fixture *f = *state;
    struct {
        cl_queue_properties props[5];
        cl_int err;
    } cases[] = {
        /* On-device queues are valid requests the device does not support. */
        {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0},
         CL_INVALID_QUEUE_PROPERTIES},
        {{CL_QUEUE_PROPERTIES,
          CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
          0},
         CL_INVALID_QUEUE_PROPERTIES},
        {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE, 0}, CL_INVALID_VALUE},
        {{CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT, 0}, CL_INVALID_VALUE},
        {{CL_QUEUE_PROPERTIES, (cl_queue_properties)1 << 40, 0}, CL_INVALID_VALUE},
        {{CL_QUEUE_SIZE, 1024, 0}, CL_INVALID_VALUE},
        {{CL_QUEUE_PROPERTIES, 0, CL_QUEUE_PROPERTIES, 0, 0}, CL_INVALID_VALUE},
        {{(cl_queue_properties)-1, (cl_queue_properties)-1, 0}, CL_INVALID_VALUE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cl_int err = CL_SUCCESS;
        cl_command_queue q =
            clCreateCommandQueueWithProperties(f->ctx, f->dev, cases[i].props, &err);
        assert_null(q);
        assert_int_equal(err, cases[i].err);
    }
    cl_int err = CL_SUCCESS;
    assert_null(clCreateCommandQueue(f->ctx, f->dev, CL_QUEUE_ON_DEVICE, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateCommandQueue(f->ctx, f->dev, (cl_command_queue_properties)1 << 40, NULL));
}

static void bad_handles(void **state)
{
    struct fixture *f = *state;
    cl_int err = CL_SUCCESS;
    assert_null(clCreateCommandQueue(NULL, f->dev, 0, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateCommandQueue((cl_context)f->q, f->dev, 0, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateCommandQueue(f->ctx, NULL, 0, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);
    assert_null(clCreateCommandQueueWithProperties(NULL, f->dev, NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateCommandQueueWithProperties(f->ctx, (cl_device_id)f->ctx, NULL, &err));
    assert_int_equal(err, CL_INVALID_DEVICE);

    cl_command_queue q = clCreateCommandQueue(f->ctx, f->dev, 0, &err);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    cl_command_queue bad[] = {NULL, (cl_command_queue)f->ctx};
    for (int i = 0; i < 2; i++) {
        cl_uint refs;
        assert_int_equal(clRetainCommandQueue(bad[i]), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clReleaseCommandQueue(bad[i]), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(
            clGetCommandQueueInfo(bad[i], CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL),
            CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clFlush(bad[i]), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clFinish(bad[i]), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clEnqueueBarrier(bad[i]), CL_INVALID_COMMAND_QUEUE);
        assert_int_equal(clSetCommandQueueProperty(bad[i], 0, CL_TRUE, NULL),
                         CL_INVALID_COMMAND_QUEUE);
    }
}

static void deprecated_and_device_queues(void **state)
{
    struct fixture *f = *state;
    cl_command_queue_properties old = 0;
    assert_int_equal(clSetCommandQueueProperty(f->q, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old),
                     CL_INVALID_OPERATION);
    assert_int_equal(clSetDefaultDeviceCommandQueue(f->ctx, f->dev, f->q), CL_INVALID_OPERATION);
    assert_int_equal(clSetDefaultDeviceCommandQueue(NULL, f->dev, f->q), CL_INVALID_CONTEXT);
    assert_int_equal(clSetDefaultDeviceCommandQueue(f->ctx, NULL, f->q), CL_INVALID_DEVICE);

    cl_command_queue_properties host = 0;
    assert_int_equal(
        clGetDeviceInfo(f->dev, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof host, &host, NULL),
        CL_SUCCESS);
    assert_int_equal(host, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    cl_device_exec_capabilities caps = 0;
    assert_int_equal(
        clGetDeviceInfo(f->dev, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL),
        CL_SUCCESS);
    assert_true(caps & CL_EXEC_NATIVE_KERNEL);
}

/* Native kernels that record the order they ran in. */
struct order_log {
    int next;
    int seen[64];
};

struct order_arg {
    struct order_log *log;
    int id;
};

static void CL_CALLBACK record(void *p)
{
    struct order_arg *a = p;
    int slot = __atomic_fetch_add(&a->log->next, 1, __ATOMIC_SEQ_CST);
    a->log->seen[slot] = a->id;
}

static void enqueue_record(cl_command_queue q, struct order_log *log, int id, cl_uint n,
                           const cl_event *wait, cl_event *ev)
{
    struct order_arg a = {log, id};
    assert_int_equal(clEnqueueNativeKernel(q, record, &a, sizeof a, 0, NULL, NULL, n, wait, ev),
                     CL_SUCCESS);
}

static void in_order_runs_in_order(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_event gate = clCreateUserEvent(f->ctx, &err);
    struct order_log log = {0};
    cl_event first, last;
    enqueue_record(f->q, &log, 0, 1, &gate, &first);
    for (int i = 1; i < 40; i++)
        enqueue_record(f->q, &log, i, 0, NULL, i == 39 ? &last : NULL);
    sleep_ms(20);
    /* Everything waits behind the gated first command. */
    assert_int_equal(__atomic_load_n(&log.next, __ATOMIC_SEQ_CST), 0);
    assert_true(event_status(last) > CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    assert_int_equal(log.next, 40);
    for (int i = 0; i < 40; i++)
        assert_int_equal(log.seen[i], i);
    assert_int_equal(event_status(first), CL_COMPLETE);
    assert_int_equal(event_status(last), CL_COMPLETE);
    clReleaseEvent(first);
    clReleaseEvent(last);
    clReleaseEvent(gate);
}

struct rendezvous {
    int a_started, b_started;
};

static void CL_CALLBACK wait_for_b(void *p)
{
    struct rendezvous *r = *(struct rendezvous **)p;
    __atomic_store_n(&r->a_started, 1, __ATOMIC_SEQ_CST);
    wait_for_counter(&r->b_started, 1);
}

static void CL_CALLBACK start_b(void *p)
{
    struct rendezvous *r = *(struct rendezvous **)p;
    wait_for_counter(&r->a_started, 1);
    __atomic_store_n(&r->b_started, 1, __ATOMIC_SEQ_CST);
}

/* Two independent commands of an out-of-order queue run at the same time. */
static void out_of_order_runs_concurrently(void **state)
{
    struct fixture *f = *state;
    cl_uint units = 0;
    assert_int_equal(
        clGetDeviceInfo(f->dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL),
        CL_SUCCESS);
    if (units < 2)
        skip();
    struct rendezvous r = {0, 0}, *p = &r;
    assert_int_equal(
        clEnqueueNativeKernel(f->ooo, wait_for_b, &p, sizeof p, 0, NULL, NULL, 0, NULL, NULL),
        CL_SUCCESS);
    assert_int_equal(
        clEnqueueNativeKernel(f->ooo, start_b, &p, sizeof p, 0, NULL, NULL, 0, NULL, NULL),
        CL_SUCCESS);
    assert_int_equal(clFinish(f->ooo), CL_SUCCESS);
    assert_int_equal(r.a_started, 1);
    assert_int_equal(r.b_started, 1);
}

static void out_of_order_barrier_and_marker(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_event gate = clCreateUserEvent(f->ctx, &err);
    struct order_log log = {0};
    cl_event gated, marker, free_runner, barrier, after;
    enqueue_record(f->ooo, &log, 1, 1, &gate, &gated);
    /* A marker with no wait list waits for everything before it... */
    assert_int_equal(clEnqueueMarkerWithWaitList(f->ooo, 0, NULL, &marker), CL_SUCCESS);
    /* ...but does not hold later commands back. */
    enqueue_record(f->ooo, &log, 2, 0, NULL, &free_runner);
    assert_int_equal(clWaitForEvents(1, &free_runner), CL_SUCCESS);
    assert_int_equal(log.next, 1);
    assert_int_equal(log.seen[0], 2);
    assert_true(event_status(marker) > CL_COMPLETE);
    /* A barrier holds every later command back. */
    assert_int_equal(clEnqueueBarrierWithWaitList(f->ooo, 0, NULL, &barrier), CL_SUCCESS);
    enqueue_record(f->ooo, &log, 3, 0, NULL, &after);
    sleep_ms(20);
    assert_int_equal(__atomic_load_n(&log.next, __ATOMIC_SEQ_CST), 1);
    assert_true(event_status(after) > CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &after), CL_SUCCESS);
    assert_int_equal(log.next, 3);
    assert_int_equal(log.seen[1], 1);
    assert_int_equal(log.seen[2], 3);
    assert_int_equal(event_status(marker), CL_COMPLETE);
    assert_int_equal(event_status(barrier), CL_COMPLETE);
    cl_command_type type;
    assert_int_equal(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_MARKER);
    assert_int_equal(clGetEventInfo(barrier, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_BARRIER);
    cl_event evs[] = {gate, gated, marker, free_runner, barrier, after};
    for (int i = 0; i < 6; i++)
        clReleaseEvent(evs[i]);
}

/* A barrier with a wait list waits for that list only, and still orders later commands. */
static void barrier_with_wait_list(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_event gate = clCreateUserEvent(f->ctx, &err), other_gate = clCreateUserEvent(f->ctx, &err);
    struct order_log log = {0};
    cl_event unrelated, barrier, after;
    enqueue_record(f->ooo, &log, 1, 1, &other_gate, &unrelated);
    assert_int_equal(clEnqueueBarrierWithWaitList(f->ooo, 1, &gate, &barrier), CL_SUCCESS);
    enqueue_record(f->ooo, &log, 2, 0, NULL, &after);
    sleep_ms(10);
    assert_int_equal(__atomic_load_n(&log.next, __ATOMIC_SEQ_CST), 0);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &after), CL_SUCCESS);
    assert_int_equal(log.seen[0], 2);
    assert_true(event_status(unrelated) > CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(other_gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clFinish(f->ooo), CL_SUCCESS);
    assert_int_equal(log.next, 2);
    cl_event evs[] = {gate, other_gate, unrelated, barrier, after};
    for (int i = 0; i < 5; i++)
        clReleaseEvent(evs[i]);
}

static void legacy_sync_commands(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_event gate = clCreateUserEvent(f->ctx, &err), marker;
    struct order_log log = {0};
    assert_int_equal(clEnqueueWaitForEvents(f->ooo, 1, &gate), CL_SUCCESS);
    enqueue_record(f->ooo, &log, 1, 0, NULL, NULL);
    assert_int_equal(clEnqueueMarker(f->ooo, &marker), CL_SUCCESS);
    assert_int_equal(clEnqueueBarrier(f->ooo), CL_SUCCESS);
    sleep_ms(10);
    assert_int_equal(__atomic_load_n(&log.next, __ATOMIC_SEQ_CST), 0);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &marker), CL_SUCCESS);
    assert_int_equal(log.next, 1);

    assert_int_equal(clEnqueueMarker(f->ooo, NULL), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueMarker(NULL, &marker), CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(clEnqueueWaitForEvents(f->ooo, 0, &gate), CL_INVALID_VALUE);
    assert_int_equal(clEnqueueWaitForEvents(f->ooo, 1, NULL), CL_INVALID_VALUE);
    cl_event bad = (cl_event)f->ctx;
    assert_int_equal(clEnqueueWaitForEvents(f->ooo, 1, &bad), CL_INVALID_EVENT);
    cl_context other = clCreateContext(NULL, 1, &f->dev, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    assert_int_equal(clEnqueueWaitForEvents(f->ooo, 1, &foreign), CL_INVALID_CONTEXT);
    assert_int_equal(clEnqueueMarkerWithWaitList(f->ooo, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    assert_int_equal(clEnqueueBarrierWithWaitList(f->ooo, 1, &foreign, NULL), CL_INVALID_CONTEXT);
    assert_int_equal(clEnqueueMarkerWithWaitList(f->ooo, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueBarrierWithWaitList(f->ooo, 0, &gate, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueMarkerWithWaitList(f->ooo, 1, &bad, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    clReleaseEvent(foreign);
    clReleaseContext(other);
    clReleaseEvent(marker);
    clReleaseEvent(gate);
}

/* Releasing a queue with commands in flight flushes them; they still run. */
static void release_with_pending_commands(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(f->ctx, f->dev, 0, &err);
    cl_event gate = clCreateUserEvent(f->ctx, &err), done;
    struct order_log log = {0};
    enqueue_record(q, &log, 7, 1, &gate, NULL);
    enqueue_record(q, &log, 8, 0, NULL, &done);
    assert_int_equal(clReleaseCommandQueue(q), CL_SUCCESS);
    assert_int_equal(clRetainCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
    /* The event still names its queue. */
    cl_command_queue got = NULL;
    assert_int_equal(clGetEventInfo(done, CL_EVENT_COMMAND_QUEUE, sizeof got, &got, NULL),
                     CL_SUCCESS);
    assert_ptr_equal(got, q);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &done), CL_SUCCESS);
    assert_int_equal(log.next, 2);
    assert_int_equal(log.seen[0], 7);
    assert_int_equal(log.seen[1], 8);
    clReleaseEvent(done);
    clReleaseEvent(gate);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_legacy),
        cmocka_unit_test(create_with_properties),
        cmocka_unit_test(refuse_properties),
        cmocka_unit_test(bad_handles),
        cmocka_unit_test(deprecated_and_device_queues),
        cmocka_unit_test(in_order_runs_in_order),
        cmocka_unit_test(out_of_order_runs_concurrently),
        cmocka_unit_test(out_of_order_barrier_and_marker),
        cmocka_unit_test(barrier_with_wait_list),
        cmocka_unit_test(legacy_sync_commands),
        cmocka_unit_test(release_with_pending_commands),
    };
    return cmocka_run_group_tests(tests, fixture_setup, fixture_teardown);
}
