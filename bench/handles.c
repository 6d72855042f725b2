/* SPDX-License-Identifier: MIT */
/*
 * What checking a handle costs, on every platform the loader lists:
 * - a call: clGetMemObjectInfo(CL_MEM_SIZE) through the loader, which checks
 *   one handle and copies 8 bytes (the loader's dispatch included);
 * - a handle alone: clEnqueueMarkerWithWaitList with a wait list of 1024
 *   live events, the last of another context, which checks every event and
 *   is then refused (CL_INVALID_CONTEXT) before enqueueing anything; the
 *   time per event, less that of a list of one.
 * Medians of 9 runs.
 */
#include "bench_common.h"

#include <stdlib.h>

enum { RUNS = 9, CALLS = 1000000, LIST = 1024, LISTS = 2000 };

static double ns_per_info_call(cl_mem m)
{
    double samples[RUNS];
    for (int r = 0; r < RUNS; r++) {
        size_t size = 0;
        double t0 = bench_now_us();
        for (int i = 0; i < CALLS; i++)
            clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL);
        samples[r] = (bench_now_us() - t0) * 1e3 / CALLS;
        if (size != 64)
            fprintf(stderr, "clGetMemObjectInfo gave %zu\n", size);
    }
    return bench_median(samples, RUNS);
}

/* Nanoseconds per call of clEnqueueMarkerWithWaitList with the last `n` events of `list`. */
static double ns_per_refused_marker(cl_command_queue q, const cl_event *list, cl_uint n)
{
    double samples[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t0 = bench_now_us();
        for (int i = 0; i < LISTS; i++)
            if (clEnqueueMarkerWithWaitList(q, n, list + LIST - n, NULL) != CL_INVALID_CONTEXT) {
                fprintf(stderr, "the marker was not refused\n");
                exit(1);
            }
        samples[r] = (bench_now_us() - t0) * 1e3 / LISTS;
    }
    return bench_median(samples, RUNS);
}

int main(void)
{
    struct bench_target t[8];
    size_t n = bench_targets(t, 8);
    if (!n) {
        fprintf(stderr, "no OpenCL platform\n");
        return 1;
    }
    printf("handle checks, median of %d runs\n", RUNS);
    printf("  %-24s %14s %14s\n", "", "ns per call", "ns per handle");
    for (size_t p = 0; p < n; p++) {
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &t[p].device, NULL, NULL, &err);
        BENCH_CHECK(err);
        cl_context other = clCreateContext(NULL, 1, &t[p].device, NULL, NULL, &err);
        BENCH_CHECK(err);
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, t[p].device, NULL, &err);
        BENCH_CHECK(err);
        cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
        BENCH_CHECK(err);
        static cl_event list[LIST];
        for (int i = 0; i < LIST; i++) {
            list[i] = clCreateUserEvent(i == LIST - 1 ? other : ctx, &err);
            BENCH_CHECK(err);
        }
        double call = ns_per_info_call(m);
        double one = ns_per_refused_marker(q, list, 1);
        double all = ns_per_refused_marker(q, list, LIST);
        printf("  %-24s %14.1f %14.1f\n", t[p].name, call, (all - one) / (LIST - 1));
        bench_result("handles", "a call", t[p].name, call, "ns");
        bench_result("handles", "a handle of a wait list", t[p].name, (all - one) / (LIST - 1),
                     "ns");
        for (int i = 0; i < LIST; i++) {
            clSetUserEventStatus(list[i], CL_COMPLETE);
            clReleaseEvent(list[i]);
        }
        clReleaseMemObject(m);
        clReleaseCommandQueue(q);
        clReleaseContext(other);
        clReleaseContext(ctx);
    }
    return 0;
}
