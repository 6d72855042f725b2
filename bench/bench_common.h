/* SPDX-License-Identifier: MIT */
/* Shared by the benchmarks: every platform the loader lists, timing, medians. */
#ifndef LANES_BENCH_COMMON_H
#define LANES_BENCH_COMMON_H

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double bench_now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static inline int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n samples (sorts them). */
static inline double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, bench_cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Records one figure for bench/run: when BENCH_RESULTS names a file, appends
 * "bench<TAB>what<TAB>who<TAB>value<TAB>unit" to it. `who` is a platform's
 * name, or a limit of the machine the figures are compared with ("C loop",
 * "FMA peak", "OpenBLAS"). Units in ms, us or ns are better lower.
 */
static inline void bench_result(const char *bench, const char *what, const char *who, double value,
                                const char *unit)
{
    const char *path = getenv("BENCH_RESULTS");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "%s\t%s\t%s\t%.6g\t%s\n", bench, what, who, value, unit);
    fclose(f);
}

/* Whether `word` is one of the space-separated words of `list`. */
static inline int bench_has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Whether the device lists extension `name` in CL_DEVICE_EXTENSIONS. */
static inline int bench_has_extension(cl_device_id device, const char *name)
{
    size_t size = 0;
    int found = 0;
    if (clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &size) == CL_SUCCESS && size) {
        char *ext = malloc(size);
        if (ext && clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, ext, NULL) == CL_SUCCESS)
            found = bench_has_word(ext, name);
        free(ext);
    }
    return found;
}

/* One platform's first device of any type, and its name; 0 on success. */
struct bench_target {
    char name[128];
    cl_platform_id platform;
    cl_device_id device;
};

static inline size_t bench_targets(struct bench_target *t, size_t max)
{
    cl_platform_id ids[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS)
        return 0;
    size_t count = 0;
    for (cl_uint i = 0; i < n && i < 16 && count < max; i++) {
        if (clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, &t[count].device, NULL) != CL_SUCCESS)
            continue;
        t[count].platform = ids[i];
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof t[count].name, t[count].name, NULL);
        count++;
    }
    return count;
}

#define BENCH_CHECK(call)                                                                          \
    do {                                                                                           \
        cl_int err_ = (call);                                                                      \
        if (err_ != CL_SUCCESS) {                                                                  \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, err_);            \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Median seconds of `runs` launches of `k` and their completion, after one warm-up launch. */
static inline double bench_time_kernel(cl_command_queue q, cl_kernel k, int runs, cl_uint dims,
                                       const size_t *global, const size_t *local)
{
    double t[runs];
    for (int r = -1; r < runs; r++) {
        double t0 = bench_now_us();
        BENCH_CHECK(clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, NULL));
        BENCH_CHECK(clFinish(q));
        if (r >= 0)
            t[r] = (bench_now_us() - t0) / 1e6;
    }
    return bench_median(t, (size_t)runs);
}

/* Prints, after `name`, each line of p's build log for `device` that says a
 * kernel was not vectorized (Lanes names the kernels that ran at width 1). */
static inline void bench_print_not_vectorized(cl_program p, cl_device_id device, const char *name)
{
    size_t log_size = 0;
    if (clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size) != CL_SUCCESS ||
        log_size <= 1)
        return;
    char *log = malloc(log_size);
    if (log &&
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL) == CL_SUCCESS)
        for (char *line = strtok(log, "\n"); line; line = strtok(NULL, "\n"))
            if (strstr(line, "not vectorized"))
                printf("  %-28s %s\n", name, line);
    free(log);
}

#endif
