/* SPDX-License-Identifier: MIT */
/*
 * The widening's memory (vz_widen.h): loads and stores at uniform, contiguous
 * and varying addresses (one scalar access, one vector access, masked when
 * lanes may be off, or gathers and scatters), and the interleaved accesses of
 * OpenCL vectors whose lanes lie end to end.
 */
#include "vz_widen.h"

#include "../host.h"

#include <stdlib.h>
#include <string.h>

/* Scalar type t's accesses: bytes of memory per lane, when it has no padding bits. */
bool vz_plain_scalar(struct vz *v, LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if (k == LLVMVectorTypeKind || k == LLVMArrayTypeKind || k == LLVMStructTypeKind)
        return false;
    return LLVMSizeOfTypeInBits(v->td, t) == 8 * LLVMStoreSizeOfType(v->td, t);
}

static LLVMValueRef all_ones(struct vz *v)
{
    return vz_splat(v, LLVMConstInt(v->i1, 1, 0));
}

/* A gather of scalar type t from the pointers `ptrs` under mask m. */
static LLVMValueRef gather(struct vz *v, LLVMTypeRef t, LLVMValueRef ptrs, unsigned align,
                           LLVMValueRef m)
{
    LLVMTypeRef vt = LLVMVectorType(t, v->w);
    LLVMTypeRef over[2] = {vt, LLVMTypeOf(ptrs)};
    LLVMValueRef args[4] = {ptrs, LLVMConstInt(v->i32, align, 0), m ? m : all_ones(v),
                            LLVMGetPoison(vt)};
    return vz_intrinsic(v, "llvm.masked.gather", over, 2, args, 4);
}

static void scatter(struct vz *v, LLVMValueRef val, LLVMValueRef ptrs, unsigned align,
                    LLVMValueRef m)
{
    LLVMTypeRef over[2] = {LLVMTypeOf(val), LLVMTypeOf(ptrs)};
    LLVMValueRef args[4] = {val, ptrs, LLVMConstInt(v->i32, align, 0), m ? m : all_ones(v)};
    vz_intrinsic(v, "llvm.masked.scatter", over, 2, args, 4);
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
    unsigned n = vz_components(t);
    if (!n)
        return gather(v, t, ptrs, align, m);
    LLVMValueRef r = LLVMGetPoison(vz_vec_type(v, t));
    for (unsigned k = 0; k < n; k++) {
        LLVMTypeRef ct = vz_component_type(t, k);
        LLVMValueRef c = gather_any(v, ct, component_ptrs(v, ptrs, t, k), 1, m);
        r = LLVMBuildInsertValue(v->b, r, c, k, "");
    }
    return r;
}

static void scatter_any(struct vz *v, LLVMTypeRef t, LLVMValueRef val, LLVMValueRef ptrs,
                        unsigned align, LLVMValueRef m)
{
    unsigned n = vz_components(t);
    if (!n) {
        scatter(v, val, ptrs, align, m);
        return;
    }
    for (unsigned k = 0; k < n; k++)
        scatter_any(v, vz_component_type(t, k), LLVMBuildExtractValue(v->b, val, k, ""),
                    component_ptrs(v, ptrs, t, k), 1, m);
}

static unsigned alignment(LLVMValueRef i)
{
    unsigned a = LLVMGetAlignment(i);
    return a ? a : 1;
}

/* Elements [first, first + n) of vector x. */
LLVMValueRef vz_slice(struct vz *v, LLVMValueRef x, unsigned first, unsigned n)
{
    LLVMValueRef idx[n];
    for (unsigned k = 0; k < n; k++)
        idx[k] = LLVMConstInt(v->i32, first + k, 0);
    return LLVMBuildShuffleVector(v->b, x, LLVMGetPoison(LLVMTypeOf(x)), LLVMConstVector(idx, n),
                                  "");
}

/* The vectors parts[0, count), each of n elements, end to end (count a power of two). */
LLVMValueRef vz_concat(struct vz *v, LLVMValueRef *parts, unsigned count, unsigned n)
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
    return vz_plain_scalar(v, e) && a.stride > 0 &&
           (unsigned long long)a.stride == LLVMStoreSizeOfType(v->td, t) &&
           LLVMStoreSizeOfType(v->td, t) == LLVMGetVectorSize(t) * LLVMStoreSizeOfType(v->td, e);
}

/*
 * The vector form of OpenCL vector type t (one <W x e> per component) as
 * the W lanes' values end to end: <W * n x e>, lane l's n elements from
 * l * n ("array of structures").
 */
LLVMValueRef vz_interleave(struct vz *v, LLVMTypeRef t, LLVMValueRef val)
{
    unsigned n = LLVMGetVectorSize(t), total = v->w * n;
    /* Components end to end (vz_concat wants a power-of-two count: pad with poison). */
    unsigned count = 1;
    while (count < n)
        count *= 2;
    LLVMValueRef parts[count];
    for (unsigned c = 0; c < count; c++)
        parts[c] = c < n ? LLVMBuildExtractValue(v->b, val, c, "")
                         : LLVMGetPoison(LLVMVectorType(LLVMGetElementType(t), v->w));
    LLVMValueRef comps = vz_concat(v, parts, count, v->w);
    LLVMValueRef *idx = malloc(total * sizeof *idx);
    for (unsigned k = 0; k < total; k++)
        idx[k] = LLVMConstInt(v->i32, (k % n) * v->w + k / n, 0);
    LLVMValueRef all = LLVMBuildShuffleVector(v->b, comps, LLVMGetPoison(LLVMTypeOf(comps)),
                                              LLVMConstVector(idx, total), "");
    free(idx);
    return all;
}

/* The inverse of vz_interleave: each component's <W x e> picked out of `all`. */
LLVMValueRef vz_deinterleave(struct vz *v, LLVMTypeRef t, LLVMValueRef all)
{
    unsigned n = LLVMGetVectorSize(t);
    LLVMValueRef r = LLVMGetPoison(vz_vec_type(v, t));
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
                                count > 1 ? vz_slice(v, bits, c * step, step) : bits,
                                LLVMGetPoison(vt)};
        parts[c] = vz_intrinsic(v, "llvm.masked.load", over, 2, args, 4);
    }
    LLVMValueRef all = vz_concat(v, parts, count, step);
    vz_map_put_value(&v->aos, i, all);
    return vz_deinterleave(v, t, all);
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
        all = vz_interleave(v, t, val);
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
        LLVMValueRef part = step == total ? all : vz_slice(v, all, first, step);
        LLVMValueRef off = LLVMConstInt(v->i64, (unsigned long long)first * esize, 0);
        LLVMValueRef q = first ? LLVMBuildGEP2(v->b, i8, p, &off, 1, "") : p;
        unsigned a = first ? (align < step * esize ? align : step * esize) : align;
        if (!bits) {
            LLVMValueRef st = LLVMBuildStore(v->b, part, q);
            LLVMSetAlignment(st, a);
            continue;
        }
        LLVMValueRef pm = step == total ? bits : vz_slice(v, bits, first, step);
        LLVMTypeRef over[2] = {LLVMTypeOf(part), LLVMTypeOf(q)};
        LLVMValueRef args[4] = {part, q, LLVMConstInt(v->i32, a, 0), pm};
        vz_intrinsic(v, "llvm.masked.store", over, 2, args, 4);
    }
}

/*
 * Clamped progressions. An address computed from a progression through
 * min and max against uniform bounds (clamp(i - 1, 0, n - 1), a read at an
 * image's edge) is varying, but contiguous wherever no bound bites. Its load
 * tests that at run time: when no lane's min or max changed its value, one
 * vector access at the address the progression gives without them; else
 * the gathers.
 */
enum { CLAMP_CHAIN_MAX = 16 };

struct clamp_chain {
    LLVMValueRef x;                     /* the progression */
    LLVMValueRef node[CLAMP_CHAIN_MAX]; /* from x's user to the address */
    unsigned on[CLAMP_CHAIN_MAX];       /* the operand of each node that is on the chain */
    unsigned n;
};

static bool is_min_max(LLVMValueRef i)
{
    const char *name;
    if (LLVMGetInstructionOpcode(i) != LLVMCall || !vz_callee(i, &name))
        return false;
    return strncmp(name, "llvm.smin.", 10) == 0 || strncmp(name, "llvm.smax.", 10) == 0 ||
           strncmp(name, "llvm.umin.", 10) == 0 || strncmp(name, "llvm.umax.", 10) == 0;
}

/*
 * The chain from a progression to `addr`: each node varying, with one
 * operand that is not uniform (the chain's), an integer or address
 * operation that keeps progressions, or a min or max; at least one of those.
 */
static bool clamp_chain(struct vz *v, LLVMValueRef addr, struct clamp_chain *c)
{
    LLVMValueRef node[CLAMP_CHAIN_MAX];
    unsigned on[CLAMP_CHAIN_MAX], n = 0;
    bool clamps = false;
    LLVMValueRef cur = addr;
    while (vz_shape_of(v, cur).kind == VZ_VARYING) {
        if (n == CLAMP_CHAIN_MAX || !LLVMIsAInstruction(cur))
            return false;
        bool mm = is_min_max(cur);
        switch (LLVMGetInstructionOpcode(cur)) {
        case LLVMGetElementPtr:
        case LLVMAdd:
        case LLVMSub:
        case LLVMMul:
        case LLVMShl:
        case LLVMSExt:
        case LLVMZExt:
        case LLVMTrunc:
        case LLVMFreeze:
        case LLVMAddrSpaceCast: break;
        case LLVMCall:
            if (mm)
                break;
            return false;
        default: return false;
        }
        int ops = LLVMGetNumOperands(cur) - (mm ? 1 : 0), chain = -1;
        for (int k = 0; k < ops; k++)
            if (vz_shape_of(v, LLVMGetOperand(cur, (unsigned)k)).kind != VZ_UNIFORM) {
                if (chain >= 0)
                    return false;
                chain = k;
            }
        if (chain < 0)
            return false;
        clamps |= mm;
        node[n] = cur;
        on[n++] = (unsigned)chain;
        cur = LLVMGetOperand(cur, (unsigned)chain);
    }
    if (!clamps || vz_shape_of(v, cur).kind != VZ_CONTIGUOUS)
        return false;
    c->x = cur;
    c->n = n;
    for (unsigned k = 0; k < n; k++) {
        c->node[k] = node[n - 1 - k];
        c->on[k] = on[n - 1 - k];
    }
    return true;
}

/*
 * The shape of the chain's address with its mins and maxes taken out, x's
 * shape being xs (the shapes left as they were).
 */
static struct vz_shape unclamped_shape(struct vz *v, const struct clamp_chain *c,
                                       struct vz_shape xs)
{
    struct vz_shape saved[CLAMP_CHAIN_MAX], s = xs;
    for (unsigned k = 0; k < c->n; k++) {
        saved[k] = vz_shape_of(v, c->node[k]);
        if (!is_min_max(c->node[k]))
            s = vz_shape_transfer(v, c->node[k]);
        vz_set_shape(v, c->node[k], s);
    }
    for (unsigned k = 0; k < c->n; k++)
        vz_set_shape(v, c->node[k], saved[k]);
    return s;
}

static LLVMValueRef load_flat(struct vz *v, LLVMValueRef i, LLVMTypeRef t, LLVMValueRef p,
                              LLVMValueRef m)
{
    LLVMTypeRef vt = LLVMVectorType(t, v->w);
    if (!m) {
        LLVMValueRef x = LLVMBuildLoad2(v->b, vt, p, "");
        LLVMSetAlignment(x, alignment(i));
        return x;
    }
    LLVMTypeRef over[2] = {vt, LLVMTypeOf(p)};
    LLVMValueRef args[4] = {p, LLVMConstInt(v->i32, alignment(i), 0), m, LLVMGetPoison(vt)};
    return vz_intrinsic(v, "llvm.masked.load", over, 2, args, 4);
}

/* The load i at a clamped progression (above); NULL when its address is not one. */
static LLVMValueRef load_clamped(struct vz *v, LLVMValueRef i, LLVMTypeRef t, LLVMValueRef m)
{
    struct clamp_chain c;
    if (!clamp_chain(v, LLVMGetOperand(i, 0), &c))
        return NULL;
    /*
     * Where the progression's lanes may wrap (a truncated size_t, say), they
     * are tested not to, so that its extension stays a progression: with
     * |stride| * W below a quarter of the type's range, they wrap (signed or
     * unsigned) exactly when the last lane's value is below the first's.
     */
    struct vz_shape xs = vz_shape_of(v, c.x);
    LLVMTypeRef xt = LLVMTypeOf(c.x);
    unsigned wraps = (VZ_EXACT_SIGNED | VZ_EXACT_UNSIGNED) & ~xs.exact;
    uint64_t span = (uint64_t)(xs.stride < 0 ? -xs.stride : xs.stride) * v->w;
    if (LLVMGetTypeKind(xt) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(xt) < 3 ||
        (LLVMGetIntTypeWidth(xt) < 66 && span >= (uint64_t)1 << (LLVMGetIntTypeWidth(xt) - 2)))
        wraps = 0;
    xs.exact |= wraps;
    struct vz_shape a = unclamped_shape(v, &c, xs);
    bool flat = a.kind == VZ_CONTIGUOUS && vz_plain_scalar(v, t) &&
                a.stride == (int64_t)LLVMStoreSizeOfType(v->td, t);
    if (!flat && !interleaved(v, t, a))
        return NULL;
    /*
     * Every lane is tested, active or not: the vector access starts at lane
     * 0's unclamped address, which must then be the one lane 0 computed.
     */
    LLVMValueRef bites = NULL;
    for (unsigned k = 0; k < c.n; k++)
        if (is_min_max(c.node[k])) {
            LLVMValueRef in = LLVMGetOperand(c.node[k], c.on[k]);
            LLVMValueRef ne =
                LLVMBuildICmp(v->b, LLVMIntNE, vz_vector(v, c.node[k]), vz_vector(v, in), "");
            bites = bites ? LLVMBuildOr(v->b, bites, ne, "") : ne;
        }
    LLVMValueRef clamped = vz_any(v, bites);
    if (wraps) {
        LLVMValueRef x = vz_vector(v, c.x);
        LLVMValueRef first = LLVMBuildExtractElement(v->b, x, LLVMConstInt(v->i32, 0, 0), "");
        LLVMValueRef last = LLVMBuildExtractElement(v->b, x, LLVMConstInt(v->i32, v->w - 1, 0), "");
        bool up = xs.stride > 0;
        if (wraps & VZ_EXACT_SIGNED)
            clamped =
                LLVMBuildOr(v->b, clamped,
                            LLVMBuildICmp(v->b, up ? LLVMIntSLT : LLVMIntSGT, last, first, ""), "");
        if (wraps & VZ_EXACT_UNSIGNED)
            clamped =
                LLVMBuildOr(v->b, clamped,
                            LLVMBuildICmp(v->b, up ? LLVMIntULT : LLVMIntUGT, last, first, ""), "");
    }
    LLVMBasicBlockRef fast = vz_new_block(v, "vz.unclamped"), slow = vz_new_block(v, "vz.clamped"),
                      join = vz_new_block(v, "vz.join");
    LLVMBuildCondBr(v->b, clamped, slow, fast);

    LLVMPositionBuilderAtEnd(v->b, fast);
    LLVMValueRef p = vz_scalar(v, c.x);
    for (unsigned k = 0; k < c.n; k++) {
        if (is_min_max(c.node[k]))
            continue; /* the identity here */
        LLVMValueRef copy = LLVMInstructionClone(c.node[k]);
        int ops = LLVMGetNumOperands(c.node[k]);
        for (int o = 0; o < ops; o++)
            LLVMSetOperand(
                copy, (unsigned)o,
                (unsigned)o == c.on[k] ? p : vz_scalar(v, LLVMGetOperand(c.node[k], (unsigned)o)));
        vz_drop_poison_flags(copy);
        LLVMInsertIntoBuilder(v->b, copy);
        p = copy;
    }
    LLVMValueRef unclamped =
        flat ? load_flat(v, i, t, p, m) : load_interleaved(v, i, t, p, alignment(i), m);
    vz_map_put(&v->aos, i, 0); /* that interleaved form is the fast path's alone */
    LLVMBasicBlockRef fast_end = LLVMGetInsertBlock(v->b);
    LLVMBuildBr(v->b, join);

    LLVMPositionBuilderAtEnd(v->b, slow);
    LLVMValueRef gathered = gather_any(v, t, vz_vector(v, LLVMGetOperand(i, 0)), alignment(i), m);
    LLVMBasicBlockRef slow_end = LLVMGetInsertBlock(v->b);
    LLVMBuildBr(v->b, join);

    LLVMPositionBuilderAtEnd(v->b, join);
    LLVMValueRef phi = LLVMBuildPhi(v->b, LLVMTypeOf(unclamped), "");
    LLVMValueRef vals[2] = {unclamped, gathered};
    LLVMBasicBlockRef from[2] = {fast_end, slow_end};
    LLVMAddIncoming(phi, vals, from, 2);
    return phi;
}

/* A load of a uniform, contiguous or varying address. */
LLVMValueRef vz_widen_load(struct vz *v, LLVMValueRef i)
{
    LLVMValueRef addr = LLVMGetOperand(i, 0);
    struct vz_shape a = vz_shape_of(v, addr);
    LLVMTypeRef t = LLVMTypeOf(i);
    if (LLVMGetVolatile(i) || LLVMGetOrdering(i))
        return vz_per_lane(v, i, true);
    if (a.kind == VZ_UNIFORM) {
        if (!v->linearized)
            return vz_clone_with(v, i, NULL);
        /*
         * In linearized code the block may run with no lane active: then the
         * address may be bad. The value is then zero, not poison: uniform code
         * goes on with it, and poison passed to a noundef parameter (any
         * library call) would make the path UB, and LLVM would drop the guard.
         */
        struct vz_guard g = vz_guard_begin(v, vz_any(v, vz_mask(v)));
        LLVMValueRef x = vz_clone_with(v, i, NULL);
        return vz_guard_end(v, &g, x, LLVMConstNull(t));
    }
    LLVMValueRef m = vz_mask(v);
    if (a.kind == VZ_CONTIGUOUS && vz_plain_scalar(v, t) &&
        a.stride == (int64_t)LLVMStoreSizeOfType(v->td, t))
        return load_flat(v, i, t, vz_scalar(v, addr), m);
    if (interleaved(v, t, a))
        return load_interleaved(v, i, t, vz_scalar(v, addr), alignment(i), m);
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind)
        return vz_per_lane(v, i, true);
    LLVMValueRef clamped = load_clamped(v, i, t, m);
    if (clamped)
        return clamped;
    return gather_any(v, t, vz_vector(v, addr), alignment(i), m);
}

/* The index of the last active lane of m (m NULL: the last lane). */
static LLVMValueRef last_lane(struct vz *v, LLVMValueRef m)
{
    if (!m)
        return LLVMConstInt(v->i32, v->w - 1, 0);
    LLVMTypeRef bits = LLVMIntTypeInContext(v->ctx, v->w);
    LLVMValueRef b = LLVMBuildBitCast(v->b, m, bits, "");
    LLVMValueRef args[2] = {b, LLVMConstInt(v->i1, 0, 0)};
    LLVMValueRef lz = vz_intrinsic(v, "llvm.ctlz", &bits, 1, args, 2);
    LLVMValueRef idx = LLVMBuildSub(v->b, LLVMConstInt(bits, v->w - 1, 0), lz, "");
    return LLVMBuildIntCast2(v->b, idx, v->i32, 0, ""); /* i64 beyond 32 lanes */
}

void vz_widen_store(struct vz *v, LLVMValueRef i)
{
    LLVMValueRef val = LLVMGetOperand(i, 0), addr = LLVMGetOperand(i, 1);
    struct vz_shape a = vz_shape_of(v, addr), s = vz_shape_of(v, val);
    LLVMTypeRef t = LLVMTypeOf(val);
    LLVMValueRef m = vz_mask(v);
    if (LLVMGetVolatile(i) || LLVMGetOrdering(i)) {
        vz_per_lane(v, i, true);
        return;
    }
    if (a.kind == VZ_UNIFORM) {
        /* Every active lane stores there: the last one's value stays. */
        struct vz_guard g;
        if (v->linearized)
            g = vz_guard_begin(v, vz_any(v, m));
        if (s.kind == VZ_UNIFORM) {
            vz_clone_with(v, i, NULL);
        } else {
            if (vz_components(t)) {
                /* Aggregates: stored lane after lane, so that the last one's stays. */
                vz_per_lane(v, i, true);
            } else {
                LLVMValueRef x =
                    LLVMBuildExtractElement(v->b, vz_vector(v, val), last_lane(v, m), "");
                LLVMValueRef st = LLVMBuildStore(v->b, x, vz_scalar(v, addr));
                LLVMSetAlignment(st, alignment(i));
            }
        }
        if (v->linearized)
            vz_guard_end(v, &g, NULL, NULL);
        return;
    }
    if (a.kind == VZ_CONTIGUOUS && vz_plain_scalar(v, t) &&
        a.stride == (int64_t)LLVMStoreSizeOfType(v->td, t)) {
        LLVMValueRef p = vz_scalar(v, addr), x = vz_vector(v, val);
        if (!m) {
            LLVMValueRef st = LLVMBuildStore(v->b, x, p);
            LLVMSetAlignment(st, alignment(i));
            return;
        }
        LLVMTypeRef over[2] = {LLVMTypeOf(x), LLVMTypeOf(p)};
        LLVMValueRef args[4] = {x, p, LLVMConstInt(v->i32, alignment(i), 0), m};
        vz_intrinsic(v, "llvm.masked.store", over, 2, args, 4);
        return;
    }
    if (interleaved(v, t, a)) {
        store_interleaved(v, t, val, vz_vector(v, val), vz_scalar(v, addr), alignment(i), m);
        return;
    }
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
        vz_per_lane(v, i, true);
        return;
    }
    scatter_any(v, t, vz_vector(v, val), vz_vector(v, addr), alignment(i), m);
}
