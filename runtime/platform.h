/* SPDX-License-Identifier: MIT */
/* The platform and its CPU device: what they are and what they offer. */
#ifndef LANES_RUNTIME_PLATFORM_H
#define LANES_RUNTIME_PLATFORM_H

#include "exec/exec.h"
#include "object.h"

#include <CL/cl_ext.h>

/* A list of named, versioned capabilities (extensions, OpenCL C features). */
struct lanes_name_list {
    const cl_name_version *items;
    size_t count;
    const char *joined; /* the names separated by spaces */
};

struct _cl_platform_id {
    struct lanes_object obj;
    cl_device_id device; /* the one root device */
    struct lanes_name_list extensions;
};
LANES_OBJECT_FIRST(struct _cl_platform_id);

/* Indices of the per-type vector widths, in CL_DEVICE_*_VECTOR_WIDTH_* order. */
enum lanes_scalar {
    LANES_CHAR,
    LANES_SHORT,
    LANES_INT,
    LANES_LONG,
    LANES_FLOAT,
    LANES_DOUBLE,
    LANES_HALF,
    LANES_NUM_SCALARS
};

struct _cl_device_id {
    struct lanes_object obj;
    cl_platform_id platform;
    cl_device_id parent; /* NULL for the root device; retained by a sub-device */
    /* How a sub-device was made: the properties as given, with their 0; none for the root. */
    cl_device_partition_property *partition_type; /* owned by a sub-device; NULL for the root */
    size_t partition_type_len;
    char name[160];
    cl_uint compute_units;
    /*
     * The workers of its compute units: all of them for the root device. A
     * sub-device made by affinity domain owns exactly the workers pinned to
     * its domain's CPUs (`pinned`) and its commands run only there
     * (`restricted`, inherited by sub-devices made from it by count).
     */
    struct lanes_worker_set workers;
    bool pinned;
    bool restricted;
    /* The affinity domain (enum lanes_domain) a sub-device was made by; -1 otherwise. */
    int domain;
    cl_ulong global_mem_size;
    cl_ulong max_alloc_size;
    cl_ulong local_mem_size;
    cl_ulong constant_buffer_size;
    /*
     * Images (api_image.c, builtins/image/): on unless LANES_IMAGES turns
     * them off. Limits in texels, from the machine's memory.
     */
    bool images;
    size_t image2d_max, image3d_max, image_max_buffer, image_max_array;
    cl_uint preferred_width[LANES_NUM_SCALARS];
    cl_uint native_width[LANES_NUM_SCALARS];
    cl_device_fp_config single_fp_config;
    cl_device_fp_config double_fp_config;
    /* 0 without half precision: no F16C, or LANES_FP16=0 (device.c). */
    cl_device_fp_config half_fp_config;
    /* Which byte dot products the host's VNNI makes faster (cl_khr_integer_dot_product). */
    cl_device_integer_dot_product_acceleration_properties_khr dot_product_accel;
    /* Sub-group widths the compiler offers; none until the vectorizer runs. */
    size_t sub_group_sizes[3];
    cl_uint num_sub_group_sizes;
    cl_uchar uuid[CL_UUID_SIZE_KHR];
    cl_uchar driver_uuid[CL_UUID_SIZE_KHR];
    struct lanes_name_list extensions;
    struct lanes_name_list opencl_c_versions;
    struct lanes_name_list opencl_c_features;
};
LANES_OBJECT_FIRST(struct _cl_device_id);

/* The OpenCL version of the platform and device (CL_DEVICE_NUMERIC_VERSION, __OPENCL_VERSION__). */
#define LANES_OPENCL_VERSION CL_MAKE_VERSION(3, 0, 0)

/* Work-group limits of the device: any local size up to these runs. */
#define LANES_MAX_WORK_GROUP_SIZE 4096
#define LANES_PRINTF_BUFFER_SIZE (1u << 20)
#define LANES_MAX_PARAMETER_SIZE 4096

/* Builds a list and its space-separated form (kept for the process's life). */
struct lanes_name_list lanes_name_list_make(const cl_name_version *items, size_t count);

/* The platform singleton, built on first use from the machine's facts. */
cl_platform_id lanes_platform(void);

/* True when `p` is this driver's platform (NULL selects it as well). */
bool lanes_platform_valid(cl_platform_id p);

/* True when `d` is a device of this driver. */
bool lanes_device_valid(cl_device_id d);

/* True when `type` is a valid cl_device_type request (api_device.c). */
bool lanes_device_type_valid(cl_device_type type);

/* True when a device of CL_DEVICE_TYPE_CPU answers a request for `type`. */
bool lanes_device_type_matches(cl_device_type type);

/*
 * A sub-device of `parent` with `compute_units` of its workers, made by the
 * partition `props` (`len` entries with the final 0); NULL when out of memory.
 * With `workers` (an affinity domain), exactly those workers.
 */
cl_device_id lanes_device_create_sub(cl_device_id parent, cl_uint compute_units,
                                     const struct lanes_worker_set *workers,
                                     const cl_device_partition_property *props, size_t len);

/* Drops a reference to a device; the last one of a sub-device frees it. */
void lanes_device_release(cl_device_id d);

/* Fills the root device description from the host and machine facts. */
void lanes_device_init_root(cl_device_id dev, cl_platform_id platform);

/* The host clock every timestamp uses (CLOCK_MONOTONIC), in nanoseconds. */
cl_ulong lanes_now_ns(void);

#endif
