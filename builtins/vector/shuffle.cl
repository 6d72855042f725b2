// SPDX-License-Identifier: MIT
// Miscellaneous vector functions (OpenCL C 3.0 6.15.12): shuffle and shuffle2
// for every element type and every input width m and mask width n in
// {2, 4, 8, 16}. Only the low log2(m) bits (shuffle) or log2(2m) bits
// (shuffle2) of each mask element count, so every index is masked into range
// first: no lane ever reads outside its source and no poison is made.
//
// How the permutation is written. The mask is a run-time value, so Clang's
// __builtin_shufflevector (constant indices only) does not apply; once inlined
// into a kernel with a constant mask, the code below folds to one anyway. For
// a variable mask the forms compared on x86-64-v4 (shuffle(int16, uint16) and
// shuffle(float16, uint16), instructions including ret) were:
// - the elements written out, r = (T16)(x[i.s0], ..., x[i.sf]), with i the
//   whole mask ANDed once: 3 (vpandd, vpermd/vpermps, ret). The x86 backend
//   turns a build_vector of extract(x, extract(i, k)) into its variable
//   permute (vpermd/vpermps/vpermq, vpermw, vpshufb, vpermilps), but only in
//   exactly that form: the same loop lets InstCombine sink the AND into each
//   element before unrolling and gives a spill and 16 loads (62);
// - a stored copy, t[mask[k] & 15]: a spill and 16 loads and inserts (56);
// - selects, r = i == j ? x[j] : r for every j: 15 compares and masked
//   permutes (47), and a loop that is not unrolled on x86-64-v2.
// So the elements are written out. The permute instructions read one
// register, so a source of two registers (long16 on v4, int16 on v3, int8
// on v2) is split: both halves are permuted and a select on the index bit
// that names the half picks the result (long16 on v4: 2 ANDs, 2 tests and 4
// vpermq instead of a spill and 16 loads). A larger source (v2 and v3 only)
// is left to the backend's spill and n loads, linear in n where selects are
// m x n. Results
// narrower than 16 bytes (char2..char8, short2, short4, int2) are not a legal
// vector type for the permute and also become a spill and n loads, n <= 8.
// shuffle2 concatenates x and y into one vector of 2m elements when that is
// an OpenCL C type (m < 16), which is one permute when it fits a register;
// for m = 16 it selects between the shuffles of x and y.
#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// The bytes of one vector register at this library's ISA level.
#if LANES_ISA >= 4
#define REG_BYTES 64
#elif LANES_ISA >= 3
#define REG_BYTES 32
#else
#define REG_BYTES 16
#endif

// x[i.s0], x[i.s1], ... for the n elements of the index vector i.
#define ELEMS2(x, i) x[i.s0], x[i.s1]
#define ELEMS4(x, i) ELEMS2(x, i), x[i.s2], x[i.s3]
#define ELEMS8(x, i) ELEMS4(x, i), x[i.s4], x[i.s5], x[i.s6], x[i.s7]
#define ELEMS16(x, i)                                                                              \
    ELEMS8(x, i), x[i.s8], x[i.s9], x[i.sa], x[i.sb], x[i.sc], x[i.sd], x[i.se], x[i.sf]

// The element indices 0 .. 2m-1 of the concatenation of two m-vectors.
#define CONCAT_INDICES_2 0, 1, 2, 3
#define CONCAT_INDICES_4 CONCAT_INDICES_2, 4, 5, 6, 7
#define CONCAT_INDICES_8 CONCAT_INDICES_4, 8, 9, 10, 11, 12, 13, 14, 15

#define HALF_4 2
#define HALF_8 4
#define HALF_16 8

// Elements of x (m of them) picked by the low log2(m) bits of each index.
#define LOOKUP_DIRECT(T, U, m, n, x, i)                                                            \
    U##n j = (i) & (U)(m - 1);                                                                     \
    return (T##n)(ELEMS##n(x, j))
#define LOOKUP2(T, U, n)                                                                           \
    static OVL T##n shuffle_lookup(T##2 x, U##n i)                                                 \
    {                                                                                              \
        LOOKUP_DIRECT(T, U, 2, n, x, i);                                                           \
    }
#define LOOKUP(T, U, m, n)                                                                         \
    static OVL T##n shuffle_lookup(T##m x, U##n i)                                                 \
    {                                                                                              \
        if (sizeof(T##m) == 2 * REG_BYTES)                                                         \
            return (i & (U)HALF_##m) != (U)0 ? shuffle_lookup(x.hi, i) : shuffle_lookup(x.lo, i);  \
        LOOKUP_DIRECT(T, U, m, n, x, i);                                                           \
    }

#define SHUFFLE(T, U, m, n)                                                                        \
    CONST T##n shuffle(T##m x, U##n mask)                                                          \
    {                                                                                              \
        return shuffle_lookup(x, mask);                                                            \
    }
// m < 16: the lookup of the concatenation, whose index bits are log2(2m).
#define SHUFFLE2_CONCAT(T, U, m, n)                                                                \
    CONST T##n shuffle2(T##m x, T##m y, U##n mask)                                                 \
    {                                                                                              \
        return shuffle_lookup(__builtin_shufflevector(x, y, CONCAT_INDICES_##m), mask);            \
    }
// m = 16: bit 4 of the index picks y.
#define SHUFFLE2_SELECT(T, U, m, n)                                                                \
    CONST T##n shuffle2(T##m x, T##m y, U##n mask)                                                 \
    {                                                                                              \
        return (mask & (U)m) != (U)0 ? shuffle_lookup(y, mask) : shuffle_lookup(x, mask);          \
    }

// M(T, U, m, n) for every mask width n.
#define FOR_MASK_WIDTHS(M, T, U, m) M(T, U, m, 2) M(T, U, m, 4) M(T, U, m, 8) M(T, U, m, 16)
#define LOOKUP2_AT(T, U, m, n) LOOKUP2(T, U, n)
#define SHUFFLE_TYPE(T, U)                                                                         \
    FOR_MASK_WIDTHS(LOOKUP2_AT, T, U, 2)                                                           \
    FOR_MASK_WIDTHS(LOOKUP, T, U, 4)                                                               \
    FOR_MASK_WIDTHS(LOOKUP, T, U, 8)                                                               \
    FOR_MASK_WIDTHS(LOOKUP, T, U, 16)                                                              \
    FOR_MASK_WIDTHS(SHUFFLE, T, U, 2)                                                              \
    FOR_MASK_WIDTHS(SHUFFLE, T, U, 4)                                                              \
    FOR_MASK_WIDTHS(SHUFFLE, T, U, 8)                                                              \
    FOR_MASK_WIDTHS(SHUFFLE, T, U, 16)                                                             \
    FOR_MASK_WIDTHS(SHUFFLE2_CONCAT, T, U, 2)                                                      \
    FOR_MASK_WIDTHS(SHUFFLE2_CONCAT, T, U, 4)                                                      \
    FOR_MASK_WIDTHS(SHUFFLE2_CONCAT, T, U, 8)                                                      \
    FOR_MASK_WIDTHS(SHUFFLE2_SELECT, T, U, 16)

// Every gentype with its same-size unsigned mask type (half: cl_khr_fp16).
SHUFFLE_TYPE(char, uchar)
SHUFFLE_TYPE(uchar, uchar)
SHUFFLE_TYPE(short, ushort)
SHUFFLE_TYPE(ushort, ushort)
SHUFFLE_TYPE(int, uint)
SHUFFLE_TYPE(uint, uint)
SHUFFLE_TYPE(long, ulong)
SHUFFLE_TYPE(ulong, ulong)
SHUFFLE_TYPE(float, uint)
SHUFFLE_TYPE(double, ulong)
SHUFFLE_TYPE(half, ushort)
