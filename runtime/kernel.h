/* SPDX-License-Identifier: MIT */
/* Kernel objects: one kernel of a built program and its argument values. */
#ifndef LANES_RUNTIME_KERNEL_H
#define LANES_RUNTIME_KERNEL_H

#include "object.h"

struct lanes_kernel_info;

struct _cl_kernel {
    struct lanes_object obj;
    cl_program program;                   /* retained */
    const struct lanes_kernel_info *info; /* owned by the program's module */
};
LANES_OBJECT_FIRST(struct _cl_kernel);

/* True when `k` is a live kernel. */
bool lanes_kernel_valid(cl_kernel k);

#endif
