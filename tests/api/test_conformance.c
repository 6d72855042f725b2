/* SPDX-License-Identifier: MIT */
/* Regressions found by the OpenCL-CTS (cts-shim); each test names the CTS sub-test. */
#include "kernel_fixture.h"

#include <stdio.h>

/* test_api zero_sized_enqueue: a NULL global size runs nothing (it crashed). */
static void null_global_size_runs_nothing(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("kernel void k(global int *o) { o[get_global_id(0)] = 1; }", "k", NULL);
    cl_mem m = buffer(sizeof(int), NULL);
    const int zero = 0;
    assert_int_equal(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, sizeof zero, &zero, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    for (cl_uint dim = 1; dim <= 3; dim++) {
        cl_event e = NULL;
        assert_int_equal(clEnqueueNDRangeKernel(queue, k, dim, NULL, NULL, NULL, 0, NULL, &e),
                         CL_SUCCESS);
        assert_int_equal(clWaitForEvents(1, &e), CL_SUCCESS);
        cl_command_type type = 0;
        assert_int_equal(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL),
                         CL_SUCCESS);
        assert_int_equal(type, CL_COMMAND_NDRANGE_KERNEL);
        clReleaseEvent(e);
    }
    int r = -1;
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, &r, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(r, 0);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

/* test_api null_required_work_group_size: no local size means reqd_work_group_size. */
static void reqd_work_group_size_without_local_size(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("__attribute__((reqd_work_group_size(2, 3, 1)))\n"
                            "kernel void k(global int *o) {\n"
                            "  if (get_global_id(0) == 0 && get_global_id(1) == 0) {\n"
                            "    o[0] = get_local_size(0); o[1] = get_local_size(1);\n"
                            "    o[2] = get_local_size(2);\n"
                            "  }\n"
                            "}\n",
                            "k", NULL);
    cl_mem m = buffer(3 * sizeof(int), NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    const size_t global[3] = {8, 9, 4};
    for (cl_uint dim = 2; dim <= 3; dim++) {
        int r[3] = {0};
        assert_int_equal(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(queue, k, dim, NULL, global, NULL, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(r[0], 2);
        assert_int_equal(r[1], 3);
        assert_int_equal(r[2], 1);
    }
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

/* test_api kernel_attributes: vec_type_hint is part of CL_KERNEL_ATTRIBUTES. */
static void vec_type_hint_attribute(void **state)
{
    (void)state;
    static const struct {
        const char *type, *expected;
    } cases[] = {
        {"uint4", "vec_type_hint(uint4)"},     {"float3", "vec_type_hint(float3)"},
        {"uchar16", "vec_type_hint(uchar16)"}, {"short2", "vec_type_hint(short2)"},
        {"ulong8", "vec_type_hint(ulong8)"},   {"int", "vec_type_hint(int)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[256];
        snprintf(src, sizeof src,
                 "__attribute__((work_group_size_hint(1,1,1))) "
                 "__attribute__((vec_type_hint(%s))) kernel void k(void) {}",
                 cases[i].type);
        cl_kernel k = kernel_of(src, "k", NULL);
        char attrs[256] = "";
        assert_int_equal(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL),
                         CL_SUCCESS);
        assert_non_null(strstr(attrs, cases[i].expected));
        assert_non_null(strstr(attrs, "work_group_size_hint(1,1,1)"));
        clReleaseKernel(k);
    }
}

/*
 * test_api consistency_il_programs, consistency_subgroups,
 * consistency_prog_ctor_dtor: entries for features the device does not offer
 * answer CL_INVALID_OPERATION for valid handles, and the handle's error otherwise.
 * (SVM is offered now: tests/api/test_svm.c covers its kernel entries.)
 */
static void unsupported_features_are_invalid_operation(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("kernel void k(global int *p) { *p = 0; }", "k", NULL);
    cl_program p = NULL;
    assert_int_equal(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof p, &p, NULL), CL_SUCCESS);

    cl_int err = 0;
    const cl_uint bogus = 0xdeadbeef;
    assert_null(clCreateProgramWithIL(ctx, &bogus, sizeof bogus, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clCreateProgramWithIL(NULL, &bogus, sizeof bogus, &err));
    assert_int_equal(err, CL_INVALID_CONTEXT);

    const cl_uint spec = 42;
    assert_int_equal(clSetProgramSpecializationConstant(p, 0, sizeof spec, &spec),
                     CL_INVALID_OPERATION);
    assert_int_equal(clSetProgramSpecializationConstant(NULL, 0, sizeof spec, &spec),
                     CL_INVALID_PROGRAM);
    clReleaseKernel(k);
}

/*
 * clGetKernelSubGroupInfo: every query agrees with what the kernel itself
 * reports (get_max_sub_group_size, get_num_sub_groups), and bad input
 * gets the specification's codes.
 */
static void sub_group_info(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("kernel void k(global uint *p) {\n"
                            "    if (get_local_linear_id() == 0) {\n"
                            "        p[0] = get_max_sub_group_size();\n"
                            "        p[1] = get_num_sub_groups();\n"
                            "    }\n"
                            "}",
                            "k", "-cl-std=CL3.0");
    static const size_t locals[][3] = {{64, 1, 1}, {37, 1, 1}, {24, 1, 1}, {4, 3, 1},
                                       {1, 1, 1},  {8, 8, 2},  {5, 1, 1}};
    for (size_t i = 0; i < sizeof locals / sizeof *locals; i++) {
        const size_t *local = locals[i];
        size_t max = 0, count = 0, ret = 0;
        assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                                 3 * sizeof(size_t), local, sizeof max, &max, &ret),
                         CL_SUCCESS);
        assert_int_equal(ret, sizeof(size_t));
        assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                                 3 * sizeof(size_t), local, sizeof count, &count,
                                                 NULL),
                         CL_SUCCESS);
        cl_uint got[2] = {0, 0};
        cl_int err;
        cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof got, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
        assert_int_equal(clEnqueueNDRangeKernel(queue, k, 3, NULL, local, local, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(
            clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
            CL_SUCCESS);
        clReleaseMemObject(buf);
        assert_int_equal(got[0], max);
        assert_int_equal(got[1], count);
        size_t items = local[0] * local[1] * local[2];
        assert_true(max >= 1 && max <= items && count == (items + max - 1) / max);
    }
    /* LOCAL_SIZE_FOR_SUB_GROUP_COUNT gives a local size with that many sub-groups. */
    size_t want = 3, local[3] = {0, 0, 0}, count = 0;
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                             sizeof want, &want, sizeof local, local, NULL),
                     CL_SUCCESS);
    assert_true(local[0] > 0 && local[1] == 1 && local[2] == 1);
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                             sizeof local, local, sizeof count, &count, NULL),
                     CL_SUCCESS);
    assert_int_equal(count, want);
    size_t multiple = 0, max_num = 0, compile_num = 1;
    assert_int_equal(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                              sizeof multiple, &multiple, NULL),
                     CL_SUCCESS);
    assert_int_equal(local[0], 3 * multiple);
    /* Too many sub-groups for any work-group: zeros. */
    want = 1u << 20;
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                             sizeof want, &want, sizeof local, local, NULL),
                     CL_SUCCESS);
    assert_true(local[0] == 0 && local[1] == 0 && local[2] == 0);
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                             sizeof max_num, &max_num, NULL),
                     CL_SUCCESS);
    cl_uint device_max = 0;
    assert_int_equal(
        clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof device_max, &device_max, NULL),
        CL_SUCCESS);
    assert_true(max_num >= 1 && max_num <= device_max);
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, NULL,
                                             sizeof compile_num, &compile_num, NULL),
                     CL_SUCCESS);
    assert_int_equal(compile_num, 0);

    /* Errors. */
    size_t sz = 0, one[3] = {16, 1, 1};
    assert_int_equal(clGetKernelSubGroupInfo(NULL, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                             sizeof sz, &sz, NULL),
                     CL_INVALID_KERNEL);
    assert_int_equal(clGetKernelSubGroupInfo(k, (cl_device_id)k, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                             NULL, sizeof sz, &sz, NULL),
                     CL_INVALID_DEVICE);
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 0,
                                             NULL, sizeof sz, &sz, NULL),
                     CL_INVALID_VALUE); /* no local size */
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                             4 * sizeof(size_t), one, sizeof sz, &sz, NULL),
                     CL_INVALID_VALUE); /* four dimensions */
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                             sizeof(size_t) + 1, one, sizeof sz, &sz, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                             sizeof one, one, 1, &sz, NULL),
                     CL_INVALID_VALUE); /* param_value too small */
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, 0x7fff, 0, NULL, sizeof sz, &sz, NULL),
                     CL_INVALID_VALUE);
    /* Shapes no launch can have (the API fuzzer's: each compiled a launcher with a 2^61-byte
     * frame). */
    size_t huge[3][3] = {{(size_t)1 << 40, 1, 1}, {4096, 4096, 1}, {SIZE_MAX, SIZE_MAX, 2}};
    for (int i = 0; i < 3; i++)
        assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                                 sizeof huge[i], huge[i], sizeof sz, &sz, NULL),
                         CL_INVALID_VALUE);
    /* The KHR entry point, through the extension function table. */
    clGetKernelSubGroupInfoKHR_fn khr =
        (clGetKernelSubGroupInfoKHR_fn)clGetExtensionFunctionAddressForPlatform(
            lanes_test_platform(), "clGetKernelSubGroupInfoKHR");
    assert_non_null(khr);
    size_t viakhr = 0, direct = 0;
    assert_int_equal(khr(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof one, one,
                         sizeof viakhr, &viakhr, NULL),
                     CL_SUCCESS);
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                             sizeof one, one, sizeof direct, &direct, NULL),
                     CL_SUCCESS);
    assert_int_equal(viakhr, direct);
    assert_int_equal(khr(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, sizeof one, one,
                         sizeof viakhr, &viakhr, NULL),
                     CL_SUCCESS);
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                             sizeof one, one, sizeof direct, &direct, NULL),
                     CL_SUCCESS);
    assert_int_equal(viakhr, direct);
    /* Its errors, in the extension's order; OpenCL 2.1's queries are not the extension's. */
    assert_int_equal(khr(NULL, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, sizeof one, one,
                         sizeof sz, &sz, NULL),
                     CL_INVALID_KERNEL);
    assert_int_equal(khr(k, (cl_device_id)k, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, sizeof one,
                         one, sizeof sz, &sz, NULL),
                     CL_INVALID_DEVICE);
    assert_int_equal(khr(k, NULL, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, sizeof one, one,
                         sizeof sz, &sz, NULL),
                     CL_SUCCESS); /* NULL: the context's one device */
    assert_int_equal(khr(k, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof sz, &sz, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(
        khr(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, 0, NULL, sizeof sz, &sz, NULL),
        CL_INVALID_VALUE); /* no local size */
    assert_int_equal(
        khr(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, sizeof one, one, 1, &sz, NULL),
        CL_INVALID_VALUE); /* param_value too small */
    clReleaseKernel(k);
}

/*
 * A kernel the vectorizer refuses (irreducible control flow) runs at width
 * 1, and the queries that name no local size say so too: a local size for
 * 3 sub-groups is 3 work-items, the preferred multiple is 1, and every
 * work-item may be a sub-group of its own.
 */
static void sub_group_info_of_refused_kernel(void **state)
{
    (void)state;
    cl_kernel k = kernel_of("kernel void k(global uint *p) {\n"
                            "    int v = p[get_global_id(0)];\n"
                            "    if (v & 1) goto l2;\n"
                            "l1: v += 3;\n"
                            "l2: v *= 2;\n"
                            "    if (v < 1000) goto l1;\n"
                            "    if (get_local_linear_id() == 0)\n"
                            "        p[0] = get_num_sub_groups();\n"
                            "}",
                            "k", "-cl-std=CL3.0");
    size_t want = 3, local[3] = {0, 0, 0}, multiple = 0, max_num = 0, max_group = 0;
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                             sizeof want, &want, sizeof local, local, NULL),
                     CL_SUCCESS);
    assert_int_equal(local[0], 3);
    assert_int_equal(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                              sizeof multiple, &multiple, NULL),
                     CL_SUCCESS);
    assert_int_equal(multiple, 1);
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL,
                                             sizeof max_num, &max_num, NULL),
                     CL_SUCCESS);
    assert_int_equal(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof max_group,
                                              &max_group, NULL),
                     CL_SUCCESS);
    assert_int_equal(max_num, max_group);
    /* The kernel agrees: 3 sub-groups in a work-group of 3. */
    cl_uint got = 0;
    cl_int err;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4 * sizeof got,
                                (cl_uint[4]){0, 0, 0, 0}, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, local, local, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(got, 3);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
}

static void CL_CALLBACK release_callback(cl_program p, void *user_data)
{
    (void)p, (void)user_data;
}

/* test_api consistency_prog_ctor_dtor. */
static void program_release_callback_is_invalid_operation(void **state)
{
    (void)state;
    cl_program p = program_of("kernel void k(void) {}", NULL);
    assert_int_equal(clSetProgramReleaseCallback(p, release_callback, NULL), CL_INVALID_OPERATION);
    assert_int_equal(clSetProgramReleaseCallback(NULL, release_callback, NULL), CL_INVALID_PROGRAM);
    clReleaseProgram(p);
}

/* test_basic vector_swizzle: a long16 argument (ABI alignment 128) crashed the launcher. */
static void wide_vector_argument(void **state)
{
    (void)state;
    cl_kernel k =
        kernel_of("kernel void k(int a, long16 v, global long16 *o) { o[0] = v + a; }", "k", NULL);
    cl_mem m = buffer(sizeof(cl_long16), NULL);
    cl_long16 v;
    for (int i = 0; i < 16; i++)
        v.s[i] = (cl_long)i * 1000003;
    const cl_int a = 7;
    assert_int_equal(clSetKernelArg(k, 0, sizeof a, &a), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof m, &m), CL_SUCCESS);
    /* Several commands, so that payloads land at differently aligned heap addresses. */
    for (int rep = 0; rep < 8; rep++)
        assert_int_equal(clEnqueueTask(queue, k, 0, NULL, NULL), CL_SUCCESS);
    cl_long16 r;
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, &r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 16; i++)
        assert_int_equal(r.s[i], v.s[i] + a);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

/* test_basic kernel_preprocessor_macros: __OPENCL_VERSION__ is the device's version. */
static void opencl_version_macro(void **state)
{
    (void)state;
    const char *src = "kernel void k(global int *o) {\n"
                      "#ifdef __OPENCL_VERSION__\n"
                      "  o[0] = __OPENCL_VERSION__;\n"
                      "#else\n"
                      "  o[0] = -1;\n"
                      "#endif\n"
                      "  o[1] = __OPENCL_C_VERSION__;\n"
                      "}\n";
    static const char *const options[] = {NULL, "-cl-std=CL1.2", "-cl-std=CL3.0"};
    static const int c_versions[] = {120, 120, 300};
    cl_mem m = buffer(2 * sizeof(int), NULL);
    for (size_t i = 0; i < 3; i++) {
        cl_program p = program_of(src, options[i]);
        cl_int err;
        cl_kernel k = clCreateKernel(p, "k", &err);
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
        assert_int_equal(clEnqueueTask(queue, k, 0, NULL, NULL), CL_SUCCESS);
        int r[2] = {0};
        assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(r[0], 300);
        assert_int_equal(r[1], c_versions[i]);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    clReleaseMemObject(m);
}

/*
 * test_basic kernel_memory_alignment_constant: programs that define program-scope
 * variables of the same name run side by side ("Duplicate definition of symbol").
 */
static void same_program_scope_names_in_two_programs(void **state)
{
    (void)state;
    static const char *const types[] = {"char", "short", "int", "long"};
    cl_kernel k[4];
    cl_mem m = buffer(sizeof(cl_long), NULL);
    for (size_t i = 0; i < 4; i++) {
        char src[256];
        snprintf(src, sizeof src,
                 "constant %s table[3] = {%zu, %zu, %zu};\n"
                 "kernel void k(global long *o) { o[0] = table[2]; }\n",
                 types[i], i, i + 1, i + 2);
        k[i] = kernel_of(src, "k", NULL);
        assert_int_equal(clSetKernelArg(k[i], 0, sizeof m, &m), CL_SUCCESS);
    }
    /* All four launchers are in the JIT at once. */
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(clEnqueueTask(queue, k[i], 0, NULL, NULL), CL_SUCCESS);
        cl_long r = -1;
        assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, &r, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(r, (cl_long)i + 2);
    }
    for (size_t i = 0; i < 4; i++)
        clReleaseKernel(k[i]);
    clReleaseMemObject(m);
}

/*
 * test_api min_max_device_version: an OpenCL 1.1+ device lists
 * cl_khr_byte_addressable_store, and stores of single bytes and shorts leave
 * their neighbours alone.
 */
static void byte_addressable_store(void **state)
{
    (void)state;
    char *ext = lanes_test_device_string(dev, CL_DEVICE_EXTENSIONS);
    assert_true(lanes_test_has_word(ext, "cl_khr_byte_addressable_store"));
    free(ext);
    cl_kernel k = kernel_of("#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable\n"
                            "kernel void k(global char *c, global short *s) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  if (i % 3 == 0) c[i] = (char)i;\n"
                            "  if (i % 2 == 0) s[i] = (short)(i * 3);\n"
                            "}\n",
                            "k", NULL);
    enum { N = 64 };
    cl_char c[N];
    cl_short sh[N];
    memset(c, 0x5a, sizeof c);
    for (int i = 0; i < N; i++)
        sh[i] = -7;
    cl_mem mc = buffer(sizeof c, NULL), ms = buffer(sizeof sh, NULL);
    assert_int_equal(clEnqueueWriteBuffer(queue, mc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueWriteBuffer(queue, ms, CL_TRUE, 0, sizeof sh, sh, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof mc, &mc), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof ms, &ms), CL_SUCCESS);
    const size_t global = N;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, ms, CL_TRUE, 0, sizeof sh, sh, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++) {
        assert_int_equal(c[i], i % 3 == 0 ? i : 0x5a);
        assert_int_equal(sh[i], i % 2 == 0 ? i * 3 : -7);
    }
    clReleaseMemObject(mc);
    clReleaseMemObject(ms);
    clReleaseKernel(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(null_global_size_runs_nothing),
        cmocka_unit_test(reqd_work_group_size_without_local_size),
        cmocka_unit_test(vec_type_hint_attribute),
        cmocka_unit_test(unsupported_features_are_invalid_operation),
        cmocka_unit_test(sub_group_info),
        cmocka_unit_test(sub_group_info_of_refused_kernel),
        cmocka_unit_test(program_release_callback_is_invalid_operation),
        cmocka_unit_test(wide_vector_argument),
        cmocka_unit_test(opencl_version_macro),
        cmocka_unit_test(same_program_scope_names_in_two_programs),
        cmocka_unit_test(byte_addressable_store),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
