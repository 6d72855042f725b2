/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V 1.4 instructions that Debian's SPIRV-LLVM-Translator 15 cannot
 * read (it stops on an assertion: "Not implemented", "Invalid Id"),
 * rewritten into SPIR-V 1.0 instructions of the same meaning before it
 * runs (spirv.h). The CTS's test_spirv_new met each of them:
 *
 * - OpPtrEqual / OpPtrNotEqual a b: the pointers as integers
 *   (OpConvertPtrToU), then OpIEqual / OpINotEqual;
 * - OpPtrDiff a b: (a - b) / sizeof(pointee) on those integers (OpISub,
 *   OpSDiv by a constant added to the module), converted to the result's
 *   width; a pointee whose size is not known here (a struct) stays as it is;
 * - OpCopyLogical: member by member (OpCompositeExtract, then
 *   OpCompositeConstruct of the result's type), through nested structs and
 *   arrays;
 * - OpCopyMemory (in any form: translator 15 fails on it): an OpLoad of the
 *   source's pointee and an OpStore, the target's memory operands on the
 *   store and the source's (or the one set) on the load;
 * - OpCopyMemorySized with two sets of memory operands (the target's, then
 *   the source's): the first set, with the second's Volatile and
 *   Nontemporal (one set applies to both, as before 1.4);
 * - OpDecorateString / OpMemberDecorateString (UserSemantic and other
 *   string decorations, annotations with no effect on the code): dropped.
 *
 * New ids (the conversions, the size constants, a pointer-sized integer
 * type when the module has none) go past the module's bound, which grows;
 * new types and constants go just before the first function.
 */
#include "spirv_lower.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum {
    OP_CAPABILITY = 17,
    OP_MEMORY_MODEL = 14,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_TYPE_VECTOR = 23,
    OP_TYPE_ARRAY = 28,
    OP_TYPE_STRUCT = 30,
    OP_TYPE_POINTER = 32,
    OP_CONSTANT = 43,
    OP_FUNCTION = 54,
    OP_LOAD = 61,
    OP_STORE = 62,
    OP_COPY_MEMORY = 63,
    OP_COPY_MEMORY_SIZED = 64,
    OP_COMPOSITE_CONSTRUCT = 80,
    OP_COMPOSITE_EXTRACT = 81,
    OP_S_CONVERT = 114,
    OP_CONVERT_PTR_TO_U = 117,
    OP_I_SUB = 130,
    OP_S_DIV = 135,
    OP_I_EQUAL = 170,
    OP_I_NOT_EQUAL = 171,
    OP_COPY_LOGICAL = 400,
    OP_PTR_EQUAL = 401,
    OP_PTR_NOT_EQUAL = 402,
    OP_PTR_DIFF = 403,
    OP_DECORATE_STRING = 5632,
    OP_MEMBER_DECORATE_STRING = 5633,
    CAPABILITY_INT64 = 11,
    ADDRESSING_PHYSICAL32 = 1,
    MEMORY_VOLATILE = 0x1,
    MEMORY_ALIGNED = 0x2,
    MEMORY_NONTEMPORAL = 0x4,
    MEMORY_MAKE_AVAILABLE = 0x8,
    MEMORY_MAKE_VISIBLE = 0x10,
};

/* What the rewrites need to know of an id. */
struct id_info {
    uint32_t op;   /* the instruction that defines it */
    uint32_t type; /* its result type, for a value */
    size_t at;     /* its instruction's first word */
};

struct lowering {
    const uint32_t *in;
    size_t words;
    struct id_info *ids;   /* [n_ids]: the module's own ids */
    uint32_t n_ids, bound; /* the module's bound, and the bound with the ids added here */
    uint32_t *out, *decls; /* the module, and the declarations added before the first function */
    size_t n_out, cap_out, n_decls, cap_decls;
    bool failed;
    uint32_t intptr;      /* a pointer-sized unsigned integer type, 0 until found or made */
    unsigned intptr_bits; /* 32 or 64 */
    bool has_int64;
};

static void put(uint32_t **buf, size_t *n, size_t *cap, bool *failed, const uint32_t *w, size_t k)
{
    if (*failed)
        return;
    if (*n + k > *cap) {
        size_t grown = (*cap ? *cap * 2 : 256) + k;
        uint32_t *b = realloc(*buf, grown * sizeof *b);
        if (!b) {
            *failed = true;
            return;
        }
        *buf = b, *cap = grown;
    }
    memcpy(*buf + *n, w, k * sizeof *w);
    *n += k;
}

static void emit(struct lowering *l, const uint32_t *w, size_t k)
{
    put(&l->out, &l->n_out, &l->cap_out, &l->failed, w, k);
}

static void declare(struct lowering *l, const uint32_t *w, size_t k)
{
    put(&l->decls, &l->n_decls, &l->cap_decls, &l->failed, w, k);
}

static uint32_t new_id(struct lowering *l)
{
    return l->bound++;
}

static const uint32_t *def(const struct lowering *l, uint32_t id)
{
    return id && id < l->n_ids && l->ids[id].op ? l->in + l->ids[id].at : NULL;
}

static uint32_t pointer_int(struct lowering *l)
{
    if (!l->intptr) {
        l->intptr = new_id(l);
        declare(l, (uint32_t[]){4u << 16 | OP_TYPE_INT, l->intptr, l->intptr_bits, 0}, 4);
    }
    return l->intptr;
}

/* Size in bytes of type `t` (scalars, vectors, arrays of them), or 0 when not known here. */
static uint64_t size_of(const struct lowering *l, uint32_t t, unsigned depth)
{
    const uint32_t *d = def(l, t);
    if (!d || depth > 8)
        return 0;
    switch (d[0] & 0xffff) {
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT: return d[2] / 8;
    case OP_TYPE_VECTOR: return size_of(l, d[2], depth + 1) * (d[3] == 3 ? 4 : d[3]);
    case OP_TYPE_POINTER: return l->intptr_bits / 8;
    case OP_TYPE_ARRAY: {
        const uint32_t *n = def(l, d[3]);
        if (!n || (n[0] & 0xffff) != OP_CONSTANT || (n[0] >> 16) < 4)
            return 0;
        uint64_t count = n[3] | ((n[0] >> 16) > 4 ? (uint64_t)n[4] << 32 : 0);
        return size_of(l, d[2], depth + 1) * count;
    }
    default: return 0;
    }
}

/* An OpConstant of the pointer-sized integer type. */
static uint32_t pointer_constant(struct lowering *l, uint64_t value)
{
    uint32_t t = pointer_int(l), id = new_id(l);
    if (l->intptr_bits == 64)
        declare(
            l,
            (uint32_t[]){5u << 16 | OP_CONSTANT, t, id, (uint32_t)value, (uint32_t)(value >> 32)},
            5);
    else
        declare(l, (uint32_t[]){4u << 16 | OP_CONSTANT, t, id, (uint32_t)value}, 4);
    return id;
}

/* OpPtrEqual, OpPtrNotEqual, OpPtrDiff: false when left as they are. */
static bool lower_pointer_op(struct lowering *l, const uint32_t *w)
{
    uint32_t op = w[0] & 0xffff, type = w[1], result = w[2], a = w[3], b = w[4];
    if (a >= l->n_ids || b >= l->n_ids)
        return false;
    uint64_t size = 1;
    if (op == OP_PTR_DIFF) {
        const uint32_t *pt = l->ids[a].op ? def(l, l->ids[a].type) : NULL;
        const uint32_t *rt = def(l, type);
        if (!pt || (pt[0] & 0xffff) != OP_TYPE_POINTER || !rt || (rt[0] & 0xffff) != OP_TYPE_INT)
            return false;
        if (!(size = size_of(l, pt[3], 0)))
            return false;
    }
    uint32_t t = pointer_int(l), ia = new_id(l), ib = new_id(l);
    emit(l, (uint32_t[]){4u << 16 | OP_CONVERT_PTR_TO_U, t, ia, a}, 4);
    emit(l, (uint32_t[]){4u << 16 | OP_CONVERT_PTR_TO_U, t, ib, b}, 4);
    if (op != OP_PTR_DIFF) {
        emit(l,
             (uint32_t[]){5u << 16 | (op == OP_PTR_EQUAL ? OP_I_EQUAL : OP_I_NOT_EQUAL), type,
                          result, ia, ib},
             5);
        return true;
    }
    const uint32_t *rt = def(l, type);
    bool same = rt[2] == l->intptr_bits;
    uint32_t diff = new_id(l), quotient = same && size == 1 ? result : new_id(l);
    emit(l, (uint32_t[]){5u << 16 | OP_I_SUB, t, size == 1 ? quotient : diff, ia, ib}, 5);
    if (size != 1)
        emit(l,
             (uint32_t[]){5u << 16 | OP_S_DIV, t, same ? result : quotient, diff,
                          pointer_constant(l, size)},
             5);
    if (!same)
        emit(l, (uint32_t[]){4u << 16 | OP_S_CONVERT, type, result, quotient}, 4);
    return true;
}

/*
 * `value` of type `from` copied to type `to`, which matches it logically:
 * the id of the copy, made of extracts and constructs. 0 when a type is
 * not known here.
 */
static uint32_t copy_logical(struct lowering *l, uint32_t value, uint32_t from, uint32_t to,
                             uint32_t result, unsigned depth)
{
    if (from == to)
        return value;
    const uint32_t *f = def(l, from), *t = def(l, to);
    if (!f || !t || depth > 16 || (f[0] & 0xffff) != (t[0] & 0xffff))
        return 0;
    uint32_t n, op = t[0] & 0xffff;
    if (op == OP_TYPE_STRUCT) {
        n = (t[0] >> 16) - 2;
        if ((f[0] >> 16) - 2 != n)
            return 0;
    } else if (op == OP_TYPE_ARRAY) {
        const uint32_t *c = def(l, t[3]);
        if (!c || (c[0] & 0xffff) != OP_CONSTANT || c[3] > 4096 || (c[0] >> 16) > 4)
            return 0;
        n = c[3];
    } else {
        return 0;
    }
    uint32_t *parts = malloc((n + 3) * sizeof *parts);
    if (!parts)
        return l->failed = true, 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t mf = op == OP_TYPE_STRUCT ? f[2 + i] : f[2],
                 mt = op == OP_TYPE_STRUCT ? t[2 + i] : t[2];
        uint32_t part = new_id(l);
        emit(l, (uint32_t[]){5u << 16 | OP_COMPOSITE_EXTRACT, mf, part, value, i}, 5);
        if (!(parts[3 + i] = copy_logical(l, part, mf, mt, 0, depth + 1))) {
            free(parts);
            return 0;
        }
    }
    uint32_t id = result ? result : new_id(l);
    parts[0] = (n + 3) << 16 | OP_COMPOSITE_CONSTRUCT, parts[1] = to, parts[2] = id;
    emit(l, parts, n + 3);
    free(parts);
    return id;
}

/* The words of a memory-operand set starting at w[i] (its mask and the operands it asks for). */
static size_t memory_operands_words(const uint32_t *w, size_t i, size_t count)
{
    if (i >= count)
        return 0;
    uint32_t mask = w[i];
    size_t k = 1 + !!(mask & MEMORY_ALIGNED) + !!(mask & MEMORY_MAKE_AVAILABLE) +
               !!(mask & MEMORY_MAKE_VISIBLE);
    return i + k <= count ? k : 0;
}

/*
 * OpCopyMemory target source [target's memory operands [source's]]: an
 * OpLoad of the source's pointee and an OpStore of it, each with its
 * memory operands (one set applies to both). False when the source's type
 * is not known here.
 */
static bool lower_copy_memory(struct lowering *l, const uint32_t *w, size_t count)
{
    uint32_t target = w[1], source = w[2];
    const uint32_t *pt =
        source < l->n_ids && l->ids[source].op ? def(l, l->ids[source].type) : NULL;
    if (!pt || (pt[0] & 0xffff) != OP_TYPE_POINTER)
        return false;
    size_t k1 = memory_operands_words(w, 3, count);
    size_t k2 = k1 ? memory_operands_words(w, 3 + k1, count) : 0;
    const uint32_t *store_ops = w + 3, *load_ops = k2 ? w + 3 + k1 : w + 3;
    size_t store_k = k1, load_k = k2 ? k2 : k1;
    uint32_t value = new_id(l), load[8] = {0}, store[8] = {0};
    if (load_k > 4 || store_k > 4)
        return false;
    load[0] = (uint32_t)(4 + load_k) << 16 | OP_LOAD, load[1] = pt[3], load[2] = value,
    load[3] = source;
    memcpy(load + 4, load_ops, load_k * sizeof *load);
    store[0] = (uint32_t)(3 + store_k) << 16 | OP_STORE, store[1] = target, store[2] = value;
    memcpy(store + 3, store_ops, store_k * sizeof *store);
    emit(l, load, 4 + load_k);
    emit(l, store, 3 + store_k);
    return true;
}

/* The type declarations the rewrites read (their result in word 1). */
static bool is_type(uint32_t op)
{
    return op == OP_TYPE_INT || op == OP_TYPE_FLOAT || op == OP_TYPE_VECTOR ||
           op == OP_TYPE_ARRAY || op == OP_TYPE_STRUCT || op == OP_TYPE_POINTER;
}

/*
 * The instructions whose values (result type in word 1, result in word 2)
 * may be a pointer compared or subtracted, or a composite copied: only
 * these are recorded, so that no other instruction's words (a name's
 * characters) pass for an id.
 */
static bool is_typed_value(uint32_t op)
{
    switch (op) {
    case 1:   /* OpUndef */
    case 43:  /* OpConstant */
    case 44:  /* OpConstantComposite */
    case 46:  /* OpConstantNull */
    case 51:  /* OpSpecConstantComposite */
    case 55:  /* OpFunctionParameter */
    case 57:  /* OpFunctionCall */
    case 59:  /* OpVariable */
    case 61:  /* OpLoad */
    case 65:  /* OpAccessChain */
    case 66:  /* OpInBoundsAccessChain */
    case 67:  /* OpPtrAccessChain */
    case 70:  /* OpInBoundsPtrAccessChain */
    case 80:  /* OpCompositeConstruct */
    case 81:  /* OpCompositeExtract */
    case 82:  /* OpCompositeInsert */
    case 83:  /* OpCopyObject */
    case 120: /* OpConvertUToPtr */
    case 121: /* OpPtrCastToGeneric */
    case 122: /* OpGenericCastToPtr */
    case 124: /* OpBitcast */
    case 169: /* OpSelect */
    case 245: /* OpPhi */
    case OP_COPY_LOGICAL: return true;
    default: return false;
    }
}

/* Whether `op` is one of the rewritten instructions. */
static bool rewritten(uint32_t op, const uint32_t *w, size_t count)
{
    switch (op) {
    case OP_PTR_EQUAL:
    case OP_PTR_NOT_EQUAL:
    case OP_PTR_DIFF:
    case OP_COPY_LOGICAL:
    case OP_DECORATE_STRING:
    case OP_MEMBER_DECORATE_STRING: return true;
    case OP_COPY_MEMORY: return count >= 3;
    case OP_COPY_MEMORY_SIZED: {
        size_t first = op == OP_COPY_MEMORY ? 3 : 4, k = memory_operands_words(w, first, count);
        return k && first + k < count; /* a second set follows */
    }
    default: return false;
    }
}

int lanes_spirv_lower(const uint32_t *in, size_t words, uint32_t **out, size_t *out_words)
{
    *out = NULL;
    *out_words = 0;
    if (words < 5 || in[0] != 0x07230203u)
        return 0; /* byte-swapped or not SPIR-V: the translator says what it makes of it */
    struct lowering l = {
        .in = in, .words = words, .n_ids = in[3], .bound = in[3], .intptr_bits = 64};
    bool any = false;
    for (size_t i = 5; i < words;) {
        uint32_t count = in[i] >> 16;
        if (!count || i + count > words)
            return 0;
        any |= rewritten(in[i] & 0xffff, in + i, count);
        i += count;
    }
    if (!any)
        return 0;
    l.ids = calloc(l.n_ids ? l.n_ids : 1, sizeof *l.ids);
    if (!l.ids)
        return -1;
    /* What each id is; the addressing model; an existing pointer-sized integer type. */
    size_t first_function = 0;
    for (size_t i = 5; i < words; i += in[i] >> 16) {
        uint32_t op = in[i] & 0xffff, count = in[i] >> 16;
        if (op == OP_MEMORY_MODEL && count >= 2 && in[i + 1] == ADDRESSING_PHYSICAL32)
            l.intptr_bits = 32;
        if (op == OP_CAPABILITY && count >= 2 && in[i + 1] == CAPABILITY_INT64)
            l.has_int64 = true;
        if (op == OP_FUNCTION && !first_function)
            first_function = i;
        /* Only whole declarations: the rewrites read their words without looking again. */
        bool type_decl = is_type(op);
        uint32_t least = op == OP_TYPE_STRUCT             ? 2
                         : op == OP_TYPE_FLOAT            ? 3
                         : type_decl || op == OP_CONSTANT ? 4
                                                          : 3;
        uint32_t result = count < least        ? 0
                          : type_decl          ? in[i + 1]
                          : is_typed_value(op) ? in[i + 2]
                                               : 0;
        if (result && result < l.n_ids)
            l.ids[result] = (struct id_info){op, type_decl ? 0 : in[i + 1], i};
    }
    for (size_t i = 5; i < words; i += in[i] >> 16)
        if ((in[i] & 0xffff) == OP_TYPE_INT && (in[i] >> 16) == 4 && in[i + 2] == l.intptr_bits &&
            in[i + 3] == 0)
            l.intptr = in[i + 1];
    if (!first_function)
        first_function = words;

    uint32_t header[5] = {in[0], in[1], in[2], 0, in[4]};
    emit(&l, header, 5);
    size_t functions_start = 0;
    for (size_t i = 5; i < words;) {
        uint32_t op = in[i] & 0xffff, count = in[i] >> 16;
        const uint32_t *w = in + i;
        if (i == first_function)
            functions_start = l.n_out;
        if (!rewritten(op, w, count)) {
            emit(&l, w, count);
        } else if (op == OP_DECORATE_STRING || op == OP_MEMBER_DECORATE_STRING) {
            /* dropped */
        } else if (op == OP_COPY_MEMORY && lower_copy_memory(&l, w, count)) {
            /* a load and a store */
        } else if (op == OP_COPY_MEMORY || op == OP_COPY_MEMORY_SIZED) {
            size_t first = op == OP_COPY_MEMORY ? 3 : 4, k = memory_operands_words(w, first, count);
            if (!k || first + k >= count) { /* one set or none: as it was */
                emit(&l, w, count);
                i += count;
                continue;
            }
            uint32_t *copy = malloc((first + k) * sizeof *copy);
            if (!copy) {
                l.failed = true;
                break;
            }
            memcpy(copy, w, (first + k) * sizeof *copy);
            copy[0] = (uint32_t)(first + k) << 16 | op;
            copy[first] |= w[first + k] & (MEMORY_VOLATILE | MEMORY_NONTEMPORAL); /* the source's */
            emit(&l, copy, first + k);
            free(copy);
        } else if (op == OP_COPY_LOGICAL) {
            uint32_t from = count >= 4 && w[3] < l.n_ids ? l.ids[w[3]].type : 0;
            size_t mark = l.n_out;
            if (count < 4 || !copy_logical(&l, w[3], from, w[1], w[2], 0)) {
                l.n_out = mark; /* not known here: as it was */
                emit(&l, w, count);
            }
        } else if (count < 5 || !lower_pointer_op(&l, w)) {
            emit(&l, w, count);
        }
        i += count;
    }
    if (!functions_start)
        functions_start = l.n_out;
    /* Int64 for a 64-bit integer type made here; the declarations before the first function. */
    bool need_int64 = l.n_decls && l.intptr_bits == 64 && !l.has_int64;
    size_t extra = l.n_decls + (need_int64 ? 2 : 0);
    uint32_t *result = l.failed ? NULL : malloc((l.n_out + extra) * sizeof *result);
    if (!result) {
        free(l.ids), free(l.out), free(l.decls);
        return -1;
    }
    size_t n = 0;
    memcpy(result, l.out, 5 * sizeof *result);
    n = 5;
    if (need_int64) {
        result[n++] = 2u << 16 | OP_CAPABILITY;
        result[n++] = CAPABILITY_INT64;
    }
    memcpy(result + n, l.out + 5, (functions_start - 5) * sizeof *result);
    n += functions_start - 5;
    if (l.n_decls)
        memcpy(result + n, l.decls, l.n_decls * sizeof *result);
    n += l.n_decls;
    memcpy(result + n, l.out + functions_start, (l.n_out - functions_start) * sizeof *result);
    n += l.n_out - functions_start;
    result[3] = l.bound;
    free(l.ids), free(l.out), free(l.decls);
    *out = result;
    *out_words = n;
    return 0;
}
