/* SPDX-License-Identifier: MIT */
/*
 * The program module: what a built program holds, its bitcode and the
 * metadata of its kernels and variables. Types only, below every room
 * that reads or writes one (compiler/modules.h makes, reads and frees them).
 */
#ifndef LANES_COMPILER_MODULE_H
#define LANES_COMPILER_MODULE_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* How a kernel argument is passed. */
enum lanes_arg_kind {
    LANES_ARG_VALUE,   /* by value: `size` bytes copied */
    LANES_ARG_BUFFER,  /* __global or __constant pointer: a cl_mem, SVM pointer or NULL */
    LANES_ARG_LOCAL,   /* __local pointer: the size of the region is given */
    LANES_ARG_IMAGE,   /* image types */
    LANES_ARG_SAMPLER, /* sampler_t */
};

struct lanes_kernel_arg {
    enum lanes_arg_kind kind;
    size_t size;   /* bytes of a by-value argument; sizeof(void *) for the others */
    size_t offset; /* of its slot in the launcher's argument block (compiler/abi.h) */
    cl_kernel_arg_address_qualifier address;
    cl_kernel_arg_access_qualifier access;
    cl_kernel_arg_type_qualifier type_qualifier;
    char *type_name; /* as written, e.g. "float*" */
    char *name;
    cl_mem_object_type image_type; /* an image argument's, e.g. CL_MEM_OBJECT_IMAGE2D */
};

struct lanes_kernel_info {
    char *name;
    size_t num_args;
    struct lanes_kernel_arg *args;
    size_t args_size;               /* bytes of the argument block */
    size_t reqd_work_group_size[3]; /* zeros when not given */
    size_t work_group_size_hint[3];
    cl_uint reqd_sub_group_size; /* intel_reqd_sub_group_size, 0 when not given */
    cl_ulong local_mem_size;     /* bytes of __local variables declared in the kernel */
    char *attributes;            /* CL_KERNEL_ATTRIBUTES */
    bool uses_printf;            /* calls printf, directly or through its callees */
};

struct lanes_reaches;

struct lanes_program_module {
    void *bitcode;
    size_t bitcode_size;
    unsigned char bitcode_digest[32]; /* its SHA-256, which keys its launchers */
    struct lanes_kernel_info *kernels;
    size_t num_kernels;
    /*
     * The program-scope variables (compiler/globals.h): one block of
     * `globals_size` bytes aligned to `globals_align` per program object,
     * which the runtime fills with lanes_program_init_globals and passes to
     * every launch (lanes_wg.globals). 0 bytes: the program has none.
     */
    size_t globals_size;
    size_t globals_align;
    size_t global_variables_size; /* of the global address space's (the rest are constants) */
    /*
     * What each kernel reaches (compiler/reach.h), extracted from the
     * bitcode at its first compile and kept for the next; NULL until then.
     */
    _Atomic(struct lanes_reaches *) reaches;
};

/*
 * CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: the largest variable of the global
 * address space a program may define (a larger one fails the build).
 */
#define LANES_MAX_GLOBAL_VARIABLE_SIZE ((size_t)64 << 20)

#endif
