/* SPDX-License-Identifier: MIT */
/*
 * LLVM 19's x86 code generation bugs that vectorized kernels meet, and the
 * rewrites that keep them away, run on the optimized module just before
 * code generation (launcher.c). Each entry: what LLVM does, where Lanes
 * met it, the test that fails without the rewrite, and how to see whether
 * a newer LLVM still needs it (take the test's IR, drop the rewrite, run
 * llc with -mcpu=znver4 or another AVX-512 CPU):
 *
 * - rewrite_mask_shuffle: a shuffle of a <32 x i1> mask with constant
 *   lanes (O3's form of `mask & <16 x true, 16 x false>`, a half-full
 *   sub-group's entry mask at W = 32) becomes a zero-extension of the low
 *   half (`kmovw %k, %k`) that the register coalescer deletes as a copy:
 *   the high lanes stay on. Test: golden.mask_shuffle (its kernel's IR
 *   with LANES_DUMP=final; right at -O0, with the fast register allocator
 *   or with -join-liveintervals=false).
 * - drop_redundant_conjunct: chains of <32 x i1> lane masks where one
 *   operand of an `and` (or `select c, a, false`) implies the other, beside
 *   a masked gather of half the lanes, send the DAG combiner into an
 *   endless loop (the source fuzzer's finding at W = 32). Test:
 *   codegen_bugs (redundant_masks_compile, the reduced IR; llc-19 loops).
 * - load_mask_through_memory: a lane mask made from an integer (`bitcast
 *   i8 %x to <8 x i1>`) that logic operations combine: the combiner moves
 *   the logic between integer and mask registers without end (LLVM issue
 *   123333, fixed in LLVM 20; difftest's seed 145 at W = 8). Test:
 *   codegen_bugs (masks_from_bytes_compile; llc-19 loops).
 *
 * - constant_off_chain: the DAG combiner reassociates (x + C) + y as
 *   (x + y) + C when x + C has no other use (reassociateOpsCommutative, so
 *   that C may fold with another constant later): in a chain of dependent
 *   additions, a hash round's `a += K + f(b, c, d)`, the constant's
 *   addition moves onto the chain, one more cycle a step (hashcat's MD5:
 *   5 cycles a step instead of 4, 0.91x Debian's PoCL 3.1, whose LLVM 15
 *   kept those constants in registers). Such a C, an integer vector that
 *   fits a register, is taken through an empty inline asm in the
 *   function's entry block, which the combiner cannot see through: the
 *   code generator keeps it in a register, or reloads it from the stack as
 *   an operand, as any loop-invariant value. Test: golden.constant_off_chain
 *   (the asm in the final IR); its effect: `bench/clients hashcat`. To see
 *   whether a newer LLVM still needs it: llc the test's final IR without
 *   the asm and look for `vpaddd` of a broadcast constant right after the
 *   `vpternlogd` of each step.
 * - lower_canonicalize: llvm.canonicalize (`__builtin_canonicalize`,
 *   `__builtin_canonicalizef`, `__builtin_canonicalizef16`) has no x86
 *   instruction selection in LLVM 19 ("Cannot select: fcanonicalize"; the
 *   launch failed with the compiler's crash). The device keeps denormals,
 *   so canonicalizing only quiets a signalling NaN: `isnan(x) ? x with its
 *   quiet bit set : x`, on half, float, double and their vectors. Test:
 *   kernels.test_half (canonicalize); llc-19 -mcpu=znver4 on a call of
 *   llvm.canonicalize.f32 still fails.
 * - sleef_lanes (LANES_LLVM19_SLEEF_LANES, a limit rather than a rewrite):
 *   SLEEF's vector functions are mapped at most 16 lanes wide
 *   (vectorize/vz_math.c; compiler/interleave.c keeps a kernel that calls
 *   them within 16 lanes). With them mapped at W = 32, a kernel in masked
 *   code (a partial sub-group) can keep LLVM 19's instruction selection
 *   busy for minutes, even at -O0 (the DAG combiner in computeKnownBits and
 *   SimplifyDemandedBits; e.g. one double remquo with 16 of 32 lanes
 *   active). Test: kernels.test_math_double.w32 (its time limit); to see
 *   whether a newer LLVM still needs it, raise the limit and build that
 *   suite with LANES_WIDTH=32.
 */
#include "workarounds.h"

#include "host.h"

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/*
 * The constant bit of a mask shuffle's constant operand `c` at `index`
 * (poison and undef elements read as false, which they may be).
 */
static bool const_bit(LLVMValueRef c, unsigned index)
{
    LLVMValueRef e = LLVMGetAggregateElement(c, index);
    return e && LLVMIsAConstantInt(e) && LLVMConstIntGetZExtValue(e) != 0;
}

/*
 * Rewrites `s`, a shuffle of <N x i1> whose every lane is either the same
 * lane of a variable operand or a constant, as (x & keep) | set. Returns
 * false when `s` is of another form.
 */
static bool rewrite_mask_shuffle(LLVMBuilderRef b, LLVMValueRef s)
{
    LLVMTypeRef t = LLVMTypeOf(s);
    LLVMValueRef ops[2] = {LLVMGetOperand(s, 0), LLVMGetOperand(s, 1)};
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind ||
        LLVMGetTypeKind(LLVMGetElementType(t)) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(LLVMGetElementType(t)) != 1 || LLVMTypeOf(ops[0]) != t)
        return false;
    unsigned n = LLVMGetVectorSize(t);
    for (unsigned var = 0; var < 2; var++) {
        LLVMValueRef x = ops[var], c = ops[1 - var];
        if (LLVMIsConstant(x) || !LLVMIsConstant(c))
            continue;
        LLVMValueRef keep[n], set[n];
        LLVMTypeRef i1 = LLVMGetElementType(t);
        bool ok = true;
        for (unsigned i = 0; i < n && ok; i++) {
            int m = LLVMGetMaskValue(s, i);
            bool from_x = m >= 0 && (unsigned)m == i + var * n;
            bool from_c = m < 0 || (unsigned)m / n == 1 - var;
            ok = from_x || from_c;
            keep[i] = LLVMConstInt(i1, from_x, 0);
            set[i] = LLVMConstInt(i1, !from_x && m >= 0 && const_bit(c, (unsigned)m % n), 0);
        }
        if (!ok)
            continue;
        LLVMPositionBuilderBefore(b, s);
        LLVMValueRef r = LLVMBuildAnd(b, x, LLVMConstVector(keep, n), "");
        r = LLVMBuildOr(b, r, LLVMConstVector(set, n), "");
        LLVMReplaceAllUsesWith(s, r);
        LLVMInstructionEraseFromParent(s);
        return true;
    }
    return false;
}

/* Whether `v` is a vector of i1. */
static bool is_mask(LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind &&
           LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMIntegerTypeKind &&
           LLVMGetIntTypeWidth(LLVMGetElementType(t)) == 1;
}

/* The operands of `v` as a conjunction of masks: an `and`, or `select c, a, false`. */
static bool conjunction(LLVMValueRef v, LLVMValueRef *a, LLVMValueRef *c)
{
    if (!LLVMIsAInstruction(v) || !is_mask(v))
        return false;
    LLVMOpcode op = LLVMGetInstructionOpcode(v);
    if (op == LLVMAnd) {
        *a = LLVMGetOperand(v, 0), *c = LLVMGetOperand(v, 1);
        return true;
    }
    if (op == LLVMSelect && LLVMIsNull(LLVMGetOperand(v, 2))) {
        *a = LLVMGetOperand(v, 0), *c = LLVMGetOperand(v, 1);
        return true;
    }
    return false;
}

/* Whether mask `x` is one of the conjuncts of `v` (`v` implies `x`), looking `depth` deep. */
static bool implies(LLVMValueRef v, LLVMValueRef x, unsigned depth)
{
    LLVMValueRef a, c;
    if (v == x)
        return true;
    return depth && conjunction(v, &a, &c) &&
           (implies(a, x, depth - 1) || implies(c, x, depth - 1));
}

/*
 * A mask conjunction one of whose operands the other implies is that
 * other operand: `(m & k & n) & m` is `m & k & n`. Such redundant chains
 * of <32 x i1> lane masks (the vectorizer's masks of nested branches, as
 * selects, after O3) send LLVM 19's x86 DAG combiner into an endless loop
 * beside a masked gather of half the lanes (the source fuzzer's finding
 * at W = 32 with AVX-512); without the redundancy it compiles.
 */
static bool drop_redundant_conjunct(LLVMValueRef i)
{
    LLVMValueRef a, c;
    if (!conjunction(i, &a, &c))
        return false;
    LLVMValueRef same = implies(a, c, 8) ? a : implies(c, a, 8) ? c : NULL;
    if (!same)
        return false;
    LLVMReplaceAllUsesWith(i, same);
    LLVMInstructionEraseFromParent(i);
    return true;
}

/* Whether an and, or, xor or select of lane masks uses `v`. */
static bool used_in_mask_logic(LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user) || !is_mask(user))
            continue;
        LLVMOpcode op = LLVMGetInstructionOpcode(user);
        if (op == LLVMAnd || op == LLVMOr || op == LLVMXor || op == LLVMSelect)
            return true;
    }
    return false;
}

/*
 * A lane mask made from an integer (`bitcast i8 %x to <8 x i1>`) that
 * logic operations combine: with AVX-512, LLVM 19's x86 DAG combiner can
 * move that logic between the integer and the mask registers and back
 * without end (LLVM's issue 123333, fixed in LLVM 20; difftest's seed
 * 145 at W = 8 with its atomics in blocks of their own: a barrier kernel
 * whose masks come back from the coroutine frame as bytes of a wider
 * load). The integer goes through a stack slot instead, stored and loaded
 * as the mask (volatile, so that the combiner cannot forward the store
 * into a bitcast again): a byte store and a kmov load, in code that was
 * moving masks through integers anyway. `slots` holds one slot per
 * width, made at the function's entry when first needed.
 */
static bool load_mask_through_memory(LLVMBuilderRef b, LLVMValueRef i, LLVMValueRef slots[65])
{
    if (LLVMGetInstructionOpcode(i) != LLVMBitCast || !is_mask(i) || !used_in_mask_logic(i))
        return false;
    LLVMValueRef x = LLVMGetOperand(i, 0);
    LLVMTypeRef t = LLVMTypeOf(x);
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) > 64)
        return false;
    unsigned n = LLVMGetIntTypeWidth(t);
    if (!slots[n]) {
        LLVMBasicBlockRef entry =
            LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)));
        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
        slots[n] = LLVMBuildAlloca(b, t, "lanes.mask.slot");
    }
    LLVMPositionBuilderBefore(b, i);
    LLVMSetVolatile(LLVMBuildStore(b, x, slots[n]), 1);
    LLVMValueRef mask = LLVMBuildLoad2(b, LLVMTypeOf(i), slots[n], "");
    LLVMSetVolatile(mask, 1);
    LLVMReplaceAllUsesWith(i, mask);
    LLVMInstructionEraseFromParent(i);
    return true;
}

/* Whether `t` is an integer vector of one 128-, 256- or 512-bit register of the host's. */
static bool register_vector(LLVMTypeRef t)
{
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind ||
        LLVMGetTypeKind(LLVMGetElementType(t)) != LLVMIntegerTypeKind)
        return false;
    unsigned bits = LLVMGetVectorSize(t) * LLVMGetIntTypeWidth(LLVMGetElementType(t));
    return (bits == 128 || bits == 256 || bits == 512) && bits <= 8 * lanes_host()->vector_bytes;
}

/* The constant operand of `add`, an integer vector add, or NULL. */
static LLVMValueRef added_constant(LLVMValueRef add)
{
    for (unsigned k = 0; k < 2; k++) {
        LLVMValueRef c = LLVMGetOperand(add, k);
        if (LLVMIsConstant(c) && !LLVMIsConstant(LLVMGetOperand(add, 1 - k)))
            return c;
    }
    return NULL;
}

/* Keeps the constants of f's `(x + C) + y` off the chain (constant_off_chain above). */
static void constants_off_chains(LLVMBuilderRef b, LLVMValueRef f)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
    if (!entry)
        return;
    LLVMValueRef at = LLVMGetFirstInstruction(entry);
    while (at && (LLVMIsAAllocaInst(at) || LLVMIsAPHINode(at)))
        at = LLVMGetNextInstruction(at);
    enum { MOST = 256 }; /* distinct constants taken out, at most */
    LLVMValueRef constants[MOST], opaque[MOST];
    unsigned n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (LLVMGetInstructionOpcode(i) != LLVMAdd || !register_vector(LLVMTypeOf(i)))
                continue;
            for (unsigned k = 0; k < 2; k++) {
                LLVMValueRef inner = LLVMGetOperand(i, k);
                if (!LLVMIsAInstruction(inner) || LLVMGetInstructionOpcode(inner) != LLVMAdd ||
                    LLVMIsConstant(LLVMGetOperand(i, 1 - k)))
                    continue;
                LLVMUseRef u = LLVMGetFirstUse(inner);
                LLVMValueRef c = added_constant(inner);
                if (!c || !u || LLVMGetNextUse(u))
                    continue;
                unsigned j = 0;
                while (j < n && constants[j] != c)
                    j++;
                if (j == n) {
                    if (n == MOST)
                        continue;
                    LLVMTypeRef t = LLVMTypeOf(c);
                    LLVMTypeRef ft = LLVMFunctionType(t, &t, 1, 0);
                    LLVMValueRef asm_ =
                        LLVMGetInlineAsm(ft, "", 0, "=v,0", 4, 0, 0, LLVMInlineAsmDialectATT, 0);
                    LLVMPositionBuilderBefore(b, at);
                    constants[n] = c;
                    opaque[n++] = LLVMBuildCall2(b, ft, asm_, &c, 1, "");
                }
                LLVMSetOperand(inner, LLVMGetOperand(inner, 0) == c ? 0 : 1, opaque[j]);
            }
        }
}

/* lower_canonicalize above: `i`, a call of llvm.canonicalize, as a select that quiets a NaN. */
static void lower_canonicalize(LLVMBuilderRef b, LLVMValueRef i, unsigned canonicalize)
{
    LLVMValueRef callee = LLVMGetCalledValue(i);
    if (!callee || !LLVMIsAFunction(callee) || LLVMGetIntrinsicID(callee) != canonicalize)
        return;
    LLVMTypeRef t = LLVMTypeOf(i), e = t;
    unsigned lanes = 0;
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
        lanes = LLVMGetVectorSize(t), e = LLVMGetElementType(t);
    unsigned bits, quiet;
    switch (LLVMGetTypeKind(e)) {
    case LLVMHalfTypeKind: bits = 16, quiet = 9; break;
    case LLVMFloatTypeKind: bits = 32, quiet = 22; break;
    case LLVMDoubleTypeKind: bits = 64, quiet = 51; break;
    default: return; /* not made by OpenCL C */
    }
    LLVMTypeRef it = LLVMIntTypeInContext(LLVMGetTypeContext(t), bits);
    LLVMValueRef q = LLVMConstInt(it, 1ull << quiet, false);
    if (lanes) {
        it = LLVMVectorType(it, lanes);
        LLVMValueRef *all = malloc(lanes * sizeof *all);
        if (!all)
            return;
        for (unsigned l = 0; l < lanes; l++)
            all[l] = q;
        q = LLVMConstVector(all, lanes);
        free(all);
    }
    LLVMPositionBuilderBefore(b, i);
    LLVMValueRef x = LLVMGetOperand(i, 0);
    LLVMValueRef nan = LLVMBuildFCmp(b, LLVMRealUNO, x, x, "");
    LLVMValueRef quieted =
        LLVMBuildBitCast(b, LLVMBuildOr(b, LLVMBuildBitCast(b, x, it, ""), q, ""), t, "");
    LLVMValueRef r = LLVMBuildSelect(b, nan, quieted, x, "");
    LLVMReplaceAllUsesWith(i, r);
    LLVMInstructionEraseFromParent(i);
}

void lanes_llvm19_workarounds(LLVMModuleRef m)
{
    unsigned canonicalize = LLVMLookupIntrinsicID("llvm.canonicalize", 17);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        LLVMValueRef slots[65] = {0};
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                if (LLVMGetInstructionOpcode(i) == LLVMShuffleVector)
                    rewrite_mask_shuffle(b, i);
                else if (LLVMGetInstructionOpcode(i) == LLVMCall)
                    lower_canonicalize(b, i, canonicalize);
                else if (!load_mask_through_memory(b, i, slots))
                    drop_redundant_conjunct(i);
            }
        if (!LLVMIsDeclaration(f))
            constants_off_chains(b, f);
    }
    LLVMDisposeBuilder(b);
}
