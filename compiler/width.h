/* SPDX-License-Identifier: MIT */
/* The width policy: how many work-items a sub-group of a launch has (ARCHITECTURE.md §2). */
#ifndef LANES_COMPILER_WIDTH_H
#define LANES_COMPILER_WIDTH_H

#include "module.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * W for kernel `k` launched with local size `local`: one pure function of
 * the kernel, the local size, the host and the LANES_VECTORIZE and
 * LANES_WIDTH variables (read once), used by launches and queries alike.
 * LANES_VECTORIZE=0 forces 1, LANES_WIDTH=1|8|16|32 that width. Otherwise
 * the kernel's intel_reqd_sub_group_size wins; else 1 for a work-group of
 * one work-item (a sub-group of one at any width); else the preferred width,
 * lowered to the widest of 16 and 8 that divides local[0] (so that
 * sub-groups do not straddle rows), or kept when none does. `local` NULL:
 * the preferred width.
 */
uint32_t lanes_width_policy(const struct lanes_kernel_info *k, const size_t local[3]);

/* The width of the host's vectors: 16 with AVX-512, else 8 (or the forced width). */
uint32_t lanes_preferred_width(void);

/* The narrowest width the policy may choose: 8 (or the forced width). */
uint32_t lanes_min_width(void);

/* True when LANES_WIDTH (or LANES_VECTORIZE=0) sets every launch's width. */
bool lanes_width_forced(void);

/*
 * The sub-group sizes a kernel may require (intel_reqd_sub_group_size,
 * CL_DEVICE_SUB_GROUP_SIZES_INTEL): 8, 16 and 32 with AVX-512, 8 and 16
 * otherwise; written to out[0..2], their number returned.
 */
unsigned lanes_sub_group_sizes(size_t out[3]);

/* Whether a kernel may require sub-groups of n work-items. */
bool lanes_sub_group_size_offered(size_t n);

/* How the host computes half precision (cl_khr_fp16). */
enum lanes_half_arithmetic {
    LANES_HALF_NONE,      /* no hardware conversions: the device offers no half */
    LANES_HALF_VIA_FLOAT, /* F16C: each operation in float, rounded once to half */
    LANES_HALF_NATIVE,    /* AVX-512 FP16: half vectors in hardware */
};

/*
 * The host's way to half precision, decided here beside the width policy
 * from its features. LLVM's x86 code generator does either by itself from
 * the same features: without AVX-512 FP16 it promotes every half operation
 * (+ - * / sqrt, comparisons) to float and rounds the result to half, which
 * is correctly rounded since float has at least 2 * 11 + 2 bits.
 */
enum lanes_half_arithmetic lanes_half_arithmetic(void);

#endif
