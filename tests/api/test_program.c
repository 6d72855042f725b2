/* SPDX-License-Identifier: MIT */
/* Programs and kernels through the loader: building from source, logs, options, queries. */
#include "common.h"

#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static cl_context ctx;
static cl_device_id dev;

static int setup(void **state)
{
    (void)state;
    dev = lanes_test_device();
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    return err != CL_SUCCESS;
}

static int teardown(void **state)
{
    (void)state;
    return clReleaseContext(ctx) != CL_SUCCESS;
}

static cl_program program_of(const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    return p;
}

/* The build log as a malloc'd string. */
static char *build_log(cl_program p)
{
    size_t size;
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size),
                     CL_SUCCESS);
    char *log = malloc(size);
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, size, log, NULL),
                     CL_SUCCESS);
    return log;
}

static const char *two_kernels =
    "typedef struct { float a, b; } pair;\n"
    "__kernel __attribute__((reqd_work_group_size(8, 4, 1)))\n"
    "void first(__global float *out, const __global int *restrict in, pair p, int n) {\n"
    "    out[get_global_id(0)] = p.a + in[n];\n"
    "}\n"
    "__kernel void second(__local float *tmp, __constant float *c, read_only image2d_t img) {\n"
    "    __local int scratch[64];\n"
    "    scratch[get_local_id(0)] = 1;\n"
    "    tmp[0] = c[0] + scratch[1];\n"
    "}\n";

static void build_and_query(void **state)
{
    (void)state;
    cl_program p = program_of(two_kernels);
    cl_build_status status;
    assert_int_equal(
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL),
        CL_SUCCESS);
    assert_int_equal(status, CL_BUILD_NONE);
    size_t n;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL),
                     CL_INVALID_PROGRAM_EXECUTABLE);
    assert_int_equal(clBuildProgram(p, 1, &dev, "-cl-kernel-arg-info -DUNUSED=1", NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL),
        CL_SUCCESS);
    assert_int_equal(status, CL_BUILD_SUCCESS);
    char opts[128];
    assert_int_equal(
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL),
        CL_SUCCESS);
    assert_string_equal(opts, "-cl-kernel-arg-info -DUNUSED=1");
    cl_program_binary_type type;
    assert_int_equal(
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL),
        CL_SUCCESS);
    assert_int_equal(type, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);

    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, NULL), CL_SUCCESS);
    assert_int_equal(n, 2);
    char names[64];
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
                     CL_SUCCESS);
    assert_string_equal(names, "first;second");
    char src[1024];
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_SOURCE, sizeof src, src, NULL), CL_SUCCESS);
    assert_string_equal(src, two_kernels);

    cl_int err;
    cl_kernel k = clCreateKernel(p, "first", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_uint nargs;
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL),
                     CL_SUCCESS);
    assert_int_equal(nargs, 4);
    char attrs[128];
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL),
                     CL_SUCCESS);
    assert_string_equal(attrs, "reqd_work_group_size(8,4,1)");
    size_t wg[3], max;
    assert_int_equal(
        clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL),
        CL_SUCCESS);
    assert_true(wg[0] == 8 && wg[1] == 4 && wg[2] == 1);
    assert_int_equal(
        clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof max, &max, NULL),
        CL_SUCCESS);
    assert_int_equal(max, 32);
    assert_int_equal(
        clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof wg, wg, NULL),
        CL_INVALID_VALUE);

    /* Argument info, as written in the source. */
    char tname[32], aname[32];
    cl_kernel_arg_address_qualifier aq;
    cl_kernel_arg_type_qualifier tq;
    assert_int_equal(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof tname, tname, NULL),
                     CL_SUCCESS);
    assert_string_equal(tname, "int*");
    assert_int_equal(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof aname, aname, NULL),
                     CL_SUCCESS);
    assert_string_equal(aname, "in");
    assert_int_equal(
        clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
        CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_GLOBAL);
    assert_int_equal(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL),
                     CL_SUCCESS);
    assert_int_equal(tq, CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT);
    assert_int_equal(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_TYPE_NAME, sizeof tname, tname, NULL),
                     CL_SUCCESS);
    assert_string_equal(tname, "pair");
    assert_int_equal(clGetKernelArgInfo(k, 4, CL_KERNEL_ARG_NAME, sizeof aname, aname, NULL),
                     CL_INVALID_ARG_INDEX);

    /* A program with kernels attached cannot be rebuilt. */
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);

    cl_kernel second = clCreateKernel(p, "second", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_ulong local;
    assert_int_equal(
        clGetKernelWorkGroupInfo(second, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL),
        CL_SUCCESS);
    assert_int_equal(local, 64 * sizeof(int));
    assert_int_equal(
        clGetKernelArgInfo(second, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
        CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_CONSTANT);
    assert_int_equal(
        clGetKernelArgInfo(second, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL),
        CL_SUCCESS);
    assert_int_equal(aq, CL_KERNEL_ARG_ADDRESS_LOCAL);

    assert_null(clCreateKernel(p, "third", &err));
    assert_int_equal(err, CL_INVALID_KERNEL_NAME);
    cl_kernel all[2];
    cl_uint count;
    assert_int_equal(clCreateKernelsInProgram(p, 1, all, &count), CL_INVALID_VALUE);
    assert_int_equal(clCreateKernelsInProgram(p, 2, all, &count), CL_SUCCESS);
    assert_int_equal(count, 2);
    for (int i = 0; i < 2; i++)
        assert_int_equal(clReleaseKernel(all[i]), CL_SUCCESS);
    assert_int_equal(clReleaseKernel(second), CL_SUCCESS);
    /* The kernel keeps the program alive after the program's own release. */
    assert_int_equal(clReleaseProgram(p), CL_SUCCESS);
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof names, names, NULL),
                     CL_SUCCESS);
    assert_string_equal(names, "first");
    assert_int_equal(clReleaseKernel(k), CL_SUCCESS);
}

static void arg_info_needs_the_option(void **state)
{
    (void)state;
    cl_program p = program_of("kernel void k(global int *x) { x[0] = 1; }");
    assert_int_equal(clBuildProgram(p, 0, NULL, "", NULL, NULL), CL_SUCCESS);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    char name[16];
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name, NULL),
                     CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* A syntax error fails the build with Clang's diagnostic: file, line, column, caret. */
static void build_failure_log(void **state)
{
    (void)state;
    cl_program p = program_of("kernel void k(global int *x)\n{\n    x[0] = y;\n}\n");
    assert_int_equal(clBuildProgram(p, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char *log = build_log(p);
    assert_non_null(strstr(log, "input.cl:3:12: error"));
    assert_non_null(strstr(log, "x[0] = y;"));
    assert_non_null(strstr(log, "^"));
    free(log);
    cl_build_status status;
    assert_int_equal(
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL),
        CL_SUCCESS);
    assert_int_equal(status, CL_BUILD_ERROR);
    cl_int err;
    assert_null(clCreateKernel(p, "k", &err));
    assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p);
}

static void options(void **state)
{
    (void)state;
    cl_program p = program_of("kernel void NAME(global int *x) { x[0] = VALUE; }");
    /* -D in both spellings; the kernel's name comes from a macro. */
    assert_int_equal(clBuildProgram(p, 0, NULL,
                                    "-D NAME=renamed -DVALUE=3 -w -cl-mad-enable "
                                    "-cl-fast-relaxed-math -cl-std=CL1.2",
                                    NULL, NULL),
                     CL_SUCCESS);
    char names[32];
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
                     CL_SUCCESS);
    assert_string_equal(names, "renamed");
    /* Every optimization option of OpenCL 3.0 (5.8.6.4) builds, alone. */
    static const char *const optimizations[] = {
        "-cl-single-precision-constant", "-cl-denorms-are-zero", "-cl-opt-disable",
        "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
        "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-fp32-correctly-rounded-divide-sqrt",
        "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp",
        /* OpenCL 1.0's, accepted and ignored. */
        "-cl-strict-aliasing", "-w", "-Werror"};
    for (size_t i = 0; i < sizeof optimizations / sizeof *optimizations; i++) {
        char opts[128];
        snprintf(opts, sizeof opts, "-DNAME=k -DVALUE=1 -cl-std=CL3.0 %s", optimizations[i]);
        if (clBuildProgram(p, 0, NULL, opts, NULL, NULL) != CL_SUCCESS)
            fail_msg("%s does not build: %s", optimizations[i], build_log(p));
    }
    /* An unknown option is refused and named in the log. */
    assert_int_equal(clBuildProgram(p, 0, NULL, "-DNAME=k -DVALUE=1 -cl-no-such-thing", NULL, NULL),
                     CL_INVALID_BUILD_OPTIONS);
    char *log = build_log(p);
    assert_non_null(strstr(log, "-cl-no-such-thing"));
    free(log);
    /* A language version the device does not list is refused. */
    assert_int_equal(clBuildProgram(p, 0, NULL, "-DNAME=k -DVALUE=1 -cl-std=CL2.0", NULL, NULL),
                     CL_INVALID_BUILD_OPTIONS);
    assert_int_equal(clBuildProgram(p, 0, NULL, "-DNAME=k -D", NULL, NULL),
                     CL_INVALID_BUILD_OPTIONS);
    /* A warning is kept in the log of a good build; -Werror makes it fail, -w hides it. */
    cl_program w = program_of("#warning look here\nkernel void k(global int *x) { x[0] = 1; }");
    assert_int_equal(clBuildProgram(w, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    log = build_log(w);
    assert_non_null(strstr(log, "input.cl:1:2: warning: look here"));
    free(log);
    assert_int_equal(clBuildProgram(w, 0, NULL, "-Werror", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    assert_int_equal(clBuildProgram(w, 0, NULL, "-w", NULL, NULL), CL_SUCCESS);
    log = build_log(w);
    assert_null(strstr(log, "look here"));
    free(log);
    clReleaseProgram(w);
    clReleaseProgram(p);
}

static atomic_int notified; /* 0 pending, 1 built, -1 callback saw a wrong state */

static void CL_CALLBACK on_built(cl_program p, void *user)
{
    cl_build_status status;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    atomic_store(&notified, status == CL_BUILD_SUCCESS && user == &notified ? 1 : -1);
}

/* Waits up to 30 s for the build callback. */
static int wait_notified(void)
{
    for (int i = 0; i < 30000 && atomic_load(&notified) == 0; i++)
        usleep(1000);
    return atomic_load(&notified);
}

static void notify_and_bad_input(void **state)
{
    (void)state;
    const char *src = "kernel void k(void) {}";
    const size_t len = 0; /* 0 means NUL-terminated */
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, &len, &err);
    assert_int_equal(err, CL_SUCCESS);
    /* With a callback the build runs in the background; the callback says when it is done. */
    atomic_store(&notified, 0);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, on_built, &notified), CL_SUCCESS);
    assert_int_equal(wait_notified(), 1);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, &notified), CL_INVALID_VALUE);
    assert_int_equal(clBuildProgram(p, 1, NULL, NULL, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clBuildProgram(p, 0, &dev, NULL, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetProgramInfo(p, 0x7777, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetProgramBuildInfo(p, dev, 0x7777, 0, NULL, NULL), CL_INVALID_VALUE);
    assert_int_equal(clRetainProgram(p), CL_SUCCESS);
    cl_uint refs;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    assert_int_equal(refs, 2);
    clReleaseProgram(p);
    clReleaseProgram(p);

    /* Several strings, some with explicit lengths, are joined as given. */
    const char *parts[] = {"kernel void a(void) {}XXXX", "\nkernel void b(void) {}"};
    const size_t lens[] = {22, 0};
    p = clCreateProgramWithSource(ctx, 2, parts, lens, &err);
    assert_int_equal(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    char names[16];
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
                     CL_SUCCESS);
    assert_string_equal(names, "a;b");
    clReleaseProgram(p);

    assert_null(clCreateProgramWithSource(ctx, 0, parts, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    const char *with_null[] = {"x", NULL};
    assert_null(clCreateProgramWithSource(ctx, 2, with_null, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithBuiltInKernels(ctx, 1, &dev, "anything", &err));
    assert_int_equal(err, CL_INVALID_VALUE);
}

/* Build, take the binary, make a program of it: the same kernels and argument info. */
static void binary_round_trip(void **state)
{
    (void)state;
    cl_program p = program_of(two_kernels);
    size_t size = 0;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
                     CL_SUCCESS);
    assert_int_equal(size, 0); /* nothing built yet */
    assert_int_equal(clBuildProgram(p, 0, NULL, "-cl-kernel-arg-info", NULL, NULL), CL_SUCCESS);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
                     CL_SUCCESS);
    assert_true(size > 176);
    unsigned char *bin = malloc(size);
    size_t ret;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, &ret), CL_SUCCESS);
    assert_int_equal(ret, sizeof bin);
    clReleaseProgram(p);

    cl_int err, status = -1;
    const unsigned char *bins[] = {bin};
    cl_program q = clCreateProgramWithBinary(ctx, 1, &dev, &size, bins, &status, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(status, CL_SUCCESS);
    cl_program_binary_type type;
    assert_int_equal(
        clGetProgramBuildInfo(q, dev, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL),
        CL_SUCCESS);
    assert_int_equal(type, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    assert_null(clCreateKernel(q, "first", &err)); /* still needs clBuildProgram */
    assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
    assert_int_equal(clBuildProgram(q, 1, &dev, NULL, NULL, NULL), CL_SUCCESS);
    char names[32];
    assert_int_equal(clGetProgramInfo(q, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
                     CL_SUCCESS);
    assert_string_equal(names, "first;second");
    cl_kernel k = clCreateKernel(q, "first", &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof names, names, NULL),
                     CL_SUCCESS);
    assert_string_equal(names, "n");
    clReleaseKernel(k);
    clReleaseProgram(q);

    /* Garbage, a truncated copy and a flipped bit are all CL_INVALID_BINARY. */
    size_t bad_sizes[] = {size, size - 1, size};
    unsigned char *garbage = calloc(1, size), *flipped = malloc(size);
    memset(garbage, 0x5a, size);
    memcpy(flipped, bin, size);
    flipped[size - 3] ^= 0x10;
    const unsigned char *bad[] = {garbage, bin, flipped};
    for (int i = 0; i < 3; i++) {
        status = CL_SUCCESS;
        assert_null(clCreateProgramWithBinary(ctx, 1, &dev, &bad_sizes[i], &bad[i], &status, &err));
        assert_int_equal(err, CL_INVALID_BINARY);
        assert_int_equal(status, CL_INVALID_BINARY);
    }
    size_t zero = 0;
    assert_null(clCreateProgramWithBinary(ctx, 1, &dev, &zero, bins, &status, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithBinary(ctx, 1, &dev, &size, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    free(garbage);
    free(flipped);
    free(bin);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(build_and_query),      cmocka_unit_test(arg_info_needs_the_option),
        cmocka_unit_test(build_failure_log),    cmocka_unit_test(options),
        cmocka_unit_test(notify_and_bad_input), cmocka_unit_test(binary_round_trip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
