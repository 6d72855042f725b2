// SPDX-License-Identifier: MIT
// Explicit conversions (OpenCL C 3.0 6.4.3): convert_D<n>[_sat][_rounding](S<n>)
// for every pair of the integer types, float and double, at every width. Generated
// by source kind (I integer, F float) and destination kind: four bodies.
// Float to integer always saturates (NaN gives 0): out-of-range results are
// implementation-defined without _sat, and saturating keeps them defined.
#include "lanes_builtins.h"

#define KIND_char I
#define KIND_uchar I
#define KIND_short I
#define KIND_ushort I
#define KIND_int I
#define KIND_uint I
#define KIND_long I
#define KIND_ulong I
#define KIND_float F
#define KIND_double F
#define UNSIGNED_char uchar
#define UNSIGNED_uchar uchar
#define UNSIGNED_short ushort
#define UNSIGNED_ushort ushort
#define UNSIGNED_int uint
#define UNSIGNED_uint uint
#define UNSIGNED_long ulong
#define UNSIGNED_ulong ulong
#define SIGNED_char char
#define SIGNED_uchar char
#define SIGNED_short short
#define SIGNED_ushort short
#define SIGNED_int int
#define SIGNED_uint int
#define SIGNED_long long
#define SIGNED_ulong long
#define BITS_char 8
#define BITS_uchar 8
#define BITS_short 16
#define BITS_ushort 16
#define BITS_int 32
#define BITS_uint 32
#define BITS_long 64
#define BITS_ulong 64
// The largest float (double) not above the type's maximum.
#define MAXF_float_char 127.0f
#define MAXF_float_uchar 255.0f
#define MAXF_float_short 32767.0f
#define MAXF_float_ushort 65535.0f
#define MAXF_float_int 0x1.fffffep30f
#define MAXF_float_uint 0x1.fffffep31f
#define MAXF_float_long 0x1.fffffep62f
#define MAXF_float_ulong 0x1.fffffep63f
#define MAXF_double_char 127.0
#define MAXF_double_uchar 255.0
#define MAXF_double_short 32767.0
#define MAXF_double_ushort 65535.0
#define MAXF_double_int 2147483647.0
#define MAXF_double_uint 4294967295.0
#define MAXF_double_long 0x1.fffffffffffffp62
#define MAXF_double_ulong 0x1.fffffffffffffp63

#define ROUNDINGS(M, ...)                                                                          \
    M(, __VA_ARGS__)                                                                               \
    M(_rte, __VA_ARGS__) M(_rtz, __VA_ARGS__) M(_rtp, __VA_ARGS__) M(_rtn, __VA_ARGS__)

// Integer from integer: rounding does not apply; _sat clamps in the source type.
#define CONV_II(D, S, n, k) ROUNDINGS(CONV_II_R, D, S, n, k)
#define CONV_II_R(r, D, S, n, k)                                                                   \
    CONST D##n convert_##D##n##r(S##n x)                                                           \
    {                                                                                              \
        return CVT(k, x, D##n);                                                                    \
    }                                                                                              \
    CONST D##n convert_##D##n##_sat##r(S##n x)                                                     \
    {                                                                                              \
        S##n y = x;                                                                                \
        if ((float)MIN_##D > (float)MIN_##S)                                                       \
            y = (S##n)__builtin_elementwise_max(y, (S##n)((S)MIN_##D));                            \
        if ((float)MAX_##D < (float)MAX_##S)                                                       \
            y = (S##n)__builtin_elementwise_min(y, (S##n)((S)MAX_##D));                            \
        return CVT(k, y, D##n);                                                                    \
    }

// Integer from float or double: round in the source type, clamp, convert; NaN gives 0.
#define ROUND_(x) __builtin_elementwise_trunc(x)
#define ROUND__rte(x) __builtin_elementwise_roundeven(x)
#define ROUND__rtz(x) __builtin_elementwise_trunc(x)
#define ROUND__rtp(x) __builtin_elementwise_ceil(x)
#define ROUND__rtn(x) __builtin_elementwise_floor(x)
#define CONV_IF(D, S, n, k) ROUNDINGS(CONV_IF_R, D, S, n, k)
#define CONV_IF_R(r, D, S, n, k)                                                                   \
    CONST D##n convert_##D##n##_sat##r(S##n x)                                                     \
    {                                                                                              \
        typedef PASTE(SIGNED_##D, n) M_;                                                           \
        S##n f = ROUND_##r(x);                                                                     \
        S##n c = __builtin_elementwise_max(f, (S##n)(S)MIN_##D);                                   \
        c = __builtin_elementwise_min(c, (S##n)MAXF_##S##_##D);                                    \
        D##n y = CVT(k, c, D##n);                                                                  \
        M_ hi = CVT(k, f >= (S)MAX_##D, M_), nan = CVT(k, x != x, M_);                             \
        y = (D##n)(hi ? (D##n)MAX_##D : y);                                                        \
        return (D##n)(nan ? (D##n)0 : y);                                                          \
    }                                                                                              \
    CONST D##n convert_##D##n##r(S##n x)                                                           \
    {                                                                                              \
        return convert_##D##n##_sat##r(x);                                                         \
    }

// Float from float, double from double or float: exact. Float from double:
// the default and _rte are the hardware's conversion; the directed modes
// step that result by one unit (in its bits) when it lies on the wrong side
// of x, which also turns an overflow to infinity into the largest float.
#define CONV_FF(D, S, n, k) CONV_FF_##D##_##S(n, k)
#define CONV_FF_float_float(n, k) ROUNDINGS(CONV_FF_EXACT, float, float, n, k)
#define CONV_FF_double_double(n, k) ROUNDINGS(CONV_FF_EXACT, double, double, n, k)
#define CONV_FF_double_float(n, k) ROUNDINGS(CONV_FF_EXACT, double, float, n, k)
#define CONV_FF_EXACT(r, D, S, n, k)                                                               \
    CONST D##n convert_##D##n##r(S##n x)                                                           \
    {                                                                                              \
        return CVT(k, x, D##n);                                                                    \
    }
#define CONV_FF_float_double(n, k)                                                                 \
    CONST float##n convert_float##n(double##n x)                                                   \
    {                                                                                              \
        return CVT(k, x, float##n);                                                                \
    }                                                                                              \
    CONST float##n convert_float##n##_rte(double##n x)                                             \
    {                                                                                              \
        return CVT(k, x, float##n);                                                                \
    }                                                                                              \
    CONST float##n convert_float##n##_rtz(double##n x)                                             \
    {                                                                                              \
        float##n f = CVT(k, x, float##n);                                                          \
        double##n d = CVT(k, f, double##n);                                                        \
        int##n away = CVT(k, __builtin_elementwise_abs(d) > __builtin_elementwise_abs(x), int##n); \
        return away ? as_float##n(as_int##n(f) - 1) : f;                                           \
    }                                                                                              \
    CONST float##n convert_float##n##_rtp(double##n x)                                             \
    {                                                                                              \
        float##n f = CVT(k, x, float##n);                                                          \
        int##n below = CVT(k, CVT(k, f, double##n) < x, int##n);                                   \
        return below ? next_up_##k##n(f) : f;                                                      \
    }                                                                                              \
    CONST float##n convert_float##n##_rtn(double##n x)                                             \
    {                                                                                              \
        float##n f = CVT(k, x, float##n);                                                          \
        int##n above = CVT(k, CVT(k, f, double##n) > x, int##n);                                   \
        return above ? -next_up_##k##n(-f) : f;                                                    \
    }
// The next float up from f (not +inf, not NaN): from a zero, the least subnormal.
#define NEXT_UP(n, k, unused)                                                                      \
    static inline float##n next_up_##k##n(float##n f)                                              \
    {                                                                                              \
        int##n b = as_int##n(f);                                                                   \
        int##n up = f == 0.0f ? 1 : (f > 0.0f ? b + 1 : b - 1);                                    \
        return as_float##n(up);                                                                    \
    }
FOR_WIDTHS(NEXT_UP, )

// Float (double) from integer: the default and _rte are the hardware's conversion.
// Directed modes keep the top 24 (53) significant bits of the magnitude (exact),
// then step one unit away from zero when the mode asks for it and bits were
// dropped; the sign goes on last.
#define CONV_FI(D, S, n, k)                                                                        \
    CONST D##n convert_##D##n(S##n x)                                                              \
    {                                                                                              \
        return CVT(k, x, D##n);                                                                    \
    }                                                                                              \
    CONST D##n convert_##D##n##_rte(S##n x)                                                        \
    {                                                                                              \
        return CVT(k, x, D##n);                                                                    \
    }                                                                                              \
    CONV_FI_DIRECTED(_rtz, D, S, n, k, (U_)0)                                                      \
    CONV_FI_DIRECTED(_rtp, D, S, n, k, ~neg)                                                       \
    CONV_FI_DIRECTED(_rtn, D, S, n, k, neg)
#define CONV_FI_DIRECTED(r, D, S, n, k, away)                                                      \
    PASTE(CONV_FI_DIRECTED_##D##_, BITS_##S)(r, D, S, n, k, away)
#define CONV_FI_DIRECTED_float_8(r, D, S, n, k, away) CONV_FI_EXACT(r, D, S, n, k)
#define CONV_FI_DIRECTED_float_16(r, D, S, n, k, away) CONV_FI_EXACT(r, D, S, n, k)
#define CONV_FI_DIRECTED_float_32(r, D, S, n, k, away)                                             \
    CONV_FI_ROUNDED(r, float, S, n, k, away, 24, uint, 0x80000000u)
#define CONV_FI_DIRECTED_float_64(r, D, S, n, k, away)                                             \
    CONV_FI_ROUNDED(r, float, S, n, k, away, 24, uint, 0x80000000u)
#define CONV_FI_DIRECTED_double_8(r, D, S, n, k, away) CONV_FI_EXACT(r, D, S, n, k)
#define CONV_FI_DIRECTED_double_16(r, D, S, n, k, away) CONV_FI_EXACT(r, D, S, n, k)
#define CONV_FI_DIRECTED_double_32(r, D, S, n, k, away) CONV_FI_EXACT(r, D, S, n, k)
#define CONV_FI_DIRECTED_double_64(r, D, S, n, k, away)                                            \
    CONV_FI_ROUNDED(r, double, S, n, k, away, 53, ulong, 0x8000000000000000ul)
#define CONV_FI_EXACT(r, D, S, n, k)                                                               \
    CONST D##n convert_##D##n##r(S##n x)                                                           \
    {                                                                                              \
        return CVT(k, x, D##n);                                                                    \
    }
// D's significand has m bits; B is the unsigned integer of D's size, SB its sign bit.
#define CONV_FI_ROUNDED(r, D, S, n, k, away, mb, B, SB)                                            \
    CONST D##n convert_##D##n##r(S##n x)                                                           \
    {                                                                                              \
        typedef PASTE(UNSIGNED_##S, n) U_;                                                         \
        U_ neg = IS_SIGNED(S) ? (U_)(x < (S)0 ? (U_) ~(U_)0 : (U_)0) : (U_)0;                      \
        U_ m = (U_)((__builtin_astype(x, U_) ^ neg) - neg);                                        \
        U_ bits = (U_)BITS_##S - clz(m);                                                           \
        U_ drop = bits > mb ? (U_)(bits - mb) : (U_)0;                                             \
        U_ unit = (U_)((U_)1 << drop), low = (U_)(unit - 1);                                       \
        D##n f = CVT(k, (U_)(m & ~low), D##n);                                                     \
        f += CVT(k, (U_)((m & low) != 0 ? (U_)((away)&unit) : (U_)0), D##n);                       \
        PASTE(B, n) sign = CVT(k, neg, PASTE(B, n)) & SB;                                          \
        return as_##D##n(__builtin_astype(f, PASTE(B, n)) | sign);                                 \
    }

#define CONV_PAIR(D, S, n, k) PASTE(PASTE(CONV_, KIND_##D), KIND_##S)(D, S, n, k)
#define CONV_FROM_ALL(D, n, k)                                                                     \
    CONV_PAIR(D, char, n, k)                                                                       \
    CONV_PAIR(D, uchar, n, k)                                                                      \
    CONV_PAIR(D, short, n, k)                                                                      \
    CONV_PAIR(D, ushort, n, k)                                                                     \
    CONV_PAIR(D, int, n, k)                                                                        \
    CONV_PAIR(D, uint, n, k)                                                                       \
    CONV_PAIR(D, long, n, k)                                                                       \
    CONV_PAIR(D, ulong, n, k) CONV_PAIR(D, float, n, k) CONV_PAIR(D, double, n, k)
#define CONV_TO_ALL(n, k, unused)                                                                  \
    CONV_FROM_ALL(char, n, k)                                                                      \
    CONV_FROM_ALL(uchar, n, k)                                                                     \
    CONV_FROM_ALL(short, n, k)                                                                     \
    CONV_FROM_ALL(ushort, n, k)                                                                    \
    CONV_FROM_ALL(int, n, k)                                                                       \
    CONV_FROM_ALL(uint, n, k)                                                                      \
    CONV_FROM_ALL(long, n, k)                                                                      \
    CONV_FROM_ALL(ulong, n, k) CONV_FROM_ALL(float, n, k) CONV_FROM_ALL(double, n, k)

// clz of the unsigned types, defined in integer/.
#define CLZ_DECL(n, k, unused)                                                                     \
    CONST uchar##n clz(uchar##n);                                                                  \
    CONST ushort##n clz(ushort##n);                                                                \
    CONST uint##n clz(uint##n);                                                                    \
    CONST ulong##n clz(ulong##n);
FOR_WIDTHS(CLZ_DECL, )
FOR_WIDTHS(CONV_TO_ALL, )
