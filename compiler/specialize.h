/* SPDX-License-Identifier: MIT */
/* Turning a kernel of a program module into a sub-group function. */
#ifndef LANES_COMPILER_SPECIALIZE_H
#define LANES_COMPILER_SPECIALIZE_H

#include "abi.h"
#include "globals.h"

#include <llvm-c/Types.h>
#include <stdbool.h>
#include <stdint.h>

/* A kernel on its way to its sub-group function. */
struct lanes_specialized {
    LLVMValueRef sg; /* the sub-group function (enum lanes_sg_param, compiler/ir.h) */
    /*
     * The kernel has barriers, or loops of atomic or volatile accesses, and
     * a work-group holds several sub-groups: lanes_specialize_lower makes sg
     * a coroutine returning its handle (compiler/coroutine.c).
     */
    bool coroutine;
    bool yields; /* sg has yield points (compiler/yield.c): its sub-groups progress apart */
    bool aware;  /* it calls sub-group functions: it sees its width */
    uint32_t vector_width; /* lanes a vector: W, or k * W when k sub-groups run as one */
    bool refused;          /* the vectorizer cannot take it (or chose width 1): it runs at 1 */
};

/*
 * In `m`, inlines every call of `kernel` and moves it into its sub-group
 * function, out->sg. The work-item built-ins, the kernel's __local
 * variables and the program's variables (`globals`, laid out before the
 * library was linked in) are lowered to reads of `wg` and the folded
 * constants of `spec` (compiler/passes.h); at W > 1 the function is
 * cleaned up for the vectorizer. Returns 0, or -1 with *log (malloc'd)
 * saying why.
 */
int lanes_specialize(LLVMModuleRef m, LLVMValueRef kernel, const struct lanes_specialization *spec,
                     const struct lanes_globals_layout *globals, struct lanes_specialized *out,
                     char **log);

/*
 * At W > 1: vectorizes s->sg at spec->width (compiler/vectorize/), or at a
 * multiple of it when several sub-groups run as one vector
 * (s->vector_width says which, compiler/interleave.c). Returns 0, or -1
 * with *log saying why and s->refused set: the kernel still runs at width 1.
 */
int lanes_specialize_vectorize(struct lanes_specialized *s, const struct lanes_specialization *spec,
                               char **log);

/*
 * After vectorizing (or at width 1): the lane becomes 0, __local atomics
 * and fences their final form, and sg a coroutine when it must be one.
 */
void lanes_specialize_lower(struct lanes_specialized *s, const struct lanes_specialization *spec);

#endif
