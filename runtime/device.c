/* SPDX-License-Identifier: MIT */
/*
 * The CPU device: its capabilities derived from the host ISA (through LLVM)
 * and the machine's facts. A capability is listed only once it works.
 */
#include "platform.h"

#include "../compiler/abi.h"
#include "../compiler/frontend/spirv.h"
#include "../compiler/host.h"
#include "../compiler/width.h"
#include "exec/exec.h"
#include "env.h"
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Extensions of the device, each listed only with a test proving it. The
 * platform's list (platform.c) adds the platform-only ones.
 */
static const cl_name_version device_extensions[] = {
    /* Core since OpenCL 1.1, but still to be listed (the CTS checks it). */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_byte_addressable_store"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_device_uuid"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_extended_versioning"},
    /* The 1.x atomics (builtins/atomics, kernels-tests/test_atomics.c). */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_extended_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_base_atomics"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_extended_atomics"},
    /* Double precision (builtins/math/math_double.cl, kernels-tests/test_math_double.c). */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp64"},
    /*
     * The Khronos sub-group extensions (builtins/subgroup/, the vectorizer's
     * forms in compiler/vectorize/vz_subgroup.c; kernels-tests/test_subgroup_ext.c,
     * CTS test_subgroups).
     */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_extended_types"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_vote"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_ballot"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_non_uniform_arithmetic"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_shuffle_relative"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_clustered_reduce"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroup_rotate"},
    /*
     * Intel's sub-group extensions (builtins/subgroup/intel.cl, declared by
     * compiler/frontend/lanes_extensions.h; kernels-tests/test_intel_subgroups.c).
     */
    /*
     * Versions as the registry gives them: 0.0.0 for an extension without
     * formal versioning (it counts revisions), _short 1.1.0 (16-value
     * block functions), local_block_io 1.0.1 (with them on __local).
     */
    {CL_MAKE_VERSION(0, 0, 0), "cl_intel_subgroups"},
    {CL_MAKE_VERSION(1, 1, 0), "cl_intel_subgroups_short"},
    {CL_MAKE_VERSION(0, 0, 0), "cl_intel_subgroups_char"},
    {CL_MAKE_VERSION(0, 0, 0), "cl_intel_subgroups_long"},
    {CL_MAKE_VERSION(1, 0, 1), "cl_intel_subgroup_local_block_io"},
    {CL_MAKE_VERSION(0, 0, 0), "cl_intel_required_subgroup_size"},
    {CL_MAKE_VERSION(0, 0, 0), "cl_intel_subgroup_buffer_prefetch"},
    /*
     * Byte dot products (builtins/integer/dot.cl, VNNI where the host has it:
     * compiler/vectorize/vz_dot.c; kernels-tests/test_dot_product.c, CTS
     * test_integer_ops integer_dot_product) and the extended bit operations
     * (builtins/integer/bit_ops.cl; kernels-tests/test_bit_ops.c, CTS
     * test_integer_ops extended_bit_ops_*).
     */
    {CL_MAKE_VERSION(2, 0, 0), "cl_khr_integer_dot_product"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_extended_bit_ops"},
    /*
     * cl_khr_subgroups: the sub-group functions, clGetKernelSubGroupInfoKHR
     * (runtime/api_kernel.c) and independent forward progress between the
     * sub-groups of a work-group, which run in turns on one worker: a
     * sub-group yields in its loops of atomic or volatile accesses
     * (compiler/yield.c; tests/api/test_forward_progress.c, CTS test_subgroups).
     */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroups"},
    /*
     * clGetKernelSuggestedLocalWorkSizeKHR (runtime/api_ndrange.c):
     * tests/api/test_ndrange.c, CTS test_api work_group_suggested_local_size_*.
     */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_suggested_local_work_size"},
    /*
     * Last, listed only when the device supports images (dev->images):
     * writes to 3D images from kernels (builtins/image/image.cl,
     * kernels-tests/test_images.c).
     */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_3d_image_writes"},
    /* Depth images (CL_DEPTH; image2d_depth_t, image2d_array_depth_t). */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_depth_images"},
    /* 2D images from buffers (runtime/api_image.c, tests/api/test_image.c). */
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_image2d_from_buffer"},
};

/* The extensions at the end of device_extensions that need images. */
#define IMAGE_EXTENSIONS 3

/* OpenCL C 1.0 to 1.2, which an OpenCL 3.0 device must accept, and 3.0. */
static const cl_name_version opencl_c_versions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
    {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
    {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"},
};

/*
 * The optional OpenCL C 3.0 features that work, each with its test; the
 * frontend defines exactly these macros. 64-bit integers are native on the
 * CPU (and required of a full profile device).
 */
static const cl_name_version opencl_c_features[] = {
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
    /* Atomics with every order and scope (kernels-tests/test_atomics.c). */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_acq_rel"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_seq_cst"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_device"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_all_devices"},
    /* One block per program object (compiler/globals.h, kernels-tests/test_globals.c). */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_program_scope_global_variables"},
    /* Work-group collectives (builtins/workgroup/, kernels-tests/test_collectives.c). */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_work_group_collective_functions"},
    /* Double precision, with cl_khr_fp64 above. */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"},
    /*
     * The generic address space: the library's generic overloads, to_global
     * and friends lowered by compiler/generic.c (kernels-tests/test_generic.c).
     */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_generic_address_space"},
    /*
     * Sub-groups, with independent forward progress as cl_khr_subgroups
     * (builtins/subgroup/, kernels-tests/test_subgroups.c, CTS test_subgroups).
     */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_subgroups"},
    /* Byte dot products, with cl_khr_integer_dot_product above. */
    {CL_MAKE_VERSION(2, 0, 0), "__opencl_c_integer_dot_product_input_4x8bit"},
    {CL_MAKE_VERSION(2, 0, 0), "__opencl_c_integer_dot_product_input_4x8bit_packed"},
    /*
     * Last, listed only when the device supports images: the image
     * built-ins, read_write images and 3D image writes
     * (builtins/image/image.cl, kernels-tests/test_images.c).
     */
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_images"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_read_write_images"},
    {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_3d_image_writes"},
};

/* The features at the end of opencl_c_features that need images. */
#define IMAGE_FEATURES 3

/*
 * Half precision (builtins/math/math_half.cl and the half overloads of the
 * other families; kernels-tests/test_half.c, the CTS's test_half and the
 * half cases of its other suites), on hosts with F16C unless LANES_FP16=0
 * turns it off. Computed in float, each operation rounded once to half
 * (compiler/width.c), also on AVX-512 FP16 hosts unless LANES_FP16_NATIVE=1.
 */
static const cl_name_version half_extension = {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp16"};
static const cl_name_version half_feature = {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp16"};

/*
 * SPIR-V programs through cl_khr_il_program's clCreateProgramWithILKHR
 * (runtime/api_program.c, tests/api/test_spirv.c), listed only when
 * LANES_SPIRV=1 turns SPIR-V on (compiler/frontend/spirv.h), as
 * CL_DEVICE_IL_VERSION.
 */
static const cl_name_version il_extension = {CL_MAKE_VERSION(1, 0, 0), "cl_khr_il_program"};

/*
 * The list of items[0, count), and those of extra[0, n) that are not NULL
 * after them (in a copy made once for the process).
 */
static struct lanes_name_list list_with(const cl_name_version *items, size_t count,
                                        const cl_name_version *const *extra, size_t n)
{
    size_t more = 0;
    for (size_t i = 0; i < n; i++)
        more += extra[i] != NULL;
    cl_name_version *all = more ? malloc((count + more) * sizeof *all) : NULL;
    if (!all)
        return lanes_name_list_make(items, count);
    memcpy(all, items, count * sizeof *all);
    for (size_t i = 0; i < n; i++)
        if (extra[i])
            all[count++] = *extra[i];
    return lanes_name_list_make(all, count);
}

/* 128 bits of FNV-1a over `text`: stable across processes and runs. */
static void hash_uuid(cl_uchar out[CL_UUID_SIZE_KHR], const char *text)
{
    uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        h[0] = (h[0] ^ *p) * 0x100000001b3ull;
        h[1] = (h[1] ^ *p ^ 0x5a) * 0x100000001b3ull;
    }
    memcpy(out, h, CL_UUID_SIZE_KHR);
    out[6] = (cl_uchar)((out[6] & 0x0f) | 0x50); /* RFC 4122 name-based layout */
    out[8] = (cl_uchar)((out[8] & 0x3f) | 0x80);
}

static void read_machine_id(char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen("/etc/machine-id", "r");
    if (!f)
        return;
    if (!fgets(out, (int)size, f))
        out[0] = '\0';
    fclose(f);
    out[strcspn(out, "\n")] = '\0';
}

/*
 * Native widths: how many elements of `bytes` fill one vector register;
 * half ones as many as the float vectors they are computed in, without
 * AVX-512 FP16, and none without half precision (the specification's 0).
 */
static void set_vector_widths(cl_device_id dev, unsigned vector_bytes, bool half)
{
    static const unsigned bytes[LANES_NUM_SCALARS] = {1, 2, 4, 8, 4, 8, 2};
    for (int t = 0; t < LANES_NUM_SCALARS; t++) {
        unsigned w = vector_bytes / bytes[t];
        if (w > 16)
            w = 16; /* the widest OpenCL C vector */
        dev->native_width[t] = dev->preferred_width[t] = w ? w : 1;
    }
    if (!half)
        dev->native_width[LANES_HALF] = dev->preferred_width[LANES_HALF] = 0;
    else if (lanes_half_arithmetic() == LANES_HALF_VIA_FLOAT)
        dev->native_width[LANES_HALF] = dev->preferred_width[LANES_HALF] =
            dev->native_width[LANES_FLOAT];
}

/* The largest power of two p with p^n <= x, for x >= 1. */
static size_t pow2_root(cl_ulong x, int n)
{
    size_t p = 1;
    for (;;) {
        cl_ulong q = 1;
        for (int i = 0; i < n; i++)
            q *= (cl_ulong)p * 2;
        if (q > x || p >= ((size_t)1 << 20))
            return p;
        p *= 2;
    }
}

/*
 * Image sizes the memory can hold: a square 2D image or a cubic 3D image
 * of the widest texels (16 bytes) fits in one allocation, a 1D image
 * buffer as many of those texels as an allocation holds; never below the
 * specification's minimums (16384, 2048, 65536 and 2048).
 */
static void set_image_limits(cl_device_id dev)
{
    cl_ulong texels = dev->max_alloc_size / 16;
    size_t side2 = pow2_root(texels, 2), side3 = pow2_root(texels, 3);
    dev->image2d_max = side2 < 16384 ? 16384 : side2 > 65536 ? 65536 : side2;
    dev->image3d_max = side3 < 2048 ? 2048 : side3 > 16384 ? 16384 : side3;
    dev->image_max_buffer = texels < 65536 ? 65536 : (size_t)texels;
    dev->image_max_array = 2048;
    dev->images = !getenv("LANES_IMAGES") || lanes_env_flag("LANES_IMAGES"); /* on by default */
}

void lanes_device_init_root(cl_device_id dev, cl_platform_id platform)
{
    const struct lanes_machine *m = lanes_machine();
    const struct lanes_host *h = lanes_host();

    lanes_object_init_static(&dev->obj, LANES_KIND_DEVICE);
    dev->platform = platform;
    dev->parent = NULL;
    snprintf(dev->name, sizeof dev->name, "%s", m->cpu_model);
    dev->compute_units = lanes_exec_num_workers(); /* one per worker thread */
    for (unsigned i = 0; i < dev->compute_units; i++)
        lanes_worker_set_add(&dev->workers, i);
    dev->pinned = lanes_exec_can_pin();
    dev->restricted = false;
    dev->domain = -1;

    /* Leave a quarter of the memory to the host; one allocation may take a quarter of the rest. */
    dev->global_mem_size = m->memory / 4 * 3;
    dev->max_alloc_size = dev->global_mem_size / 4;
    if (dev->max_alloc_size < (128u << 20))
        dev->max_alloc_size = 128u << 20;
    /*
     * Local memory is a per-thread slot meant to stay in the core's L2:
     * a quarter of it, between 64 KiB and 256 KiB, so that a work-group
     * using all of it leaves room in L2 for the global data it streams.
     * Measured (bench_local_mem): a local-memory-bound kernel runs at the
     * same speed with tiles from 16 KiB to 1 MiB, so a larger size would
     * only lengthen what sizes its work from this figure (the CTS async
     * copy tests took 39 minutes at 1 MiB).
     */
    dev->local_mem_size = m->l2.size / 4;
    if (dev->local_mem_size < (64u << 10))
        dev->local_mem_size = 64u << 10;
    if (dev->local_mem_size > LANES_MAX_LOCAL_MEM)
        dev->local_mem_size = LANES_MAX_LOCAL_MEM;
    dev->constant_buffer_size = 64u << 20;
    set_image_limits(dev);

    /* Half precision unless LANES_FP16=0 (docs/environment.md). */
    bool half = (!getenv("LANES_FP16") || lanes_env_flag("LANES_FP16")) && /* on by default */
                lanes_half_arithmetic() != LANES_HALF_NONE;
    set_vector_widths(dev, h->vector_bytes, half);
    dev->single_fp_config =
        CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | (h->fma ? CL_FP_FMA : 0);
    /* What OpenCL 3.0 requires of a device with double precision; the CPU has it all. */
    dev->double_fp_config = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                            CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
    /*
     * Half: denormals, infinities and NaNs, round to nearest even, in
     * hardware or through float; fma(half) is a true fused multiply-add
     * (builtins/math/math_half.cl: through double, correctly rounded).
     */
    dev->half_fp_config =
        half ? CL_FP_FMA | CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST : 0;
    dev->num_sub_group_sizes = lanes_sub_group_sizes(dev->sub_group_sizes);
    /*
     * With VNNI, vpdpbusd multiplies unsigned by signed bytes in one
     * instruction and vpdpbusds saturates the accumulation as the mixed
     * dot_acc_sat does; the signed and unsigned forms take two of them and a
     * correction (builtins/integer/dot.cl). bench/bench_dot measures each.
     */
    bool vnni = h->vnni != LANES_VNNI_NONE;
    dev->dot_product_accel = (cl_device_integer_dot_product_acceleration_properties_khr){
        .signed_accelerated = vnni,
        .unsigned_accelerated = vnni,
        .mixed_signedness_accelerated = vnni,
        .accumulating_saturating_signed_accelerated = vnni,
        .accumulating_saturating_unsigned_accelerated = vnni,
        .accumulating_saturating_mixed_signedness_accelerated = vnni,
    };

    char id[512], machine_id[64];
    read_machine_id(machine_id, sizeof machine_id);
    snprintf(id, sizeof id, "lanes-device:%s:%s:%s", m->cpu_vendor, m->cpu_model, machine_id);
    hash_uuid(dev->uuid, id);
    hash_uuid(dev->driver_uuid, "lanes-driver:" LANES_VERSION_STRING);

    size_t no_images = dev->images ? 0 : 1;
    const cl_name_version *extra_extensions[] = {half ? &half_extension : NULL,
                                                 lanes_spirv_enabled() ? &il_extension : NULL};
    dev->extensions = list_with(device_extensions,
                                sizeof device_extensions / sizeof *device_extensions -
                                    no_images * IMAGE_EXTENSIONS,
                                extra_extensions, 2);
    dev->opencl_c_versions = lanes_name_list_make(opencl_c_versions, sizeof opencl_c_versions /
                                                                         sizeof *opencl_c_versions);
    dev->opencl_c_features =
        list_with(opencl_c_features,
                  sizeof opencl_c_features / sizeof *opencl_c_features - no_images * IMAGE_FEATURES,
                  (const cl_name_version *const[]){half ? &half_feature : NULL}, 1);
}

cl_device_id lanes_device_create_sub(cl_device_id parent, cl_uint compute_units,
                                     const struct lanes_worker_set *workers,
                                     const cl_device_partition_property *props, size_t len)
{
    cl_device_id d = malloc(sizeof *d);
    cl_device_partition_property *type = malloc(len * sizeof *props);
    if (!d || !type) {
        free(d);
        free(type);
        return NULL;
    }
    /* Everything but the compute units is the parent's: one CPU, one ISA. */
    *d = *parent;
    if (!lanes_object_init(&d->obj, LANES_KIND_DEVICE)) {
        free(d);
        free(type);
        return NULL;
    }
    d->parent = parent;
    d->compute_units = compute_units;
    /* A share by count runs on any `compute_units` of the parent's workers. */
    d->pinned = workers != NULL;
    d->restricted = workers != NULL || parent->restricted;
    d->domain = -1; /* set by clCreateSubDevices for a partition by domain */
    if (workers)
        d->workers = *workers;
    d->partition_type = memcpy(type, props, len * sizeof *props);
    d->partition_type_len = len;
    if (parent->parent)
        lanes_object_retain(&parent->obj);
    return d;
}

void lanes_device_release(cl_device_id d)
{
    if (!d->parent || !lanes_object_release(&d->obj))
        return;
    cl_device_id parent = d->parent;
    free(d->partition_type);
    free(d);
    lanes_device_release(parent);
}

bool lanes_device_valid(cl_device_id d)
{
    /* The root device lives as long as the process and is not recorded. */
    return d && (d == lanes_platform()->device || lanes_object_is(d, LANES_KIND_DEVICE));
}
