/* SPDX-License-Identifier: MIT */
/* The width policy (width.h). */
#include "width.h"

#include "host.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/*
 * The width LANES_WIDTH forces (0: none), or 1 under LANES_VECTORIZE=0;
 * read once (threads that race to read it first store the same value).
 */
static uint32_t forced_width(void)
{
    static atomic_int cached = -1;
    int forced = atomic_load_explicit(&cached, memory_order_relaxed);
    if (forced < 0) {
        const char *v = getenv("LANES_VECTORIZE");
        const char *w = getenv("LANES_WIDTH");
        int n = w ? atoi(w) : 0;
        if (v && strcmp(v, "0") == 0)
            forced = 1;
        else if (n == 1 || n == 8 || n == 16 || n == 32)
            forced = n;
        else
            forced = 0;
        atomic_store_explicit(&cached, forced, memory_order_relaxed);
    }
    return (uint32_t)forced;
}

uint32_t lanes_preferred_width(void)
{
    uint32_t forced = forced_width();
    if (forced)
        return forced;
    /* One AVX-512 register of floats, or one AVX2 register (two SSE ones). */
    return lanes_host()->isa == LANES_ISA_AVX512 ? 16 : 8;
}

uint32_t lanes_width_policy(const struct lanes_kernel_info *k, const size_t local[3])
{
    uint32_t forced = forced_width();
    if (forced)
        return forced;
    if (k && lanes_sub_group_size_offered(k->reqd_sub_group_size))
        return k->reqd_sub_group_size;
    /*
     * A work-group of one work-item is one sub-group of one work-item at any
     * width: width 1 runs it without W - 1 idle lanes (hashcat launches its
     * kernels so on CPUs; at width 16 its MD5 ran 25 times slower).
     */
    if (local && local[0] * local[1] * local[2] == 1)
        return 1;
    uint32_t w = lanes_preferred_width();
    /* The widest width that divides a row, so that no sub-group straddles two. */
    for (uint32_t n = w; local && n >= 8; n /= 2)
        if (local[0] % n == 0)
            return n;
    return w; /* none does: sub-groups straddle rows */
}

uint32_t lanes_min_width(void)
{
    uint32_t forced = forced_width();
    return forced ? forced : 8;
}

bool lanes_width_forced(void)
{
    return forced_width() != 0;
}

unsigned lanes_sub_group_sizes(size_t out[3])
{
    /* 32 lanes fill two AVX-512 registers of floats; with AVX2 it would take four. */
    unsigned n = 0;
    out[n++] = 8;
    out[n++] = 16;
    if (lanes_host()->isa == LANES_ISA_AVX512)
        out[n++] = 32;
    return n;
}

bool lanes_sub_group_size_offered(size_t n)
{
    size_t sizes[3];
    unsigned count = lanes_sub_group_sizes(sizes);
    for (unsigned i = 0; i < count; i++)
        if (sizes[i] == n)
            return true;
    return false;
}

enum lanes_half_arithmetic lanes_half_arithmetic(void)
{
    const struct lanes_host *h = lanes_host();
    if (h->isa == LANES_ISA_AVX512 && h->avx512fp16)
        return LANES_HALF_NATIVE;
    /*
     * Without F16C, LLVM converts through run-time library calls
     * (__extendhfsf2, __truncsfhf2) the JIT does not provide.
     */
    return h->f16c ? LANES_HALF_VIA_FLOAT : LANES_HALF_NONE;
}
