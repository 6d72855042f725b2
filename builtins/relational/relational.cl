// SPDX-License-Identifier: MIT
// Relational functions (OpenCL C 3.0 6.15.6). OpenCL C's comparisons already
// give the results the specification asks for: int 1 or 0 for scalars, -1 or
// 0 in each element of a vector (of the operands' element size).
#include "lanes_builtins.h"

#define FLOAT_RELATIONAL(n, k, unused)                                                             \
    CONST int##n isequal(float##n x, float##n y)                                                   \
    {                                                                                              \
        return x == y;                                                                             \
    }                                                                                              \
    CONST int##n isnotequal(float##n x, float##n y)                                                \
    {                                                                                              \
        return x != y;                                                                             \
    }                                                                                              \
    CONST int##n isgreater(float##n x, float##n y)                                                 \
    {                                                                                              \
        return x > y;                                                                              \
    }                                                                                              \
    CONST int##n isgreaterequal(float##n x, float##n y)                                            \
    {                                                                                              \
        return x >= y;                                                                             \
    }                                                                                              \
    CONST int##n isless(float##n x, float##n y)                                                    \
    {                                                                                              \
        return x < y;                                                                              \
    }                                                                                              \
    CONST int##n islessequal(float##n x, float##n y)                                               \
    {                                                                                              \
        return x <= y;                                                                             \
    }                                                                                              \
    CONST int##n islessgreater(float##n x, float##n y)                                             \
    {                                                                                              \
        return (x < y) | (x > y);                                                                  \
    }                                                                                              \
    CONST int##n isfinite(float##n x)                                                              \
    {                                                                                              \
        return __builtin_elementwise_abs(x) < INFINITY;                                            \
    }                                                                                              \
    CONST int##n isinf(float##n x)                                                                 \
    {                                                                                              \
        return __builtin_elementwise_abs(x) == INFINITY;                                           \
    }                                                                                              \
    CONST int##n isnan(float##n x)                                                                 \
    {                                                                                              \
        return x != x;                                                                             \
    }                                                                                              \
    CONST int##n isnormal(float##n x)                                                              \
    {                                                                                              \
        float##n a = __builtin_elementwise_abs(x);                                                 \
        return (a >= FLT_MIN) & (a < INFINITY);                                                    \
    }                                                                                              \
    CONST int##n isordered(float##n x, float##n y)                                                 \
    {                                                                                              \
        return (x == x) & (y == y);                                                                \
    }                                                                                              \
    CONST int##n isunordered(float##n x, float##n y)                                               \
    {                                                                                              \
        return (x != x) | (y != y);                                                                \
    }                                                                                              \
    CONST int##n signbit(float##n x)                                                               \
    {                                                                                              \
        return as_int##n(x) < 0;                                                                   \
    }
FOR_WIDTHS(FLOAT_RELATIONAL, )

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
        return as_##T##n((U##n)((as_##U##n(a) & (U##n)~m) | (as_##U##n(b) & m)));                 \
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
