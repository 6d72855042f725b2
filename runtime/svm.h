/* SPDX-License-Identifier: MIT */
/*
 * Shared virtual memory. The CPU shares memory with the host, so an SVM
 * allocation is plain host memory; each context keeps a registry of what
 * clSVMAlloc handed out, so that pointers into it can be recognised.
 */
#ifndef LANES_RUNTIME_SVM_H
#define LANES_RUNTIME_SVM_H

#include "object.h"

/* One allocation of clSVMAlloc, in its context's list (guarded by the context's lock). */
struct lanes_svm_alloc {
    struct lanes_svm_alloc *next;
    char *base;
    size_t size;
    cl_svm_mem_flags flags;
};

/* What this device offers: every kind (tests/api/test_svm.c proves each). */
#define LANES_SVM_CAPABILITIES                                                                     \
    (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |                         \
     CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS)

/* Allocates `size` bytes aligned to `alignment` and registers them; NULL when out of memory. */
void *lanes_svm_alloc(cl_context c, cl_svm_mem_flags flags, size_t size, size_t alignment);

/* Unregisters and frees an allocation by its base; false when `ptr` is not one. */
bool lanes_svm_free(cl_context c, void *ptr);

/*
 * Finds the allocation holding `ptr`: true and its base and size (either
 * pointer may be NULL) when some allocation of `c` contains that byte.
 */
bool lanes_svm_find(cl_context c, const void *ptr, char **base, size_t *size);

/* Frees every allocation left when the context is destroyed. */
void lanes_svm_free_all(cl_context c);

#endif
