/* SPDX-License-Identifier: MIT */
/*
 * The built-in library's byte dot products at the sub-group's width. On a
 * host with VNNI, every dot product of cl_khr_integer_dot_product is the
 * library's code around calls of two functions on one dword
 * (builtins/integer/dot.cl):
 *     int __lanes_dpbusd(int acc, uint a, uint b)   acc + sum(u8(a) * s8(b))
 *     int __lanes_dpbusds(int acc, uint a, uint b)  the same, saturated
 * which the first link leaves out (names.c). The code around them widens
 * like the kernel's; each call becomes vpdpbusd(s) on the lanes' dwords,
 * the instruction's own element, at the widest register of the host's VNNI
 * that divides W: 16 dwords with AVX-512 VNNI, 8 with AVX-VNNI (the same
 * LLVM intrinsic, VEX-encoded without AVX-512).
 */
#include "vz.h"

#include "../host.h"
#include "../names.h"

#include <string.h>

bool vz_dot_form(const char *name, unsigned w, const char **intrinsic, unsigned *chunk)
{
    size_t length = strlen(name), n = 0;
    if (!lanes_name_dot_form(name, length))
        return false;
    bool saturating =
        lanes_mangled_identifier(name, length, &n) && n == sizeof "__lanes_dpbusds" - 1;
    enum lanes_vnni vnni = lanes_host()->vnni;
    unsigned widest = vnni == LANES_VNNI_AVX512 ? 16 : vnni == LANES_VNNI_AVX ? 8 : 0;
    for (unsigned c = widest; c >= 8; c /= 2)
        if (w % c == 0) {
            *chunk = c;
            if (c == 16)
                *intrinsic =
                    saturating ? "llvm.x86.avx512.vpdpbusds.512" : "llvm.x86.avx512.vpdpbusd.512";
            else
                *intrinsic =
                    saturating ? "llvm.x86.avx512.vpdpbusds.256" : "llvm.x86.avx512.vpdpbusd.256";
            return true;
        }
    return false;
}
