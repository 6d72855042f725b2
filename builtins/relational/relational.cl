// SPDX-License-Identifier: MIT
// Relational functions (OpenCL C 3.0 6.15.6), float, double and half
// (cl_khr_fp16). OpenCL C's comparisons already give the results the
// specification asks for: int 1 or 0 for scalars, -1 or 0 in each element of
// a vector (of the operands' element size: int for float, long for double,
// short for half).
#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// The result of a relational of T: int for scalars (1 or 0), the element
// size's signed integer for vectors (-1 or 0); that integer type, for the bits.
#define RES(T, k, n) PASTE(RES_##T##_##k, n)
#define RES_float_SCAL int
#define RES_float_VEC int
#define RES_double_SCAL int
#define RES_double_VEC long
#define RES_half_SCAL int
#define RES_half_VEC short
#define BITS(T, n) PASTE(BITS_##T, n)
#define BITS_float int
#define BITS_double long
#define BITS_half short
#define MIN_NORMAL_float FLT_MIN
#define MIN_NORMAL_double DBL_MIN
#define MIN_NORMAL_half HALF_MIN

#define FLOAT_RELATIONAL(n, k, T)                                                                  \
    CONST RES(T, k, n) isequal(T##n x, T##n y)                                                     \
    {                                                                                              \
        return x == y;                                                                             \
    }                                                                                              \
    CONST RES(T, k, n) isnotequal(T##n x, T##n y)                                                  \
    {                                                                                              \
        return x != y;                                                                             \
    }                                                                                              \
    CONST RES(T, k, n) isgreater(T##n x, T##n y)                                                   \
    {                                                                                              \
        return x > y;                                                                              \
    }                                                                                              \
    CONST RES(T, k, n) isgreaterequal(T##n x, T##n y)                                              \
    {                                                                                              \
        return x >= y;                                                                             \
    }                                                                                              \
    CONST RES(T, k, n) isless(T##n x, T##n y)                                                      \
    {                                                                                              \
        return x < y;                                                                              \
    }                                                                                              \
    CONST RES(T, k, n) islessequal(T##n x, T##n y)                                                 \
    {                                                                                              \
        return x <= y;                                                                             \
    }                                                                                              \
    CONST RES(T, k, n) islessgreater(T##n x, T##n y)                                               \
    {                                                                                              \
        return (x < y) | (x > y);                                                                  \
    }                                                                                              \
    CONST RES(T, k, n) isfinite(T##n x)                                                            \
    {                                                                                              \
        return __builtin_elementwise_abs(x) < (T)INFINITY;                                         \
    }                                                                                              \
    CONST RES(T, k, n) isinf(T##n x)                                                               \
    {                                                                                              \
        return __builtin_elementwise_abs(x) == (T)INFINITY;                                        \
    }                                                                                              \
    CONST RES(T, k, n) isnan(T##n x)                                                               \
    {                                                                                              \
        return x != x;                                                                             \
    }                                                                                              \
    CONST RES(T, k, n) isnormal(T##n x)                                                            \
    {                                                                                              \
        T##n a = __builtin_elementwise_abs(x);                                                     \
        return (a >= MIN_NORMAL_##T) & (a < (T)INFINITY);                                          \
    }                                                                                              \
    CONST RES(T, k, n) isordered(T##n x, T##n y)                                                   \
    {                                                                                              \
        return (x == x) & (y == y);                                                                \
    }                                                                                              \
    CONST RES(T, k, n) isunordered(T##n x, T##n y)                                                 \
    {                                                                                              \
        return (x != x) | (y != y);                                                                \
    }                                                                                              \
    CONST RES(T, k, n) signbit(T##n x)                                                             \
    {                                                                                              \
        return PASTE(as_, BITS(T, n))(x) < (BITS_##T)0;                                            \
    }
FOR_WIDTHS(FLOAT_RELATIONAL, float)
FOR_WIDTHS(FLOAT_RELATIONAL, double)
FOR_WIDTHS(FLOAT_RELATIONAL, half)

// any and all look at the most significant bit of each element.
#define ANY_ALL(n, k, S)                                                                           \
    CONST int any(S##n x)                                                                          \
    {                                                                                              \
        return __builtin_reduce_min(x) < 0;                                                        \
    }                                                                                              \
    CONST int all(S##n x)                                                                          \
    {                                                                                              \
        return __builtin_reduce_max(x) < 0;                                                        \
    }
#define ANY_ALL_SCALAR(S)                                                                          \
    CONST int any(S x)                                                                             \
    {                                                                                              \
        return x < 0;                                                                              \
    }                                                                                              \
    CONST int all(S x)                                                                             \
    {                                                                                              \
        return x < 0;                                                                              \
    }
#define ANY_ALL_TYPE(S) ANY_ALL_SCALAR(S) FOR_VECTOR_WIDTHS(ANY_ALL, S)
ANY_ALL_TYPE(char)
ANY_ALL_TYPE(short)
ANY_ALL_TYPE(int)
ANY_ALL_TYPE(long)

// bitselect and select for every gentype T, with I and U its same-size
// signed and unsigned integer types.
#define SELECT(n, k, T, I, U)                                                                      \
    CONST T##n bitselect(T##n a, T##n b, T##n c)                                                   \
    {                                                                                              \
        U##n m = as_##U##n(c);                                                                     \
        return as_##T##n((U##n)((as_##U##n(a) & (U##n) ~m) | (as_##U##n(b) & m)));                 \
    }                                                                                              \
    CONST T##n select(T##n a, T##n b, I##n c)                                                      \
    {                                                                                              \
        return SELECT_##k(a, b, c, I);                                                             \
    }                                                                                              \
    CONST T##n select(T##n a, T##n b, U##n c)                                                      \
    {                                                                                              \
        return SELECT_##k(a, b, as_##I##n(c), I);                                                  \
    }
// Scalars test c != 0, vectors the most significant bit of each element.
#define SELECT_SCAL(a, b, c, I) ((c) ? (b) : (a))
#define SELECT_VEC(a, b, c, I) ((c) < (I)0 ? (b) : (a))
#define SELECT_TYPE(T, I, U) FOR_WIDTHS(SELECT, T, I, U)
SELECT_TYPE(char, char, uchar)
SELECT_TYPE(uchar, char, uchar)
SELECT_TYPE(short, short, ushort)
SELECT_TYPE(ushort, short, ushort)
SELECT_TYPE(int, int, uint)
SELECT_TYPE(uint, int, uint)
SELECT_TYPE(long, long, ulong)
SELECT_TYPE(ulong, long, ulong)
SELECT_TYPE(float, int, uint)
SELECT_TYPE(double, long, ulong)
SELECT_TYPE(half, short, ushort)
