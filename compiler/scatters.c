/* SPDX-License-Identifier: MIT */
/*
 * Stream compaction's stores, rewritten after the last optimization: a
 * scatter whose active lanes store one after another in lane order (each
 * at the base plus its rank among them, as sub_group_ballot_exclusive_scan
 * gives it) becomes a compression into a register and a store of its low
 * lanes, which AVX-512's vcompressps does in one instruction.
 */
#include "scatters.h"

#include "host.h"
#include "ir.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * The scalar every lane of vector `v` holds (an insertelement at 0 splatted
 * by a zero shuffle, or a constant), or NULL.
 */
static LLVMValueRef splat_of(LLVMValueRef v)
{
    if (LLVMIsAConstantDataVector(v) || LLVMIsAConstantVector(v) ||
        LLVMIsAConstantAggregateZero(v)) {
        unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
        LLVMValueRef e = LLVMGetAggregateElement(v, 0);
        for (unsigned k = 1; k < n && e; k++)
            if (LLVMGetAggregateElement(v, k) != e)
                return NULL;
        return e;
    }
    if (!LLVMIsAShuffleVectorInst(v))
        return NULL;
    for (unsigned k = 0; k < LLVMGetNumMaskElements(v); k++)
        if (LLVMGetMaskValue(v, k) != 0)
            return NULL;
    LLVMValueRef ins = LLVMGetOperand(v, 0), idx;
    if (!LLVMIsAInsertElementInst(ins) || !LLVMIsAConstantInt(idx = LLVMGetOperand(ins, 2)) ||
        LLVMConstIntGetZExtValue(idx) != 0)
        return NULL;
    return LLVMGetOperand(ins, 1);
}

/*
 * Whether `r` is each lane's rank among the lanes of mask `m`: the number
 * of m's lanes below it, `ctpop(splat(zext(bitcast m)) & <0, 1, 3, 7, ...>)`
 * (sub_group_ballot_exclusive_scan of a ballot of m, as O3 leaves it).
 */
static bool rank_in(LLVMValueRef r, LLVMValueRef m)
{
    size_t len;
    const char *name = lanes_called_name(r, &len);
    if (!name || len < 10 || memcmp(name, "llvm.ctpop", 10) != 0)
        return false;
    LLVMValueRef a = LLVMGetOperand(r, 0);
    if (!LLVMIsAInstruction(a) || LLVMGetInstructionOpcode(a) != LLVMAnd)
        return false;
    unsigned w = LLVMGetVectorSize(LLVMTypeOf(m)),
             bits = LLVMGetIntTypeWidth(LLVMGetElementType(LLVMTypeOf(a)));
    for (unsigned side = 0; side < 2; side++) {
        LLVMValueRef c = LLVMGetOperand(a, side), x = splat_of(LLVMGetOperand(a, 1 - side));
        if (!x || !LLVMIsConstant(c) || bits < w)
            continue;
        bool below = true;
        for (unsigned l = 0; l < w && below; l++) {
            LLVMValueRef e = LLVMGetAggregateElement(c, l);
            below = e && LLVMIsAConstantInt(e) &&
                    LLVMConstIntGetZExtValue(e) == (l ? ~0ull >> (64 - l) : 0);
        }
        if (below && LLVMIsAZExtInst(x))
            x = LLVMGetOperand(x, 0);
        if (below && LLVMIsABitCastInst(x) && LLVMGetOperand(x, 0) == m)
            return true;
    }
    return false;
}

/*
 * Stores the lanes of `val` that mask `m` has on, in lane order, one after
 * another from `p`: compressed into the low lanes of a register
 * (vcompressps), then stored with a mask of as many low lanes. Not
 * llvm.masked.compressstore: LLVM 19 makes it vcompressps to memory,
 * which Zen 4 runs slower than the scatter it replaces (2.6 GB/s against
 * 5.2 and 20 for this form, compacting 16 MiB of floats in C).
 */
static void compress_store(LLVMModuleRef mod, LLVMBuilderRef b, LLVMValueRef val, LLVMValueRef p,
                           LLVMValueRef m, unsigned align)
{
    LLVMTypeRef vt = LLVMTypeOf(val), mt = LLVMTypeOf(m);
    unsigned w = LLVMGetVectorSize(vt);
    LLVMTypeRef bits = LLVMIntTypeInContext(LLVMGetModuleContext(mod), w);
    LLVMValueRef args[3] = {val, LLVMGetPoison(vt), m};
    LLVMValueRef packed =
        lanes_build_intrinsic(mod, b, "llvm.x86.avx512.mask.compress", vt, args, 3);
    LLVMValueRef count = LLVMBuildBitCast(b, m, bits, "");
    count = lanes_build_intrinsic(mod, b, "llvm.ctpop", bits, &count, 1);
    /* The low `count` lanes: ~(-1 << count), all of them when count is w (the shift is poison). */
    LLVMValueRef ones = LLVMConstAllOnes(bits);
    LLVMValueRef low = LLVMBuildNot(b, LLVMBuildShl(b, ones, count, ""), "");
    low = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, count, LLVMConstInt(bits, w, 0), ""), ones,
                          low, "");
    LLVMTypeRef over[2] = {vt, LLVMTypeOf(p)};
    const char *name = "llvm.masked.store";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef store[4] = {
        packed, p, LLVMConstInt(LLVMInt32TypeInContext(LLVMGetModuleContext(mod)), align, 0),
        LLVMBuildBitCast(b, low, mt, "")};
    LLVMBuildCall2(b, LLVMIntrinsicGetType(LLVMGetModuleContext(mod), id, over, 2),
                   LLVMGetIntrinsicDeclaration(mod, id, over, 2), store, 4, "");
}

/*
 * Rewrites scatter `i` as compressed stores when its lanes store one after
 * another in lane order: to `p + (first + the lane's rank among the lanes
 * of the scatter's own mask)`, sub_group_ballot_exclusive_scan's address
 * for a store under the ballot's condition (bench_scan's compaction). An
 * index computed in fewer bits than the pointer's may wrap round past its
 * largest value: the lanes that do then store from p on, compressed apart.
 * Returns false when `i` is of another form.
 */
static bool compress_scatter(LLVMModuleRef mod, LLVMTargetDataRef td, LLVMBuilderRef b,
                             LLVMValueRef i)
{
    size_t len;
    const char *name = lanes_called_name(i, &len);
    if (!name || len < 19 || memcmp(name, "llvm.masked.scatter", 19) != 0)
        return false;
    LLVMValueRef val = LLVMGetOperand(i, 0), ptrs = LLVMGetOperand(i, 1), m = LLVMGetOperand(i, 3);
    LLVMTypeRef e = LLVMGetElementType(LLVMTypeOf(val));
    LLVMTypeKind kind = LLVMGetTypeKind(e);
    unsigned long long size = LLVMABISizeOfType(td, e),
                       bytes = size * LLVMGetVectorSize(LLVMTypeOf(val));
    /* vcompressps/pd and vpcompressd/q: 32- and 64-bit lanes, 128 to 512 bits in all. */
    if ((kind != LLVMFloatTypeKind && kind != LLVMDoubleTypeKind && kind != LLVMIntegerTypeKind) ||
        (size != 4 && size != 8) || LLVMStoreSizeOfType(td, e) != size ||
        (bytes != 16 && bytes != 32 && bytes != 64))
        return false;
    if (!LLVMIsAGetElementPtrInst(ptrs) || LLVMGetNumOperands(ptrs) != 2 ||
        LLVMABISizeOfType(td, LLVMGetGEPSourceElementType(ptrs)) != size)
        return false;
    LLVMValueRef p = LLVMGetOperand(ptrs, 0), idx = LLVMGetOperand(ptrs, 1);
    LLVMTypeRef it = LLVMTypeOf(idx);
    if ((LLVMGetTypeKind(LLVMTypeOf(p)) == LLVMVectorTypeKind && !(p = splat_of(p))) ||
        LLVMGetTypeKind(it) != LLVMVectorTypeKind ||
        LLVMGetIntTypeWidth(LLVMGetElementType(it)) != 64)
        return false;
    bool narrow = LLVMIsAZExtInst(idx) != NULL;
    LLVMValueRef j = narrow ? LLVMGetOperand(idx, 0) : idx, firsts = NULL, first = NULL;
    for (unsigned side = 0;
         side < 2 && LLVMIsAInstruction(j) && LLVMGetInstructionOpcode(j) == LLVMAdd && !firsts;
         side++)
        if (splat_of(LLVMGetOperand(j, side)) && rank_in(LLVMGetOperand(j, 1 - side), m))
            firsts = LLVMGetOperand(j, side);
    first = firsts ? splat_of(firsts) : NULL;
    if (!first) {
        if (!rank_in(j, m))
            return false;
        first = LLVMConstNull(LLVMGetElementType(LLVMTypeOf(j)));
    }
    LLVMPositionBuilderBefore(b, i);
    LLVMValueRef off =
        narrow ? LLVMBuildZExt(b, first, LLVMInt64TypeInContext(LLVMGetModuleContext(mod)), "")
               : first;
    LLVMValueRef at = LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(ptrs), p, &off, 1, "");
    unsigned align = (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(i, 2));
    if (narrow && firsts && !LLVMGetNUW(j)) {
        LLVMValueRef wrapped = LLVMBuildICmp(b, LLVMIntULT, j, firsts, "");
        compress_store(mod, b, val, at, LLVMBuildAnd(b, m, LLVMBuildNot(b, wrapped, ""), ""),
                       align);
        compress_store(mod, b, val, p, LLVMBuildAnd(b, m, wrapped, ""), align);
    } else {
        compress_store(mod, b, val, at, m, align);
    }
    LLVMInstructionEraseFromParent(i);
    return true;
}

void lanes_compress_scatters(LLVMModuleRef m)
{
    /* The functions' target (lanes_host_set_attributes) has vcompressps, or no rewrite. */
    if (lanes_host()->isa != LANES_ISA_AVX512)
        return;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
                next = LLVMGetNextInstruction(i);
                compress_scatter(m, td, b, i);
            }
    LLVMDisposeBuilder(b);
}
