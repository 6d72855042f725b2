/* SPDX-License-Identifier: MIT */
/*
 * printf calls become stores into the command's printf buffer (the record
 * layout is in compiler/printf.h): no formatting happens in the kernel, and
 * the runtime prints the records when the command completes. A call
 * reserves its whole record with one atomic add, so records never
 * interleave; one that does not fit writes into a stack sink instead (no
 * branch to split the block for) and returns -1.
 */
#include "printf.h"

#include "abi.h"
#include "ir.h"
#include "names.h"
#include "passes.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <string.h>

struct printf_lowering {
    LLVMBuilderRef b;
    LLVMContextRef ctx;
    LLVMTypeRef i8, i32, i64, ptr;
    LLVMValueRef wg;
    LLVMTargetDataRef td;
};

/* How an argument of type `t` is recorded: its kind, element size and count. */
static bool classify(LLVMTypeRef t, unsigned *kind, unsigned *size, unsigned *count)
{
    *count = 1;
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
        *count = LLVMGetVectorSize(t);
        t = LLVMGetElementType(t);
    }
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
        *kind = LANES_PRINTF_INT;
        *size = (LLVMGetIntTypeWidth(t) + 7) / 8;
        return *size == 1 || *size == 2 || *size == 4 || *size == 8;
    case LLVMHalfTypeKind: *kind = LANES_PRINTF_FLOAT, *size = 2; return true;
    case LLVMFloatTypeKind: *kind = LANES_PRINTF_FLOAT, *size = 4; return true;
    case LLVMDoubleTypeKind: *kind = LANES_PRINTF_FLOAT, *size = 8; return true;
    case LLVMPointerTypeKind: *kind = LANES_PRINTF_POINTER, *size = 8; return *count == 1;
    default: return false;
    }
}

static uint64_t align8(uint64_t n)
{
    return (n + 7) / 8 * 8;
}

/* The format string of a call, when it is a constant (OpenCL C requires a literal); else NULL. */
static const char *format_of(LLVMValueRef v, size_t *len)
{
    while (v && LLVMIsAConstantExpr(v))
        v = LLVMGetOperand(v, 0); /* a GEP or an address-space cast of the literal */
    if (!v || !LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v))
        return NULL;
    LLVMValueRef init = LLVMGetInitializer(v);
    return init && LLVMIsConstantString(init) ? LLVMGetAsString(init, len) : NULL;
}

/*
 * What the format says of its conversions, in order: for a vector
 * conversion (%vN with hh, h, hl or l) its kind, element size and count, so
 * that an argument the calling convention coerced (an int2 passed as a
 * double, say) is still recorded as what it is; 0 elements for the others.
 */
struct conversion {
    unsigned kind, size, count;
};

static unsigned parse_format(const char *f, size_t len, struct conversion *out, unsigned max)
{
    unsigned n = 0;
    for (size_t i = 0; i < len && f[i] && n < max; i++) {
        if (f[i] != '%')
            continue;
        if (i + 1 < len && f[i + 1] == '%') {
            i++;
            continue;
        }
        i++;
        while (i < len && strchr("-+ #0", f[i]) && f[i])
            i++;
        while (i < len && ((f[i] >= '0' && f[i] <= '9') || f[i] == '.'))
            i++;
        unsigned count = 0;
        if (i < len && f[i] == 'v') {
            for (i++; i < len && f[i] >= '0' && f[i] <= '9'; i++)
                count = count * 10 + (unsigned)(f[i] - '0');
        }
        unsigned size = 0;
        if (i + 1 < len && f[i] == 'h' && f[i + 1] == 'h')
            size = 1, i += 2;
        else if (i + 1 < len && f[i] == 'h' && f[i + 1] == 'l')
            size = 4, i += 2;
        else if (i < len && f[i] == 'h')
            size = 2, i++;
        else if (i < len && f[i] == 'l')
            size = 8, i++;
        char c = i < len ? f[i] : '\0';
        unsigned kind = strchr("diouxXc", c) && c    ? LANES_PRINTF_INT
                        : strchr("fFeEgGaA", c) && c ? LANES_PRINTF_FLOAT
                                                     : LANES_PRINTF_POINTER;
        out[n++] = (struct conversion){kind, size, count && size ? count : 0};
    }
    return n;
}

static LLVMValueRef at(struct printf_lowering *l, LLVMValueRef base, uint64_t offset)
{
    LLVMValueRef idx = LLVMConstInt(l->i64, offset, 0);
    return LLVMBuildInBoundsGEP2(l->b, l->i8, base, &idx, 1, "");
}

static void store(struct printf_lowering *l, LLVMValueRef v, LLVMValueRef p)
{
    LLVMSetAlignment(LLVMBuildStore(l->b, v, p), 1);
}

/* Replaces one printf call (before `call`) by the writing of its record. */
/* Bytes an argument of type t takes in a record: its store size or its elements', padded. */
static uint64_t slot_bytes(LLVMTargetDataRef td, LLVMTypeRef t, unsigned size, unsigned count)
{
    uint64_t store = LLVMStoreSizeOfType(td, t), elems = (uint64_t)size * count;
    return align8(store > elems ? store : elems);
}

/*
 * How each argument of `call` is recorded, from the format's vector
 * conversions where they say more than the IR type, else from the type.
 * Returns the number of arguments (at most 64) and the record's size.
 */
static unsigned describe(LLVMTargetDataRef td, LLVMValueRef call, unsigned *kinds, unsigned *sizes,
                         unsigned *counts, uint64_t *record)
{
    unsigned n = (unsigned)LLVMGetNumArgOperands(call);
    struct conversion conv[64];
    size_t len = 0;
    const char *format = format_of(LLVMGetOperand(call, 0), &len);
    unsigned num_conv = format ? parse_format(format, len, conv, 64) : 0;
    unsigned stored = 0;
    *record = 16;
    for (unsigned a = 1; a < n && stored < 64; a++, stored++) {
        LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(call, a));
        if (!classify(t, &kinds[stored], &sizes[stored], &counts[stored]))
            kinds[stored] = LANES_PRINTF_INT, sizes[stored] = 1, counts[stored] = 0;
        const struct conversion *c = stored < num_conv ? &conv[stored] : NULL;
        /* vN of a vector passed as it is, or coerced to an integer or double of its size. */
        if (c && c->count && c->kind != LANES_PRINTF_POINTER &&
            LLVMStoreSizeOfType(td, t) >= (unsigned long long)c->size * c->count &&
            LLVMStoreSizeOfType(td, t) <= align8((uint64_t)c->size * c->count) + 8) {
            kinds[stored] = c->kind;
            sizes[stored] = c->size;
            counts[stored] = c->count;
        }
        *record += 8 + slot_bytes(td, t, sizes[stored], counts[stored]);
    }
    return stored;
}

static void lower_call(struct printf_lowering *l, LLVMValueRef call, LLVMValueRef sink_slot)
{
    unsigned kinds[64], sizes[64], counts[64];
    uint64_t size;
    unsigned stored = describe(l->td, call, kinds, sizes, counts, &size);
    LLVMPositionBuilderBefore(l->b, call);
    LLVMValueRef idx = LLVMConstInt(l->i64, LANES_WG_PRINTF, 0);
    LLVMValueRef buf =
        LLVMBuildLoad2(l->b, l->ptr, LLVMBuildInBoundsGEP2(l->b, l->i8, l->wg, &idx, 1, ""), "");
    LLVMValueRef used = at(l, buf, LANES_PRINTF_USED);
    LLVMValueRef offset =
        LLVMBuildAtomicRMW(l->b, LLVMAtomicRMWBinOpAdd, used, LLVMConstInt(l->i64, size, 0),
                           LLVMAtomicOrderingMonotonic, 0);
    LLVMValueRef capacity = LLVMBuildLoad2(l->b, l->i64, at(l, buf, LANES_PRINTF_CAPACITY), "");
    LLVMValueRef end = LLVMBuildAdd(l->b, offset, LLVMConstInt(l->i64, size, 0), "");
    LLVMValueRef fits = LLVMBuildICmp(l->b, LLVMIntULE, end, capacity, "");
    LLVMValueRef data = at(l, buf, LANES_PRINTF_DATA);
    LLVMValueRef record = LLVMBuildInBoundsGEP2(l->b, l->i8, data, &offset, 1, "");
    /* The sink is as large as the largest record of the function (sized by the caller). */
    LLVMValueRef dst = LLVMBuildSelect(l->b, fits, record, sink_slot, "");

    store(l, LLVMConstInt(l->i32, size, 0), at(l, dst, 0));
    store(l, LLVMConstInt(l->i32, stored, 0), at(l, dst, 4));
    store(l, LLVMBuildPtrToInt(l->b, LLVMGetOperand(call, 0), l->i64, ""), at(l, dst, 8));
    uint64_t pos = 16;
    for (unsigned a = 0; a < stored; a++) {
        LLVMValueRef v = LLVMGetOperand(call, a + 1);
        store(l, LLVMConstInt(l->i32, LANES_PRINTF_TAG(kinds[a], sizes[a], counts[a]), 0),
              at(l, dst, pos));
        store(l, LLVMConstInt(l->i32, 0, 0), at(l, dst, pos + 4));
        if (counts[a]) {
            if (kinds[a] == LANES_PRINTF_POINTER)
                v = LLVMBuildPtrToInt(l->b, v, l->i64, "");
            store(l, v, at(l, dst, pos + 8));
        }
        pos += 8 + slot_bytes(l->td, LLVMTypeOf(LLVMGetOperand(call, a + 1)), sizes[a], counts[a]);
    }
    LLVMValueRef ret = LLVMBuildSelect(l->b, fits, LLVMConstInt(l->i32, 0, 0),
                                       LLVMConstInt(l->i32, (unsigned long long)-1, 1), "");
    if (LLVMTypeOf(call) == l->i32)
        LLVMReplaceAllUsesWith(call, ret);
    LLVMInstructionEraseFromParent(call);
}

static bool is_printf(LLVMValueRef i)
{
    size_t len;
    const char *name = lanes_called_name(i, &len);
    return name && lanes_name_lookup(name, len) == LANES_NAME_PRINTF;
}

bool lanes_lower_printf(LLVMValueRef sg)
{
    LLVMModuleRef m = LLVMGetGlobalParent(sg);
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    uint64_t largest = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (is_printf(i)) {
                unsigned kinds[64], sizes[64], counts[64];
                uint64_t size;
                describe(td, i, kinds, sizes, counts, &size);
                largest = size > largest ? size : largest;
            }
    if (!largest) {
        LLVMDisposeTargetData(td);
        return false;
    }
    struct printf_lowering l = {.ctx = LLVMGetModuleContext(m), .td = td};
    l.b = LLVMCreateBuilderInContext(l.ctx);
    l.i8 = LLVMInt8TypeInContext(l.ctx);
    l.i32 = LLVMInt32TypeInContext(l.ctx);
    l.i64 = LLVMInt64TypeInContext(l.ctx);
    l.ptr = LLVMPointerTypeInContext(l.ctx, 0);
    l.wg = lanes_sg_param(sg, LANES_SG_WG);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(sg);
    LLVMPositionBuilderBefore(l.b, LLVMGetFirstInstruction(entry));
    LLVMValueRef sink = LLVMBuildAlloca(l.b, LLVMArrayType2(l.i8, largest), "printf.sink");
    LLVMSetAlignment(sink, 8);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            if (is_printf(i))
                lower_call(&l, i, sink);
        }
    LLVMDisposeBuilder(l.b);
    LLVMDisposeTargetData(td);
    return true;
}
