/* SPDX-License-Identifier: MIT */
/* The width policy: how many work-items a sub-group of a launch has (ARCHITECTURE.md §2). */
#ifndef LANES_COMPILER_WIDTH_H
#define LANES_COMPILER_WIDTH_H

#include "program.h"

#include <stddef.h>
#include <stdint.h>

/*
 * W for kernel `k` launched with local size `local`: one pure function of
 * the kernel, the local size, the host and the LANES_VECTORIZE and
 * LANES_WIDTH variables (read once), used by launches and queries alike.
 * Until the vectorizer is the default, W is 1 unless LANES_WIDTH asks for
 * 8, 16 or 32; LANES_VECTORIZE=0 forces 1.
 */
uint32_t lanes_width_policy(const struct lanes_kernel_info *k, const size_t local[3]);

#endif
