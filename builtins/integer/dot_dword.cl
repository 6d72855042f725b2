// SPDX-License-Identifier: MIT
// The byte dot products of one dword that dot.cl calls on a host with VNNI:
// what vpdpbusd and vpdpbusds compute in each dword, for width 1 and for
// lanes the vectorizer leaves to one call each. In a file of their own, so
// that the library's -O2 does not inline them into dot.cl's callers: the
// vectorizer must see the calls (compiler/vectorize/vz_dot.c).
#include "lanes_builtins.h"

// acc + the sum of the unsigned bytes of a times the signed bytes of b, wrapping.
CONST int __lanes_dpbusd(int acc, uint a, uint b)
{
    int4 p = convert_int4(as_uchar4(a)) * convert_int4(as_char4(b));
    return (int)((uint)acc + (uint)(p.x + p.y + p.z + p.w));
}

// The same, saturated to int.
CONST int __lanes_dpbusds(int acc, uint a, uint b)
{
    int4 p = convert_int4(as_uchar4(a)) * convert_int4(as_char4(b));
    return add_sat(acc, p.x + p.y + p.z + p.w);
}

