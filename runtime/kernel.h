/* SPDX-License-Identifier: MIT */
/* Kernel objects: one kernel of a built program and its argument values. */
#ifndef LANES_RUNTIME_KERNEL_H
#define LANES_RUNTIME_KERNEL_H

#include "object.h"

#include <pthread.h>

struct lanes_kernel_info;

/* The value of one argument, besides its bytes in the block. */
struct lanes_kernel_argval {
    bool set;
    cl_mem mem;        /* a buffer argument's memory object; NULL for a NULL buffer */
    bool svm;          /* a buffer argument set by clSetKernelArgSVMPointer: */
    void *svm_ptr;     /* the pointer the kernel sees, as given */
    size_t local_size; /* a __local argument's size in bytes */
};

struct _cl_kernel {
    struct lanes_object obj;
    cl_program program;                   /* retained */
    const struct lanes_kernel_info *info; /* owned by the program's module */
    pthread_mutex_t lock;                 /* guards the argument values */
    unsigned char *block; /* the argument block (compiler/abi.h), info->args_size bytes */
    struct lanes_kernel_argval *argv; /* one per argument */
};
LANES_OBJECT_FIRST(struct _cl_kernel);

/* True when `k` is a live kernel. */
static inline bool lanes_kernel_valid(cl_kernel k)
{
    return lanes_object_is(k, LANES_KIND_KERNEL);
}

#endif
