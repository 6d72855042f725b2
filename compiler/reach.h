/* SPDX-License-Identifier: MIT */
/*
 * What a kernel reaches: its call graph, the variables and constants it
 * uses, nothing else of its program (ARCHITECTURE.md §2). Specialization
 * starts from that, and every size limit counts it: real programs are one
 * source with a large include library and many kernels, and a memset
 * kernel of such a program compiles like a memset kernel.
 */
#ifndef LANES_COMPILER_REACH_H
#define LANES_COMPILER_REACH_H

#include "module.h"

#include <llvm-c/Core.h>
#include <stddef.h>

/*
 * The bitcode of what kernel `k` of `pm` reaches: its functions, the
 * program-scope variables and constants they use (each marked with its
 * place in the program's block, compiler/globals.h), and the program's
 * module-level metadata. Extracted at the kernel's first need, once, and
 * kept with `pm` for every later shape, width and tier; thread-safe (the
 * same kernel's callers wait for one extraction, other kernels' run at
 * once). Returns 0 with *bitcode (owned by pm) and *size, or -1 with *log
 * (malloc'd).
 */
int lanes_reach_bitcode(const struct lanes_program_module *pm, const struct lanes_kernel_info *k,
                        const void **bitcode, size_t *size, char **log);

/*
 * After a crash of the compile on this thread (lanes_run_safely), gives
 * back the reach it was taking, if any, for another compile to take.
 */
void lanes_reach_abandon(void);

/* Frees what lanes_reach_bitcode kept with a program module (lanes_program_module_free). */
void lanes_reaches_free(struct lanes_reaches *r);

/* A kernel's size as LLVM's optimizer will see it: after inlining every call. */
struct lanes_reach_size {
    size_t instructions; /* of the kernel with every callee inlined (saturating) */
    unsigned cases;      /* of its largest switch */
    LLVMValueRef switch_in;
    /* The function that adds the most instructions: its own and how many copies. */
    LLVMValueRef biggest;
    size_t biggest_instructions, biggest_copies;
};

/*
 * Measures what `kernel` reaches through calls of defined functions, each
 * function's instructions counted once per copy inlining makes (once per
 * call path from the kernel). Returns 0, or -1 when out of memory.
 */
int lanes_reach_measure(LLVMValueRef kernel, struct lanes_reach_size *size);

#endif
