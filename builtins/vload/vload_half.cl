// SPDX-License-Identifier: MIT
// vload_half, vstore_half and their aligned forms (OpenCL C 3.0 6.15.11),
// for every width, rounding mode and address space. half is a storage format
// here (no cl_khr_fp16): a half is moved as its bits (a ushort) and converted
// with integer vector arithmetic, the same code at every ISA level (x86-64-v2
// has no F16C), so what the tests check on one machine runs on all:
//   half -> float exactly, subnormals through an int -> float conversion,
//   NaNs quiet with their sign and payload;
//   float -> half rounded once in the mode asked for: subnormal halves,
//   overflow to infinity or to HALF_MAX as the mode says, NaNs kept NaN
//   (quiet, with their sign and the high bits of their payload);
//   double -> half the same, rounded once (not through float).
#include "lanes_builtins.h"

#define WIDEN(n, k, unused)                                                                        \
    CONST float##n lanes_half_to_float(ushort##n h)                                                \
    {                                                                                              \
        uint##n u = CVT(k, h, uint##n);                                                            \
        uint##n sign = (u & 0x8000u) << 16, mag = u & 0x7fffu;                                     \
        uint##n normal = (mag << 13) + ((127u - 15u) << 23); /* rebiased exponent */               \
        uint##n sub = as_uint##n(CVT(k, mag, float##n) * 0x1p-24f);                                \
        uint##n special = (mag << 13) | 0x7f800000u; /* infinity, or NaN with its payload */       \
        special |= mag > 0x7c00u ? 0x400000u : 0u;   /* made quiet */                              \
        uint##n r = mag >= 0x7c00u ? special : (mag >= 0x400u ? normal : sub);                     \
        return as_float##n(r | sign);                                                              \
    }                                                                                              \
    NARROW(n, k, rte) NARROW(n, k, rtz) NARROW(n, k, rtp) NARROW(n, k, rtn)

// Whether the truncated magnitude goes up one unit in the last place, given
// the dropped bits `rest`, the weight `mid` of half a unit and the sign bit.
#define ROUND_UP_rte(h0, rest, mid, sign) (rest > mid || (rest == mid && (h0 & 1u) != 0))
#define ROUND_UP_rtz(h0, rest, mid, sign) (rest != rest) /* false, of the right type */
#define ROUND_UP_rtp(h0, rest, mid, sign) (rest != 0u && sign == 0u)
#define ROUND_UP_rtn(h0, rest, mid, sign) (rest != 0u && sign != 0u)

// float -> half bits, rounded in mode r. The magnitude is truncated to the
// half's precision (h0) and the dropped bits kept (rest): a normal half keeps
// the float's top 10 mantissa bits, a subnormal one the significand shifted
// right by 126 - exponent (capped at 25, where everything is dropped and below
// half a unit). Above HALF_MAX's binade, h0 = HALF_MAX and rest is above half:
// the mode then gives infinity or HALF_MAX. A carry out of the mantissa moves
// to the next binade (or to infinity) as the bit layout says it should.
#define NARROW(n, k, r)                                                                            \
    CONST ushort##n lanes_float_to_half_##r(float##n f)                                            \
    {                                                                                              \
        uint##n u = as_uint##n(f);                                                                 \
        uint##n sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu, e = a >> 23;                      \
        uint##n m = e == 0u ? a : (a & 0x7fffffu) | 0x800000u;                                     \
        uint##n one = 1u, sh = (uint##n)126u - __builtin_elementwise_min(e, (uint##n)126u);        \
        sh = __builtin_elementwise_min(sh, (uint##n)25u);                                          \
        uint##n h0 = m >> sh, rest = m & ((one << sh) - 1u), mid = one << (sh - 1u);               \
        int##n normal = a >= 0x38800000u; /* 2^-14 */                                              \
        h0 = normal ? (a >> 13) - (112u << 10) : h0;                                               \
        rest = normal ? a & 0x1fffu : rest;                                                        \
        mid = normal ? 0x1000u : mid;                                                              \
        int##n big = a >= 0x47800000u; /* 2^16 */                                                  \
        h0 = big ? 0x7bffu : h0;                                                                   \
        rest = big ? 2u : rest;                                                                    \
        mid = big ? 1u : mid;                                                                      \
        uint##n h = h0 + (ROUND_UP_##r(h0, rest, mid, sign) ? 1u : 0u);                            \
        uint##n nan = 0x7e00u | ((a >> 13) & 0x3ffu); /* quiet, high payload bits */               \
        h = a >= 0x7f800000u ? (a > 0x7f800000u ? nan : 0x7c00u) : h;                              \
        return CVT(k, h | sign, ushort##n);                                                        \
    }

FOR_WIDTHS(WIDEN, )

// double -> half bits, rounded once in mode r (never through float, which
// would round twice): NARROW's steps on the double's layout. A normal half
// keeps the top 10 of the 52 mantissa bits; a subnormal one the significand
// shifted right by 1051 - exponent, capped at 54 (all dropped, below half).
#define NARROW_DOUBLE(n, k, r)                                                                     \
    CONST ushort##n lanes_double_to_half_##r(double##n f)                                          \
    {                                                                                              \
        ulong##n u = as_ulong##n(f);                                                               \
        ulong##n sign = (u >> 48) & 0x8000ul, a = u & 0x7ffffffffffffffful, e = a >> 52;           \
        ulong##n m = e == 0ul ? a : (a & 0xffffffffffffful) | 0x10000000000000ul;                  \
        ulong##n one = 1ul,                                                                        \
                 sh = (ulong##n)1051ul - __builtin_elementwise_min(e, (ulong##n)1051ul);           \
        sh = __builtin_elementwise_min(sh, (ulong##n)54ul);                                        \
        ulong##n h0 = m >> sh, rest = m & ((one << sh) - 1ul), mid = one << (sh - 1ul);            \
        long##n normal = a >= 0x3f10000000000000ul; /* 2^-14 */                                    \
        h0 = normal ? (a >> 42) - (1008ul << 10) : h0;                                             \
        rest = normal ? a & 0x3fffffffffful : rest;                                                \
        mid = normal ? 0x20000000000ul : mid;                                                      \
        long##n big = a >= 0x40f0000000000000ul; /* 2^16 */                                        \
        h0 = big ? 0x7bfful : h0;                                                                  \
        rest = big ? 2ul : rest;                                                                   \
        mid = big ? 1ul : mid;                                                                     \
        ulong##n h = h0 + (ROUND_UP_##r(h0, rest, mid, sign) ? 1ul : 0ul);                         \
        ulong##n nan = 0x7e00ul | ((a >> 42) & 0x3fful); /* quiet, high payload bits */            \
        h = a >= 0x7ff0000000000000ul ? (a > 0x7ff0000000000000ul ? nan : 0x7c00ul) : h;           \
        return CVT(k, h | sign, ushort##n);                                                        \
    }
#define NARROW_DOUBLES(n, k, unused)                                                               \
    NARROW_DOUBLE(n, k, rte)                                                                       \
    NARROW_DOUBLE(n, k, rtz) NARROW_DOUBLE(n, k, rtp) NARROW_DOUBLE(n, k, rtn)
FOR_WIDTHS(NARROW_DOUBLES, )

// The loads and stores of width n (1 for the scalar) in address space AS.
#define PACKED(n) typedef ushort##n __attribute__((aligned(2))) lanes_packed_ushort##n;
PACKED(2)
PACKED(4)
PACKED(8)
PACKED(16)

// vload_halfn: n halves at p + o n, aligned as a half; vloada_halfn: aligned
// as a halfn, at p + o n (o 4 for n = 3, whose fourth half is not read).
#define LOAD(n, AS)                                                                                \
    OVL float##n vload_half##n(size_t o, const AS half *p)                                         \
    {                                                                                              \
        const AS ushort *q = (const AS ushort *)p + o * n;                                         \
        return lanes_half_to_float(*(const AS lanes_packed_ushort##n *)q);                         \
    }                                                                                              \
    OVL float##n vloada_half##n(size_t o, const AS half *p)                                        \
    {                                                                                              \
        return lanes_half_to_float(*(const AS ushort##n *)((const AS ushort *)p + o * n));         \
    }
#define LOAD1_3(AS)                                                                                \
    OVL float vload_half(size_t o, const AS half *p)                                               \
    {                                                                                              \
        return lanes_half_to_float(((const AS ushort *)p)[o]);                                     \
    }                                                                                              \
    OVL float3 vload_half3(size_t o, const AS half *p)                                             \
    {                                                                                              \
        const AS ushort *q = (const AS ushort *)p + o * 3;                                         \
        return lanes_half_to_float((ushort3)(*(const AS lanes_packed_ushort2 *)q, q[2]));          \
    }                                                                                              \
    OVL float3 vloada_half3(size_t o, const AS half *p)                                            \
    {                                                                                              \
        const AS ushort *q = (const AS ushort *)p + o * 4;                                         \
        return lanes_half_to_float((ushort3)(*(const AS ushort2 *)q, q[2]));                       \
    }
#define LOADS(AS) LOAD1_3(AS) LOAD(2, AS) LOAD(4, AS) LOAD(8, AS) LOAD(16, AS)
LOADS(__global)
LOADS(__local)
LOADS(__constant)
LOADS(__private)
LOADS(__generic)

// vstore_halfn{_r} and vstorea_halfn{_r} of float and double, the suffix-less
// ones rounding to nearest even (the default rounding mode, the only one Lanes
// has).
#define STORE(T, n, AS, r, suffix)                                                                 \
    OVL void vstore_half##n##suffix(T##n v, size_t o, AS half *p)                                  \
    {                                                                                              \
        *(AS lanes_packed_ushort##n *)((AS ushort *)p + o * n) = lanes_##T##_to_half_##r(v);       \
    }                                                                                              \
    OVL void vstorea_half##n##suffix(T##n v, size_t o, AS half *p)                                 \
    {                                                                                              \
        *(AS ushort##n *)((AS ushort *)p + o * n) = lanes_##T##_to_half_##r(v);                    \
    }
#define STORE1_3(T, AS, r, suffix)                                                                 \
    OVL void vstore_half##suffix(T v, size_t o, AS half *p)                                        \
    {                                                                                              \
        ((AS ushort *)p)[o] = lanes_##T##_to_half_##r(v);                                          \
    }                                                                                              \
    OVL void vstore_half3##suffix(T##3 v, size_t o, AS half *p)                                    \
    {                                                                                              \
        ushort3 h = lanes_##T##_to_half_##r(v);                                                    \
        AS ushort *q = (AS ushort *)p + o * 3;                                                     \
        *(AS lanes_packed_ushort2 *)q = h.xy;                                                      \
        q[2] = h.z;                                                                                \
    }                                                                                              \
    OVL void vstorea_half3##suffix(T##3 v, size_t o, AS half *p)                                   \
    {                                                                                              \
        ushort3 h = lanes_##T##_to_half_##r(v);                                                    \
        AS ushort *q = (AS ushort *)p + o * 4;                                                     \
        *(AS ushort2 *)q = h.xy;                                                                   \
        q[2] = h.z;                                                                                \
    }
#define STORES_MODE(T, AS, r, suffix)                                                              \
    STORE1_3(T, AS, r, suffix)                                                                     \
    STORE(T, 2, AS, r, suffix)                                                                     \
    STORE(T, 4, AS, r, suffix) STORE(T, 8, AS, r, suffix) STORE(T, 16, AS, r, suffix)
#define STORES_T(T, AS)                                                                            \
    STORES_MODE(T, AS, rte, )                                                                      \
    STORES_MODE(T, AS, rte, _rte) STORES_MODE(T, AS, rtz, _rtz) STORES_MODE(T, AS, rtp, _rtp)      \
        STORES_MODE(T, AS, rtn, _rtn)
// The double forms (cl_khr_fp64) convert directly, rounding once.
#define STORES(AS) STORES_T(float, AS) STORES_T(double, AS)
STORES(__global)
STORES(__local)
STORES(__private)
STORES(__generic)
