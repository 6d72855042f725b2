/* SPDX-License-Identifier: MIT */
/*
 * Image formats folded into a launcher (compiler/abi.h, struct
 * lanes_image_format_spec). The image built-ins (builtins/image/image.cl)
 * switch on the channel order, channel type, channel count and texel size
 * of their image's descriptor; a launcher compiled for the formats of its
 * launch's images reads none of them: each load of one of those fields
 * through an image argument becomes its constant, and the clean-up (or O3)
 * deletes the other formats' code. Runs on the inlined kernel, before the
 * clean-up: an argument may still go through the slot Clang stores it in.
 */
#include "abi.h"
#include "passes.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stddef.h>

/* The constant byte offset a GEP adds, or false when it is not constant. */
static bool gep_offset(LLVMTargetDataRef td, LLVMValueRef gep, long long *offset)
{
    LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
    unsigned n = (unsigned)LLVMGetNumOperands(gep);
    long long off = 0;
    for (unsigned k = 1; k < n; k++) {
        LLVMValueRef idx = LLVMGetOperand(gep, k);
        if (!LLVMIsAConstantInt(idx))
            return false;
        long long i = LLVMConstIntGetSExtValue(idx);
        if (k == 1) {
            off += i * (long long)LLVMABISizeOfType(td, t);
        } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            off += (long long)LLVMOffsetOfElement(td, t, (unsigned)i);
            t = LLVMStructGetTypeAtIndex(t, (unsigned)i);
        } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
            t = LLVMGetElementType(t);
            off += i * (long long)LLVMABISizeOfType(td, t);
        } else {
            return false;
        }
    }
    *offset = off;
    return true;
}

/* The value of the descriptor field at `offset` of width `bits`, or -1 for another field. */
static long long field(const struct lanes_image_format_spec *f, long long offset, unsigned bits)
{
    if (bits != 32)
        return -1;
    switch (offset) {
    case offsetof(struct lanes_image_abi, elem_size): return f->elem_size;
    case offsetof(struct lanes_image_abi, order): return f->order;
    case offsetof(struct lanes_image_abi, type): return f->type;
    case offsetof(struct lanes_image_abi, channels): return f->channels;
    }
    return -1;
}

/* True when every store to alloca `slot` stores `v` (and nothing else takes its address). */
static bool holds_only(LLVMValueRef slot, LLVMValueRef v)
{
    for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsALoadInst(user))
            continue;
        if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot &&
            LLVMGetOperand(user, 0) == v)
            continue;
        if (LLVMIsACallInst(user) && LLVMGetIntrinsicID(LLVMGetCalledValue(user)))
            continue; /* lifetime markers */
        return false;
    }
    return true;
}

/* Replaces the loads of format fields reached from `p` (at `offset` from the descriptor). */
static unsigned fold_uses(LLVMTargetDataRef td, LLVMValueRef p, long long offset,
                          const struct lanes_image_format_spec *f, int depth)
{
    if (depth > 8)
        return 0;
    unsigned folded = 0;
    LLVMUseRef next;
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = next) {
        next = LLVMGetNextUse(u);
        LLVMValueRef user = LLVMGetUser(u);
        long long off;
        if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == p &&
            gep_offset(td, user, &off)) {
            folded += fold_uses(td, user, offset + off, f, depth + 1);
        } else if (LLVMIsAAddrSpaceCastInst(user) || LLVMIsABitCastInst(user)) {
            folded += fold_uses(td, user, offset, f, depth + 1);
        } else if (LLVMIsALoadInst(user) && !LLVMGetVolatile(user)) {
            LLVMTypeRef t = LLVMTypeOf(user);
            long long v = LLVMGetTypeKind(t) == LLVMIntegerTypeKind
                              ? field(f, offset, LLVMGetIntTypeWidth(t))
                              : -1;
            if (v >= 0) {
                LLVMReplaceAllUsesWith(user, LLVMConstInt(t, (unsigned long long)v, 0));
                LLVMInstructionEraseFromParent(user);
                folded++;
            }
        } else if (LLVMIsAStoreInst(user) && offset == 0 && LLVMGetOperand(user, 0) == p) {
            /* The argument's slot (Clang's code before SROA): follow its loads. */
            LLVMValueRef slot = LLVMGetOperand(user, 1);
            if (!LLVMIsAAllocaInst(slot) || !holds_only(slot, p))
                continue;
            for (LLVMUseRef s = LLVMGetFirstUse(slot); s; s = LLVMGetNextUse(s)) {
                LLVMValueRef load = LLVMGetUser(s);
                if (LLVMIsALoadInst(load) && LLVMTypeOf(load) == LLVMTypeOf(p))
                    folded += fold_uses(td, load, 0, f, depth + 1);
            }
        }
    }
    return folded;
}

unsigned lanes_fold_image_formats(LLVMValueRef fn, const struct lanes_specialization *spec)
{
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(fn));
    unsigned n = LLVMCountParams(fn), folded = 0;
    for (unsigned i = 0; i < n && i < LANES_SPEC_IMAGE_ARGS; i++) {
        const struct lanes_image_format_spec *f = &spec->image_formats[i];
        LLVMValueRef p = LLVMGetParam(fn, i);
        if (f->order && LLVMGetTypeKind(LLVMTypeOf(p)) == LLVMPointerTypeKind)
            folded += fold_uses(td, p, 0, f, 0);
    }
    return folded;
}
