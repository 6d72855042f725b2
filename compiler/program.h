/* SPDX-License-Identifier: MIT */
/*
 * The program module: what a built program holds (bitcode plus the metadata
 * of its kernels), and building it from OpenCL C source. The runtime sees
 * only this interface, never IR.
 */
#ifndef LANES_COMPILER_PROGRAM_H
#define LANES_COMPILER_PROGRAM_H

#include "options.h"

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

/* Extensions and OpenCL C features the frontend defines macros for. */
struct lanes_language {
    const cl_name_version *extensions;
    size_t num_extensions;
    const cl_name_version *features;
    size_t num_features;
    cl_version opencl_version; /* the device's, as __OPENCL_VERSION__; 0 leaves it undefined */
};

/*
 * Compiles `source` with parsed `options` into a program module. Returns
 * NULL on failure; `*log` receives the diagnostics either way (malloc'd).
 */
struct lanes_program_module *lanes_program_build(const char *source, size_t size,
                                                 const struct lanes_options *options,
                                                 const struct lanes_language *language, char **log);

struct lanes_frontend_file;

/*
 * Compiles `source` with its in-memory `headers` (clCompileProgram's input
 * headers). `executable` says the module is a program of its own (its
 * variables are made internal) rather than an object to link.
 */
struct lanes_program_module *
lanes_program_compile(const char *source, size_t size, const struct lanes_frontend_file *headers,
                      size_t num_headers, const struct lanes_options *options,
                      const struct lanes_language *language, bool executable, char **log);

/*
 * Links compiled objects and libraries into one module (an executable unless
 * `executable` is false, for -create-library), applying the math options of
 * `options` (may be NULL) to every function an executable defines, except
 * those of a library made without -enable-link-options. NULL with the
 * linker's messages in *log (malloc'd) on failure.
 */
struct lanes_program_module *lanes_program_link(const struct lanes_program_module *const *inputs,
                                                size_t n, bool executable,
                                                const struct lanes_options *options, char **log);

/* A module from bitcode of a previous build (kernel metadata read back); NULL if unreadable. */
struct lanes_program_module *lanes_program_module_from_bitcode(const void *bitcode, size_t size);

/*
 * Writes the initial values of `m`'s program-scope variables into `block`
 * (m->globals_size bytes, zeroed, aligned to m->globals_align): done once
 * per program object, at the block's final address. Returns 0, or -1 with
 * *error (malloc'd, a build log line).
 */
int lanes_program_init_globals(const struct lanes_program_module *m, void *block, char **error);

/* Frees a module and everything in it. */
void lanes_program_module_free(struct lanes_program_module *m);

#endif
