/* SPDX-License-Identifier: MIT */
/*
 * Yield points (passes.h, lanes_spin_loops): independent forward progress
 * of the sub-groups of a work-group, which one worker runs in turns. A
 * sub-group may wait for another by spinning on a location that the other
 * sets; the wait can only be on an atomic or a volatile access (anything
 * else is a data race), so a loop performing one gets a yield on each
 * back edge: a call of LANES_YIELD_FUNCTION, which the vectorizer keeps as
 * one call for the sub-group (a linearized loop goes round while some lane
 * does, so the whole sub-group suspends) and compiler/coroutine.c turns
 * into a suspension every YIELD_PERIOD calls. Loops without such an access
 * get none: a kernel without them compiles as before.
 *
 * Nor does a loop whose going round cannot depend on another sub-group: one
 * whose branches (and switches) compute their conditions, within the loop,
 * from no memory it reads (nothing but values fixed before the loop, the
 * launcher's invariant loads and its own arithmetic) runs the same whatever
 * the others do, and ends on its own; a loop of atomic increments over a
 * range (a histogram) is one. A load of any kind, an atomic or a call that
 * may read memory in those conditions makes it a possible wait: a value an
 * atomic returned may come back through private or __local memory.
 *
 * Loops are the cycles a depth-first walk closes (its retreating edges),
 * each with the blocks that reach the edge's source without passing its
 * target: LLVM's natural loops on reducible control flow, and a superset of
 * the cycle's blocks on irreducible control flow (a yield too many costs
 * time, one too few a hang).
 */
#include "passes.h"

#include "ir.h"
#include "names.h"

#include <llvm-c/Core.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The blocks of a function, numbered, with their predecessors. */
struct graph {
    LLVMBasicBlockRef *blocks;
    size_t n, buckets;
    size_t *index;              /* open addressing: block -> number + 1 (0: empty) */
    size_t *pred_start, *preds; /* predecessors of block i: preds[pred_start[i] .. [i + 1]) */
    bool *touches;              /* the block performs an atomic or volatile access */
};

static size_t hash(LLVMBasicBlockRef bb, size_t buckets)
{
    return (size_t)(((uintptr_t)bb >> 4) * 0x9E3779B97F4A7C15u) & (buckets - 1);
}

static size_t number(const struct graph *g, LLVMBasicBlockRef bb)
{
    for (size_t h = hash(bb, g->buckets);; h = (h + 1) & (g->buckets - 1))
        if (g->index[h] == 0 || g->blocks[g->index[h] - 1] == bb)
            return g->index[h] - 1; /* SIZE_MAX: not a block of the function */
}

/* True when `i` is an atomic or volatile access to memory. */
static bool atomic_or_volatile(LLVMValueRef i)
{
    if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
        return true;
    if (LLVMIsALoadInst(i) || LLVMIsAStoreInst(i))
        return LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic;
    return false;
}

static bool build(struct graph *g, LLVMValueRef fn)
{
    g->n = LLVMCountBasicBlocks(fn);
    for (g->buckets = 16; g->buckets < 2 * g->n; g->buckets *= 2)
        ;
    g->blocks = malloc(g->n * sizeof *g->blocks);
    g->index = calloc(g->buckets, sizeof *g->index);
    g->pred_start = calloc(g->n + 1, sizeof *g->pred_start);
    g->touches = calloc(g->n, sizeof *g->touches);
    if (!g->blocks || !g->index || !g->pred_start || !g->touches)
        return false;
    LLVMGetBasicBlocks(fn, g->blocks);
    for (size_t i = 0; i < g->n; i++) {
        size_t h = hash(g->blocks[i], g->buckets);
        while (g->index[h])
            h = (h + 1) & (g->buckets - 1);
        g->index[h] = i + 1;
        for (LLVMValueRef j = LLVMGetFirstInstruction(g->blocks[i]); j && !g->touches[i];
             j = LLVMGetNextInstruction(j))
            g->touches[i] = atomic_or_volatile(j);
    }
    size_t edges = 0;
    for (size_t i = 0; i < g->n; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->blocks[i]);
        unsigned s = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned k = 0; k < s; k++)
            g->pred_start[number(g, LLVMGetSuccessor(t, k)) + 1]++;
        edges += s;
    }
    for (size_t i = 0; i < g->n; i++)
        g->pred_start[i + 1] += g->pred_start[i];
    g->preds = malloc((edges + 1) * sizeof *g->preds);
    size_t *fill = malloc((g->n + 1) * sizeof *fill);
    if (!g->preds || !fill) {
        free(fill);
        return false;
    }
    memcpy(fill, g->pred_start, (g->n + 1) * sizeof *fill);
    for (size_t i = 0; i < g->n; i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->blocks[i]);
        unsigned s = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned k = 0; k < s; k++)
            g->preds[fill[number(g, LLVMGetSuccessor(t, k))]++] = i;
    }
    free(fill);
    return true;
}

static void release(struct graph *g)
{
    free(g->blocks);
    free(g->index);
    free(g->pred_start);
    free(g->preds);
    free(g->touches);
}

/* True when a call of `i` may read memory (its callee or the call is not memory(none)). */
static bool call_reads(LLVMValueRef i)
{
    unsigned memory = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, memory);
    LLVMValueRef f = LLVMGetCalledValue(i);
    if (!a && f && LLVMIsAFunction(f))
        a = LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, memory);
    return !a || LLVMGetEnumAttributeValue(a) != 0;
}

/* True when `i` brings memory's contents into the values it computes. */
static bool reads_memory(LLVMValueRef i, unsigned invariant)
{
    if (LLVMIsALoadInst(i))
        return !LLVMGetMetadata(i, invariant);
    if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i))
        return true;
    return LLVMIsACallInst(i) && call_reads(i);
}

/* A set of instructions (open addressing), for the walk of a loop's conditions. */
struct set {
    LLVMValueRef *slots;
    size_t buckets, count;
};

static size_t hash_value(LLVMValueRef v, size_t buckets)
{
    return (size_t)(((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15u) & (buckets - 1);
}

/* Adds `v` to `s`; false when it was there already. */
static bool set_add(struct set *s, LLVMValueRef v, bool *failed)
{
    if (2 * (s->count + 1) > s->buckets) {
        size_t n = s->buckets ? 2 * s->buckets : 64;
        LLVMValueRef *slots = calloc(n, sizeof *slots);
        if (!slots) {
            *failed = true;
            return false;
        }
        for (size_t k = 0; k < s->buckets; k++)
            if (s->slots[k]) {
                size_t h = hash_value(s->slots[k], n);
                while (slots[h])
                    h = (h + 1) & (n - 1);
                slots[h] = s->slots[k];
            }
        free(s->slots);
        s->slots = slots;
        s->buckets = n;
    }
    size_t h = hash_value(v, s->buckets);
    for (; s->slots[h]; h = (h + 1) & (s->buckets - 1))
        if (s->slots[h] == v)
            return false;
    s->slots[h] = v;
    s->count++;
    return true;
}

/*
 * True when a condition of a branch or switch of the loop (its blocks marked
 * in `in`) depends, within the loop, on what an instruction reads from
 * memory. Out of memory, true: a yield too many.
 */
static bool depends_on_memory(const struct graph *g, const unsigned char *in, LLVMValueRef fn)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    unsigned invariant = LLVMGetMDKindIDInContext(ctx, "invariant.load", 14);
    struct set done = {0};
    size_t room = 64, top = 0;
    LLVMValueRef *work = malloc(room * sizeof *work);
    bool found = !work;
    for (size_t b = 0; b < g->n && !found; b++) {
        LLVMValueRef t = in[b] ? LLVMGetBasicBlockTerminator(g->blocks[b]) : NULL;
        if (!t || !(LLVMIsABranchInst(t) ? LLVMIsConditional(t) : LLVMIsASwitchInst(t) != NULL))
            continue;
        top = 0;
        work[top++] = LLVMGetOperand(t, 0);
        while (top && !found) {
            LLVMValueRef v = work[--top];
            if (!LLVMIsAInstruction(v) || !in[number(g, LLVMGetInstructionParent(v))] ||
                !set_add(&done, v, &found))
                continue; /* fixed before the loop, or seen */
            found = reads_memory(v, invariant);
            size_t n = (size_t)LLVMGetNumOperands(v);
            if (top + n > room) {
                room = 2 * (top + n);
                LLVMValueRef *more = realloc(work, room * sizeof *work);
                if (!more) {
                    found = true;
                    break;
                }
                work = more;
            }
            for (size_t k = 0; k < n; k++)
                work[top++] = LLVMGetOperand(v, (unsigned)k);
        }
    }
    free(work);
    free(done.slots);
    return found;
}

/*
 * True when the loop of back edge `from` -> `head` performs an atomic or
 * volatile access and its conditions depend on memory it reads.
 */
static bool spins(const struct graph *g, size_t from, size_t head, unsigned char *seen,
                  size_t *stack, LLVMValueRef fn)
{
    memset(seen, 0, g->n);
    size_t top = 0;
    seen[head] = 1;
    bool found = g->touches[head];
    if (!seen[from]) {
        seen[from] = 1;
        stack[top++] = from;
    }
    while (top) {
        size_t b = stack[--top];
        found |= g->touches[b];
        for (size_t p = g->pred_start[b]; p < g->pred_start[b + 1]; p++)
            if (!seen[g->preds[p]]) {
                seen[g->preds[p]] = 1;
                stack[top++] = g->preds[p];
            }
    }
    return found && depends_on_memory(g, seen, fn);
}

/* The call of LANES_YIELD_FUNCTION in the module of `fn`, built with `b`. */
static void build_yield(LLVMBuilderRef b, LLVMValueRef fn)
{
    LLVMModuleRef m = LLVMGetGlobalParent(fn);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0);
    LLVMValueRef f = LLVMGetNamedFunction(m, LANES_YIELD_FUNCTION);
    if (!f) {
        f = LLVMAddFunction(m, LANES_YIELD_FUNCTION, type);
        lanes_add_fn_attr(f, "convergent");
        lanes_add_fn_attr(f, "nounwind");
    }
    LLVMBuildCall2(b, type, f, NULL, 0, "");
}

/*
 * Puts a yield on the edge `from` -> `head`: a block of its own, which the
 * phis of `head` then name instead of `from` (rebuilt: the C API cannot
 * change a phi's block).
 */
static void split_with_yield(LLVMBuilderRef b, LLVMValueRef fn, LLVMBasicBlockRef from,
                             LLVMBasicBlockRef head)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    LLVMValueRef t = LLVMGetBasicBlockTerminator(from);
    LLVMBasicBlockRef y = NULL;
    for (unsigned k = 0; k < LLVMGetNumSuccessors(t); k++)
        if (LLVMGetSuccessor(t, k) == head) {
            if (!y)
                y = LLVMInsertBasicBlockInContext(ctx, head, "yield");
            LLVMSetSuccessor(t, k, y);
        }
    if (!y)
        return; /* an edge already split (two slots of one switch) */
    LLVMPositionBuilderAtEnd(b, y);
    build_yield(b, fn);
    LLVMBuildBr(b, head);
    for (LLVMValueRef phi = LLVMGetFirstInstruction(head), next; phi && LLVMIsAPHINode(phi);
         phi = next) {
        next = LLVMGetNextInstruction(phi);
        LLVMPositionBuilderBefore(b, phi);
        LLVMValueRef copy = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
        bool added = false;
        for (unsigned k = 0; k < LLVMCountIncoming(phi); k++) {
            LLVMValueRef v = LLVMGetIncomingValue(phi, k);
            LLVMBasicBlockRef in = LLVMGetIncomingBlock(phi, k);
            if (in == from) {
                if (added)
                    continue;
                added = true;
                in = y;
            }
            LLVMAddIncoming(copy, &v, &in, 1);
        }
        LLVMReplaceAllUsesWith(phi, copy);
        LLVMInstructionEraseFromParent(phi);
    }
}

unsigned lanes_spin_loops(LLVMValueRef fn, bool insert)
{
    struct graph g = {0};
    if (!LLVMGetFirstBasicBlock(fn) || !build(&g, fn)) {
        release(&g);
        return 0;
    }
    /* Depth first from the entry: an edge to a block on the walk's stack closes a loop. */
    unsigned char *state = calloc(g.n, 1); /* 0 unseen, 1 on the stack, 2 done */
    size_t *stack = malloc(g.n * sizeof *stack), *next = calloc(g.n, sizeof *next);
    size_t *edges = NULL, count = 0, room = 0;
    unsigned char *seen = malloc(g.n);
    size_t *work = malloc(g.n * sizeof *work);
    unsigned found = 0;
    if (!state || !stack || !next || !seen || !work)
        goto out;
    size_t top = 0;
    stack[top++] = 0;
    state[0] = 1;
    while (top) {
        size_t b = stack[top - 1];
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g.blocks[b]);
        unsigned s = t ? LLVMGetNumSuccessors(t) : 0;
        if (next[b] == s) {
            state[b] = 2;
            top--;
            continue;
        }
        size_t to = number(&g, LLVMGetSuccessor(t, (unsigned)next[b]++));
        if (state[to] == 0) {
            state[to] = 1;
            stack[top++] = to;
        } else if (state[to] == 1 && spins(&g, b, to, seen, work, fn)) {
            if (count == room) {
                room = room ? 2 * room : 16;
                size_t *more = realloc(edges, 2 * room * sizeof *edges);
                if (!more)
                    goto out;
                edges = more;
            }
            edges[2 * count] = b;
            edges[2 * count + 1] = to;
            count++;
        }
    }
    found = (unsigned)count;
    if (insert && count) {
        LLVMBuilderRef b =
            LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)));
        for (size_t e = 0; e < count; e++)
            split_with_yield(b, fn, g.blocks[edges[2 * e]], g.blocks[edges[2 * e + 1]]);
        LLVMDisposeBuilder(b);
    }
out:
    free(state);
    free(stack);
    free(next);
    free(edges);
    free(seen);
    free(work);
    release(&g);
    return found;
}
