/* SPDX-License-Identifier: MIT */
/*
 * The widening's call resolver (vz_widen.h): the vector form of a call,
 * chosen by its callee: an elementwise intrinsic on vectors, SLEEF's vector
 * math (vz_math.c), the host's VNNI byte dot products (vz_dot.c), one call
 * of a sub-group function's vector form
 * (vz_subgroup.c); anything else runs once per active lane. vz_widen_call is
 * its one entry, used by the dispatch (vz_widen.c): the seam where the
 * vector forms of further built-ins (images, half) plug in.
 */
#include "vz_widen.h"

#include "../names.h"

#include <string.h>

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
    unsigned count = vz_components(t);
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
        whole[k] = lanes[k] ? vz_vector(v, op) : vz_scalar(v, op);
    }
    if (!count) {
        for (unsigned k = 0; k < n; k++)
            args[k] = whole[k];
        LLVMValueRef r = LLVMBuildCall2(v->b, ft, decl, args, n, "");
        vz_copy_flags(i, r);
        return r;
    }
    LLVMValueRef r = LLVMGetPoison(vz_vec_type(v, t));
    for (unsigned c = 0; c < count; c++) {
        for (unsigned k = 0; k < n; k++)
            args[k] = lanes[k] ? LLVMBuildExtractValue(v->b, whole[k], c, "") : whole[k];
        LLVMValueRef x = LLVMBuildCall2(v->b, ft, decl, args, n, "");
        vz_copy_flags(i, x);
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
        ops[k] = vz_vector(v, LLVMGetOperand(i, k));
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
                all[k] = vz_interleave(v, t, ops[k]);
            if (vz_mask(v)) /* an inactive lane's argument may be poison */
                all[k] = LLVMBuildFreeze(v->b, all[k], "");
        }
        for (unsigned c = 0; c < calls; c++) {
            LLVMValueRef args[3];
            for (unsigned k = 0; k < n; k++)
                args[k] = vz_slice(v, all[k], c * chunk, chunk);
            parts[c] = LLVMBuildCall2(v->b, ft, vf, args, n, "");
        }
        LLVMValueRef result = vz_concat(v, parts, calls, chunk);
        vz_map_put_value(&v->aos, i, result);
        return vz_deinterleave(v, t, result);
    }
    unsigned slices = v->w / chunk;
    LLVMValueRef r = LLVMGetPoison(vz_vec_type(v, t));
    for (unsigned c = 0; c < (count ? count : 1); c++) {
        LLVMValueRef whole[3], parts[slices];
        for (unsigned k = 0; k < n; k++) {
            whole[k] = count ? LLVMBuildExtractValue(v->b, ops[k], c, "") : ops[k];
            if (vz_mask(v)) /* an inactive lane's argument may be poison */
                whole[k] = LLVMBuildFreeze(v->b, whole[k], "");
        }
        for (unsigned s = 0; s < slices; s++) {
            LLVMValueRef args[3];
            for (unsigned k = 0; k < n; k++)
                args[k] = slices > 1 ? vz_slice(v, whole[k], s * chunk, chunk) : whole[k];
            parts[s] = LLVMBuildCall2(v->b, ft, vf, args, n, "");
        }
        LLVMValueRef x = vz_concat(v, parts, slices, chunk);
        if (!count)
            return x;
        r = LLVMBuildInsertValue(v->b, r, x, c, "");
    }
    return r;
}

/*
 * A call of the library's byte dot product of one dword (vz_dot.c): the
 * host's VNNI instruction on the lanes' dwords, w / chunk times. Every lane
 * computes; an inactive lane's operands are frozen (they may be poison).
 * NULL when the call is not one or the host has no such instruction.
 */
static LLVMValueRef widen_dot_call(struct vz *v, LLVMValueRef i, const char *name)
{
    const char *intrinsic = NULL;
    unsigned chunk = 0;
    if (LLVMGetNumArgOperands(i) != 3 || !vz_dot_form(name, v->w, &intrinsic, &chunk))
        return NULL;
    unsigned id = LLVMLookupIntrinsicID(intrinsic, strlen(intrinsic));
    if (!id)
        return NULL;
    for (unsigned k = 0; k < 3; k++)
        if (LLVMTypeOf(LLVMGetOperand(i, k)) != v->i32)
            return NULL;
    LLVMValueRef decl = LLVMGetIntrinsicDeclaration(v->m, id, NULL, 0);
    LLVMTypeRef ft = LLVMIntrinsicGetType(v->ctx, id, NULL, 0);
    LLVMValueRef ops[3];
    for (unsigned k = 0; k < 3; k++) {
        ops[k] = vz_vector(v, LLVMGetOperand(i, k));
        if (vz_mask(v))
            ops[k] = LLVMBuildFreeze(v->b, ops[k], "");
    }
    unsigned slices = v->w / chunk;
    LLVMValueRef parts[slices];
    for (unsigned s = 0; s < slices; s++) {
        LLVMValueRef args[3];
        for (unsigned k = 0; k < 3; k++)
            args[k] = slices > 1 ? vz_slice(v, ops[k], s * chunk, chunk) : ops[k];
        parts[s] = LLVMBuildCall2(v->b, ft, decl, args, 3, "");
    }
    return vz_concat(v, parts, slices, chunk);
}

static LLVMValueRef widen_call(struct vz *v, LLVMValueRef i)
{
    const char *name = NULL;
    LLVMValueRef f = vz_callee(i, &name);
    if (!f) { /* an indirect call: vz_shapes.c refuses those before the widening */
        vz_refuse(v, i, "an indirect call");
        return NULL;
    }
    if (strcmp(name, VZ_ANY_FUNCTION) == 0) {
        LLVMValueRef x = LLVMGetOperand(i, 0);
        return vz_shape_of(v, x).kind == VZ_UNIFORM ? vz_scalar(v, x) : vz_any(v, vz_vector(v, x));
    }
    if (lanes_is_barrier(i) || lanes_is_yield(i))
        return vz_clone_with(v, i, NULL); /* once for the sub-group */
    if (LLVMGetIntrinsicID(f) && elementwise_intrinsic(name) && other_operands_uniform(v, i))
        return widen_intrinsic(v, i, f);
    if (strncmp(name, "llvm.lifetime.", 14) == 0 || strncmp(name, "llvm.dbg.", 9) == 0 ||
        strcmp(name, "llvm.assume") == 0 || strncmp(name, "llvm.experimental.noalias", 25) == 0)
        return NULL; /* hints about one lane's memory: dropped */
    LLVMValueRef math = widen_math_call(v, i, f, name);
    if (math)
        return math;
    LLVMValueRef dot = widen_dot_call(v, i, name);
    if (dot)
        return dot;
    /*
     * Only the active lanes call, pure functions too: an inactive lane's
     * arguments are garbage, and a library function may take its time on
     * garbage (SLEEF's fmod loops over the exponent difference).
     */
    return vz_per_lane(v, i, true);
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
        (form->result == 'v' ? !vz_plain_scalar(v, t) : !vz_vec_type(v, t))) {
        vz_refuse(v, i, "a sub-group function of a type with no vector form");
        return NULL;
    }
    LLVMTypeRef ptr = LLVMPointerTypeInContext(v->ctx, 0);
    LLVMTypeRef types[n + 2];
    LLVMValueRef args[n + 2];
    unsigned k = 0;
    LLVMValueRef out = NULL;
    if (form->result == 'v') {
        out = vz_entry_slot(v, vz_vec_type(v, t));
        types[k] = ptr;
        args[k++] = out;
    }
    for (unsigned a = 0; a < n; a++) {
        LLVMValueRef op = LLVMGetOperand(i, a);
        if (!vz_plain_scalar(v, LLVMTypeOf(op))) {
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
            LLVMValueRef ne = LLVMBuildICmp(v->b, LLVMIntNE, vz_vector(v, op),
                                            LLVMConstNull(vz_vec_type(v, ot)), "");
            types[k] = v->i32;
            args[k++] = vz_lane_bits(v, ne);
        } else if (form->params[a] == 'v') {
            LLVMValueRef slot = vz_entry_slot(v, vz_vec_type(v, LLVMTypeOf(op)));
            LLVMBuildStore(v->b, vz_vector(v, op), slot);
            types[k] = ptr;
            args[k++] = slot;
        } else {
            types[k] = LLVMTypeOf(op);
            args[k++] = vz_first_active(v, op);
        }
    }
    types[k] = v->i32;
    args[k++] = vz_mask_bits(v);
    LLVMTypeRef ft =
        LLVMFunctionType(form->result == 'v' ? LLVMVoidTypeInContext(v->ctx) : t, types, k, 0);
    LLVMValueRef f = vz_function(v, vname, ft);
    LLVMValueRef call = LLVMBuildCall2(v->b, ft, f, args, k, "");
    if (!out)
        return call;
    LLVMValueRef r = LLVMBuildLoad2(v->b, vz_vec_type(v, t), out, "");
    LLVMSetAlignment(r, (unsigned)LLVMABIAlignmentOfType(v->td, vz_vec_type(v, t)));
    return r;
}

/*
 * The vector form of call `call`: of a sub-group function whatever its
 * shape (one call of its vector form), else of a varying call, or of the
 * uniform VZ_ANY_FUNCTION.
 */
LLVMValueRef vz_widen_call(struct vz *v, LLVMValueRef call)
{
    const char *name;
    struct vz_sg_form form;
    if (vz_callee(call, &name) && vz_sg_form(name, &form))
        return widen_sg_call(v, call, name, &form);
    return widen_call(v, call);
}
