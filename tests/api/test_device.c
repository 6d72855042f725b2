/* SPDX-License-Identifier: MIT */
/* The device through the loader: every OpenCL 3.0 query, its errors, and the machine's truth. */
#include "common.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY (~(size_t)0) /* a query whose answer has a variable size */

/* Every clGetDeviceInfo query of OpenCL 3.0 and the extensions Lanes lists, with its size. */
static const struct {
    cl_device_info param;
    size_t size;
} queries[] = {
    {CL_DEVICE_TYPE, sizeof(cl_device_type)},
    {CL_DEVICE_VENDOR_ID, sizeof(cl_uint)},
    {CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t)},
    {CL_DEVICE_MAX_WORK_ITEM_SIZES, 3 * sizeof(size_t)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, sizeof(cl_uint)},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof(cl_uint)},
    {CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof(cl_uint)},
    {CL_DEVICE_ADDRESS_BITS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_IMAGE_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_IL_VERSION, ARRAY},
    {CL_DEVICE_ILS_WITH_VERSION, ARRAY},
    {CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(size_t)},
    {CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof(size_t)},
    {CL_DEVICE_IMAGE3D_MAX_WIDTH, sizeof(size_t)},
    {CL_DEVICE_IMAGE3D_MAX_HEIGHT, sizeof(size_t)},
    {CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof(size_t)},
    {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof(size_t)},
    {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof(size_t)},
    {CL_DEVICE_MAX_SAMPLERS, sizeof(cl_uint)},
    {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_MAX_PIPE_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof(cl_uint)},
    {CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_MAX_PARAMETER_SIZE, sizeof(size_t)},
    {CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(cl_uint)},
    {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_SINGLE_FP_CONFIG, sizeof(cl_device_fp_config)},
    {CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(cl_device_fp_config)},
    {CL_DEVICE_HALF_FP_CONFIG, sizeof(cl_device_fp_config)},
    {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof(cl_device_mem_cache_type)},
    {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_GLOBAL_MEM_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_MAX_CONSTANT_ARGS, sizeof(cl_uint)},
    {CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof(size_t)},
    {CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, sizeof(size_t)},
    {CL_DEVICE_LOCAL_MEM_TYPE, sizeof(cl_device_local_mem_type)},
    {CL_DEVICE_LOCAL_MEM_SIZE, sizeof(cl_ulong)},
    {CL_DEVICE_ERROR_CORRECTION_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof(cl_bool)},
    {CL_DEVICE_PROFILING_TIMER_RESOLUTION, sizeof(size_t)},
    {CL_DEVICE_ENDIAN_LITTLE, sizeof(cl_bool)},
    {CL_DEVICE_AVAILABLE, sizeof(cl_bool)},
    {CL_DEVICE_COMPILER_AVAILABLE, sizeof(cl_bool)},
    {CL_DEVICE_LINKER_AVAILABLE, sizeof(cl_bool)},
    {CL_DEVICE_EXECUTION_CAPABILITIES, sizeof(cl_device_exec_capabilities)},
    {CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof(cl_command_queue_properties)},
    {CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof(cl_command_queue_properties)},
    {CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof(cl_uint)},
    {CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof(cl_uint)},
    {CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof(cl_uint)},
    {CL_DEVICE_BUILT_IN_KERNELS, ARRAY},
    {CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, ARRAY},
    {CL_DEVICE_PLATFORM, sizeof(cl_platform_id)},
    {CL_DEVICE_NAME, ARRAY},
    {CL_DEVICE_VENDOR, ARRAY},
    {CL_DRIVER_VERSION, ARRAY},
    {CL_DEVICE_PROFILE, ARRAY},
    {CL_DEVICE_VERSION, ARRAY},
    {CL_DEVICE_NUMERIC_VERSION, sizeof(cl_version)},
    {CL_DEVICE_OPENCL_C_VERSION, ARRAY},
    {CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR, sizeof(cl_version)},
    {CL_DEVICE_OPENCL_C_ALL_VERSIONS, ARRAY},
    {CL_DEVICE_OPENCL_C_FEATURES, ARRAY},
    {CL_DEVICE_EXTENSIONS, ARRAY},
    {CL_DEVICE_EXTENSIONS_WITH_VERSION, ARRAY},
    {CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof(size_t)},
    {CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, sizeof(cl_bool)},
    {CL_DEVICE_PARENT_DEVICE, sizeof(cl_device_id)},
    {CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof(cl_uint)},
    {CL_DEVICE_PARTITION_PROPERTIES, ARRAY},
    {CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof(cl_device_affinity_domain)},
    {CL_DEVICE_PARTITION_TYPE, ARRAY},
    {CL_DEVICE_REFERENCE_COUNT, sizeof(cl_uint)},
    {CL_DEVICE_SVM_CAPABILITIES, sizeof(cl_device_svm_capabilities)},
    {CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, sizeof(cl_uint)},
    {CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(cl_uint)},
    {CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof(cl_bool)},
    {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof(cl_device_atomic_capabilities)},
    {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, sizeof(cl_device_atomic_capabilities)},
    {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof(cl_device_device_enqueue_capabilities)},
    {CL_DEVICE_PIPE_SUPPORT, sizeof(cl_bool)},
    {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(size_t)},
    {CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, ARRAY},
    {CL_DEVICE_UUID_KHR, CL_UUID_SIZE_KHR},
    {CL_DRIVER_UUID_KHR, CL_UUID_SIZE_KHR},
    {CL_DEVICE_LUID_VALID_KHR, sizeof(cl_bool)},
    {CL_DEVICE_LUID_KHR, CL_LUID_SIZE_KHR},
    {CL_DEVICE_NODE_MASK_KHR, sizeof(cl_uint)},
    {CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR,
     sizeof(cl_device_integer_dot_product_capabilities_khr)},
    {CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
     sizeof(cl_device_integer_dot_product_acceleration_properties_khr)},
    {CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR,
     sizeof(cl_device_integer_dot_product_acceleration_properties_khr)},
};

static void every_query_answers(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
        size_t size = 12345;
        cl_int err = clGetDeviceInfo(dev, queries[i].param, 0, NULL, &size);
        if (err != CL_SUCCESS)
            fail_msg("query 0x%x: error %d", (unsigned)queries[i].param, err);
        if (queries[i].size != ARRAY && size != queries[i].size)
            fail_msg("query 0x%x: size %zu, expected %zu", (unsigned)queries[i].param, size,
                     queries[i].size);
        unsigned char buf[8192];
        assert_true(size <= sizeof buf);
        size_t again = 0;
        assert_int_equal(clGetDeviceInfo(dev, queries[i].param, size, buf, &again), CL_SUCCESS);
        assert_int_equal(again, size);
        if (size > 0)
            assert_int_equal(clGetDeviceInfo(dev, queries[i].param, size - 1, buf, &again),
                             CL_INVALID_VALUE);
    }
}

#define GET(dev, param, var)                                                                       \
    assert_int_equal(clGetDeviceInfo(dev, param, sizeof(var), &(var), NULL), CL_SUCCESS)

static void cpu_device_facts(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_device_type type;
    GET(dev, CL_DEVICE_TYPE, type);
    assert_int_equal(type, CL_DEVICE_TYPE_CPU);

    cl_uint units;
    GET(dev, CL_DEVICE_MAX_COMPUTE_UNITS, units);
    const char *threads = getenv("LANES_NUM_THREADS");
    if (threads)
        assert_int_equal(units, strtoul(threads, NULL, 10));
    else
        assert_true(units >= 1 && units <= (cl_uint)sysconf(_SC_NPROCESSORS_ONLN));

    cl_uint bits, dims;
    cl_bool little, avail, compiler;
    GET(dev, CL_DEVICE_ADDRESS_BITS, bits);
    GET(dev, CL_DEVICE_ENDIAN_LITTLE, little);
    GET(dev, CL_DEVICE_AVAILABLE, avail);
    GET(dev, CL_DEVICE_COMPILER_AVAILABLE, compiler);
    GET(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, dims);
    assert_int_equal(bits, 64);
    assert_true(little && avail && compiler);
    assert_int_equal(dims, 3);

    /* The specification's minimums for a full profile device. */
    cl_ulong global, alloc, local, constant;
    GET(dev, CL_DEVICE_GLOBAL_MEM_SIZE, global);
    GET(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, alloc);
    GET(dev, CL_DEVICE_LOCAL_MEM_SIZE, local);
    GET(dev, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, constant);
    cl_ulong quarter = global / 4 < (1ull << 30) ? global / 4 : (1ull << 30);
    assert_true(alloc >= quarter && alloc >= (32ull << 20) && alloc <= global);
    assert_true(global < (cl_ulong)sysconf(_SC_PHYS_PAGES) * (cl_ulong)sysconf(_SC_PAGESIZE));
    assert_true(local >= 32 * 1024);
    assert_true(constant >= 64 * 1024);

    size_t wg, sizes[3], param;
    GET(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, wg);
    GET(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizes);
    GET(dev, CL_DEVICE_MAX_PARAMETER_SIZE, param);
    assert_true(wg >= 1024);
    assert_true(sizes[0] == wg && sizes[1] == wg && sizes[2] == wg);
    assert_true(param >= 1024);

    cl_uint line, align;
    cl_ulong cache;
    GET(dev, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, line);
    GET(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cache);
    GET(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, align);
    assert_true(line >= 16 && (line & (line - 1)) == 0);
    assert_true(cache >= 32 * 1024);
    assert_true(align >= 8 * 128); /* a long16 */

    cl_device_fp_config fp;
    GET(dev, CL_DEVICE_SINGLE_FP_CONFIG, fp);
    assert_true((fp & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN)) ==
                (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN));
    /* Double precision: 0, or all that OpenCL 3.0 asks of a device with cl_khr_fp64. */
    cl_device_fp_config dfp;
    GET(dev, CL_DEVICE_DOUBLE_FP_CONFIG, dfp);
    char *exts = lanes_test_device_string(dev, CL_DEVICE_EXTENSIONS);
    if (lanes_test_has_word(exts, "cl_khr_fp64"))
        assert_int_equal(dfp, CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                  CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM);
    else
        assert_int_equal(dfp, 0);
    free(exts);

    char *profile = lanes_test_device_string(dev, CL_DEVICE_PROFILE);
    char *version = lanes_test_device_string(dev, CL_DEVICE_VERSION);
    char *cver = lanes_test_device_string(dev, CL_DEVICE_OPENCL_C_VERSION);
    char *name = lanes_test_device_string(dev, CL_DEVICE_NAME);
    assert_string_equal(profile, "FULL_PROFILE");
    assert_memory_equal(version, "OpenCL 3.0 ", 11);
    assert_memory_equal(cver, "OpenCL C 1.2", 12);
    assert_true(strlen(name) > 0);
    free(profile), free(version), free(cver), free(name);

    cl_platform_id platform;
    GET(dev, CL_DEVICE_PLATFORM, platform);
    assert_ptr_equal(platform, lanes_test_platform());
}

/* Preferred and native widths follow the widest vector register. */
static void vector_widths(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_uint c, i, l, f, d, h;
    GET(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, c);
    GET(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, i);
    GET(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, l);
    GET(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, f);
    GET(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, d);
    GET(dev, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, h);
    assert_true(i == 4 || i == 8 || i == 16);
    assert_int_equal(f, i);
    assert_int_equal(l, i / 2);
    assert_int_equal(c, 16);
    char *ext = lanes_test_device_string(dev, CL_DEVICE_EXTENSIONS);
    /* Widths of optional types are 0 unless their extension is listed. */
    if (!lanes_test_has_word(ext, "cl_khr_fp64"))
        assert_int_equal(d, 0);
    else
        assert_int_equal(d, l); /* as many as longs */
    if (!lanes_test_has_word(ext, "cl_khr_fp16"))
        assert_int_equal(h, 0);
    free(ext);
}

/* Lists agree with their string forms, and nothing unproven is listed. */
static void capability_lists(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    char *ext = lanes_test_device_string(dev, CL_DEVICE_EXTENSIONS);
    cl_name_version list[64];
    size_t size;
    assert_int_equal(
        clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof list, list, &size),
        CL_SUCCESS);
    size_t count = size / sizeof *list;
    for (size_t k = 0; k < count; k++)
        assert_true(lanes_test_has_word(ext, list[k].name));
    assert_true(lanes_test_has_word(ext, "cl_khr_device_uuid"));
    assert_true(lanes_test_has_word(ext, "cl_khr_extended_versioning"));

    cl_name_version versions[8];
    assert_int_equal(
        clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof versions, versions, &size),
        CL_SUCCESS);
    int has12 = 0;
    for (size_t k = 0; k < size / sizeof *versions; k++) {
        assert_string_equal(versions[k].name, "OpenCL C");
        has12 |= versions[k].version == CL_MAKE_VERSION(1, 2, 0);
    }
    assert_true(has12);

    /*
     * OpenCL C 3.0 features: only those with a kernel test: int64
     * (tests/api/test_ndrange.c), the atomics orders and scopes
     * (kernels-tests/test_atomics.c, which uses each of them), program-scope
     * variables (kernels-tests/test_globals.c), work-group collectives
     * (kernels-tests/test_collectives.c), the generic address space
     * (kernels-tests/test_generic.c), sub-groups (kernels-tests/test_subgroups.c),
     * images, read_write images and 3D image writes (kernels-tests/test_images.c),
     * byte dot products (kernels-tests/test_dot_product.c), half precision
     * (kernels-tests/test_half.c; off with LANES_FP16=0).
     */
    cl_name_version features[24];
    assert_int_equal(
        clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, sizeof features, features, &size),
        CL_SUCCESS);
    static const char *tested[] = {"__opencl_c_int64",
                                   "__opencl_c_atomic_order_acq_rel",
                                   "__opencl_c_atomic_order_seq_cst",
                                   "__opencl_c_atomic_scope_device",
                                   "__opencl_c_atomic_scope_all_devices",
                                   "__opencl_c_program_scope_global_variables",
                                   "__opencl_c_work_group_collective_functions",
                                   "__opencl_c_fp64",
                                   "__opencl_c_generic_address_space",
                                   "__opencl_c_subgroups",
                                   "__opencl_c_images",
                                   "__opencl_c_read_write_images",
                                   "__opencl_c_3d_image_writes",
                                   "__opencl_c_integer_dot_product_input_4x8bit",
                                   "__opencl_c_integer_dot_product_input_4x8bit_packed",
                                   "__opencl_c_fp16"};
    for (size_t k = 0; k < size / sizeof *features; k++) {
        int known = 0;
        for (size_t t = 0; t < sizeof tested / sizeof *tested; t++)
            known |= strcmp(features[k].name, tested[t]) == 0;
        if (!known)
            fail_msg("feature %s is listed but not tested", features[k].name);
    }
    /* Each atomics feature comes with its capability bit, for atomics and fences alike. */
    static const struct {
        const char *feature;
        cl_device_atomic_capabilities bit;
    } atomic_caps[] = {
        {"__opencl_c_atomic_order_acq_rel", CL_DEVICE_ATOMIC_ORDER_ACQ_REL},
        {"__opencl_c_atomic_order_seq_cst", CL_DEVICE_ATOMIC_ORDER_SEQ_CST},
        {"__opencl_c_atomic_scope_device", CL_DEVICE_ATOMIC_SCOPE_DEVICE},
        {"__opencl_c_atomic_scope_all_devices", CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES},
    };
    /* The collectives' query says the same as the feature list. */
    int collectives = 0;
    for (size_t k = 0; k < size / sizeof *features; k++)
        collectives |= strcmp(features[k].name, "__opencl_c_work_group_collective_functions") == 0;
    cl_bool collectives_support;
    GET(dev, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, collectives_support);
    assert_int_equal(collectives_support, collectives ? CL_TRUE : CL_FALSE);
    /* The generic address space's query says the same as the feature list. */
    int generic = 0;
    for (size_t k = 0; k < size / sizeof *features; k++)
        generic |= strcmp(features[k].name, "__opencl_c_generic_address_space") == 0;
    cl_bool generic_support;
    GET(dev, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, generic_support);
    assert_int_equal(generic_support, generic ? CL_TRUE : CL_FALSE);
    /* Program-scope variables: a size of at least 64 KiB exactly when the feature is listed. */
    int progvars = 0;
    for (size_t k = 0; k < size / sizeof *features; k++)
        progvars |= strcmp(features[k].name, "__opencl_c_program_scope_global_variables") == 0;
    size_t max_var, preferred_vars;
    GET(dev, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, max_var);
    GET(dev, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, preferred_vars);
    if (progvars) {
        assert_true(max_var >= 65536);
        assert_true(preferred_vars >= max_var);
    } else {
        assert_int_equal(max_var, 0);
        assert_int_equal(preferred_vars, 0);
    }
    cl_device_atomic_capabilities memory_caps, fence_caps;
    GET(dev, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, memory_caps);
    GET(dev, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, fence_caps);
    for (size_t k = 0; k < size / sizeof *features; k++)
        for (size_t c = 0; c < sizeof atomic_caps / sizeof *atomic_caps; c++)
            if (strcmp(features[k].name, atomic_caps[c].feature) == 0) {
                assert_true(memory_caps & atomic_caps[c].bit);
                assert_true(fence_caps & atomic_caps[c].bit);
            }

    /* Sub-groups are advertised only together with the queries that describe them. */
    cl_uint max_sg;
    GET(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, max_sg);
    size_t sg_sizes[8];
    cl_int err =
        clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sg_sizes, sg_sizes, &size);
    if (lanes_test_has_word(ext, "cl_intel_required_subgroup_size")) {
        assert_int_equal(err, CL_SUCCESS);
        assert_true(max_sg > 0);
    } else {
        assert_int_equal(err, CL_INVALID_VALUE);
    }
    /*
     * Sub-groups as OpenCL 3.0's optional feature and as cl_khr_subgroups,
     * whose sub-groups make independent forward progress
     * (tests/api/test_forward_progress.c).
     */
    assert_true(lanes_test_has_word(ext, "cl_khr_subgroups"));
    size_t max_wg;
    GET(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, max_wg);
    assert_true(max_sg >= 1 && max_sg <= max_wg);
    cl_bool ifp;
    GET(dev, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, ifp);
    assert_true(ifp);
    /* Images, with the extensions that come with them (tests/api/test_image.c). */
    cl_bool images;
    GET(dev, CL_DEVICE_IMAGE_SUPPORT, images);
    assert_true(images);
    assert_true(lanes_test_has_word(ext, "cl_khr_image2d_from_buffer"));
    assert_true(lanes_test_has_word(ext, "cl_khr_depth_images"));
    assert_true(lanes_test_has_word(ext, "cl_khr_3d_image_writes"));
    free(ext);
}

/* True when /proc/cpuinfo lists `flag` among the first CPU's flags. */
static bool cpu_has_flag(const char *flag)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    bool found = false;
    while (f && !found && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0) {
            found = lanes_test_has_word(strchr(line, ':') ? strchr(line, ':') + 1 : line, flag);
            break;
        }
    if (f)
        fclose(f);
    return found;
}

/* Version of `name` in the list, or 0 when it is not there. */
static cl_version version_in(const cl_name_version *list, size_t count, const char *name)
{
    for (size_t k = 0; k < count; k++)
        if (strcmp(list[k].name, name) == 0)
            return list[k].version;
    return 0;
}

/*
 * cl_khr_integer_dot_product 2.0 (kernels-tests/test_dot_product.c): both
 * input forms, their features, and acceleration exactly where the host has
 * VNNI (AVX-512 VNNI with VL, or AVX-VNNI); cl_khr_extended_bit_ops
 * (kernels-tests/test_bit_ops.c).
 */
static void integer_dot_product(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    char *ext = lanes_test_device_string(dev, CL_DEVICE_EXTENSIONS);
    assert_true(lanes_test_has_word(ext, "cl_khr_integer_dot_product"));
    assert_true(lanes_test_has_word(ext, "cl_khr_extended_bit_ops"));
    free(ext);
    cl_name_version list[64];
    size_t size;
    assert_int_equal(
        clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, sizeof list, list, &size),
        CL_SUCCESS);
    size_t count = size / sizeof *list;
    assert_int_equal(version_in(list, count, "cl_khr_integer_dot_product"),
                     CL_MAKE_VERSION(2, 0, 0));
    assert_int_equal(version_in(list, count, "cl_khr_extended_bit_ops"), CL_MAKE_VERSION(1, 0, 0));
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, sizeof list, list, &size),
                     CL_SUCCESS);
    count = size / sizeof *list;
    assert_true(version_in(list, count, "__opencl_c_integer_dot_product_input_4x8bit") != 0);
    assert_true(version_in(list, count, "__opencl_c_integer_dot_product_input_4x8bit_packed") != 0);

    cl_device_integer_dot_product_capabilities_khr caps;
    GET(dev, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, caps);
    assert_int_equal(caps, CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                               CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR);
    const char *vnni_env = getenv("LANES_VNNI");
    bool vnni =
        !(vnni_env && strcmp(vnni_env, "0") == 0) &&
        ((cpu_has_flag("avx512_vnni") && cpu_has_flag("avx512vl")) || cpu_has_flag("avx_vnni"));
    const cl_device_info accel[] = {
        CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
        CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR};
    for (size_t k = 0; k < 2; k++) {
        cl_device_integer_dot_product_acceleration_properties_khr p;
        GET(dev, accel[k], p);
        assert_int_equal(p.signed_accelerated, vnni);
        assert_int_equal(p.unsigned_accelerated, vnni);
        assert_int_equal(p.mixed_signedness_accelerated, vnni);
        assert_int_equal(p.accumulating_saturating_signed_accelerated, vnni);
        assert_int_equal(p.accumulating_saturating_unsigned_accelerated, vnni);
        assert_int_equal(p.accumulating_saturating_mixed_signedness_accelerated, vnni);
    }
}

static void uuids_are_stable(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_uchar a[CL_UUID_SIZE_KHR], b[CL_UUID_SIZE_KHR], drv[CL_UUID_SIZE_KHR];
    GET(dev, CL_DEVICE_UUID_KHR, a);
    GET(dev, CL_DEVICE_UUID_KHR, b);
    GET(dev, CL_DRIVER_UUID_KHR, drv);
    assert_memory_equal(a, b, sizeof a);
    assert_memory_not_equal(a, drv, sizeof a);
    cl_bool luid_valid;
    GET(dev, CL_DEVICE_LUID_VALID_KHR, luid_valid);
    assert_false(luid_valid);
}

static void device_ids_by_type(void **state)
{
    (void)state;
    cl_platform_id p = lanes_test_platform();
    cl_device_id dev;
    cl_uint n;
    const cl_device_type found[] = {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_DEFAULT, CL_DEVICE_TYPE_ALL,
                                    CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU};
    for (size_t k = 0; k < sizeof found / sizeof *found; k++) {
        n = 0;
        assert_int_equal(clGetDeviceIDs(p, found[k], 1, &dev, &n), CL_SUCCESS);
        assert_int_equal(n, 1);
    }
    assert_int_equal(clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &dev, &n), CL_DEVICE_NOT_FOUND);
    assert_int_equal(clGetDeviceIDs(p, CL_DEVICE_TYPE_ACCELERATOR, 1, &dev, &n),
                     CL_DEVICE_NOT_FOUND);
    assert_int_equal(clGetDeviceIDs(p, CL_DEVICE_TYPE_CUSTOM, 1, &dev, &n), CL_DEVICE_NOT_FOUND);
    assert_int_equal(clGetDeviceIDs(p, (cl_device_type)1 << 40, 1, &dev, &n),
                     CL_INVALID_DEVICE_TYPE);
    assert_int_equal(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 0, &dev, &n), CL_INVALID_VALUE);
    assert_int_equal(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, NULL, NULL), CL_INVALID_VALUE);
}

static void query_errors(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_uint v;
    size_t size = 0;
    assert_int_equal(clGetDeviceInfo(dev, 0x7fff, sizeof v, &v, &size), CL_INVALID_VALUE);
    char small[2];
    assert_int_equal(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof small, small, &size),
                     CL_INVALID_VALUE);
    assert_true(size > sizeof small);
    /* Retain and release of the root device are accepted and change nothing. */
    assert_int_equal(clRetainDevice(dev), CL_SUCCESS);
    assert_int_equal(clReleaseDevice(dev), CL_SUCCESS);
    cl_uint refs;
    GET(dev, CL_DEVICE_REFERENCE_COUNT, refs);
    assert_int_equal(refs, 1);
    /* An affinity domain that is not one: CL_INVALID_VALUE (test_affinity.c covers the rest). */
    const cl_device_partition_property affinity[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                     (cl_device_partition_property)1 << 20, 0};
    cl_device_id sub[4];
    assert_int_equal(clCreateSubDevices(dev, affinity, 4, sub, NULL), CL_INVALID_VALUE);
}

static void timers(void **state)
{
    (void)state;
    cl_device_id dev = lanes_test_device();
    cl_ulong d0, h0, h1, d1;
    assert_int_equal(clGetDeviceAndHostTimer(dev, &d0, &h0), CL_SUCCESS);
    assert_int_equal(clGetHostTimer(dev, &h1), CL_SUCCESS);
    assert_int_equal(clGetDeviceAndHostTimer(dev, &d1, &h1), CL_SUCCESS);
    assert_true(h1 >= h0 && d1 >= d0);
    assert_int_equal(clGetHostTimer(dev, NULL), CL_INVALID_VALUE);
    assert_int_equal(clGetDeviceAndHostTimer(dev, NULL, &h0), CL_INVALID_VALUE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_query_answers), cmocka_unit_test(cpu_device_facts),
        cmocka_unit_test(vector_widths),       cmocka_unit_test(capability_lists),
        cmocka_unit_test(uuids_are_stable),    cmocka_unit_test(device_ids_by_type),
        cmocka_unit_test(query_errors),        cmocka_unit_test(timers),
        cmocka_unit_test(integer_dot_product),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
