/* SPDX-License-Identifier: MIT */
/*
 * What the passes over a sub-group function share: its trailing
 * parameters, its lane, and small helpers for calls, attributes and loads.
 * It includes nothing of the compiler's own, so that every pass may
 * include it.
 */
#ifndef LANES_COMPILER_IR_H
#define LANES_COMPILER_IR_H

#include <llvm-c/Types.h>
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
 * what remains of it after the vectorizer becomes 0 (compiler/specialize.c).
 */
#define LANES_LANE_FUNCTION "__lanes.lane"

/*
 * A yield point of a sub-group function (compiler/yield.c): a void call the
 * vectorizer keeps as one call for the sub-group, where the sub-group lets
 * the others of its work-group run (compiler/coroutine.c).
 */
#define LANES_YIELD_FUNCTION "__lanes.yield"

/*
 * A coroutine sub-group function with yield points keeps in its promise (an
 * i32 of alignment LANES_PROMISE_ALIGN, llvm.coro.promise) where it is
 * suspended: at a yield, or at a barrier, which it must not pass before
 * every sub-group of its work-group has reached it (compiler/emit.c).
 */
enum { LANES_AT_BARRIER = 0, LANES_AT_YIELD = 1, LANES_PROMISE_ALIGN = 4 };

/* A call of LANES_LANE_FUNCTION built with `b` in the module of `sg`. */
LLVMValueRef lanes_build_lane(LLVMBuilderRef b, LLVMValueRef sg);

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

/* The name of the function instruction `i` calls directly (*length set), or NULL. */
const char *lanes_called_name(LLVMValueRef i, size_t *length);

/* Adds the enum attribute `name` (no value) to function `f`. */
void lanes_add_fn_attr(LLVMValueRef f, const char *name);

/* The instructions of `m`'s function bodies; *functions (when not NULL) is how many bodies. */
size_t lanes_count_instructions(LLVMModuleRef m, size_t *functions);

/* A call of the intrinsic `name`, overloaded on `overload` when not NULL, built with `b`. */
LLVMValueRef lanes_build_intrinsic(LLVMModuleRef m, LLVMBuilderRef b, const char *name,
                                   LLVMTypeRef overload, LLVMValueRef *args, unsigned n);

/*
 * The `type` at byte `offset` of `base` (a pointer that does not change
 * while the function runs, such as wg), loaded with invariant.load.
 */
LLVMValueRef lanes_build_invariant_load(LLVMBuilderRef b, LLVMValueRef base,
                                        unsigned long long offset, LLVMTypeRef type,
                                        const char *name);

/* A malloc'd message of at most 2 KiB (NULL when out of memory): build log lines. */
__attribute__((format(printf, 1, 2))) char *lanes_format(const char *fmt, ...);

#endif
