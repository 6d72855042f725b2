/* SPDX-License-Identifier: MIT */
/*
 * The whole-function vectorizer (ARCHITECTURE.md §3): a sub-group function
 * written for one work-item becomes one over W lanes, each lane a
 * work-item.
 */
#ifndef LANES_COMPILER_VECTORIZE_H
#define LANES_COMPILER_VECTORIZE_H

#include "../abi.h"

#include <llvm-c/Types.h>

/*
 * Replaces *sg, a sub-group function whose LANES_LANE_FUNCTION calls stand
 * for the work-item's lane, by its vectorized form at spec->width (same
 * name and type). Returns 0, or -1 with *why (malloc'd) naming the
 * construct it cannot handle and where; *sg may then have been rewritten
 * already (linearized), so the caller specializes the kernel again at
 * width 1 from the program module.
 */
int lanes_vectorize(LLVMValueRef *sg, const struct lanes_specialization *spec, char **why);

/*
 * Marks the sub-group calls of sg that lie on a loop's exit path, where
 * they run in the iteration that takes them, and keeps those loops rolled
 * (vz_exit_paths.c): for the sub-group function as inlined, before any
 * clean-up pass.
 */
void lanes_mark_exit_paths(LLVMValueRef sg);

#endif
