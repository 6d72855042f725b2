/* SPDX-License-Identifier: MIT */
/*
 * Shapes: for every value of the sub-group function, whether it is the
 * same in all lanes, an arithmetic progression over them, or anything
 * (vz.h). A fixed point over the instructions, phis and loops included,
 * starting from the seeds: arguments uniform, the lane contiguous(1).
 */
#include "vz.h"

#include "../ir.h"

#include <string.h>

static const struct vz_shape uniform = {VZ_UNIFORM, VZ_EXACT_SIGNED | VZ_EXACT_UNSIGNED, 0, 0};
static const struct vz_shape varying = {VZ_VARYING, 0, 0, 0};

/* kind in bits 0-3, exact 4-7, tz 8-15, stride 16-63. */
static uint64_t pack(struct vz_shape s)
{
    return (uint64_t)s.stride << 16 | (uint64_t)s.tz << 8 | (uint64_t)s.exact << 4 |
           (uint64_t)s.kind;
}

static struct vz_shape unpack(uint64_t p)
{
    return (struct vz_shape){(enum vz_kind)(p & 15), (unsigned)(p >> 4 & 15), (int64_t)p >> 16,
                             (unsigned)(p >> 8 & 255)};
}

static unsigned trailing_zeros(uint64_t x)
{
    return x ? (unsigned)__builtin_ctzll(x) : 64;
}

static unsigned log2_exact(uint64_t x)
{
    return x && !(x & (x - 1)) ? (unsigned)__builtin_ctzll(x) : 64;
}

/*
 * What is known of an argument: lane 0's local linear id (and, when the
 * launcher walks rows W at a time, its x) is a multiple of W, a vector's
 * worth of work-items (compiler/launcher.c).
 */
static unsigned argument_tz(struct vz *v, LLVMValueRef arg)
{
    LLVMValueRef fn = LLVMGetParamParent(arg);
    unsigned n = LLVMCountParams(fn), w = log2_exact(v->w);
    if (fn != v->fn || !v->spec || w == 64 || n < LANES_SG_NUM_PARAMS)
        return 0;
    unsigned first = n - LANES_SG_NUM_PARAMS;
    if (arg == LLVMGetParam(fn, first + LANES_SG_FIRST))
        return w;
    if (lanes_spec_rows(v->spec) && arg == LLVMGetParam(fn, first + LANES_SG_LX))
        return w;
    return 0;
}

struct vz_shape vz_shape_of(struct vz *v, LLVMValueRef value)
{
    uint64_t p;
    if (vz_map_get(&v->shapes, value, &p))
        return unpack(p);
    if (LLVMIsAInstruction(value))
        return (struct vz_shape){VZ_UNKNOWN, 0, 0, 0};
    /* constants, globals, arguments, basic blocks */
    struct vz_shape s = uniform;
    if (LLVMIsAConstantInt(value) && LLVMGetIntTypeWidth(LLVMTypeOf(value)) <= 64)
        s.tz = trailing_zeros(LLVMConstIntGetZExtValue(value));
    else if (LLVMIsAArgument(value))
        s.tz = argument_tz(v, value);
    return s;
}

void vz_set_shape(struct vz *v, LLVMValueRef value, struct vz_shape s)
{
    vz_map_put(&v->shapes, value, pack(s));
}

static unsigned min_tz(unsigned a, unsigned b)
{
    return a < b ? a : b;
}

static unsigned sum_tz(unsigned a, unsigned b)
{
    return a + b > 64 ? 64 : a + b;
}

/* A progression of `stride` whose lane 0 has `tz` low zero bits. */
static struct vz_shape contiguous(int64_t stride, unsigned exact, unsigned tz)
{
    if (stride == 0)
        return (struct vz_shape){VZ_UNIFORM, VZ_EXACT_SIGNED | VZ_EXACT_UNSIGNED, 0, tz};
    if (stride > VZ_MAX_STRIDE || stride < -VZ_MAX_STRIDE)
        return varying;
    return (struct vz_shape){VZ_CONTIGUOUS, exact, stride, tz};
}

/* `stride` as a stride of `bits`-bit integers, sign-extended from that width. */
static int64_t stride_in(int64_t stride, unsigned bits)
{
    if (bits >= 64)
        return stride;
    uint64_t m = (uint64_t)1 << (bits - 1), x = (uint64_t)stride & ((m << 1) - 1);
    return (int64_t)(x ^ m) - (int64_t)m;
}

/*
 * An integer progression of positive power-of-two stride s whose lane 0 is a
 * multiple of W * s lies in one aligned block of W * s values: when that
 * block is no larger than half the type's range, no lane wraps, signed or
 * unsigned, whatever its operations' flags said.
 */
static struct vz_shape settle(struct vz *v, LLVMValueRef i, struct vz_shape s)
{
    if (s.kind != VZ_CONTIGUOUS || s.stride <= 0 ||
        LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMIntegerTypeKind)
        return s;
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(i)), lw = log2_exact(v->w),
             ls = log2_exact((uint64_t)s.stride);
    if (lw < 64 && ls < 64 && lw + ls < bits && s.tz >= lw + ls)
        s.exact = VZ_EXACT_SIGNED | VZ_EXACT_UNSIGNED;
    return s;
}

/* The least shape that holds both (RV's join). */
static struct vz_shape join(struct vz_shape a, struct vz_shape b)
{
    if (a.kind == VZ_UNKNOWN)
        return b;
    if (b.kind == VZ_UNKNOWN)
        return a;
    if (a.kind == VZ_VARYING || b.kind == VZ_VARYING)
        return varying;
    if (a.kind == b.kind && a.stride == b.stride)
        return (struct vz_shape){a.kind, a.exact & b.exact, a.stride, min_tz(a.tz, b.tz)};
    return varying;
}

static bool is_uniform(struct vz_shape s)
{
    return s.kind == VZ_UNIFORM;
}

/* Uniform when every operand is, else varying (unknown operands are ignored until known). */
static struct vz_shape all_uniform(struct vz *v, LLVMValueRef i)
{
    struct vz_shape s = {VZ_UNKNOWN, 0, 0, 0};
    int n = LLVMGetNumOperands(i);
    for (int k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
        if (LLVMIsABasicBlock(op))
            continue;
        struct vz_shape o = vz_shape_of(v, op);
        if (o.kind == VZ_UNKNOWN)
            continue;
        s = join(s, is_uniform(o) ? uniform : varying);
    }
    return s.kind == VZ_UNKNOWN ? uniform : s;
}

/* A constant integer's value when `c` is one (sign-extended). */
static bool const_int(LLVMValueRef c, int64_t *value)
{
    if (!LLVMIsAConstantInt(c))
        return false;
    *value = LLVMConstIntGetSExtValue(c);
    return true;
}

static unsigned no_wrap(LLVMValueRef i)
{
    return (LLVMGetNSW(i) ? VZ_EXACT_SIGNED : 0) | (LLVMGetNUW(i) ? VZ_EXACT_UNSIGNED : 0);
}

/* Strides wrap as the lanes' values do (two's complement). */
static int64_t wrap_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}

/*
 * add, sub, mul and shl keep progressions; the rest of the integer
 * operations do not. The low zero bits of a uniform result (or of lane 0's)
 * follow from the operands'.
 */
static struct vz_shape binary(struct vz *v, LLVMValueRef i, LLVMOpcode op)
{
    LLVMValueRef x = LLVMGetOperand(i, 0), y = LLVMGetOperand(i, 1);
    struct vz_shape a = vz_shape_of(v, x), b = vz_shape_of(v, y);
    if (a.kind == VZ_UNKNOWN || b.kind == VZ_UNKNOWN)
        return (struct vz_shape){VZ_UNKNOWN, 0, 0, 0};
    if (a.kind == VZ_VARYING || b.kind == VZ_VARYING)
        return varying;
    bool both = is_uniform(a) && is_uniform(b);
    unsigned flags = no_wrap(i), exact = a.exact & b.exact & flags;
    int64_t c;
    switch (op) {
    case LLVMAdd: return contiguous(a.stride + b.stride, exact, min_tz(a.tz, b.tz));
    case LLVMSub:
        return contiguous(a.stride - b.stride, is_uniform(b) ? exact : 0, min_tz(a.tz, b.tz));
    case LLVMMul:
        if (both)
            return contiguous(0, 0, sum_tz(a.tz, b.tz));
        if (is_uniform(b) && const_int(y, &c))
            return contiguous(wrap_mul(a.stride, c), exact, sum_tz(a.tz, b.tz));
        if (is_uniform(a) && const_int(x, &c))
            return contiguous(wrap_mul(b.stride, c), exact, sum_tz(a.tz, b.tz));
        return varying;
    case LLVMShl:
        if (is_uniform(b) && const_int(y, &c) && c >= 0 && c < 63)
            return contiguous(wrap_mul(a.stride, (int64_t)1 << c), exact,
                              sum_tz(a.tz, (unsigned)c));
        return both ? uniform : varying;
    case LLVMAnd: return both ? contiguous(0, 0, a.tz > b.tz ? a.tz : b.tz) : varying;
    case LLVMOr:
    case LLVMXor: return both ? contiguous(0, 0, min_tz(a.tz, b.tz)) : varying;
    default: return both ? uniform : varying;
    }
}

static unsigned int_bits(LLVMValueRef x)
{
    LLVMTypeRef t = LLVMTypeOf(x);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 64;
}

static struct vz_shape cast(struct vz *v, LLVMValueRef i, LLVMOpcode op)
{
    LLVMValueRef x = LLVMGetOperand(i, 0);
    struct vz_shape a = vz_shape_of(v, x);
    /* Lane 0's low zero bits: all of them when those that stay are zero. */
    unsigned tz = a.tz;
    if (op == LLVMTrunc && tz >= int_bits(i))
        tz = 64;
    if ((op == LLVMSExt || op == LLVMZExt) && tz >= int_bits(x))
        tz = 64;
    if (op == LLVMBitCast && LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMPointerTypeKind)
        tz = 0;
    if (a.kind != VZ_CONTIGUOUS) {
        a.tz = a.kind == VZ_UNIFORM ? tz : 0;
        return a;
    }
    switch (op) {
    case LLVMTrunc: return contiguous(stride_in(a.stride, int_bits(i)), 0, tz);
    case LLVMSExt:
        return a.exact & VZ_EXACT_SIGNED ? contiguous(a.stride, VZ_EXACT_SIGNED, tz) : varying;
    case LLVMZExt:
        if (a.exact & VZ_EXACT_UNSIGNED || (LLVMGetNNeg(i) && a.exact & VZ_EXACT_SIGNED))
            return contiguous(a.stride, VZ_EXACT_SIGNED | VZ_EXACT_UNSIGNED, tz);
        return varying;
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMAddrSpaceCast: return contiguous(a.stride, 0, tz);
    case LLVMBitCast: return LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMPointerTypeKind ? a : varying;
    default: return varying;
    }
}

/* A GEP: the base's stride plus each index's stride times its scale. */
static struct vz_shape gep(struct vz *v, LLVMValueRef i)
{
    struct vz_shape base = vz_shape_of(v, LLVMGetOperand(i, 0));
    if (base.kind == VZ_UNKNOWN || base.kind == VZ_VARYING)
        return base;
    int64_t stride = base.stride;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(i);
    unsigned n = (unsigned)LLVMGetNumIndices(i);
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef idx = LLVMGetOperand(i, k + 1);
        struct vz_shape s = vz_shape_of(v, idx);
        if (s.kind == VZ_UNKNOWN || s.kind == VZ_VARYING)
            return s;
        if (k > 0 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
            t = LLVMStructGetTypeAtIndex(t, (unsigned)LLVMConstIntGetZExtValue(idx));
            continue;
        }
        LLVMTypeRef elem = k == 0 ? t : LLVMGetElementType(t);
        if (k > 0)
            t = elem;
        if (s.kind == VZ_CONTIGUOUS) {
            /* A narrower index is sign-extended: only a progression with no signed wrap stays one.
             */
            if (LLVMGetIntTypeWidth(LLVMTypeOf(idx)) < 64 && !(s.exact & VZ_EXACT_SIGNED))
                return varying;
            stride += s.stride * (int64_t)LLVMABISizeOfType(v->td, elem);
        }
    }
    return contiguous(stride, 0, 0);
}

uint64_t vz_alloca_stride(struct vz *v, LLVMValueRef alloca)
{
    uint64_t size = LLVMABISizeOfType(v->td, LLVMGetAllocatedType(alloca));
    uint64_t align = LLVMGetAlignment(alloca);
    if (align < 1)
        align = 1;
    size *= LLVMConstIntGetZExtValue(LLVMGetOperand(alloca, 0));
    return (size + align - 1) / align * align;
}

bool vz_pure_call(LLVMValueRef i)
{
    const char *name;
    LLVMValueRef f = vz_callee(i, &name);
    unsigned memory = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAttributeRef a =
        f ? LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, memory) : NULL;
    if (!a)
        a = LLVMGetCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex, memory);
    return a && LLVMGetEnumAttributeValue(a) == 0;
}

static struct vz_shape call(struct vz *v, LLVMValueRef i)
{
    const char *name;
    LLVMValueRef f = vz_callee(i, &name);
    if (!f)
        return varying;
    if (strcmp(name, LANES_LANE_FUNCTION) == 0)
        return contiguous(1, VZ_EXACT_SIGNED | VZ_EXACT_UNSIGNED, 64); /* lane 0 is 0 */
    if (strcmp(name, VZ_ANY_FUNCTION) == 0)
        return uniform;
    if (strcmp(name, VZ_BLOCK_MASK_FUNCTION) == 0)
        return vz_shape_of(v, LLVMGetOperand(i, 0));
    struct vz_sg_form form;
    if (vz_sg_form(name, &form))
        return form.result == 'u' ? uniform : varying;
    /* A call that only computes gives the same result for the same arguments. */
    return vz_pure_call(i) ? all_uniform(v, i) : varying;
}

static struct vz_shape transfer(struct vz *v, LLVMValueRef i)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    switch (op) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor: return binary(v, i, op);
    case LLVMTrunc:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast: {
        struct vz_shape a = vz_shape_of(v, LLVMGetOperand(i, 0));
        return a.kind == VZ_UNKNOWN ? a : cast(v, i, op);
    }
    case LLVMGetElementPtr: return gep(v, i);
    case LLVMFreeze: return vz_shape_of(v, LLVMGetOperand(i, 0));
    case LLVMSelect: {
        struct vz_shape c = vz_shape_of(v, LLVMGetOperand(i, 0));
        struct vz_shape a = vz_shape_of(v, LLVMGetOperand(i, 1));
        struct vz_shape b = vz_shape_of(v, LLVMGetOperand(i, 2));
        if (c.kind == VZ_UNKNOWN)
            return c;
        if (!is_uniform(c))
            return varying;
        return join(a, b);
    }
    case LLVMPHI: {
        uint64_t synced;
        if (vz_map_get(&v->synced, i, &synced))
            return varying; /* it joins lanes that went different ways (vz_divergence.c) */
        struct vz_shape s = {VZ_UNKNOWN, 0, 0, 0};
        for (unsigned k = 0; k < LLVMCountIncoming(i); k++)
            s = join(s, vz_shape_of(v, LLVMGetIncomingValue(i, k)));
        return s;
    }
    case LLVMLoad: {
        struct vz_shape a = vz_shape_of(v, LLVMGetOperand(i, 0));
        if (a.kind == VZ_UNKNOWN)
            return a;
        /* Each lane makes its own volatile or atomic access. */
        return is_uniform(a) && !LLVMGetOrdering(i) && !LLVMGetVolatile(i) ? uniform : varying;
    }
    case LLVMAlloca: {
        /* A private copy per lane, side by side: lane i's is i allocations further. */
        return contiguous((int64_t)vz_alloca_stride(v, i), 0, 0);
    }
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg: return varying; /* each lane's own old value */
    case LLVMCall: return call(v, i);
    default: return all_uniform(v, i);
    }
}

struct vz_shape vz_shape_transfer(struct vz *v, LLVMValueRef i)
{
    return settle(v, i, transfer(v, i));
}

/* Constructs the vectorizer does not take (yet): named, so that the build log can say so. */
static const char *unsupported(struct vz *v, LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMAlloca:
        if (!LLVMIsAConstantInt(LLVMGetOperand(i, 0)))
            return "a private array of variable size";
        return NULL;
    case LLVMInvoke:
    case LLVMCallBr:
    case LLVMIndirectBr:
    case LLVMLandingPad:
    case LLVMResume:
    case LLVMVAArg: return "an unsupported instruction";
    case LLVMCall: {
        const char *name = NULL;
        struct vz_sg_form form;
        if (!vz_callee(i, &name))
            return "an indirect call";
        if (vz_sg_function(name) && !vz_sg_form(name, &form))
            return "a sub-group function with no vector form";
        return NULL;
    }
    default: (void)v; return NULL;
    }
}

int vz_shapes(struct vz *v)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(v->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            const char *what = unsupported(v, i);
            if (what) {
                vz_refuse(v, i, what);
                return -1;
            }
        }
    /* Shapes only rise in the lattice, so this ends. */
    for (bool changed = true; changed;) {
        changed = false;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(v->fn); bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                struct vz_shape old = vz_shape_of(v, i);
                struct vz_shape now = join(old, settle(v, i, transfer(v, i)));
                if (now.kind != old.kind || now.stride != old.stride || now.exact != old.exact ||
                    now.tz != old.tz) {
                    vz_set_shape(v, i, now);
                    changed = true;
                }
            }
    }
    return 0;
}

bool vz_divergent(struct vz *v)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(v->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        LLVMOpcode op = LLVMGetInstructionOpcode(t);
        if ((op == LLVMBr && LLVMIsConditional(t)) || op == LLVMSwitch)
            if (!is_uniform(vz_shape_of(v, LLVMGetOperand(t, 0))))
                return true;
    }
    return false;
}
