// SPDX-License-Identifier: MIT
// Byte dot products (cl_khr_integer_dot_product): four 8-bit products
// summed into 32 bits, of uchar4/char4 in any mix of signedness or of their
// packed uint forms (the first component in the lowest byte, as as_uint
// gives it), and their saturating accumulations. No sum of four products
// overflows 32 bits, so only the accumulation needs to saturate.
//
// With VNNI (the link's __lanes_vnni, compiler/builtins.c) every form is
// made of __lanes_dpbusd/__lanes_dpbusds, vpdpbusd(s) on one dword: acc +
// the sum of unsigned bytes of a times signed bytes of b. The first link
// leaves them out and the vectorizer maps them to the instructions
// (compiler/vectorize/vz_dot.c); at width 1 their bodies (dot_dword.cl)
// run. Without VNNI, the generic code widens like any other.
#include "lanes_builtins.h"

extern __constant int __lanes_vnni;

// vpdpbusd(s) on one dword (dot_dword.cl, a file of their own so that no
// caller here inlines them).
int OVL __lanes_dpbusd(int acc, uint a, uint b) __attribute__((const));
int OVL __lanes_dpbusds(int acc, uint a, uint b) __attribute__((const));

// Signed bytes as unsigned ones biased by 128 (x ^ 0x80 holds x + 128).
#define BIAS 0x80808080u
#define ONES 0x01010101u

static uint dot_uu(uint a, uint b)
{
    if (__lanes_vnni) // a * (b - 128 + 128): b biased down to signed, 128 * sum(a) added back
        return (uint)__lanes_dpbusd(0, a, b ^ BIAS) + (uint)__lanes_dpbusd(0, a, ONES) * 128u;
    uint4 p = convert_uint4(as_uchar4(a)) * convert_uint4(as_uchar4(b));
    return p.x + p.y + p.z + p.w;
}

static int dot_ss(uint a, uint b)
{
    // a * (b + 128), less 128 * sum(a). The correction is on a: a loop over
    // b (weights) against a fixed a (activations) computes it once.
    if (__lanes_vnni)
        return __lanes_dpbusd(0, b ^ BIAS, a) - __lanes_dpbusd(0, ONES, a) * 128;
    int4 p = convert_int4(as_char4(a)) * convert_int4(as_char4(b));
    return p.x + p.y + p.z + p.w;
}

static int dot_us(uint a, uint b)
{
    if (__lanes_vnni)
        return __lanes_dpbusd(0, a, b);
    int4 p = convert_int4(as_uchar4(a)) * convert_int4(as_char4(b));
    return p.x + p.y + p.z + p.w;
}

static int dot_acc_sat_us(uint a, uint b, int acc)
{
    if (__lanes_vnni)
        return __lanes_dpbusds(acc, a, b);
    return add_sat(acc, dot_us(a, b));
}

CONST uint dot(uchar4 a, uchar4 b)
{
    return dot_uu(as_uint(a), as_uint(b));
}
CONST int dot(char4 a, char4 b)
{
    return dot_ss(as_uint(a), as_uint(b));
}
CONST int dot(uchar4 a, char4 b)
{
    return dot_us(as_uint(a), as_uint(b));
}
CONST int dot(char4 a, uchar4 b)
{
    return dot_us(as_uint(b), as_uint(a));
}
CONST uint dot_acc_sat(uchar4 a, uchar4 b, uint acc)
{
    return add_sat(acc, dot_uu(as_uint(a), as_uint(b)));
}
CONST int dot_acc_sat(char4 a, char4 b, int acc)
{
    return add_sat(acc, dot_ss(as_uint(a), as_uint(b)));
}
CONST int dot_acc_sat(uchar4 a, char4 b, int acc)
{
    return dot_acc_sat_us(as_uint(a), as_uint(b), acc);
}
CONST int dot_acc_sat(char4 a, uchar4 b, int acc)
{
    return dot_acc_sat_us(as_uint(b), as_uint(a), acc);
}

CONST uint dot_4x8packed_uu_uint(uint a, uint b)
{
    return dot_uu(a, b);
}
CONST int dot_4x8packed_ss_int(uint a, uint b)
{
    return dot_ss(a, b);
}
CONST int dot_4x8packed_us_int(uint a, uint b)
{
    return dot_us(a, b);
}
CONST int dot_4x8packed_su_int(uint a, uint b)
{
    return dot_us(b, a);
}
CONST uint dot_acc_sat_4x8packed_uu_uint(uint a, uint b, uint acc)
{
    return add_sat(acc, dot_uu(a, b));
}
CONST int dot_acc_sat_4x8packed_ss_int(uint a, uint b, int acc)
{
    return add_sat(acc, dot_ss(a, b));
}
CONST int dot_acc_sat_4x8packed_us_int(uint a, uint b, int acc)
{
    return dot_acc_sat_us(a, b, acc);
}
CONST int dot_acc_sat_4x8packed_su_int(uint a, uint b, int acc)
{
    return dot_acc_sat_us(b, a, acc);
}
