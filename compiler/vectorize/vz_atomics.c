/* SPDX-License-Identifier: MIT */
/*
 * The widening's atomics (vz_widen.h): an atomicrmw or cmpxchg at an address
 * every active lane shares as one atomic for the sub-group, the lanes'
 * operands combined in lane order; any other once per active lane.
 */
#include "vz_widen.h"

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
    LLVMValueRef x = vz_scalar(v, LLVMGetOperand(i, 1));
    LLVMTypeRef t = LLVMTypeOf(x), bits_t = LLVMIntTypeInContext(v->ctx, v->w);
    LLVMTypeRef bits_vt = LLVMVectorType(bits_t, v->w), vt = LLVMVectorType(t, v->w);
    LLVMValueRef bits = vz_mask_word(v, vz_mask(v));
    LLVMValueRef lower[v->w]; /* lane l: the bits of the lanes before it */
    for (unsigned l = 0; l < v->w; l++)
        lower[l] = LLVMConstInt(bits_t, l ? (~0ull >> (64 - l)) : 0, 0);
    LLVMValueRef below = LLVMBuildAnd(v->b, vz_splat(v, bits), LLVMConstVector(lower, v->w), "");
    LLVMValueRef total = x, prior = NULL;
    LLVMValueRef is_first = LLVMBuildICmp(v->b, LLVMIntEQ, below, LLVMConstNull(bits_vt), "");
    if (op == LLVMAtomicRMWBinOpAdd || op == LLVMAtomicRMWBinOpSub) {
        LLVMValueRef n = vz_intrinsic(v, "llvm.ctpop", &bits_t, 1, &bits, 1);
        total = LLVMBuildMul(v->b, x, LLVMBuildIntCast2(v->b, n, t, 0, ""), "");
        LLVMValueRef rank = vz_intrinsic(v, "llvm.ctpop", &bits_vt, 1, &below, 1);
        prior = LLVMBuildMul(v->b, vz_splat(v, x), LLVMBuildIntCast2(v->b, rank, vt, 0, ""), "");
    } else if (op != LLVMAtomicRMWBinOpXchg) {
        prior = LLVMBuildSelect(v->b, is_first, vz_splat(v, identity), vz_splat(v, x), "");
    }
    struct vz_guard g = vz_guard_begin(v, vz_any_bit(v, bits));
    LLVMValueRef a = LLVMInstructionClone(i); /* its ordering, scope, alignment, volatility */
    LLVMSetOperand(a, 0, p);
    LLVMSetOperand(a, 1, total);
    LLVMInsertIntoBuilder(v->b, a);
    LLVMValueRef old = vz_splat(v, vz_guard_end(v, &g, a, LLVMGetPoison(t)));
    if (op == LLVMAtomicRMWBinOpXchg)
        return LLVMBuildSelect(v->b, is_first, old, vz_splat(v, x), "");
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
    struct vz_lane_slot operand = {0};
    if (xs.kind == VZ_VARYING) {
        operand = vz_lane_slot(v, t);
        vz_lane_slot_fill(v, &operand, vz_vector(v, x));
    }
    struct vz_lane_slot before = vz_lane_slot(v, t); /* what the lanes before each one combined */

    LLVMValueRef bits = vz_mask_word(v, vz_mask(v));
    LLVMBasicBlockRef body = vz_new_block(v, "vz.combine"), last = vz_new_block(v, "vz.combined");
    LLVMBasicBlockRef done = vz_new_block(v, "vz.combine.done");
    struct vz_lanes L;
    vz_lanes_begin(v, &L, bits, done, body, 1, &identity);
    LLVMValueRef acc = L.phi[0];
    LLVMValueRef xl = operand.at ? vz_lane_slot_load(v, &operand, L.idx) : vz_lane_of(v, x, L.idx);
    vz_lane_slot_store(v, &before, L.idx, acc);
    LLVMValueRef next = combine(v, op, acc, xl);
    vz_lanes_end(v, &L, last, &next);

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
    LLVMValueRef prior = vz_lane_slot_vector(v, &before); /* inactive lanes: unused */
    if (op == LLVMAtomicRMWBinOpXchg) {
        LLVMTypeRef bits_t = LLVMTypeOf(bits);
        LLVMValueRef first_args[2] = {bits, LLVMConstInt(v->i1, 0, 0)};
        LLVMValueRef first = vz_intrinsic(v, "llvm.cttz", &bits_t, 1, first_args, 2);
        first = LLVMBuildIntCast2(v->b, first, v->i32, 0, "");
        LLVMValueRef is_first =
            LLVMBuildICmp(v->b, LLVMIntEQ, vz_iota(v, v->i32, 1), vz_splat(v, first), "");
        return LLVMBuildSelect(v->b, is_first, vz_splat(v, old), prior, "");
    }
    if (op == LLVMAtomicRMWBinOpSub)
        return LLVMBuildSub(v->b, vz_splat(v, old), prior, "");
    return combine(v, op, vz_splat(v, old), prior);
}

/*
 * An atomicrmw: one for the sub-group at a uniform address
 * (combined_atomic). At varying addresses that are the same in every
 * active lane when it runs (a bitmap's word, `&bits[gid / 32]`), the
 * same, chosen at run time; else once per active lane.
 */
LLVMValueRef vz_widen_atomicrmw(struct vz *v, LLVMValueRef i)
{
    LLVMValueRef p = LLVMGetOperand(i, 0);
    enum vz_kind kind = vz_shape_of(v, p).kind;
    if (!atomic_identity(i) || (kind != VZ_UNIFORM && kind != VZ_VARYING))
        return vz_per_lane(v, i, true);
    if (kind == VZ_UNIFORM)
        return combined_atomic(v, i, vz_scalar(v, p));
    LLVMValueRef first = vz_first_active(v, p);
    LLVMValueRef same = LLVMBuildICmp(v->b, LLVMIntEQ, vz_vector(v, p), vz_splat(v, first), "");
    LLVMValueRef m = vz_mask(v);
    if (m)
        same = LLVMBuildOr(v->b, same, LLVMBuildNot(v->b, m, ""), "");
    LLVMTypeRef same_t = LLVMTypeOf(same);
    LLVMValueRef all = vz_intrinsic(v, "llvm.vector.reduce.and", &same_t, 1, &same, 1);
    LLVMBasicBlockRef one = vz_new_block(v, "vz.one.address"),
                      many = vz_new_block(v, "vz.addresses");
    LLVMBasicBlockRef join = vz_new_block(v, "vz.atomic.done");
    LLVMBuildCondBr(v->b, all, one, many);
    LLVMValueRef out[2];
    LLVMBasicBlockRef from[2];
    LLVMPositionBuilderAtEnd(v->b, one);
    out[0] = combined_atomic(v, i, first);
    from[0] = LLVMGetInsertBlock(v->b);
    LLVMBuildBr(v->b, join);
    LLVMPositionBuilderAtEnd(v->b, many);
    out[1] = vz_per_lane(v, i, true);
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
LLVMValueRef vz_combined_cmpxchg(struct vz *v, LLVMValueRef i)
{
    LLVMValueRef p = LLVMGetOperand(i, 0), want = LLVMGetOperand(i, 1), x = LLVMGetOperand(i, 2);
    if (vz_shape_of(v, p).kind != VZ_UNIFORM)
        return NULL;
    LLVMTypeRef t = LLVMTypeOf(x);
    struct vz_lane_slot want_slot = {0}, x_slot = {0};
    if (vz_shape_of(v, want).kind == VZ_VARYING) {
        want_slot = vz_lane_slot(v, t);
        vz_lane_slot_fill(v, &want_slot, vz_vector(v, want));
    }
    if (vz_shape_of(v, x).kind == VZ_VARYING) {
        x_slot = vz_lane_slot(v, t);
        vz_lane_slot_fill(v, &x_slot, vz_vector(v, x));
    }
    struct vz_lane_slot olds = vz_lane_slot(v, t), oks = vz_lane_slot(v, v->i1);
    LLVMValueRef ptr = vz_scalar(v, p);

    LLVMValueRef bits = vz_mask_word(v, vz_mask(v));
    LLVMBasicBlockRef start = vz_new_block(v, "vz.cas"), retry = vz_new_block(v, "vz.cas.retry");
    LLVMBasicBlockRef body = vz_new_block(v, "vz.cas.lane"),
                      played = vz_new_block(v, "vz.cas.played");
    LLVMBasicBlockRef write = vz_new_block(v, "vz.cas.write"),
                      done = vz_new_block(v, "vz.cas.done");
    LLVMBuildCondBr(v->b, vz_any_bit(v, bits), start, done);

    LLVMPositionBuilderAtEnd(v->b, start);
    LLVMValueRef first = LLVMBuildLoad2(v->b, t, ptr, "");
    LLVMSetOrdering(first, LLVMGetCmpXchgFailureOrdering(i));
    LLVMSetAlignment(first, LLVMGetAlignment(i));
    LLVMSetVolatile(first, LLVMGetVolatile(i));
    LLVMBuildBr(v->b, retry);

    LLVMPositionBuilderAtEnd(v->b, retry);
    LLVMValueRef cur = LLVMBuildPhi(v->b, t, "cas.cur");
    struct vz_lanes L;
    LLVMValueRef init[2] = {cur,
                            LLVMConstInt(v->i1, 0, 0)}; /* the value, whether a lane succeeded */
    vz_lanes_begin(v, &L, bits, NULL, body, 2, init);
    LLVMValueRef now = L.phi[0], any = L.phi[1], idx = L.idx;
    LLVMValueRef wl =
        want_slot.at ? vz_lane_slot_load(v, &want_slot, idx) : vz_lane_of(v, want, idx);
    LLVMValueRef xl = x_slot.at ? vz_lane_slot_load(v, &x_slot, idx) : vz_lane_of(v, x, idx);
    LLVMValueRef ok = LLVMBuildICmp(v->b, LLVMIntEQ, now, wl, "");
    vz_lane_slot_store(v, &olds, idx, now);
    vz_lane_slot_store(v, &oks, idx, ok);
    LLVMValueRef next[2] = {LLVMBuildSelect(v->b, ok, xl, now, ""), LLVMBuildOr(v->b, any, ok, "")};
    vz_lanes_end(v, &L, played, next);

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
    LLVMValueRef r = LLVMGetPoison(vz_vec_type(v, LLVMTypeOf(i))); /* inactive lanes: unused */
    r = LLVMBuildInsertValue(v->b, r, vz_lane_slot_vector(v, &olds), 0, "");
    return LLVMBuildInsertValue(v->b, r, vz_lane_slot_vector(v, &oks), 1, "");
}
