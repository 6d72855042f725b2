/* SPDX-License-Identifier: MIT */
/* A program's build, compile and link jobs (runtime/build.c). */
#ifndef LANES_RUNTIME_BUILD_H
#define LANES_RUNTIME_BUILD_H

#include "object.h"

#include <stdbool.h>
#include <stddef.h>

struct lanes_frontend_file;

/*
 * clBuildProgram (compile_only false) and clCompileProgram (true) after
 * their argument checks: the program goes to CL_BUILD_IN_PROGRESS, the
 * options are checked at once, then the build runs here, or on a worker
 * when pfn_notify is given. Returns the entry's error code.
 */
cl_int lanes_program_start_build(cl_program program, bool compile_only, const char *options,
                                 const struct lanes_frontend_file *headers, size_t num_headers,
                                 void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                 void *user_data);

/* clLinkProgram after its context and device checks; sets *errcode_ret. */
cl_program lanes_program_start_link(cl_context context, const char *options,
                                    cl_uint num_input_programs, const cl_program *input_programs,
                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                    void *user_data, cl_int *errcode_ret);

#endif
