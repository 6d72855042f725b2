/* SPDX-License-Identifier: MIT */
/*
 * The work-item built-ins (OpenCL C 3.0 §6.15.1), lowered in the compiler
 * rather than called in the built-in library: the enqueued local size and
 * work_dim of the specialization then fold into constants. The library's
 * __lanes_wg_scratch() is lowered here too: it reads wg like they do.
 */
#include "specialize.h"

#include <llvm-c/Core.h>
#include <string.h>

enum query {
    WORK_DIM,
    GLOBAL_SIZE,
    GLOBAL_ID,
    LOCAL_SIZE,
    ENQUEUED_LOCAL_SIZE,
    LOCAL_ID,
    NUM_GROUPS,
    GROUP_ID,
    GLOBAL_OFFSET,
    GLOBAL_LINEAR_ID,
    LOCAL_LINEAR_ID,
    WG_SCRATCH,
};

/* Itanium-mangled names, as Clang emits the calls. */
static const struct {
    const char *name;
    enum query q;
} builtins[] = {
    {"_Z12get_work_dimv", WORK_DIM},
    {"_Z15get_global_sizej", GLOBAL_SIZE},
    {"_Z13get_global_idj", GLOBAL_ID},
    {"_Z14get_local_sizej", LOCAL_SIZE},
    {"_Z23get_enqueued_local_sizej", ENQUEUED_LOCAL_SIZE},
    {"_Z12get_local_idj", LOCAL_ID},
    {"_Z14get_num_groupsj", NUM_GROUPS},
    {"_Z12get_group_idj", GROUP_ID},
    {"_Z17get_global_offsetj", GLOBAL_OFFSET},
    {"_Z20get_global_linear_idv", GLOBAL_LINEAR_ID},
    {"_Z19get_local_linear_idv", LOCAL_LINEAR_ID},
    /* The library's own: the work-group scratch (launcher.h), as a __local pointer. */
    {"__lanes_wg_scratch", WG_SCRATCH},
};

struct lowering {
    LLVMBuilderRef b;
    LLVMContextRef ctx;
    LLVMTypeRef i64, i32, i8;
    LLVMValueRef wg, lid[3];
    const struct lanes_specialization *spec;
};

static LLVMValueRef c64(struct lowering *l, uint64_t v)
{
    return LLVMConstInt(l->i64, v, 0);
}

/* wg-><field>[d] for a constant d < 3. */
static LLVMValueRef field(struct lowering *l, unsigned offset, unsigned d)
{
    LLVMValueRef idx = c64(l, offset + 8u * d);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(l->b, l->i8, l->wg, &idx, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(l->b, l->i64, p, "");
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(l->ctx, "invariant.load", 14),
                    LLVMMDNodeInContext(l->ctx, NULL, 0));
    return v;
}

/* The value of `q` in constant dimension d (d < 3). */
static LLVMValueRef query_dim(struct lowering *l, enum query q, unsigned d)
{
    const struct lanes_specialization *s = l->spec;
    switch (q) {
    case GLOBAL_SIZE: return field(l, LANES_WG_GLOBAL_SIZE, d);
    case LOCAL_SIZE:
        /* Dimensions past work_dim, or of size 1, cannot have a smaller last group. */
        return d >= s->work_dim || s->local_size[d] == 1 ? c64(l, s->local_size[d])
                                                         : field(l, LANES_WG_LOCAL_SIZE, d);
    case ENQUEUED_LOCAL_SIZE: return c64(l, s->local_size[d]);
    case LOCAL_ID: return l->lid[d];
    case NUM_GROUPS: return field(l, LANES_WG_NUM_GROUPS, d);
    case GROUP_ID: return d >= s->work_dim ? c64(l, 0) : field(l, LANES_WG_GROUP_ID, d);
    case GLOBAL_OFFSET: return field(l, LANES_WG_GLOBAL_OFFSET, d);
    case GLOBAL_ID: {
        LLVMValueRef base =
            LLVMBuildMul(l->b, query_dim(l, GROUP_ID, d), c64(l, s->local_size[d]), "");
        LLVMValueRef id = LLVMBuildAdd(l->b, base, l->lid[d], "");
        return LLVMBuildAdd(l->b, id, field(l, LANES_WG_GLOBAL_OFFSET, d), "");
    }
    default: return c64(l, 0);
    }
}

/* Out of range dimensions: sizes are 1, ids and offsets 0 (§6.15.1). */
static uint64_t out_of_range(enum query q)
{
    return q == GLOBAL_SIZE || q == LOCAL_SIZE || q == ENQUEUED_LOCAL_SIZE || q == NUM_GROUPS;
}

/* The value of `q` for a dimension argument that may not be constant. */
static LLVMValueRef query(struct lowering *l, enum query q, LLVMValueRef dim)
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

static LLVMValueRef linear_id(struct lowering *l, enum query q)
{
    LLVMValueRef v = c64(l, 0);
    for (unsigned d = 3; d-- > 0;) {
        LLVMValueRef size =
            q == GLOBAL_LINEAR_ID ? query_dim(l, GLOBAL_SIZE, d) : query_dim(l, LOCAL_SIZE, d);
        LLVMValueRef id = q == GLOBAL_LINEAR_ID ? LLVMBuildSub(l->b, query_dim(l, GLOBAL_ID, d),
                                                               query_dim(l, GLOBAL_OFFSET, d), "")
                                                : l->lid[d];
        v = LLVMBuildAdd(l->b, LLVMBuildMul(l->b, v, size, ""), id, "");
    }
    return v;
}

/* wg->scratch as a pointer of type `t` (the library's __local pointer). */
static LLVMValueRef scratch(struct lowering *l, LLVMTypeRef t)
{
    LLVMValueRef idx = c64(l, LANES_WG_SCRATCH);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(l->b, l->i8, l->wg, &idx, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(l->b, LLVMPointerTypeInContext(l->ctx, 0), p, "scratch");
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(l->ctx, "invariant.load", 14),
                    LLVMMDNodeInContext(l->ctx, NULL, 0));
    return LLVMBuildAddrSpaceCast(l->b, v, t, "");
}

static LLVMValueRef lower_call(LLVMValueRef call, const char *callee, void *ctx)
{
    struct lowering *l = ctx;
    for (size_t k = 0; k < sizeof builtins / sizeof *builtins; k++) {
        if (strcmp(callee, builtins[k].name) != 0)
            continue;
        enum query q = builtins[k].q;
        if (q == WORK_DIM)
            return LLVMConstInt(l->i32, l->spec->work_dim, 0);
        if (q == WG_SCRATCH)
            return scratch(l, LLVMTypeOf(call));
        if (q == GLOBAL_LINEAR_ID || q == LOCAL_LINEAR_ID)
            return linear_id(l, q);
        return query(l, q, LLVMGetOperand(call, 0));
    }
    return NULL;
}

void lanes_lower_workitem(LLVMValueRef sg, const struct lanes_specialization *spec)
{
    unsigned n = LLVMCountParams(sg);
    struct lowering l = {.ctx = LLVMGetModuleContext(LLVMGetGlobalParent(sg)), .spec = spec};
    l.b = LLVMCreateBuilderInContext(l.ctx);
    l.i64 = LLVMInt64TypeInContext(l.ctx);
    l.i32 = LLVMInt32TypeInContext(l.ctx);
    l.i8 = LLVMInt8TypeInContext(l.ctx);
    l.wg = LLVMGetParam(sg, n - 4);
    for (unsigned d = 0; d < 3; d++)
        l.lid[d] = LLVMGetParam(sg, n - 3 + d);

    lanes_replace_calls(sg, l.b, lower_call, &l);
    LLVMDisposeBuilder(l.b);
}
