/* SPDX-License-Identifier: MIT */
/* The launcher's IR (compiler/emit.c). */
#ifndef LANES_COMPILER_EMIT_H
#define LANES_COMPILER_EMIT_H

#include "abi.h"
#include "module.h"

#include <llvm-c/Types.h>
#include <stdbool.h>

/*
 * Adds to `m` the launcher `name` of sub-group function `sg` (kernel `k`):
 * it unpacks the argument block once, then runs every sub-group of the
 * work-group, walking it `spec->width` lanes at a time (several sub-groups
 * when they run as one vector); `coroutine` when sg returns a coroutine
 * handle (compiler/coroutine.c), `yields` when it also suspends at yield
 * points and says in its promise where it is. Returns the launcher.
 */
LLVMValueRef lanes_emit_launcher(LLVMModuleRef m, LLVMValueRef sg,
                                 const struct lanes_kernel_info *k,
                                 const struct lanes_specialization *spec, bool coroutine,
                                 bool yields, const char *name);

#endif
