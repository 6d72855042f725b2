/* SPDX-License-Identifier: MIT */
/* OpenCL build, compile and link options: checked and turned into Clang arguments. */
#ifndef LANES_COMPILER_OPTIONS_H
#define LANES_COMPILER_OPTIONS_H

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* Which entry the options were given to: each accepts a different set. */
enum lanes_options_kind {
    LANES_OPTIONS_BUILD,   /* clBuildProgram: compile and link options */
    LANES_OPTIONS_COMPILE, /* clCompileProgram */
    LANES_OPTIONS_LINK,    /* clLinkProgram */
};

struct lanes_options {
    char **clang_args; /* Clang -cc1 arguments for the frontend */
    size_t num_clang_args;
    cl_version cl_std; /* the -cl-std= version; CL1.2 when not given */
    bool opt_disable, uniform_work_group_size, no_subgroup_ifp, kernel_arg_info;
    bool strict_aliasing; /* OpenCL 1.0's -cl-strict-aliasing: accepted, ignored */
    bool fast_relaxed_math, finite_math_only, unsafe_math, mad_enable, no_signed_zeros;
    bool denorms_are_zero, fp32_correctly_rounded_divide_sqrt, single_precision_constant;
    bool debug_info, create_library, enable_link_options;
    char *error; /* why parsing failed, naming the option; NULL on success */
};

/*
 * Parses an options string of `kind`. `versions` are the OpenCL C versions
 * the device accepts for -cl-std=. Returns 0, or -1 with `error` set; the
 * caller frees `out` with lanes_options_free either way.
 */
int lanes_options_parse(const char *text, enum lanes_options_kind kind,
                        const cl_name_version *versions, size_t num_versions,
                        struct lanes_options *out);

/* Releases what lanes_options_parse allocated. */
void lanes_options_free(struct lanes_options *o);

/* Extensions and OpenCL C features the frontend defines macros for. */
struct lanes_language {
    const cl_name_version *extensions;
    size_t num_extensions;
    const cl_name_version *features;
    size_t num_features;
    cl_version opencl_version; /* the device's, as __OPENCL_VERSION__; 0 leaves it undefined */
};

#endif
