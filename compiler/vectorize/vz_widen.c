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
 *
 * This file holds the dispatch, instruction by instruction, and the
 * elementwise operations; the rest lives in rooms sharing vz_widen.h:
 * values (vz_values.c), masks and lane loops (vz_lanes.c), loads and
 * stores (vz_memory.c), calls (vz_calls.c) and atomics (vz_atomics.c).
 */
#include "vz_widen.h"

#include "../ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Strips what could turn lane 0's value into poison when lane 0 is off (linearized code). */
void vz_drop_poison_flags(LLVMValueRef c)
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
            min = vz_splat(v, min);
            minus = vz_splat(v, minus);
        }
        LLVMValueRef o =
            LLVMBuildAnd(v->b, LLVMBuildICmp(v->b, LLVMIntEQ, d, minus, ""),
                         LLVMBuildICmp(v->b, LLVMIntEQ, LLVMBuildFreeze(v->b, x, ""), min, ""), "");
        bad = LLVMBuildOr(v->b, bad, o, "");
    }
    if (m && vec)
        bad = LLVMBuildOr(v->b, bad, LLVMBuildNot(v->b, m, ""), "");
    return LLVMBuildSelect(v->b, bad, vec ? vz_splat(v, one) : one, d, "safe.divisor");
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
            d = safe_divisor(v, op, ops[0], d, vz_mask(v));
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
    vz_copy_flags(i, r);
    return r;
}

static LLVMValueRef elementwise(struct vz *v, LLVMValueRef i, LLVMValueRef *ops, unsigned n,
                                LLVMTypeRef t)
{
    LLVMTypeRef vt = vz_vec_type(v, t);
    unsigned count = vz_components(t);
    if (!count)
        return elementwise_one(v, i, ops, vt);
    LLVMValueRef r = LLVMGetPoison(vt);
    for (unsigned k = 0; k < count; k++) {
        LLVMValueRef parts[3];
        for (unsigned j = 0; j < n; j++)
            parts[j] = LLVMGetTypeKind(LLVMTypeOf(ops[j])) == LLVMArrayTypeKind
                           ? LLVMBuildExtractValue(v->b, ops[j], k, "")
                           : ops[j]; /* a select's one condition for every component */
        r = LLVMBuildInsertValue(v->b, r, elementwise(v, i, parts, n, vz_component_type(t, k)), k,
                                 "");
    }
    return r;
}

/* extractelement, insertelement and shufflevector on a varying vector (an array of vectors). */
static LLVMValueRef widen_vector_op(struct vz *v, LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    LLVMValueRef agg = vz_vector(v, LLVMGetOperand(i, 0));
    LLVMTypeRef st = LLVMTypeOf(LLVMGetOperand(i, 0));
    unsigned n = LLVMGetVectorSize(st);
    if (op == LLVMExtractElement) {
        LLVMValueRef idx = LLVMGetOperand(i, 1);
        if (LLVMIsAConstantInt(idx)) {
            unsigned long long k = LLVMConstIntGetZExtValue(idx);
            return k < n ? LLVMBuildExtractValue(v->b, agg, (unsigned)k, "")
                         : LLVMGetPoison(vz_vec_type(v, LLVMTypeOf(i)));
        }
        LLVMValueRef vi = vz_vector(v, idx), r = LLVMGetPoison(vz_vec_type(v, LLVMTypeOf(i)));
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef is = LLVMBuildICmp(v->b, LLVMIntEQ, vi,
                                            vz_splat(v, LLVMConstInt(LLVMTypeOf(idx), k, 0)), "");
            r = LLVMBuildSelect(v->b, is, LLVMBuildExtractValue(v->b, agg, k, ""), r, "");
        }
        return r;
    }
    if (op == LLVMInsertElement) {
        LLVMValueRef x = vz_vector(v, LLVMGetOperand(i, 1)), idx = LLVMGetOperand(i, 2);
        if (LLVMIsAConstantInt(idx)) {
            unsigned long long k = LLVMConstIntGetZExtValue(idx);
            return k < n ? LLVMBuildInsertValue(v->b, agg, x, (unsigned)k, "") : agg;
        }
        LLVMValueRef vi = vz_vector(v, idx);
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef is = LLVMBuildICmp(v->b, LLVMIntEQ, vi,
                                            vz_splat(v, LLVMConstInt(LLVMTypeOf(idx), k, 0)), "");
            LLVMValueRef old = LLVMBuildExtractValue(v->b, agg, k, "");
            agg = LLVMBuildInsertValue(v->b, agg, LLVMBuildSelect(v->b, is, x, old, ""), k, "");
        }
        return agg;
    }
    /* shufflevector with its constant mask. */
    LLVMValueRef other = vz_vector(v, LLVMGetOperand(i, 1));
    unsigned out = LLVMGetNumMaskElements(i);
    LLVMValueRef r = LLVMGetPoison(vz_vec_type(v, LLVMTypeOf(i)));
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

/* The vector form of a varying instruction. */
static LLVMValueRef widen_varying(struct vz *v, LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    switch (op) {
    case LLVMLoad: return vz_widen_load(v, i);
    case LLVMStore: vz_widen_store(v, i); return NULL;
    case LLVMCall: return vz_widen_call(v, i);
    case LLVMAtomicRMW: return vz_widen_atomicrmw(v, i);
    case LLVMAtomicCmpXchg: {
        LLVMValueRef r = vz_combined_cmpxchg(v, i);
        return r ? r : vz_per_lane(v, i, true);
    }
    case LLVMGetElementPtr: {
        unsigned n = (unsigned)LLVMGetNumOperands(i);
        LLVMValueRef ops[n];
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef o = LLVMGetOperand(i, k);
            /* Struct field numbers stay constants; the rest go vector. */
            ops[k] = vz_shape_of(v, o).kind == VZ_UNIFORM && (k > 0 || LLVMIsAConstant(o))
                         ? vz_scalar(v, o)
                         : vz_vector(v, o);
        }
        if (LLVMGetTypeKind(LLVMTypeOf(ops[0])) != LLVMVectorTypeKind)
            ops[0] = vz_vector(v, LLVMGetOperand(i, 0));
        LLVMValueRef r =
            LLVMBuildGEP2(v->b, LLVMGetGEPSourceElementType(i), ops[0], ops + 1, n - 1, "");
        LLVMSetIsInBounds(r, LLVMIsInBounds(i));
        return r;
    }
    case LLVMExtractValue: {
        LLVMValueRef agg = vz_vector(v, LLVMGetOperand(i, 0));
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
        path[0] = vz_vector(v, LLVMGetOperand(i, 0));
        for (unsigned k = 0; k + 1 < n; k++)
            path[k + 1] = LLVMBuildExtractValue(v->b, path[k], idx[k], "");
        LLVMValueRef x = vz_vector(v, LLVMGetOperand(i, 1));
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
        if (vz_components(LLVMTypeOf(i)) != vz_components(LLVMTypeOf(LLVMGetOperand(i, 0))))
            return vz_per_lane(v, i, false);
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
                         ? vz_scalar(v, o)
                         : vz_vector(v, o);
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
            return vz_widen_call(v, i);
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
        vz_widen_store(v, i);
        return NULL;
    }
    if (op == LLVMLoad)
        return vz_widen_load(v, i);
    if (is_division(op) && v->linearized) {
        /* The block may run with no lane active: its operands may be poison. */
        LLVMValueRef x = vz_scalar(v, LLVMGetOperand(i, 0));
        LLVMValueRef d = safe_divisor(v, op, x, vz_scalar(v, LLVMGetOperand(i, 1)), NULL);
        LLVMValueRef r = LLVMBuildBinOp(v->b, op, x, d, "");
        return r;
    }
    LLVMValueRef c = vz_clone_with(v, i, NULL);
    if (s.kind == VZ_CONTIGUOUS && v->linearized)
        vz_drop_poison_flags(c);
    return c;
}

/* Widens instruction i of the scalar function where the builder is. */
static void widen_instruction(struct vz *v, LLVMValueRef i)
{
    struct vz_shape s = vz_shape_of(v, i);
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    if (op == LLVMPHI) {
        LLVMTypeRef t = s.kind == VZ_VARYING ? vz_vec_type(v, LLVMTypeOf(i)) : LLVMTypeOf(i);
        LLVMValueRef phi = LLVMBuildPhi(v->b, t, "");
        vz_map_put_value(&v->vals, i, phi);
        return; /* a contiguous phi's vector comes after the block's phis (vz_widen) */
    }
    if (LLVMIsATerminatorInst(i)) {
        if (op == LLVMRet) {
            vz_build_return(v, v->b);
            return;
        }
        vz_clone_with(v, i, NULL);
        return;
    }
    if (s.kind == VZ_UNKNOWN)
        s.kind = VZ_UNIFORM; /* never reached */
    const char *name;
    if (op == LLVMCall && vz_callee(i, &name) && strcmp(name, VZ_BLOCK_MASK_FUNCTION) == 0) {
        /* The lanes this block runs under (vz_linearize.c). */
        LLVMValueRef m = LLVMGetOperand(i, 0);
        bool all = LLVMIsAConstantInt(m) && LLVMConstIntGetZExtValue(m);
        v->cur_mask = all ? NULL : vz_vector(v, m);
        vz_map_put_value(&v->vals, i, s.kind == VZ_VARYING ? v->cur_mask : vz_scalar(v, m));
        return;
    }
    struct vz_sg_form form;
    LLVMValueRef r;
    if (op == LLVMCall && vz_callee(i, &name) && vz_sg_form(name, &form))
        r = vz_widen_call(v, i);
    else /* Side effects other than stores are varying (vz_shapes.c): they run per lane. */
        r = s.kind == VZ_VARYING ? widen_varying(v, i) : widen_scalar(v, i, s);
    if (!r || LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind)
        return;
    vz_map_put_value(&v->vals, i, r);
    if (s.kind == VZ_CONTIGUOUS)
        vz_map_put_value(&v->vecs, i, vz_progression(v, r, s.stride));
}

/* Every type the function uses has a vector form. */
static bool types_ok(struct vz *v)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(v->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (vz_shape_of(v, i).kind == VZ_VARYING && !vz_vec_type(v, LLVMTypeOf(i))) {
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
        LLVMValueRef lanes = vz_splat(v, lanes_sg_param(v->vfn, LANES_SG_LANES));
        v->entry_mask = LLVMBuildICmp(v->b, LLVMIntULT, vz_iota(v, v->i64, 1), lanes, "entry.mask");
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
                vz_map_put_value(&v->vecs, p,
                                 vz_progression(v, vz_map_value(&v->vals, p), s.stride));
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
                LLVMValueRef val = vec ? vz_vector(v, x) : vz_scalar(v, x);
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
