/* SPDX-License-Identifier: MIT */
/* What the ICD contract exports, and the helpers its entries share. */
#ifndef LANES_ICD_H
#define LANES_ICD_H

#include <CL/cl.h>

/* Marks the few functions the loader finds by name (see icd/lanes.map). */
#define LANES_EXPORT __attribute__((visibility("default")))

/* clGetPlatformIDs without the loader's special cases (runtime/api_platform.c). */
cl_int lanes_get_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
                              cl_uint *num_platforms);

#endif
