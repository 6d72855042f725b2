// SPDX-License-Identifier: MIT
// The sub-group functions of cl_khr_subgroups (OpenCL C 6.15.14).
//
// Two forms of each. The overloads a kernel calls are the sub-group of
// one work-item (width 1): a reduction or an inclusive scan is the value
// itself, an exclusive scan the operation's identity. A vectorized kernel
// calls none of them: the vectorizer (compiler/vectorize/vz_subgroup.c)
// maps each call to the vector form of its width W, named
//
//   __lanes_sg<W>_<name>_<mangled parameter types>
//
// e.g. __lanes_sg16_sub_group_reduce_add_i for sub_group_reduce_add(int).
// A vector form receives each varying operand as a pointer to its <W x T>
// (a pointer keeps the signature the same at every ISA level; it is gone
// once inlined), each uniform operand by value, and the active lanes as
// the bit mask `mask` (bit i: lane i). A uniform result is returned; a
// varying one is stored through `out`, its first parameter. Lanes outside
// `mask` contribute the operation's identity and get unspecified results,
// so these are also the non-uniform forms for lanes that are active.
//
// Reductions are trees of halving shuffles; scans take log2(W) steps of
// shifting by 1, 2, 4, ... lanes (Hillis and Steele). Float results may
// thus differ from a sequential sum in the last bits, which the
// specification allows (the order of a floating-point reduction is
// implementation-defined).

#include "lanes_builtins.h"

// --- Width 1 -------------------------------------------------------------

OVL int sub_group_all(int predicate)
{
    return predicate != 0;
}

OVL int sub_group_any(int predicate)
{
    return predicate != 0;
}

#define SCALAR_FORMS(T, MIN, MAX)                                                                  \
    OVL T sub_group_broadcast(T x, uint id)                                                        \
    {                                                                                              \
        (void)id;                                                                                  \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_reduce_add(T x)                                                                \
    {                                                                                              \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_reduce_min(T x)                                                                \
    {                                                                                              \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_reduce_max(T x)                                                                \
    {                                                                                              \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_scan_inclusive_add(T x)                                                        \
    {                                                                                              \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_scan_inclusive_min(T x)                                                        \
    {                                                                                              \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_scan_inclusive_max(T x)                                                        \
    {                                                                                              \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_scan_exclusive_add(T x)                                                        \
    {                                                                                              \
        (void)x;                                                                                   \
        return (T)0;                                                                               \
    }                                                                                              \
    OVL T sub_group_scan_exclusive_min(T x)                                                        \
    {                                                                                              \
        (void)x;                                                                                   \
        return MAX;                                                                                \
    }                                                                                              \
    OVL T sub_group_scan_exclusive_max(T x)                                                        \
    {                                                                                              \
        (void)x;                                                                                   \
        return MIN;                                                                                \
    }

// M(T, mangled letter, signed integer type of T's size, lowest, highest)
#define FOR_SG_TYPES(M)                                                                            \
    M(int, i, int, INT_MIN, INT_MAX)                                                               \
    M(uint, j, int, 0, UINT_MAX)                                                                   \
    M(long, l, long, LONG_MIN, LONG_MAX)                                                           \
    M(ulong, m, long, 0, ULONG_MAX)                                                                \
    M(float, f, int, -INFINITY, INFINITY)                                                          \
    M(double, d, long, -(double)INFINITY, (double)INFINITY)

#define SCALAR_FORMS_OF(T, L, S, MIN, MAX) SCALAR_FORMS(T, MIN, MAX)
FOR_SG_TYPES(SCALAR_FORMS_OF)

// --- Widths 8, 16 and 32 -------------------------------------------------

// <W x T> for every element type (OpenCL C has no 32-element vectors).
#define VECTOR_TYPES(T)                                                                            \
    typedef T lanes_##T##_w2 __attribute__((ext_vector_type(2)));                                  \
    typedef T lanes_##T##_w4 __attribute__((ext_vector_type(4)));                                  \
    typedef T lanes_##T##_w8 __attribute__((ext_vector_type(8)));                                  \
    typedef T lanes_##T##_w16 __attribute__((ext_vector_type(16)));                                \
    typedef T lanes_##T##_w32 __attribute__((ext_vector_type(32)));
VECTOR_TYPES(int)
VECTOR_TYPES(uint)
VECTOR_TYPES(long)
VECTOR_TYPES(ulong)
VECTOR_TYPES(float)
VECTOR_TYPES(double)
#define V(T, W) lanes_##T##_w##W

// b, b + 1, ..., b + n - 1: shuffle indices.
#define SEQ2(b) (b), (b) + 1
#define SEQ4(b) SEQ2(b), SEQ2((b) + 2)
#define SEQ8(b) SEQ4(b), SEQ4((b) + 4)
#define SEQ16(b) SEQ8(b), SEQ8((b) + 8)
#define SEQ32(b) SEQ16(b), SEQ16((b) + 16)

// Lane i of the result is -1 (of S, T's signed twin) when bit i of mask is set.
#define ACTIVE(S, W, mask) ((((V(S, W))(mask) >> (V(S, W))(SEQ##W(0))) & 1) != 0)

// The operations, on scalars and vectors alike.
#define OP_add(a, b) ((a) + (b))
#define OP_min(a, b) __builtin_elementwise_min(a, b)
#define OP_max(a, b) __builtin_elementwise_max(a, b)

// The lanes b .. b + n - 1 of v as a V(T, n) (a shuffle's own type is not an OpenCL vector).
#define LANES(T, v, n, b) __builtin_convertvector(__builtin_shufflevector(v, v, SEQ##n(b)), V(T, n))

// The steps of a reduction tree: v of 2h lanes halved into h by op.
#define HALVE(op, T, v, h) OP_##op(LANES(T, v, h, 0), LANES(T, v, h, h))
#define TREE2(op, T, v) return OP_##op((v).s0, (v).s1);
#define TREE4(op, T, v)                                                                            \
    V(T, 2) r2 = HALVE(op, T, v, 2);                                                               \
    TREE2(op, T, r2)
#define TREE8(op, T, v)                                                                            \
    V(T, 4) r4 = HALVE(op, T, v, 4);                                                               \
    TREE4(op, T, r4)
#define TREE16(op, T, v)                                                                           \
    V(T, 8) r8 = HALVE(op, T, v, 8);                                                               \
    TREE8(op, T, r8)
#define TREE32(op, T, v)                                                                           \
    V(T, 16) r16 = HALVE(op, T, v, 16);                                                            \
    TREE16(op, T, r16)

// v (a V(T, W)) shifted up by k lanes, the lowest k lanes taken from `fill` (a splat).
#define SHIFT(T, W, v, k, fill)                                                                    \
    __builtin_convertvector(__builtin_shufflevector(fill, v, SEQ##W((W) - (k))), V(T, W))

// Inclusive scan of v in place: after the step of k, lane i holds lanes i - 2k + 1 .. i.
#define STEP(op, T, W, v, k, fill) v = OP_##op(v, SHIFT(T, W, v, k, fill))
#define SCAN8(op, T, W, v, fill)                                                                   \
    STEP(op, T, W, v, 1, fill);                                                                    \
    STEP(op, T, W, v, 2, fill);                                                                    \
    STEP(op, T, W, v, 4, fill)
#define SCAN16(op, T, W, v, fill)                                                                  \
    SCAN8(op, T, W, v, fill);                                                                      \
    STEP(op, T, W, v, 8, fill)
#define SCAN32(op, T, W, v, fill)                                                                  \
    SCAN16(op, T, W, v, fill);                                                                     \
    STEP(op, T, W, v, 16, fill)

#define SG(W, name, L) __lanes_sg##W##_sub_group_##name##_##L

// reduce, inclusive and exclusive scan of one operation.
#define ARITHMETIC(W, T, L, S, op, identity)                                                       \
    T SG(W, reduce_##op, L)(__private const V(T, W) * x, uint mask)                                \
    {                                                                                              \
        V(T, W) v = ACTIVE(S, W, mask) ? *x : (V(T, W))(identity);                                 \
        TREE##W(op, T, v)                                                                          \
    }                                                                                              \
    void SG(W, scan_inclusive_##op, L)(__private V(T, W) * out, __private const V(T, W) * x,       \
                                       uint mask)                                                  \
    {                                                                                              \
        V(T, W) fill = (V(T, W))(identity);                                                        \
        V(T, W) v = ACTIVE(S, W, mask) ? *x : fill;                                                \
        SCAN##W(op, T, W, v, fill);                                                                \
        *out = v;                                                                                  \
    }                                                                                              \
    void SG(W, scan_exclusive_##op, L)(__private V(T, W) * out, __private const V(T, W) * x,       \
                                       uint mask)                                                  \
    {                                                                                              \
        V(T, W) fill = (V(T, W))(identity);                                                        \
        V(T, W) v = ACTIVE(S, W, mask) ? *x : fill;                                                \
        v = SHIFT(T, W, v, 1, fill);                                                               \
        SCAN##W(op, T, W, v, fill);                                                                \
        *out = v;                                                                                  \
    }

#define VECTOR_FORMS(W, T, L, S, MIN, MAX)                                                         \
    T SG(W, broadcast, L##j)(__private const V(T, W) * x, uint id, uint mask)                      \
    {                                                                                              \
        (void)mask;                                                                                \
        return (*x)[id & ((W)-1)];                                                                 \
    }                                                                                              \
    ARITHMETIC(W, T, L, S, add, (T)0)                                                              \
    ARITHMETIC(W, T, L, S, min, MAX)                                                               \
    ARITHMETIC(W, T, L, S, max, MIN)

#define VOTES(W)                                                                                   \
    int SG(W, all, i)(__private const V(int, W) * x, uint mask)                                    \
    {                                                                                              \
        return __builtin_reduce_or(ACTIVE(int, W, mask) & (*x == 0)) == 0;                         \
    }                                                                                              \
    int SG(W, any, i)(__private const V(int, W) * x, uint mask)                                    \
    {                                                                                              \
        return __builtin_reduce_or(ACTIVE(int, W, mask) & (*x != 0)) != 0;                         \
    }

#define FORMS_8(T, L, S, MIN, MAX) VECTOR_FORMS(8, T, L, S, MIN, MAX)
#define FORMS_16(T, L, S, MIN, MAX) VECTOR_FORMS(16, T, L, S, MIN, MAX)
#define FORMS_32(T, L, S, MIN, MAX) VECTOR_FORMS(32, T, L, S, MIN, MAX)
FOR_SG_TYPES(FORMS_8)
FOR_SG_TYPES(FORMS_16)
FOR_SG_TYPES(FORMS_32)
VOTES(8)
VOTES(16)
VOTES(32)
