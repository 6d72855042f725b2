/* SPDX-License-Identifier: MIT */
/* The kernels' metadata, read from a program module (compiler/kernel_info.c). */
#ifndef LANES_COMPILER_KERNEL_INFO_H
#define LANES_COMPILER_KERNEL_INFO_H

#include "module.h"

#include <llvm-c/Types.h>

struct lanes_calls;

/*
 * Fills pm->kernels and pm->num_kernels with every kernel of `m` (a
 * defined function with kernel_arg_addr_space metadata); `calls` is m's
 * call graph, for uses_printf. Returns 0, or -1 when out of memory.
 */
int lanes_read_kernels(LLVMModuleRef m, struct lanes_program_module *pm,
                       const struct lanes_calls *calls);

#endif
