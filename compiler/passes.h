/* SPDX-License-Identifier: MIT */
/*
 * The lowering passes lanes_specialize runs on a sub-group function
 * (compiler/ir.h), each in a file of its own.
 */
#ifndef LANES_COMPILER_PASSES_H
#define LANES_COMPILER_PASSES_H

#include <llvm-c/Types.h>
#include <stdbool.h>

struct lanes_specialization;

/* Makes every integer division of `fn` safe from x / 0 and INT_MIN / -1 (compiler/division.c). */
void lanes_make_division_safe(LLVMValueRef fn);

/* Lowers the work-item built-in calls in `sg` (compiler/workitem.c). */
void lanes_lower_workitem(LLVMValueRef sg, const struct lanes_specialization *spec);

/*
 * Turns the printf calls of `sg` into writes of records into the command's
 * printf buffer (compiler/printf.c); true when there was one.
 */
bool lanes_lower_printf(LLVMValueRef sg);

/*
 * Turns `sg` (returning ptr) into a coroutine that suspends at each barrier
 * and at every YIELD_PERIOD-th yield point (compiler/coroutine.c); with
 * `yields`, it tells the launcher in its promise (abi.h) which it is at.
 */
void lanes_make_coroutine(LLVMValueRef sg, bool yields);

/*
 * How many back edges of `fn` close a loop that performs an atomic or a
 * volatile access (compiler/yield.c); with `insert`, each of them gets a
 * yield point (LANES_YIELD_FUNCTION, compiler/ir.h).
 */
unsigned lanes_spin_loops(LLVMValueRef fn, bool insert);

struct lanes_specialization;

/*
 * Replaces, in the inlined kernel `fn`, each load of a format field (order,
 * type, channels, texel size) of an image argument whose format `spec`
 * fixes by its value (compiler/image_formats.c); returns how many.
 */
unsigned lanes_fold_image_formats(LLVMValueRef fn, const struct lanes_specialization *spec);

/*
 * Lowers to_global, to_local, to_private and get_fence in `sg` to their
 * answers where the pointer's origin shows, else to tests of the address
 * (compiler/generic.c). Runs before the vectorizer.
 */
void lanes_lower_generic(LLVMValueRef sg);

/* True when `sg` calls to_global, to_local, to_private or get_fence. */
bool lanes_calls_generic(LLVMValueRef sg);

/*
 * How many sub-groups of W = spec->width work-items the launcher runs as one
 * vector of k * W lanes (compiler/interleave.c): 1 unless `sg` (cleaned
 * up, not yet vectorized) is latency-bound and cannot tell the difference;
 * `sub_group_aware` when the kernel called a sub-group function or a
 * barrier before they were lowered. In the same look, *one_item says why
 * `sg` should run a work-item a vector instead (its busiest block works on
 * float8 / float16 values and is paced by its own loads: each is a SIMD
 * register already, where at width W it would be W of them), or is NULL;
 * never for a kernel that can see its sub-group size, nor when LANES_WIDTH
 * forces the width.
 */
unsigned lanes_interleave(LLVMValueRef sg, const struct lanes_specialization *spec,
                          bool sub_group_aware, const char **one_item);

/*
 * Marks the loops of `sg` whose body holds much work on OpenCL vectors of
 * 8 or more components not to be unrolled before the vectorizer (at
 * `width` each such operation becomes many instructions, where LLVM's
 * unroller counts one). Nothing at width 1.
 */
void lanes_keep_wide_loops_rolled(LLVMValueRef sg, uint32_t width);

/* LANES_INTERLEAVE as lanes_interleave reads it (a launcher's cache key has it). */
unsigned lanes_interleave_setting(void);

/*
 * Atomics on __local memory (compiler/local_atomics.c): before the
 * vectorizer, a generic pointer made from a __local one is cast back to
 * __local; after it, those atomics become plain loads and stores.
 */
void lanes_localize_atomics(LLVMValueRef fn);
void lanes_lower_local_atomics(LLVMValueRef fn);

#endif
