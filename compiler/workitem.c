/* SPDX-License-Identifier: MIT */
/*
 * The work-item built-ins (OpenCL C 3.0 §6.15.1), lowered in the compiler
 * rather than called in the built-in library: the enqueued local size and
 * work_dim of the specialization then fold into constants. The library's
 * __lanes_wg_scratch() is lowered here too: it reads wg like they do.
 */
#include "passes.h"

#include "abi.h"
#include "ir.h"
#include "names.h"

#include <llvm-c/Core.h>
#include <string.h>

struct lowering {
    LLVMBuilderRef b;
    LLVMContextRef ctx;
    LLVMTypeRef i64, i32;
    LLVMValueRef sg, wg, first, lanes, lid0[3];
    const struct lanes_specialization *spec;
};

static LLVMValueRef c64(struct lowering *l, uint64_t v)
{
    return LLVMConstInt(l->i64, v, 0);
}

/* wg-><field>[d] for a constant d < 3. */
static LLVMValueRef field(struct lowering *l, unsigned offset, unsigned d)
{
    return lanes_build_invariant_load(l->b, l->wg, offset + 8u * d, l->i64, "");
}

/* a + b, neither of which overflows (they count work-items). */
static LLVMValueRef add_nw(struct lowering *l, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef v = LLVMBuildAdd(l->b, a, b, "");
    LLVMSetNUW(v, 1);
    LLVMSetNSW(v, 1);
    return v;
}

/*
 * The local size of this work-group in dimension d (the enqueued one if
 * `enqueued`), as an integer of type t: a constant of the specialization,
 * or read from wg by a launcher of every shape (tier 0).
 */
static LLVMValueRef size_as(struct lowering *l, unsigned d, LLVMTypeRef t, bool enqueued)
{
    const struct lanes_specialization *s = l->spec;
    if (!s->dynamic || d >= s->work_dim) /* 1 outside work_dim */
        return LLVMConstInt(t, enqueued ? s->local_size[d] : lanes_spec_group_size(s, d), 0);
    LLVMValueRef v = field(l, enqueued ? LANES_WG_ENQUEUED_LOCAL_SIZE : LANES_WG_LOCAL_SIZE, d);
    return t == l->i64 ? v : LLVMBuildTrunc(l->b, v, t, "");
}

static LLVMValueRef group_size(struct lowering *l, unsigned d, LLVMTypeRef t)
{
    return size_as(l, d, t, false);
}

/*
 * a / b for a local linear id a (below 2^16) and a size b (1 to 2^16), of
 * the same integer type: a * ceil(2^32 / b) >> 32 is exact for such a and
 * b, and the factor is uniform, so the vectorizer keeps it scalar.
 */
static LLVMValueRef udiv_small(struct lowering *l, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef t = LLVMTypeOf(a);
    LLVMValueRef b64 = t == l->i64 ? b : LLVMBuildZExt(l->b, b, l->i64, "");
    LLVMValueRef m =
        LLVMBuildUDiv(l->b, LLVMBuildAdd(l->b, c64(l, 0xffffffffu), b64, ""), b64, "magic");
    LLVMValueRef a64 = t == l->i64 ? a : LLVMBuildZExt(l->b, a, l->i64, "");
    LLVMValueRef q = LLVMBuildLShr(l->b, LLVMBuildMul(l->b, a64, m, ""), c64(l, 32), "");
    return t == l->i64 ? q : LLVMBuildTrunc(l->b, q, t, "");
}

/* The work-item's index in its sub-group, as an integer of type t. */
static LLVMValueRef lane_as(struct lowering *l, LLVMTypeRef t)
{
    return LLVMBuildZExt(l->b, lanes_build_lane(l->b, l->sg), t, "");
}

/*
 * The local id in dimension d, as an integer of type t (i64, or i32 for
 * small ids): lane i of a sub-group is the work-item of local linear id
 * first + i. When W divides the rows, a sub-group lies in one row and only
 * x differs between its lanes.
 */
static LLVMValueRef local_id_as(struct lowering *l, unsigned d, LLVMTypeRef t)
{
    const struct lanes_specialization *s = l->spec;
    uint64_t gx = lanes_spec_group_size(s, 0), gy = lanes_spec_group_size(s, 1);
    if (lanes_spec_rows(s)) {
        LLVMValueRef base = LLVMBuildTrunc(l->b, l->lid0[d], t, "");
        return d == 0 && s->width > 1 ? add_nw(l, base, lane_as(l, t)) : base;
    }
    LLVMValueRef lin = add_nw(l, LLVMBuildTrunc(l->b, l->first, t, ""), lane_as(l, t));
    /* One row (a 1-D range, or sizes of 1 in y and z): the local linear id, contiguous. */
    if (s->dynamic ? s->work_dim == 1 : gy == 1 && lanes_spec_group_size(s, 2) == 1)
        return d == 0 ? lin : LLVMConstInt(t, 0, 0);
    if (s->dynamic) {
        /* Without vector divisions, which x86 has not (each would be W scalar ones). */
        LLVMValueRef x = group_size(l, 0, t), y = group_size(l, 1, t);
        LLVMValueRef row = udiv_small(l, lin, x);
        if (d == 0)
            return LLVMBuildSub(l->b, lin, LLVMBuildMul(l->b, row, x, ""), "");
        LLVMValueRef z = udiv_small(l, row, y);
        return d == 1 ? LLVMBuildSub(l->b, row, LLVMBuildMul(l->b, z, y, ""), "") : z;
    }
    if (d == 0)
        return LLVMBuildURem(l->b, lin, LLVMConstInt(t, gx, 0), "");
    if (d == 1)
        return LLVMBuildURem(l->b, LLVMBuildUDiv(l->b, lin, LLVMConstInt(t, gx, 0), ""),
                             LLVMConstInt(t, gy, 0), "");
    return LLVMBuildUDiv(l->b, lin, LLVMConstInt(t, gx * gy, 0), "");
}

/*
 * A local id fits in 31 bits (the largest work-group is far smaller), so it
 * is computed in 32 bits with no overflow and widened: `(int)get_local_id(0)`
 * then keeps its no-wrap flags and stays a contiguous index for the
 * vectorizer.
 */
static LLVMValueRef local_id(struct lowering *l, unsigned d)
{
    LLVMValueRef wide = LLVMBuildZExt(l->b, local_id_as(l, d, l->i32), l->i64, "");
    LLVMSetNNeg(wide, 1);
    return wide;
}

/*
 * group_id * enqueued local size + local id + offset. When every id of the
 * launch fits in 31 bits, it is computed in 32 bits with no overflow, so
 * that `(int)get_global_id(0)` stays a contiguous index for the vectorizer.
 */
static LLVMValueRef global_id(struct lowering *l, unsigned d)
{
    const struct lanes_specialization *s = l->spec;
    LLVMTypeRef t = s->small_ids ? l->i32 : l->i64;
    LLVMValueRef group = d >= s->work_dim ? c64(l, 0) : field(l, LANES_WG_GROUP_ID, d);
    LLVMValueRef offset = field(l, LANES_WG_GLOBAL_OFFSET, d);
    if (s->small_ids) {
        group = LLVMBuildTrunc(l->b, group, t, "");
        offset = LLVMBuildTrunc(l->b, offset, t, "");
    }
    LLVMValueRef base = LLVMBuildMul(l->b, group, size_as(l, d, t, true), "");
    LLVMSetNUW(base, 1);
    LLVMSetNSW(base, 1);
    LLVMValueRef id = add_nw(l, add_nw(l, base, local_id_as(l, d, t)), offset);
    if (!s->small_ids)
        return id;
    LLVMValueRef wide = LLVMBuildZExt(l->b, id, l->i64, "");
    LLVMSetNNeg(wide, 1);
    return wide;
}

/* The value of `q` in constant dimension d (d < 3). */
static LLVMValueRef query_dim(struct lowering *l, enum lanes_name q, unsigned d)
{
    const struct lanes_specialization *s = l->spec;
    switch (q) {
    case LANES_NAME_GLOBAL_SIZE: return field(l, LANES_WG_GLOBAL_SIZE, d);
    case LANES_NAME_LOCAL_SIZE: return size_as(l, d, l->i64, false);
    case LANES_NAME_ENQUEUED_LOCAL_SIZE: return size_as(l, d, l->i64, true);
    case LANES_NAME_LOCAL_ID: return local_id(l, d);
    case LANES_NAME_NUM_GROUPS: return field(l, LANES_WG_NUM_GROUPS, d);
    case LANES_NAME_GROUP_ID: return d >= s->work_dim ? c64(l, 0) : field(l, LANES_WG_GROUP_ID, d);
    case LANES_NAME_GLOBAL_OFFSET: return field(l, LANES_WG_GLOBAL_OFFSET, d);
    case LANES_NAME_GLOBAL_ID: return global_id(l, d);
    default: return c64(l, 0);
    }
}

/* Out of range dimensions: sizes are 1, ids and offsets 0 (§6.15.1). */
static uint64_t out_of_range(enum lanes_name q)
{
    return q == LANES_NAME_GLOBAL_SIZE || q == LANES_NAME_LOCAL_SIZE ||
           q == LANES_NAME_ENQUEUED_LOCAL_SIZE || q == LANES_NAME_NUM_GROUPS;
}

/* The value of `q` for a dimension argument that may not be constant. */
static LLVMValueRef query(struct lowering *l, enum lanes_name q, LLVMValueRef dim)
{
    if (LLVMIsAConstantInt(dim)) {
        unsigned long long d = LLVMConstIntGetZExtValue(dim);
        return d < 3 ? query_dim(l, q, (unsigned)d) : c64(l, out_of_range(q));
    }
    LLVMValueRef v = c64(l, out_of_range(q));
    for (unsigned d = 3; d-- > 0;) {
        LLVMValueRef is = LLVMBuildICmp(l->b, LLVMIntEQ, dim, LLVMConstInt(l->i32, d, 0), "");
        v = LLVMBuildSelect(l->b, is, query_dim(l, q, d), v, "");
    }
    return v;
}

static LLVMValueRef linear_id(struct lowering *l, enum lanes_name q)
{
    if (q == LANES_NAME_LOCAL_LINEAR_ID)
        return l->spec->width == 1 ? l->first : add_nw(l, l->first, lane_as(l, l->i64));
    LLVMValueRef v = c64(l, 0);
    for (unsigned d = 3; d-- > 0;) {
        LLVMValueRef size = q == LANES_NAME_GLOBAL_LINEAR_ID
                                ? query_dim(l, LANES_NAME_GLOBAL_SIZE, d)
                                : query_dim(l, LANES_NAME_LOCAL_SIZE, d);
        LLVMValueRef id = LLVMBuildSub(l->b, query_dim(l, LANES_NAME_GLOBAL_ID, d),
                                       query_dim(l, LANES_NAME_GLOBAL_OFFSET, d), "");
        v = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, v, size, ""), id, "");
    }
    return v;
}

/* wg->scratch as a pointer of type `t` (the library's __local pointer). */
static LLVMValueRef scratch(struct lowering *l, LLVMTypeRef t)
{
    LLVMValueRef v = lanes_build_invariant_load(l->b, l->wg, LANES_WG_SCRATCH,
                                                LLVMPointerTypeInContext(l->ctx, 0), "scratch");
    return LLVMBuildAddrSpaceCast(l->b, v, t, "");
}

/* The sub-group built-ins of OpenCL C 3.0 §6.15.18 (uint results). */
/* The work-items of this work-group (or of an enqueued one), read from wg (tier 0), as an i32. */
static LLVMValueRef items_read(struct lowering *l, bool enqueued)
{
    LLVMValueRef v = NULL;
    for (unsigned d = 0; d < 3; d++) {
        LLVMValueRef n = size_as(l, d, l->i32, enqueued);
        v = v ? LLVMBuildMul(l->b, v, n, "") : n;
        LLVMSetNUW(v, 1); /* at most LANES_MAX_WORK_GROUP_SIZE */
    }
    return v;
}

/* (n + w - 1) / w for an i32 n. */
static LLVMValueRef div_up(struct lowering *l, LLVMValueRef n, uint64_t w)
{
    LLVMValueRef up = LLVMBuildAdd(l->b, n, LLVMConstInt(l->i32, w - 1, 0), "");
    LLVMSetNUW(up, 1);
    return LLVMBuildUDiv(l->b, up, LLVMConstInt(l->i32, w, 0), "");
}

static LLVMValueRef sub_group_query(struct lowering *l, enum lanes_name q)
{
    const struct lanes_specialization *s = l->spec;
    uint64_t w = s->width, items = 1, enqueued = 1;
    for (unsigned d = 0; d < 3; d++) {
        items *= lanes_spec_group_size(s, d);
        enqueued *= s->local_size[d];
    }
    if (s->dynamic && q >= LANES_NAME_MAX_SUB_GROUP_SIZE &&
        q <= LANES_NAME_ENQUEUED_NUM_SUB_GROUPS) {
        LLVMValueRef all = items_read(l, q != LANES_NAME_NUM_SUB_GROUPS);
        if (q != LANES_NAME_MAX_SUB_GROUP_SIZE)
            return div_up(l, all, w);
        LLVMValueRef cw = LLVMConstInt(l->i32, w, 0);
        return LLVMBuildSelect(l->b, LLVMBuildICmp(l->b, LLVMIntULT, all, cw, ""), all, cw, "");
    }
    switch (q) {
    case LANES_NAME_SUB_GROUP_SIZE: return LLVMBuildTrunc(l->b, l->lanes, l->i32, "");
    case LANES_NAME_MAX_SUB_GROUP_SIZE: return LLVMConstInt(l->i32, enqueued < w ? enqueued : w, 0);
    case LANES_NAME_NUM_SUB_GROUPS: return LLVMConstInt(l->i32, (items + w - 1) / w, 0);
    case LANES_NAME_ENQUEUED_NUM_SUB_GROUPS: return LLVMConstInt(l->i32, (enqueued + w - 1) / w, 0);
    case LANES_NAME_SUB_GROUP_ID:
        return LLVMBuildTrunc(l->b, LLVMBuildUDiv(l->b, l->first, c64(l, w), ""), l->i32, "");
    default: return lanes_build_lane(l->b, l->sg);
    }
}

static LLVMValueRef lower_call(LLVMValueRef call, const char *callee, void *ctx)
{
    struct lowering *l = ctx;
    enum lanes_name q = lanes_name_lookup(callee, strlen(callee));
    if (q < LANES_NAME_WORK_DIM || q > LANES_NAME_WG_SCRATCH)
        return NULL; /* not a work-item function (compiler/names.c) */
    if (q == LANES_NAME_WORK_DIM)
        return LLVMConstInt(l->i32, l->spec->work_dim, 0);
    if (q == LANES_NAME_WG_SCRATCH)
        return scratch(l, LLVMTypeOf(call));
    if (q == LANES_NAME_GLOBAL_LINEAR_ID || q == LANES_NAME_LOCAL_LINEAR_ID)
        return linear_id(l, q);
    if (q >= LANES_NAME_SUB_GROUP_SIZE && q <= LANES_NAME_SUB_GROUP_LOCAL_ID)
        return sub_group_query(l, q);
    return query(l, q, LLVMGetOperand(call, 0));
}

void lanes_lower_workitem(LLVMValueRef sg, const struct lanes_specialization *spec)
{
    struct lowering l = {
        .ctx = LLVMGetModuleContext(LLVMGetGlobalParent(sg)), .sg = sg, .spec = spec};
    l.b = LLVMCreateBuilderInContext(l.ctx);
    l.i64 = LLVMInt64TypeInContext(l.ctx);
    l.i32 = LLVMInt32TypeInContext(l.ctx);
    l.wg = lanes_sg_param(sg, LANES_SG_WG);
    l.first = lanes_sg_param(sg, LANES_SG_FIRST);
    l.lanes = lanes_sg_param(sg, LANES_SG_LANES);
    for (unsigned d = 0; d < 3; d++)
        l.lid0[d] = lanes_sg_param(sg, LANES_SG_LX + d);

    lanes_replace_calls(sg, l.b, lower_call, &l);
    LLVMDisposeBuilder(l.b);
}
