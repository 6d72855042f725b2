/* SPDX-License-Identifier: MIT */
/*
 * Events through the loader: user events, callbacks, errors, profiling,
 * native kernels, and the threads the application's code runs on.
 */
#include "runtime_common.h"

#include <pthread.h>
#include <unistd.h>

static void user_event(void **state)
{
    struct fixture *f = *state;
    cl_int err = -1;
    cl_event e = clCreateUserEvent(f->ctx, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue q = (cl_command_queue)1;
    cl_context ctx = NULL;
    cl_command_type type = 0;
    cl_uint refs = 0;
    size_t size = 0;
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, &size), CL_SUCCESS);
    assert_null(q);
    assert_int_equal(size, sizeof q);
    assert_int_equal(clGetEventInfo(e, CL_EVENT_CONTEXT, sizeof ctx, &ctx, NULL), CL_SUCCESS);
    assert_ptr_equal(ctx, f->ctx);
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_USER);
    assert_int_equal(event_status(e), CL_SUBMITTED);
    assert_int_equal(clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    assert_int_equal(refs, 1);
    assert_int_equal(clRetainEvent(e), CL_SUCCESS);
    assert_int_equal(clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    assert_int_equal(refs, 2);
    assert_int_equal(clReleaseEvent(e), CL_SUCCESS);
    assert_int_equal(clGetEventInfo(e, 0x7fff, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetEventInfo(e, CL_EVENT_CONTEXT, 1, &ctx, NULL), CL_INVALID_VALUE);
    cl_ulong t;
    assert_int_equal(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, NULL),
                     CL_PROFILING_INFO_NOT_AVAILABLE);

    assert_int_equal(clSetUserEventStatus(e, CL_SUBMITTED), CL_INVALID_VALUE);
    assert_int_equal(clSetUserEventStatus(e, CL_RUNNING), CL_INVALID_VALUE);
    assert_int_equal(clSetUserEventStatus(e, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(event_status(e), CL_COMPLETE);
    assert_int_equal(clSetUserEventStatus(e, CL_COMPLETE), CL_INVALID_OPERATION);
    assert_int_equal(clSetUserEventStatus(e, -1), CL_INVALID_OPERATION);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    assert_int_equal(clReleaseEvent(e), CL_SUCCESS);

    /*
     * Released while its command waits: the runtime keeps the memory, so the
     * handle can be checked (a freed handle would crash the loader itself,
     * which reads the dispatch table through it).
     */
    cl_event gate = clCreateUserEvent(f->ctx, &err), pending;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->q, 1, &gate, &pending), CL_SUCCESS);
    assert_int_equal(clReleaseEvent(pending), CL_SUCCESS);
    assert_int_equal(clRetainEvent(pending), CL_INVALID_EVENT);
    assert_int_equal(clReleaseEvent(pending), CL_INVALID_EVENT);
    assert_int_equal(clGetEventInfo(pending, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_INVALID_EVENT);
    assert_int_equal(clWaitForEvents(1, &pending), CL_INVALID_EVENT);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    clReleaseEvent(gate);

    assert_null(clCreateUserEvent(NULL, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);
    assert_null(clCreateUserEvent((cl_context)f->q, NULL));
    assert_int_equal(clSetUserEventStatus(NULL, CL_COMPLETE), CL_INVALID_EVENT);
    /* A command's event is not a user event. */
    cl_event marker;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->q, 0, NULL, &marker), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(marker, CL_COMPLETE), CL_INVALID_EVENT);
    assert_int_equal(clWaitForEvents(1, &marker), CL_SUCCESS);
    clReleaseEvent(marker);
}

static void wait_errors(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_event e = clCreateUserEvent(f->ctx, &err);
    assert_int_equal(clWaitForEvents(0, &e), CL_INVALID_VALUE);
    assert_int_equal(clWaitForEvents(1, NULL), CL_INVALID_VALUE);
    cl_event bad[] = {e, NULL};
    assert_int_equal(clWaitForEvents(2, bad), CL_INVALID_EVENT);
    cl_context other = clCreateContext(NULL, 1, &f->dev, NULL, NULL, &err);
    cl_event foreign = clCreateUserEvent(other, &err);
    cl_event mixed[] = {e, foreign};
    assert_int_equal(clWaitForEvents(2, mixed), CL_INVALID_CONTEXT);
    /* A wait list with an event of another context is refused too. */
    cl_mem buf = test_buffer(f->ctx, CL_MEM_READ_WRITE, 64, NULL);
    char host[64];
    assert_int_equal(clEnqueueWriteBuffer(f->q, buf, CL_FALSE, 0, 64, host, 1, &foreign, NULL),
                     CL_INVALID_CONTEXT);
    assert_int_equal(clEnqueueWriteBuffer(f->q, buf, CL_FALSE, 0, 64, host, 1, NULL, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    assert_int_equal(clEnqueueWriteBuffer(f->q, buf, CL_FALSE, 0, 64, host, 0, &e, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    cl_event dead;
    assert_int_equal(clEnqueueMarkerWithWaitList(f->q, 1, &e, &dead), CL_SUCCESS);
    clReleaseEvent(dead); /* released, kept alive by its pending command */
    assert_int_equal(clEnqueueWriteBuffer(f->q, buf, CL_FALSE, 0, 64, host, 1, &dead, NULL),
                     CL_INVALID_EVENT_WAIT_LIST);
    clSetUserEventStatus(foreign, CL_COMPLETE);
    clSetUserEventStatus(e, CL_COMPLETE);
    clReleaseMemObject(buf);
    clReleaseEvent(foreign);
    clReleaseEvent(e);
    clReleaseContext(other);
}

struct cb_record {
    int calls; /* counted once the call's status and event are written */
    int slots; /* taken */
    cl_int status[8];
    cl_event event[8];
};

static void CL_CALLBACK note(cl_event e, cl_int status, void *p)
{
    struct cb_record *r = p;
    int i = __atomic_fetch_add(&r->slots, 1, __ATOMIC_SEQ_CST);
    if (i < 8) {
        r->status[i] = status;
        r->event[i] = e;
    }
    __atomic_fetch_add(&r->calls, 1, __ATOMIC_SEQ_CST);
}

static void CL_CALLBACK noop(void *p)
{
    (void)p;
}

static void callbacks(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_event gate = clCreateUserEvent(f->ctx, &err), cmd;
    assert_int_equal(clEnqueueNativeKernel(f->ooo, noop, NULL, 0, 0, NULL, NULL, 1, &gate, &cmd),
                     CL_SUCCESS);
    struct cb_record submitted = {0}, running = {0}, complete = {0};
    assert_int_equal(clSetEventCallback(cmd, CL_SUBMITTED, note, &submitted), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(cmd, CL_RUNNING, note, &running), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(cmd, CL_COMPLETE, note, &complete), CL_SUCCESS);
    /* Submitted already: that one is called promptly, the others wait for the gate. */
    assert_int_equal(wait_for_counter(&submitted.calls, 1), 1);
    assert_int_equal(submitted.status[0], CL_SUBMITTED);
    assert_ptr_equal(submitted.event[0], cmd);
    sleep_ms(10);
    assert_int_equal(__atomic_load_n(&running.calls, __ATOMIC_ACQUIRE), 0);
    assert_int_equal(__atomic_load_n(&complete.calls, __ATOMIC_ACQUIRE), 0);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(wait_for_counter(&complete.calls, 1), 1);
    assert_int_equal(wait_for_counter(&running.calls, 1), 1);
    assert_int_equal(running.status[0], CL_RUNNING);
    assert_int_equal(complete.status[0], CL_COMPLETE);
    /* Registered after the fact: called promptly, with the status asked for. */
    struct cb_record late = {0};
    assert_int_equal(clSetEventCallback(cmd, CL_RUNNING, note, &late), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(cmd, CL_COMPLETE, note, &late), CL_SUCCESS);
    assert_int_equal(wait_for_counter(&late.calls, 2), 2);
    assert_true((late.status[0] == CL_RUNNING && late.status[1] == CL_COMPLETE) ||
                (late.status[1] == CL_RUNNING && late.status[0] == CL_COMPLETE));

    /* Callbacks on a user event. */
    struct cb_record user = {0};
    cl_event u = clCreateUserEvent(f->ctx, &err);
    assert_int_equal(clSetEventCallback(u, CL_COMPLETE, note, &user), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
    assert_int_equal(wait_for_counter(&user.calls, 1), 1);
    assert_int_equal(user.status[0], CL_COMPLETE);

    assert_int_equal(clSetEventCallback(cmd, CL_COMPLETE, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clSetEventCallback(cmd, CL_QUEUED, note, &late), CL_INVALID_VALUE);
    assert_int_equal(clSetEventCallback(cmd, -1, note, &late), CL_INVALID_VALUE);
    assert_int_equal(clSetEventCallback(NULL, CL_COMPLETE, note, &late), CL_INVALID_EVENT);
    clReleaseEvent(u);
    clReleaseEvent(cmd);
    clReleaseEvent(gate);
}

/* A callback may release the last reference to its own event. */
static void CL_CALLBACK release_self(cl_event e, cl_int status, void *p)
{
    (void)status;
    clReleaseEvent(e);
    __atomic_fetch_add((int *)p, 1, __ATOMIC_SEQ_CST);
}

static void release_from_callback(void **state)
{
    struct fixture *f = *state;
    int calls = 0;
    for (int i = 0; i < 50; i++) {
        cl_event e;
        assert_int_equal(clEnqueueMarkerWithWaitList(i % 2 ? f->q : f->ooo, 0, NULL, &e),
                         CL_SUCCESS);
        assert_int_equal(clSetEventCallback(e, CL_COMPLETE, release_self, &calls), CL_SUCCESS);
    }
    assert_int_equal(wait_for_counter(&calls, 50), 50);
}

static void error_propagation(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_event gate = clCreateUserEvent(f->ctx, &err), a, b, c, unrelated;
    int ran = 0, *p = &ran;
    struct cb_record rec = {0};
    assert_int_equal(clEnqueueNativeKernel(f->ooo, noop, &p, sizeof p, 0, NULL, NULL, 1, &gate, &a),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueMarkerWithWaitList(f->ooo, 1, &a, &b), CL_SUCCESS);
    assert_int_equal(clEnqueueBarrierWithWaitList(f->ooo, 1, &b, &c), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(c, CL_COMPLETE, note, &rec), CL_SUCCESS);
    assert_int_equal(clSetEventCallback(a, CL_RUNNING, note, &rec), CL_SUCCESS);
    assert_int_equal(clSetUserEventStatus(gate, -1234), CL_SUCCESS);
    assert_int_equal(event_status(gate), -1234);
    cl_event all[] = {a, b, c};
    assert_int_equal(clWaitForEvents(3, all), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    for (int i = 0; i < 3; i++)
        assert_int_equal(event_status(all[i]), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* Both callbacks are called with the error, the RUNNING one included. */
    assert_int_equal(wait_for_counter(&rec.calls, 2), 2);
    assert_int_equal(rec.status[0], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_int_equal(rec.status[1], CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    /* The barrier failed but still ordered; later commands without the error run. */
    assert_int_equal(clEnqueueMarkerWithWaitList(f->ooo, 0, NULL, NULL), CL_SUCCESS);
    assert_int_equal(
        clEnqueueNativeKernel(f->ooo, noop, NULL, 0, 0, NULL, NULL, 0, NULL, &unrelated),
        CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &unrelated), CL_SUCCESS);
    /* A blocking transfer waiting on a failed event reports it. */
    cl_mem buf = test_buffer(f->ctx, CL_MEM_READ_WRITE, 16, NULL);
    char host[16];
    assert_int_equal(clEnqueueReadBuffer(f->q, buf, CL_TRUE, 0, 16, host, 1, &gate, NULL),
                     CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_null(clEnqueueMapBuffer(f->q, buf, CL_TRUE, CL_MAP_READ, 0, 16, 1, &gate, NULL, &err));
    assert_int_equal(err, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_uint maps = 9;
    assert_int_equal(clGetMemObjectInfo(buf, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL),
                     CL_SUCCESS);
    assert_int_equal(maps, 0);
    assert_int_equal(clFinish(f->q), CL_SUCCESS);
    clReleaseMemObject(buf);
    cl_event evs[] = {gate, a, b, c, unrelated};
    for (int i = 0; i < 5; i++)
        clReleaseEvent(evs[i]);
}

static void profiling(void **state)
{
    struct fixture *f = *state;
    cl_ulong before, after;
    assert_int_equal(clGetHostTimer(f->dev, &before), CL_SUCCESS);
    cl_mem buf = test_buffer(f->ctx, CL_MEM_READ_WRITE, 1 << 16, NULL);
    const cl_uint pattern = 7;
    cl_event e;
    assert_int_equal(
        clEnqueueFillBuffer(f->ooo, buf, &pattern, sizeof pattern, 0, 1 << 16, 0, NULL, &e),
        CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    assert_int_equal(clGetHostTimer(f->dev, &after), CL_SUCCESS);
    cl_ulong t[5];
    for (int i = 0; i < 5; i++) {
        size_t size = 0;
        assert_int_equal(
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED + i, sizeof t[i], &t[i], &size),
            CL_SUCCESS);
        assert_int_equal(size, sizeof(cl_ulong));
    }
    assert_true(before <= t[0]);
    for (int i = 1; i < 5; i++)
        assert_true(t[i - 1] <= t[i]);
    assert_true(t[4] <= after);
    assert_int_equal(clGetEventProfilingInfo(e, 0x7fff, sizeof t[0], t, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, 1, t, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetEventProfilingInfo(NULL, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
                     CL_INVALID_EVENT);
    clReleaseEvent(e);

    /* A queue without profiling, and a command not complete yet. */
    assert_int_equal(
        clEnqueueFillBuffer(f->q, buf, &pattern, sizeof pattern, 0, 1 << 16, 0, NULL, &e),
        CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    assert_int_equal(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
                     CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(e);
    cl_int err;
    cl_event gate = clCreateUserEvent(f->ctx, &err);
    assert_int_equal(clEnqueueMarkerWithWaitList(f->ooo, 1, &gate, &e), CL_SUCCESS);
    assert_int_equal(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], t, NULL),
                     CL_PROFILING_INFO_NOT_AVAILABLE);
    clSetUserEventStatus(gate, CL_COMPLETE);
    assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
    assert_int_equal(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], t, NULL),
                     CL_SUCCESS);
    clReleaseEvent(e);
    clReleaseEvent(gate);
    clReleaseMemObject(buf);
}

struct native_args {
    int *out;     /* replaced by the buffer's address */
    int *scratch; /* replaced by the second buffer's address */
    int value;
};

static void CL_CALLBACK native_fill(void *p)
{
    struct native_args *a = p;
    for (int i = 0; i < 16; i++) {
        a->out[i] = a->value + i;
        a->scratch[i] = -i;
    }
}

static void native_kernel(void **state)
{
    struct fixture *f = *state;
    cl_int err;
    cl_mem out = test_buffer(f->ctx, CL_MEM_READ_WRITE, 16 * sizeof(int), NULL);
    cl_mem scratch = test_buffer(f->ctx, CL_MEM_READ_WRITE, 16 * sizeof(int), NULL);
    cl_event gate = clCreateUserEvent(f->ctx, &err), e;
    struct native_args args = {(int *)out, (int *)scratch, 100};
    const void *locs[] = {&args.out, &args.scratch};
    cl_mem mems[] = {out, scratch};
    assert_int_equal(
        clEnqueueNativeKernel(f->q, native_fill, &args, sizeof args, 2, mems, locs, 1, &gate, &e),
        CL_SUCCESS);
    /* The arguments were copied at enqueue: later changes are not seen. */
    args.value = -1;
    cl_command_type type;
    assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                     CL_SUCCESS);
    assert_int_equal(type, CL_COMMAND_NATIVE_KERNEL);
    clSetUserEventStatus(gate, CL_COMPLETE);
    int got[16], scr[16];
    assert_int_equal(clEnqueueReadBuffer(f->q, out, CL_TRUE, 0, sizeof got, got, 1, &e, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(f->q, scratch, CL_TRUE, 0, sizeof scr, scr, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 16; i++) {
        assert_int_equal(got[i], 100 + i);
        assert_int_equal(scr[i], -i);
    }

    assert_int_equal(
        clEnqueueNativeKernel(f->q, NULL, &args, sizeof args, 0, NULL, NULL, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueNativeKernel(f->q, native_fill, NULL, 8, 0, NULL, NULL, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueNativeKernel(f->q, native_fill, NULL, 0, 1, mems, locs, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueNativeKernel(f->q, native_fill, &args, 0, 0, NULL, NULL, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueNativeKernel(f->q, native_fill, &args, sizeof args, 1, NULL, locs, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueNativeKernel(f->q, native_fill, &args, sizeof args, 1, mems, NULL, 0, NULL, NULL),
        CL_INVALID_VALUE);
    assert_int_equal(
        clEnqueueNativeKernel(f->q, native_fill, &args, sizeof args, 0, mems, NULL, 0, NULL, NULL),
        CL_INVALID_VALUE);
    cl_mem bad[] = {(cl_mem)gate, scratch};
    assert_int_equal(
        clEnqueueNativeKernel(f->q, native_fill, &args, sizeof args, 2, bad, locs, 0, NULL, NULL),
        CL_INVALID_MEM_OBJECT);
    assert_int_equal(
        clEnqueueNativeKernel(NULL, native_fill, &args, sizeof args, 2, mems, locs, 0, NULL, NULL),
        CL_INVALID_COMMAND_QUEUE);
    assert_int_equal(
        clEnqueueNativeKernel(f->q, native_fill, &args, sizeof args, 2, mems, locs, 1, NULL, NULL),
        CL_INVALID_EVENT_WAIT_LIST);
    clReleaseEvent(e);
    clReleaseEvent(gate);
    clReleaseMemObject(out);
    clReleaseMemObject(scratch);
}

/*
 * The application's code never runs on an application thread that waits in
 * clFinish: that thread may hold a lock the code takes (it deadlocked when a
 * waiting thread helped by running queued callbacks). Each callback records
 * whether it ran on the waiting thread (it then returns at once, instead of
 * deadlocking) and takes the lock the waiting thread holds, with a timeout.
 */
static pthread_t app_thread;
static pthread_mutex_t app_lock = PTHREAD_MUTEX_INITIALIZER;
static int on_app, ran, timed_out;

static void take_app_lock(void)
{
    if (pthread_equal(pthread_self(), app_thread)) {
        __atomic_add_fetch(&on_app, 1, __ATOMIC_ACQ_REL);
    } else {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_sec += 30;
        if (pthread_mutex_timedlock(&app_lock, &t) == 0)
            pthread_mutex_unlock(&app_lock);
        else
            __atomic_add_fetch(&timed_out, 1, __ATOMIC_ACQ_REL);
    }
    __atomic_add_fetch(&ran, 1, __ATOMIC_ACQ_REL);
}

static void CL_CALLBACK locking_callback(cl_event e, cl_int status, void *p)
{
    (void)e, (void)status, (void)p;
    take_app_lock();
}

static void CL_CALLBACK locking_notify(cl_program prog, void *p)
{
    (void)prog, (void)p;
    take_app_lock();
}

static void CL_CALLBACK native_thread(void *p)
{
    struct native_args *a = *(struct native_args **)p;
    a->value = pthread_equal(pthread_self(), app_thread) ? 1 : 2;
}

static void callbacks_never_run_on_a_waiting_thread(void **state)
{
    struct fixture *f = *state;
    enum { COMMANDS = 300 };
    alarm(120); /* a deadlock fails the test instead of hanging it */
    app_thread = pthread_self();
    on_app = ran = timed_out = 0;
    cl_int err;
    cl_mem m = test_buffer(f->ctx, CL_MEM_READ_WRITE, 4096, NULL);
    const char *src = "kernel void k(global int *x) { x[get_global_id(0)] = 1; }";
    cl_program p = clCreateProgramWithSource(f->ctx, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);

    pthread_mutex_lock(&app_lock);
    assert_int_equal(clBuildProgram(p, 0, NULL, "", locking_notify, NULL), CL_SUCCESS);
    int expected = 1;
    for (int i = 0; i < COMMANDS; i++) {
        cl_event e;
        int pattern = i;
        assert_int_equal(
            clEnqueueFillBuffer(f->q, m, &pattern, sizeof pattern, 0, 4096, 0, NULL, &e),
            CL_SUCCESS);
        assert_int_equal(clSetEventCallback(e, CL_RUNNING, locking_callback, NULL), CL_SUCCESS);
        assert_int_equal(clSetEventCallback(e, CL_COMPLETE, locking_callback, NULL), CL_SUCCESS);
        expected += 2;
        clReleaseEvent(e);
    }
    assert_int_equal(clFinish(f->q), CL_SUCCESS); /* holding the lock the callbacks take */
    pthread_mutex_unlock(&app_lock);
    for (int i = 0; i < 30000 && __atomic_load_n(&ran, __ATOMIC_ACQUIRE) < expected; i++)
        sleep_ms(1);
    assert_int_equal(__atomic_load_n(&ran, __ATOMIC_ACQUIRE), expected);
    assert_int_equal(on_app, 0);
    assert_int_equal(timed_out, 0);

    /* A native kernel is the application's code too: a worker runs it. */
    struct native_args a = {0}, *pa = &a;
    for (int i = 0; i < 20; i++) {
        a.value = 0;
        assert_int_equal(clEnqueueNativeKernel(f->q, native_thread, &pa, sizeof pa, 0, NULL, NULL,
                                               0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(clFinish(f->q), CL_SUCCESS);
        assert_int_equal(a.value, 2);
    }
    clReleaseProgram(p);
    clReleaseMemObject(m);
    alarm(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(user_event),
        cmocka_unit_test(wait_errors),
        cmocka_unit_test(callbacks),
        cmocka_unit_test(release_from_callback),
        cmocka_unit_test(error_propagation),
        cmocka_unit_test(profiling),
        cmocka_unit_test(native_kernel),
        cmocka_unit_test(callbacks_never_run_on_a_waiting_thread),
    };
    return cmocka_run_group_tests(tests, fixture_setup, fixture_teardown);
}
