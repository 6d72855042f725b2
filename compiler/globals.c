/* SPDX-License-Identifier: MIT */
/*
 * The block of a program's variables: which module globals it holds, where,
 * and their initial bytes. Initializers are written here, from the module,
 * at the block's final address, so that pointers between variables (`global
 * int *p = &x;`) need no relocation step and no JIT.
 */
#include "globals.h"

#include "ir.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SPIR address-space numbers, kept in the IR by the frontend. */
enum { AS_GLOBAL = 1, AS_CONSTANT = 2 };

/* The least alignment of a block: that of long16, as for argument blocks. */
#define BLOCK_ALIGN 128

static unsigned space_of(LLVMValueRef g)
{
    return LLVMGetPointerAddressSpace(LLVMTypeOf(g));
}

static const char *name_of(LLVMValueRef v)
{
    size_t len;
    return LLVMGetValueName2(v, &len);
}

/* A defined variable of the global or constant address space. */
static bool candidate(LLVMValueRef g)
{
    unsigned as = space_of(g);
    return !LLVMIsDeclaration(g) && (as == AS_GLOBAL || as == AS_CONSTANT) &&
           strncmp(name_of(g), "llvm.", 5) != 0;
}

/* Clang's string and aggregate literals: constants whose address means nothing. */
static bool literal(LLVMValueRef g)
{
    return LLVMIsGlobalConstant(g) && LLVMGetUnnamedAddress(g) == LLVMGlobalUnnamedAddr;
}

/* The global values a constant refers to (not through their own initializers). */
struct refs {
    LLVMValueRef *v;
    size_t n, cap;
};

static int collect_refs(LLVMValueRef c, struct refs *r)
{
    if (LLVMIsAGlobalValue(c)) {
        if (r->n == r->cap) {
            size_t cap = r->cap ? 2 * r->cap : 4;
            LLVMValueRef *grown = realloc(r->v, cap * sizeof *grown);
            if (!grown)
                return -1;
            r->v = grown;
            r->cap = cap;
        }
        r->v[r->n++] = c;
        return 0;
    }
    int n = LLVMGetNumOperands(c);
    for (int i = 0; i < n; i++)
        if (collect_refs(LLVMGetOperand(c, (unsigned)i), r) != 0)
            return -1;
    return 0;
}

static uint64_t round_up(uint64_t n, uint64_t a)
{
    return (n + a - 1) / a * a;
}

int lanes_globals_layout(LLVMModuleRef m, struct lanes_globals_layout *layout, char **error)
{
    memset(layout, 0, sizeof *layout);
    size_t n = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        n++;
    if (n == 0) {
        layout->align = BLOCK_ALIGN;
        return 0;
    }
    LLVMValueRef *all = calloc(n, sizeof *all);
    bool *member = calloc(n, sizeof *member);
    struct refs *refs = calloc(n, sizeof *refs);
    int rc = all && member && refs ? 0 : -1;
    size_t i = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g && rc == 0; g = LLVMGetNextGlobal(g), i++) {
        all[i] = g;
        if (candidate(g)) {
            member[i] = !literal(g);
            rc = collect_refs(LLVMGetInitializer(g), &refs[i]);
        }
    }
    /* Literals join the block with the members they point at or that point at them. */
    for (bool changed = rc == 0; changed;) {
        changed = false;
        for (i = 0; i < n; i++) {
            if (!candidate(all[i]))
                continue;
            for (size_t k = 0; k < refs[i].n; k++) {
                size_t j = 0;
                while (j < n && all[j] != refs[i].v[k])
                    j++;
                if (j == n || !candidate(all[j]) || member[i] == member[j])
                    continue;
                member[i] = member[j] = true;
                changed = true;
            }
        }
    }
    size_t count = 0;
    for (i = 0; i < n; i++)
        count += member[i];
    if (rc == 0 && count && !(layout->vars = calloc(count, sizeof *layout->vars)))
        rc = -1;
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    uint64_t size = 0, align = BLOCK_ALIGN;
    for (int pass = 0; pass < 2 && rc == 0; pass++) {
        for (i = 0; i < n; i++) {
            if (!member[i] || space_of(all[i]) != (pass == 0 ? AS_GLOBAL : AS_CONSTANT))
                continue;
            uint64_t a = LLVMPreferredAlignmentOfGlobal(td, all[i]);
            if (a > align)
                align = a;
            struct lanes_global_var *v = &layout->vars[layout->count++];
            v->var = all[i];
            v->offset = round_up(size, a ? a : 1);
            v->copyable = LLVMIsGlobalConstant(all[i]) && refs[i].n == 0;
            size = v->offset + LLVMABISizeOfType(td, LLVMGlobalGetValueType(all[i]));
        }
        if (pass == 0)
            layout->global_size = size;
    }
    LLVMDisposeTargetData(td);
    layout->size = size;
    layout->align = align;
    for (i = 0; refs && i < n; i++)
        free(refs[i].v);
    free(refs);
    free(member);
    free(all);
    if (rc != 0) {
        lanes_globals_layout_free(layout);
        *error = strdup("lanes: out of host memory laying out program-scope variables\n");
    }
    return rc;
}

void lanes_globals_layout_free(struct lanes_globals_layout *layout)
{
    free(layout->vars);
    memset(layout, 0, sizeof *layout);
}

/* The metadata kind of a variable's place in the block: !{i64 offset, i1 copyable}. */
static unsigned mark_kind(LLVMContextRef ctx)
{
    static const char kind[] = "lanes.block";
    return LLVMGetMDKindIDInContext(ctx, kind, sizeof kind - 1);
}

void lanes_globals_mark(const struct lanes_globals_layout *layout)
{
    for (size_t i = 0; i < layout->count; i++) {
        const struct lanes_global_var *v = &layout->vars[i];
        LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(v->var));
        LLVMMetadataRef ops[2] = {
            LLVMValueAsMetadata(LLVMConstInt(LLVMInt64TypeInContext(ctx), v->offset, 0)),
            LLVMValueAsMetadata(LLVMConstInt(LLVMInt1TypeInContext(ctx), v->copyable, 0))};
        LLVMGlobalSetMetadata(v->var, mark_kind(ctx), LLVMMDNodeInContext2(ctx, ops, 2));
    }
}

/* The mark of `g`, read into *v; false when it has none. */
static bool read_mark(LLVMContextRef ctx, unsigned kind, LLVMValueRef g, struct lanes_global_var *v)
{
    size_t n = 0;
    LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(g, &n);
    bool found = false;
    for (unsigned i = 0; i < n && !found; i++) {
        if (LLVMValueMetadataEntriesGetKind(entries, i) != kind)
            continue;
        LLVMValueRef node =
            LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(entries, i));
        if (LLVMGetMDNodeNumOperands(node) != 2)
            continue;
        LLVMValueRef ops[2];
        LLVMGetMDNodeOperands(node, ops);
        if (!ops[0] || !ops[1] || !LLVMIsAConstantInt(ops[0]) || !LLVMIsAConstantInt(ops[1]))
            continue;
        *v = (struct lanes_global_var){.var = g,
                                       .offset = LLVMConstIntGetZExtValue(ops[0]),
                                       .copyable = LLVMConstIntGetZExtValue(ops[1]) != 0};
        found = true;
    }
    if (entries)
        LLVMDisposeValueMetadataEntries(entries);
    return found;
}

int lanes_globals_from_marks(LLVMModuleRef m, struct lanes_globals_layout *layout, char **error)
{
    memset(layout, 0, sizeof *layout);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned kind = mark_kind(ctx);
    size_t n = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        n++;
    if (n && !(layout->vars = calloc(n, sizeof *layout->vars))) {
        *error = strdup("lanes: out of host memory laying out program-scope variables\n");
        return -1;
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (read_mark(ctx, kind, g, &layout->vars[layout->count])) {
            layout->count++;
            LLVMGlobalEraseMetadata(g, kind);
        }
    return 0;
}

const struct lanes_global_var *lanes_globals_find(const struct lanes_globals_layout *layout,
                                                  LLVMValueRef var)
{
    for (size_t i = 0; i < layout->count; i++)
        if (layout->vars[i].var == var)
            return &layout->vars[i];
    return NULL;
}

/* Writing initializers: LLVM's memory layout of each constant, little-endian. */
struct writer {
    LLVMContextRef ctx;
    LLVMTargetDataRef td;
    const struct lanes_globals_layout *layout;
    char *block;     /* NULL: check only */
    LLVMValueRef in; /* the variable being written, for messages */
    char **error;
};

static int fail(struct writer *w, const char *what)
{
    *w->error = lanes_format("lanes: the initializer of %s holds %s, which Lanes cannot place\n",
                             name_of(w->in), what);
    return -1;
}

static void put(struct writer *w, uint64_t at, uint64_t value, uint64_t bytes)
{
    for (uint64_t i = 0; w->block && i < bytes; i++)
        w->block[at + i] = (char)(value >> (8 * i));
}

static int scalar(struct writer *w, LLVMValueRef c, uint64_t *v);

/* The byte offset a constant GEP adds to its base. */
static int gep_offset(struct writer *w, LLVMValueRef ce, uint64_t *offset)
{
    LLVMTypeRef t = LLVMGetGEPSourceElementType(ce);
    unsigned n = (unsigned)LLVMGetNumOperands(ce);
    *offset = 0;
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef op = LLVMGetOperand(ce, i);
        if (!LLVMIsAConstantInt(op))
            return fail(w, "an address with a non-constant index");
        long long idx = LLVMConstIntGetSExtValue(op);
        if (i == 1) {
            *offset += (uint64_t)idx * LLVMABISizeOfType(w->td, t);
            continue;
        }
        switch (LLVMGetTypeKind(t)) {
        case LLVMStructTypeKind:
            *offset += LLVMOffsetOfElement(w->td, t, (unsigned)idx);
            t = LLVMStructGetTypeAtIndex(t, (unsigned)idx);
            break;
        case LLVMArrayTypeKind:
            t = LLVMGetElementType(t);
            *offset += (uint64_t)idx * LLVMABISizeOfType(w->td, t);
            break;
        case LLVMVectorTypeKind:
            t = LLVMGetElementType(t);
            *offset += (uint64_t)idx * (LLVMSizeOfTypeInBits(w->td, t) / 8);
            break;
        default: return fail(w, "an address into a scalar");
        }
    }
    return 0;
}

/* The value of an integer or pointer constant: addresses are those of the block. */
static int scalar(struct writer *w, LLVMValueRef c, uint64_t *v)
{
    *v = 0;
    LLVMTypeRef t = LLVMTypeOf(c);
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) > 64)
        return fail(w, "an integer wider than 64 bits");
    if (LLVMIsNull(c) || LLVMIsUndef(c))
        return 0;
    if (LLVMIsAConstantInt(c)) {
        *v = LLVMConstIntGetZExtValue(c);
        return 0;
    }
    if (LLVMIsAGlobalValue(c)) {
        const struct lanes_global_var *g =
            LLVMIsAGlobalVariable(c) ? lanes_globals_find(w->layout, c) : NULL;
        if (!g) {
            char what[300];
            snprintf(what, sizeof what, "the address of %s", name_of(c));
            return fail(w, what);
        }
        *v = (uint64_t)(uintptr_t)w->block + g->offset;
        return 0;
    }
    if (!LLVMIsAConstantExpr(c))
        return fail(w, "a constant of an unexpected kind");
    uint64_t a, b = 0;
    LLVMOpcode op = LLVMGetConstOpcode(c);
    if (scalar(w, LLVMGetOperand(c, 0), &a) != 0)
        return -1;
    switch (op) {
    case LLVMGetElementPtr:
        if (gep_offset(w, c, &b) != 0)
            return -1;
        *v = a + b;
        break;
    case LLVMTrunc:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMPtrToInt:
    case LLVMIntToPtr: *v = a; break;
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMXor:
        if (scalar(w, LLVMGetOperand(c, 1), &b) != 0)
            return -1;
        *v = op == LLVMAdd ? a + b : op == LLVMSub ? a - b : op == LLVMMul ? a * b : a ^ b;
        break;
    default: return fail(w, "a constant expression of an unexpected kind");
    }
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) < 64)
        *v &= (UINT64_C(1) << LLVMGetIntTypeWidth(t)) - 1;
    return 0;
}

/* Writes constant `c` at byte `at` of the block. */
static int write_value(struct writer *w, LLVMValueRef c, uint64_t at)
{
    if (LLVMIsNull(c) || LLVMIsUndef(c))
        return 0; /* the block starts zeroed */
    LLVMTypeRef t = LLVMTypeOf(c);
    uint64_t v;
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind:
    case LLVMPointerTypeKind:
        if (scalar(w, c, &v) != 0)
            return -1;
        put(w, at, v, LLVMStoreSizeOfType(w->td, t));
        return 0;
    case LLVMHalfTypeKind:
    case LLVMBFloatTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind: {
        /* The bits, folded by LLVM: exact for every value, NaN payloads included. */
        unsigned bits = (unsigned)LLVMSizeOfTypeInBits(w->td, t);
        LLVMValueRef i = LLVMConstBitCast(c, LLVMIntTypeInContext(w->ctx, bits));
        if (!LLVMIsAConstantInt(i))
            return fail(w, "a floating-point expression");
        put(w, at, LLVMConstIntGetZExtValue(i), bits / 8);
        return 0;
    }
    case LLVMArrayTypeKind:
    case LLVMVectorTypeKind: {
        bool array = LLVMGetTypeKind(t) == LLVMArrayTypeKind;
        LLVMTypeRef e = LLVMGetElementType(t);
        uint64_t n = array ? LLVMGetArrayLength2(t) : LLVMGetVectorSize(t);
        /* Vector elements are packed; array elements take their allocation size. */
        uint64_t stride = array ? LLVMABISizeOfType(w->td, e) : LLVMSizeOfTypeInBits(w->td, e) / 8;
        if (!array && LLVMSizeOfTypeInBits(w->td, e) % 8)
            return fail(w, "a vector of bits");
        for (uint64_t k = 0; k < n; k++) {
            LLVMValueRef x = LLVMGetAggregateElement(c, (unsigned)k);
            if (!x)
                return fail(w, "an aggregate of an unexpected kind");
            if (write_value(w, x, at + k * stride) != 0)
                return -1;
        }
        return 0;
    }
    case LLVMStructTypeKind: {
        unsigned n = LLVMCountStructElementTypes(t);
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef x = LLVMGetAggregateElement(c, k);
            if (!x)
                return fail(w, "an aggregate of an unexpected kind");
            if (write_value(w, x, at + LLVMOffsetOfElement(w->td, t, k)) != 0)
                return -1;
        }
        return 0;
    }
    default: return fail(w, "a value of an unexpected type");
    }
}

int lanes_globals_write(LLVMModuleRef m, const struct lanes_globals_layout *layout, char *block,
                        char **error)
{
    struct writer w = {LLVMGetModuleContext(m),
                       LLVMCreateTargetData(LLVMGetDataLayoutStr(m)),
                       layout,
                       block,
                       NULL,
                       error};
    int rc = 0;
    for (size_t i = 0; i < layout->count && rc == 0; i++) {
        w.in = layout->vars[i].var;
        rc = write_value(&w, LLVMGetInitializer(w.in), layout->vars[i].offset);
    }
    LLVMDisposeTargetData(w.td);
    return rc;
}
