/* SPDX-License-Identifier: MIT */
/*
 * Divergence, in the manner of RV's vectorization analysis (Moll and Hack,
 * PLDI 2018): which branches may split the lanes of a sub-group, where the
 * lanes they split meet again, which loops the lanes may leave in different
 * iterations, and which blocks past a loop's exits still belong to the
 * iteration that takes them. Computed once, before linearization, on the
 * function in loop-simplify and LCSSA form; linearization (vz_linearize.c)
 * is a transform of the answer.
 *
 * 1. A conditional branch diverges when its condition's shape is not
 *    uniform (vz_shapes.c).
 * 2. Sync dependence. The lanes a divergent branch splits may meet again at
 *    a join: a block with several predecessors, reached from both of its
 *    successors without going round a loop that contains the branch, up to
 *    and including the branch's immediate post-dominator. A phi there takes
 *    its value by the side each lane came from: varying, whatever its
 *    incoming values. A loop that a divergent branch inside it may leave
 *    (the branch's post-dominator lies outside it, or there is none) is
 *    divergent: its lanes leave it in different iterations. The phis of its
 *    exit blocks (LCSSA: every value leaving the loop goes through one) and
 *    of the blocks reached from more than one of its exits, up to the first
 *    block every lane of the loop reaches, are varying. The shapes are
 *    computed again with those phis varying, which may make more branches
 *    diverge: until nothing changes.
 * 3. Exit paths. A sub-group function runs with the lanes that reach it
 *    together in SIMT order, in the same iteration of every enclosing loop
 *    and on the same side of every branch. LLVM's loops end where a path
 *    can no longer return to the header, so the block of `if (c) { ...;
 *    break; }` lies outside the loop. vz_exit_paths.c marks such calls, on
 *    the function as Clang laid it out, with their loop. Where that loop is
 *    divergent and the call outside it, the path of the exit it lies on
 *    (the blocks outside the loop that the exit block dominates) becomes
 *    part of the loop for linearization (vz_cfg_absorb): it runs in the
 *    iteration that takes it, under the mask of the lanes leaving then, and
 *    its edges out of the loop collect those lanes for the code after it.
 */
#include "vz.h"

#include "vz_cfg.h"

#include <stdlib.h>
#include <string.h>

struct walk {
    LLVMBasicBlockRef *stack;
    size_t depth, cap;
};

static void push(struct walk *w, LLVMBasicBlockRef bb)
{
    if (w->depth == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 64;
        w->stack = realloc(w->stack, w->cap * sizeof *w->stack);
        if (!w->stack)
            abort(); /* as vz_map does: no sensible way on without memory mid-compile */
    }
    w->stack[w->depth++] = bb;
}

/* Each block's number of predecessors (edges, counted with repeats). */
static void count_preds(struct vz *v, struct vz_map *preds)
{
    for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(v->fn); p; p = LLVMGetNextBasicBlock(p)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(p);
        for (unsigned k = 0; t && k < LLVMGetNumSuccessors(t); k++) {
            uint64_t n = 0;
            vz_map_get(preds, LLVMGetSuccessor(t, k), &n);
            vz_map_put(preds, LLVMGetSuccessor(t, k), n + 1);
        }
    }
}

/* Makes the phis of `bb` varying; true when one was not before. */
static bool sync_phis(struct vz *v, LLVMBasicBlockRef bb)
{
    bool changed = false;
    for (LLVMValueRef p = LLVMGetFirstInstruction(bb); p && LLVMIsAPHINode(p);
         p = LLVMGetNextInstruction(p)) {
        uint64_t had;
        if (!vz_map_get(&v->synced, p, &had)) {
            vz_map_put(&v->synced, p, 1);
            changed = true;
        }
    }
    return changed;
}

/*
 * Adds `tag` to the marks in `seen` of the blocks reached from `from`
 * without passing `stop` (marked when reached) and without taking the back
 * edge of a loop that contains block `inside`: within one iteration of
 * every loop around it.
 */
static void reach(struct vz_cfg *cfg, struct walk *w, struct vz_map *seen, uint64_t tag,
                  LLVMBasicBlockRef from, LLVMBasicBlockRef stop, LLVMBasicBlockRef inside)
{
    w->depth = 0;
    push(w, from);
    while (w->depth) {
        LLVMBasicBlockRef x = w->stack[--w->depth];
        uint64_t t = 0;
        vz_map_get(seen, x, &t);
        if (t & tag)
            continue;
        vz_map_put(seen, x, t | tag);
        if (x == stop)
            continue;
        LLVMValueRef term = LLVMGetBasicBlockTerminator(x);
        for (unsigned k = 0; k < LLVMGetNumSuccessors(term); k++) {
            LLVMBasicBlockRef s = LLVMGetSuccessor(term, k);
            if (inside && vz_cfg_loop_of(cfg, s) == s && vz_cfg_loop_contains(cfg, s, inside) &&
                vz_cfg_loop_contains(cfg, s, x))
                continue; /* the next iteration of a loop around the branch */
            push(w, s);
        }
    }
}

/* The joins among `seen`'s blocks: those with several predecessors reached under two tags. */
static bool sync_joins(struct vz *v, const struct vz_map *preds, const struct vz_map *seen)
{
    bool changed = false;
    for (size_t i = 0; i < seen->cap; i++) {
        uint64_t t = seen->vals[i], n = 0;
        if (seen->keys[i] && (t & (t - 1)) && vz_map_get(preds, seen->keys[i], &n) && n > 1)
            changed |= sync_phis(v, (LLVMBasicBlockRef)seen->keys[i]);
    }
    return changed;
}

static bool divergent_branch(struct vz *v, LLVMBasicBlockRef bb)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    return t && LLVMGetInstructionOpcode(t) == LLVMBr && LLVMIsConditional(t) &&
           vz_shape_of(v, LLVMGetCondition(t)).kind != VZ_UNIFORM;
}

/* The exit blocks of loop `h` (at most nblocks of them, in out), in a fixed order. */
static size_t exit_blocks(struct vz *v, struct vz_cfg *cfg, LLVMBasicBlockRef h,
                          LLVMBasicBlockRef *out)
{
    size_t n = 0;
    struct vz_map listed = {0};
    for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(v->fn); p; p = LLVMGetNextBasicBlock(p)) {
        if (!vz_cfg_loop_contains(cfg, h, p))
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(p);
        for (unsigned k = 0; k < LLVMGetNumSuccessors(t); k++) {
            LLVMBasicBlockRef x = LLVMGetSuccessor(t, k);
            uint64_t had;
            if (vz_cfg_loop_contains(cfg, h, x) || vz_map_get(&listed, x, &had))
                continue;
            vz_map_put(&listed, x, 1);
            out[n++] = x;
        }
    }
    vz_map_free(&listed);
    return n;
}

/* The first block after loop `h` that every lane entering it reaches, or NULL. */
static LLVMBasicBlockRef after_loop(struct vz_cfg *cfg, LLVMBasicBlockRef h)
{
    LLVMBasicBlockRef p = vz_cfg_ipdom(cfg, h);
    while (p && vz_cfg_loop_contains(cfg, h, p))
        p = vz_cfg_ipdom(cfg, p);
    return p;
}

/* One round of step 2 over the shapes as they are; true when a phi became varying. */
static bool sync_round(struct vz *v, struct vz_cfg *cfg, struct vz_divergence *d, struct walk *w,
                       const struct vz_map *preds, LLVMBasicBlockRef *exits)
{
    bool changed = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(v->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (!divergent_branch(v, bb))
            continue;
        vz_map_put(&d->branches, bb, 1);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        LLVMBasicBlockRef pd = vz_cfg_ipdom(cfg, bb);
        struct vz_map seen = {0};
        reach(cfg, w, &seen, 1, LLVMGetSuccessor(t, 0), pd, bb);
        reach(cfg, w, &seen, 2, LLVMGetSuccessor(t, 1), pd, bb);
        changed |= sync_joins(v, preds, &seen);
        vz_map_free(&seen);
        /* The loops it may leave. */
        for (LLVMBasicBlockRef h = vz_cfg_loop_of(cfg, bb); h; h = vz_cfg_parent_loop(cfg, h))
            if (!pd || !vz_cfg_loop_contains(cfg, h, pd))
                vz_map_put(&d->loops, h, 1);
    }
    /* Divergent loops: their exits' phis, and where their exits meet. */
    for (size_t i = 0; i < d->loops.cap; i++) {
        LLVMBasicBlockRef h = (LLVMBasicBlockRef)d->loops.keys[i];
        if (!h)
            continue;
        size_t n = exit_blocks(v, cfg, h, exits);
        LLVMBasicBlockRef stop = after_loop(cfg, h);
        struct vz_map seen = {0};
        for (size_t k = 0; k < n; k++) {
            changed |= sync_phis(v, exits[k]);
            /* Past 63 exits, every block reached counts as reached from two. */
            reach(cfg, w, &seen, n <= 63 ? UINT64_C(1) << k : 3, exits[k], stop, h);
        }
        changed |= sync_joins(v, preds, &seen);
        vz_map_free(&seen);
    }
    return changed;
}

/* The loop of each loop id (vz_exit_paths.c marks calls with them). */
static void loop_ids(struct vz *v, struct vz_cfg *cfg, struct vz_map *ids)
{
    for (LLVMBasicBlockRef h = LLVMGetFirstBasicBlock(v->fn); h; h = LLVMGetNextBasicBlock(h)) {
        LLVMMetadataRef id = vz_cfg_loop_of(cfg, h) == h ? vz_cfg_loop_id(cfg, h) : NULL;
        if (id)
            vz_map_put_value(ids, id, (LLVMValueRef)h);
    }
}

/*
 * Step 3 for `call`, a sub-group function on a path of an exit of loop `h`
 * (vz_exit_paths.c): when the loop is divergent and the call outside it,
 * the exit's path (the blocks outside the loop its exit block dominates)
 * becomes part of it. -1 with v->why when that cannot be: the call is on the
 * paths of several exits (their copies met, which the clean-up only does
 * when they were the same), or the path goes on to the next iteration of a
 * loop around `h` (no linear order runs it in both).
 */
static int absorb_path(struct vz *v, struct vz_cfg *cfg, LLVMBasicBlockRef h, LLVMValueRef call,
                       LLVMBasicBlockRef *exits, LLVMBasicBlockRef *path, size_t *absorbed)
{
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
    if (vz_cfg_loop_contains(cfg, h, bb))
        return 0;
    size_t n = exit_blocks(v, cfg, h, exits);
    LLVMBasicBlockRef x = NULL;
    for (size_t k = 0; k < n && !x; k++)
        if (vz_cfg_dominates(cfg, exits[k], bb))
            x = exits[k];
    if (!x) {
        vz_refuse(v, call, "a sub-group function where the paths of several exits of a loop meet");
        return -1;
    }
    size_t m = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(v->fn); b; b = LLVMGetNextBasicBlock(b))
        if (!vz_cfg_loop_contains(cfg, h, b) && vz_cfg_dominates(cfg, x, b))
            path[m++] = b;
    for (size_t j = 0; j < m; j++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(path[j]);
        for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++)
            if (vz_cfg_is_back_edge(cfg, path[j], LLVMGetSuccessor(t, s)) &&
                !vz_cfg_dominates(cfg, x, LLVMGetSuccessor(t, s))) { /* not a loop of the path */
                vz_refuse(v, call,
                          "a sub-group function on a path that leaves a loop and goes on to "
                          "the next iteration of an enclosing one");
                return -1;
            }
    }
    for (size_t j = 0; j < m; j++)
        vz_cfg_absorb(cfg, h, path[j]);
    *absorbed += m;
    return 0;
}

/* Step 3: the marked calls of divergent loops' exit paths, inner loops first. */
static int absorb_paths(struct vz *v, struct vz_cfg *cfg, struct vz_divergence *d,
                        LLVMBasicBlockRef *exits, size_t nblocks)
{
    struct vz_map ids = {0};
    loop_ids(v, cfg, &ids);
    LLVMBasicBlockRef *path = malloc(nblocks * sizeof *path);
    if (!path)
        abort();
    unsigned deepest = 0;
    for (size_t i = 0; i < d->loops.cap; i++)
        if (d->loops.keys[i]) {
            unsigned depth = vz_cfg_loop_depth(cfg, (LLVMBasicBlockRef)d->loops.keys[i]);
            deepest = depth > deepest ? depth : deepest;
            d->loops.vals[i] = depth;
        }
    int rc = 0;
    for (unsigned depth = deepest; rc == 0 && depth > 0; depth--)
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(v->fn); rc == 0 && bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); rc == 0 && i;
                 i = LLVMGetNextInstruction(i)) {
                LLVMValueRef id = vz_exit_of(i);
                LLVMValueRef h = id ? vz_map_value(&ids, LLVMValueAsMetadata(id)) : NULL;
                uint64_t dh = 0;
                if (h && vz_map_get(&d->loops, h, &dh) && dh == depth)
                    rc = absorb_path(v, cfg, (LLVMBasicBlockRef)h, i, exits, path, &d->absorbed);
            }
    free(path);
    vz_map_free(&ids);
    return rc;
}

int vz_divergence(struct vz *v, struct vz_cfg *cfg, struct vz_divergence *d)
{
    size_t nblocks = LLVMCountBasicBlocks(v->fn);
    LLVMBasicBlockRef *exits = malloc((nblocks + 1) * sizeof *exits);
    struct walk w = {0};
    struct vz_map preds = {0};
    if (!exits)
        abort();
    count_preds(v, &preds);
    int rc = 0;
    while (rc == 0 && sync_round(v, cfg, d, &w, &preds, exits))
        rc = vz_shapes(v); /* again, with more phis varying */
    if (rc == 0)
        rc = absorb_paths(v, cfg, d, exits, nblocks);
    if (rc == 0 && d->absorbed && !vz_cfg_lay_out(cfg)) {
        vz_refuse(v, NULL, "irreducible control flow once exit paths join their loops");
        rc = -1;
    }
    vz_map_free(&preds);
    free(exits);
    free(w.stack);
    return rc;
}

bool vz_divergence_branch(const struct vz_divergence *d, LLVMBasicBlockRef bb)
{
    uint64_t yes;
    return vz_map_get(&d->branches, bb, &yes);
}

void vz_divergence_free(struct vz_divergence *d)
{
    vz_map_free(&d->branches);
    vz_map_free(&d->loops);
    *d = (struct vz_divergence){0};
}
