/* SPDX-License-Identifier: MIT */
/*
 * The widening's lanes (vz_widen.h): the current block's mask, guards, stack
 * slots of a lane per element, loops over the active lanes and the work run
 * once per lane, and the lanes as bit masks.
 */
#include "vz_widen.h"

/* The lanes the current block runs under (NULL: all of them). */
LLVMValueRef vz_mask(struct vz *v)
{
    return v->cur_mask;
}

/* True when some lane of `m` is on (m NULL: true). */
LLVMValueRef vz_any(struct vz *v, LLVMValueRef m)
{
    if (!m)
        return LLVMConstInt(v->i1, 1, 0);
    LLVMTypeRef t = LLVMTypeOf(m);
    return vz_intrinsic(v, "llvm.vector.reduce.or", &t, 1, &m, 1);
}

/* A new block of the vector function; the builder moves there. */
LLVMBasicBlockRef vz_new_block(struct vz *v, const char *name)
{
    return LLVMAppendBasicBlockInContext(v->ctx, v->vfn, name);
}

struct vz_guard vz_guard_begin(struct vz *v, LLVMValueRef cond)
{
    struct vz_guard g = {LLVMGetInsertBlock(v->b), vz_new_block(v, "vz.then"),
                         vz_new_block(v, "vz.join")};
    LLVMBuildCondBr(v->b, cond, g.then, g.join);
    LLVMPositionBuilderAtEnd(v->b, g.then);
    return g;
}

LLVMValueRef vz_guard_end(struct vz *v, struct vz_guard *g, LLVMValueRef value,
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
LLVMValueRef vz_clone_with(struct vz *v, LLVMValueRef i, LLVMValueRef idx)
{
    LLVMValueRef c = LLVMInstructionClone(i);
    int n = LLVMGetNumOperands(i);
    for (int k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
        LLVMSetOperand(c, (unsigned)k, idx ? vz_lane_of(v, op, idx) : vz_scalar(v, op));
    }
    LLVMInsertIntoBuilder(v->b, c);
    return c;
}

/* A private slot for one <W x T> in the vector function's entry block, aligned for vectors. */
LLVMValueRef vz_entry_slot(struct vz *v, LLVMTypeRef t)
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

struct vz_lane_slot vz_lane_slot(struct vz *v, LLVMTypeRef t)
{
    struct vz_lane_slot s = {.t = t, .st = t};
    unsigned long long bits = LLVMSizeOfTypeInBits(v->td, t);
    if (bits != 8 * LLVMStoreSizeOfType(v->td, t))
        s.st = LLVMIntTypeInContext(v->ctx, (unsigned)(8 * LLVMStoreSizeOfType(v->td, t)));
    s.at = vz_entry_slot(v, LLVMArrayType2(s.st, v->w));
    return s;
}

static LLVMValueRef lane_slot_element(struct vz *v, const struct vz_lane_slot *s, LLVMValueRef idx)
{
    LLVMValueRef at[2] = {LLVMConstInt(v->i32, 0, 0), idx};
    return LLVMBuildInBoundsGEP2(v->b, LLVMArrayType2(s->st, v->w), s->at, at, 2, "");
}

/* Stores the vector x of type <W x s->t> into s, a lane per element. */
void vz_lane_slot_fill(struct vz *v, const struct vz_lane_slot *s, LLVMValueRef x)
{
    if (s->st != s->t)
        x = LLVMBuildZExt(v->b, x, LLVMVectorType(s->st, v->w), "");
    LLVMValueRef st = LLVMBuildStore(v->b, x, s->at);
    LLVMSetAlignment(st, (unsigned)LLVMABIAlignmentOfType(v->td, s->st));
}

LLVMValueRef vz_lane_slot_vector(struct vz *v, const struct vz_lane_slot *s)
{
    LLVMValueRef x = LLVMBuildLoad2(v->b, LLVMVectorType(s->st, v->w), s->at, "");
    LLVMSetAlignment(x, (unsigned)LLVMABIAlignmentOfType(v->td, s->st));
    return s->st != s->t ? LLVMBuildTrunc(v->b, x, LLVMVectorType(s->t, v->w), "") : x;
}

LLVMValueRef vz_lane_slot_load(struct vz *v, const struct vz_lane_slot *s, LLVMValueRef idx)
{
    LLVMValueRef x = LLVMBuildLoad2(v->b, s->st, lane_slot_element(v, s, idx), "");
    return s->st != s->t ? LLVMBuildTrunc(v->b, x, s->t, "") : x;
}

void vz_lane_slot_store(struct vz *v, const struct vz_lane_slot *s, LLVMValueRef idx,
                        LLVMValueRef x)
{
    if (s->st != s->t)
        x = LLVMBuildZExt(v->b, x, s->st, "");
    LLVMBuildStore(v->b, x, lane_slot_element(v, s, idx));
}

/* The mask as a W-bit integer, a bit per lane (all lanes when m is NULL). */
LLVMValueRef vz_mask_word(struct vz *v, LLVMValueRef m)
{
    LLVMTypeRef bits_t = LLVMIntTypeInContext(v->ctx, v->w);
    return m ? LLVMBuildBitCast(v->b, m, bits_t, "") : LLVMConstAllOnes(bits_t);
}

LLVMValueRef vz_any_bit(struct vz *v, LLVMValueRef bits)
{
    return LLVMBuildICmp(v->b, LLVMIntNE, bits, LLVMConstNull(LLVMTypeOf(bits)), "");
}

void vz_lanes_begin(struct vz *v, struct vz_lanes *L, LLVMValueRef bits, LLVMBasicBlockRef skip,
                    LLVMBasicBlockRef body, unsigned n, const LLVMValueRef *init)
{
    LLVMTypeRef bits_t = LLVMTypeOf(bits);
    L->bits = bits;
    L->n = n;
    L->from = LLVMGetInsertBlock(v->b);
    if (skip)
        LLVMBuildCondBr(v->b, vz_any_bit(v, bits), body, skip);
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
    LLVMValueRef l = vz_intrinsic(v, "llvm.cttz", &bits_t, 1, args, 2);
    L->idx = LLVMBuildIntCast2(v->b, l, v->i32, 0, "lane"); /* i64 bits beyond 32 lanes */
}

void vz_lanes_end(struct vz *v, struct vz_lanes *L, LLVMBasicBlockRef exit,
                  const LLVMValueRef *next)
{
    LLVMTypeRef bits_t = LLVMTypeOf(L->bits);
    LLVMValueRef rest = LLVMBuildAnd(
        v->b, L->left, LLVMBuildSub(v->b, L->left, LLVMConstInt(bits_t, 1, 0), ""), "");
    L->end = LLVMGetInsertBlock(v->b);
    LLVMBuildCondBr(v->b, vz_any_bit(v, rest), LLVMGetInstructionParent(L->left), exit);
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
    LLVMTypeRef vt = has_value ? vz_vec_type(v, t) : NULL;
    unsigned n = (unsigned)LLVMGetNumOperands(i);
    struct vz_lane_slot slots[n ? n : 1];
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        struct vz_shape sh = vz_shape_of(v, op);
        slots[k].at = NULL;
        if (sh.kind == VZ_UNIFORM || sh.kind == VZ_UNKNOWN || sh.kind == VZ_CONTIGUOUS ||
            vz_components(LLVMTypeOf(op)))
            continue;
        slots[k] = vz_lane_slot(v, LLVMTypeOf(op));
        vz_lane_slot_fill(v, &slots[k], vz_vector(v, op));
    }
    struct vz_lane_slot result = {0};
    if (has_value && !vz_components(t))
        result = vz_lane_slot(v, t);

    /* Aggregates' lanes (rare) are gathered in a phi instead. */
    bool in_phi = has_value && !result.at;
    LLVMBasicBlockRef body = vz_new_block(v, "vz.lane"), done = vz_new_block(v, "vz.lanes.done");
    struct vz_lanes L;
    LLVMValueRef none = has_value ? LLVMGetPoison(vt) : NULL;
    vz_lanes_begin(v, &L, vz_mask_word(v, m), done, body, in_phi, &none);
    LLVMValueRef x = LLVMInstructionClone(i);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, k);
        LLVMSetOperand(
            x, k, slots[k].at ? vz_lane_slot_load(v, &slots[k], L.idx) : vz_lane_of(v, op, L.idx));
    }
    LLVMInsertIntoBuilder(v->b, x);
    LLVMValueRef now = NULL;
    if (result.at)
        vz_lane_slot_store(v, &result, L.idx, x);
    else if (has_value)
        now = vz_set_lane(v, L.phi[0], t, L.idx, x);
    vz_lanes_end(v, &L, done, &now);

    LLVMPositionBuilderAtEnd(v->b, done);
    if (!has_value)
        return NULL;
    if (result.at) /* inactive lanes: whatever the slot held (they are not used) */
        return vz_lane_slot_vector(v, &result);
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
LLVMValueRef vz_per_lane(struct vz *v, LLVMValueRef i, bool masked)
{
    if (masked)
        return lane_loop(v, i, vz_mask(v));
    LLVMTypeRef t = LLVMTypeOf(i);
    bool has_value = LLVMGetTypeKind(t) != LLVMVoidTypeKind;
    LLVMValueRef r = has_value ? LLVMGetPoison(vz_vec_type(v, t)) : NULL;
    for (unsigned l = 0; l < v->w; l++) {
        LLVMValueRef idx = LLVMConstInt(v->i32, l, 0);
        LLVMValueRef x = vz_clone_with(v, i, idx);
        r = has_value ? vz_set_lane(v, r, t, idx, x) : NULL;
    }
    return r;
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
LLVMValueRef vz_lane_bits(struct vz *v, LLVMValueRef m)
{
    LLVMValueRef bits = LLVMBuildBitCast(v->b, m, LLVMIntTypeInContext(v->ctx, v->w), "");
    return v->w < 32 ? LLVMBuildZExt(v->b, bits, v->i32, "") : bits;
}

/* The active lanes as a bit mask (bit l: lane l). */
LLVMValueRef vz_mask_bits(struct vz *v)
{
    LLVMValueRef m = vz_mask(v);
    if (!m)
        return v->w >= 32 ? LLVMConstAllOnes(bits_type(v))
                          : LLVMConstInt(v->i32, (1u << v->w) - 1, 0);
    return vz_lane_bits(v, m);
}

/* The value of `x` in the first active lane (lane 0 when none is). */
LLVMValueRef vz_first_active(struct vz *v, LLVMValueRef x)
{
    if (vz_shape_of(v, x).kind == VZ_UNIFORM)
        return vz_scalar(v, x);
    LLVMValueRef bits = vz_mask_bits(v);
    LLVMTypeRef t = bits_type(v);
    LLVMValueRef args[2] = {bits, LLVMConstInt(v->i1, 0, 0)};
    LLVMValueRef lane = vz_intrinsic(v, "llvm.cttz", &t, 1, args, 2);
    lane = LLVMBuildAnd(v->b, lane, LLVMConstInt(t, v->w - 1, 0), "");
    /* No lane active: an inactive lane's value, which must not be poison (noundef). */
    return LLVMBuildFreeze(v->b, LLVMBuildExtractElement(v->b, vz_vector(v, x), lane, ""), "");
}
