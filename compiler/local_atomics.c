/* SPDX-License-Identifier: MIT */
/*
 * Atomics on __local memory as plain loads and stores. A work-group runs on
 * one worker thread, its sub-groups one after another (runtime/exec), and
 * its __local memory is its own: no other thread ever reads or writes it
 * while it runs. So an atomic on __local memory needs no lock prefix and no
 * fence; it only needs the work-items that use it to take turns, which they
 * do: sub-groups run in turn, and within a sub-group the vectorizer runs an
 * atomic once per active lane, in lane order (vz_widen.c, lane_loop). A
 * `lock xadd` or `xchg` costs about 20 cycles even on a cache line no one
 * else holds; a load, an add and a store cost a few, and the optimizer can
 * keep them in registers.
 *
 * Two steps, around the vectorizer:
 *   - lanes_localize_atomics, before it: an atomic whose pointer is generic
 *     but made from a __local one (a local object passed to a function that
 *     takes a generic pointer, inlined) gets that pointer cast back to
 *     __local, so that its lane copies keep the address space in their
 *     type;
 *   - lanes_lower_local_atomics, after it: every atomic on a __local
 *     pointer becomes plain: an atomic load or store loses its ordering, an
 *     atomicrmw becomes a load, the operation and a store, a cmpxchg a
 *     load, a compare and a store of the new or the old value. The float
 *     min/max and the wrapping increments stay atomics.
 * A generic pointer whose origin is not visible (a phi, a load) stays
 * generic, and its atomic stays an atomic: still right, only slower.
 */
#include "passes.h"

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>

enum { AS_LOCAL = 3, MAX_DEPTH = 16 };

/* The operand index of the address of atomic `i`, or -1 when `i` is not an atomic. */
static int atomic_pointer(LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg: return 0;
    case LLVMLoad: return LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic ? 0 : -1;
    case LLVMStore: return LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic ? 1 : -1;
    default: return -1;
    }
}

static bool is_local(LLVMValueRef p)
{
    LLVMTypeRef t = LLVMTypeOf(p);
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == AS_LOCAL;
}

/* True when `p` is computed from a __local pointer: through GEPs and address space casts. */
static bool made_from_local(LLVMValueRef p, int depth)
{
    if (is_local(p))
        return true;
    if (depth == MAX_DEPTH)
        return false;
    LLVMOpcode op;
    if (LLVMIsAInstruction(p))
        op = LLVMGetInstructionOpcode(p);
    else if (LLVMIsAConstantExpr(p))
        op = LLVMGetConstOpcode(p);
    else
        return false;
    if (op != LLVMGetElementPtr && op != LLVMAddrSpaceCast && op != LLVMBitCast)
        return false;
    return made_from_local(LLVMGetOperand(p, 0), depth + 1);
}

void lanes_localize_atomics(LLVMValueRef fn)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMTypeRef local = LLVMPointerTypeInContext(ctx, AS_LOCAL);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            int at = atomic_pointer(i);
            if (at < 0)
                continue;
            LLVMValueRef p = LLVMGetOperand(i, (unsigned)at);
            if (is_local(p) || !made_from_local(p, 0))
                continue;
            LLVMPositionBuilderBefore(b, i);
            LLVMSetOperand(i, (unsigned)at, LLVMBuildAddrSpaceCast(b, p, local, "local"));
        }
    LLVMDisposeBuilder(b);
}

/*
 * A load and a store of `t` at `p` standing for atomic `i`, with its
 * alignment. Not volatile, even where the atomic was: OpenCL C's atomic
 * functions take volatile pointers, so nearly every atomic is, and nothing
 * but this work-group's own code can see __local memory, so the optimizer
 * may combine what the lanes do (a counter every lane increments).
 */
static LLVMValueRef plain_load(LLVMBuilderRef b, LLVMValueRef i, LLVMTypeRef t, LLVMValueRef p)
{
    LLVMValueRef v = LLVMBuildLoad2(b, t, p, "");
    LLVMSetAlignment(v, LLVMGetAlignment(i));
    return v;
}

static void plain_store(LLVMBuilderRef b, LLVMValueRef i, LLVMValueRef v, LLVMValueRef p)
{
    LLVMValueRef s = LLVMBuildStore(b, v, p);
    LLVMSetAlignment(s, LLVMGetAlignment(i));
}

/* What atomicrmw `i` stores, from the old value; NULL for the operations left atomic. */
static LLVMValueRef rmw_result(LLVMBuilderRef b, LLVMValueRef i, LLVMValueRef old, LLVMValueRef v)
{
    switch (LLVMGetAtomicRMWBinOp(i)) {
    case LLVMAtomicRMWBinOpXchg: return v;
    case LLVMAtomicRMWBinOpAdd: return LLVMBuildAdd(b, old, v, "");
    case LLVMAtomicRMWBinOpSub: return LLVMBuildSub(b, old, v, "");
    case LLVMAtomicRMWBinOpAnd: return LLVMBuildAnd(b, old, v, "");
    case LLVMAtomicRMWBinOpNand: return LLVMBuildNot(b, LLVMBuildAnd(b, old, v, ""), "");
    case LLVMAtomicRMWBinOpOr: return LLVMBuildOr(b, old, v, "");
    case LLVMAtomicRMWBinOpXor: return LLVMBuildXor(b, old, v, "");
    case LLVMAtomicRMWBinOpMax:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpMin:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpUMax:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpUMin:
        return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, old, v, ""), old, v, "");
    case LLVMAtomicRMWBinOpFAdd: return LLVMBuildFAdd(b, old, v, "");
    case LLVMAtomicRMWBinOpFSub: return LLVMBuildFSub(b, old, v, "");
    default: return NULL; /* fmax, fmin, uinc_wrap, udec_wrap */
    }
}

/* Replaces atomic `i` on a __local pointer by plain instructions; false to leave it. */
static bool lower(LLVMBuilderRef b, LLVMValueRef i)
{
    LLVMPositionBuilderBefore(b, i);
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMLoad:
        LLVMReplaceAllUsesWith(i, plain_load(b, i, LLVMTypeOf(i), LLVMGetOperand(i, 0)));
        break;
    case LLVMStore: plain_store(b, i, LLVMGetOperand(i, 0), LLVMGetOperand(i, 1)); break;
    case LLVMAtomicRMW: {
        LLVMValueRef p = LLVMGetOperand(i, 0), v = LLVMGetOperand(i, 1);
        LLVMValueRef old = plain_load(b, i, LLVMTypeOf(v), p);
        LLVMValueRef now = rmw_result(b, i, old, v);
        if (!now) {
            LLVMInstructionEraseFromParent(old);
            return false;
        }
        plain_store(b, i, now, p);
        LLVMReplaceAllUsesWith(i, old);
        break;
    }
    case LLVMAtomicCmpXchg: {
        LLVMValueRef p = LLVMGetOperand(i, 0), want = LLVMGetOperand(i, 1);
        LLVMValueRef v = LLVMGetOperand(i, 2);
        LLVMValueRef old = plain_load(b, i, LLVMTypeOf(v), p);
        LLVMValueRef same = LLVMBuildICmp(b, LLVMIntEQ, old, want, "");
        plain_store(b, i, LLVMBuildSelect(b, same, v, old, ""), p);
        LLVMValueRef pair = LLVMGetUndef(LLVMTypeOf(i));
        pair = LLVMBuildInsertValue(b, pair, old, 0, "");
        pair = LLVMBuildInsertValue(b, pair, same, 1, "");
        LLVMReplaceAllUsesWith(i, pair);
        break;
    }
    default: return false;
    }
    LLVMInstructionEraseFromParent(i);
    return true;
}

void lanes_lower_local_atomics(LLVMValueRef fn)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            int at = atomic_pointer(i);
            if (at >= 0 && is_local(LLVMGetOperand(i, (unsigned)at)))
                lower(b, i);
        }
    LLVMDisposeBuilder(b);
}
