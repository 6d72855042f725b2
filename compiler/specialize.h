/* SPDX-License-Identifier: MIT */
/* Turning a kernel of a program module into a sub-group function. */
#ifndef LANES_COMPILER_SPECIALIZE_H
#define LANES_COMPILER_SPECIALIZE_H

#include "abi.h"
#include "globals.h"

#include <llvm-c/Types.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * In `m`, inlines every call of `kernel` and replaces it by its sub-group
 * function (enum lanes_sg_param, compiler/ir.h). The work-item built-ins,
 * the kernel's __local variables and the program's variables (`globals`,
 * laid out before the library was linked in) are lowered to reads of `wg`
 * and the folded constants of `spec` (compiler/passes.h); the function is
 * vectorized at spec->width (compiler/vectorize/), or at a multiple of it
 * when several sub-groups run as one vector (*vector_width says which,
 * compiler/interleave.c). When the kernel has
 * barriers and a work-group holds several sub-groups, sg is a coroutine
 * returning its handle instead (*coroutine set; compiler/coroutine.c).
 * Returns the function, or NULL with *log (malloc'd) saying why; *refused
 * is then set when it is the vectorizer that cannot handle the kernel,
 * which still runs at width 1.
 */
LLVMValueRef lanes_specialize(LLVMModuleRef m, LLVMValueRef kernel,
                              const struct lanes_specialization *spec,
                              const struct lanes_globals_layout *globals, bool *coroutine,
                              uint32_t *vector_width, bool *refused, char **log);

#endif
