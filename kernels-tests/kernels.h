/* SPDX-License-Identifier: MIT */
/*
 * Shared by the kernel tests: they reach Lanes through the ICD loader only,
 * build small OpenCL C programs, run them over buffers and compare with
 * references computed on the host.
 */
#ifndef LANES_KERNELS_TESTS_KERNELS_H
#define LANES_KERNELS_TESTS_KERNELS_H

#include <CL/cl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The vector widths of OpenCL C; 1 is the scalar. */
static const unsigned kt_widths[] = {1, 2, 3, 4, 8, 16};
#define KT_NUM_WIDTHS (sizeof kt_widths / sizeof *kt_widths)

static int kt_failures;

/* Records a failure with its message; the test exits non-zero at the end. */
#define KT_FAIL(...)                                                                               \
    do {                                                                                           \
        kt_failures++;                                                                             \
        if (kt_failures <= 40) {                                                                   \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                   \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define KT_CHECK_CL(call)                                                                          \
    do {                                                                                           \
        cl_int e_ = (call);                                                                        \
        if (e_ != CL_SUCCESS) {                                                                    \
            fprintf(stderr, "FATAL %s:%d: %s = %d\n", __FILE__, __LINE__, #call, e_);              \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

struct kt_env {
    cl_context ctx;
    cl_device_id dev;
    cl_command_queue queue;
};
static struct kt_env kt;

/*
 * The Lanes device, a context and an in-order queue on it. KT_PLATFORM=text
 * picks instead the first platform whose name contains text (to check a
 * test and its host reference against another implementation).
 */
static inline void kt_setup(void)
{
    cl_platform_id ids[16];
    cl_uint n = 0;
    KT_CHECK_CL(clGetPlatformIDs(16, ids, &n));
    cl_platform_id lanes = NULL;
    const char *want = getenv("KT_PLATFORM");
    for (cl_uint i = 0; i < n && i < 16 && !lanes; i++) {
        char name[256] = "";
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (want && *want ? strstr(name, want) != NULL : strcmp(name, "Lanes") == 0)
            lanes = ids[i];
    }
    if (!lanes) {
        fprintf(stderr, "FATAL: no platform named %s\n", want && *want ? want : "Lanes");
        exit(1);
    }
    KT_CHECK_CL(clGetDeviceIDs(lanes, CL_DEVICE_TYPE_ALL, 1, &kt.dev, NULL));
    cl_int err;
    kt.ctx = clCreateContext(NULL, 1, &kt.dev, NULL, NULL, &err);
    KT_CHECK_CL(err);
    kt.queue = clCreateCommandQueueWithProperties(kt.ctx, kt.dev, NULL, &err);
    KT_CHECK_CL(err);
}

/* Releases what kt_setup made; returns the exit status of the test. */
static inline int kt_teardown(void)
{
    clReleaseCommandQueue(kt.queue);
    clReleaseContext(kt.ctx);
    if (kt_failures)
        fprintf(stderr, "%d failure(s)\n", kt_failures);
    return kt_failures ? 1 : 0;
}

/* Builds `source` with `options`; a build failure is fatal and prints the log. */
static inline cl_program kt_build(const char *source, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(kt.ctx, 1, &source, NULL, &err);
    KT_CHECK_CL(err);
    if (clBuildProgram(p, 1, &kt.dev, options, NULL, NULL) != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
        char *log = malloc(size + 1);
        clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, size, log, NULL);
        log[size] = '\0';
        fprintf(stderr, "FATAL: build failed (%s):\n%s\n%s\n", options, log, source);
        exit(1);
    }
    return p;
}

/*
 * A kernel argument: a buffer of `size` bytes (copied from/to `data`), a
 * value, or, with `data` NULL, a __local region of `size` bytes.
 */
struct kt_arg {
    void *data;
    size_t size;
    bool value; /* passed by value rather than as a buffer */
};

/*
 * Runs kernel `name` of `p` over a `dim`-dimensional range of `global`
 * work-items in work-groups of `local` (NULL: the runtime's choice), then
 * reads every buffer back into its data. Returns CL_SUCCESS or the
 * enqueue/wait error, with the build log's launch line printed on failure.
 */
static inline cl_int kt_run_nd(cl_program p, const char *name, cl_uint dim, const size_t *global,
                               const size_t *local, struct kt_arg *args, unsigned num_args)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    KT_CHECK_CL(err);
    cl_mem mems[16] = {0};
    for (unsigned i = 0; i < num_args; i++) {
        if (args[i].value || !args[i].data) {
            KT_CHECK_CL(clSetKernelArg(k, i, args[i].size, args[i].data));
            continue;
        }
        mems[i] = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, args[i].size,
                                 args[i].data, &err);
        KT_CHECK_CL(err);
        KT_CHECK_CL(clSetKernelArg(k, i, sizeof mems[i], &mems[i]));
    }
    err = clEnqueueNDRangeKernel(kt.queue, k, dim, NULL, global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(kt.queue);
    for (unsigned i = 0; i < num_args && err == CL_SUCCESS; i++)
        if (mems[i])
            err = clEnqueueReadBuffer(kt.queue, mems[i], CL_TRUE, 0, args[i].size, args[i].data, 0,
                                      NULL, NULL);
    size_t size = 0;
    clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = calloc(1, size + 1);
    if (log)
        clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "kernel %s: error %d\n%s\n", name, err, log ? log : "");
    } else if (log && strstr(log, "internal error")) {
        /* It ran (at width 1), but the vectorizer made invalid code: a bug, not a refusal. */
        kt_failures++;
        fprintf(stderr, "kernel %s: the vectorizer's internal error\n%s\n", name, log);
    }
    free(log);
    for (unsigned i = 0; i < num_args; i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    clReleaseKernel(k);
    return err;
}

/* kt_run_nd over a one-dimensional range of `global` work-items in groups of `*local`. */
static inline cl_int kt_run_local(cl_program p, const char *name, size_t global,
                                  const size_t *local, struct kt_arg *args, unsigned num_args)
{
    return kt_run_nd(p, name, 1, &global, local, args, num_args);
}

/* kt_run_local with the work-group size left to the runtime. */
static inline cl_int kt_run(cl_program p, const char *name, size_t global, struct kt_arg *args,
                            unsigned num_args)
{
    return kt_run_local(p, name, global, NULL, args, num_args);
}

/*
 * The preamble every test program starts with: for width N (1 for scalars),
 * VEC(t) names the type (t or tN), LOAD and STORE move one element of that
 * type between a packed array and a value.
 */
static inline const char *kt_preamble(void)
{
    return "#define CAT_(a, b) a##b\n"
           "#define CAT(a, b) CAT_(a, b)\n"
           "#if N == 1\n"
           "#define VEC(t) t\n"
           "#define LOAD(i, p) (p)[i]\n"
           "#define STORE(v, i, p) ((p)[i] = (v))\n"
           "#else\n"
           "#define VEC(t) CAT(t, N)\n"
           "#define LOAD(i, p) CAT(vload, N)(i, p)\n"
           "#define STORE(v, i, p) CAT(vstore, N)(v, i, p)\n"
           "#endif\n";
}

/* Build options for width n. */
static inline const char *kt_width_options(unsigned n)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "-cl-std=CL3.0 -DN=%u", n);
    return buf;
}

/* A malloc'd printf. */
static inline char *kt_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = malloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* Appends to a growing malloc'd string. */
static inline void kt_append(char **s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    size_t old = *s ? strlen(*s) : 0;
    *s = realloc(*s, old + (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(*s + old, (size_t)n + 1, fmt, ap);
    va_end(ap);
}

/* xorshift64*: reproducible random bits. */
static inline uint64_t kt_random(void)
{
    static uint64_t s = 0x9e3779b97f4a7c15ull;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 0x2545f4914f6cdd1dull;
}

static inline float kt_bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint32_t kt_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Whether the device's list `param` (of cl_name_version) holds `name`. */
static inline bool kt_lists(cl_device_info param, const char *name)
{
    size_t size = 0;
    if (clGetDeviceInfo(kt.dev, param, 0, NULL, &size) != CL_SUCCESS)
        return false;
    cl_name_version *v = malloc(size ? size : 1);
    clGetDeviceInfo(kt.dev, param, size, v, NULL);
    bool found = false;
    for (size_t i = 0; i < size / sizeof *v; i++)
        found |= strcmp(v[i].name, name) == 0;
    free(v);
    return found;
}

/* Whether the device lists OpenCL C feature `name` (CL_DEVICE_OPENCL_C_FEATURES). */
static inline bool kt_has_feature(const char *name)
{
    return kt_lists(CL_DEVICE_OPENCL_C_FEATURES, name);
}

/* Whether the device lists extension `name` (CL_DEVICE_EXTENSIONS_WITH_VERSION). */
static inline bool kt_has_extension(const char *name)
{
    return kt_lists(CL_DEVICE_EXTENSIONS_WITH_VERSION, name);
}

/* The sign of gamma(x); 0 where it has none (poles, NaN), which is not checked. */
static inline int kt_gamma_sign(long double x, bool *defined)
{
    *defined = true;
    if (x == 0)
        return signbit(x) ? -1 : 1;
    if (x > 0)
        return 1;
    if (isnan(x) || x == floorl(x)) {
        *defined = false;
        return 0;
    }
    return fmodl(floorl(x), 2.0L) != 0 ? -1 : 1;
}

#endif
