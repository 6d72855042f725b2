/* SPDX-License-Identifier: MIT */
/*
 * The widening's values (vz_widen.h): the vector form of a type, splats and
 * progressions, a value's scalar, vector form or lane l whatever its
 * shape, and the flags a widened instruction keeps of its scalar one.
 */
#include "vz_widen.h"

#include <string.h>

/* The vector form of scalar type t (NULL when there is none). */
LLVMTypeRef vz_vec_type(struct vz *v, LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
    case LLVMHalfTypeKind:
    case LLVMBFloatTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMPointerTypeKind: return LLVMVectorType(t, v->w);
    case LLVMVectorTypeKind: {
        LLVMTypeRef e = vz_vec_type(v, LLVMGetElementType(t));
        return e ? LLVMArrayType2(e, LLVMGetVectorSize(t)) : NULL;
    }
    case LLVMArrayTypeKind: {
        LLVMTypeRef e = vz_vec_type(v, LLVMGetElementType(t));
        return e ? LLVMArrayType2(e, LLVMGetArrayLength2(t)) : NULL;
    }
    case LLVMStructTypeKind: {
        unsigned n = LLVMCountStructElementTypes(t);
        LLVMTypeRef fields[n ? n : 1];
        for (unsigned k = 0; k < n; k++)
            if (!(fields[k] = vz_vec_type(v, LLVMStructGetTypeAtIndex(t, k))))
                return NULL;
        return LLVMStructTypeInContext(v->ctx, fields, n, LLVMIsPackedStruct(t));
    }
    case LLVMVoidTypeKind: return LLVMVoidTypeInContext(v->ctx);
    default: return NULL;
    }
}

/* The number of components of an aggregate (vector types count their elements). */
unsigned vz_components(LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMVectorTypeKind: return LLVMGetVectorSize(t);
    case LLVMArrayTypeKind: return (unsigned)LLVMGetArrayLength2(t);
    case LLVMStructTypeKind: return LLVMCountStructElementTypes(t);
    default: return 0;
    }
}

LLVMTypeRef vz_component_type(LLVMTypeRef t, unsigned k)
{
    return LLVMGetTypeKind(t) == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, k)
                                                    : LLVMGetElementType(t);
}

LLVMValueRef vz_intrinsic(struct vz *v, const char *name, LLVMTypeRef *overloads, size_t n,
                          LLVMValueRef *args, unsigned nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(v->m, id, overloads, n);
    return LLVMBuildCall2(v->b, LLVMIntrinsicGetType(v->ctx, id, overloads, n), f, args, nargs, "");
}

/* x in every lane (x of scalar type t, or an aggregate: the same aggregate of splats). */
LLVMValueRef vz_splat(struct vz *v, LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    unsigned n = vz_components(t);
    if (n) {
        LLVMValueRef r = LLVMGetPoison(vz_vec_type(v, t));
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef c = LLVMGetTypeKind(t) == LLVMVectorTypeKind
                                 ? LLVMBuildExtractElement(v->b, x, LLVMConstInt(v->i32, k, 0), "")
                                 : LLVMBuildExtractValue(v->b, x, k, "");
            r = LLVMBuildInsertValue(v->b, r, vz_splat(v, c), k, "");
        }
        return r;
    }
    if (LLVMIsAConstant(x) && !LLVMIsAConstantExpr(x)) {
        LLVMValueRef elems[v->w];
        for (unsigned l = 0; l < v->w; l++)
            elems[l] = x;
        return LLVMConstVector(elems, v->w);
    }
    LLVMValueRef one = LLVMBuildInsertElement(v->b, LLVMGetPoison(vz_vec_type(v, t)), x,
                                              LLVMConstInt(v->i32, 0, 0), "");
    LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(v->i32, v->w));
    return LLVMBuildShuffleVector(v->b, one, LLVMGetPoison(LLVMTypeOf(one)), zeros, "");
}

/* <0, s, 2s, ...> of integer type t. */
LLVMValueRef vz_iota(struct vz *v, LLVMTypeRef t, int64_t stride)
{
    LLVMValueRef elems[v->w];
    for (unsigned l = 0; l < v->w; l++)
        elems[l] = LLVMConstInt(t, (unsigned long long)(stride * (int64_t)l), 1);
    return LLVMConstVector(elems, v->w);
}

/* Lane 0's value of contiguous `base` plus lane * stride, as a vector. */
LLVMValueRef vz_progression(struct vz *v, LLVMValueRef base, int64_t stride)
{
    LLVMTypeRef t = LLVMTypeOf(base);
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind) {
        LLVMValueRef off = vz_iota(v, v->i64, stride);
        return LLVMBuildGEP2(v->b, LLVMInt8TypeInContext(v->ctx), base, &off, 1, "");
    }
    return LLVMBuildAdd(v->b, vz_splat(v, base), vz_iota(v, t, stride), "");
}

/* The scalar standing for `x` (uniform: its value; contiguous: lane 0's). */
LLVMValueRef vz_scalar(struct vz *v, LLVMValueRef x)
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
LLVMValueRef vz_vector(struct vz *v, LLVMValueRef x)
{
    struct vz_shape s = vz_shape_of(v, x);
    if (s.kind == VZ_VARYING) {
        LLVMValueRef r = vz_map_value(&v->vals, x);
        return r ? r : LLVMGetPoison(vz_vec_type(v, LLVMTypeOf(x)));
    }
    if (s.kind == VZ_CONTIGUOUS) {
        LLVMValueRef r = vz_map_value(&v->vecs, x);
        return r ? r : vz_progression(v, vz_scalar(v, x), s.stride);
    }
    return vz_splat(v, vz_scalar(v, x));
}

/* Lane l of `x` as a scalar of x's type. */
LLVMValueRef vz_lane_of(struct vz *v, LLVMValueRef x, LLVMValueRef idx)
{
    struct vz_shape s = vz_shape_of(v, x);
    if (s.kind == VZ_UNIFORM || s.kind == VZ_UNKNOWN)
        return vz_scalar(v, x);
    if (s.kind == VZ_CONTIGUOUS) {
        LLVMValueRef base = vz_scalar(v, x);
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
    LLVMValueRef vec = vz_vector(v, x);
    unsigned n = vz_components(t);
    if (!n)
        return LLVMBuildExtractElement(v->b, vec, idx, "");
    /* Aggregates: lane l of each component, reassembled. */
    LLVMValueRef r = LLVMGetPoison(t);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef c = LLVMBuildExtractValue(v->b, vec, k, "");
        LLVMTypeRef ct = vz_component_type(t, k);
        LLVMValueRef e;
        if (vz_components(ct)) {
            /* Nested aggregates: rare enough to go through a poison-initialized rebuild. */
            e = LLVMGetPoison(ct);
            for (unsigned j = 0; j < vz_components(ct); j++) {
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
LLVMValueRef vz_set_lane(struct vz *v, LLVMValueRef vec, LLVMTypeRef t, LLVMValueRef idx,
                         LLVMValueRef x)
{
    unsigned n = vz_components(t);
    if (!n)
        return LLVMBuildInsertElement(v->b, vec, x, idx, "");
    for (unsigned k = 0; k < n; k++) {
        LLVMTypeRef ct = vz_component_type(t, k);
        LLVMValueRef xk = LLVMGetTypeKind(t) == LLVMVectorTypeKind
                              ? LLVMBuildExtractElement(v->b, x, LLVMConstInt(v->i32, k, 0), "")
                              : LLVMBuildExtractValue(v->b, x, k, "");
        LLVMValueRef ck = LLVMBuildExtractValue(v->b, vec, k, "");
        vec = LLVMBuildInsertValue(v->b, vec, vz_set_lane(v, ck, ct, idx, xk), k, "");
    }
    return vec;
}

void vz_copy_flags(LLVMValueRef from, LLVMValueRef to)
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
