// SPDX-License-Identifier: MIT
// Explicit conversions to and from half (cl_khr_fp16, OpenCL C 3.0 6.4.3),
// at every width and rounding mode, beside conversions.cl's other types:
//   half from half: exact. float and double from half: exact (half -> float
//   is F16C's conversion; double goes through float, never through a
//   half -> double conversion, which LLVM lowers to a library call).
//   Integers from half: the half is exact as a float, then conversions.cl's
//   float -> integer conversion (its rounding, saturation, NaN to 0).
//   half from float: the default and _rte are the hardware's conversion
//   (vcvtps2ph); the directed modes, and every mode from double, round the
//   bits once (vload_half.cl's lanes_float_to_half_<r> and
//   lanes_double_to_half_<r>; double never through float, which would round
//   twice).
//   half from an integer: clamped to +-65536 first (beyond every finite half,
//   where each mode gives the same half for both), then exact as a float
//   and rounded once from it.
// There are no _sat conversions to half (OpenCL C has _sat for integer
// destinations only).
#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define ROUNDINGS(M, ...)                                                                          \
    M(, rte, __VA_ARGS__)                                                                          \
    M(_rte, rte, __VA_ARGS__) M(_rtz, rtz, __VA_ARGS__) M(_rtp, rtp, __VA_ARGS__)                  \
        M(_rtn, rtn, __VA_ARGS__)

// The bit-exact narrowing of vload_half.cl, and conversions.cl's float -> integer.
#define NARROW_DECL(n, k, unused)                                                                  \
    CONST ushort##n lanes_float_to_half_rtz(float##n);                                             \
    CONST ushort##n lanes_float_to_half_rtp(float##n);                                             \
    CONST ushort##n lanes_float_to_half_rtn(float##n);                                             \
    CONST ushort##n lanes_double_to_half_rte(double##n);                                           \
    CONST ushort##n lanes_double_to_half_rtz(double##n);                                           \
    CONST ushort##n lanes_double_to_half_rtp(double##n);                                           \
    CONST ushort##n lanes_double_to_half_rtn(double##n);
FOR_WIDTHS(NARROW_DECL, )

// half from float in mode m: the hardware's for rte, the bits otherwise.
#define FROM_FLOAT_rte(k, x, n) CVT(k, x, half##n)
#define FROM_FLOAT_rtz(k, x, n) as_half##n(lanes_float_to_half_rtz(x))
#define FROM_FLOAT_rtp(k, x, n) as_half##n(lanes_float_to_half_rtp(x))
#define FROM_FLOAT_rtn(k, x, n) as_half##n(lanes_float_to_half_rtn(x))

#define TO_HALF(r, m, n, k)                                                                        \
    CONST half##n convert_half##n##r(half##n x)                                                    \
    {                                                                                              \
        return x;                                                                                  \
    }                                                                                              \
    CONST half##n convert_half##n##r(float##n x)                                                   \
    {                                                                                              \
        return FROM_FLOAT_##m(k, x, n);                                                            \
    }                                                                                              \
    CONST half##n convert_half##n##r(double##n x)                                                  \
    {                                                                                              \
        return as_half##n(lanes_double_to_half_##m(x));                                            \
    }                                                                                              \
    FROM_INT(r, m, n, k, char)                                                                     \
    FROM_INT(r, m, n, k, uchar)                                                                    \
    FROM_INT(r, m, n, k, short)                                                                    \
    FROM_INT(r, m, n, k, ushort)                                                                   \
    FROM_INT(r, m, n, k, int)                                                                      \
    FROM_INT(r, m, n, k, uint) FROM_INT(r, m, n, k, long) FROM_INT(r, m, n, k, ulong)
// The clamp compares in S only where S reaches beyond +-65536.
#define FROM_INT(r, m, n, k, S)                                                                    \
    CONST half##n convert_half##n##r(S##n x)                                                       \
    {                                                                                              \
        S##n c = x;                                                                                \
        if ((float)MAX_##S > 65536.0f)                                                             \
            c = __builtin_elementwise_min(c, (S##n)(S)65536);                                      \
        if ((float)MIN_##S < -65536.0f)                                                            \
            c = __builtin_elementwise_max(c, (S##n)(S)-65536);                                     \
        float##n f = CVT(k, c, float##n);                                                          \
        return FROM_FLOAT_##m(k, f, n);                                                            \
    }

// From half: through float, exact.
#define FROM_HALF(r, m, n, k)                                                                      \
    CONST float##n convert_float##n##r(half##n x)                                                  \
    {                                                                                              \
        return CVT(k, x, float##n);                                                                \
    }                                                                                              \
    CONST double##n convert_double##n##r(half##n x)                                                \
    {                                                                                              \
        return CVT(k, CVT(k, x, float##n), double##n);                                             \
    }                                                                                              \
    TO_INT(r, n, k, char)                                                                          \
    TO_INT(r, n, k, uchar)                                                                         \
    TO_INT(r, n, k, short)                                                                         \
    TO_INT(r, n, k, ushort)                                                                        \
    TO_INT(r, n, k, int) TO_INT(r, n, k, uint) TO_INT(r, n, k, long) TO_INT(r, n, k, ulong)
#define TO_INT(r, n, k, D)                                                                         \
    CONST D##n convert_##D##n##r(float##n);                                                        \
    CONST D##n convert_##D##n##_sat##r(float##n);                                                  \
    CONST D##n convert_##D##n##r(half##n x)                                                        \
    {                                                                                              \
        return convert_##D##n##r(CVT(k, x, float##n));                                             \
    }                                                                                              \
    CONST D##n convert_##D##n##_sat##r(half##n x)                                                  \
    {                                                                                              \
        return convert_##D##n##_sat##r(CVT(k, x, float##n));                                       \
    }

#define HALF_CONVERSIONS(n, k, unused) ROUNDINGS(TO_HALF, n, k) ROUNDINGS(FROM_HALF, n, k)
FOR_WIDTHS(HALF_CONVERSIONS, )
