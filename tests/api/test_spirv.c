/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V programs (clCreateProgramWithIL) under the LANES_SPIRV=1 switch:
 * the kernels of spirv_kernels.cl, made SPIR-V at build time by clang-15
 * and llvm-spirv-15 (vector add, sub-group reduction and shuffle, local
 * memory and a barrier, built-ins on pointers), give the same bits as the same source built as
 * OpenCL C; the IL's checks, CL_PROGRAM_IL, a module the translator
 * refuses, SPIR-V 1.4 instructions the driver rewrites for the translator,
 * and the device's IL queries with and without the switch.
 */
#include "kernel_fixture.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef LANES_TEST_SPIRV_FILE
#define SKIP_WITHOUT_TOOLS() (void)0
#else
#define SKIP_WITHOUT_TOOLS()                                                                       \
    do {                                                                                           \
        print_message("skipped: clang-15 or llvm-spirv-15 was not found when the tests were "      \
                      "built (Debian: clang-15, llvm-spirv-15)\n");                                \
        skip();                                                                                    \
    } while (0)
#define LANES_TEST_SPIRV_FILE ""
#endif

/* The whole of file `path` (malloc'd, NUL-terminated), its size in *size. */
static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    data[n] = '\0';
    fclose(f);
    *size = (size_t)n;
    return data;
}

static cl_program il_program(const void *il, size_t size)
{
    cl_int err;
    cl_program p = clCreateProgramWithIL(ctx, il, size, &err);
    assert_int_equal(err, CL_SUCCESS);
    return p;
}

static void build_or_fail(cl_program p, const char *options)
{
    if (clBuildProgram(p, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
        char log[8192];
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fail_msg("build failed: %s", log);
    }
}

enum { N = 256, LOCAL = 64 };

/* Kernel `name` of `p` over N items in work-groups of LOCAL; `out`'s N words read back. */
static void run(cl_program p, const char *name, void *out)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    float a[N], b[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.37f - 11.0f;
        b[i] = 1.0f / (float)(i + 3);
    }
    int ai[N];
    for (int i = 0; i < N; i++)
        ai[i] = (i * 7919) % 1001 - 500;
    bool ints = strcmp(name, "sg") == 0;
    cl_mem in0 = buffer(sizeof a, ints ? (void *)ai : (void *)a), in1 = buffer(sizeof b, b),
           res = buffer(N * 4, NULL);
    cl_uint arg = 0;
    assert_int_equal(clSetKernelArg(k, arg++, sizeof in0, &in0), CL_SUCCESS);
    if (strcmp(name, "vadd") == 0)
        assert_int_equal(clSetKernelArg(k, arg++, sizeof in1, &in1), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, arg++, sizeof res, &res), CL_SUCCESS);
    if (strcmp(name, "mirror") == 0)
        assert_int_equal(clSetKernelArg(k, arg++, LOCAL * sizeof(float), NULL), CL_SUCCESS);
    size_t global = N, local = LOCAL;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, res, CL_TRUE, 0, N * 4, out, 0, NULL, NULL),
                     CL_SUCCESS);
    clReleaseMemObject(in0);
    clReleaseMemObject(in1);
    clReleaseMemObject(res);
    clReleaseKernel(k);
}

/* Each kernel gives the same bits from SPIR-V as from OpenCL C. */
static void same_results_as_source(void **state)
{
    (void)state;
    SKIP_WITHOUT_TOOLS();
    size_t il_size, src_size;
    char *il = read_file(LANES_TEST_SPIRV_FILE, &il_size);
    char *src = read_file(LANES_TEST_SPIRV_SOURCE, &src_size);
    cl_program from_il = il_program(il, il_size);
    build_or_fail(from_il, NULL);
    cl_program from_src = program_of(src, "-cl-std=CL3.0");
    const char *names[] = {"vadd", "sg", "mirror", "pointers"};
    for (int i = 0; i < 4; i++) {
        unsigned char a[N * 4], b[N * 4];
        memset(a, 0xa5, sizeof a);
        memset(b, 0x5a, sizeof b);
        run(from_il, names[i], a);
        run(from_src, names[i], b);
        if (memcmp(a, b, sizeof a) != 0)
            fail_msg("kernel %s: SPIR-V and OpenCL C results differ", names[i]);
    }
    /* A spot check that they are right, not only alike: sg's reduction and shuffle. */
    int r[N];
    run(from_il, "sg", r);
    size_t w;
    cl_kernel k = clCreateKernel(from_il, "sg", NULL);
    size_t local = LOCAL;
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                             sizeof local, &local, sizeof w, &w, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        int base = i / (int)w * (int)w, sum = 0;
        for (int j = base; j < base + (int)w; j++)
            sum += (j * 7919) % 1001 - 500;
        int next = base + (i - base + 1) % (int)w;
        assert_int_equal(r[i], sum * 1000 + (next * 7919) % 1001 - 500);
    }
    /* pointers: every work-item of a work-group counted, and the vector loaded. */
    float f[N];
    run(from_il, "pointers", f);
    for (int i = 0; i < N; i++) {
        float e = (float)LOCAL;
        for (int j = 0; j < 4; j++)
            e += ((float)(i / 4 * 4 + j) * 0.37f - 11.0f) * (float)(j + 1);
        assert_float_equal(f[i], e, 1e-3);
    }
    /* SPIR-V carries no argument names. */
    char name[64];
    assert_int_equal(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name, NULL),
                     CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    clReleaseKernel(k);
    clReleaseProgram(from_il);
    clReleaseProgram(from_src);
    free(il);
    free(src);
}

/* clCompileProgram of SPIR-V gives an object that links into an executable. */
static void compile_and_link(void **state)
{
    (void)state;
    SKIP_WITHOUT_TOOLS();
    size_t il_size;
    char *il = read_file(LANES_TEST_SPIRV_FILE, &il_size);
    cl_program obj = il_program(il, il_size);
    assert_int_equal(clCompileProgram(obj, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_int err;
    cl_program exe = clLinkProgram(ctx, 1, &dev, NULL, 1, &obj, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    float c[N];
    run(exe, "vadd", c);
    for (int i = 0; i < N; i++)
        assert_true(c[i] == (float)i * 0.37f - 11.0f + 1.0f / (float)(i + 3));
    clReleaseProgram(exe);
    clReleaseProgram(obj);
    free(il);
}

/* An executable built from SPIR-V has a binary that makes the same program again. */
static void binary_of_il(void **state)
{
    (void)state;
    SKIP_WITHOUT_TOOLS();
    size_t il_size;
    char *il = read_file(LANES_TEST_SPIRV_FILE, &il_size);
    cl_program p = il_program(il, il_size);
    build_or_fail(p, NULL);
    size_t size;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
                     CL_SUCCESS);
    unsigned char *bin = malloc(size);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL), CL_SUCCESS);
    cl_int err, status;
    const unsigned char *bins[] = {bin};
    cl_program q = clCreateProgramWithBinary(ctx, 1, &dev, &size, bins, &status, &err);
    assert_int_equal(err, CL_SUCCESS);
    build_or_fail(q, NULL);
    unsigned char a[N * 4], b[N * 4];
    run(p, "mirror", a);
    run(q, "mirror", b);
    assert_memory_equal(a, b, sizeof a);
    clReleaseProgram(q);
    clReleaseProgram(p);
    free(bin);
    free(il);
}

static void notified(cl_program p, void *done)
{
    (void)p;
    atomic_store((atomic_int *)done, 1);
}

/* A build with a callback translates on a worker; the program then runs. */
static void asynchronous_build(void **state)
{
    (void)state;
    SKIP_WITHOUT_TOOLS();
    size_t il_size;
    char *il = read_file(LANES_TEST_SPIRV_FILE, &il_size);
    cl_program p = il_program(il, il_size);
    atomic_int done = 0;
    assert_int_equal(clBuildProgram(p, 1, &dev, NULL, notified, &done), CL_SUCCESS);
    while (!atomic_load(&done))
        usleep(1000);
    cl_build_status status;
    assert_int_equal(
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL),
        CL_SUCCESS);
    assert_int_equal(status, CL_BUILD_SUCCESS);
    float c[N];
    run(p, "vadd", c);
    for (int i = 0; i < N; i++)
        assert_true(c[i] == (float)i * 0.37f - 11.0f + 1.0f / (float)(i + 3));
    clReleaseProgram(p);
    free(il);
}

/* CL_PROGRAM_IL gives back the module as given; a source program has none. */
static void il_round_trip(void **state)
{
    (void)state;
    SKIP_WITHOUT_TOOLS();
    size_t il_size;
    char *il = read_file(LANES_TEST_SPIRV_FILE, &il_size);
    cl_program p = il_program(il, il_size);
    size_t size = 0;
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &size), CL_SUCCESS);
    assert_int_equal(size, il_size);
    char *back = malloc(size);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, size, back, NULL), CL_SUCCESS);
    assert_memory_equal(back, il, il_size);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL, size - 1, back, NULL), CL_INVALID_VALUE);
    free(back);
    clReleaseProgram(p);
    cl_program s = program_of("kernel void k(void) {}", NULL);
    assert_int_equal(clGetProgramInfo(s, CL_PROGRAM_IL, 0, NULL, &size), CL_SUCCESS);
    assert_int_equal(size, 0);
    clReleaseProgram(s);
    free(il);
}

/* Not SPIR-V: no magic number, not whole 32-bit words, or shorter than the header. */
static void bad_il(void **state)
{
    (void)state;
    SKIP_WITHOUT_TOOLS(); /* without a translator every IL is CL_INVALID_OPERATION */
    const unsigned char zeros[20] = {0};
    unsigned char words[24] = {0x03, 0x02, 0x23, 0x07, 0x00, 0x00, 0x01, 0x00};
    cl_int err = CL_SUCCESS;
    assert_null(clCreateProgramWithIL(ctx, zeros, sizeof zeros, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithIL(ctx, words, 21, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithIL(ctx, words, 2, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithIL(ctx, words, 16, &err)); /* shorter than the header */
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithIL(ctx, NULL, 20, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    assert_null(clCreateProgramWithIL(ctx, words, 0, &err));
    assert_int_equal(err, CL_INVALID_VALUE);
    /* The magic number in the other byte order is SPIR-V too. */
    unsigned char swapped[20] = {0x07, 0x23, 0x02, 0x03};
    cl_program p = clCreateProgramWithIL(ctx, swapped, sizeof swapped, &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseProgram(p);
}

/* A header the translator refuses (SPIR-V 1.6): a failed build with its message in the log. */
static void translator_refuses(void **state)
{
    (void)state;
    SKIP_WITHOUT_TOOLS();
    const cl_uint header[5] = {0x07230203, 0x00010600, 0, 1, 0};
    cl_program p = il_program(header, sizeof header);
    assert_int_equal(clBuildProgram(p, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    cl_build_status status;
    assert_int_equal(
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL),
        CL_SUCCESS);
    assert_int_equal(status, CL_BUILD_ERROR);
    char log[4096] = "";
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    if (!strstr(log, "SPIR-V version"))
        fail_msg("the log lacks the translator's message: %s", log);
    assert_int_equal(clCompileProgram(p, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL),
                     CL_COMPILE_PROGRAM_FAILURE);
    cl_int err;
    assert_null(clCreateKernel(p, "k", &err));
    assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p);
}

/* o[0] and f[0] of kernel k of spirv_spec_constants.spvasm, built as `p` is now. */
static void run_spec(cl_program p, cl_int *o, float *f)
{
    build_or_fail(p, NULL);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem mo = buffer(sizeof *o, NULL), mf = buffer(sizeof *f, NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof mo, &mo), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof mf, &mf), CL_SUCCESS);
    size_t one = 1;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof *o, o, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, mf, CL_TRUE, 0, sizeof *f, f, 0, NULL, NULL),
                     CL_SUCCESS);
    clReleaseMemObject(mo);
    clReleaseMemObject(mf);
    clReleaseKernel(k);
}

/* clSetProgramSpecializationConstant: defaults, set values (kept across builds), errors. */
static void specialization_constants(void **state)
{
    (void)state;
#ifndef LANES_TEST_SPIRV_SPEC_FILE
    print_message("skipped: spirv-as or llvm-spirv-15 was not found when the tests were built\n");
    skip();
#else
    size_t il_size;
    char *il = read_file(LANES_TEST_SPIRV_SPEC_FILE, &il_size);
    cl_program p = il_program(il, il_size);
    cl_int o;
    float f;
    run_spec(p, &o, &f);
    assert_int_equal(o, 5);
    assert_true(f == 1.5f);

    const cl_int c = -7;
    const float d = 0.1f;
    const cl_uchar b = 1;
    assert_int_equal(clSetProgramSpecializationConstant(p, 7, sizeof c, &c), CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(p, 8, sizeof d, &d), CL_SUCCESS);
    assert_int_equal(clSetProgramSpecializationConstant(p, 9, sizeof b, &b), CL_SUCCESS);
    run_spec(p, &o, &f);
    assert_int_equal(o, -6);
    assert_memory_equal(&f, &d, sizeof f); /* every bit of the float */
    const cl_int c2 = 100;
    assert_int_equal(clSetProgramSpecializationConstant(p, 7, sizeof c2, &c2), CL_SUCCESS);
    run_spec(p, &o, &f); /* the later value wins; the others stay */
    assert_int_equal(o, 101);

    assert_int_equal(clSetProgramSpecializationConstant(p, 99, sizeof c, &c), CL_INVALID_SPEC_ID);
    assert_int_equal(clSetProgramSpecializationConstant(p, 7, 8, &c), CL_INVALID_VALUE);
    assert_int_equal(clSetProgramSpecializationConstant(p, 9, 4, &c), CL_INVALID_VALUE);
    assert_int_equal(clSetProgramSpecializationConstant(p, 7, sizeof c, NULL), CL_INVALID_VALUE);
    assert_int_equal(clSetProgramSpecializationConstant(NULL, 7, sizeof c, &c), CL_INVALID_PROGRAM);
    cl_program s = program_of("kernel void k(void) {}", NULL);
    assert_int_equal(clSetProgramSpecializationConstant(s, 7, sizeof c, &c), CL_INVALID_PROGRAM);
    clReleaseProgram(s);
    clReleaseProgram(p);
    free(il);
#endif
}

/*
 * SPIR-V 1.4 instructions the translator cannot read, rewritten by the
 * driver (compiler/frontend/spirv_lower.c): spirv_14_lowered.spvasm.
 */
static void spirv_14_rewritten(void **state)
{
    (void)state;
#ifndef LANES_TEST_SPIRV_14_FILE
    print_message("skipped: spirv-as or llvm-spirv-15 was not found when the tests were built\n");
    skip();
#else
    size_t il_size;
    char *il = read_file(LANES_TEST_SPIRV_14_FILE, &il_size);
    cl_program p = il_program(il, il_size);
    free(il);
    build_or_fail(p, NULL);
    cl_int err;
    cl_kernel k = clCreateKernel(p, "lowered", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_uint out[10] = {0}, want[10] = {1, 1, 3, 0xfffffffdu, 7, 16, 42, 42, 42, 42};
    cl_mem mo = buffer(sizeof out, out), ma = buffer(64, NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof mo, &mo), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof ma, &ma), CL_SUCCESS);
    size_t one = 1;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &one, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 10; i++)
        assert_int_equal(out[i], want[i]);
    clReleaseMemObject(mo);
    clReleaseMemObject(ma);
    clReleaseKernel(k);
    clReleaseProgram(p);
#endif
}

/* CL_DEVICE_IL_VERSION and CL_DEVICE_ILS_WITH_VERSION follow LANES_SPIRV, and so does the entry. */
static void device_queries(void **state)
{
    (void)state;
    SKIP_WITHOUT_TOOLS();
    char version[128];
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, sizeof version, version, NULL),
                     CL_SUCCESS);
    assert_string_equal(version, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
    cl_name_version ils[8];
    size_t size;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_ILS_WITH_VERSION, sizeof ils, ils, &size),
                     CL_SUCCESS);
    assert_int_equal(size, 5 * sizeof *ils);
    for (cl_uint i = 0; i < 5; i++) {
        assert_string_equal(ils[i].name, "SPIR-V");
        assert_int_equal(ils[i].version, CL_MAKE_VERSION(1, i, 0));
    }

    /* cl_khr_il_program: listed, and its entry point makes the same program. */
    char ext[8192];
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL), CL_SUCCESS);
    assert_true(lanes_test_has_word(ext, "cl_khr_il_program"));
    cl_platform_id platform;
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_PLATFORM, sizeof platform, &platform, NULL),
                     CL_SUCCESS);
    clCreateProgramWithILKHR_fn with_il_khr =
        (clCreateProgramWithILKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clCreateProgramWithILKHR");
    assert_non_null(with_il_khr);
    size_t il_size;
    char *il = read_file(LANES_TEST_SPIRV_FILE, &il_size);
    cl_int khr_err;
    cl_program p = with_il_khr(ctx, il, il_size, &khr_err);
    assert_int_equal(khr_err, CL_SUCCESS);
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_IL_KHR, 0, NULL, &size), CL_SUCCESS);
    assert_int_equal(size, il_size);
    build_or_fail(p, NULL);
    clReleaseProgram(p);
    assert_null(with_il_khr(ctx, il, 3, &khr_err));
    assert_int_equal(khr_err, CL_INVALID_VALUE);
    free(il);

    unsetenv("LANES_SPIRV");
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, sizeof version, version, NULL),
                     CL_SUCCESS);
    assert_string_equal(version, "");
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &size), CL_SUCCESS);
    assert_int_equal(size, 0);
    const cl_uint header[5] = {0x07230203, 0x00010000, 0, 1, 0};
    cl_int err;
    assert_null(clCreateProgramWithIL(ctx, header, sizeof header, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    setenv("LANES_SPIRV", "1", 1);
}

int main(void)
{
    setenv("LANES_SPIRV", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_results_as_source), cmocka_unit_test(compile_and_link),
        cmocka_unit_test(asynchronous_build),     cmocka_unit_test(binary_of_il),
        cmocka_unit_test(il_round_trip),          cmocka_unit_test(bad_il),
        cmocka_unit_test(translator_refuses),     cmocka_unit_test(specialization_constants),
        cmocka_unit_test(spirv_14_rewritten),     cmocka_unit_test(device_queries)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
