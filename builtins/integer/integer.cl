// SPDX-License-Identifier: MIT
// Integer functions (OpenCL C 3.0 6.15.4) for every integer type and width.
// Each body is written on the whole (vector) type so that a vector overload
// is vector code; the casts keep scalar char and short out of int promotion.
#include "lanes_builtins.h"

// The population count of an unsigned value, by halves (LLVM recognizes ctpop).
#define POPCOUNT_U(U, bits, n, v)                                                                  \
    ({                                                                                             \
        U##n p_ = (v);                                                                             \
        p_ = (U##n)(p_ - (U##n)((p_ >> 1) & (U##n)((U)0x5555555555555555ul)));                       \
        p_ = (U##n)((p_ & (U##n)((U)0x3333333333333333ul)) +                                         \
                    ((p_ >> 2) & (U##n)((U)0x3333333333333333ul)));                                  \
        p_ = (U##n)((p_ + (p_ >> 4)) & (U##n)((U)0x0f0f0f0f0f0f0f0ful));                             \
        (U##n)((U##n)(p_ * (U##n)((U)0x0101010101010101ul)) >> (bits - 8));                          \
    })

#define INTEGER(S, U, bits, n, k)                                                                  \
    CONST U##n abs(S##n x)                                                                         \
    {                                                                                              \
        return as_##U##n((S##n)PASTE(ABS_, SIGN_##S)(x));                      \
    }                                                                                              \
    CONST U##n abs_diff(S##n x, S##n y)                                                            \
    {                                                                                              \
        return (U##n)(as_##U##n((S##n)__builtin_elementwise_max(x, y)) -                                 \
                      as_##U##n((S##n)__builtin_elementwise_min(x, y)));                                 \
    }                                                                                              \
    CONST S##n add_sat(S##n x, S##n y)                                                             \
    {                                                                                              \
        return PASTE(SAT_, PASTE(k, bits))(S, add, +, x, y);                                       \
    }                                                                                              \
    CONST S##n sub_sat(S##n x, S##n y)                                                             \
    {                                                                                              \
        return PASTE(SAT_, PASTE(k, bits))(S, sub, -, x, y);                                       \
    }                                                                                              \
    CONST S##n hadd(S##n x, S##n y)                                                                \
    {                                                                                              \
        return (S##n)((S##n)(x >> 1) + (S##n)(y >> 1) + (S##n)(x & y & (S)1));                     \
    }                                                                                              \
    CONST S##n rhadd(S##n x, S##n y)                                                               \
    {                                                                                              \
        return (S##n)((S##n)(x >> 1) + (S##n)(y >> 1) + (S##n)((x | y) & (S)1));                   \
    }                                                                                              \
    CONST S##n max(S##n x, S##n y)                                                                 \
    {                                                                                              \
        return __builtin_elementwise_max(x, y);                                                    \
    }                                                                                              \
    CONST S##n min(S##n x, S##n y)                                                                 \
    {                                                                                              \
        return __builtin_elementwise_min(x, y);                                                    \
    }                                                                                              \
    CONST S##n clamp(S##n x, S##n lo, S##n hi)                                                     \
    {                                                                                              \
        return __builtin_elementwise_min(__builtin_elementwise_max(x, lo), hi);                    \
    }                                                                                              \
    CONST S##n popcount(S##n x)                                                                    \
    {                                                                                              \
        return as_##S##n(POPCOUNT_U(U, bits, n, as_##U##n(x)));                                    \
    }                                                                                              \
    CONST S##n clz(S##n x)                                                                         \
    {                                                                                              \
        U##n v = as_##U##n(x);                                                                     \
        for (int s = 1; s < bits; s *= 2)                                                          \
            v |= (U##n)(v >> s);                                                                   \
        return as_##S##n(POPCOUNT_U(U, bits, n, (U##n)~v));                                        \
    }                                                                                              \
    CONST S##n ctz(S##n x)                                                                         \
    {                                                                                              \
        U##n v = as_##U##n(x);                                                                     \
        return as_##S##n(POPCOUNT_U(U, bits, n, (U##n)(~v & (U##n)(v - (U)1))));                   \
    }                                                                                              \
    CONST S##n rotate(S##n x, S##n y)                                                              \
    {                                                                                              \
        U##n v = as_##U##n(x), s = as_##U##n(y) & (U)(bits - 1);                                   \
        return as_##S##n((U##n)((U##n)(v << s) | (U##n)(v >> ((U##n)((U)bits - s) & (U)(bits - 1)))));   \
    }                                                                                              \
    CONST S##n mul_hi(S##n x, S##n y)                                                              \
    {                                                                                              \
        return MUL_HI_##bits(S, U, n, k, x, y);                                                    \
    }                                                                                              \
    CONST S##n mad_hi(S##n x, S##n y, S##n z)                                                      \
    {                                                                                              \
        return (S##n)(mul_hi(x, y) + z);                                                           \
    }                                                                                              \
    CONST S##n mad_sat(S##n x, S##n y, S##n z)                                                     \
    {                                                                                              \
        return MAD_SAT_##bits(S, U, n, k, x, y, z);                                                \
    }

// Scalar char and short promote to int in Clang's saturating built-ins: they
// saturate in int arithmetic instead.
#define SAT_SCAL8(S, f, op, x, y) SAT_NARROW(S, op, x, y)
#define SAT_SCAL16(S, f, op, x, y) SAT_NARROW(S, op, x, y)
#define SAT_NARROW(S, op, x, y)                                                                    \
    ((S)__builtin_elementwise_max(__builtin_elementwise_min((int)(x)op(int)(y), (int)MAX_##S),     \
                                  (int)MIN_##S))
#define SAT_SCAL32(S, f, op, x, y) __builtin_elementwise_##f##_sat(x, y)
#define SAT_SCAL64(S, f, op, x, y) __builtin_elementwise_##f##_sat(x, y)
#define SAT_VEC8(S, f, op, x, y) __builtin_elementwise_##f##_sat(x, y)
#define SAT_VEC16(S, f, op, x, y) __builtin_elementwise_##f##_sat(x, y)
#define SAT_VEC32(S, f, op, x, y) __builtin_elementwise_##f##_sat(x, y)
#define SAT_VEC64(S, f, op, x, y) __builtin_elementwise_##f##_sat(x, y)
#define ABS_s(x) __builtin_elementwise_abs(x)
#define ABS_u(x) (x)

// Narrow types: compute in the type twice as wide.
#define MUL_HI_NARROW(S, bits, n, k, x, y)                                                         \
    ({                                                                                             \
        typedef PASTE(WIDE_##S, n) W_;                                                             \
        CVT(k, (CVT(k, x, W_) * CVT(k, y, W_)) >> bits, S##n);                                     \
    })
#define MUL_HI_8(S, U, n, k, x, y) MUL_HI_NARROW(S, 8, n, k, x, y)
#define MUL_HI_16(S, U, n, k, x, y) MUL_HI_NARROW(S, 16, n, k, x, y)
#define MUL_HI_32(S, U, n, k, x, y) MUL_HI_NARROW(S, 32, n, k, x, y)
#define MAD_SAT_NARROW(S, bits, n, k, x, y, z)                                                     \
    ({                                                                                             \
        typedef PASTE(WIDE_##S, n) W_;                                                             \
        W_ r_ = CVT(k, x, W_) * CVT(k, y, W_) + CVT(k, z, W_);                                     \
        r_ = __builtin_elementwise_min(r_, (W_)(MAX_##S));                                         \
        r_ = __builtin_elementwise_max(r_, (W_)(MIN_##S));                                         \
        CVT(k, r_, S##n);                                                                          \
    })
#define MAD_SAT_8(S, U, n, k, x, y, z) MAD_SAT_NARROW(S, 8, n, k, x, y, z)
#define MAD_SAT_16(S, U, n, k, x, y, z) MAD_SAT_NARROW(S, 16, n, k, x, y, z)
#define MAD_SAT_32(S, U, n, k, x, y, z) MAD_SAT_NARROW(S, 32, n, k, x, y, z)

// 64 bits: the high half of the 128-bit product from 32-bit partial products.
#define MUL_HI_64(S, U, n, k, x, y) as_##S##n(mul_hi64_##S(x, y))
#define MAD_SAT_64(S, U, n, k, x, y, z) mad_sat64_##S(x, y, z)

#define INTEGER64(n, k, unused)                                                                    \
    static OVL ulong##n mul_hi64_ulong(ulong##n a, ulong##n b)                                     \
    {                                                                                              \
        ulong##n al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;           \
        ulong##n p0 = al * bl, p1 = al * bh, p2 = ah * bl, p3 = ah * bh;                           \
        ulong##n mid = (p0 >> 32) + (p1 & 0xffffffffu) + (p2 & 0xffffffffu);                       \
        return p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);                                         \
    }                                                                                              \
    static OVL ulong##n mul_hi64_long(long##n a, long##n b)                                        \
    {                                                                                              \
        /* signed = unsigned - (a < 0 ? b : 0) - (b < 0 ? a : 0), modulo 2^64 */                    \
        return mul_hi64_ulong(as_ulong##n(a), as_ulong##n(b)) - as_ulong##n((a >> 63) & b) -       \
               as_ulong##n((b >> 63) & a);                                                         \
    }                                                                                              \
    static OVL ulong##n mad_sat64_ulong(ulong##n a, ulong##n b, ulong##n c)                        \
    {                                                                                              \
        ulong##n lo = a * b, hi = mul_hi64_ulong(a, b), sum = lo + c;                              \
        hi += sum < lo ? (ulong##n)1 : (ulong##n)0;                                                  \
        return hi != 0 ? (ulong##n)ULONG_MAX : sum;                                                \
    }                                                                                              \
    static OVL long##n mad_sat64_long(long##n a, long##n b, long##n c)                             \
    {                                                                                              \
        ulong##n lo = as_ulong##n(a) * as_ulong##n(b), sum = lo + as_ulong##n(c);                  \
        long##n hi = as_long##n(mul_hi64_long(a, b)) + (c >> 63) +                                 \
                     (sum < lo ? (long##n)1 : (long##n)0);                                          \
        long##n r = as_long##n(sum);                                                               \
        long##n sat = hi < 0 ? (long##n)LONG_MIN : (long##n)LONG_MAX;                              \
        return hi == (r >> 63) ? r : sat;                                                          \
    }

FOR_WIDTHS(INTEGER64, )
FOR_INT_TYPES(INTEGER)

// Scalar bounds for vectors: max, min, clamp (gentype, sgentype...).
#define INTEGER_SCALAR_ARGS(S, U, bits, n, k)                                                      \
    CONST S##n max(S##n x, S y)                                                                    \
    {                                                                                              \
        return __builtin_elementwise_max(x, (S##n)y);                                              \
    }                                                                                              \
    CONST S##n min(S##n x, S y)                                                                    \
    {                                                                                              \
        return __builtin_elementwise_min(x, (S##n)y);                                              \
    }                                                                                              \
    CONST S##n clamp(S##n x, S lo, S hi)                                                           \
    {                                                                                              \
        return clamp(x, (S##n)lo, (S##n)hi);                                                       \
    }
#define INT_TYPE_AT_VEC(n, k, M) INT_TYPE_AT(n, k, M)
FOR_VECTOR_WIDTHS(INT_TYPE_AT_VEC, INTEGER_SCALAR_ARGS)

// upsample: hi << bits | lo, into the type twice as wide.
#define UPSAMPLE(S, U, W, UW, bits, n, k)                                                              \
    CONST W##n upsample(S##n hi, U##n lo)                                                          \
    {                                                                                              \
        return (W##n)(CVT(k, hi, W##n) << bits) | as_##W##n(CVT(k, lo, UW##n));                  \
    }
#define UPSAMPLE_AT(n, k, unused)                                                                  \
    UPSAMPLE(char, uchar, short, ushort, 8, n, k)                                                          \
    UPSAMPLE(uchar, uchar, ushort, ushort, 8, n, k)                                                        \
    UPSAMPLE(short, ushort, int, uint, 16, n, k)                                                         \
    UPSAMPLE(ushort, ushort, uint, uint, 16, n, k)                                                       \
    UPSAMPLE(int, uint, long, ulong, 32, n, k) UPSAMPLE(uint, uint, ulong, ulong, 32, n, k)
FOR_WIDTHS(UPSAMPLE_AT, )

// mad24 and mul24: 32-bit products are exact for 24-bit operands.
#define MUL24(n, k, S)                                                                             \
    CONST S##n mul24(S##n x, S##n y)                                                               \
    {                                                                                              \
        return x * y;                                                                              \
    }                                                                                              \
    CONST S##n mad24(S##n x, S##n y, S##n z)                                                       \
    {                                                                                              \
        return x * y + z;                                                                          \
    }
FOR_WIDTHS(MUL24, int)
FOR_WIDTHS(MUL24, uint)
