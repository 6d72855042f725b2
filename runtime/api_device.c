/* SPDX-License-Identifier: MIT */
/* Device entries: IDs, every clGetDeviceInfo query, sub-devices, timers. */
#include "../compiler/program.h"
#include "../compiler/frontend/spirv.h"
#include "../compiler/width.h"
#include "check.h"
#include "info.h"
#include "machine.h"
#include "platform.h"
#include "svm.h"

#include <CL/cl_ext.h>

/* Every type bit OpenCL 3.0 defines; anything else is CL_INVALID_DEVICE_TYPE. */
#define KNOWN_DEVICE_TYPES                                                                         \
    (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |                            \
     CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM)

bool lanes_device_type_matches(cl_device_type type)
{
    return type == CL_DEVICE_TYPE_ALL ||
           (type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT)) != 0;
}

bool lanes_device_type_valid(cl_device_type type)
{
    return type == CL_DEVICE_TYPE_ALL || (type != 0 && (type & ~KNOWN_DEVICE_TYPES) == 0);
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                               cl_uint num_entries, cl_device_id *devices,
                                               cl_uint *num_devices)
{
    LANES_CHECK(lanes_platform_valid(platform), CL_INVALID_PLATFORM, "not a Lanes platform");
    LANES_CHECK(lanes_device_type_valid(device_type), CL_INVALID_DEVICE_TYPE,
                "unknown device_type bits");
    LANES_CHECK(!(devices && num_entries == 0), CL_INVALID_VALUE,
                "num_entries is 0 but devices is not NULL");
    LANES_CHECK(devices || num_devices, CL_INVALID_VALUE, "devices and num_devices are both NULL");
    LANES_CHECK(lanes_device_type_matches(device_type), CL_DEVICE_NOT_FOUND,
                "Lanes has one device, of type CL_DEVICE_TYPE_CPU");
    if (devices)
        devices[0] = lanes_platform()->device;
    if (num_devices)
        *num_devices = 1;
    return CL_SUCCESS;
}

/* OpenCL's name of each affinity domain, in enum lanes_domain order. */
static const cl_device_affinity_domain domain_bits[LANES_NUM_DOMAINS] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

/*
 * The affinity domains the CPUs of `d` are known to belong to, and
 * NEXT_PARTITIONABLE with them. Only a device whose compute units are known
 * cores (the root with workers pinnable one per CPU, or a sub-device made by
 * domain) has any: a share by count is any few workers, not a place. A
 * sub-device made by a domain offers only finer ones (NUMA, then L4 to L1),
 * so that partitioning the parts again ends.
 */
static cl_device_affinity_domain affinity_domains(cl_device_id d)
{
    const struct lanes_machine *m = lanes_machine();
    if (!d->pinned || d->compute_units < 2 || !lanes_exec_can_pin())
        return 0;
    cl_device_affinity_domain bits = 0;
    for (unsigned i = 0; i < m->cpus; i++)
        for (int k = d->domain + 1; k < LANES_NUM_DOMAINS; k++)
            if (lanes_worker_set_has(&d->workers, i) && m->cpu[i].domain[k] >= 0)
                bits |= domain_bits[k];
    return bits ? bits | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE : 0;
}

/* Answers the queries whose value is one cl_uint; false when not one of them. */
static bool uint_query(cl_device_id d, cl_device_info name, cl_uint *v)
{
    const struct lanes_machine *m = lanes_machine();
    switch (name) {
    case CL_DEVICE_VENDOR_ID: *v = m->pci_vendor; return true;
    case CL_DEVICE_MAX_COMPUTE_UNITS: *v = d->compute_units; return true;
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: *v = 3; return true;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: *v = d->preferred_width[LANES_CHAR]; return true;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT: *v = d->preferred_width[LANES_SHORT]; return true;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: *v = d->preferred_width[LANES_INT]; return true;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG: *v = d->preferred_width[LANES_LONG]; return true;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: *v = d->preferred_width[LANES_FLOAT]; return true;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
        *v = d->preferred_width[LANES_DOUBLE];
        return true;
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: *v = d->preferred_width[LANES_HALF]; return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: *v = d->native_width[LANES_CHAR]; return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: *v = d->native_width[LANES_SHORT]; return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT: *v = d->native_width[LANES_INT]; return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: *v = d->native_width[LANES_LONG]; return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: *v = d->native_width[LANES_FLOAT]; return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: *v = d->native_width[LANES_DOUBLE]; return true;
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: *v = d->native_width[LANES_HALF]; return true;
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: *v = m->clock_mhz; return true;
    case CL_DEVICE_ADDRESS_BITS: *v = 64; return true;
    /*
     * Image limits are 0 when images are not supported (the specification's
     * "0 otherwise"); with them, the minimums of a full profile device.
     * Images from buffers: rows and base in whole texels (in pixels).
     */
    case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: *v = d->images ? 128 : 0; return true;
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: *v = d->images ? 64 : 0; return true;
    case CL_DEVICE_MAX_SAMPLERS: *v = d->images ? 16 : 0; return true;
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: *v = d->images ? 1 : 0; return true;
    /* Alignment of buffers, in bits: one cache line covers a long16. */
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: *v = 8 * 128; return true;
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: *v = 128; return true;
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: *v = m->last.line; return true;
    case CL_DEVICE_MAX_CONSTANT_ARGS: *v = 64; return true;
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
        *v = d->compute_units < 2 ? 0 : d->compute_units;
        return true;
    case CL_DEVICE_REFERENCE_COUNT: *v = d->parent ? lanes_object_refs(&d->obj) : 1; return true;
    /* No pipes, no on-device queues (optional in OpenCL 3.0). */
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: *v = 0; return true;
    /* 0: atomics want their natural alignment. */
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: *v = 0; return true;
    /* The most sub-groups of a work-group: the largest one at the narrowest width. */
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
        *v = (cl_uint)(LANES_MAX_WORK_GROUP_SIZE / lanes_min_width());
        return true;
    case CL_DEVICE_NODE_MASK_KHR: *v = 0; return true;
    }
    return false;
}

/* Answers the queries whose value is one cl_bool; false when not one of them. */
static bool bool_query(cl_device_id d, cl_device_info name, cl_bool *v)
{
    (void)d;
    switch (name) {
    case CL_DEVICE_ENDIAN_LITTLE:
    case CL_DEVICE_AVAILABLE:
    case CL_DEVICE_COMPILER_AVAILABLE: /* a full profile device must say so */
    case CL_DEVICE_LINKER_AVAILABLE:
    case CL_DEVICE_HOST_UNIFIED_MEMORY:
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    /* The launcher runs a smaller last work-group (OpenCL C 2.0+ programs). */
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    /* __opencl_c_work_group_collective_functions (builtins/workgroup/). */
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    /* __opencl_c_generic_address_space (compiler/generic.c). */
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    /* cl_khr_subgroups: sub-groups yield in their loops of atomics (compiler/yield.c). */
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: *v = CL_TRUE; return true;
    case CL_DEVICE_IMAGE_SUPPORT: *v = d->images ? CL_TRUE : CL_FALSE; return true;
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    case CL_DEVICE_PIPE_SUPPORT:
    case CL_DEVICE_LUID_VALID_KHR: *v = CL_FALSE; return true;
    }
    return false;
}

/* Answers the queries whose value is one size_t or cl_ulong. */
static cl_int size_query(cl_device_id d, cl_device_info name, struct lanes_info_out out,
                         bool *handled)
{
    const struct lanes_machine *m = lanes_machine();
    *handled = true;
    switch (name) {
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return LANES_INFO(out, size_t, LANES_MAX_WORK_GROUP_SIZE);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return LANES_INFO(out, cl_ulong, d->max_alloc_size);
    case CL_DEVICE_GLOBAL_MEM_SIZE: return LANES_INFO(out, cl_ulong, d->global_mem_size);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return LANES_INFO(out, cl_ulong, m->last.size);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
        return LANES_INFO(out, cl_ulong, d->constant_buffer_size);
    case CL_DEVICE_LOCAL_MEM_SIZE: return LANES_INFO(out, cl_ulong, d->local_mem_size);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return LANES_INFO(out, size_t, LANES_MAX_PARAMETER_SIZE);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return LANES_INFO(out, size_t, 1);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return LANES_INFO(out, size_t, LANES_PRINTF_BUFFER_SIZE);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
        return LANES_INFO(out, size_t, d->images ? d->image2d_max : 0);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH:
        return LANES_INFO(out, size_t, d->images ? d->image3d_max : 0);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
        return LANES_INFO(out, size_t, d->images ? d->image_max_buffer : 0);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
        return LANES_INFO(out, size_t, d->images ? d->image_max_array : 0);
    /*
     * Program-scope variables (__opencl_c_program_scope_global_variables) live
     * in ordinary host memory, a block per program: no storage is faster than
     * another, so the preferred total is the limit of one variable, which the
     * compiler enforces (compiler/program.h).
     */
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
        return LANES_INFO(out, size_t, LANES_MAX_GLOBAL_VARIABLE_SIZE);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        return LANES_INFO(out, size_t, lanes_preferred_width());
    }
    *handled = false;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                                size_t param_value_size, void *param_value,
                                                size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_device_valid(device), CL_INVALID_DEVICE, "not a Lanes device");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    cl_device_id d = device;

    cl_uint u;
    if (uint_query(d, param_name, &u))
        return LANES_INFO(out, cl_uint, u);
    cl_bool b;
    if (bool_query(d, param_name, &b))
        return LANES_INFO(out, cl_bool, b);
    bool handled;
    cl_int err = size_query(d, param_name, out, &handled);
    if (handled)
        return err;

    switch (param_name) {
    case CL_DEVICE_TYPE: return LANES_INFO(out, cl_device_type, CL_DEVICE_TYPE_CPU);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
        const size_t sizes[3] = {LANES_MAX_WORK_GROUP_SIZE, LANES_MAX_WORK_GROUP_SIZE,
                                 LANES_MAX_WORK_GROUP_SIZE};
        return lanes_info(out, sizes, sizeof sizes);
    }
    case CL_DEVICE_SINGLE_FP_CONFIG:
        return LANES_INFO(out, cl_device_fp_config, d->single_fp_config);
    case CL_DEVICE_DOUBLE_FP_CONFIG:
        return LANES_INFO(out, cl_device_fp_config, d->double_fp_config);
    case CL_DEVICE_HALF_FP_CONFIG: return LANES_INFO(out, cl_device_fp_config, d->half_fp_config);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
        return LANES_INFO(out, cl_device_mem_cache_type, CL_READ_WRITE_CACHE);
    /* Local memory is ordinary memory on a CPU. */
    case CL_DEVICE_LOCAL_MEM_TYPE: return LANES_INFO(out, cl_device_local_mem_type, CL_GLOBAL);
    /* Native kernels run on the worker threads (api_queue.c). */
    case CL_DEVICE_EXECUTION_CAPABILITIES:
        return LANES_INFO(out, cl_device_exec_capabilities, CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL);
    /* Out-of-order queues run independent commands on several workers at once. */
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
        return LANES_INFO(out, cl_command_queue_properties,
                          CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
        return LANES_INFO(out, cl_command_queue_properties, 0);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
        return LANES_INFO(out, cl_device_device_enqueue_capabilities, 0);
    /* SVM is host memory (runtime/svm.h; tests/api/test_svm.c proves each kind). */
    case CL_DEVICE_SVM_CAPABILITIES:
        return LANES_INFO(out, cl_device_svm_capabilities, LANES_SVM_CAPABILITIES);
    /*
     * Every order and scope (builtins/atomics: LLVM atomics on one coherent
     * memory), as the __opencl_c_atomic_* features say; work-item scope is
     * for fences only.
     */
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
        return LANES_INFO(out, cl_device_atomic_capabilities,
                          CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                              CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                              CL_DEVICE_ATOMIC_SCOPE_DEVICE | CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
        return LANES_INFO(out, cl_device_atomic_capabilities,
                          CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                              CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
                              CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
                              CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
    case CL_DEVICE_PLATFORM: return LANES_INFO(out, cl_platform_id, d->platform);
    case CL_DEVICE_PARENT_DEVICE: return LANES_INFO(out, cl_device_id, d->parent);
    case CL_DEVICE_PARTITION_PROPERTIES: {
        /* A device of one compute unit cannot be split into two: no scheme. */
        static const cl_device_partition_property schemes[] = {
            CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS,
            CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN};
        if (d->compute_units < 2)
            return LANES_INFO(out, cl_device_partition_property, 0);
        return lanes_info(out, schemes,
                          sizeof schemes - (affinity_domains(d) ? 0 : sizeof *schemes));
    }
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
        return LANES_INFO(out, cl_device_affinity_domain, affinity_domains(d));
    case CL_DEVICE_PARTITION_TYPE: /* empty for the root device, which was not partitioned */
        return lanes_info(out, d->partition_type,
                          d->partition_type_len * sizeof(cl_device_partition_property));
    case CL_DEVICE_NAME: return lanes_info_string(out, d->name);
    case CL_DEVICE_VENDOR: return lanes_info_string(out, lanes_machine()->cpu_vendor);
    case CL_DRIVER_VERSION: return lanes_info_string(out, LANES_VERSION_STRING);
    case CL_DEVICE_PROFILE: return lanes_info_string(out, "FULL_PROFILE");
    case CL_DEVICE_VERSION: return lanes_info_string(out, "OpenCL 3.0 Lanes " LANES_VERSION_STRING);
    case CL_DEVICE_NUMERIC_VERSION: return LANES_INFO(out, cl_version, LANES_OPENCL_VERSION);
    /* OpenCL C 1.2 until every optional feature of 3.0 is supported. */
    case CL_DEVICE_OPENCL_C_VERSION: return lanes_info_string(out, "OpenCL C 1.2 Lanes");
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR:
        return LANES_INFO(out, cl_version, CL_MAKE_VERSION(1, 2, 0));
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
        return lanes_info(out, d->opencl_c_versions.items,
                          d->opencl_c_versions.count * sizeof(cl_name_version));
    case CL_DEVICE_OPENCL_C_FEATURES:
        return lanes_info(out, d->opencl_c_features.items,
                          d->opencl_c_features.count * sizeof(cl_name_version));
    case CL_DEVICE_EXTENSIONS: return lanes_info_string(out, d->extensions.joined);
    case CL_DEVICE_EXTENSIONS_WITH_VERSION:
        return lanes_info(out, d->extensions.items, d->extensions.count * sizeof(cl_name_version));
    case CL_DEVICE_BUILT_IN_KERNELS: return lanes_info_string(out, "");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return lanes_info(out, NULL, 0);
    /* SPIR-V only with the LANES_SPIRV=1 development switch, until its CTS passes (spirv.md). */
    case CL_DEVICE_IL_VERSION:
        return lanes_info_string(out, lanes_spirv_enabled()
                                          ? "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"
                                          : "");
    case CL_DEVICE_ILS_WITH_VERSION: {
        cl_name_version ils[5];
        for (cl_uint i = 0; i < 5; i++)
            ils[i] = (cl_name_version){CL_MAKE_VERSION(1, i, 0), "SPIR-V"};
        return lanes_info(out, ils, lanes_spirv_enabled() ? sizeof ils : 0);
    }
    /* No official conformance run has been passed: the earliest valid stamp. */
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
        return lanes_info_string(out, "v0000-01-01-00");
    case CL_DEVICE_UUID_KHR: return lanes_info(out, d->uuid, sizeof d->uuid);
    case CL_DRIVER_UUID_KHR: return lanes_info(out, d->driver_uuid, sizeof d->driver_uuid);
    case CL_DEVICE_LUID_KHR: { /* LUIDs are a Windows notion: never valid here */
        const cl_uchar luid[CL_LUID_SIZE_KHR] = {0};
        return lanes_info(out, luid, sizeof luid);
    }
    /* Both forms in every mix of signedness (builtins/integer/dot.cl). */
    case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
        return LANES_INFO(out, cl_device_integer_dot_product_capabilities_khr,
                          CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR |
                              CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR);
    /* One code for both: the uchar4/char4 form is the packed one on as_uint. */
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
    case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR:
        return lanes_info(out, &d->dot_product_accel, sizeof d->dot_product_accel);
    case CL_DEVICE_SUB_GROUP_SIZES_INTEL:
        return lanes_info(out, d->sub_group_sizes, d->num_sub_group_sizes * sizeof(size_t));
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

/* The root device is not reference counted (OpenCL 1.2, 5.1). */
/* The root device is not reference counted (OpenCL 1.2, 5.1); sub-devices are. */
CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device)
{
    LANES_CHECK(lanes_device_valid(device), CL_INVALID_DEVICE, "not a Lanes device");
    if (device->parent)
        lanes_object_retain(&device->obj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device)
{
    LANES_CHECK(lanes_device_valid(device), CL_INVALID_DEVICE, "not a Lanes device");
    lanes_device_release(device);
    return CL_SUCCESS;
}

/*
 * Groups the workers of `d` by their CPU's id in `domain`: group[i] is the
 * sub-device of worker i (-1 when not d's), in order of first appearance.
 * Returns the number of groups, 0 when some CPU's domain is unknown.
 */
static size_t domain_groups(cl_device_id d, int domain, int *group)
{
    const struct lanes_machine *m = lanes_machine();
    size_t n = 0;
    for (unsigned i = 0; i < m->cpus; i++) {
        group[i] = -1;
        if (!lanes_worker_set_has(&d->workers, i))
            continue;
        if (m->cpu[i].domain[domain] < 0)
            return 0;
        for (unsigned j = 0; j < i && group[i] < 0; j++)
            if (group[j] >= 0 && m->cpu[j].domain[domain] == m->cpu[i].domain[domain])
                group[i] = group[j];
        if (group[i] < 0)
            group[i] = (int)n++;
    }
    return n;
}

/* A partition to be made: the compute units of each sub-device, and its workers by domain. */
struct partition {
    size_t n;
    cl_uint units[LANES_EXEC_MAX_WORKERS];
    bool by_domain;
    int domain;                        /* enum lanes_domain, by domain */
    int group[LANES_EXEC_MAX_WORKERS]; /* worker -> sub-device, by domain */
    cl_device_partition_property type[LANES_EXEC_MAX_WORKERS + 3];
    size_t len; /* entries of `type` (CL_DEVICE_PARTITION_TYPE), final 0 included */
};

/*
 * CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN: one sub-device per domain among
 * d's CPUs; a single one when all of them share it (the CTS's
 * buffer_migrate expects every listed domain to partition).
 * NEXT_PARTITIONABLE takes the first domain that does split d.
 */
static cl_int partition_by_domain(cl_device_id d, cl_device_partition_property want,
                                  struct partition *p)
{
    cl_device_affinity_domain offered = affinity_domains(d);
    if (want <= 0 || !(offered & (cl_device_affinity_domain)want) || (want & (want - 1)) != 0)
        return CL_INVALID_VALUE;
    /* NEXT_PARTITIONABLE: the first domain, from NUMA down to L1, that splits d. */
    for (int k = 0; k < LANES_NUM_DOMAINS; k++) {
        if (want != CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE &&
            (cl_device_affinity_domain)want != domain_bits[k])
            continue;
        if (!(offered & domain_bits[k]))
            continue;
        p->n = domain_groups(d, k, p->group);
        if (p->n == 0 || (p->n < 2 && want == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE))
            continue;
        for (size_t g = 0; g < p->n; g++)
            p->units[g] = 0;
        for (unsigned i = 0; i < lanes_machine()->cpus; i++)
            if (p->group[i] >= 0)
                p->units[p->group[i]]++;
        p->by_domain = true;
        p->type[0] = CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN;
        p->type[1] = (cl_device_partition_property)domain_bits[k]; /* the one used */
        p->type[2] = 0;
        p->len = 3;
        p->domain = k;
        return CL_SUCCESS;
    }
    return CL_DEVICE_PARTITION_FAILED;
}

/*
 * The sub-devices the properties `props` ask for, in `p`. Returns
 * CL_SUCCESS, or the error when the scheme is not offered or the values are
 * wrong.
 */
static cl_int partition(cl_device_id d, const cl_device_partition_property *props,
                        struct partition *p)
{
    p->by_domain = false;
    if (props[0] == CL_DEVICE_PARTITION_EQUALLY) {
        if (props[1] <= 0)
            return CL_INVALID_VALUE;
        if ((cl_ulong)props[1] > d->compute_units)
            return CL_INVALID_DEVICE_PARTITION_COUNT;
        /* One sub-device as large as the device is no partition (the CTS agrees). */
        p->n = d->compute_units / (cl_uint)props[1];
        if (p->n < 2)
            return CL_DEVICE_PARTITION_FAILED;
        for (size_t i = 0; i < p->n; i++)
            p->units[i] = (cl_uint)props[1];
        p->type[0] = props[0], p->type[1] = props[1], p->type[2] = 0;
        p->len = 3;
        return CL_SUCCESS;
    }
    if (props[0] == CL_DEVICE_PARTITION_BY_COUNTS) {
        size_t n = 0;
        cl_ulong sum = 0;
        cl_int err = CL_SUCCESS;
        p->type[0] = props[0];
        /* Nothing past CL_DEVICE_PARTITION_BY_COUNTS_LIST_END is read. */
        for (; props[1 + n] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; n++) {
            /* Read as a cl_uint only once known to fit in one. */
            if (props[1 + n] < 0 || (cl_ulong)props[1 + n] > d->compute_units ||
                n + 1 > d->compute_units)
                return CL_INVALID_DEVICE_PARTITION_COUNT;
            p->units[n] = (cl_uint)props[1 + n];
            p->type[1 + n] = props[1 + n];
            sum += p->units[n];
            if (p->units[n] == 0)
                err = CL_INVALID_DEVICE_PARTITION_COUNT;
        }
        p->type[n + 1] = CL_DEVICE_PARTITION_BY_COUNTS_LIST_END;
        p->type[n + 2] = 0;
        p->len = n + 3;
        p->n = n;
        if (n == 0 || sum > d->compute_units)
            err = CL_INVALID_DEVICE_PARTITION_COUNT;
        return err;
    }
    if (props[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN)
        return partition_by_domain(d, props[1], p);
    return CL_INVALID_VALUE;
}

/*
 * Sub-devices share the parent's description but own a number of its
 * compute units: their kernel commands run on at most that many workers.
 */
CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                                   const cl_device_partition_property *properties,
                                                   cl_uint num_devices, cl_device_id *out_devices,
                                                   cl_uint *num_devices_ret)
{
    LANES_CHECK(lanes_device_valid(in_device), CL_INVALID_DEVICE, "not a Lanes device");
    LANES_CHECK(properties, CL_INVALID_VALUE, "properties is NULL");
    struct partition *p = malloc(sizeof *p);
    LANES_CHECK(p, CL_OUT_OF_HOST_MEMORY, "allocating a partition");
    cl_int err = partition(in_device, properties, p);
    if (err == CL_SUCCESS && p->by_domain && !lanes_exec_pin())
        err = CL_DEVICE_PARTITION_FAILED; /* workers that cannot be pinned are no domain */
    if (err == CL_SUCCESS && out_devices && num_devices < p->n)
        err = CL_INVALID_VALUE;
    for (size_t i = 0; err == CL_SUCCESS && out_devices && i < p->n; i++) {
        struct lanes_worker_set workers = {{0}};
        for (unsigned w = 0; p->by_domain && w < lanes_machine()->cpus; w++)
            if (p->group[w] == (int)i)
                lanes_worker_set_add(&workers, w);
        out_devices[i] = lanes_device_create_sub(in_device, p->units[i],
                                                 p->by_domain ? &workers : NULL, p->type, p->len);
        if (!out_devices[i]) {
            while (i--)
                lanes_device_release(out_devices[i]);
            err = CL_OUT_OF_HOST_MEMORY;
        } else if (p->by_domain) {
            out_devices[i]->domain = p->domain;
        }
    }
    size_t n = p->n;
    free(p);
    LANES_CHECK(err == CL_SUCCESS, err, "the partition cannot be made");
    if (num_devices_ret)
        *num_devices_ret = (cl_uint)n;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong *host_timestamp)
{
    LANES_CHECK(lanes_device_valid(device), CL_INVALID_DEVICE, "not a Lanes device");
    LANES_CHECK(host_timestamp, CL_INVALID_VALUE, "host_timestamp is NULL");
    *host_timestamp = lanes_now_ns();
    return CL_SUCCESS;
}

/* The device runs on the host's clock: both timestamps are one reading. */
CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device,
                                                        cl_ulong *device_timestamp,
                                                        cl_ulong *host_timestamp)
{
    LANES_CHECK(lanes_device_valid(device), CL_INVALID_DEVICE, "not a Lanes device");
    LANES_CHECK(device_timestamp && host_timestamp, CL_INVALID_VALUE,
                "a timestamp pointer is NULL");
    *device_timestamp = *host_timestamp = lanes_now_ns();
    return CL_SUCCESS;
}
