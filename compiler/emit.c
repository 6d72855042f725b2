/* SPDX-License-Identifier: MIT */
/*
 * The launcher's IR, around a kernel's sub-group function:
 *     void launch(const void *args, const struct lanes_wg *wg)
 * unpacks the argument block once, then runs the sub-groups of one
 * work-group in a loop (a vector of them at a time), and, for a coroutine
 * kernel, resumes them round after round until they finish.
 */
#include "emit.h"

#include "ir.h"

#include <llvm-c/Core.h>
#include <string.h>

struct gen {
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTypeRef i8, i64, ptr;
};

static LLVMValueRef byte_gep(struct gen *g, LLVMValueRef base, uint64_t offset)
{
    LLVMValueRef idx = LLVMConstInt(g->i64, offset, 0);
    return LLVMBuildInBoundsGEP2(g->b, g->i8, base, &idx, 1, "");
}

/* The value the sub-group function receives for argument `a` of parameter type `t`. */
static LLVMValueRef unpack_arg(struct gen *g, LLVMValueRef sg, unsigned i,
                               const struct lanes_kernel_arg *a, LLVMValueRef args,
                               LLVMValueRef local_mem)
{
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(sg, i));
    LLVMValueRef slot = byte_gep(g, args, a->offset);
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    switch (a->kind) {
    case LANES_ARG_VALUE:
        /* A byval parameter points at its bytes; the inliner makes the private copy. */
        if (LLVMGetEnumAttributeAtIndex(sg, i + 1, byval))
            return LLVMBuildAddrSpaceCast(g->b, slot, t, "");
        return LLVMBuildLoad2(g->b, t, slot, "");
    case LANES_ARG_LOCAL: {
        LLVMValueRef off = LLVMBuildLoad2(g->b, g->i64, slot, "");
        LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, g->i8, local_mem, &off, 1, "");
        return LLVMBuildAddrSpaceCast(g->b, p, t, "");
    }
    default: return LLVMBuildAddrSpaceCast(g->b, LLVMBuildLoad2(g->b, g->ptr, slot, ""), t, "");
    }
}

/* Emits `for (v = 0; v < n; v++)` around what `body` builds; returns the loop variable. */
struct loop {
    LLVMBasicBlockRef head, body, exit;
    LLVMValueRef var;
};

static struct loop loop_begin(struct gen *g, LLVMValueRef fn, LLVMValueRef n, const char *name)
{
    struct loop l;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    l.head = LLVMAppendBasicBlockInContext(g->ctx, fn, name);
    l.body = LLVMAppendBasicBlockInContext(g->ctx, fn, name);
    l.exit = LLVMAppendBasicBlockInContext(g->ctx, fn, name);
    LLVMBuildBr(g->b, l.head);
    LLVMPositionBuilderAtEnd(g->b, l.head);
    l.var = LLVMBuildPhi(g->b, g->i64, name);
    LLVMValueRef zero = LLVMConstInt(g->i64, 0, 0);
    LLVMAddIncoming(l.var, &zero, &pre, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, l.var, n, ""), l.body, l.exit);
    LLVMPositionBuilderAtEnd(g->b, l.body);
    return l;
}

static void loop_end(struct gen *g, struct loop *l, uint64_t step)
{
    LLVMValueRef next = LLVMBuildAdd(g->b, l->var, LLVMConstInt(g->i64, step, 0), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(l->var, &next, &latch, 1);
    LLVMBuildBr(g->b, l->head);
    LLVMPositionBuilderAtEnd(g->b, l->exit);
}

/* A call of the coroutine intrinsic `name` on handle `h`. */
static LLVMValueRef coro_call(struct gen *g, LLVMModuleRef m, const char *name, LLVMValueRef h)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
    return LLVMBuildCall2(g->b, LLVMIntrinsicGetType(g->ctx, id, NULL, 0), f, &h, 1, "");
}

/*
 * After every sub-group of a coroutine kernel has started (and stopped at
 * its first barrier or its end), resume them in turn, round after round,
 * until the first one has finished: barriers are reached by all work-items
 * of a work-group, so all finish in the same round.
 */
static void emit_resume_rounds(struct gen *g, LLVMModuleRef m, LLVMValueRef fn,
                               LLVMValueRef handles, LLVMValueRef count)
{
    LLVMBasicBlockRef round = LLVMAppendBasicBlockInContext(g->ctx, fn, "round");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, fn, "resume");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, fn, "finished");
    LLVMBuildBr(g->b, round);
    LLVMPositionBuilderAtEnd(g->b, round);
    LLVMValueRef first = LLVMBuildLoad2(g->b, g->ptr, handles, "");
    LLVMBuildCondBr(g->b, coro_call(g, m, "llvm.coro.done", first), done, body);
    LLVMPositionBuilderAtEnd(g->b, body);
    struct loop each = loop_begin(g, fn, count, "each");
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(g->b, g->ptr, handles, &each.var, 1, "");
    coro_call(g, m, "llvm.coro.resume", LLVMBuildLoad2(g->b, g->ptr, slot, ""));
    loop_end(g, &each, 1);
    LLVMBuildBr(g->b, round);
    LLVMPositionBuilderAtEnd(g->b, done);
}

/* True when the coroutine of handle `h` is suspended at a yield (its promise, compiler/ir.h). */
static LLVMValueRef at_yield(struct gen *g, LLVMModuleRef m, LLVMValueRef h)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(g->ctx);
    LLVMValueRef args[3] = {h, LLVMConstInt(i32, LANES_PROMISE_ALIGN, 0),
                            LLVMConstInt(LLVMInt1TypeInContext(g->ctx), 0, 0)};
    LLVMValueRef p = lanes_build_intrinsic(m, g->b, "llvm.coro.promise", NULL, args, 3);
    LLVMValueRef where = LLVMBuildLoad2(g->b, i32, p, "where");
    return LLVMBuildICmp(g->b, LLVMIntEQ, where, LLVMConstInt(i32, LANES_AT_YIELD, 0), "");
}

/*
 * The rounds of a coroutine kernel with yield points, whose sub-groups stop
 * at barriers, at yields or at their end, and may end in different rounds.
 * A round visits every sub-group not finished: one at a yield goes on; one
 * at a barrier goes on only in a releasing round, which comes when the
 * round before left every unfinished sub-group at a barrier (each
 * sub-group's state is settled once the round has visited it, as no other
 * resumes it), so no sub-group passes a barrier before all reach it. Rounds
 * go on until every sub-group has finished.
 */
static void emit_yield_rounds(struct gen *g, LLVMModuleRef m, LLVMValueRef fn, LLVMValueRef handles,
                              LLVMValueRef count, LLVMValueRef flags[3])
{
    LLVMTypeRef i1 = LLVMInt1TypeInContext(g->ctx);
    LLVMValueRef yes = LLVMConstInt(i1, 1, 0), no = LLVMConstInt(i1, 0, 0);
    LLVMValueRef release = flags[0], live = flags[1], yielding = flags[2];
    LLVMBuildStore(g->b, no, release);
    LLVMBasicBlockRef round = LLVMAppendBasicBlockInContext(g->ctx, fn, "round");
    LLVMBuildBr(g->b, round);
    LLVMPositionBuilderAtEnd(g->b, round);
    LLVMBuildStore(g->b, no, live);
    LLVMBuildStore(g->b, no, yielding);
    struct loop each = loop_begin(g, fn, count, "each");
    LLVMBasicBlockRef visit = LLVMAppendBasicBlockInContext(g->ctx, fn, "visit");
    LLVMBasicBlockRef resume = LLVMAppendBasicBlockInContext(g->ctx, fn, "resume");
    LLVMBasicBlockRef settled = LLVMAppendBasicBlockInContext(g->ctx, fn, "settled");
    LLVMBasicBlockRef running = LLVMAppendBasicBlockInContext(g->ctx, fn, "running");
    LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(g->ctx, fn, "next");
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(g->b, g->ptr, handles, &each.var, 1, "");
    LLVMValueRef h = LLVMBuildLoad2(g->b, g->ptr, slot, "");
    LLVMBuildCondBr(g->b, coro_call(g, m, "llvm.coro.done", h), next, visit);
    LLVMPositionBuilderAtEnd(g->b, visit);
    LLVMValueRef go =
        LLVMBuildOr(g->b, LLVMBuildLoad2(g->b, i1, release, ""), at_yield(g, m, h), "");
    LLVMBuildCondBr(g->b, go, resume, settled);
    LLVMPositionBuilderAtEnd(g->b, resume);
    coro_call(g, m, "llvm.coro.resume", h);
    LLVMBuildBr(g->b, settled);
    LLVMPositionBuilderAtEnd(g->b, settled);
    LLVMBuildCondBr(g->b, coro_call(g, m, "llvm.coro.done", h), next, running);
    LLVMPositionBuilderAtEnd(g->b, running);
    LLVMBuildStore(g->b, yes, live);
    LLVMValueRef y =
        LLVMBuildOr(g->b, LLVMBuildLoad2(g->b, i1, yielding, ""), at_yield(g, m, h), "");
    LLVMBuildStore(g->b, y, yielding);
    LLVMBuildBr(g->b, next);
    LLVMPositionBuilderAtEnd(g->b, next);
    loop_end(g, &each, 1);
    LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(g->ctx, fn, "again");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, fn, "finished");
    LLVMBuildCondBr(g->b, LLVMBuildLoad2(g->b, i1, live, ""), again, done);
    LLVMPositionBuilderAtEnd(g->b, again);
    LLVMBuildStore(g->b, LLVMBuildNot(g->b, LLVMBuildLoad2(g->b, i1, yielding, ""), ""), release);
    LLVMBuildBr(g->b, round);
    LLVMPositionBuilderAtEnd(g->b, done);
}

LLVMValueRef lanes_emit_launcher(LLVMModuleRef m, LLVMValueRef sg,
                                 const struct lanes_kernel_info *k,
                                 const struct lanes_specialization *spec, bool coroutine,
                                 bool yields, const char *name)
{
    struct gen g = {.ctx = LLVMGetModuleContext(m)};
    g.b = LLVMCreateBuilderInContext(g.ctx);
    g.i8 = LLVMInt8TypeInContext(g.ctx);
    g.i64 = LLVMInt64TypeInContext(g.ctx);
    g.ptr = LLVMPointerTypeInContext(g.ctx, 0);
    LLVMTypeRef params[2] = {g.ptr, g.ptr};
    LLVMValueRef fn =
        LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(g.ctx), params, 2, 0));
    LLVMValueRef args = LLVMGetParam(fn, 0), wg = LLVMGetParam(fn, 1);
    LLVMPositionBuilderAtEnd(g.b, LLVMAppendBasicBlockInContext(g.ctx, fn, "entry"));

    LLVMValueRef local_mem = LLVMBuildLoad2(g.b, g.ptr, byte_gep(&g, wg, LANES_WG_LOCAL_MEM), "");
    unsigned n = (unsigned)k->num_args;
    LLVMValueRef call_args[n + LANES_SG_NUM_PARAMS];
    for (unsigned i = 0; i < n; i++)
        call_args[i] = unpack_arg(&g, sg, i, &k->args[i], args, local_mem);
    call_args[n + LANES_SG_WG] = wg;

    /*
     * Sub-groups are runs of W consecutive local linear ids, every one full
     * but the last. When W divides the rows, they are walked row by row,
     * W at a time; otherwise by their linear index, each lane's local id
     * then computed in the sub-group (compiler/workitem.c).
     */
    uint64_t w = spec->width, size[3], items = 1;
    for (unsigned d = 0; d < 3; d++)
        items *= size[d] = lanes_spec_group_size(spec, d);
    uint64_t sgs = (items + w - 1) / w;
    /* Tier 0 reads its sizes from wg. */
    LLVMValueRef s[3], all = LLVMConstInt(g.i64, items, 0), count = LLVMConstInt(g.i64, sgs, 0);
    for (unsigned d = 0; d < 3; d++)
        s[d] = LLVMConstInt(g.i64, size[d], 0);
    if (spec->dynamic) {
        for (unsigned d = 0; d < 3; d++)
            s[d] = LLVMBuildLoad2(g.b, g.i64, byte_gep(&g, wg, LANES_WG_LOCAL_SIZE + 8 * d), "");
        all = LLVMBuildMul(g.b, LLVMBuildMul(g.b, s[0], s[1], ""), s[2], "items");
        count = LLVMBuildUDiv(g.b, LLVMBuildAdd(g.b, all, LLVMConstInt(g.i64, w - 1, 0), ""),
                              LLVMConstInt(g.i64, w, 0), "sub_groups");
        sgs = (LANES_MAX_GROUP_ITEMS + w - 1) / w; /* the handles' room */
    }
    LLVMValueRef handles =
        coroutine ? LLVMBuildArrayAlloca(g.b, g.ptr, LLVMConstInt(g.i64, sgs, 0), "handles") : NULL;
    LLVMValueRef flags[3] = {NULL, NULL, NULL}; /* the yield rounds' (memory: mem2reg's work) */
    if (coroutine && yields)
        for (unsigned f = 0; f < 3; f++)
            flags[f] = LLVMBuildAlloca(g.b, LLVMInt1TypeInContext(g.ctx), "");
    LLVMValueRef call, index;
    struct loop loops[3];
    unsigned nloops;
    if (lanes_spec_rows(spec)) {
        nloops = 3;
        loops[2] = loop_begin(&g, fn, s[2], "z");
        loops[1] = loop_begin(&g, fn, s[1], "y");
        loops[0] = loop_begin(&g, fn, s[0], "x");
        LLVMValueRef row =
            LLVMBuildAdd(g.b, LLVMBuildMul(g.b, loops[2].var, s[1], ""), loops[1].var, "");
        LLVMValueRef first = LLVMBuildAdd(g.b, LLVMBuildMul(g.b, row, s[0], ""), loops[0].var, "");
        call_args[n + LANES_SG_FIRST] = first;
        call_args[n + LANES_SG_LANES] = LLVMConstInt(g.i64, w, 0);
        for (unsigned d = 0; d < 3; d++)
            call_args[n + LANES_SG_LX + d] = loops[d].var;
        index = LLVMBuildUDiv(g.b, first, LLVMConstInt(g.i64, w, 0), "");
    } else {
        nloops = 1;
        loops[0] = loop_begin(&g, fn, count, "sg");
        index = loops[0].var;
        LLVMValueRef first = LLVMBuildMul(g.b, index, LLVMConstInt(g.i64, w, 0), "");
        LLVMValueRef left = LLVMBuildSub(g.b, all, first, "");
        LLVMValueRef full = LLVMBuildICmp(g.b, LLVMIntUGT, left, LLVMConstInt(g.i64, w, 0), "");
        call_args[n + LANES_SG_FIRST] = first;
        call_args[n + LANES_SG_LANES] =
            LLVMBuildSelect(g.b, full, LLVMConstInt(g.i64, w, 0), left, "");
        LLVMValueRef rows = LLVMBuildUDiv(g.b, first, s[0], "");
        call_args[n + LANES_SG_LX] = LLVMBuildURem(g.b, first, s[0], "");
        call_args[n + LANES_SG_LY] = LLVMBuildURem(g.b, rows, s[1], "");
        call_args[n + LANES_SG_LZ] = LLVMBuildUDiv(g.b, rows, s[1], "");
    }
    call =
        LLVMBuildCall2(g.b, LLVMGlobalGetValueType(sg), sg, call_args, n + LANES_SG_NUM_PARAMS, "");
    if (coroutine)
        LLVMBuildStore(g.b, call, LLVMBuildInBoundsGEP2(g.b, g.ptr, handles, &index, 1, ""));
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < n; i++) {
        LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(sg, i + 1, byval);
        if (a)
            LLVMAddCallSiteAttribute(call, i + 1, a);
    }
    loop_end(&g, &loops[0], nloops == 3 ? w : 1);
    for (unsigned d = 1; d < nloops; d++)
        loop_end(&g, &loops[d], 1);
    if (coroutine && yields)
        emit_yield_rounds(&g, m, fn, handles, count, flags);
    else if (coroutine)
        emit_resume_rounds(&g, m, fn, handles, count);
    LLVMBuildRetVoid(g.b);
    LLVMDisposeBuilder(g.b);
    return fn;
}
