/* SPDX-License-Identifier: MIT */
/*
 * The built-in library's math at the sub-group's width. After the first
 * link, a math built-in of the kernel is the library's scalar code around
 * a call of SLEEF (builtins/include/lanes_math.h), e.g.
 *     Sleef_finz_sinf1_u10purecfma(float)
 * The code around it widens like the kernel's own; the call is replaced by
 * SLEEF's vector code of the same function and accuracy, at the widest
 * width of the host's level that fits in W, called W / width times:
 *     Sleef_finz_sinf16_u10avx512f(<16 x float>)
 * SLEEF's deterministic entry points (finz, cinz) give each element the
 * result the scalar code gives it, so a kernel's bits do not depend on W.
 * Only names the library itself calls are produced (its run-time symbol
 * table), and each at the vector ABI of the host's level, which is the
 * IR type <N x T> by value: the JIT resolves them like the library's own.
 */
#include "vz.h"

#include "../builtins.h"
#include "../host.h"
#include "../workarounds.h"

#include <stdio.h>
#include <string.h>

/* SLEEF's vector code of one level, widest first. */
struct sleef_width {
    char type; /* 'f' or 'd' */
    unsigned width;
    const char *isa;
};

static const struct sleef_width avx512[] = {
    {'f', 16, "avx512f"}, {'f', 8, "avx2"}, {'f', 4, "avx2128"},
    {'d', 8, "avx512f"},  {'d', 4, "avx2"}, {'d', 2, "avx2128"},
};
static const struct sleef_width avx2[] = {
    {'f', 8, "avx2"},
    {'f', 4, "avx2128"},
    {'d', 4, "avx2"},
    {'d', 2, "avx2128"},
};
static const struct sleef_width sse[] = {{'f', 4, "sse2"}, {'d', 2, "sse2"}};

/* The ISA suffixes of SLEEF's names the library uses, longest first where one ends another. */
static const char *const isas[] = {"purecfma", "purec", "avx512f", "avx2128", "avx2", "sse2"};

/* True when s[0, n) ends with `suffix`. */
static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

bool vz_math_form(const char *name, unsigned w, char *out, size_t size, unsigned *chunk)
{
    /* Wider, LLVM 19's instruction selection may take minutes (compiler/workarounds.c). */
    if (w > LANES_LLVM19_SLEEF_LANES)
        return false;
    static const char finz[] = "Sleef_finz_", cinz[] = "Sleef_cinz_";
    size_t plen = sizeof finz - 1;
    if (strncmp(name, finz, plen) != 0 && strncmp(name, cinz, plen) != 0)
        return false;
    /* <function><type><width>_<accuracy><isa>: the last '_' ends the width. */
    const char *us = strrchr(name, '_');
    if (!us || us < name + plen + 2)
        return false;
    const char *tail = us + 1;
    size_t tail_length = strlen(tail), accuracy = 0;
    bool known = false;
    for (size_t k = 0; k < sizeof isas / sizeof *isas && !known; k++)
        if (ends_with(tail, tail_length, isas[k])) {
            accuracy = tail_length - strlen(isas[k]);
            known = true;
        }
    const char *digits = us;
    while (digits > name + plen && digits[-1] >= '0' && digits[-1] <= '9')
        digits--;
    if (!known || digits == us || digits - 1 <= name + plen)
        return false;
    char type = digits[-1];
    const char *stem = name + plen;
    int stem_length = (int)(digits - 1 - stem);
    const struct sleef_width *table = sse;
    size_t count = sizeof sse / sizeof *sse;
    enum lanes_isa isa = lanes_host()->isa;
    if (isa == LANES_ISA_AVX512)
        table = avx512, count = sizeof avx512 / sizeof *avx512;
    else if (isa == LANES_ISA_AVX2)
        table = avx2, count = sizeof avx2 / sizeof *avx2;
    for (size_t k = 0; k < count; k++) {
        if (table[k].type != type || table[k].width > w || w % table[k].width != 0)
            continue;
        int n = snprintf(out, size, "%.*s%.*s%c%u_%.*s%s", (int)plen, name, stem_length, stem, type,
                         table[k].width, (int)accuracy, tail, table[k].isa);
        if (n > 0 && (size_t)n < size && lanes_builtins_is_runtime_symbol(out)) {
            *chunk = table[k].width;
            return true;
        }
    }
    return false;
}
