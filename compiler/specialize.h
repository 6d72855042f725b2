/* SPDX-License-Identifier: MIT */
/* Turning a kernel of a program module into a sub-group function. */
#ifndef LANES_COMPILER_SPECIALIZE_H
#define LANES_COMPILER_SPECIALIZE_H

#include "globals.h"
#include "launcher.h"

#include <llvm-c/Types.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The parameters a sub-group function has after the kernel's own:
 *     void sg(<kernel parameters>, ptr wg, i64 first, i64 lanes,
 *             i64 lx, i64 ly, i64 lz)
 * `first` is the local linear id of the sub-group's first work-item,
 * `lanes` how many work-items it has (W but in a partial last sub-group),
 * (lx, ly, lz) the local id of its first work-item.
 */
enum lanes_sg_param {
    LANES_SG_WG,
    LANES_SG_FIRST,
    LANES_SG_LANES,
    LANES_SG_LX,
    LANES_SG_LY,
    LANES_SG_LZ,
    LANES_SG_NUM_PARAMS
};

/* Parameter `p` of sub-group function `sg`. */
LLVMValueRef lanes_sg_param(LLVMValueRef sg, enum lanes_sg_param p);

/*
 * The call that stands for the index of the work-item in its sub-group
 * (0 to W - 1, an i32) in a sub-group function before it is vectorized;
 * lanes_lower_lane replaces what remains of it by 0 (width 1).
 */
#define LANES_LANE_FUNCTION "__lanes.lane"

/* A call of LANES_LANE_FUNCTION built with `b` in the module of `sg`. */
LLVMValueRef lanes_build_lane(LLVMBuilderRef b, LLVMValueRef sg);

/* Replaces every LANES_LANE_FUNCTION call in `sg` by 0 (a sub-group of one work-item). */
void lanes_lower_lane(LLVMValueRef sg);

/*
 * In `m`, inlines every call of `kernel` and replaces it by its sub-group
 * function (enum lanes_sg_param). The work-item built-ins, the kernel's
 * __local variables and the program's variables (`globals`, laid out
 * before the library was linked in) are lowered to reads of `wg` and the
 * folded constants of `spec`; the function is vectorized at spec->width
 * (compiler/vectorize/). When the kernel has barriers and a work-group
 * holds several sub-groups, sg is a coroutine returning its handle instead
 * (*coroutine set; compiler/coroutine.c). Returns the function, or NULL
 * with *log (malloc'd) saying why; *refused is then set when it is the
 * vectorizer that cannot handle the kernel, which still runs at width 1.
 */
LLVMValueRef lanes_specialize(LLVMModuleRef m, LLVMValueRef kernel,
                              const struct lanes_specialization *spec,
                              const struct lanes_globals_layout *globals, bool *coroutine,
                              bool *refused, char **log);

/* True when instruction `i` is a work-group barrier call. */
bool lanes_is_barrier(LLVMValueRef i);

/*
 * What replaces `call`, a call of function `callee` (its name); NULL leaves
 * the call as it is.
 */
typedef LLVMValueRef (*lanes_call_lowering)(LLVMValueRef call, const char *callee, void *ctx);

/*
 * Replaces each direct call in `f` by what `lower` builds for it (with `b`,
 * which it finds positioned before the call), erasing the call.
 */
void lanes_replace_calls(LLVMValueRef f, LLVMBuilderRef b, lanes_call_lowering lower, void *ctx);

/* Turns `sg` (returning ptr) into a coroutine that suspends at each barrier. */
void lanes_make_coroutine(LLVMValueRef sg);

/* Lowers the work-item built-in calls in `sg` (compiler/workitem.c). */
void lanes_lower_workitem(LLVMValueRef sg, const struct lanes_specialization *spec);

/*
 * Lowers to_global, to_local, to_private and get_fence in `sg` to tests of
 * the address (compiler/generic.c); `coroutine` when sg already is one.
 */
void lanes_lower_generic(LLVMValueRef sg, bool coroutine);

/* True for the name of a function lanes_lower_generic lowers. */
bool lanes_is_generic_function(const char *name, size_t length);

/* Makes every integer division of `fn` safe from x / 0 and INT_MIN / -1 (compiler/division.c). */
void lanes_make_division_safe(LLVMValueRef fn);

/*
 * Turns the printf calls of `sg` into writes of records into the command's
 * printf buffer (compiler/printf.c); true when there was one.
 */
bool lanes_lower_printf(LLVMValueRef sg);

/* True when `fn` calls a work-group barrier (directly; callees are inlined first). */
bool lanes_has_barrier(LLVMValueRef fn);

#endif
