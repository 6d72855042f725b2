/* SPDX-License-Identifier: MIT */
/*
 * Barriers across sub-groups (ARCHITECTURE.md §5): the sub-group function
 * becomes an LLVM coroutine (switch-resumed, like a C++ coroutine) that
 * suspends at each barrier; LLVM's coro passes, part of the O3 pipeline,
 * compute what lives across a barrier and split the function. The launcher
 * starts every sub-group of the work-group, then resumes each in turn until
 * all have finished (compiler/emit.c). Frames come from wg->frame_alloc.
 *
 * Yield points (compiler/yield.c) suspend too, every YIELD_PERIOD-th time a
 * sub-group reaches one (a count in its frame): often enough that a
 * sub-group spinning on a flag lets the others run soon, rarely enough that
 * a loop of atomics that waits on nothing pays little for them. Between
 * suspensions nothing else of the work-group runs, so what a spin reads
 * cannot change (and O3 may keep it in a register). Before each suspension
 * the coroutine stores in its promise whether it is at a yield or at a
 * barrier, for the launcher.
 */
#include "passes.h"

#include "abi.h"
#include "ir.h"
#include "names.h"

#include <llvm-c/Core.h>

enum { YIELD_PERIOD = 64 };

struct coro {
    LLVMModuleRef m;
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMValueRef fn, id, hdl;
    LLVMValueRef promise, count; /* with yields: where it is suspended; yields since the last */
    LLVMBasicBlockRef cleanup, suspend, dead;
};

/* With yields, records `where` (LANES_AT_BARRIER or LANES_AT_YIELD) in the promise. */
static void say_where(struct coro *c, unsigned where)
{
    if (c->promise)
        LLVMBuildStore(c->b, LLVMConstInt(LLVMInt32TypeInContext(c->ctx), where, 0), c->promise);
}

/* Suspends where the builder is; execution goes on in `resume` (final: never resumed). */
static void suspend_to(struct coro *c, bool final, LLVMBasicBlockRef resume)
{
    LLVMValueRef args[2] = {LLVMConstNull(LLVMTokenTypeInContext(c->ctx)),
                            LLVMConstInt(LLVMInt1TypeInContext(c->ctx), final, 0)};
    LLVMValueRef s = lanes_build_intrinsic(c->m, c->b, "llvm.coro.suspend", NULL, args, 2);
    LLVMValueRef sw = LLVMBuildSwitch(c->b, s, c->suspend, 2);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(c->ctx);
    LLVMAddCase(sw, LLVMConstInt(i8, 0, 0), resume);
    LLVMAddCase(sw, LLVMConstInt(i8, 1, 0), c->cleanup);
}

/*
 * Splits `bb` at barrier or yield `i`: what precedes it moves to a new block
 * before `bb`, which suspends (a yield: every YIELD_PERIOD-th time) and
 * resumes in `bb`. Moving the first half (not the second) leaves the phis
 * of `bb`'s successors valid.
 */
static void split_at(struct coro *c, LLVMBasicBlockRef bb, LLVMValueRef i, bool yield)
{
    LLVMBasicBlockRef pre =
        LLVMInsertBasicBlockInContext(c->ctx, bb, yield ? "before.yield" : "before.barrier");
    /*
     * Branches to bb now go to pre; phis keep naming bb, which stays the
     * predecessor of its successors (and those of bb move to pre below).
     */
    LLVMValueRef target = LLVMBasicBlockAsValue(bb);
    for (LLVMUseRef u = LLVMGetFirstUse(target), next; u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsATerminatorInst(user))
            continue;
        for (unsigned k = 0; k < (unsigned)LLVMGetNumOperands(user); k++)
            if (LLVMGetOperand(user, k) == target)
                LLVMSetOperand(user, k, LLVMBasicBlockAsValue(pre));
    }
    LLVMPositionBuilderAtEnd(c->b, pre);
    while (LLVMGetFirstInstruction(bb) != i) {
        LLVMValueRef j = LLVMGetFirstInstruction(bb);
        LLVMInstructionRemoveFromParent(j);
        LLVMInsertIntoBuilder(c->b, j);
    }
    LLVMInstructionEraseFromParent(i);
    if (yield) {
        LLVMTypeRef i32 = LLVMInt32TypeInContext(c->ctx);
        LLVMValueRef n = LLVMBuildAdd(c->b, LLVMBuildLoad2(c->b, i32, c->count, ""),
                                      LLVMConstInt(i32, 1, 0), "yields");
        LLVMValueRef due =
            LLVMBuildICmp(c->b, LLVMIntUGE, n, LLVMConstInt(i32, YIELD_PERIOD, 0), "yield.due");
        LLVMBuildStore(c->b, LLVMBuildSelect(c->b, due, LLVMConstNull(i32), n, ""), c->count);
        LLVMBasicBlockRef now = LLVMInsertBasicBlockInContext(c->ctx, bb, "yield.now");
        LLVMBuildCondBr(c->b, due, now, bb);
        LLVMPositionBuilderAtEnd(c->b, now);
    }
    say_where(c, yield ? LANES_AT_YIELD : LANES_AT_BARRIER);
    suspend_to(c, false, bb);
}

/* The coroutine's prologue, suspend and cleanup blocks (see LLVM's Coroutines.rst). */
static void frame(struct coro *c, LLVMValueRef wg, bool yields)
{
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c->ctx, 0), i64 = LLVMInt64TypeInContext(c->ctx);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->ctx);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(c->fn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    LLVMPositionBuilderBefore(c->b, first);
    LLVMValueRef null = LLVMConstNull(ptr);
    if (yields) {
        c->promise = LLVMBuildAlloca(c->b, i32, "promise");
        LLVMSetAlignment(c->promise, LANES_PROMISE_ALIGN);
        c->count = LLVMBuildAlloca(c->b, i32, "yields");
        LLVMBuildStore(c->b, LLVMConstNull(i32), c->count);
    }
    LLVMValueRef id_args[4] = {LLVMConstInt(i32, 0, 0), c->promise ? c->promise : null, null, null};
    c->id = lanes_build_intrinsic(c->m, c->b, "llvm.coro.id", NULL, id_args, 4);
    LLVMValueRef size = lanes_build_intrinsic(c->m, c->b, "llvm.coro.size", i64, NULL, 0);
    LLVMValueRef idx = LLVMConstInt(i64, LANES_WG_FRAME_ALLOC, 0);
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(c->b, LLVMInt8TypeInContext(c->ctx), wg, &idx, 1, "");
    LLVMValueRef alloc = LLVMBuildLoad2(c->b, ptr, slot, "frame_alloc");
    LLVMTypeRef alloc_type = LLVMFunctionType(ptr, &i64, 1, 0);
    LLVMValueRef mem = LLVMBuildCall2(c->b, alloc_type, alloc, &size, 1, "frame");
    LLVMValueRef begin_args[2] = {c->id, mem};
    c->hdl = lanes_build_intrinsic(c->m, c->b, "llvm.coro.begin", NULL, begin_args, 2);

    c->cleanup = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "coro.cleanup");
    c->suspend = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "coro.suspend");
    c->dead = LLVMAppendBasicBlockInContext(c->ctx, c->fn, "coro.dead");
    LLVMPositionBuilderAtEnd(c->b, c->cleanup);
    LLVMValueRef free_args[2] = {c->id, c->hdl};
    /* The arena frees the frame. */
    lanes_build_intrinsic(c->m, c->b, "llvm.coro.free", NULL, free_args, 2);
    LLVMBuildBr(c->b, c->suspend);
    LLVMPositionBuilderAtEnd(c->b, c->suspend);
    LLVMValueRef end_args[3] = {c->hdl, LLVMConstInt(LLVMInt1TypeInContext(c->ctx), 0, 0),
                                LLVMConstNull(LLVMTokenTypeInContext(c->ctx))};
    lanes_build_intrinsic(c->m, c->b, "llvm.coro.end", NULL, end_args, 3);
    LLVMBuildRet(c->b, c->hdl);
    LLVMPositionBuilderAtEnd(c->b, c->dead);
    LLVMBuildUnreachable(c->b);
}

void lanes_make_coroutine(LLVMValueRef sg, bool yields)
{
    struct coro c = {.m = LLVMGetGlobalParent(sg), .fn = sg};
    c.ctx = LLVMGetModuleContext(c.m);
    c.b = LLVMCreateBuilderInContext(c.ctx);
    frame(&c, lanes_sg_param(sg, LANES_SG_WG), yields);

    /* Barriers and yields suspend; every return becomes the final suspension. */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (bb == c.cleanup || bb == c.suspend || bb == c.dead)
            continue;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            bool yield = lanes_is_yield(i);
            if (yield || lanes_is_barrier(i)) {
                split_at(&c, bb, i, yield);
                next = LLVMGetFirstInstruction(bb);
            } else if (LLVMIsAReturnInst(i)) {
                LLVMPositionBuilderBefore(c.b, i);
                suspend_to(&c, true, c.dead);
                LLVMInstructionEraseFromParent(i);
                break;
            }
        }
    }
    lanes_add_fn_attr(sg, "presplitcoroutine");
    LLVMRemoveEnumAttributeAtIndex(sg, LLVMAttributeFunctionIndex,
                                   LLVMGetEnumAttributeKindForName("alwaysinline", 12));
    LLVMDisposeBuilder(c.b);
}
