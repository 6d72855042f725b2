/* SPDX-License-Identifier: MIT */
/*
 * Linearization (Karrenberg & Hack's), a transform of the divergence
 * analysis (vz_divergence.c): where a branch is divergent, the
 * blocks its lanes may take before they meet again (its region: up to its
 * immediate post-dominator) run one after another in the linear order of
 * vz_cfg (loops contiguous, header first), each under its mask: the lanes
 * that would have reached it. Blocks outside every region keep their
 * uniform branches and run under the entry mask; when the regions are not
 * single-entry, single-exit (or lanes return inside one), the whole
 * function is one region. A loop runs again while some lane
 * took its back edge; lanes leaving it add to their exit block's mask,
 * which collects them over the iterations. A loop's blocks are those of
 * the analysis: LLVM's, and the exit paths that hold sub-group functions,
 * which run in the iteration that takes them. Phis become blends under the
 * masks of their incoming edges.
 *
 * Written with memory, then promoted: each block's mask and each phi is a
 * stack slot; an edge ORs its mask into its target's slot (a block clears
 * its own when it reads it) and stores the blend of a phi of its target;
 * mem2reg then builds the SSA form. Each block's mask is marked by a call
 * of VZ_BLOCK_MASK_FUNCTION, which the widening reads (vz.h).
 */
#include "vz.h"

#include "../host.h"
#include "../ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lin {
    struct vz *v;
    struct vz_cfg *cfg;
    LLVMBuilderRef b;
    LLVMBasicBlockRef *order;
    size_t n;
    struct vz_map slot;   /* block -> its mask's slot; phi -> its slot */
    struct vz_map index;  /* block -> its position in order + 1 */
    struct vz_map region; /* block -> its region's number + 1; none: it stays as it is */
    struct vz_divergence div;
    LLVMValueRef any, block_mask;
};

static bool in_region(struct lin *l, LLVMBasicBlockRef bb)
{
    uint64_t r;
    return vz_map_get(&l->region, bb, &r);
}

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
    if (!s)
        return; /* the exit of a region: every lane is there */
    LLVMValueRef old = LLVMBuildLoad2(l->b, l->v->i1, s, "");
    LLVMBuildStore(l->b, LLVMBuildOr(l->b, old, mask, ""), s);
}

/* The phis of `to`: their values on the lanes that take the edge from `from` (mask `mask`). */
static void blend_phis(struct lin *l, LLVMBasicBlockRef from, LLVMBasicBlockRef to,
                       LLVMValueRef mask)
{
    /*
     * A back edge stores its values whole: the lanes that do not take it
     * have left the loop (their values leaving it were taken at their exit
     * edge) or were never in it, and nothing reads a header phi of a lane
     * the header does not run. So the loop's values need no blend per
     * iteration, and a value the same in every lane stays so.
     */
    bool back = vz_cfg_loop_of(l->cfg, to) == to && vz_cfg_loop_contains(l->cfg, to, from);
    for (LLVMValueRef p = LLVMGetFirstInstruction(to); p && LLVMIsAPHINode(p);
         p = LLVMGetNextInstruction(p)) {
        LLVMValueRef s = slot_of(l, p);
        for (unsigned k = 0; k < LLVMCountIncoming(p); k++) {
            if (LLVMGetIncomingBlock(p, k) != from)
                continue;
            LLVMValueRef now = LLVMGetIncomingValue(p, k);
            if (!back)
                now = LLVMBuildSelect(l->b, mask, now, LLVMBuildLoad2(l->b, LLVMTypeOf(p), s, ""),
                                      "");
            LLVMBuildStore(l->b, now, s);
            break; /* a phi has one value per predecessor */
        }
    }
}

/* A call marking `mask` as the lanes of the block the builder is in, where the builder is. */
static void build_marker(struct lin *l, LLVMValueRef mask)
{
    LLVMValueRef args[1] = {mask};
    LLVMBuildCall2(l->b, LLVMGlobalGetValueType(l->block_mask), l->block_mask, args, 1, "mask");
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
    build_marker(l, mask);
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
 * becomes a jump to `after` (the next block of its region, or the region's
 * exit), or, at the end of loops of the region, a jump back while some
 * lane goes on. Returns the block that ends with the jump to `after`.
 */
static LLVMBasicBlockRef leave_block(struct lin *l, LLVMBasicBlockRef bb, LLVMBasicBlockRef after)
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
    LLVMBasicBlockRef cur = bb;
    for (LLVMBasicBlockRef h = vz_cfg_loop_of(l->cfg, bb);
         h && in_region(l, h) && vz_cfg_loop_last(l->cfg, h) == bb;
         h = vz_cfg_parent_loop(l->cfg, h)) {
        LLVMBasicBlockRef parent = vz_cfg_parent_loop(l->cfg, h);
        bool outer_ends = parent && in_region(l, parent) && vz_cfg_loop_last(l->cfg, parent) == bb;
        LLVMBasicBlockRef go_on =
            outer_ends ? LLVMAppendBasicBlockInContext(v->ctx, v->fn, "lin.latch") : after;
        LLVMPositionBuilderAtEnd(l->b, cur);
        LLVMValueRef again = LLVMBuildLoad2(l->b, v->i1, slot_of(l, h), "");
        LLVMValueRef args[1] = {again};
        LLVMValueRef any =
            LLVMBuildCall2(l->b, LLVMGlobalGetValueType(l->any), l->any, args, 1, "again");
        LLVMBuildCondBr(l->b, any, h, go_on);
        if (!outer_ends)
            return cur;
        cur = go_on;
    }
    LLVMPositionBuilderAtEnd(l->b, cur);
    LLVMBuildBr(l->b, after);
    return cur;
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

/* Whether the lanes may split at the end of `bb` (vz_divergence.c). */
static bool divergent_branch(struct lin *l, LLVMBasicBlockRef bb)
{
    return vz_divergence_branch(&l->div, bb);
}

/*
 * The regions to linearize: from each divergent branch, every block its
 * lanes may reach before they meet again at its immediate post-dominator;
 * regions that touch are one. Each must have one entry block (not the
 * function's) entered from outside, one exit block, no return, and whole
 * loops: else false, and the whole function is linearized. Numbers the
 * regions in l->region; *entries and *exits get each region's blocks.
 */
static bool find_regions(struct lin *l, size_t *count, LLVMBasicBlockRef *entries,
                         LLVMBasicBlockRef *exits)
{
    struct vz_map marked = {0};
    LLVMBasicBlockRef *stack = malloc((l->n + 1) * 2 * sizeof *stack);
    size_t depth = 0;
    bool ok = stack != NULL;
    for (size_t i = 0; i < l->n && ok; i++) {
        LLVMBasicBlockRef b = l->order[i];
        if (!divergent_branch(l, b))
            continue;
        LLVMBasicBlockRef pd = vz_cfg_ipdom(l->cfg, b);
        if (!pd) {
            ok = false;
            break;
        }
        vz_map_put(&marked, b, 1);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
        for (unsigned k = 0; k < LLVMGetNumSuccessors(t); k++)
            stack[depth++] = LLVMGetSuccessor(t, k);
        while (depth) {
            LLVMBasicBlockRef x = stack[--depth];
            uint64_t seen;
            if (x == pd || vz_map_get(&marked, x, &seen))
                continue;
            vz_map_put(&marked, x, 1);
            LLVMValueRef xt = LLVMGetBasicBlockTerminator(x);
            for (unsigned k = 0; k < LLVMGetNumSuccessors(xt); k++)
                if (depth < (l->n + 1) * 2)
                    stack[depth++] = LLVMGetSuccessor(xt, k);
                else
                    ok = false;
        }
    }
    /* Regions: the marked blocks connected by edges, in either direction. */
    *count = 0;
    for (size_t i = 0; i < l->n && ok; i++) {
        LLVMBasicBlockRef b = l->order[i];
        uint64_t r;
        if (!vz_map_get(&marked, b, &r) || in_region(l, b))
            continue;
        size_t id = (*count)++;
        entries[id] = exits[id] = NULL;
        vz_map_put(&l->region, b, id + 1);
        stack[depth++] = b;
        while (depth && ok) {
            LLVMBasicBlockRef x = stack[--depth];
            LLVMValueRef xt = LLVMGetBasicBlockTerminator(x);
            LLVMOpcode op = LLVMGetInstructionOpcode(xt);
            if (op != LLVMBr) { /* ret, unreachable: lanes leave the function in it */
                ok = false;
                break;
            }
            for (unsigned k = 0; k < LLVMGetNumSuccessors(xt); k++) {
                LLVMBasicBlockRef y = LLVMGetSuccessor(xt, k);
                if (!vz_map_get(&marked, y, &r)) {
                    ok &= !exits[id] || exits[id] == y;
                    exits[id] = y;
                } else if (!in_region(l, y)) {
                    vz_map_put(&l->region, y, id + 1);
                    stack[depth++] = y;
                }
            }
            /* Predecessors: the region's blocks behind x, or its one entry. */
            for (size_t j = 0; j < l->n && ok; j++) {
                LLVMBasicBlockRef p = l->order[j];
                LLVMValueRef pt = LLVMGetBasicBlockTerminator(p);
                bool edge = false;
                for (unsigned k = 0; k < LLVMGetNumSuccessors(pt); k++)
                    edge |= LLVMGetSuccessor(pt, k) == x;
                if (!edge)
                    continue;
                if (!vz_map_get(&marked, p, &r)) {
                    ok &= !entries[id] || entries[id] == x;
                    entries[id] = x;
                } else if (!in_region(l, p)) {
                    vz_map_put(&l->region, p, id + 1);
                    stack[depth++] = p;
                }
            }
        }
        ok &= entries[id] && exits[id] && entries[id] != l->order[0];
        for (size_t r = 0; r < id && ok; r++)
            ok = exits[r] != exits[id]; /* each exit's phis take one region's blends */
    }
    /* A loop with its header in a region lies in it whole. */
    for (size_t i = 0; i < l->n && ok; i++) {
        LLVMBasicBlockRef h = l->order[i];
        if (!in_region(l, h) || vz_cfg_loop_of(l->cfg, h) != h)
            continue;
        for (size_t j = 0; j < l->n && ok; j++)
            if (vz_cfg_loop_contains(l->cfg, h, l->order[j]))
                ok = in_region(l, l->order[j]);
    }
    free(stack);
    vz_map_free(&marked);
    return ok && *count > 0;
}

/* A call marking the lanes `bb` runs under, at its top (after its phis). */
static void mark_block(struct lin *l, LLVMBasicBlockRef bb, LLVMValueRef mask)
{
    LLVMValueRef first = LLVMGetFirstInstruction(bb);
    while (first && LLVMIsAPHINode(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(l->b, first);
    build_marker(l, mask);
}

/*
 * Region `id` with entry `e` and exit `x`: its outside edges into `e` go
 * through a new block that hands over the entry mask and the values of
 * e's phis; its blocks run in the linear order, each under its mask; the
 * last goes to `x`, whose phis take the blends of the region's edges.
 */
static void linearize_region(struct lin *l, uint64_t id, LLVMBasicBlockRef e, LLVMBasicBlockRef x,
                             LLVMValueRef entry_mask)
{
    struct vz *v = l->v;
    LLVMBasicBlockRef enter = LLVMAppendBasicBlockInContext(v->ctx, v->fn, "lin.enter");
    LLVMPositionBuilderAtEnd(l->b, enter);
    for (LLVMValueRef p = LLVMGetFirstInstruction(e); p && LLVMIsAPHINode(p);
         p = LLVMGetNextInstruction(p)) {
        LLVMValueRef q = LLVMBuildPhi(l->b, LLVMTypeOf(p), "");
        for (unsigned k = 0; k < LLVMCountIncoming(p); k++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(p, k);
            if (in_region(l, from))
                continue;
            LLVMValueRef val = LLVMGetIncomingValue(p, k);
            LLVMAddIncoming(q, &val, &from, 1);
        }
    }
    /* The stores after the phis. */
    LLVMValueRef p = LLVMGetFirstInstruction(e), q = LLVMGetFirstInstruction(enter);
    for (; p && LLVMIsAPHINode(p); p = LLVMGetNextInstruction(p), q = LLVMGetNextInstruction(q)) {
        LLVMPositionBuilderAtEnd(l->b, enter);
        LLVMBuildStore(l->b, q, slot_of(l, p));
    }
    LLVMPositionBuilderAtEnd(l->b, enter);
    LLVMBuildStore(l->b, entry_mask, slot_of(l, e));
    LLVMBuildBr(l->b, e);
    mark_block(l, enter, entry_mask);
    for (size_t i = 0; i < l->n; i++) {
        LLVMBasicBlockRef b = l->order[i];
        if (in_region(l, b))
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
        for (unsigned k = 0; k < LLVMGetNumSuccessors(t); k++)
            if (LLVMGetSuccessor(t, k) == e)
                LLVMSetSuccessor(t, k, enter);
    }
    /* The blocks, in the linear order. */
    LLVMBasicBlockRef blocks[l->n];
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++) {
        uint64_t r = 0;
        if (vz_map_get(&l->region, l->order[i], &r) && r == id + 1)
            blocks[n++] = l->order[i];
    }
    for (size_t i = 0; i < n; i++)
        enter_block(l, blocks[i]);
    LLVMBasicBlockRef last = NULL;
    for (size_t i = 0; i < n; i++)
        last = leave_block(l, blocks[i], i + 1 < n ? blocks[i + 1] : x);
    /* x's phis: one value from the region, its lanes' blends. */
    for (LLVMValueRef ph = LLVMGetFirstInstruction(x), next; ph && LLVMIsAPHINode(ph); ph = next) {
        next = LLVMGetNextInstruction(ph);
        LLVMPositionBuilderBefore(l->b, LLVMGetBasicBlockTerminator(last));
        LLVMValueRef blend = LLVMBuildLoad2(l->b, LLVMTypeOf(ph), slot_of(l, ph), "");
        LLVMPositionBuilderBefore(l->b, ph);
        LLVMValueRef np = LLVMBuildPhi(l->b, LLVMTypeOf(ph), "");
        for (unsigned k = 0; k < LLVMCountIncoming(ph); k++) {
            LLVMBasicBlockRef from = LLVMGetIncomingBlock(ph, k);
            if (in_region(l, from))
                continue;
            LLVMValueRef val = LLVMGetIncomingValue(ph, k);
            LLVMAddIncoming(np, &val, &from, 1);
        }
        LLVMAddIncoming(np, &blend, &last, 1);
        LLVMReplaceAllUsesWith(ph, np);
        LLVMInstructionEraseFromParent(ph);
    }
}

/*
 * Phase 2: which blocks to linearize. Partial linearization: only the
 * regions where lanes may split; the rest keeps its (uniform) branches
 * and runs under the entry mask. When the regions are not single-entry,
 * single-exit, every block is one region, entered at the function's
 * entry. Returns whether the linearization is partial.
 */
static bool choose_regions(struct lin *l, size_t *num_regions, LLVMBasicBlockRef *entries,
                           LLVMBasicBlockRef *exits)
{
    bool partial = entries && exits && find_regions(l, num_regions, entries, exits);
    if (!partial) {
        vz_map_free(&l->region);
        for (size_t i = 0; i < l->n; i++)
            vz_map_put(&l->region, l->order[i], 1);
    }
    return partial;
}

/*
 * Phase 3: a stack slot for the mask of every block of the regions (but
 * the function's entry, when it is one), for each of their phis and for
 * the phis of the regions' exits; each starts empty (phis defined: a lane
 * that never took an edge into a phi's block never reads it, but an undef
 * start lets LLVM pick a different value at each use of the blends built
 * on it). Leaves the builder after those stores, in the entry block.
 */
static void make_slots(struct lin *l, bool partial, size_t num_regions, LLVMBasicBlockRef *exits)
{
    struct vz *v = l->v;
    for (size_t i = 0; i < l->n; i++) {
        LLVMBasicBlockRef b = l->order[i];
        if (!in_region(l, b))
            continue;
        if (partial || i > 0)
            vz_map_put_value(&l->slot, b, new_slot(l, v->i1, "mask.slot"));
        for (LLVMValueRef p = LLVMGetFirstInstruction(b); p && LLVMIsAPHINode(p);
             p = LLVMGetNextInstruction(p))
            vz_map_put_value(&l->slot, p, new_slot(l, LLVMTypeOf(p), "phi.slot"));
    }
    for (size_t r = 0; partial && r < num_regions; r++)
        for (LLVMValueRef p = LLVMGetFirstInstruction(exits[r]); p && LLVMIsAPHINode(p);
             p = LLVMGetNextInstruction(p))
            if (!slot_of(l, p))
                vz_map_put_value(&l->slot, p, new_slot(l, LLVMTypeOf(p), "phi.slot"));
    LLVMBasicBlockRef entry = l->order[0];
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    while (first && LLVMIsAAllocaInst(first))
        first = LLVMGetNextInstruction(first);
    LLVMPositionBuilderBefore(l->b, first);
    for (size_t i = 0; i < l->n; i++)
        if (in_region(l, l->order[i]) && slot_of(l, l->order[i]))
            LLVMBuildStore(l->b, LLVMConstInt(v->i1, 0, 0), slot_of(l, l->order[i]));
    for (size_t i = 0; i < l->n; i++)
        for (LLVMValueRef p = LLVMGetFirstInstruction(l->order[i]); p && LLVMIsAPHINode(p);
             p = LLVMGetNextInstruction(p))
            if (slot_of(l, p))
                LLVMBuildStore(l->b, LLVMConstNull(LLVMTypeOf(p)), slot_of(l, p));
}

/*
 * Phase 4, when every block is one region: the blocks one after another
 * in the linear order, the entry's mask the entry mask (marked right where
 * it is computed), the last going to a new exit that returns.
 */
static void linearize_whole(struct lin *l, LLVMValueRef entry_mask)
{
    build_marker(l, entry_mask);
    for (size_t i = 1; i < l->n; i++)
        enter_block(l, l->order[i]);
    LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(l->v->ctx, l->v->fn, "lin.exit");
    LLVMPositionBuilderAtEnd(l->b, exit);
    vz_build_return(l->v, l->b);
    for (size_t i = 0; i < l->n; i++)
        leave_block(l, l->order[i], i + 1 < l->n ? l->order[i + 1] : exit);
}

/* Phase 5: the phis of the regions were read from their slots: they go. */
static void erase_region_phis(struct lin *l)
{
    for (size_t i = 0; i < l->n; i++) {
        if (!in_region(l, l->order[i]))
            continue;
        for (LLVMValueRef p = LLVMGetFirstInstruction(l->order[i]), next; p && LLVMIsAPHINode(p);
             p = next) {
            next = LLVMGetNextInstruction(p);
            LLVMInstructionEraseFromParent(p);
        }
    }
}

/*
 * The phases: (1) the loop forms the linearization needs and the shapes
 * of the function in them; (2) the regions; (3) their slots; (4) the
 * blocks linearized, whole or region by region; (5) the regions' phis
 * erased, and mem2reg makes SSA of the slots.
 */
int vz_linearize(struct vz *v)
{
    char *error = NULL;
    /* Dedicated exits, preheaders, one latch, values leaving loops through phis. */
    if (lanes_host_run_passes(v->m, "function(lower-switch,loop-simplify,lcssa)", true, &error) !=
        0) {
        vz_refuse(v, NULL, error);
        free(error);
        return -1;
    }
    /* The shapes of the function as those passes left it: which branches diverge. */
    vz_map_free(&v->shapes);
    if (vz_shapes(v) != 0)
        return -1;
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
    /* Which branches diverge, and the loops as linearization sees them. */
    if (vz_divergence(v, l.cfg, &l.div) != 0) {
        vz_divergence_free(&l.div);
        vz_cfg_free(l.cfg);
        free(l.order);
        return -1;
    }
    vz_cfg_linear_order(l.cfg, l.order, blocks);
    l.b = LLVMCreateBuilderInContext(v->ctx);
    l.any = declare(v, VZ_ANY_FUNCTION);
    l.block_mask = declare(v, VZ_BLOCK_MASK_FUNCTION);
    for (size_t i = 0; i < l.n; i++)
        vz_map_put(&l.index, l.order[i], i + 1);

    size_t num_regions = 0;
    LLVMBasicBlockRef *entries = malloc(l.n * sizeof *entries),
                      *exits = malloc(l.n * sizeof *exits);
    bool partial = choose_regions(&l, &num_regions, entries, exits);
    make_slots(&l, partial, num_regions, exits);
    /* The lanes of the sub-group: all of them, or the first `lanes` of a partial one. */
    LLVMValueRef entry_mask = LLVMConstInt(v->i1, 1, 0);
    if (!v->full) {
        LLVMValueRef lane = LLVMBuildZExt(l.b, lanes_build_lane(l.b, v->fn), v->i64, "");
        entry_mask = LLVMBuildICmp(l.b, LLVMIntULT, lane, lanes_sg_param(v->fn, LANES_SG_LANES),
                                   "entry.mask");
    }
    if (!partial) {
        linearize_whole(&l, entry_mask);
    } else {
        /* Blocks outside the regions: every lane of the sub-group runs them. */
        for (size_t i = 0; i < l.n; i++)
            if (!in_region(&l, l.order[i])) {
                if (i == 0) /* right after the entry mask */
                    build_marker(&l, entry_mask);
                else
                    mark_block(&l, l.order[i], entry_mask);
            }
        for (size_t r = 0; r < num_regions; r++)
            linearize_region(&l, r, entries[r], exits[r], entry_mask);
    }
    erase_region_phis(&l);
    free(entries);
    free(exits);
    LLVMDisposeBuilder(l.b);
    vz_cfg_free(l.cfg);
    free(l.order);
    vz_map_free(&l.slot);
    vz_map_free(&l.index);
    vz_map_free(&l.region);
    vz_divergence_free(&l.div);
    vz_map_free(&v->shapes); /* of instructions that are gone: the driver computes them again */
    vz_map_free(&v->synced);
    v->linearized = true;
    if (lanes_host_run_passes(v->m, "function(mem2reg)", true, &error) != 0) {
        vz_refuse(v, NULL, error);
        free(error);
        return -1;
    }
    return 0;
}
