/* SPDX-License-Identifier: MIT */
/*
 * Integer division that cannot trap. OpenCL C leaves x / 0 and INT_MIN / -1
 * undefined in value only: a kernel doing either must still run, while x86
 * raises SIGFPE for both and would kill the host process. Every sdiv, udiv,
 * srem and urem gets its divisor replaced by 1 in those cases (one compare
 * and select per division, next to a 20-80 cycle divide), before the
 * optimizer could exploit the undefined behaviour.
 */
#include "passes.h"

#include <llvm-c/Core.h>

/* The all-ones (-1) and signed-minimum constants of integer or integer-vector type t. */
static LLVMValueRef splat(LLVMTypeRef t, LLVMValueRef scalar)
{
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
        return scalar;
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef elems[n];
    for (unsigned i = 0; i < n; i++)
        elems[i] = scalar;
    return LLVMConstVector(elems, n);
}

static void make_safe(LLVMBuilderRef b, LLVMValueRef div)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(div);
    LLVMValueRef x = LLVMGetOperand(div, 0), d = LLVMGetOperand(div, 1);
    LLVMTypeRef t = LLVMTypeOf(d);
    LLVMTypeRef elem = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    unsigned bits = LLVMGetIntTypeWidth(elem);
    /* A constant divisor that is neither 0 nor -1 is safe as it is. */
    if (LLVMIsAConstantInt(d) && !LLVMIsNull(d) &&
        (op == LLVMUDiv || op == LLVMURem || LLVMConstIntGetSExtValue(d) != -1))
        return;
    LLVMPositionBuilderBefore(b, div);
    LLVMValueRef zero = LLVMConstNull(t), one = splat(t, LLVMConstInt(elem, 1, 0));
    LLVMValueRef bad = LLVMBuildICmp(b, LLVMIntEQ, d, zero, "");
    if (op == LLVMSDiv || op == LLVMSRem) {
        LLVMValueRef minus_one = splat(t, LLVMConstAllOnes(elem));
        LLVMValueRef min = splat(t, LLVMConstInt(elem, 1ull << (bits - 1), 0));
        LLVMValueRef overflow = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, d, minus_one, ""),
                                             LLVMBuildICmp(b, LLVMIntEQ, x, min, ""), "");
        bad = LLVMBuildOr(b, bad, overflow, "");
    }
    LLVMSetOperand(div, 1, LLVMBuildSelect(b, bad, one, d, "safe.divisor"));
}

void lanes_make_division_safe(LLVMValueRef fn)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            if (op == LLVMSDiv || op == LLVMUDiv || op == LLVMSRem || op == LLVMURem)
                make_safe(b, i);
        }
    LLVMDisposeBuilder(b);
}
