// SPDX-License-Identifier: MIT
// The sub-group functions: those of cl_khr_subgroups (OpenCL C 6.15.14)
// and of the Khronos sub-group extensions (extended types, non-uniform
// vote, ballot, non-uniform arithmetic, shuffle, relative shuffle,
// clustered reduce and rotate).
//
// Two forms of each function that exchanges values between work-items.
// The overloads a kernel calls are the sub-group of one work-item (width
// 1): a reduction or an inclusive scan is the value itself, an exclusive
// scan the operation's identity, a shuffle or broadcast the value. A
// vectorized kernel calls none of them: the vectorizer
// (compiler/vectorize/vz_subgroup.c) maps each call to the vector form of
// its width W, named
//
//   __lanes_sg<W>_<name>_<mangled parameter types>
//
// e.g. __lanes_sg16_sub_group_reduce_add_i for sub_group_reduce_add(int).
// A vector form receives each varying operand as a pointer to its <W x T>
// (a pointer keeps the signature the same at every ISA level; it is gone
// once inlined), each uniform operand by value, a predicate of the votes
// and ballot as the bit mask of its non-zero lanes, and the active lanes as
// the bit mask `mask` (bit i: lane i). A uniform result is returned; a
// varying one is stored through `out`, its first parameter. Lanes outside
// `mask` contribute the operation's identity and get unspecified results,
// so the same forms serve the non-uniform functions (the vectorizer maps
// sub_group_non_uniform_reduce_add to the form of sub_group_reduce_add).
// OpenCL vectors (the broadcasts of char4, float16, ...) are broadcast
// one component at a time, by calls of the scalar functions
// (subgroup_vectors.cl).
//
// Reductions are trees of halving shuffles; scans take log2(W) steps of
// shifting by 1, 2, 4, ... lanes (Hillis and Steele); clustered reductions
// take log2(cluster size) butterfly steps. Float results may thus differ
// from a sequential sum in the last bits, which the specifications allow
// (the order of a floating-point reduction is implementation-defined).
// Shuffles with per-lane indices are the CPU's permutes (vpermd, vpermi2d).
//
// The ballot functions that only read a bit field (inverse_ballot,
// ballot_bit_extract, _bit_count, _inclusive_scan, _exclusive_scan,
// _find_lsb, _find_msb) and get_sub_group_<cmp>_mask are functions of the
// work-item alone: written once, with get_sub_group_local_id and
// get_max_sub_group_size, they are vectorized like any code.

#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// M(T, mangled letter, signed integer type of T's size, lowest, highest)
#define FOR_SG_INT_TYPES(M)                                                                        \
    M(char, c, char, CHAR_MIN, CHAR_MAX)                                                           \
    M(uchar, h, char, 0, UCHAR_MAX)                                                                \
    M(short, s, short, SHRT_MIN, SHRT_MAX)                                                         \
    M(ushort, t, short, 0, USHRT_MAX)                                                              \
    M(int, i, int, INT_MIN, INT_MAX)                                                               \
    M(uint, j, int, 0, UINT_MAX)                                                                   \
    M(long, l, long, LONG_MIN, LONG_MAX)                                                           \
    M(ulong, m, long, 0, ULONG_MAX)
#define FOR_SG_FLOAT_TYPES(M)                                                                      \
    M(float, f, int, -INFINITY, INFINITY)                                                          \
    M(double, d, long, -(double)INFINITY, (double)INFINITY)                                        \
    M(half, Dh, short, -(half)INFINITY, (half)INFINITY)
#define FOR_SG_TYPES(M) FOR_SG_INT_TYPES(M) FOR_SG_FLOAT_TYPES(M)

// The operations, on scalars and vectors alike, and how an operand enters
// them: the logical ones see 1 for a non-zero value, 0 for zero.
#define OP_add(a, b) ((a) + (b))
#define OP_mul(a, b) ((a) * (b))
#define OP_min(a, b) lanes_min(a, b)
#define OP_max(a, b) lanes_max(a, b)
#define OP_and(a, b) ((a) & (b))
#define OP_or(a, b) ((a) | (b))
#define OP_xor(a, b) ((a) ^ (b))
#define OP_logical_and OP_and
#define OP_logical_or OP_or
#define OP_logical_xor OP_xor
#define IN_add(x) (x)
#define IN_mul(x) (x)
#define IN_min(x) (x)
#define IN_max(x) (x)
#define IN_and(x) (x)
#define IN_or(x) (x)
#define IN_xor(x) (x)
#define IN_logical_and(x) (((x) != 0) & 1)
#define IN_logical_or IN_logical_and
#define IN_logical_xor IN_logical_and

// The identities: ID_<op>(T, lowest, highest).
#define ID_add(T, MIN, MAX) ((T)0)
#define ID_mul(T, MIN, MAX) ((T)1)
#define ID_min(T, MIN, MAX) ((T)(MAX))
#define ID_max(T, MIN, MAX) ((T)(MIN))
#define ID_and(T, MIN, MAX) ((T) ~(T)0)
#define ID_or(T, MIN, MAX) ((T)0)
#define ID_xor(T, MIN, MAX) ((T)0)
#define ID_logical_and(T, MIN, MAX) ((T)1)
#define ID_logical_or(T, MIN, MAX) ((T)0)
#define ID_logical_xor(T, MIN, MAX) ((T)0)

// M(op, ...) for the operations of each family of types.
#define CORE_OPS(M, ...) M(add, __VA_ARGS__) M(min, __VA_ARGS__) M(max, __VA_ARGS__)
#define ARITH_OPS(M, ...) CORE_OPS(M, __VA_ARGS__) M(mul, __VA_ARGS__)
#define BIT_OPS(M, ...) M(and, __VA_ARGS__) M(or, __VA_ARGS__) M(xor, __VA_ARGS__)
#define LOGICAL_OPS(M, ...)                                                                        \
    M(logical_and, __VA_ARGS__) M(logical_or, __VA_ARGS__) M(logical_xor, __VA_ARGS__)

// --- Width 1 -------------------------------------------------------------

OVL int sub_group_all(int predicate)
{
    return predicate != 0;
}

OVL int sub_group_any(int predicate)
{
    return predicate != 0;
}

OVL int sub_group_non_uniform_all(int predicate)
{
    return predicate != 0;
}

OVL int sub_group_non_uniform_any(int predicate)
{
    return predicate != 0;
}

OVL int sub_group_elect(void)
{
    return 1;
}

OVL uint4 sub_group_ballot(int predicate)
{
    return (uint4)(predicate != 0, 0, 0, 0);
}

// reduce, inclusive and exclusive scan of `op` under the prefix `pre`
// (sub_group_ or sub_group_non_uniform_), and its clustered reduction.
#define SCALAR_OP(op, pre, T, MIN, MAX)                                                            \
    OVL T pre##reduce_##op(T x)                                                                    \
    {                                                                                              \
        return IN_##op(x);                                                                         \
    }                                                                                              \
    OVL T pre##scan_inclusive_##op(T x)                                                            \
    {                                                                                              \
        return IN_##op(x);                                                                         \
    }                                                                                              \
    OVL T pre##scan_exclusive_##op(T x)                                                            \
    {                                                                                              \
        (void)x;                                                                                   \
        return ID_##op(T, MIN, MAX);                                                               \
    }
#define SCALAR_CLUSTERED(op, T, MIN, MAX)                                                          \
    OVL T sub_group_clustered_reduce_##op(T x, uint clustersize)                                   \
    {                                                                                              \
        (void)clustersize;                                                                         \
        return IN_##op(x);                                                                         \
    }
#define SCALAR_NON_UNIFORM(op, T, MIN, MAX)                                                        \
    SCALAR_OP(op, sub_group_non_uniform_, T, MIN, MAX) SCALAR_CLUSTERED(op, T, MIN, MAX)
#define SCALAR_CORE(op, T, MIN, MAX) SCALAR_OP(op, sub_group_, T, MIN, MAX)

// A value passed through: the broadcasts, shuffles and rotations.
#define SCALAR_MOVES(T)                                                                            \
    OVL T sub_group_broadcast(T x, uint id)                                                        \
    {                                                                                              \
        (void)id;                                                                                  \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_non_uniform_broadcast(T x, uint id)                                            \
    {                                                                                              \
        (void)id;                                                                                  \
        return x;                                                                                  \
    }
#define SCALAR_ONLY_MOVES(T)                                                                       \
    OVL T sub_group_broadcast_first(T x)                                                           \
    {                                                                                              \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_shuffle(T x, uint index)                                                       \
    {                                                                                              \
        (void)index;                                                                               \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_shuffle_xor(T x, uint mask)                                                    \
    {                                                                                              \
        (void)mask;                                                                                \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_shuffle_up(T x, uint delta)                                                    \
    {                                                                                              \
        (void)delta;                                                                               \
        return x;                                                                                  \
    }                                                                                              \
    OVL T sub_group_shuffle_down(T x, uint delta)                                                  \
    {                                                                                              \
        (void)delta;                                                                               \
        return x;                                                                                  \
    }                                                                                              \
    /* Lane index of a[0 .. size) ++ b[0 .. size); of a sub-group of one, a or b. */               \
    OVL T sub_group_lanes_shuffle2(T a, T b, uint index, uint size)                                \
    {                                                                                              \
        (void)size;                                                                                \
        return index & 1 ? b : a;                                                                  \
    }                                                                                              \
    OVL T sub_group_clustered_rotate(T x, int delta, uint clustersize)                             \
    {                                                                                              \
        (void)delta;                                                                               \
        (void)clustersize;                                                                         \
        return x;                                                                                  \
    }                                                                                              \
    /* Ordered equality: a NaN is not equal even to itself. */                                     \
    OVL int sub_group_non_uniform_all_equal(T x)                                                   \
    {                                                                                              \
        return x == x;                                                                             \
    }

#define SCALAR_FORMS(T, L, S, MIN, MAX)                                                            \
    SCALAR_MOVES(T)                                                                                \
    SCALAR_ONLY_MOVES(T)                                                                           \
    CORE_OPS(SCALAR_CORE, T, MIN, MAX)                                                             \
    ARITH_OPS(SCALAR_NON_UNIFORM, T, MIN, MAX)
#define SCALAR_INT_FORMS(T, L, S, MIN, MAX) BIT_OPS(SCALAR_NON_UNIFORM, T, MIN, MAX)
FOR_SG_TYPES(SCALAR_FORMS)
FOR_SG_INT_TYPES(SCALAR_INT_FORMS)
LOGICAL_OPS(SCALAR_NON_UNIFORM, int, 0, 0)

// --- Ballot bit fields: every width ---------------------------------------

// The bits of `value` of the lanes below `n` (n <= 128).
static uint4 lanes_below(uint4 value, uint n)
{
    uint4 base = (uint4)(0, 32, 64, 96);
    uint4 keep = n >= base + 32 ? (uint4)(~0u)
                 : n > base     ? ((uint4)(1) << (n - base)) - 1
                                : (uint4)(0);
    return value & keep;
}

static uint count_bits(uint4 v)
{
    return popcount(v.x) + popcount(v.y) + popcount(v.z) + popcount(v.w);
}

static int bit_of(uint4 value, uint index)
{
    index &= 127;
    uint word = index < 64 ? (index < 32 ? value.x : value.y) : (index < 96 ? value.z : value.w);
    return (word >> (index & 31)) & 1;
}

OVL int sub_group_inverse_ballot(uint4 value)
{
    return bit_of(value, get_sub_group_local_id());
}

OVL int sub_group_ballot_bit_extract(uint4 value, uint index)
{
    return bit_of(value, index);
}

OVL uint sub_group_ballot_bit_count(uint4 value)
{
    return count_bits(lanes_below(value, get_max_sub_group_size()));
}

OVL uint sub_group_ballot_inclusive_scan(uint4 value)
{
    return count_bits(lanes_below(value, get_sub_group_local_id() + 1));
}

OVL uint sub_group_ballot_exclusive_scan(uint4 value)
{
    return count_bits(lanes_below(value, get_sub_group_local_id()));
}

// Undefined when no bit is set: then 0 and 127, no trap.
OVL uint sub_group_ballot_find_lsb(uint4 value)
{
    uint4 v = lanes_below(value, get_max_sub_group_size());
    return v.x ? ctz(v.x) : v.y ? 32 + ctz(v.y) : v.z ? 64 + ctz(v.z) : 96 + (ctz(v.w) & 31);
}

OVL uint sub_group_ballot_find_msb(uint4 value)
{
    uint4 v = lanes_below(value, get_max_sub_group_size());
    return v.w ? 127 - clz(v.w) : v.z ? 95 - clz(v.z) : v.y ? 63 - clz(v.y) : 31 - (clz(v.x) & 31);
}

// The lanes l with l <cmp> this work-item's id (and l below the maximum size).
#define LANE_MASK(name, lo, hi)                                                                    \
    OVL uint4 get_sub_group_##name##_mask(void)                                                    \
    {                                                                                              \
        uint id = get_sub_group_local_id();                                                        \
        return lanes_below((uint4)(~0u), hi) & ~lanes_below((uint4)(~0u), lo);                     \
    }
LANE_MASK(eq, id, id + 1)
LANE_MASK(ge, id, get_max_sub_group_size())
LANE_MASK(gt, id + 1, get_max_sub_group_size())
LANE_MASK(le, 0, id + 1)
LANE_MASK(lt, 0, id)

// --- Widths 8, 16 and 32 -------------------------------------------------

// <W x T> for every element type (OpenCL C has no 32-element vectors).
#define VECTOR_TYPES(T, ...)                                                                       \
    typedef T lanes_##T##_w2 __attribute__((ext_vector_type(2)));                                  \
    typedef T lanes_##T##_w4 __attribute__((ext_vector_type(4)));                                  \
    typedef T lanes_##T##_w8 __attribute__((ext_vector_type(8)));                                  \
    typedef T lanes_##T##_w16 __attribute__((ext_vector_type(16)));                                \
    typedef T lanes_##T##_w32 __attribute__((ext_vector_type(32)));
FOR_SG_TYPES(VECTOR_TYPES)
#define V(T, W) lanes_##T##_w##W

// OP_min and OP_max of scalars and V(T, n): the elementwise built-ins, but
// a comparison and a select for half (fmin's and fmax's NaN rule): without
// AVX-512 FP16, LLVM 19 lowers llvm.minnum/maxnum of half, scalar or
// vector, to a call of libm's fminf/fmaxf per element, and InstCombine makes
// one of a float min of two halves rounded back.
#define MINMAX_OF(VT, FT)                                                                          \
    OVL static VT lanes_min(VT a, VT b)                                                            \
    {                                                                                              \
        return MINMAX_##FT(min, VT, a, b);                                                         \
    }                                                                                              \
    OVL static VT lanes_max(VT a, VT b)                                                            \
    {                                                                                              \
        return MINMAX_##FT(max, VT, a, b);                                                         \
    }
#define MINMAX_SAME(op, VT, a, b) __builtin_elementwise_##op(a, b)
#define MINMAX_HALF(op, VT, a, b) HALF_##op(a, b)
#define HALF_min(a, b) ((b) < (a) || (a) != (a) ? (b) : (a))
#define HALF_max(a, b) ((b) > (a) || (a) != (a) ? (b) : (a))
#define MINMAX_TYPE(T, ...)                                                                        \
    MINMAX_OF(T, SAME)                                                                             \
    MINMAX_OF(V(T, 2), SAME)                                                                       \
    MINMAX_OF(V(T, 4), SAME) MINMAX_OF(V(T, 8), SAME) MINMAX_OF(V(T, 16), SAME) MINMAX_OF(V(T, 32), SAME)
FOR_SG_INT_TYPES(MINMAX_TYPE)
MINMAX_TYPE(float)
MINMAX_TYPE(double)
MINMAX_OF(half, HALF)
MINMAX_OF(lanes_half_w2, HALF)
MINMAX_OF(lanes_half_w4, HALF)
MINMAX_OF(lanes_half_w8, HALF)
MINMAX_OF(lanes_half_w16, HALF)
MINMAX_OF(lanes_half_w32, HALF)

// b, b + 1, ..., b + n - 1: shuffle indices.
#define SEQ2(b) (b), (b) + 1
#define SEQ4(b) SEQ2(b), SEQ2((b) + 2)
#define SEQ8(b) SEQ4(b), SEQ4((b) + 4)
#define SEQ16(b) SEQ8(b), SEQ8((b) + 8)
#define SEQ32(b) SEQ16(b), SEQ16((b) + 16)

// The lane numbers 0 .. W - 1.
#define LANE(W) ((V(uint, W))(SEQ##W(0)))

// Lane i is -1 (of S, T's signed integer twin) when bit i of mask is set.
#define ACTIVE_INT(W, mask) ((((V(uint, W))(mask) >> LANE(W)) & 1) != 0)
#define ACTIVE(S, W, mask) __builtin_convertvector(ACTIVE_INT(W, mask), V(S, W))

// The first active lane (the last lane when none is).
#define FIRST(W, mask) (__builtin_ctz((mask) | 0x80000000u) & ((W)-1))

// --- Permutes: lane i of the result is lane k[i] of v (k[i] < W) ----------

#define P_AVX2(v, k)                                                                               \
    __builtin_convertvector(__builtin_ia32_permvarsi256(__builtin_convertvector(v, g8),            \
                                                        __builtin_convertvector(k, g8)),           \
                            V(uint, 8))
#if LANES_ISA >= 3
typedef int g8 __attribute__((vector_size(32)));
typedef int g16 __attribute__((vector_size(64)));
static V(uint, 8) permute8(V(uint, 8) v, V(uint, 8) k)
{
    return P_AVX2(v, k);
}
#endif

#if LANES_ISA >= 4
static V(uint, 16) permute16(V(uint, 16) v, V(uint, 16) k)
{
    return __builtin_convertvector(__builtin_ia32_permvarsi512(__builtin_convertvector(v, g16),
                                                               __builtin_convertvector(k, g16)),
                                   V(uint, 16));
}
// Two registers in: vpermi2d takes the bit 4 of each index as the register.
static V(uint, 16) permute2x16(V(uint, 32) v, V(uint, 16) k)
{
    return __builtin_convertvector(
        __builtin_ia32_vpermi2vard512(__builtin_convertvector(v.lo, g16),
                                      __builtin_convertvector(k, g16),
                                      __builtin_convertvector(v.hi, g16)),
        V(uint, 16));
}
static V(uint, 32) permute32(V(uint, 32) v, V(uint, 32) k)
{
    V(uint, 32) r;
    r.lo = permute2x16(v, k.lo);
    r.hi = permute2x16(v, k.hi);
    return r;
}
#elif LANES_ISA >= 3
// vpermd reads the low three bits of an index; the others pick the register.
static V(uint, 8) pick2(V(uint, 8) a, V(uint, 8) b, V(uint, 8) k)
{
    return (k & 8) != 0 ? permute8(b, k) : permute8(a, k);
}
static V(uint, 8) pick4(V(uint, 32) v, V(uint, 8) k)
{
    return (k & 16) != 0 ? pick2(v.hi.lo, v.hi.hi, k) : pick2(v.lo.lo, v.lo.hi, k);
}
static V(uint, 16) permute16(V(uint, 16) v, V(uint, 16) k)
{
    V(uint, 16) r;
    r.lo = pick2(v.lo, v.hi, k.lo);
    r.hi = pick2(v.lo, v.hi, k.hi);
    return r;
}
static V(uint, 32) permute32(V(uint, 32) v, V(uint, 32) k)
{
    V(uint, 32) r;
    r.lo.lo = pick4(v, k.lo.lo);
    r.lo.hi = pick4(v, k.lo.hi);
    r.hi.lo = pick4(v, k.hi.lo);
    r.hi.hi = pick4(v, k.hi.hi);
    return r;
}
#endif

#if LANES_ISA < 3
#define LOOP_PERMUTE(W)                                                                            \
    static V(uint, W) permute##W(V(uint, W) v, V(uint, W) k)                                       \
    {                                                                                              \
        V(uint, W) r;                                                                              \
        for (int i = 0; i < W; i++)                                                                \
            r[i] = v[k[i]];                                                                        \
        return r;                                                                                  \
    }
LOOP_PERMUTE(8)
LOOP_PERMUTE(16)
LOOP_PERMUTE(32)
#endif

// Every element type through the 32-bit permute: narrower ones widened,
// 64-bit ones as two halves.
#define PERMUTE_NARROW(T, W)                                                                       \
    static V(T, W) permute_##T##_##W(V(T, W) v, V(uint, W) k)                                      \
    {                                                                                              \
        return __builtin_convertvector(permute##W(__builtin_convertvector(v, V(uint, W)), k),      \
                                       V(T, W));                                                   \
    }
#define PERMUTE_32(T, W)                                                                           \
    static V(T, W) permute_##T##_##W(V(T, W) v, V(uint, W) k)                                      \
    {                                                                                              \
        return __builtin_astype(permute##W(__builtin_astype(v, V(uint, W)), k), V(T, W));          \
    }
#define PERMUTE_64(T, W)                                                                           \
    static V(T, W) permute_##T##_##W(V(T, W) v, V(uint, W) k)                                      \
    {                                                                                              \
        V(ulong, W) u = __builtin_astype(v, V(ulong, W));                                          \
        V(ulong, W)                                                                                \
        lo = __builtin_convertvector(permute##W(__builtin_convertvector(u, V(uint, W)), k),        \
                                     V(ulong, W));                                                 \
        V(ulong, W)                                                                                \
        hi = __builtin_convertvector(permute##W(__builtin_convertvector(u >> 32, V(uint, W)), k),  \
                                     V(ulong, W));                                                 \
        return __builtin_astype(hi << 32 | lo, V(T, W));                                           \
    }
// Half by its bits, as a ushort.
#define PERMUTE_HALF(W)                                                                            \
    static V(half, W) permute_half_##W(V(half, W) v, V(uint, W) k)                                 \
    {                                                                                              \
        return __builtin_astype(permute_ushort_##W(__builtin_astype(v, V(ushort, W)), k),          \
                                V(half, W));                                                       \
    }
#define PERMUTES(W)                                                                                \
    PERMUTE_NARROW(char, W)                                                                        \
    PERMUTE_NARROW(uchar, W)                                                                       \
    PERMUTE_NARROW(short, W)                                                                       \
    PERMUTE_NARROW(ushort, W)                                                                      \
    PERMUTE_32(int, W)                                                                             \
    PERMUTE_32(uint, W)                                                                            \
    PERMUTE_32(float, W) PERMUTE_64(long, W) PERMUTE_64(ulong, W) PERMUTE_64(double, W)           \
    PERMUTE_HALF(W)
PERMUTES(8)
PERMUTES(16)
PERMUTES(32)

// --- Two-source permutes: lane i of the result is lane k[i] of a ++ b ------
// (k[i] < 2W): one vpermi2d for 32-bit lanes at W = 8 and 16 with AVX-512,
// else a permute of each source and a blend.

#if LANES_ISA >= 4
typedef int g4x8 __attribute__((vector_size(32)));
static V(uint, 8) permute2_8(V(uint, 8) a, V(uint, 8) b, V(uint, 8) k)
{
    return __builtin_convertvector(__builtin_ia32_vpermi2vard256(__builtin_convertvector(a, g4x8),
                                                                 __builtin_convertvector(k, g4x8),
                                                                 __builtin_convertvector(b, g4x8)),
                                   V(uint, 8));
}
static V(uint, 16) permute2_16(V(uint, 16) a, V(uint, 16) b, V(uint, 16) k)
{
    return __builtin_convertvector(__builtin_ia32_vpermi2vard512(__builtin_convertvector(a, g16),
                                                                 __builtin_convertvector(k, g16),
                                                                 __builtin_convertvector(b, g16)),
                                   V(uint, 16));
}
#endif
#define BLEND_PERMUTE2(W)                                                                          \
    static V(uint, W) permute2_##W(V(uint, W) a, V(uint, W) b, V(uint, W) k)                       \
    {                                                                                              \
        V(uint, W) low = k & ((W)-1);                                                              \
        return (k & (W)) != 0 ? permute##W(b, low) : permute##W(a, low);                           \
    }
#if LANES_ISA < 4
BLEND_PERMUTE2(8)
BLEND_PERMUTE2(16)
#endif
BLEND_PERMUTE2(32)

#define PERMUTE2_NARROW(T, W)                                                                      \
    static V(T, W) permute2_##T##_##W(V(T, W) a, V(T, W) b, V(uint, W) k)                          \
    {                                                                                              \
        return __builtin_convertvector(permute2_##W(__builtin_convertvector(a, V(uint, W)),        \
                                                    __builtin_convertvector(b, V(uint, W)), k),    \
                                       V(T, W));                                                   \
    }
#define PERMUTE2_32(T, W)                                                                          \
    static V(T, W) permute2_##T##_##W(V(T, W) a, V(T, W) b, V(uint, W) k)                          \
    {                                                                                              \
        return __builtin_astype(                                                                   \
            permute2_##W(__builtin_astype(a, V(uint, W)), __builtin_astype(b, V(uint, W)), k),     \
            V(T, W));                                                                              \
    }
#define PERMUTE2_64(T, W)                                                                          \
    static V(T, W) permute2_##T##_##W(V(T, W) a, V(T, W) b, V(uint, W) k)                          \
    {                                                                                              \
        V(ulong, W) ua = __builtin_astype(a, V(ulong, W)), ub = __builtin_astype(b, V(ulong, W));  \
        V(ulong, W)                                                                                \
        lo = __builtin_convertvector(permute2_##W(__builtin_convertvector(ua, V(uint, W)),         \
                                                  __builtin_convertvector(ub, V(uint, W)), k),     \
                                     V(ulong, W));                                                 \
        V(ulong, W)                                                                                \
        hi = __builtin_convertvector(permute2_##W(__builtin_convertvector(ua >> 32, V(uint, W)),   \
                                                  __builtin_convertvector(ub >> 32, V(uint, W)),   \
                                                  k),                                              \
                                     V(ulong, W));                                                 \
        return __builtin_astype(hi << 32 | lo, V(T, W));                                           \
    }
#define PERMUTE2_HALF(W)                                                                           \
    static V(half, W) permute2_half_##W(V(half, W) a, V(half, W) b, V(uint, W) k)                  \
    {                                                                                              \
        return __builtin_astype(permute2_ushort_##W(__builtin_astype(a, V(ushort, W)),             \
                                                    __builtin_astype(b, V(ushort, W)), k),         \
                                V(half, W));                                                       \
    }
#define PERMUTES2(W)                                                                               \
    PERMUTE2_NARROW(char, W)                                                                       \
    PERMUTE2_NARROW(uchar, W)                                                                      \
    PERMUTE2_NARROW(short, W)                                                                      \
    PERMUTE2_NARROW(ushort, W)                                                                     \
    PERMUTE2_32(int, W)                                                                            \
    PERMUTE2_32(uint, W)                                                                           \
    PERMUTE2_32(float, W) PERMUTE2_64(long, W) PERMUTE2_64(ulong, W) PERMUTE2_64(double, W)       \
    PERMUTE2_HALF(W)
PERMUTES2(8)
PERMUTES2(16)
PERMUTES2(32)

// --- Reductions and scans --------------------------------------------------

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

// The operands of `op`: the active lanes' values, the identity elsewhere.
#define OPERANDS(op, W, T, S, MIN, MAX, x)                                                         \
    V(T, W) fill = (V(T, W))(ID_##op(T, MIN, MAX));                                                \
    V(T, W) v = ACTIVE(S, W, mask) ? IN_##op(x) : fill

// reduce, inclusive and exclusive scan of one operation, and its clustered
// reduction: log2(clustersize) butterfly steps, each a permute.
#define ARITHMETIC(op, W, T, L, S, MIN, MAX)                                                       \
    T SG(W, reduce_##op, L)(__private const V(T, W) * x, uint mask)                                \
    {                                                                                              \
        OPERANDS(op, W, T, S, MIN, MAX, *x);                                                       \
        (void)fill;                                                                                \
        TREE##W(op, T, v)                                                                          \
    }                                                                                              \
    void SG(W, scan_inclusive_##op, L)(__private V(T, W) * out, __private const V(T, W) * x,       \
                                       uint mask)                                                  \
    {                                                                                              \
        OPERANDS(op, W, T, S, MIN, MAX, *x);                                                       \
        SCAN##W(op, T, W, v, fill);                                                                \
        *out = v;                                                                                  \
    }                                                                                              \
    void SG(W, scan_exclusive_##op, L)(__private V(T, W) * out, __private const V(T, W) * x,       \
                                       uint mask)                                                  \
    {                                                                                              \
        OPERANDS(op, W, T, S, MIN, MAX, *x);                                                       \
        v = SHIFT(T, W, v, 1, fill);                                                               \
        SCAN##W(op, T, W, v, fill);                                                                \
        *out = v;                                                                                  \
    }                                                                                              \
    void SG(W, clustered_reduce_##op, L##j)(__private V(T, W) * out, __private const V(T, W) * x,  \
                                            uint clustersize, uint mask)                           \
    {                                                                                              \
        OPERANDS(op, W, T, S, MIN, MAX, *x);                                                       \
        (void)fill;                                                                                \
        for (uint k = 1; k < (W); k *= 2)                                                          \
            if (k < clustersize)                                                                   \
                v = OP_##op(v, permute_##T##_##W(v, LANE(W) ^ k));                                 \
        *out = v;                                                                                  \
    }

// The moves: broadcasts (a uniform lane), shuffles (a lane per lane) and votes.
#define MOVES(W, T, L, S)                                                                          \
    T SG(W, broadcast, L##j)(__private const V(T, W) * x, uint id, uint mask)                      \
    {                                                                                              \
        (void)mask;                                                                                \
        return (*x)[id & ((W)-1)];                                                                 \
    }                                                                                              \
    T SG(W, broadcast_first, L)(__private const V(T, W) * x, uint mask)                            \
    {                                                                                              \
        return (*x)[FIRST(W, mask)];                                                               \
    }                                                                                              \
    int SG(W, non_uniform_all_equal, L)(__private const V(T, W) * x, uint mask)                    \
    {                                                                                              \
        V(S, W) differ = ~(*x == (V(T, W))((*x)[FIRST(W, mask)]));                                 \
        return __builtin_reduce_or(ACTIVE(S, W, mask) & differ) == 0;                              \
    }                                                                                              \
    void SG(W, shuffle, L##j)(__private V(T, W) * out, __private const V(T, W) * x,                \
                              __private const V(uint, W) * index, uint mask)                       \
    {                                                                                              \
        (void)mask;                                                                                \
        *out = permute_##T##_##W(*x, *index & ((W)-1));                                            \
    }                                                                                              \
    void SG(W, shuffle_xor, L##j)(__private V(T, W) * out, __private const V(T, W) * x,            \
                                  __private const V(uint, W) * bits, uint mask)                    \
    {                                                                                              \
        (void)mask;                                                                                \
        *out = permute_##T##_##W(*x, (LANE(W) ^ *bits) & ((W)-1));                                 \
    }                                                                                              \
    void SG(W, shuffle_up, L##j)(__private V(T, W) * out, __private const V(T, W) * x,             \
                                 __private const V(uint, W) * delta, uint mask)                    \
    {                                                                                              \
        (void)mask;                                                                                \
        *out = permute_##T##_##W(*x, (LANE(W) - *delta) & ((W)-1));                                \
    }                                                                                              \
    void SG(W, shuffle_down, L##j)(__private V(T, W) * out, __private const V(T, W) * x,           \
                                   __private const V(uint, W) * delta, uint mask)                  \
    {                                                                                              \
        (void)mask;                                                                                \
        *out = permute_##T##_##W(*x, (LANE(W) + *delta) & ((W)-1));                                \
    }                                                                                              \
    /* Lane index of a[0 .. size) ++ b[0 .. size): Intel's two-source shuffles */                  \
    /* (builtins/subgroup/intel.cl); size is the maximum sub-group size. */                        \
    void SG(W, lanes_shuffle2, L##L##jj)(__private V(T, W) * out, __private const V(T, W) * a,     \
                                         __private const V(T, W) * b,                              \
                                         __private const V(uint, W) * index, uint size, uint mask) \
    {                                                                                              \
        (void)mask;                                                                                \
        V(uint, W) k = *index < size ? *index : *index - size + (W);                               \
        *out = permute2_##T##_##W(*a, *b, k & (2 * (W)-1));                                        \
    }                                                                                              \
    void SG(W, clustered_rotate, L##ij)(__private V(T, W) * out, __private const V(T, W) * x,      \
                                        int delta, uint clustersize, uint mask)                    \
    {                                                                                              \
        (void)mask;                                                                                \
        uint c = clustersize - 1;                                                                  \
        V(uint, W) k = (LANE(W) & ~c) | ((LANE(W) + (uint)delta) & c);                             \
        *out = permute_##T##_##W(*x, k & ((W)-1));                                                 \
    }

#define VECTOR_FORMS(W, T, L, S, MIN, MAX)                                                         \
    MOVES(W, T, L, S)                                                                              \
    ARITH_OPS(ARITHMETIC, W, T, L, S, MIN, MAX)
#define VECTOR_INT_FORMS(W, T, L, S, MIN, MAX) BIT_OPS(ARITHMETIC, W, T, L, S, MIN, MAX)

// The votes receive the predicate's lanes as bits (bit i: lane i's is non-zero).
#define VOTES(W)                                                                                   \
    int SG(W, all, i)(uint bits, uint mask)                                                        \
    {                                                                                              \
        return (bits & mask) == mask;                                                              \
    }                                                                                              \
    int SG(W, any, i)(uint bits, uint mask)                                                        \
    {                                                                                              \
        return (bits & mask) != 0;                                                                 \
    }                                                                                              \
    void SG(W, elect, v)(__private V(int, W) * out, uint mask)                                     \
    {                                                                                              \
        *out = (LANE(W) == FIRST(W, mask)) & 1;                                                    \
    }                                                                                              \
    uint4 SG(W, ballot, i)(uint bits, uint mask)                                                   \
    {                                                                                              \
        return (uint4)(bits & mask, 0, 0, 0);                                                      \
    }                                                                                              \
    LOGICAL_OPS(ARITHMETIC, W, int, i, int, 0, 0)

#define FORMS_8(T, L, S, MIN, MAX) VECTOR_FORMS(8, T, L, S, MIN, MAX)
#define FORMS_16(T, L, S, MIN, MAX) VECTOR_FORMS(16, T, L, S, MIN, MAX)
#define FORMS_32(T, L, S, MIN, MAX) VECTOR_FORMS(32, T, L, S, MIN, MAX)
#define INT_FORMS_8(T, L, S, MIN, MAX) VECTOR_INT_FORMS(8, T, L, S, MIN, MAX)
#define INT_FORMS_16(T, L, S, MIN, MAX) VECTOR_INT_FORMS(16, T, L, S, MIN, MAX)
#define INT_FORMS_32(T, L, S, MIN, MAX) VECTOR_INT_FORMS(32, T, L, S, MIN, MAX)
FOR_SG_TYPES(FORMS_8)
FOR_SG_TYPES(FORMS_16)
FOR_SG_TYPES(FORMS_32)
FOR_SG_INT_TYPES(INT_FORMS_8)
FOR_SG_INT_TYPES(INT_FORMS_16)
FOR_SG_INT_TYPES(INT_FORMS_32)
VOTES(8)
VOTES(16)
VOTES(32)
