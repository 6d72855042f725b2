/* SPDX-License-Identifier: MIT */
/*
 * Exit paths, marked while the sub-group function still has the shape
 * Clang gave it (before any clean-up pass): a sub-group function runs with
 * the lanes that reach it together in SIMT order, in the same iteration of
 * every enclosing loop, and LLVM's loops end where a path can no longer
 * return to the header. The block of `if (c) { x = sub_group_reduce...;
 * break; }` lies outside the loop; once the clean-up unrolls the loop, the
 * iterations' exits meet in one copy of it, and nothing tells the
 * vectorizer (vz_divergence.c) any more that it ran once per iteration.
 *
 * Clang lays a loop out with one end block E, where both its condition
 * (when false) and every `break` go. A block outside the loop that is
 * entered from inside it (an exit) and is not E begins a path that belongs
 * to the loop's iteration: the blocks it dominates, outside the loop. E is
 * the exit with a predecessor outside the loop (a `break` block, itself
 * outside). A loop with no `break` has no such exit: then E is the exit of
 * the latch that tests the condition (`do ... while`), or, when no latch
 * leaves the loop, of its header (`for`, `while`); the other exits are
 * paths that return. A loop with one exit has only E: in a loop like
 * `while (1) { if (c) { ...; break; } }`, whose block holding `...` might
 * be the code after the loop for all the IR says, it runs after the loop,
 * with every lane that left (docs/architecture.md).
 *
 * Each sub-group call on a path gets the loop's id (its llvm.loop
 * metadata) as `lanes.exit_of`, and the loop, with those around it, is kept
 * rolled, so that the vectorizer finds the loop and runs the path in the
 * iteration that takes it.
 */
#include "vectorize.h"
#include "vz.h"
#include "vz_cfg.h"

#include <stdlib.h>
#include <string.h>

#define EXIT_OF "lanes.exit_of"

static bool is_sg_call(LLVMValueRef i)
{
    const char *name;
    return LLVMIsACallInst(i) && vz_callee(i, &name) && vz_sg_function(name);
}

static bool edge(LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(from);
    for (unsigned k = 0; t && k < LLVMGetNumSuccessors(t); k++)
        if (LLVMGetSuccessor(t, k) == to)
            return true;
    return false;
}

/*
 * Whether exit `x` of loop `h` begins a path of the loop's iteration
 * (rather than being its end block). `ends`: some exit of the loop has a
 * predecessor outside it (the end, where `break`s lead); else the end is
 * entered from a latch that tests the condition (`do ... while`), or, when
 * none does, from the header (`for` and `while`).
 */
static bool begins_path(struct vz_cfg *cfg, LLVMValueRef fn, LLVMBasicBlockRef h,
                        LLVMBasicBlockRef x, bool ends, bool latch_exits)
{
    for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p; p = LLVMGetNextBasicBlock(p)) {
        if (!edge(p, x))
            continue;
        if (!vz_cfg_loop_contains(cfg, h, p))
            return false; /* entered from outside: the end block */
        if (!ends && (latch_exits ? edge(p, h) : p == h))
            return false; /* left where the condition is tested */
    }
    return true;
}

static unsigned mark_loop(struct vz_cfg *cfg, LLVMValueRef fn, LLVMBasicBlockRef h, unsigned kind,
                          LLVMBasicBlockRef *exits)
{
    size_t n = 0;
    bool ends = false;
    for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p; p = LLVMGetNextBasicBlock(p)) {
        if (!vz_cfg_loop_contains(cfg, h, p))
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(p);
        for (unsigned k = 0; t && k < LLVMGetNumSuccessors(t); k++) {
            LLVMBasicBlockRef x = LLVMGetSuccessor(t, k);
            bool listed = vz_cfg_loop_contains(cfg, h, x);
            for (size_t j = 0; j < n && !listed; j++)
                listed = exits[j] == x;
            if (!listed)
                exits[n++] = x;
        }
    }
    bool latch_exits = false;
    for (size_t k = 0; k < n; k++)
        for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p; p = LLVMGetNextBasicBlock(p))
            if (edge(p, exits[k])) {
                ends |= !vz_cfg_loop_contains(cfg, h, p);
                latch_exits |= vz_cfg_loop_contains(cfg, h, p) && edge(p, h);
            }
    if (n < 2)
        return 0;
    unsigned marked = 0;
    LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(fn));
    for (size_t k = 0; k < n; k++) {
        if (!begins_path(cfg, fn, h, exits[k], ends, latch_exits))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            if (vz_cfg_loop_contains(cfg, h, bb) || !vz_cfg_dominates(cfg, exits[k], bb))
                continue;
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                if (!is_sg_call(i))
                    continue;
                if (!marked++) /* kept rolled first: that gives the loop its final id */
                    for (LLVMBasicBlockRef l = h; l; l = vz_cfg_parent_loop(cfg, l))
                        vz_cfg_keep_rolled(cfg, l);
                LLVMValueRef old = LLVMGetMetadata(i, kind);
                /* The innermost loop's: inner loops come first (mark_exit_paths). */
                if (!old)
                    LLVMSetMetadata(i, kind, LLVMMetadataAsValue(ctx, vz_cfg_loop_id(cfg, h)));
            }
        }
    }
    return marked;
}

void lanes_mark_exit_paths(LLVMValueRef sg)
{
    bool any = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb && !any;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !any; i = LLVMGetNextInstruction(i))
            any = is_sg_call(i);
    struct vz_cfg *cfg = any ? vz_cfg_build(sg) : NULL;
    if (!cfg)
        return;
    unsigned kind = LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(sg)), EXIT_OF,
                                             (unsigned)strlen(EXIT_OF));
    size_t nblocks = LLVMCountBasicBlocks(sg);
    LLVMBasicBlockRef *exits = malloc(nblocks * sizeof *exits);
    unsigned deepest = 0;
    for (LLVMBasicBlockRef h = LLVMGetFirstBasicBlock(sg); h; h = LLVMGetNextBasicBlock(h))
        if (vz_cfg_loop_of(cfg, h) == h && vz_cfg_loop_depth(cfg, h) > deepest)
            deepest = vz_cfg_loop_depth(cfg, h);
    for (unsigned depth = deepest; exits && depth > 0; depth--)
        for (LLVMBasicBlockRef h = LLVMGetFirstBasicBlock(sg); h; h = LLVMGetNextBasicBlock(h))
            if (vz_cfg_loop_of(cfg, h) == h && vz_cfg_loop_depth(cfg, h) == depth)
                mark_loop(cfg, sg, h, kind, exits);
    free(exits);
    vz_cfg_free(cfg);
}

LLVMValueRef vz_exit_of(LLVMValueRef call)
{
    unsigned kind = LLVMGetMDKindIDInContext(LLVMGetTypeContext(LLVMTypeOf(call)), EXIT_OF,
                                             (unsigned)strlen(EXIT_OF));
    return LLVMIsACallInst(call) ? LLVMGetMetadata(call, kind) : NULL;
}
