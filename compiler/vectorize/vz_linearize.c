/* SPDX-License-Identifier: MIT */
/*
 * Linearization (Karrenberg & Hack's, on the whole function): when some
 * branch is divergent, every block runs, one after another in the linear
 * order of vz_cfg (loops contiguous, header first), each under its mask:
 * the lanes that would have reached it. A loop runs again while some lane
 * took its back edge; lanes leaving it add to their exit block's mask,
 * which collects them over the iterations. Phis become blends under the
 * masks of their incoming edges.
 *
 * Written with memory, then promoted: each block's mask and each phi is a
 * stack slot; an edge ORs its mask into its target's slot (a block clears
 * its own when it reads it) and stores the blend of a phi of its target;
 * mem2reg then builds the SSA form. Each block's mask is marked by a call
 * of VZ_BLOCK_MASK_FUNCTION, which the widening reads (vz.h).
 */
#include "vz.h"

#include "../jit.h"
#include "../specialize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lin {
    struct vz *v;
    struct vz_cfg *cfg;
    LLVMBuilderRef b;
    LLVMBasicBlockRef *order;
    size_t n;
    struct vz_map slot;  /* block -> its mask's slot; phi -> its slot */
    struct vz_map index; /* block -> its position in order + 1 */
    LLVMValueRef any, block_mask;
};

static LLVMValueRef slot_of(struct lin *l, const void *key)
{
    return vz_map_value(&l->slot, key);
}

static LLVMValueRef new_slot(struct lin *l, LLVMTypeRef t, const char *name)
{
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(l->v->fn);
    LLVMPositionBuilderBefore(l->b, LLVMGetFirstInstruction(entry));
    return LLVMBuildAlloca(l->b, t, name);
}

/* Adds `mask` to the lanes that reach `to` (with the builder where the edge leaves). */
static void add_to_mask(struct lin *l, LLVMBasicBlockRef to, LLVMValueRef mask)
{
    LLVMValueRef s = slot_of(l, to);
    LLVMValueRef old = LLVMBuildLoad2(l->b, l->v->i1, s, "");
    LLVMBuildStore(l->b, LLVMBuildOr(l->b, old, mask, ""), s);
}

/* The phis of `to`: their values on the lanes that take the edge from `from` (mask `mask`). */
static void blend_phis(struct lin *l, LLVMBasicBlockRef from, LLVMBasicBlockRef to,
                       LLVMValueRef mask)
{
    for (LLVMValueRef p = LLVMGetFirstInstruction(to); p && LLVMIsAPHINode(p);
         p = LLVMGetNextInstruction(p)) {
        LLVMValueRef s = slot_of(l, p);
        for (unsigned k = 0; k < LLVMCountIncoming(p); k++) {
            if (LLVMGetIncomingBlock(p, k) != from)
                continue;
            LLVMValueRef old = LLVMBuildLoad2(l->b, LLVMTypeOf(p), s, "");
            LLVMValueRef now = LLVMBuildSelect(l->b, mask, LLVMGetIncomingValue(p, k), old, "");
            LLVMBuildStore(l->b, now, s);
            break; /* a phi has one value per predecessor */
        }
    }
}

/* The block after `bb` in the linear order, or `exit`. */
static LLVMBasicBlockRef next_of(struct lin *l, LLVMBasicBlockRef bb, LLVMBasicBlockRef exit)
{
    uint64_t i = 0;
    vz_map_get(&l->index, bb, &i);
    return i < l->n ? l->order[i] : exit;
}

/* The top of `bb`: its mask (read and cleared), marked for the widening; its phis read. */
static void enter_block(struct lin *l, LLVMBasicBlockRef bb)
{
    LLVMValueRef first = LLVMGetFirstInstruction(bb);
    while (first && LLVMIsAPHINode(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(l->b, first);
    LLVMValueRef s = slot_of(l, bb);
    LLVMValueRef mask = LLVMBuildLoad2(l->b, l->v->i1, s, "");
    LLVMBuildStore(l->b, LLVMConstInt(l->v->i1, 0, 0), s);
    LLVMValueRef args[1] = {mask};
    LLVMBuildCall2(l->b, LLVMGlobalGetValueType(l->block_mask), l->block_mask, args, 1, "mask");
    for (LLVMValueRef p = LLVMGetFirstInstruction(bb); p && LLVMIsAPHINode(p);
         p = LLVMGetNextInstruction(p))
        LLVMReplaceAllUsesWith(p, LLVMBuildLoad2(l->b, LLVMTypeOf(p), slot_of(l, p), ""));
}

/* The mask `bb` runs under: the marker call enter_block put there. */
static LLVMValueRef block_mask(LLVMBasicBlockRef bb)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        const char *name;
        if (LLVMIsACallInst(i) && vz_callee(i, &name) && strcmp(name, VZ_BLOCK_MASK_FUNCTION) == 0)
            return i;
    }
    return NULL;
}

/*
 * The end of `bb`: its edges' masks go to their targets, its terminator
 * becomes a jump to the next block, or, at the end of loops, a jump back
 * while some lane goes on.
 */
static void leave_block(struct lin *l, LLVMBasicBlockRef bb, LLVMBasicBlockRef exit)
{
    struct vz *v = l->v;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    LLVMValueRef mask = block_mask(bb);
    LLVMPositionBuilderBefore(l->b, t);
    if (LLVMGetInstructionOpcode(t) == LLVMBr) {
        if (LLVMIsConditional(t)) {
            LLVMValueRef c = LLVMGetCondition(t);
            LLVMBasicBlockRef yes = LLVMGetSuccessor(t, 0), no = LLVMGetSuccessor(t, 1);
            LLVMValueRef f = LLVMConstInt(v->i1, 0, 0);
            LLVMValueRef my = LLVMBuildSelect(l->b, mask, c, f, "");
            LLVMValueRef mn = LLVMBuildSelect(
                l->b, mask, LLVMBuildXor(l->b, c, LLVMConstInt(v->i1, 1, 0), ""), f, "");
            if (yes == no)
                my = mn = mask;
            add_to_mask(l, yes, my);
            blend_phis(l, bb, yes, my);
            if (no != yes) {
                add_to_mask(l, no, mn);
                blend_phis(l, bb, no, mn);
            }
        } else {
            LLVMBasicBlockRef to = LLVMGetSuccessor(t, 0);
            add_to_mask(l, to, mask);
            blend_phis(l, bb, to, mask);
        }
    }
    /* ret and unreachable: those lanes are done. */
    LLVMInstructionEraseFromParent(t);

    /* Loops that end here, innermost first: each goes round again while a lane took its back edge.
     */
    LLVMBasicBlockRef cur = bb, after = next_of(l, bb, exit);
    for (LLVMBasicBlockRef h = vz_cfg_loop_of(l->cfg, bb); h && vz_cfg_loop_last(l->cfg, h) == bb;
         h = vz_cfg_parent_loop(l->cfg, h)) {
        LLVMBasicBlockRef parent = vz_cfg_parent_loop(l->cfg, h);
        bool outer_ends = parent && vz_cfg_loop_last(l->cfg, parent) == bb;
        LLVMBasicBlockRef go_on =
            outer_ends ? LLVMAppendBasicBlockInContext(v->ctx, v->fn, "lin.latch") : after;
        LLVMPositionBuilderAtEnd(l->b, cur);
        LLVMValueRef again = LLVMBuildLoad2(l->b, v->i1, slot_of(l, h), "");
        LLVMValueRef args[1] = {again};
        LLVMValueRef any =
            LLVMBuildCall2(l->b, LLVMGlobalGetValueType(l->any), l->any, args, 1, "again");
        LLVMBuildCondBr(l->b, any, h, go_on);
        cur = go_on;
        if (!outer_ends)
            return;
    }
    LLVMPositionBuilderAtEnd(l->b, cur);
    LLVMBuildBr(l->b, after);
}

static LLVMValueRef declare(struct vz *v, const char *name)
{
    LLVMTypeRef i1 = v->i1;
    LLVMValueRef f = vz_function(v, name, LLVMFunctionType(i1, &i1, 1, 0));
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(v->ctx, LLVMGetEnumAttributeKindForName("memory", 6), 0));
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(v->ctx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
    return f;
}

int vz_linearize(struct vz *v)
{
    char *error = NULL;
    /* Dedicated exits, preheaders, one latch, values leaving loops through phis. */
    if (lanes_jit_optimize(v->m, "function(lower-switch,loop-simplify,lcssa)", &error) != 0) {
        vz_refuse(v, NULL, error);
        free(error);
        return -1;
    }
    struct lin l = {.v = v, .cfg = vz_cfg_build(v->fn)};
    size_t blocks = LLVMCountBasicBlocks(v->fn);
    l.order = malloc(blocks * sizeof *l.order);
    l.n = l.cfg && l.order ? vz_cfg_linear_order(l.cfg, l.order, blocks) : 0;
    if (l.n != blocks || l.order[0] != LLVMGetEntryBasicBlock(v->fn)) {
        vz_refuse(v, NULL, "irreducible or unreachable control flow");
        if (l.cfg)
            vz_cfg_free(l.cfg);
        free(l.order);
        return -1;
    }
    l.b = LLVMCreateBuilderInContext(v->ctx);
    l.any = declare(v, VZ_ANY_FUNCTION);
    l.block_mask = declare(v, VZ_BLOCK_MASK_FUNCTION);
    for (size_t i = 0; i < l.n; i++) {
        vz_map_put(&l.index, l.order[i], i + 1);
        if (i > 0)
            vz_map_put_value(&l.slot, l.order[i], new_slot(&l, v->i1, "mask.slot"));
        for (LLVMValueRef p = LLVMGetFirstInstruction(l.order[i]); p && LLVMIsAPHINode(p);
             p = LLVMGetNextInstruction(p))
            vz_map_put_value(&l.slot, p, new_slot(&l, LLVMTypeOf(p), "phi.slot"));
    }
    /* Every mask starts empty. */
    LLVMBasicBlockRef entry = l.order[0];
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    while (first && LLVMIsAAllocaInst(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(l.b, first);
    for (size_t i = 1; i < l.n; i++)
        LLVMBuildStore(l.b, LLVMConstInt(v->i1, 0, 0), slot_of(&l, l.order[i]));
    /*
     * Phis too start defined: a lane that never took an edge into a phi's
     * block never reads it, but an undef start lets LLVM pick a different
     * value at each use of the blends built on it.
     */
    for (size_t i = 0; i < l.n; i++)
        for (LLVMValueRef p = LLVMGetFirstInstruction(l.order[i]); p && LLVMIsAPHINode(p);
             p = LLVMGetNextInstruction(p))
            LLVMBuildStore(l.b, LLVMConstNull(LLVMTypeOf(p)), slot_of(&l, p));
    /* The lanes of the sub-group: all of them, or the first `lanes` of a partial one. */
    LLVMValueRef entry_mask = LLVMConstInt(v->i1, 1, 0);
    if (!v->full) {
        LLVMValueRef lane = LLVMBuildZExt(l.b, lanes_build_lane(l.b, v->fn), v->i64, "");
        entry_mask = LLVMBuildICmp(l.b, LLVMIntULT, lane, lanes_sg_param(v->fn, LANES_SG_LANES),
                                   "entry.mask");
    }
    /* The entry block's mask is the entry mask, marked right where it is computed. */
    LLVMValueRef args[1] = {entry_mask};
    LLVMBuildCall2(l.b, LLVMGlobalGetValueType(l.block_mask), l.block_mask, args, 1, "mask");
    for (size_t i = 1; i < l.n; i++)
        enter_block(&l, l.order[i]);
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(v->ctx, v->fn, "lin.exit");
    LLVMPositionBuilderAtEnd(l.b, exit);
    vz_build_return(v, l.b);
    for (size_t i = 0; i < l.n; i++)
        leave_block(&l, l.order[i], exit);
    /* The phis were read from their slots: they go. */
    for (size_t i = 0; i < l.n; i++)
        for (LLVMValueRef p = LLVMGetFirstInstruction(l.order[i]), next; p && LLVMIsAPHINode(p);
             p = next) {
            next = LLVMGetNextInstruction(p);
            LLVMInstructionEraseFromParent(p);
        }
    LLVMDisposeBuilder(l.b);
    vz_cfg_free(l.cfg);
    free(l.order);
    vz_map_free(&l.slot);
    vz_map_free(&l.index);
    v->linearized = true;
    if (lanes_jit_optimize(v->m, "function(mem2reg)", &error) != 0) {
        vz_refuse(v, NULL, error);
        free(error);
        return -1;
    }
    return 0;
}
