/* SPDX-License-Identifier: MIT */
/*
 * The soak test: several application threads mix everything a long-running
 * program does (buffers made and released, programs built, some new and
 * some seen before, kernels launched at changing shapes and checked against
 * a host reference, transfers, maps, user events, markers, callbacks, whole
 * contexts made and dropped) for a given time, through the ICD loader.
 * Nothing may be lost: every result is checked, every callback must arrive,
 * and on runs of a minute or more memory must stop growing: the heap in use
 * at the end, once everything is released, and the resident memory the
 * allocator's free space does not explain, may not pass the first half's
 * peak by more than a bound. Resident memory alone is no measure of a leak:
 * compiles on several application threads leave each thread's glibc arena
 * with free space in scattered pages (an hour's run: three arenas of about
 * 44 MiB, about 30 MiB in use).
 *
 *   soak [--seconds S] [--threads T] [--seed S]
 *
 * By hand for an hour: `soak --seconds 3600`; ctest runs 20 seconds.
 */
#include <CL/cl.h>
#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static cl_platform_id platform;
static cl_device_id device;
static double seconds = 20;
static atomic_bool failed;
static atomic_uint_fast64_t launches, transfers, builds, contexts, callbacks_set, callbacks_ran;

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "soak: " __VA_ARGS__);                                                     \
        fprintf(stderr, " (%s:%d)\n", __FILE__, __LINE__);                                         \
        atomic_store(&failed, true);                                                               \
    } while (0)

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cl_int err_ = (call);                                                                      \
        if (err_ != CL_SUCCESS)                                                                    \
            FAIL("%s returned %d", #call, err_);                                                   \
    } while (0)

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, resident = 0;
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* The heap in use (every arena and the chunks mapped alone), and the arenas' free space, in KiB. */
static void heap_kib(long *in_use, long *free_space)
{
    struct mallinfo2 m = mallinfo2();
    *in_use = (long)((m.uordblks + m.hblkhd) / 1024);
    *free_space = (long)(m.fordblks / 1024);
}

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*s >> 33);
}

static void CL_CALLBACK on_event(cl_event e, cl_int status, void *p)
{
    (void)e, (void)p;
    if (status != CL_COMPLETE)
        FAIL("a callback saw status %d", status);
    atomic_fetch_add(&callbacks_ran, 1);
}

/* y[i] = a * x[i] + b + K, with a barrier and a work-group reduction on some shapes. */
static const char *const source_fmt =
    "kernel void f(global int *y, global const int *x, int a, int b) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + b + %d;\n"
    "}\n"
    "kernel void g(global int *y, global const int *x, local int *t) {\n"
    "  size_t l = get_local_id(0), n = get_local_size(0);\n"
    "  t[l] = x[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int s = 0;\n"
    "  for (size_t j = 0; j < n; j++) s += t[j];\n"
    "  y[get_global_id(0)] = s + %d;\n"
    "}\n";

static cl_program build(cl_context c, int k)
{
    char src[1024];
    snprintf(src, sizeof src, source_fmt, k, k);
    const char *s = src;
    cl_int err;
    cl_program p = clCreateProgramWithSource(c, 1, &s, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(p, 0, NULL, "", NULL, NULL));
    atomic_fetch_add(&builds, 1);
    return p;
}

/* One round in context `c` on queue `q`: a kernel launch checked against the host, and more. */
static void round_in(cl_context c, cl_command_queue q, cl_program p, int k, uint64_t *rng)
{
    size_t local = (size_t)1 << (next(rng) % 7); /* 1 .. 64 */
    size_t groups = 1 + next(rng) % 64;
    size_t n = local * groups;
    int a = (int)(next(rng) % 100) - 50, b = (int)(next(rng) % 1000);
    int *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (!x || !y) {
        FAIL("out of host memory");
        free(x), free(y);
        return;
    }
    for (size_t i = 0; i < n; i++)
        x[i] = (int)(next(rng) % 2001) - 1000;
    cl_int err;
    cl_mem bx = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *x, x, &err);
    CHECK(err);
    cl_mem by = clCreateBuffer(c, CL_MEM_READ_WRITE, n * sizeof *y, NULL, &err);
    CHECK(err);
    bool reduce = next(rng) % 3 == 0;
    cl_kernel kern = clCreateKernel(p, reduce ? "g" : "f", &err);
    CHECK(err);
    CHECK(clSetKernelArg(kern, 0, sizeof by, &by));
    CHECK(clSetKernelArg(kern, 1, sizeof bx, &bx));
    if (reduce) {
        CHECK(clSetKernelArg(kern, 2, local * sizeof(int), NULL));
    } else {
        CHECK(clSetKernelArg(kern, 2, sizeof a, &a));
        CHECK(clSetKernelArg(kern, 3, sizeof b, &b));
    }
    /* Sometimes gated by a user event that another call sets. */
    cl_event gate = NULL, done = NULL;
    if (next(rng) % 4 == 0) {
        gate = clCreateUserEvent(c, &err);
        CHECK(err);
    }
    err = clEnqueueNDRangeKernel(q, kern, 1, NULL, &n, &local, gate ? 1 : 0, gate ? &gate : NULL,
                                 &done);
    if (err != CL_SUCCESS) { /* the build log says why a launcher could not be made */
        char log[4096] = "";
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        FAIL("clEnqueueNDRangeKernel returned %d; build log: %s", err, log);
    }
    atomic_fetch_add(&launches, 1);
    if (next(rng) % 2 == 0) {
        CHECK(clSetEventCallback(done, CL_COMPLETE, on_event, NULL));
        atomic_fetch_add(&callbacks_set, 1);
    }
    if (gate) {
        CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
        clReleaseEvent(gate);
    }
    /* Read back by a blocking read, or by a map. */
    if (next(rng) % 2 == 0) {
        CHECK(clEnqueueReadBuffer(q, by, CL_TRUE, 0, n * sizeof *y, y, 0, NULL, NULL));
    } else {
        int *m =
            clEnqueueMapBuffer(q, by, CL_TRUE, CL_MAP_READ, 0, n * sizeof *y, 0, NULL, NULL, &err);
        CHECK(err);
        if (m) {
            memcpy(y, m, n * sizeof *y);
            CHECK(clEnqueueUnmapMemObject(q, by, m, 0, NULL, NULL));
        }
    }
    atomic_fetch_add(&transfers, 1);
    for (size_t g = 0; g < groups && !atomic_load(&failed); g++) {
        int sum = 0;
        for (size_t j = 0; j < local; j++)
            sum += x[g * local + j];
        for (size_t j = 0; j < local; j++) {
            size_t i = g * local + j;
            int want = reduce ? sum + k : a * x[i] + b + k;
            if (y[i] != want) {
                FAIL("%s: y[%zu] = %d, want %d (local %zu, n %zu)", reduce ? "g" : "f", i, y[i],
                     want, local, n);
                break;
            }
        }
    }
    clReleaseEvent(done);
    clReleaseKernel(kern);
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    free(x), free(y);
}

static void *worker(void *arg)
{
    uint64_t rng = (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15u + 1;
    double end = now() + seconds;
    while (now() < end && !atomic_load(&failed)) {
        /* A context for a while: a queue, a few programs, many rounds. */
        cl_int err;
        cl_context c = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
        CHECK(err);
        cl_command_queue q = clCreateCommandQueueWithProperties(c, device, NULL, &err);
        CHECK(err);
        atomic_fetch_add(&contexts, 1);
        int rounds = 20 + (int)(next(&rng) % 50);
        cl_program p = NULL;
        int k = 0;
        for (int r = 0; r < rounds && now() < end && !atomic_load(&failed); r++) {
            if (!p || next(&rng) % 8 == 0) {
                if (p)
                    clReleaseProgram(p);
                /* Mostly programs seen before (the caches), sometimes new ones. */
                k = next(&rng) % 4 == 0 ? (int)(next(&rng) % 1000000) : (int)(next(&rng) % 16);
                p = build(c, k);
            }
            round_in(c, q, p, k, &rng);
        }
        CHECK(clFinish(q));
        if (p)
            clReleaseProgram(p);
        clReleaseCommandQueue(q);
        clReleaseContext(c);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned threads = 3;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = strtod(argv[++i], NULL);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: soak [--seconds S] [--threads T] [--seed S]\n");
            return 2;
        }
    }
    cl_platform_id ids[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS)
        return 1;
    for (cl_uint i = 0; i < n && i < 16 && !platform; i++) {
        char name[64] = "";
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strcmp(name, "Lanes"))
            platform = ids[i];
    }
    if (!platform || clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "soak: no Lanes platform\n");
        return 1;
    }
    if (threads == 0 || threads > 64)
        threads = 3;
    pthread_t t[64];
    double start = now();
    for (unsigned i = 0; i < threads; i++)
        pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(seed * 64 + i));
    /* The first half's peaks; a line a minute. */
    long peak_heap = 0, peak_held = 0;
    double last_line = start;
    while (now() - start < seconds && !atomic_load(&failed)) {
        usleep(200000);
        long r = rss_kib(), heap, free_space;
        heap_kib(&heap, &free_space);
        if (now() - start < seconds / 2) {
            peak_heap = heap > peak_heap ? heap : peak_heap;
            peak_held = r - free_space > peak_held ? r - free_space : peak_held;
        }
        if (now() - last_line >= 60) {
            last_line = now();
            printf("soak: %.0f s: %" PRIuFAST64 " launches, %" PRIuFAST64 " builds, %" PRIuFAST64
                   " contexts, resident %ld MiB, heap in use %ld MiB, arenas' free space %ld MiB\n",
                   now() - start, atomic_load(&launches), atomic_load(&builds),
                   atomic_load(&contexts), r / 1024, heap / 1024, free_space / 1024);
            fflush(stdout);
        }
    }
    for (unsigned i = 0; i < threads; i++)
        pthread_join(t[i], NULL);
    /* Callbacks run on Lanes' workers, after the command: give the last ones a moment. */
    for (int i = 0; i < 5000 && atomic_load(&callbacks_ran) < atomic_load(&callbacks_set); i++)
        usleep(1000);
    long end_rss = rss_kib(), end_heap, end_free;
    heap_kib(&end_heap, &end_free);
    if (atomic_load(&callbacks_ran) != atomic_load(&callbacks_set))
        FAIL("%" PRIuFAST64 " callbacks set, %" PRIuFAST64 " ran", atomic_load(&callbacks_set),
             atomic_load(&callbacks_ran));
    /*
     * Everything is released at the end: the heap in use may not pass the
     * first half's peak (which counts compiles in flight) by more than 16
     * MiB, nor resident memory less the arenas' free space (JIT code is
     * mapped outside the heap) its peak by more than 64 MiB. Checked on
     * runs of a minute or more only: before that, the first half is warm-up
     * (JIT code, arenas, caches, a sanitizer's quarantine).
     */
    if (seconds >= 60 && peak_heap && end_heap > peak_heap + 16 * 1024)
        FAIL("the heap in use grew from %ld MiB (first half's peak) to %ld MiB", peak_heap / 1024,
             end_heap / 1024);
    if (seconds >= 60 && peak_held && end_rss - end_free > peak_held + 64 * 1024)
        FAIL("resident memory less the arenas' free space grew from %ld MiB (first half's peak) "
             "to %ld MiB",
             peak_held / 1024, (end_rss - end_free) / 1024);
    printf("soak: %.0f s, %u threads: %" PRIuFAST64 " launches checked, %" PRIuFAST64
           " transfers, %" PRIuFAST64 " builds, %" PRIuFAST64 " contexts, %" PRIuFAST64
           " callbacks; heap in use %ld MiB at the first half's peak, %ld MiB at the end; "
           "resident less free space %ld MiB at the first half's peak, %ld MiB at the end "
           "(resident %ld MiB): %s\n",
           now() - start, threads, atomic_load(&launches), atomic_load(&transfers),
           atomic_load(&builds), atomic_load(&contexts), atomic_load(&callbacks_ran),
           peak_heap / 1024, end_heap / 1024, peak_held / 1024, (end_rss - end_free) / 1024,
           end_rss / 1024, atomic_load(&failed) ? "FAILED" : "ok");
    return atomic_load(&failed) ? 1 : 0;
}
