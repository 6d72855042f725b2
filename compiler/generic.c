/* SPDX-License-Identifier: MIT */
/*
 * The address space qualifier functions of the generic address space
 * (OpenCL C 3.0 §6.15.10): to_global, to_local, to_private and get_fence,
 * lowered at specialization to tests of the address. Every address space
 * is the one flat host address space, so a generic pointer's space is told
 * by where it points:
 *   - local: inside the work-group's __local memory,
 *     [wg->local_mem, wg->local_mem + wg->local_mem_size);
 *   - private: inside the work-item's own stack frames, [stack pointer -
 *     red zone, wg->stack_top) (everything is inlined into the sub-group function, so
 *     the allocas are in the frame of the function making the test, or of
 *     its caller), or, in a coroutine kernel, inside the sub-group's
 *     coroutine frame [handle, handle + llvm.coro.size), where LLVM's coro
 *     passes move the privates that live across a barrier;
 *   - global: anything else (buffers, SVM, program-scope variables).
 * The test reads wg and the stack pointer only: launcher code holds no
 * address, so it is cached on disk as it is. An alloca whose address is
 * tested escapes (ptrtoint), so the optimizer cannot replace it by the
 * constant it was copied from.
 */
#include "passes.h"

#include "abi.h"
#include "ir.h"
#include "names.h"

#include <llvm-c/Core.h>
#include <string.h>

/* The x86-64 System V ABI's red zone below the stack pointer. */
#define RED_ZONE 128

/* cl_mem_fence_flags, as opencl-c-base.h defines them. */
#define FENCE_LOCAL 1u
#define FENCE_GLOBAL 2u

struct lowering {
    LLVMModuleRef m;
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTypeRef i64, ptr;
    LLVMValueRef wg;
    LLVMValueRef frame; /* the coroutine's handle (its frame), or NULL */
};

static LLVMValueRef intrinsic(struct lowering *l, const char *name, LLVMTypeRef overload)
{
    return lanes_build_intrinsic(l->m, l->b, name, overload, NULL, 0);
}

/* wg-><field at offset> as `type`. */
static LLVMValueRef field(struct lowering *l, unsigned offset, LLVMTypeRef type)
{
    return lanes_build_invariant_load(l->b, l->wg, offset, type, "");
}

/* base <= addr < base + size, as one unsigned comparison. */
static LLVMValueRef inside(struct lowering *l, LLVMValueRef addr, LLVMValueRef base,
                           LLVMValueRef size)
{
    LLVMValueRef off = LLVMBuildSub(l->b, addr, base, "");
    return LLVMBuildICmp(l->b, LLVMIntULT, off, size, "");
}

static LLVMValueRef is_local(struct lowering *l, LLVMValueRef addr)
{
    LLVMValueRef base = LLVMBuildPtrToInt(l->b, field(l, LANES_WG_LOCAL_MEM, l->ptr), l->i64, "");
    return inside(l, addr, base, field(l, LANES_WG_LOCAL_MEM_SIZE, l->i64));
}

static LLVMValueRef is_private(struct lowering *l, LLVMValueRef addr)
{
    /* A function that calls none keeps its locals in the red zone, 128 bytes below it. */
    LLVMValueRef sp = LLVMBuildPtrToInt(l->b, intrinsic(l, "llvm.stacksave", l->ptr), l->i64, "");
    sp = LLVMBuildSub(l->b, sp, LLVMConstInt(l->i64, RED_ZONE, 0), "");
    LLVMValueRef top = LLVMBuildPtrToInt(l->b, field(l, LANES_WG_STACK_TOP, l->ptr), l->i64, "");
    LLVMValueRef v = inside(l, addr, sp, LLVMBuildSub(l->b, top, sp, ""));
    if (l->frame) {
        LLVMValueRef base = LLVMBuildPtrToInt(l->b, l->frame, l->i64, "");
        LLVMValueRef size = intrinsic(l, "llvm.coro.size", l->i64);
        v = LLVMBuildOr(l->b, v, inside(l, addr, base, size), "");
    }
    return v;
}

static LLVMValueRef lower(struct lowering *l, enum lanes_name q, LLVMValueRef call)
{
    LLVMValueRef p = LLVMGetOperand(call, 0);
    LLVMValueRef addr = LLVMBuildPtrToInt(l->b, p, l->i64, "");
    LLVMTypeRef t = LLVMTypeOf(call);
    switch (q) {
    case LANES_NAME_TO_GLOBAL: {
        LLVMValueRef other = LLVMBuildOr(l->b, is_local(l, addr), is_private(l, addr), "");
        return LLVMBuildSelect(l->b, other, LLVMConstNull(t),
                               LLVMBuildAddrSpaceCast(l->b, p, t, ""), "to_global");
    }
    case LANES_NAME_TO_LOCAL:
        return LLVMBuildSelect(l->b, is_local(l, addr), LLVMBuildAddrSpaceCast(l->b, p, t, ""),
                               LLVMConstNull(t), "to_local");
    case LANES_NAME_TO_PRIVATE:
        return LLVMBuildSelect(l->b, is_private(l, addr), LLVMBuildAddrSpaceCast(l->b, p, t, ""),
                               LLVMConstNull(t), "to_private");
    case LANES_NAME_GET_FENCE:
        /*
         * "A valid memory fence value for ptr": a private pointer gets the
         * global fence, a value every fence accepts (0 is none for mem_fence).
         */
        return LLVMBuildSelect(l->b, is_local(l, addr), LLVMConstInt(t, FENCE_LOCAL, 0),
                               LLVMConstInt(t, FENCE_GLOBAL, 0), "fence");
    default: break; /* not one of the generic address space's functions */
    }
    return NULL;
}

static LLVMValueRef lower_call(LLVMValueRef call, const char *callee, void *ctx)
{
    enum lanes_name q = lanes_name_lookup(callee, strlen(callee));
    return q >= LANES_NAME_TO_GLOBAL && q <= LANES_NAME_GET_FENCE ? lower(ctx, q, call) : NULL;
}

/* The handle llvm.coro.begin returns in coroutine `sg` (in its entry block). */
static LLVMValueRef coroutine_handle(LLVMValueRef sg)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(sg);
    for (LLVMValueRef i = LLVMGetFirstInstruction(entry); i; i = LLVMGetNextInstruction(i)) {
        size_t len;
        const char *callee = lanes_called_name(i, &len);
        if (callee && strcmp(callee, "llvm.coro.begin") == 0)
            return i;
    }
    return NULL;
}

void lanes_lower_generic(LLVMValueRef sg, bool coroutine)
{
    struct lowering l = {.m = LLVMGetGlobalParent(sg)};
    l.ctx = LLVMGetModuleContext(l.m);
    l.b = LLVMCreateBuilderInContext(l.ctx);
    l.i64 = LLVMInt64TypeInContext(l.ctx);
    l.ptr = LLVMPointerTypeInContext(l.ctx, 0);
    l.wg = lanes_sg_param(sg, LANES_SG_WG);
    l.frame = coroutine ? coroutine_handle(sg) : NULL;

    lanes_replace_calls(sg, l.b, lower_call, &l);
    LLVMDisposeBuilder(l.b);
}
