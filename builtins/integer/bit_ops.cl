// SPDX-License-Identifier: MIT
// Extended bit operations (cl_khr_extended_bit_ops) for every integer type
// and width. offset and count are uniform uints; a field of count bits at
// offset must fit (offset + count <= the type's bits, the specification's
// defined cases). A field of 0 bits inserts nothing and extracts 0, which
// the masks give without a shift by the full width. Shifts of OpenCL C take
// their count modulo the width, and every shift below whose count may reach
// it is masked off.
#include "lanes_builtins.h"

// The low `count` bits set, as a U; none for 0.
#define LOW_BITS(U, bits, count) ((count) ? (U)((U) ~(U)0 >> ((bits) - (count))) : (U)0)

// T: the signed type of S's width (two levels, so that SIGNED_<S> expands before T##n pastes).
#define BIT_OPS(S, U, bits, n, k) BIT_OPS_(S, U, SIGNED_##S, bits, n, k)
#define BIT_OPS_(S, U, T, bits, n, k) BIT_OPS_OF(S, U, T, bits, n, k)
#define BIT_OPS_OF(S, U, T, bits, n, k)                                                            \
    CONST S##n bitfield_insert(S##n base, S##n insert, uint offset, uint count)                    \
    {                                                                                              \
        U mask = (U)(LOW_BITS(U, bits, count) << offset);                                          \
        return as_##S##n((U##n)((as_##U##n(base) & (U##n)(U)~mask) |                               \
                                ((U##n)(as_##U##n(insert) << offset) & (U##n)mask)));              \
    }                                                                                              \
    CONST T##n bitfield_extract_signed(S##n base, uint offset, uint count)                         \
    {                                                                                              \
        /* The field to the top, then an arithmetic shift down; 0 for no field. */                 \
        U##n top = (U##n)(as_##U##n(base) << (bits - offset - count));                             \
        T##n field = (T##n)(as_##T##n(top) >> (bits - count));                                     \
        return field & (T##n)(count ? (T)-1 : (T)0);                                               \
    }                                                                                              \
    CONST U##n bitfield_extract_unsigned(S##n base, uint offset, uint count)                       \
    {                                                                                              \
        return (U##n)((U##n)(as_##U##n(base) >> offset) & (U##n)LOW_BITS(U, bits, count));         \
    }                                                                                              \
    CONST S##n bit_reverse(S##n x)                                                                 \
    {                                                                                              \
        return PASTE(REVERSE_, k)(S, bits, x);                                                     \
    }

// The scalar builtin promotes char and short to int: reverse them at their own width.
#define REVERSE_SCAL(S, bits, x) ((S)PASTE(__builtin_bitreverse, bits)(x))
#define REVERSE_VEC(S, bits, x) __builtin_elementwise_bitreverse(x)

#define SIGNED_char char
#define SIGNED_uchar char
#define SIGNED_short short
#define SIGNED_ushort short
#define SIGNED_int int
#define SIGNED_uint int
#define SIGNED_long long
#define SIGNED_ulong long

FOR_INT_TYPES(BIT_OPS)
