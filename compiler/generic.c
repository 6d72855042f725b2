/* SPDX-License-Identifier: MIT */
/*
 * The address space qualifier functions of the generic address space
 * (OpenCL C 3.0 §6.15.10): to_global, to_local, to_private and get_fence.
 *
 * When the pointer's origin is visible in the IR (a __local variable, an
 * alloca, a __global argument, through casts, GEPs and selects or phis that
 * agree), the answer is folded at compile time. Otherwise it is a test of
 * the address, in one flat host address space: every thread runs
 * work-groups with its __local memory in one range of the process and its
 * private memory (stack and coroutine frames) in another
 * (runtime/exec/wgmem.h), so
 *   - local:   wg->local_region <= addr < + wg->local_region_size,
 *   - private: wg->private_region <= addr < + wg->private_region_size,
 *   - global:  anything else (buffers, SVM, program-scope variables),
 * whichever work-group's memory, on whichever thread, the pointer points
 * into: a pointer one work-group wrote and another read is still __local
 * or private. The test reads wg only: launcher code holds no address, so
 * it is cached on disk as it is.
 *
 * Runs before the vectorizer, which widens the tests like any other code.
 */
#include "passes.h"

#include "abi.h"
#include "ir.h"
#include "names.h"

#include <llvm-c/Core.h>
#include <string.h>

/* cl_mem_fence_flags, as opencl-c-base.h defines them. */
#define FENCE_LOCAL 1u
#define FENCE_GLOBAL 2u

/* Address spaces of the frontend's map (compiler/frontend). */
enum { AS_GLOBAL = 1, AS_CONSTANT = 2, AS_LOCAL = 3 };

/*
 * Where a pointer points, as far as the IR shows: a lattice with ANY (no
 * constraint yet: a phi met again on its own cycle) above the three spaces
 * and UNKNOWN below them.
 */
enum space { ANY, PRIVATE, GLOBAL, LOCAL, UNKNOWN };

enum { MAX_DEPTH = 32 };

static enum space join(enum space a, enum space b)
{
    return a == ANY ? b : b == ANY || a == b ? a : UNKNOWN;
}

struct walk {
    LLVMValueRef wg;
    LLVMValueRef phis[MAX_DEPTH]; /* the phis being looked through */
    unsigned n;
};

/* The space of a pointer of address space `as` that the IR says no more about. */
static enum space by_type(unsigned as)
{
    return as == AS_GLOBAL || as == AS_CONSTANT ? GLOBAL : as == AS_LOCAL ? LOCAL : UNKNOWN;
}

/* The space of the memory a load of wg's field (the kernel's __local memory or its variables). */
static enum space wg_field(struct walk *w, LLVMValueRef load)
{
    LLVMValueRef at = LLVMGetOperand(load, 0);
    long long offset = 0;
    if (LLVMIsAGetElementPtrInst(at) && LLVMGetNumOperands(at) == 2 &&
        LLVMIsAConstantInt(LLVMGetOperand(at, 1)) &&
        LLVMGetTypeKind(LLVMGetGEPSourceElementType(at)) == LLVMIntegerTypeKind &&
        LLVMGetIntTypeWidth(LLVMGetGEPSourceElementType(at)) == 8) {
        offset = LLVMConstIntGetSExtValue(LLVMGetOperand(at, 1));
        at = LLVMGetOperand(at, 0);
    }
    if (at != w->wg)
        return UNKNOWN;
    return offset == LANES_WG_LOCAL_MEM ? LOCAL : offset == LANES_WG_GLOBALS ? GLOBAL : UNKNOWN;
}

/*
 * The memory `p` points into, from the object it is computed from. The
 * address space of p's type says nothing alone: the optimizer folds a
 * chain of casts (private -> local -> generic) into one from the first
 * space to the last, and the kernel's __local memory and variables are
 * addresses loaded from wg, in the private space.
 */
static enum space origin(struct walk *w, LLVMValueRef p, unsigned depth)
{
    LLVMTypeRef t = LLVMTypeOf(p);
    if (LLVMGetTypeKind(t) != LLVMPointerTypeKind || depth == MAX_DEPTH)
        return UNKNOWN;
    if (LLVMIsAConstantPointerNull(p))
        return GLOBAL; /* in no region: what the address test says of it */
    if (LLVMIsAAllocaInst(p))
        return PRIVATE;
    if (LLVMIsAArgument(p) || LLVMIsAGlobalVariable(p))
        return p == w->wg ? UNKNOWN : by_type(LLVMGetPointerAddressSpace(t));
    if (LLVMIsALoadInst(p))
        return wg_field(w, p);
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsAAddrSpaceCastInst(p) || LLVMIsABitCastInst(p))
        return origin(w, LLVMGetOperand(p, 0), depth + 1);
    if (LLVMIsAConstantExpr(p)) {
        LLVMOpcode op = LLVMGetConstOpcode(p);
        if (op == LLVMGetElementPtr || op == LLVMAddrSpaceCast || op == LLVMBitCast)
            return origin(w, LLVMGetOperand(p, 0), depth + 1);
        return UNKNOWN;
    }
    if (LLVMIsASelectInst(p))
        return join(origin(w, LLVMGetOperand(p, 1), depth + 1),
                    origin(w, LLVMGetOperand(p, 2), depth + 1));
    if (LLVMIsAPHINode(p)) {
        for (unsigned i = 0; i < w->n; i++)
            if (w->phis[i] == p)
                return ANY;
        if (w->n == MAX_DEPTH)
            return UNKNOWN;
        w->phis[w->n++] = p;
        enum space s = ANY;
        for (unsigned i = 0, n = LLVMCountIncoming(p); i < n && s != UNKNOWN; i++)
            s = join(s, origin(w, LLVMGetIncomingValue(p, i), depth + 1));
        w->n--;
        return s;
    }
    return UNKNOWN; /* loaded from memory, returned by a call, made from an integer */
}

struct lowering {
    LLVMModuleRef m;
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTypeRef i64, ptr;
    LLVMValueRef wg;
};

/* wg-><field at offset> as `type`. */
static LLVMValueRef field(struct lowering *l, unsigned offset, LLVMTypeRef type)
{
    return lanes_build_invariant_load(l->b, l->wg, offset, type, "");
}

/* addr inside the region at wg fields `base` and `size`, as one unsigned comparison. */
static LLVMValueRef inside(struct lowering *l, LLVMValueRef addr, unsigned base, unsigned size)
{
    LLVMValueRef start = LLVMBuildPtrToInt(l->b, field(l, base, l->ptr), l->i64, "");
    LLVMValueRef off = LLVMBuildSub(l->b, addr, start, "");
    return LLVMBuildICmp(l->b, LLVMIntULT, off, field(l, size, l->i64), "");
}

static LLVMValueRef is_local(struct lowering *l, LLVMValueRef addr)
{
    return inside(l, addr, LANES_WG_LOCAL_REGION, LANES_WG_LOCAL_REGION_SIZE);
}

static LLVMValueRef is_private(struct lowering *l, LLVMValueRef addr)
{
    return inside(l, addr, LANES_WG_PRIVATE_REGION, LANES_WG_PRIVATE_REGION_SIZE);
}

/* Whether `p` points into `want`: a constant when its origin `known` shows, else a test. */
static LLVMValueRef points_into(struct lowering *l, enum space known, LLVMValueRef p,
                                enum space want)
{
    if (known != UNKNOWN)
        return LLVMConstInt(LLVMInt1TypeInContext(l->ctx), known == want, 0);
    LLVMValueRef addr = LLVMBuildPtrToInt(l->b, p, l->i64, "");
    if (want == LOCAL)
        return is_local(l, addr);
    if (want == PRIVATE)
        return is_private(l, addr);
    return LLVMBuildNot(l->b, LLVMBuildOr(l->b, is_local(l, addr), is_private(l, addr), ""), "");
}

/* `p` as `t` when `in`, else NULL. */
static LLVMValueRef cast_if(struct lowering *l, LLVMValueRef in, LLVMValueRef p, LLVMTypeRef t,
                            const char *name)
{
    LLVMValueRef cast = LLVMBuildAddrSpaceCast(l->b, p, t, "");
    return LLVMBuildSelect(l->b, in, cast, LLVMConstNull(t), name);
}

static LLVMValueRef lower(struct lowering *l, enum lanes_name q, LLVMValueRef call)
{
    LLVMValueRef p = LLVMGetOperand(call, 0);
    LLVMTypeRef t = LLVMTypeOf(call);
    struct walk w = {.wg = l->wg};
    enum space s = origin(&w, p, 0);
    if (s == ANY)
        s = UNKNOWN;
    switch (q) {
    case LANES_NAME_TO_GLOBAL: return cast_if(l, points_into(l, s, p, GLOBAL), p, t, "to_global");
    case LANES_NAME_TO_LOCAL: return cast_if(l, points_into(l, s, p, LOCAL), p, t, "to_local");
    case LANES_NAME_TO_PRIVATE:
        return cast_if(l, points_into(l, s, p, PRIVATE), p, t, "to_private");
    case LANES_NAME_GET_FENCE:
        /*
         * "A valid memory fence value for ptr": a private pointer gets the
         * global fence, a value every fence accepts (0 is none for mem_fence).
         */
        return LLVMBuildSelect(l->b, points_into(l, s, p, LOCAL), LLVMConstInt(t, FENCE_LOCAL, 0),
                               LLVMConstInt(t, FENCE_GLOBAL, 0), "fence");
    default: return NULL; /* not one of the generic address space's functions */
    }
}

static bool is_query(const char *callee, size_t len)
{
    enum lanes_name q = lanes_name_lookup(callee, len);
    return q >= LANES_NAME_TO_GLOBAL && q <= LANES_NAME_GET_FENCE;
}

static LLVMValueRef lower_call(LLVMValueRef call, const char *callee, void *ctx)
{
    size_t len = strlen(callee);
    return is_query(callee, len) ? lower(ctx, lanes_name_lookup(callee, len), call) : NULL;
}

bool lanes_calls_generic(LLVMValueRef sg)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            size_t len;
            const char *callee = lanes_called_name(i, &len);
            if (callee && is_query(callee, len))
                return true;
        }
    return false;
}

void lanes_lower_generic(LLVMValueRef sg)
{
    struct lowering l = {.m = LLVMGetGlobalParent(sg)};
    l.ctx = LLVMGetModuleContext(l.m);
    l.b = LLVMCreateBuilderInContext(l.ctx);
    l.i64 = LLVMInt64TypeInContext(l.ctx);
    l.ptr = LLVMPointerTypeInContext(l.ctx, 0);
    l.wg = lanes_sg_param(sg, LANES_SG_WG);

    lanes_replace_calls(sg, l.b, lower_call, &l);
    LLVMDisposeBuilder(l.b);
}
