/* SPDX-License-Identifier: MIT */
/*
 * Widening: the vector function, built instruction by instruction from
 * the scalar one and the shapes. A uniform value stays the scalar it was;
 * a contiguous one is lane 0's scalar plus, beside it, its vector (base +
 * lane * stride); a varying one is a vector: <W x T> for a scalar T, and
 * for aggregates the same aggregate of vectors (a float4 is four
 * <W x float>, a struct a struct of vectors).
 *
 * Memory: a uniform address is one scalar access, a contiguous one of the
 * access's size one vector access (masked when lanes may be off), any other
 * a gather or scatter. Side effects the lanes cannot share (atomics, calls
 * that touch memory) run once per active lane, in lane order.
 */
#include "vz.h"

#include "../host.h"
#include "../ir.h"
#include "../names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The vector form of scalar type t (NULL when there is none). */
static LLVMTypeRef vec_type(struct vz *v, LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
    case LLVMHalfTypeKind:
    case LLVMBFloatTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMPointerTypeKind: return LLVMVectorType(t, v->w);
    case LLVMVectorTypeKind: {
        LLVMTypeRef e = vec_type(v, LLVMGetElementType(t));
        return e ? LLVMArrayType2(e, LLVMGetVectorSize(t)) : NULL;
    }
    case LLVMArrayTypeKind: {
        LLVMTypeRef e = vec_type(v, LLVMGetElementType(t));
        return e ? LLVMArrayType2(e, LLVMGetArrayLength2(t)) : NULL;
    }
    case LLVMStructTypeKind: {
        unsigned n = LLVMCountStructElementTypes(t);
        LLVMTypeRef fields[n ? n : 1];
        for (unsigned k = 0; k < n; k++)
            if (!(fields[k] = vec_type(v, LLVMStructGetTypeAtIndex(t, k))))
                return NULL;
        return LLVMStructTypeInContext(v->ctx, fields, n, LLVMIsPackedStruct(t));
    }
    case LLVMVoidTypeKind: return LLVMVoidTypeInContext(v->ctx);
    default: return NULL;
    }
}

/* The number of components of an aggregate (vector types count their elements). */
static unsigned components(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMVectorTypeKind: return LLVMGetVectorSize(t);
    case LLVMArrayTypeKind: return (unsigned)LLVMGetArrayLength2(t);
    case LLVMStructTypeKind: return LLVMCountStructElementTypes(t);
    default: return 0;
    }
}

static LLVMTypeRef component_type(LLVMTypeRef t, unsigned k)
{
    return LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, k)
                                                    : LLVMGetElementType(t);
}

static LLVMValueRef intrinsic(struct vz *v, const char *name, LLVMTypeRef *overloads, size_t n,
                              LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(v->m, id, overloads, n);
    return LLVMBuildCall2(v->b, LLVMIntrinsicGetType(v->ctx, id, overloads, n), f, args, nargs, "");
}

/* x in every lane (x of scalar type t, or an aggregate: the same aggregate of splats). */
static LLVMValueRef splat(struct vz *v, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    unsigned n = components(t);
    if (n) {
        LLVMValueRef r = LLVMGetPoison(vec_type(v, t));
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef c = LLVMGetTypeKind(t) == LLVMVectorTypeKind
                                 ? LLVMBuildExtractElement(v->b, x, LLVMConstInt(v->i32, k, 0), "")
                                 : LLVMBuildExtractValue(v->b, x, k, "");
            r = LLVMBuildInsertValue(v->b, r, splat(v, c), k, "");
        }
        return r;
    }
    if (LLVMIsAConstant(x) && !LLVMIsAConstantExpr(x)) {
        LLVMValueRef elems[v->w];
        for (unsigned l = 0; l < v->w; l++)
            elems[l] = x;
        return LLVMConstVector(elems, v->w);
    }
    LLVMValueRef one = LLVMBuildInsertElement(v->b, LLVMGetPoison(vec_type(v, t)), x,
                                              LLVMConstInt(v->i32, 0, 0), "");
    LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(v->i32, v->w));
    return LLVMBuildShuffleVector(v->b, one, LLVMGetPoison(LLVMTypeOf(one)), zeros, "");
}

/* <0, s, 2s, ...> of integer type t. */
static LLVMValueRef iota(struct vz *v, LLVMTypeRef t, int64_t stride)
{
    LLVMValueRef elems[v->w];
    for (unsigned l = 0; l < v->w; l++)
        elems[l] = LLVMConstInt(t, (unsigned long long)(stride * (int64_t)l), 1);
    return LLVMConstVector(elems, v->w);
}

/* Lane 0's value of contiguous `base` plus lane * stride, as a vector. */
static LLVMValueRef progression(struct vz *v, LLVMValueRef base, int64_t stride)
{
    LLVMTypeRef t = LLVMTypeOf(base);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
        LLVMValueRef off = iota(v, v->i64, stride);
        return LLVMBuildGEP2(v->b, LLVMInt8TypeInContext(v->ctx), base, &off, 1, "");
    }
    return LLVMBuildAdd(v->b, splat(v, base), iota(v, t, stride), "");
}

/* The scalar standing for `x` (uniform: its value; contiguous: lane 0's). */
static LLVMValueRef scalar(struct vz *v, LLVMValueRef x)
{
    if (LLVMValueIsBasicBlock(x))
        return LLVMBasicBlockAsValue(
            (LLVMBasicBlockRef)(uintptr_t)vz_map_value(&v->blocks, LLVMValueAsBasicBlock(x)));
    if (LLVMIsAInstruction(x) || LLVMIsAArgument(x)) {
        LLVMValueRef s = vz_map_value(&v->vals, x);
        return s ? s : LLVMGetPoison(LLVMTypeOf(x)); /* unreachable code's values */
    }
    return x;
}

/* The vector form of `x`, whatever its shape (built where the builder is). */
static LLVMValueRef vector(struct vz *v, LLVMValueRef x)
{
    struct vz_shape s = vz_shape_of(v, x);
    if (s.kind == VZ_VARYING) {
        LLVMValueRef r = vz_map_value(&v->vals, x);
        return r ? r : LLVMGetPoison(vec_type(v, LLVMTypeOf(x)));
    }
    if (s.kind == VZ_CONTIGUOUS) {
        LLVMValueRef r = vz_map_value(&v->vecs, x);
        return r ? r : progression(v, scalar(v, x), s.stride);
    }
    return splat(v, scalar(v, x));
}

/* Lane l of `x` as a scalar of x's type. */
static LLVMValueRef lane_of(struct vz *v, LLVMValueRef x, LLVMValueRef idx)
{
    struct vz_shape s = vz_shape_of(v, x);
    if (s.kind == VZ_UNIFORM || s.kind == VZ_UNKNOWN)
        return scalar(v, x);
    if (s.kind == VZ_CONTIGUOUS) {
        LLVMValueRef base = scalar(v, x);
        LLVMTypeRef t = LLVMTypeOf(base);
        bool ptr = LLVMGetTypeKind(t) == LLVMPointerTypeKind;
        LLVMTypeRef ot = ptr ? v->i64 : t;
        LLVMValueRef off = LLVMBuildMul(v->b, LLVMBuildIntCast2(v->b, idx, ot, 0, ""),
                                        LLVMConstInt(ot, (unsigned long long)s.stride, 1), "");
        if (ptr)
            return LLVMBuildGEP2(v->b, LLVMInt8TypeInContext(v->ctx), base, &off, 1, "");
        return LLVMBuildAdd(v->b, base, off, "");
    }
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMValueRef vec = vector(v, x);
    unsigned n = components(t);
    if (!n)
        return LLVMBuildExtractElement(v->b, vec, idx, "");
    /* Aggregates: lane l of each component, reassembled. */
    LLVMValueRef r = LLVMGetPoison(t);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef c = LLVMBuildExtractValue(v->b, vec, k, "");
        LLVMTypeRef ct = component_type(t, k);
        LLVMValueRef e;
        if (components(ct)) {
            /* Nested aggregates: rare enough to go through a poison-initialized rebuild. */
            e = LLVMGetPoison(ct);
            for (unsigned j = 0; j < components(ct); j++) {
                LLVMValueRef cj = LLVMBuildExtractValue(v->b, c, j, "");
                LLVMValueRef ej = LLVMBuildExtractElement(v->b, cj, idx, "");
                e = LLVMGetTypeKind(ct) == LLVMVectorTypeKind
                        ? LLVMBuildInsertElement(v->b, e, ej, LLVMConstInt(v->i32, j, 0), "")
                        : LLVMBuildInsertValue(v->b, e, ej, j, "");
            }
        } else {
            e = LLVMBuildExtractElement(v->b, c, idx, "");
        }
        r = LLVMGetTypeKind(t) == LLVMVectorTypeKind
                ? LLVMBuildInsertElement(v->b, r, e, LLVMConstInt(v->i32, k, 0), "")
                : LLVMBuildInsertValue(v->b, r, e, k, "");
    }
    return r;
}

/* `vec` (a vector form of type t's) with lane l set to scalar `x`. */
static LLVMValueRef set_lane(struct vz *v, LLVMValueRef vec, LLVMTypeRef t, LLVMValueRef idx,
                             LLVMValueRef x)
{
    unsigned n = components(t);
    if (!n)
        return LLVMBuildInsertElement(v->b, vec, x, idx, "");
    for (unsigned k = 0; k < n; k++) {
        LLVMTypeRef ct = component_type(t, k);
        LLVMValueRef xk = LLVMGetTypeKind(t) == LLVMVectorTypeKind
                              ? LLVMBuildExtractElement(v->b, x, LLVMConstInt(v->i32, k, 0), "")
                              : LLVMBuildExtractValue(v->b, x, k, "");
        LLVMValueRef ck = LLVMBuildExtractValue(v->b, vec, k, "");
        vec = LLVMBuildInsertValue(v->b, vec, set_lane(v, ck, ct, idx, xk), k, "");
    }
    return vec;
}

/* The lanes the current block runs under (NULL: all of them). */
static LLVMValueRef mask(struct vz *v)
{
    return v->cur_mask;
}

/* True when some lane of `m` is on (m NULL: true). */
static LLVMValueRef any(struct vz *v, LLVMValueRef m)
{
    if (!m)
        return LLVMConstInt(v->i1, 1, 0);
    LLVMTypeRef t = LLVMTypeOf(m);
    return intrinsic(v, "llvm.vector.reduce.or", &t, 1, &m, 1);
}

/* A new block of the vector function; the builder moves there. */
static LLVMBasicBlockRef new_block(struct vz *v, const char *name)
{
    return LLVMAppendBasicBlockInContext(v->ctx, v->vfn, name);
}

/*
 * Runs what `body` builds only when `cond` holds; returns the value it
 * built (or `otherwise` when it did not run) as a phi.
 */
struct guard {
    LLVMBasicBlockRef from, then, join;
};

static struct guard guard_begin(struct vz *v, LLVMValueRef cond)
{
    struct guard g = {LLVMGetInsertBlock(v->b), new_block(v, "vz.then"), new_block(v, "vz.join")};
    LLVMBuildCondBr(v->b, cond, g.then, g.join);
    LLVMPositionBuilderAtEnd(v->b, g.then);
    return g;
}

static LLVMValueRef guard_end(struct vz *v, struct guard *g, LLVMValueRef value,
                              LLVMValueRef otherwise)
{
    LLVMBasicBlockRef end = LLVMGetInsertBlock(v->b);
    LLVMBuildBr(v->b, g->join);
    LLVMPositionBuilderAtEnd(v->b, g->join);
    if (!value)
        return NULL;
    LLVMValueRef phi = LLVMBuildPhi(v->b, LLVMTypeOf(value), "");
    LLVMValueRef vals[2] = {value, otherwise};
    LLVMBasicBlockRef blocks[2] = {end, g->from};
    LLVMAddIncoming(phi, vals, blocks, 2);
    return phi;
}

/* A copy of scalar instruction `i` with its operands replaced by lane idx's (NULL: the scalars). */
static LLVMValueRef clone_with(struct vz *v, LLVMValueRef i, LLVMValueRef idx)
{
    LLVMValueRef c = LLVMInstructionClone(i);
    int n = LLVMGetNumOperands(i);
    for (int k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
        LLVMSetOperand(c, (unsigned)k, idx ? lane_of(v, op, idx) : scalar(v, op));
    }
    LLVMInsertIntoBuilder(v->b, c);
    return c;
}

static LLVMValueRef entry_slot(struct vz *v, LLVMTypeRef t);

/*
 * A lane loop's stack slot: W elements of a scalar type, one lane's at a
 * time. Integers of no whole number of bytes (a mask's i1) are kept as the
 * next whole bytes, since a <W x i1> in memory is W bits, not W elements.
 */
struct lane_slot {
    LLVMValueRef at;
    LLVMTypeRef t;  /* the scalar type */
    LLVMTypeRef st; /* the type of its elements in memory */
};

static struct lane_slot lane_slot(struct vz *v, LLVMTypeRef t)
{
    struct lane_slot s = {.t = t, .st = t};
    unsigned long long bits = LLVMSizeOfTypeInBits(v->td, t);
    if (bits != 8 * LLVMStoreSizeOfType(v->td, t))
        s.st = LLVMIntTypeInContext(v->ctx, (unsigned)(8 * LLVMStoreSizeOfType(v->td, t)));
    s.at = entry_slot(v, LLVMArrayType2(s.st, v->w));
    return s;
}

static LLVMValueRef lane_slot_element(struct vz *v, const struct lane_slot *s, LLVMValueRef idx)
{
    LLVMValueRef at[2] = {LLVMConstInt(v->i32, 0, 0), idx};
    return LLVMBuildInBoundsGEP2(v->b, LLVMArrayType2(s->st, v->w), s->at, at, 2, "");
}

/* Stores the vector x of type <W x s->t> into s, a lane per element. */
static void lane_slot_fill(struct vz *v, const struct lane_slot *s, LLVMValueRef x)
{
    if (s->st != s->t)
        x = LLVMBuildZExt(v->b, x, LLVMVectorType(s->st, v->w), "");
    LLVMValueRef st = LLVMBuildStore(v->b, x, s->at);
    LLVMSetAlignment(st, (unsigned)LLVMABIAlignmentOfType(v->td, s->st));
}

static LLVMValueRef lane_slot_vector(struct vz *v, const struct lane_slot *s)
{
    LLVMValueRef x = LLVMBuildLoad2(v->b, LLVMVectorType(s->st, v->w), s->at, "");
    LLVMSetAlignment(x, (unsigned)LLVMABIAlignmentOfType(v->td, s->st));
    return s->st != s->t ? LLVMBuildTrunc(v->b, x, LLVMVectorType(s->t, v->w), "") : x;
}

static LLVMValueRef lane_slot_load(struct vz *v, const struct lane_slot *s, LLVMValueRef idx)
{
    LLVMValueRef x = LLVMBuildLoad2(v->b, s->st, lane_slot_element(v, s, idx), "");
    return s->st != s->t ? LLVMBuildTrunc(v->b, x, s->t, "") : x;
}

static void lane_slot_store(struct vz *v, const struct lane_slot *s, LLVMValueRef idx,
                            LLVMValueRef x)
{
    if (s->st != s->t)
        x = LLVMBuildZExt(v->b, x, s->st, "");
    LLVMBuildStore(v->b, x, lane_slot_element(v, s, idx));
}

/*
 * A loop over the set bits of a lane mask, lowest first. lanes_begin ends
 * the current block with a branch into the loop (when `skip` is not NULL,
 * only if some bit is set, else to `skip`), opens its `body` with the phis
 * of `n` more values (starting at `init`, in `phi`) and gives the lane's
 * index; lanes_end sets their next values and goes back while bits are
 * left, else on to `exit`.
 */
struct lanes {
    LLVMValueRef bits, left, idx;
    LLVMValueRef phi[2];
    unsigned n;
    LLVMBasicBlockRef from, end; /* the blocks the loop is entered and left from */
};

/* The mask as a W-bit integer, a bit per lane (all lanes when m is NULL). */
static LLVMValueRef mask_word(struct vz *v, LLVMValueRef m)
{
    LLVMTypeRef bits_t = LLVMIntTypeInContext(v->ctx, v->w);
    return m ? LLVMBuildBitCast(v->b, m, bits_t, "") : LLVMConstAllOnes(bits_t);
}

static LLVMValueRef any_bit(struct vz *v, LLVMValueRef bits)
{
    return LLVMBuildICmp(v->b, LLVMIntNE, bits, LLVMConstNull(LLVMTypeOf(bits)), "");
}

static void lanes_begin(struct vz *v, struct lanes *L, LLVMValueRef bits, LLVMBasicBlockRef skip,
                        LLVMBasicBlockRef body, unsigned n, const LLVMValueRef *init)
{
    LLVMTypeRef bits_t = LLVMTypeOf(bits);
    L->bits = bits;
    L->n = n;
    L->from = LLVMGetInsertBlock(v->b);
    if (skip)
        LLVMBuildCondBr(v->b, any_bit(v, bits), body, skip);
    else
        LLVMBuildBr(v->b, body);
    LLVMPositionBuilderAtEnd(v->b, body);
    L->left = LLVMBuildPhi(v->b, bits_t, "lanes.left");
    LLVMAddIncoming(L->left, &L->bits, &L->from, 1);
    for (unsigned k = 0; k < n; k++) {
        L->phi[k] = LLVMBuildPhi(v->b, LLVMTypeOf(init[k]), "");
        LLVMAddIncoming(L->phi[k], (LLVMValueRef *)&init[k], &L->from, 1);
    }
    LLVMValueRef args[2] = {L->left, LLVMConstInt(v->i1, 1, 0)};
    LLVMValueRef l = intrinsic(v, "llvm.cttz", &bits_t, 1, args, 2);
    L->idx = LLVMBuildIntCast2(v->b, l, v->i32, 0, "lane"); /* i64 bits beyond 32 lanes */
}

static void lanes_end(struct vz *v, struct lanes *L, LLVMBasicBlockRef exit,
                      const LLVMValueRef *next)
{
    LLVMTypeRef bits_t = LLVMTypeOf(L->bits);
    LLVMValueRef rest = LLVMBuildAnd(
        v->b, L->left, LLVMBuildSub(v->b, L->left, LLVMConstInt(bits_t, 1, 0), ""), "");
    L->end = LLVMGetInsertBlock(v->b);
    LLVMBuildCondBr(v->b, any_bit(v, rest), LLVMGetInstructionParent(L->left), exit);
    LLVMAddIncoming(L->left, &rest, &L->end, 1);
    for (unsigned k = 0; k < L->n; k++)
        LLVMAddIncoming(L->phi[k], (LLVMValueRef *)&next[k], &L->end, 1);
}

/*
 * Runs `i` once per active lane in lane order, as a loop over the mask's set
 * bits: one copy of `i` however wide the sub-group. An atomic or a call the
 * inliner expands later would otherwise be W copies, each costing compile
 * time (a kernel of four atomics at W = 16: 866 instructions). Varying
 * operands and the result pass through stack slots, each lane's element
 * read or written alone: a vector inserted into at a variable index would
 * be stored, patched and reloaded whole every iteration (a failed store
 * forward each time).
 */
static LLVMValueRef lane_loop(struct vz *v, LLVMValueRef i, LLVMValueRef m)
{
    LLVMTypeRef t = LLVMTypeOf(i);
    bool has_value = LLVMGetTypeKind(t) != LLVMVoidTypeKind;
    LLVMTypeRef vt = has_value ? vec_type(v, t) : NULL;
    unsigned n = (unsigned)LLVMGetNumOperands(i);
    struct lane_slot slots[n ? n : 1];
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        struct vz_shape sh = vz_shape_of(v, op);
        slots[k].at = NULL;
        if (sh.kind == VZ_UNIFORM || sh.kind == VZ_UNKNOWN || sh.kind == VZ_CONTIGUOUS ||
            components(LLVMTypeOf(op)))
            continue;
        slots[k] = lane_slot(v, LLVMTypeOf(op));
        lane_slot_fill(v, &slots[k], vector(v, op));
    }
    struct lane_slot result = {0};
    if (has_value && !components(t))
        result = lane_slot(v, t);

    /* Aggregates' lanes (rare) are gathered in a phi instead. */
    bool in_phi = has_value && !result.at;
    LLVMBasicBlockRef body = new_block(v, "vz.lane"), done = new_block(v, "vz.lanes.done");
    struct lanes L;
    LLVMValueRef none = has_value ? LLVMGetPoison(vt) : NULL;
    lanes_begin(v, &L, mask_word(v, m), done, body, in_phi, &none);
    LLVMValueRef x = LLVMInstructionClone(i);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        LLVMSetOperand(x, k,
                       slots[k].at ? lane_slot_load(v, &slots[k], L.idx) : lane_of(v, op, L.idx));
    }
    LLVMInsertIntoBuilder(v->b, x);
    LLVMValueRef now = NULL;
    if (result.at)
        lane_slot_store(v, &result, L.idx, x);
    else if (has_value)
        now = set_lane(v, L.phi[0], t, L.idx, x);
    lanes_end(v, &L, done, &now);

    LLVMPositionBuilderAtEnd(v->b, done);
    if (!has_value)
        return NULL;
    if (result.at) /* inactive lanes: whatever the slot held (they are not used) */
        return lane_slot_vector(v, &result);
    LLVMValueRef out = LLVMBuildPhi(v->b, vt, "");
    LLVMValueRef out_in[2] = {none, now};
    LLVMBasicBlockRef out_from[2] = {L.from, L.end};
    LLVMAddIncoming(out, out_in, out_from, 2);
    return out;
}

/*
 * Runs `i` once per lane in lane order, each with its own operands; only
 * the active lanes when `masked` (then as a loop). Returns the lanes'
 * results as a vector.
 */
static LLVMValueRef per_lane(struct vz *v, LLVMValueRef i, bool masked)
{
    if (masked)
        return lane_loop(v, i, mask(v));
    LLVMTypeRef t = LLVMTypeOf(i);
    bool has_value = LLVMGetTypeKind(t) != LLVMVoidTypeKind;
    LLVMValueRef r = has_value ? LLVMGetPoison(vec_type(v, t)) : NULL;
    for (unsigned l = 0; l < v->w; l++) {
        LLVMValueRef idx = LLVMConstInt(v->i32, l, 0);
        LLVMValueRef x = clone_with(v, i, idx);
        r = has_value ? set_lane(v, r, t, idx, x) : NULL;
    }
    return r;
}

/* Strips what could turn lane 0's value into poison when lane 0 is off (linearized code). */
static void drop_poison_flags(LLVMValueRef c)
{
    switch (LLVMGetInstructionOpcode(c)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
        LLVMSetNSW(c, 0);
        LLVMSetNUW(c, 0);
        break;
    case LLVMGetElementPtr: LLVMSetIsInBounds(c, 0); break;
    case LLVMZExt: LLVMSetNNeg(c, 0); break;
    default: break;
    }
}

static void copy_flags(LLVMValueRef from, LLVMValueRef to)
{
    if (!LLVMIsAInstruction(to))
        return;
    switch (LLVMGetInstructionOpcode(from)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
        LLVMSetNSW(to, LLVMGetNSW(from));
        LLVMSetNUW(to, LLVMGetNUW(from));
        break;
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMLShr:
    case LLVMAShr: LLVMSetExact(to, LLVMGetExact(from)); break;
    default: break;
    }
    if (LLVMCanValueUseFastMathFlags(from) && LLVMCanValueUseFastMathFlags(to))
        LLVMSetFastMathFlags(to, LLVMGetFastMathFlags(from));
}

/*
 * A divisor that cannot trap in any lane: frozen (an inactive lane's may be
 * poison), 1 where it is 0, where x / d overflows, or where the lane is off.
 */
static LLVMValueRef safe_divisor(struct vz *v, LLVMOpcode op, LLVMValueRef x, LLVMValueRef d,
                                 LLVMValueRef m)
{
    LLVMTypeRef t = LLVMTypeOf(d);
    bool vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
    LLVMTypeRef e = vec ? LLVMGetElementType(t) : t;
    /* A constant divisor of neither 0 nor -1 in any lane is safe as it is. */
    bool safe = LLVMIsAConstant(d) != NULL;
    for (unsigned l = 0; safe && l < (vec ? v->w : 1); l++) {
        LLVMValueRef c = vec ? LLVMGetAggregateElement(d, l) : d;
        safe = c && LLVMIsAConstantInt(c) && !LLVMIsNull(c) &&
               (op == LLVMUDiv || op == LLVMURem || LLVMConstIntGetSExtValue(c) != -1);
    }
    if (safe)
        return d;
    d = LLVMBuildFreeze(v->b, d, "");
    LLVMValueRef one = LLVMConstInt(e, 1, 0), zero = LLVMConstNull(t);
    LLVMValueRef bad = LLVMBuildICmp(v->b, LLVMIntEQ, d, zero, "");
    if (op == LLVMSDiv || op == LLVMSRem) {
        unsigned bits = LLVMGetIntTypeWidth(e);
        LLVMValueRef min = LLVMConstInt(e, 1ull << (bits - 1), 0), minus = LLVMConstAllOnes(e);
        if (vec) {
            min = splat(v, min);
            minus = splat(v, minus);
        }
        LLVMValueRef o =
            LLVMBuildAnd(v->b, LLVMBuildICmp(v->b, LLVMIntEQ, d, minus, ""),
                         LLVMBuildICmp(v->b, LLVMIntEQ, LLVMBuildFreeze(v->b, x, ""), min, ""), "");
        bad = LLVMBuildOr(v->b, bad, o, "");
    }
    if (m && vec)
        bad = LLVMBuildOr(v->b, bad, LLVMBuildNot(v->b, m, ""), "");
    return LLVMBuildSelect(v->b, bad, vec ? splat(v, one) : one, d, "safe.divisor");
}

static bool is_cast(LLVMOpcode op)
{
    return (op >= LLVMTrunc && op <= LLVMBitCast) || op == LLVMAddrSpaceCast;
}

static bool is_division(LLVMOpcode op)
{
    return op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem;
}

/* An elementwise instruction on vectors: built on each component of aggregates. */
static LLVMValueRef elementwise(struct vz *v, LLVMValueRef i, LLVMValueRef *ops, unsigned n,
                                LLVMTypeRef t);

static LLVMValueRef elementwise_one(struct vz *v, LLVMValueRef i, LLVMValueRef *ops, LLVMTypeRef vt)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    LLVMValueRef r;
    if (op >= LLVMAdd && op <= LLVMXor) {
        LLVMValueRef d = ops[1];
        if (is_division(op))
            d = safe_divisor(v, op, ops[0], d, mask(v));
        r = LLVMBuildBinOp(v->b, op, ops[0], d, "");
    } else if (op == LLVMFNeg) {
        r = LLVMBuildFNeg(v->b, ops[0], "");
    } else if (is_cast(op)) {
        r = LLVMBuildCast(v->b, op, ops[0], vt, "");
        if (op == LLVMZExt)
            LLVMSetNNeg(r, LLVMGetNNeg(i));
    } else if (op == LLVMICmp) {
        r = LLVMBuildICmp(v->b, LLVMGetICmpPredicate(i), ops[0], ops[1], "");
    } else if (op == LLVMFCmp) {
        r = LLVMBuildFCmp(v->b, LLVMGetFCmpPredicate(i), ops[0], ops[1], "");
    } else if (op == LLVMSelect) {
        r = LLVMBuildSelect(v->b, ops[0], ops[1], ops[2], "");
    } else { /* LLVMFreeze */
        r = LLVMBuildFreeze(v->b, ops[0], "");
    }
    copy_flags(i, r);
    return r;
}

static LLVMValueRef elementwise(struct vz *v, LLVMValueRef i, LLVMValueRef *ops, unsigned n,
                                LLVMTypeRef t)
{
    LLVMTypeRef vt = vec_type(v, t);
    unsigned count = components(t);
    if (!count)
        return elementwise_one(v, i, ops, vt);
    LLVMValueRef r = LLVMGetPoison(vt);
    for (unsigned k = 0; k < count; k++) {
        LLVMValueRef parts[3];
        for (unsigned j = 0; j < n; j++)
            parts[j] = LLVMGetTypeKind(LLVMTypeOf(ops[j])) == LLVMArrayTypeKind
                           ? LLVMBuildExtractValue(v->b, ops[j], k, "")
                           : ops[j]; /* a select's one condition for every component */
        r = LLVMBuildInsertValue(v->b, r, elementwise(v, i, parts, n, component_type(t, k)), k, "");
    }
    return r;
}

/* Scalar type t's accesses: bytes of memory per lane, when it has no padding bits. */
static bool plain_scalar(struct vz *v, LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMVectorTypeKind || k == LLVMArrayTypeKind || k == LLVMStructTypeKind)
        return false;
    return LLVMSizeOfTypeInBits(v->td, t) == 8 * LLVMStoreSizeOfType(v->td, t);
}

static LLVMValueRef all_ones(struct vz *v)
{
    return splat(v, LLVMConstInt(v->i1, 1, 0));
}

/* A gather of scalar type t from the pointers `ptrs` under mask m. */
static LLVMValueRef gather(struct vz *v, LLVMTypeRef t, LLVMValueRef ptrs, unsigned align,
                           LLVMValueRef m)
{
    LLVMTypeRef vt = LLVMVectorType(t, v->w);
    LLVMTypeRef over[2] = {vt, LLVMTypeOf(ptrs)};
    LLVMValueRef args[4] = {ptrs, LLVMConstInt(v->i32, align, 0), m ? m : all_ones(v),
                            LLVMGetPoison(vt)};
    return intrinsic(v, "llvm.masked.gather", over, 2, args, 4);
}

static void scatter(struct vz *v, LLVMValueRef val, LLVMValueRef ptrs, unsigned align,
                    LLVMValueRef m)
{
    LLVMTypeRef over[2] = {LLVMTypeOf(val), LLVMTypeOf(ptrs)};
    LLVMValueRef args[4] = {val, ptrs, LLVMConstInt(v->i32, align, 0), m ? m : all_ones(v)};
    intrinsic(v, "llvm.masked.scatter", over, 2, args, 4);
}

/* The pointers to component k (of type `elem`) of what each lane's `ptrs` points at. */
static LLVMValueRef component_ptrs(struct vz *v, LLVMValueRef ptrs, LLVMTypeRef agg, unsigned k)
{
    unsigned long long off = LLVMGetTypeKind(agg) == LLVMStructTypeKind
                                 ? LLVMOffsetOfElement(v->td, agg, k)
                                 : k * LLVMABISizeOfType(v->td, LLVMGetElementType(agg));
    LLVMValueRef o = LLVMConstInt(v->i64, off, 0);
    return LLVMBuildGEP2(v->b, LLVMInt8TypeInContext(v->ctx), ptrs, &o, 1, "");
}

/* Gathers of a value of type t (aggregates component by component). */
static LLVMValueRef gather_any(struct vz *v, LLVMTypeRef t, LLVMValueRef ptrs, unsigned align,
                               LLVMValueRef m)
{
    unsigned n = components(t);
    if (!n)
        return gather(v, t, ptrs, align, m);
    LLVMValueRef r = LLVMGetPoison(vec_type(v, t));
    for (unsigned k = 0; k < n; k++) {
        LLVMTypeRef ct = component_type(t, k);
        LLVMValueRef c = gather_any(v, ct, component_ptrs(v, ptrs, t, k), 1, m);
        r = LLVMBuildInsertValue(v->b, r, c, k, "");
    }
    return r;
}

static void scatter_any(struct vz *v, LLVMTypeRef t, LLVMValueRef val, LLVMValueRef ptrs,
                        unsigned align, LLVMValueRef m)
{
    unsigned n = components(t);
    if (!n) {
        scatter(v, val, ptrs, align, m);
        return;
    }
    for (unsigned k = 0; k < n; k++)
        scatter_any(v, component_type(t, k), LLVMBuildExtractValue(v->b, val, k, ""),
                    component_ptrs(v, ptrs, t, k), 1, m);
}

static unsigned alignment(LLVMValueRef i)
{
    unsigned a = LLVMGetAlignment(i);
    return a ? a : 1;
}

/* Elements [first, first + n) of vector x. */
static LLVMValueRef slice(struct vz *v, LLVMValueRef x, unsigned first, unsigned n)
{
    LLVMValueRef idx[n];
    for (unsigned k = 0; k < n; k++)
        idx[k] = LLVMConstInt(v->i32, first + k, 0);
    return LLVMBuildShuffleVector(v->b, x, LLVMGetPoison(LLVMTypeOf(x)), LLVMConstVector(idx, n),
                                  "");
}

/* The vectors parts[0, count), each of n elements, end to end (count a power of two). */
static LLVMValueRef concat(struct vz *v, LLVMValueRef *parts, unsigned count, unsigned n)
{
    for (; count > 1; count /= 2, n *= 2)
        for (unsigned k = 0; k < count / 2; k++) {
            LLVMValueRef idx[2 * n];
            for (unsigned e = 0; e < 2 * n; e++)
                idx[e] = LLVMConstInt(v->i32, e, 0);
            parts[k] = LLVMBuildShuffleVector(v->b, parts[2 * k], parts[2 * k + 1],
                                              LLVMConstVector(idx, 2 * n), "");
        }
    return parts[0];
}

/*
 * An OpenCL vector type whose lanes lie end to end in memory: each lane's
 * <n x e> right after the previous lane's, with no padding (float4 at a
 * stride of 16 bytes; not float3, whose 12 bytes sit in 16). Its W values
 * are then one block of W * n elements: one wide access and shuffles
 * between "array of structures" and the components' vectors.
 */
static bool interleaved(struct vz *v, LLVMTypeRef t, struct vz_shape a)
{
    if (a.kind != VZ_CONTIGUOUS || LLVMGetTypeKind(t) != LLVMVectorTypeKind)
        return false;
    LLVMTypeRef e = LLVMGetElementType(t);
    return plain_scalar(v, e) && a.stride > 0 &&
           (unsigned long long)a.stride == LLVMStoreSizeOfType(v->td, t) &&
           LLVMStoreSizeOfType(v->td, t) == LLVMGetVectorSize(t) * LLVMStoreSizeOfType(v->td, e);
}

/*
 * The vector form of OpenCL vector type t (one <W x e> per component) as
 * the W lanes' values end to end: <W * n x e>, lane l's n elements from
 * l * n ("array of structures").
 */
static LLVMValueRef interleave(struct vz *v, LLVMTypeRef t, LLVMValueRef val)
{
    unsigned n = LLVMGetVectorSize(t), total = v->w * n;
    /* Components end to end (concat wants a power-of-two count: pad with poison). */
    unsigned count = 1;
    while (count < n)
        count *= 2;
    LLVMValueRef parts[count];
    for (unsigned c = 0; c < count; c++)
        parts[c] = c < n ? LLVMBuildExtractValue(v->b, val, c, "")
                         : LLVMGetPoison(LLVMVectorType(LLVMGetElementType(t), v->w));
    LLVMValueRef comps = concat(v, parts, count, v->w);
    LLVMValueRef *idx = malloc(total * sizeof *idx);
    for (unsigned k = 0; k < total; k++)
        idx[k] = LLVMConstInt(v->i32, (k % n) * v->w + k / n, 0);
    LLVMValueRef all = LLVMBuildShuffleVector(v->b, comps, LLVMGetPoison(LLVMTypeOf(comps)),
                                              LLVMConstVector(idx, total), "");
    free(idx);
    return all;
}

/* The inverse of interleave: each component's <W x e> picked out of `all`. */
static LLVMValueRef deinterleave(struct vz *v, LLVMTypeRef t, LLVMValueRef all)
{
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef r = LLVMGetPoison(vec_type(v, t));
    LLVMValueRef idx[v->w];
    for (unsigned c = 0; c < n; c++) {
        for (unsigned l = 0; l < v->w; l++)
            idx[l] = LLVMConstInt(v->i32, l * n + c, 0);
        LLVMValueRef x = LLVMBuildShuffleVector(v->b, all, LLVMGetPoison(LLVMTypeOf(all)),
                                                LLVMConstVector(idx, v->w), "");
        r = LLVMBuildInsertValue(v->b, r, x, c, "");
    }
    return r;
}

/* Each lane's bit of m repeated n times, for an interleaved access of n elements per lane. */
static LLVMValueRef repeat_mask(struct vz *v, LLVMValueRef m, unsigned n)
{
    unsigned total = v->w * n;
    LLVMValueRef *idx = malloc(total * sizeof *idx);
    for (unsigned k = 0; k < total; k++)
        idx[k] = LLVMConstInt(v->i32, k / n, 0);
    LLVMValueRef r = LLVMBuildShuffleVector(v->b, m, LLVMGetPoison(LLVMTypeOf(m)),
                                            LLVMConstVector(idx, total), "");
    free(idx);
    return r;
}

/* The interleaved load of vector type t at p: one wide load, each component picked out. */
static LLVMValueRef load_interleaved(struct vz *v, LLVMValueRef i, LLVMTypeRef t, LLVMValueRef p,
                                     unsigned align, LLVMValueRef m)
{
    unsigned n = LLVMGetVectorSize(t), total = v->w * n;
    /* One load per native vector register, in ascending address order (as store_interleaved). */
    unsigned esize = (unsigned)LLVMStoreSizeOfType(v->td, LLVMGetElementType(t));
    unsigned step = lanes_host()->vector_bytes / esize;
    if (step < 1 || total % step || (total / step) & (total / step - 1))
        step = total;
    unsigned count = total / step;
    LLVMValueRef bits = m ? repeat_mask(v, m, n) : NULL, parts[count];
    LLVMTypeRef vt = LLVMVectorType(LLVMGetElementType(t), step),
                i8 = LLVMInt8TypeInContext(v->ctx);
    for (unsigned c = 0; c < count; c++) {
        LLVMValueRef off = LLVMConstInt(v->i64, (unsigned long long)c * step * esize, 0);
        LLVMValueRef q = c ? LLVMBuildGEP2(v->b, i8, p, &off, 1, "") : p;
        unsigned a = c ? (align < step * esize ? align : step * esize) : align;
        if (!bits) {
            parts[c] = LLVMBuildLoad2(v->b, vt, q, "");
            LLVMSetAlignment(parts[c], a);
            continue;
        }
        LLVMTypeRef over[2] = {vt, LLVMTypeOf(q)};
        LLVMValueRef args[4] = {q, LLVMConstInt(v->i32, a, 0),
                                count > 1 ? slice(v, bits, c * step, step) : bits,
                                LLVMGetPoison(vt)};
        parts[c] = intrinsic(v, "llvm.masked.load", over, 2, args, 4);
    }
    LLVMValueRef all = concat(v, parts, count, step);
    vz_map_put_value(&v->aos, i, all);
    return deinterleave(v, t, all);
}

/*
 * The interleaved store of `val` (the vector form of vector type t) at p:
 * the components woven into one wide vector, stored at once.
 */
static void store_interleaved(struct vz *v, LLVMTypeRef t, LLVMValueRef scalar_val,
                              LLVMValueRef val, LLVMValueRef p, unsigned align, LLVMValueRef m)
{
    unsigned n = LLVMGetVectorSize(t), total = v->w * n;
    LLVMValueRef all = vz_map_value(&v->aos, scalar_val);
    if (!all)
        all = interleave(v, t, val);
    LLVMValueRef bits = m ? repeat_mask(v, m, n) : NULL;
    /*
     * One store per native vector register, in ascending address order:
     * LLVM splits one wide store in an order of its own choosing (pairs in
     * descending order), and out-of-order stores to a stream cost a third
     * of its bandwidth on Zen 4 (measured in C: 3683 vs 2435 M floats/s).
     */
    unsigned esize = (unsigned)LLVMStoreSizeOfType(v->td, LLVMGetElementType(t));
    unsigned step = lanes_host()->vector_bytes / esize;
    if (step < 1 || total % step)
        step = total;
    LLVMTypeRef i8 = LLVMInt8TypeInContext(v->ctx);
    for (unsigned first = 0; first < total; first += step) {
        LLVMValueRef part = step == total ? all : slice(v, all, first, step);
        LLVMValueRef off = LLVMConstInt(v->i64, (unsigned long long)first * esize, 0);
        LLVMValueRef q = first ? LLVMBuildGEP2(v->b, i8, p, &off, 1, "") : p;
        unsigned a = first ? (align < step * esize ? align : step * esize) : align;
        if (!bits) {
            LLVMValueRef st = LLVMBuildStore(v->b, part, q);
            LLVMSetAlignment(st, a);
            continue;
        }
        LLVMValueRef pm = step == total ? bits : slice(v, bits, first, step);
        LLVMTypeRef over[2] = {LLVMTypeOf(part), LLVMTypeOf(q)};
        LLVMValueRef args[4] = {part, q, LLVMConstInt(v->i32, a, 0), pm};
        intrinsic(v, "llvm.masked.store", over, 2, args, 4);
    }
}

/* A load of a uniform, contiguous or varying address. */
static LLVMValueRef widen_load(struct vz *v, LLVMValueRef i)
{
    LLVMValueRef addr = LLVMGetOperand(i, 0);
    struct vz_shape a = vz_shape_of(v, addr);
    LLVMTypeRef t = LLVMTypeOf(i);
    if (LLVMGetVolatile(i) || LLVMGetOrdering(i))
        return per_lane(v, i, true);
    if (a.kind == VZ_UNIFORM) {
        if (!v->linearized)
            return clone_with(v, i, NULL);
        /*
         * In linearized code the block may run with no lane active: then the
         * address may be bad. The value is then zero, not poison: uniform code
         * goes on with it, and poison passed to a noundef parameter (any
         * library call) would make the path UB, and LLVM would drop the guard.
         */
        struct guard g = guard_begin(v, any(v, mask(v)));
        LLVMValueRef x = clone_with(v, i, NULL);
        return guard_end(v, &g, x, LLVMConstNull(t));
    }
    LLVMValueRef m = mask(v);
    if (a.kind == VZ_CONTIGUOUS && plain_scalar(v, t) &&
        a.stride == (int64_t)LLVMStoreSizeOfType(v->td, t)) {
        LLVMValueRef p = scalar(v, addr);
        LLVMTypeRef vt = LLVMVectorType(t, v->w);
        if (!m) {
            LLVMValueRef x = LLVMBuildLoad2(v->b, vt, p, "");
            LLVMSetAlignment(x, alignment(i));
            return x;
        }
        LLVMTypeRef over[2] = {vt, LLVMTypeOf(p)};
        LLVMValueRef args[4] = {p, LLVMConstInt(v->i32, alignment(i), 0), m, LLVMGetPoison(vt)};
        return intrinsic(v, "llvm.masked.load", over, 2, args, 4);
    }
    if (interleaved(v, t, a))
        return load_interleaved(v, i, t, scalar(v, addr), alignment(i), m);
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind)
        return per_lane(v, i, true);
    return gather_any(v, t, vector(v, addr), alignment(i), m);
}

/* The index of the last active lane of m (m NULL: the last lane). */
static LLVMValueRef last_lane(struct vz *v, LLVMValueRef m)
{
    if (!m)
        return LLVMConstInt(v->i32, v->w - 1, 0);
    LLVMTypeRef bits = LLVMIntTypeInContext(v->ctx, v->w);
    LLVMValueRef b = LLVMBuildBitCast(v->b, m, bits, "");
    LLVMValueRef args[2] = {b, LLVMConstInt(v->i1, 0, 0)};
    LLVMValueRef lz = intrinsic(v, "llvm.ctlz", &bits, 1, args, 2);
    LLVMValueRef idx = LLVMBuildSub(v->b, LLVMConstInt(bits, v->w - 1, 0), lz, "");
    return LLVMBuildIntCast2(v->b, idx, v->i32, 0, ""); /* i64 beyond 32 lanes */
}

static void widen_store(struct vz *v, LLVMValueRef i)
{
    LLVMValueRef val = LLVMGetOperand(i, 0), addr = LLVMGetOperand(i, 1);
    struct vz_shape a = vz_shape_of(v, addr), s = vz_shape_of(v, val);
    LLVMTypeRef t = LLVMTypeOf(val);
    LLVMValueRef m = mask(v);
    if (LLVMGetVolatile(i) || LLVMGetOrdering(i)) {
        per_lane(v, i, true);
        return;
    }
    if (a.kind == VZ_UNIFORM) {
        /* Every active lane stores there: the last one's value stays. */
        struct guard g;
        if (v->linearized)
            g = guard_begin(v, any(v, m));
        if (s.kind == VZ_UNIFORM) {
            clone_with(v, i, NULL);
        } else {
            if (components(t)) {
                /* Aggregates: stored lane after lane, so that the last one's stays. */
                per_lane(v, i, true);
            } else {
                LLVMValueRef x = LLVMBuildExtractElement(v->b, vector(v, val), last_lane(v, m), "");
                LLVMValueRef st = LLVMBuildStore(v->b, x, scalar(v, addr));
                LLVMSetAlignment(st, alignment(i));
            }
        }
        if (v->linearized)
            guard_end(v, &g, NULL, NULL);
        return;
    }
    if (a.kind == VZ_CONTIGUOUS && plain_scalar(v, t) &&
        a.stride == (int64_t)LLVMStoreSizeOfType(v->td, t)) {
        LLVMValueRef p = scalar(v, addr), x = vector(v, val);
        if (!m) {
            LLVMValueRef st = LLVMBuildStore(v->b, x, p);
            LLVMSetAlignment(st, alignment(i));
            return;
        }
        LLVMTypeRef over[2] = {LLVMTypeOf(x), LLVMTypeOf(p)};
        LLVMValueRef args[4] = {x, p, LLVMConstInt(v->i32, alignment(i), 0), m};
        intrinsic(v, "llvm.masked.store", over, 2, args, 4);
        return;
    }
    if (interleaved(v, t, a)) {
        store_interleaved(v, t, val, vector(v, val), scalar(v, addr), alignment(i), m);
        return;
    }
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
        per_lane(v, i, true);
        return;
    }
    scatter_any(v, t, vector(v, val), vector(v, addr), alignment(i), m);
}

/* Intrinsics that apply elementwise to vectors of their overloaded type. */
static bool elementwise_intrinsic(const char *name)
{
    static const char *names[] = {
        "llvm.fabs.",        "llvm.sqrt.",      "llvm.fma.",      "llvm.fmuladd.",
        "llvm.minnum.",      "llvm.maxnum.",    "llvm.minimum.",  "llvm.maximum.",
        "llvm.copysign.",    "llvm.floor.",     "llvm.ceil.",     "llvm.trunc.",
        "llvm.rint.",        "llvm.nearbyint.", "llvm.round.",    "llvm.roundeven.",
        "llvm.smin.",        "llvm.smax.",      "llvm.umin.",     "llvm.umax.",
        "llvm.abs.",         "llvm.ctpop.",     "llvm.ctlz.",     "llvm.cttz.",
        "llvm.bitreverse.",  "llvm.bswap.",     "llvm.fshl.",     "llvm.fshr.",
        "llvm.sadd.sat.",    "llvm.uadd.sat.",  "llvm.ssub.sat.", "llvm.usub.sat.",
        "llvm.canonicalize."};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        if (strncmp(name, names[k], strlen(names[k])) == 0)
            return true;
    return false;
}

/* A call of an elementwise intrinsic: the same intrinsic on vectors (per component of aggregates).
 */
static LLVMValueRef widen_intrinsic(struct vz *v, LLVMValueRef i, LLVMValueRef f)
{
    LLVMTypeRef t = LLVMTypeOf(i);
    unsigned n = (unsigned)LLVMGetNumArgOperands(i);
    unsigned id = LLVMGetIntrinsicID(f);
    unsigned count = components(t);
    LLVMTypeRef et = count ? LLVMGetElementType(t) : t;
    LLVMTypeRef vt = LLVMVectorType(et, v->w);
    LLVMValueRef decl = LLVMGetIntrinsicDeclaration(v->m, id, &vt, 1);
    LLVMTypeRef ft = LLVMIntrinsicGetType(v->ctx, id, &vt, 1);
    LLVMValueRef args[n ? n : 1], whole[n ? n : 1];
    /* An operand of the result's type is per lane, but not a flag (abs, ctlz and cttz of i1). */
    bool lanes[n ? n : 1];
    unsigned immarg = LLVMGetEnumAttributeKindForName("immarg", 6);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        lanes[k] = LLVMTypeOf(op) == t && !LLVMGetEnumAttributeAtIndex(f, k + 1, immarg);
        whole[k] = lanes[k] ? vector(v, op) : scalar(v, op);
    }
    if (!count) {
        for (unsigned k = 0; k < n; k++)
            args[k] = whole[k];
        LLVMValueRef r = LLVMBuildCall2(v->b, ft, decl, args, n, "");
        copy_flags(i, r);
        return r;
    }
    LLVMValueRef r = LLVMGetPoison(vec_type(v, t));
    for (unsigned c = 0; c < count; c++) {
        for (unsigned k = 0; k < n; k++)
            args[k] = lanes[k] ? LLVMBuildExtractValue(v->b, whole[k], c, "") : whole[k];
        LLVMValueRef x = LLVMBuildCall2(v->b, ft, decl, args, n, "");
        copy_flags(i, x);
        r = LLVMBuildInsertValue(v->b, r, x, c, "");
    }
    return r;
}

/* True when the call's operands that are not of its result type are uniform. */
static bool other_operands_uniform(struct vz *v, LLVMValueRef i)
{
    unsigned n = (unsigned)LLVMGetNumArgOperands(i);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        if (LLVMTypeOf(op) != LLVMTypeOf(i) && vz_shape_of(v, op).kind != VZ_UNIFORM)
            return false;
    }
    return true;
}

/*
 * A call of SLEEF's scalar code whose operands and result are all of one
 * float or double type (or OpenCL vector of it): SLEEF's vector code of the
 * host's level (vz_math.c), once per slice of the lanes and per component.
 * Every lane computes: SLEEF's code of one element does not depend on the
 * others (builtins/include/lanes_math.h). Inactive lanes' arguments are
 * frozen (they may be poison). NULL when the call is not one.
 */
static LLVMValueRef widen_math_call(struct vz *v, LLVMValueRef i, LLVMValueRef f, const char *name)
{
    LLVMTypeRef t = LLVMTypeOf(i);
    unsigned count = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 0;
    LLVMTypeRef et = count ? LLVMGetElementType(t) : t;
    LLVMTypeKind kind = LLVMGetTypeKind(et);
    unsigned n = (unsigned)LLVMGetNumArgOperands(i), chunk = 0;
    char vname[128];
    if ((kind != LLVMFloatTypeKind && kind != LLVMDoubleTypeKind) || n == 0 || n > 3 ||
        !vz_math_form(name, v->w, vname, sizeof vname, &chunk))
        return NULL;
    for (unsigned k = 0; k < n; k++)
        if (LLVMTypeOf(LLVMGetOperand(i, k)) != t)
            return NULL;
    LLVMTypeRef ct = LLVMVectorType(et, chunk), params[3] = {ct, ct, ct};
    LLVMTypeRef ft = LLVMFunctionType(ct, params, n, 0);
    bool declared = LLVMGetNamedFunction(v->m, vname) != NULL;
    LLVMValueRef vf = vz_function(v, vname, ft);
    if (!declared) { /* SLEEF's attributes: const, nounwind... */
        unsigned na = LLVMGetAttributeCountAtIndex(f, LLVMAttributeFunctionIndex);
        LLVMAttributeRef attrs[na ? na : 1];
        LLVMGetAttributesAtIndex(f, LLVMAttributeFunctionIndex, attrs);
        for (unsigned k = 0; k < na; k++)
            LLVMAddAttributeAtIndex(vf, LLVMAttributeFunctionIndex, attrs[k]);
    }
    LLVMValueRef ops[3];
    for (unsigned k = 0; k < n; k++)
        ops[k] = vector(v, LLVMGetOperand(i, k));
    if (count >= chunk && count % chunk == 0) {
        /*
         * Each lane's OpenCL vector fills whole calls: call on the lanes'
         * values end to end, as the kernel wrote them, rather than on the
         * components. A load or store of the same layout around the call
         * then needs no shuffles at all (LLVM cancels the pairs).
         */
        unsigned per_lane = count / chunk, calls = v->w * per_lane;
        LLVMValueRef all[3], parts[calls];
        for (unsigned k = 0; k < n; k++) {
            all[k] = vz_map_value(&v->aos, LLVMGetOperand(i, k));
            if (!all[k])
                all[k] = interleave(v, t, ops[k]);
            if (mask(v)) /* an inactive lane's argument may be poison */
                all[k] = LLVMBuildFreeze(v->b, all[k], "");
        }
        for (unsigned c = 0; c < calls; c++) {
            LLVMValueRef args[3];
            for (unsigned k = 0; k < n; k++)
                args[k] = slice(v, all[k], c * chunk, chunk);
            parts[c] = LLVMBuildCall2(v->b, ft, vf, args, n, "");
        }
        LLVMValueRef result = concat(v, parts, calls, chunk);
        vz_map_put_value(&v->aos, i, result);
        return deinterleave(v, t, result);
    }
    unsigned slices = v->w / chunk;
    LLVMValueRef r = LLVMGetPoison(vec_type(v, t));
    for (unsigned c = 0; c < (count ? count : 1); c++) {
        LLVMValueRef whole[3], parts[slices];
        for (unsigned k = 0; k < n; k++) {
            whole[k] = count ? LLVMBuildExtractValue(v->b, ops[k], c, "") : ops[k];
            if (mask(v)) /* an inactive lane's argument may be poison */
                whole[k] = LLVMBuildFreeze(v->b, whole[k], "");
        }
        for (unsigned s = 0; s < slices; s++) {
            LLVMValueRef args[3];
            for (unsigned k = 0; k < n; k++)
                args[k] = slices > 1 ? slice(v, whole[k], s * chunk, chunk) : whole[k];
            parts[s] = LLVMBuildCall2(v->b, ft, vf, args, n, "");
        }
        LLVMValueRef x = concat(v, parts, slices, chunk);
        if (!count)
            return x;
        r = LLVMBuildInsertValue(v->b, r, x, c, "");
    }
    return r;
}

static LLVMValueRef widen_call(struct vz *v, LLVMValueRef i)
{
    const char *name;
    LLVMValueRef f = vz_callee(i, &name);
    if (strcmp(name, VZ_ANY_FUNCTION) == 0) {
        LLVMValueRef x = LLVMGetOperand(i, 0);
        return vz_shape_of(v, x).kind == VZ_UNIFORM ? scalar(v, x) : any(v, vector(v, x));
    }
    if (lanes_is_barrier(i))
        return clone_with(v, i, NULL); /* once for the sub-group */
    if (LLVMGetIntrinsicID(f) && elementwise_intrinsic(name) && other_operands_uniform(v, i))
        return widen_intrinsic(v, i, f);
    if (strncmp(name, "llvm.lifetime.", 14) == 0 || strncmp(name, "llvm.dbg.", 9) == 0 ||
        strcmp(name, "llvm.assume") == 0 || strncmp(name, "llvm.experimental.noalias", 25) == 0)
        return NULL; /* hints about one lane's memory: dropped */
    LLVMValueRef math = widen_math_call(v, i, f, name);
    if (math)
        return math;
    /*
     * Only the active lanes call, pure functions too: an inactive lane's
     * arguments are garbage, and a library function may take its time on
     * garbage (SLEEF's fmod loops over the exponent difference).
     */
    return per_lane(v, i, true);
}

/* A private slot for one <W x T> in the vector function's entry block, aligned for vectors. */
static LLVMValueRef entry_slot(struct vz *v, LLVMTypeRef t)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(v->ctx);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(v->vfn);
    LLVMValueRef first = LLVMGetFirstInstruction(entry);
    if (first)
        LLVMPositionBuilderBefore(b, first);
    else
        LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef a = LLVMBuildAlloca(b, t, "sg.slot");
    LLVMSetAlignment(a, (unsigned)LLVMABIAlignmentOfType(v->td, t));
    LLVMDisposeBuilder(b);
    return a;
}

/*
 * The integer type of a bit mask of the lanes: i32 up to 32 lanes (what the
 * library's sub-group functions take), one bit a lane beyond (interleaved
 * sub-groups, compiler/interleave.c, call none of them).
 */
static LLVMTypeRef bits_type(struct vz *v)
{
    return v->w <= 32 ? v->i32 : LLVMIntTypeInContext(v->ctx, v->w);
}

/* Lanes of an <W x i1> as a bit mask (bit l: lane l). */
static LLVMValueRef lane_bits(struct vz *v, LLVMValueRef m)
{
    LLVMValueRef bits = LLVMBuildBitCast(v->b, m, LLVMIntTypeInContext(v->ctx, v->w), "");
    return v->w < 32 ? LLVMBuildZExt(v->b, bits, v->i32, "") : bits;
}

/* The active lanes as a bit mask (bit l: lane l). */
static LLVMValueRef mask_bits(struct vz *v)
{
    LLVMValueRef m = mask(v);
    if (!m)
        return v->w >= 32 ? LLVMConstAllOnes(bits_type(v))
                          : LLVMConstInt(v->i32, (1u << v->w) - 1, 0);
    return lane_bits(v, m);
}

/* The value of `x` in the first active lane (lane 0 when none is). */
static LLVMValueRef first_active(struct vz *v, LLVMValueRef x)
{
    if (vz_shape_of(v, x).kind == VZ_UNIFORM)
        return scalar(v, x);
    LLVMValueRef bits = mask_bits(v);
    LLVMTypeRef t = bits_type(v);
    LLVMValueRef args[2] = {bits, LLVMConstInt(v->i1, 0, 0)};
    LLVMValueRef lane = intrinsic(v, "llvm.cttz", &t, 1, args, 2);
    lane = LLVMBuildAnd(v->b, lane, LLVMConstInt(t, v->w - 1, 0), "");
    /* No lane active: an inactive lane's value, which must not be poison (noundef). */
    return LLVMBuildFreeze(v->b, LLVMBuildExtractElement(v->b, vector(v, x), lane, ""), "");
}

/*
 * A sub-group function: one call of its vector form (vz_subgroup.c), which
 * sees every lane's operand and the active lanes. The functions of OpenCL
 * vectors are the library's, made of calls of the scalar ones (names.c).
 */
static LLVMValueRef widen_sg_call(struct vz *v, LLVMValueRef i, const char *name,
                                  const struct vz_sg_form *form)
{
    char vname[256];
    LLVMTypeRef t = LLVMTypeOf(i);
    unsigned n = (unsigned)LLVMGetNumArgOperands(i);
    if (strlen(form->params) != n) {
        vz_refuse(v, i, "a sub-group function called with unexpected operands");
        return NULL;
    }
    /* A uniform result may be an OpenCL vector (sub_group_ballot's uint4); a varying one not. */
    if (!vz_sg_form_name(name, v->w, vname, sizeof vname) ||
        (form->result == 'v' ? !plain_scalar(v, t) : !vec_type(v, t))) {
        vz_refuse(v, i, "a sub-group function of a type with no vector form");
        return NULL;
    }
    LLVMTypeRef ptr = LLVMPointerTypeInContext(v->ctx, 0);
    LLVMTypeRef types[n + 2];
    LLVMValueRef args[n + 2];
    unsigned k = 0;
    LLVMValueRef out = NULL;
    if (form->result == 'v') {
        out = entry_slot(v, vec_type(v, t));
        types[k] = ptr;
        args[k++] = out;
    }
    for (unsigned a = 0; a < n; a++) {
        LLVMValueRef op = LLVMGetOperand(i, a);
        if (!plain_scalar(v, LLVMTypeOf(op))) {
            vz_refuse(v, i, "a sub-group function of a type with no vector form");
            return NULL;
        }
        if (form->params[a] == 'b') {
            /* A predicate's lanes as bits: one comparison into a mask register. */
            LLVMTypeRef ot = LLVMTypeOf(op);
            if (LLVMGetTypeKind(ot) != LLVMIntegerTypeKind) {
                vz_refuse(v, i, "a sub-group function of a type with no vector form");
                return NULL;
            }
            LLVMValueRef ne =
                LLVMBuildICmp(v->b, LLVMIntNE, vector(v, op), LLVMConstNull(vec_type(v, ot)), "");
            types[k] = v->i32;
            args[k++] = lane_bits(v, ne);
        } else if (form->params[a] == 'v') {
            LLVMValueRef slot = entry_slot(v, vec_type(v, LLVMTypeOf(op)));
            LLVMBuildStore(v->b, vector(v, op), slot);
            types[k] = ptr;
            args[k++] = slot;
        } else {
            types[k] = LLVMTypeOf(op);
            args[k++] = first_active(v, op);
        }
    }
    types[k] = v->i32;
    args[k++] = mask_bits(v);
    LLVMTypeRef ft =
        LLVMFunctionType(form->result == 'v' ? LLVMVoidTypeInContext(v->ctx) : t, types, k, 0);
    LLVMValueRef f = vz_function(v, vname, ft);
    LLVMValueRef call = LLVMBuildCall2(v->b, ft, f, args, k, "");
    if (!out)
        return call;
    LLVMValueRef r = LLVMBuildLoad2(v->b, vec_type(v, t), out, "");
    LLVMSetAlignment(r, (unsigned)LLVMABIAlignmentOfType(v->td, vec_type(v, t)));
    return r;
}

/* extractelement, insertelement and shufflevector on a varying vector (an array of vectors). */
static LLVMValueRef widen_vector_op(struct vz *v, LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    LLVMValueRef agg = vector(v, LLVMGetOperand(i, 0));
    LLVMTypeRef st = LLVMTypeOf(LLVMGetOperand(i, 0));
    unsigned n = LLVMGetVectorSize(st);
    if (op == LLVMExtractElement) {
        LLVMValueRef idx = LLVMGetOperand(i, 1);
        if (LLVMIsAConstantInt(idx)) {
            unsigned long long k = LLVMConstIntGetZExtValue(idx);
            return k < n ? LLVMBuildExtractValue(v->b, agg, (unsigned)k, "")
                         : LLVMGetPoison(vec_type(v, LLVMTypeOf(i)));
        }
        LLVMValueRef vi = vector(v, idx), r = LLVMGetPoison(vec_type(v, LLVMTypeOf(i)));
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef is = LLVMBuildICmp(v->b, LLVMIntEQ, vi,
                                            splat(v, LLVMConstInt(LLVMTypeOf(idx), k, 0)), "");
            r = LLVMBuildSelect(v->b, is, LLVMBuildExtractValue(v->b, agg, k, ""), r, "");
        }
        return r;
    }
    if (op == LLVMInsertElement) {
        LLVMValueRef x = vector(v, LLVMGetOperand(i, 1)), idx = LLVMGetOperand(i, 2);
        if (LLVMIsAConstantInt(idx)) {
            unsigned long long k = LLVMConstIntGetZExtValue(idx);
            return k < n ? LLVMBuildInsertValue(v->b, agg, x, (unsigned)k, "") : agg;
        }
        LLVMValueRef vi = vector(v, idx);
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef is = LLVMBuildICmp(v->b, LLVMIntEQ, vi,
                                            splat(v, LLVMConstInt(LLVMTypeOf(idx), k, 0)), "");
            LLVMValueRef old = LLVMBuildExtractValue(v->b, agg, k, "");
            agg = LLVMBuildInsertValue(v->b, agg, LLVMBuildSelect(v->b, is, x, old, ""), k, "");
        }
        return agg;
    }
    /* shufflevector with its constant mask. */
    LLVMValueRef other = vector(v, LLVMGetOperand(i, 1));
    unsigned out = LLVMGetNumMaskElements(i);
    LLVMValueRef r = LLVMGetPoison(vec_type(v, LLVMTypeOf(i)));
    for (unsigned k = 0; k < out; k++) {
        int e = LLVMGetMaskValue(i, k);
        if (e < 0)
            continue;
        LLVMValueRef c = (unsigned)e < n ? LLVMBuildExtractValue(v->b, agg, (unsigned)e, "")
                                         : LLVMBuildExtractValue(v->b, other, (unsigned)e - n, "");
        r = LLVMBuildInsertValue(v->b, r, c, k, "");
    }
    return r;
}

/* a op b for atomicrmw operation `op` (scalars or vectors of integers). */
static LLVMValueRef combine(struct vz *v, LLVMAtomicRMWBinOp op, LLVMValueRef a, LLVMValueRef b)
{
    LLVMIntPredicate keep_a;
    switch (op) {
    case LLVMAtomicRMWBinOpXchg: return b;
    case LLVMAtomicRMWBinOpAdd:
    case LLVMAtomicRMWBinOpSub: return LLVMBuildAdd(v->b, a, b, ""); /* the sum is subtracted */
    case LLVMAtomicRMWBinOpAnd: return LLVMBuildAnd(v->b, a, b, "");
    case LLVMAtomicRMWBinOpOr: return LLVMBuildOr(v->b, a, b, "");
    case LLVMAtomicRMWBinOpXor: return LLVMBuildXor(v->b, a, b, "");
    case LLVMAtomicRMWBinOpMax: keep_a = LLVMIntSGT; break;
    case LLVMAtomicRMWBinOpMin: keep_a = LLVMIntSLT; break;
    case LLVMAtomicRMWBinOpUMax: keep_a = LLVMIntUGT; break;
    default: keep_a = LLVMIntULT; break; /* umin */
    }
    return LLVMBuildSelect(v->b, LLVMBuildICmp(v->b, keep_a, a, b, ""), a, b, "");
}

/*
 * An integer atomicrmw at a uniform address, as one atomic for the whole
 * sub-group (a counter every lane bumps, the CTS's exchanges on one
 * location): a loop over the active lanes in lane order combines their
 * operands with plain instructions, keeping what the lanes before each one
 * combined; one atomicrmw applies the combination; each lane's result is
 * the old value combined with what the lanes before it brought (for an
 * exchange: the previous active lane's operand, the old value for the
 * first). Memory and every lane's result are exactly those of the lanes
 * running one after another with no other access between them, an order
 * the memory model allows, so results match width 1; the CPU makes one
 * locked operation instead of W. Float operations stay in the lane loop:
 * combining their operands first would round differently. NULL when `i`
 * is not such an atomic.
 */
/*
 * combined_atomic with the same operand `x` in every lane (atomic_inc):
 * no loop. The lanes before lane l are the active bits below it; an add
 * of x by each of n lanes is one add of n * x, and lane l's old value is
 * the old value plus x times the active lanes below it. For and, or, the
 * minima and maxima, the first active lane sees the old value and every
 * later one the old value combined with x once (applying x again changes
 * nothing); an exchange leaves x, and later lanes see x.
 */
static LLVMValueRef combined_uniform_atomic(struct vz *v, LLVMValueRef i, LLVMValueRef p,
                                            LLVMAtomicRMWBinOp op, LLVMValueRef identity)
{
    LLVMValueRef x = scalar(v, LLVMGetOperand(i, 1));
    LLVMTypeRef t = LLVMTypeOf(x), bits_t = LLVMIntTypeInContext(v->ctx, v->w);
    LLVMTypeRef bits_vt = LLVMVectorType(bits_t, v->w), vt = LLVMVectorType(t, v->w);
    LLVMValueRef bits = mask_word(v, mask(v));
    LLVMValueRef lower[v->w]; /* lane l: the bits of the lanes before it */
    for (unsigned l = 0; l < v->w; l++)
        lower[l] = LLVMConstInt(bits_t, l ? (~0ull >> (64 - l)) : 0, 0);
    LLVMValueRef below = LLVMBuildAnd(v->b, splat(v, bits), LLVMConstVector(lower, v->w), "");
    LLVMValueRef total = x, prior = NULL;
    LLVMValueRef is_first = LLVMBuildICmp(v->b, LLVMIntEQ, below, LLVMConstNull(bits_vt), "");
    if (op == LLVMAtomicRMWBinOpAdd || op == LLVMAtomicRMWBinOpSub) {
        LLVMValueRef n = intrinsic(v, "llvm.ctpop", &bits_t, 1, &bits, 1);
        total = LLVMBuildMul(v->b, x, LLVMBuildIntCast2(v->b, n, t, 0, ""), "");
        LLVMValueRef rank = intrinsic(v, "llvm.ctpop", &bits_vt, 1, &below, 1);
        prior = LLVMBuildMul(v->b, splat(v, x), LLVMBuildIntCast2(v->b, rank, vt, 0, ""), "");
    } else if (op != LLVMAtomicRMWBinOpXchg) {
        prior = LLVMBuildSelect(v->b, is_first, splat(v, identity), splat(v, x), "");
    }
    struct guard g = guard_begin(v, any_bit(v, bits));
    LLVMValueRef a = LLVMInstructionClone(i); /* its ordering, scope, alignment, volatility */
    LLVMSetOperand(a, 0, p);
    LLVMSetOperand(a, 1, total);
    LLVMInsertIntoBuilder(v->b, a);
    LLVMValueRef old = splat(v, guard_end(v, &g, a, LLVMGetPoison(t)));
    if (op == LLVMAtomicRMWBinOpXchg)
        return LLVMBuildSelect(v->b, is_first, old, splat(v, x), "");
    if (op == LLVMAtomicRMWBinOpSub)
        return LLVMBuildSub(v->b, old, prior, "");
    return combine(v, op, old, prior);
}

/*
 * The operand that leaves an integer atomicrmw's location as it is (any
 * value for an exchange), or NULL when combined_atomic cannot take it.
 */
static LLVMValueRef atomic_identity(LLVMValueRef i)
{
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, 1));
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) > 64)
        return NULL;
    unsigned long long sign = 1ull << (LLVMGetIntTypeWidth(t) - 1);
    switch (LLVMGetAtomicRMWBinOp(i)) {
    case LLVMAtomicRMWBinOpXchg: /* the first lane's result is the old value */
    case LLVMAtomicRMWBinOpAdd:
    case LLVMAtomicRMWBinOpSub:
    case LLVMAtomicRMWBinOpOr:
    case LLVMAtomicRMWBinOpXor:
    case LLVMAtomicRMWBinOpUMax: return LLVMConstNull(t);
    case LLVMAtomicRMWBinOpAnd:
    case LLVMAtomicRMWBinOpUMin: return LLVMConstAllOnes(t);
    case LLVMAtomicRMWBinOpMax: return LLVMConstInt(t, sign, 0);
    case LLVMAtomicRMWBinOpMin: return LLVMConstInt(t, sign - 1, 0);
    default: return NULL;
    }
}

/* combined_atomic at `ptr`, the scalar address of every active lane. */
static LLVMValueRef combined_atomic(struct vz *v, LLVMValueRef i, LLVMValueRef ptr)
{
    LLVMValueRef x = LLVMGetOperand(i, 1), identity = atomic_identity(i);
    LLVMTypeRef t = LLVMTypeOf(x);
    LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(i);
    struct vz_shape xs = vz_shape_of(v, x);
    if (xs.kind == VZ_UNIFORM && op != LLVMAtomicRMWBinOpXor)
        return combined_uniform_atomic(v, i, ptr, op, identity);
    struct lane_slot operand = {0};
    if (xs.kind == VZ_VARYING) {
        operand = lane_slot(v, t);
        lane_slot_fill(v, &operand, vector(v, x));
    }
    struct lane_slot before = lane_slot(v, t); /* what the lanes before each one combined */

    LLVMValueRef bits = mask_word(v, mask(v));
    LLVMBasicBlockRef body = new_block(v, "vz.combine"), last = new_block(v, "vz.combined");
    LLVMBasicBlockRef done = new_block(v, "vz.combine.done");
    struct lanes L;
    lanes_begin(v, &L, bits, done, body, 1, &identity);
    LLVMValueRef acc = L.phi[0];
    LLVMValueRef xl = operand.at ? lane_slot_load(v, &operand, L.idx) : lane_of(v, x, L.idx);
    lane_slot_store(v, &before, L.idx, acc);
    LLVMValueRef next = combine(v, op, acc, xl);
    lanes_end(v, &L, last, &next);

    LLVMPositionBuilderAtEnd(v->b, last);
    LLVMValueRef a = LLVMInstructionClone(i); /* its ordering, scope, alignment, volatility */
    LLVMSetOperand(a, 0, ptr);
    LLVMSetOperand(a, 1, next);
    LLVMInsertIntoBuilder(v->b, a);
    LLVMBuildBr(v->b, done);

    LLVMPositionBuilderAtEnd(v->b, done);
    LLVMValueRef old = LLVMBuildPhi(v->b, t, "");
    LLVMValueRef old_in[2] = {LLVMGetPoison(t), a};
    LLVMBasicBlockRef old_from[2] = {L.from, last};
    LLVMAddIncoming(old, old_in, old_from, 2);
    LLVMValueRef prior = lane_slot_vector(v, &before); /* inactive lanes: unused */
    if (op == LLVMAtomicRMWBinOpXchg) {
        LLVMTypeRef bits_t = LLVMTypeOf(bits);
        LLVMValueRef first_args[2] = {bits, LLVMConstInt(v->i1, 0, 0)};
        LLVMValueRef first = intrinsic(v, "llvm.cttz", &bits_t, 1, first_args, 2);
        first = LLVMBuildIntCast2(v->b, first, v->i32, 0, "");
        LLVMValueRef is_first =
            LLVMBuildICmp(v->b, LLVMIntEQ, iota(v, v->i32, 1), splat(v, first), "");
        return LLVMBuildSelect(v->b, is_first, splat(v, old), prior, "");
    }
    if (op == LLVMAtomicRMWBinOpSub)
        return LLVMBuildSub(v->b, splat(v, old), prior, "");
    return combine(v, op, splat(v, old), prior);
}

/*
 * An atomicrmw: one for the sub-group at a uniform address
 * (combined_atomic). At varying addresses that are the same in every
 * active lane when it runs (a bitmap's word, `&bits[gid / 32]`), the
 * same, chosen at run time; else once per active lane.
 */
static LLVMValueRef widen_atomicrmw(struct vz *v, LLVMValueRef i)
{
    LLVMValueRef p = LLVMGetOperand(i, 0);
    enum vz_kind kind = vz_shape_of(v, p).kind;
    if (!atomic_identity(i) || (kind != VZ_UNIFORM && kind != VZ_VARYING))
        return per_lane(v, i, true);
    if (kind == VZ_UNIFORM)
        return combined_atomic(v, i, scalar(v, p));
    LLVMValueRef first = first_active(v, p);
    LLVMValueRef same = LLVMBuildICmp(v->b, LLVMIntEQ, vector(v, p), splat(v, first), "");
    LLVMValueRef m = mask(v);
    if (m)
        same = LLVMBuildOr(v->b, same, LLVMBuildNot(v->b, m, ""), "");
    LLVMTypeRef same_t = LLVMTypeOf(same);
    LLVMValueRef all = intrinsic(v, "llvm.vector.reduce.and", &same_t, 1, &same, 1);
    LLVMBasicBlockRef one = new_block(v, "vz.one.address"), many = new_block(v, "vz.addresses");
    LLVMBasicBlockRef join = new_block(v, "vz.atomic.done");
    LLVMBuildCondBr(v->b, all, one, many);
    LLVMValueRef out[2];
    LLVMBasicBlockRef from[2];
    LLVMPositionBuilderAtEnd(v->b, one);
    out[0] = combined_atomic(v, i, first);
    from[0] = LLVMGetInsertBlock(v->b);
    LLVMBuildBr(v->b, join);
    LLVMPositionBuilderAtEnd(v->b, many);
    out[1] = per_lane(v, i, true);
    from[1] = LLVMGetInsertBlock(v->b);
    LLVMBuildBr(v->b, join);
    LLVMPositionBuilderAtEnd(v->b, join);
    LLVMValueRef phi = LLVMBuildPhi(v->b, LLVMTypeOf(out[0]), "");
    LLVMAddIncoming(phi, out, from, 2);
    return phi;
}

/*
 * A cmpxchg at a uniform address, as at most one for the whole sub-group
 * (a compare-exchange loop on one location): one atomic load of the value,
 * then the active lanes' compare-exchanges played in lane order on it with
 * plain instructions (each lane's old value and success kept in slots);
 * if some lane succeeded, one cmpxchg of the loaded value for the final
 * one, and when another thread changed the location in between, again
 * from the value that cmpxchg saw. Each lane's result is what it would
 * have seen with the lanes running one after another with nothing
 * between them, an order the memory model allows, so results match width
 * 1; a weak compare-exchange, allowed to fail spuriously, simply does not.
 * NULL when the address is not uniform.
 */
static LLVMValueRef combined_cmpxchg(struct vz *v, LLVMValueRef i)
{
    LLVMValueRef p = LLVMGetOperand(i, 0), want = LLVMGetOperand(i, 1), x = LLVMGetOperand(i, 2);
    if (vz_shape_of(v, p).kind != VZ_UNIFORM)
        return NULL;
    LLVMTypeRef t = LLVMTypeOf(x);
    struct lane_slot want_slot = {0}, x_slot = {0};
    if (vz_shape_of(v, want).kind == VZ_VARYING) {
        want_slot = lane_slot(v, t);
        lane_slot_fill(v, &want_slot, vector(v, want));
    }
    if (vz_shape_of(v, x).kind == VZ_VARYING) {
        x_slot = lane_slot(v, t);
        lane_slot_fill(v, &x_slot, vector(v, x));
    }
    struct lane_slot olds = lane_slot(v, t), oks = lane_slot(v, v->i1);
    LLVMValueRef ptr = scalar(v, p);

    LLVMValueRef bits = mask_word(v, mask(v));
    LLVMBasicBlockRef start = new_block(v, "vz.cas"), retry = new_block(v, "vz.cas.retry");
    LLVMBasicBlockRef body = new_block(v, "vz.cas.lane"), played = new_block(v, "vz.cas.played");
    LLVMBasicBlockRef write = new_block(v, "vz.cas.write"), done = new_block(v, "vz.cas.done");
    LLVMBuildCondBr(v->b, any_bit(v, bits), start, done);

    LLVMPositionBuilderAtEnd(v->b, start);
    LLVMValueRef first = LLVMBuildLoad2(v->b, t, ptr, "");
    LLVMSetOrdering(first, LLVMGetCmpXchgFailureOrdering(i));
    LLVMSetAlignment(first, LLVMGetAlignment(i));
    LLVMSetVolatile(first, LLVMGetVolatile(i));
    LLVMBuildBr(v->b, retry);

    LLVMPositionBuilderAtEnd(v->b, retry);
    LLVMValueRef cur = LLVMBuildPhi(v->b, t, "cas.cur");
    struct lanes L;
    LLVMValueRef init[2] = {cur,
                            LLVMConstInt(v->i1, 0, 0)}; /* the value, whether a lane succeeded */
    lanes_begin(v, &L, bits, NULL, body, 2, init);
    LLVMValueRef now = L.phi[0], any = L.phi[1], idx = L.idx;
    LLVMValueRef wl = want_slot.at ? lane_slot_load(v, &want_slot, idx) : lane_of(v, want, idx);
    LLVMValueRef xl = x_slot.at ? lane_slot_load(v, &x_slot, idx) : lane_of(v, x, idx);
    LLVMValueRef ok = LLVMBuildICmp(v->b, LLVMIntEQ, now, wl, "");
    lane_slot_store(v, &olds, idx, now);
    lane_slot_store(v, &oks, idx, ok);
    LLVMValueRef next[2] = {LLVMBuildSelect(v->b, ok, xl, now, ""), LLVMBuildOr(v->b, any, ok, "")};
    lanes_end(v, &L, played, next);

    /* No lane succeeded: every lane failed on the value loaded, and nothing is written. */
    LLVMPositionBuilderAtEnd(v->b, played);
    LLVMBuildCondBr(v->b, next[1], write, done);

    LLVMPositionBuilderAtEnd(v->b, write);
    LLVMValueRef a = LLVMInstructionClone(i); /* its orderings, scope, alignment, volatility */
    LLVMSetOperand(a, 0, ptr);
    LLVMSetOperand(a, 1, cur);
    LLVMSetOperand(a, 2, next[0]);
    LLVMSetWeak(a, 0);
    LLVMInsertIntoBuilder(v->b, a);
    LLVMValueRef seen = LLVMBuildExtractValue(v->b, a, 0, "");
    LLVMBuildCondBr(v->b, LLVMBuildExtractValue(v->b, a, 1, ""), done, retry);
    LLVMValueRef cur_in[2] = {first, seen};
    LLVMBasicBlockRef cur_from[2] = {start, write};
    LLVMAddIncoming(cur, cur_in, cur_from, 2);

    LLVMPositionBuilderAtEnd(v->b, done);
    LLVMValueRef r = LLVMGetPoison(vec_type(v, LLVMTypeOf(i))); /* inactive lanes: unused */
    r = LLVMBuildInsertValue(v->b, r, lane_slot_vector(v, &olds), 0, "");
    return LLVMBuildInsertValue(v->b, r, lane_slot_vector(v, &oks), 1, "");
}

/* The vector form of a varying instruction. */
static LLVMValueRef widen_varying(struct vz *v, LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    switch (op) {
    case LLVMLoad: return widen_load(v, i);
    case LLVMStore: widen_store(v, i); return NULL;
    case LLVMCall: return widen_call(v, i);
    case LLVMAtomicRMW: return widen_atomicrmw(v, i);
    case LLVMAtomicCmpXchg: {
        LLVMValueRef r = combined_cmpxchg(v, i);
        return r ? r : per_lane(v, i, true);
    }
    case LLVMGetElementPtr: {
        unsigned n = (unsigned)LLVMGetNumOperands(i);
        LLVMValueRef ops[n];
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef o = LLVMGetOperand(i, k);
            /* Struct field numbers stay constants; the rest go vector. */
            ops[k] = vz_shape_of(v, o).kind == VZ_UNIFORM && (k > 0 || LLVMIsAConstant(o))
                         ? scalar(v, o)
                         : vector(v, o);
        }
        if (LLVMGetTypeKind(LLVMTypeOf(ops[0])) != LLVMVectorTypeKind)
            ops[0] = vector(v, LLVMGetOperand(i, 0));
        LLVMValueRef r =
            LLVMBuildGEP2(v->b, LLVMGetGEPSourceElementType(i), ops[0], ops + 1, n - 1, "");
        LLVMSetIsInBounds(r, LLVMIsInBounds(i));
        return r;
    }
    case LLVMExtractValue: {
        LLVMValueRef agg = vector(v, LLVMGetOperand(i, 0));
        unsigned n = LLVMGetNumIndices(i);
        const unsigned *idx = LLVMGetIndices(i);
        for (unsigned k = 0; k < n; k++)
            agg = LLVMBuildExtractValue(v->b, agg, idx[k], "");
        return agg;
    }
    case LLVMInsertValue: {
        /* Rebuilt from the innermost aggregate out. */
        unsigned n = LLVMGetNumIndices(i);
        const unsigned *idx = LLVMGetIndices(i);
        LLVMValueRef path[n + 1];
        path[0] = vector(v, LLVMGetOperand(i, 0));
        for (unsigned k = 0; k + 1 < n; k++)
            path[k + 1] = LLVMBuildExtractValue(v->b, path[k], idx[k], "");
        LLVMValueRef x = vector(v, LLVMGetOperand(i, 1));
        for (unsigned k = n; k-- > 0;)
            x = LLVMBuildInsertValue(v->b, path[k], x, idx[k], "");
        return x;
    }
    case LLVMExtractElement:
    case LLVMInsertElement:
    case LLVMShuffleVector: return widen_vector_op(v, i);
    case LLVMAlloca: return NULL; /* contiguous: not here */
    case LLVMBitCast:
        /* Between types of other shapes (a float2 as a double): lane by lane. */
        if (components(LLVMTypeOf(i)) != components(LLVMTypeOf(LLVMGetOperand(i, 0))))
            return per_lane(v, i, false);
        break;
    default: break;
    }
    if ((op >= LLVMAdd && op <= LLVMXor) || op == LLVMFNeg || is_cast(op) || op == LLVMICmp ||
        op == LLVMFCmp || op == LLVMSelect || op == LLVMFreeze) {
        unsigned n = (unsigned)LLVMGetNumOperands(i);
        LLVMValueRef ops[3];
        for (unsigned k = 0; k < n && k < 3; k++) {
            LLVMValueRef o = LLVMGetOperand(i, k);
            /* A select on a uniform condition keeps it scalar. */
            ops[k] = op == LLVMSelect && k == 0 && vz_shape_of(v, o).kind == VZ_UNIFORM &&
                             LLVMGetTypeKind(LLVMTypeOf(o)) != LLVMVectorTypeKind
                         ? scalar(v, o)
                         : vector(v, o);
        }
        return elementwise(v, i, ops, n, LLVMTypeOf(i));
    }
    vz_refuse(v, i, "an instruction the widening does not know");
    return NULL;
}

/* The scalar copy of a uniform or contiguous instruction (lane 0's computation). */
static LLVMValueRef widen_scalar(struct vz *v, LLVMValueRef i, struct vz_shape s)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMCall) {
        const char *name;
        vz_callee(i, &name);
        if (strcmp(name, LANES_LANE_FUNCTION) == 0)
            return LLVMConstNull(LLVMTypeOf(i));
        if (strcmp(name, VZ_ANY_FUNCTION) == 0)
            return widen_call(v, i);
    }
    if (op == LLVMAlloca) {
        /* W copies side by side: lane l's at l * stride. */
        LLVMTypeRef t = LLVMArrayType2(LLVMInt8TypeInContext(v->ctx), (uint64_t)s.stride * v->w);
        LLVMValueRef a = LLVMBuildAlloca(v->b, t, "");
        unsigned align = LLVMGetAlignment(i);
        LLVMSetAlignment(a, align > 16 ? align : 16);
        return a;
    }
    if (op == LLVMStore) {
        widen_store(v, i);
        return NULL;
    }
    if (op == LLVMLoad)
        return widen_load(v, i);
    if (is_division(op) && v->linearized) {
        /* The block may run with no lane active: its operands may be poison. */
        LLVMValueRef x = scalar(v, LLVMGetOperand(i, 0));
        LLVMValueRef d = safe_divisor(v, op, x, scalar(v, LLVMGetOperand(i, 1)), NULL);
        LLVMValueRef r = LLVMBuildBinOp(v->b, op, x, d, "");
        return r;
    }
    LLVMValueRef c = clone_with(v, i, NULL);
    if (s.kind == VZ_CONTIGUOUS && v->linearized)
        drop_poison_flags(c);
    return c;
}

/* Widens instruction i of the scalar function where the builder is. */
static void widen_instruction(struct vz *v, LLVMValueRef i)
{
    struct vz_shape s = vz_shape_of(v, i);
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMPHI) {
        LLVMTypeRef t = s.kind == VZ_VARYING ? vec_type(v, LLVMTypeOf(i)) : LLVMTypeOf(i);
        LLVMValueRef phi = LLVMBuildPhi(v->b, t, "");
        vz_map_put_value(&v->vals, i, phi);
        return; /* a contiguous phi's vector comes after the block's phis (vz_widen) */
    }
    if (LLVMIsATerminatorInst(i)) {
        if (op == LLVMRet) {
            vz_build_return(v, v->b);
            return;
        }
        clone_with(v, i, NULL);
        return;
    }
    if (s.kind == VZ_UNKNOWN)
        s.kind = VZ_UNIFORM; /* never reached */
    const char *name;
    if (op == LLVMCall && vz_callee(i, &name) && strcmp(name, VZ_BLOCK_MASK_FUNCTION) == 0) {
        /* The lanes this block runs under (vz_linearize.c). */
        LLVMValueRef m = LLVMGetOperand(i, 0);
        bool all = LLVMIsAConstantInt(m) && LLVMConstIntGetZExtValue(m);
        v->cur_mask = all ? NULL : vector(v, m);
        vz_map_put_value(&v->vals, i, s.kind == VZ_VARYING ? v->cur_mask : scalar(v, m));
        return;
    }
    struct vz_sg_form form;
    LLVMValueRef r;
    if (op == LLVMCall && vz_callee(i, &name) && vz_sg_form(name, &form))
        r = widen_sg_call(v, i, name, &form);
    else /* Side effects other than stores are varying (vz_shapes.c): they run per lane. */
        r = s.kind == VZ_VARYING ? widen_varying(v, i) : widen_scalar(v, i, s);
    if (!r || LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind)
        return;
    vz_map_put_value(&v->vals, i, r);
    if (s.kind == VZ_CONTIGUOUS)
        vz_map_put_value(&v->vecs, i, progression(v, r, s.stride));
}

/* Every type the function uses has a vector form. */
static bool types_ok(struct vz *v)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(v->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (vz_shape_of(v, i).kind == VZ_VARYING && !vec_type(v, LLVMTypeOf(i))) {
                vz_refuse(v, i, "a value of a type with no vector form");
                return false;
            }
    return true;
}

int vz_widen(struct vz *v)
{
    if (!types_ok(v))
        return -1;
    size_t len;
    char name[256];
    snprintf(name, sizeof name, "%.200s.w%u", LLVMGetValueName2(v->fn, &len), v->w);
    v->vfn = LLVMAddFunction(v->m, name, LLVMGlobalGetValueType(v->fn));
    LLVMSetLinkage(v->vfn, LLVMGetLinkage(v->fn));
    unsigned np = LLVMCountParams(v->fn);
    for (int k = -1; k <= (int)np; k++) {
        unsigned idx = k < 0 ? (unsigned)LLVMAttributeFunctionIndex : (unsigned)k;
        unsigned n = LLVMGetAttributeCountAtIndex(v->fn, idx);
        if (!n)
            continue;
        LLVMAttributeRef attrs[n];
        LLVMGetAttributesAtIndex(v->fn, idx, attrs);
        for (unsigned j = 0; j < n; j++)
            LLVMAddAttributeAtIndex(v->vfn, idx, attrs[j]);
    }
    for (unsigned k = 0; k < np; k++)
        vz_map_put_value(&v->vals, LLVMGetParam(v->fn, k), LLVMGetParam(v->vfn, k));

    struct vz_cfg *cfg = vz_cfg_build(v->fn);
    size_t nb = LLVMCountBasicBlocks(v->fn);
    LLVMBasicBlockRef *order = malloc(nb * sizeof *order);
    size_t n = cfg && order ? vz_cfg_linear_order(cfg, order, nb) : 0;
    if (n != nb) {
        vz_refuse(v, NULL, "irreducible or unreachable control flow");
        if (cfg)
            vz_cfg_free(cfg);
        free(order);
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        vz_map_put(&v->blocks, order[k],
                   (uint64_t)(uintptr_t)LLVMAppendBasicBlockInContext(v->ctx, v->vfn, "vz"));
    LLVMBasicBlockRef entry = (LLVMBasicBlockRef)(uintptr_t)vz_map_value(&v->blocks, order[0]);

    /* The lanes of a partial sub-group: the first `lanes` ones. */
    LLVMPositionBuilderAtEnd(v->b, entry);
    v->entry_mask = NULL;
    if (!v->full) {
        LLVMValueRef lanes = splat(v, lanes_sg_param(v->vfn, LANES_SG_LANES));
        v->entry_mask = LLVMBuildICmp(v->b, LLVMIntULT, iota(v, v->i64, 1), lanes, "entry.mask");
    }
    for (size_t k = 0; k < n && !v->why; k++) {
        LLVMBasicBlockRef nb2 = (LLVMBasicBlockRef)(uintptr_t)vz_map_value(&v->blocks, order[k]);
        LLVMPositionBuilderAtEnd(v->b, nb2);
        v->cur_mask = v->linearized ? NULL : v->entry_mask;
        LLVMValueRef i = LLVMGetFirstInstruction(order[k]);
        for (; i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i))
            widen_instruction(v, i);
        for (LLVMValueRef p = LLVMGetFirstInstruction(order[k]); p != i;
             p = LLVMGetNextInstruction(p)) {
            struct vz_shape s = vz_shape_of(v, p);
            if (s.kind == VZ_CONTIGUOUS)
                vz_map_put_value(&v->vecs, p, progression(v, vz_map_value(&v->vals, p), s.stride));
        }
        for (; i && !v->why; i = LLVMGetNextInstruction(i))
            widen_instruction(v, i);
        vz_map_put(&v->block_end, order[k], (uint64_t)(uintptr_t)LLVMGetInsertBlock(v->b));
    }
    /* The phis' incoming values, now that every block exists. */
    for (size_t k = 0; k < n && !v->why; k++)
        for (LLVMValueRef p = LLVMGetFirstInstruction(order[k]); p && LLVMIsAPHINode(p);
             p = LLVMGetNextInstruction(p)) {
            LLVMValueRef np2 = vz_map_value(&v->vals, p);
            bool vec = vz_shape_of(v, p).kind == VZ_VARYING;
            for (unsigned j = 0; j < LLVMCountIncoming(p); j++) {
                LLVMBasicBlockRef from = (LLVMBasicBlockRef)(uintptr_t)vz_map_value(
                    &v->block_end, LLVMGetIncomingBlock(p, j));
                LLVMPositionBuilderBefore(v->b, LLVMGetBasicBlockTerminator(from));
                LLVMValueRef x = LLVMGetIncomingValue(p, j);
                LLVMValueRef val = vec ? vector(v, x) : scalar(v, x);
                LLVMAddIncoming(np2, &val, &from, 1);
            }
        }
    vz_cfg_free(cfg);
    free(order);
    if (v->why) {
        LLVMDeleteFunction(v->vfn);
        v->vfn = NULL;
        return -1;
    }
    return 0;
}
