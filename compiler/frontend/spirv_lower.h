/* SPDX-License-Identifier: MIT */
/* SPIR-V 1.4 instructions the translator cannot read, rewritten (spirv_lower.c). */
#ifndef LANES_COMPILER_FRONTEND_SPIRV_LOWER_H
#define LANES_COMPILER_FRONTEND_SPIRV_LOWER_H

#include <stddef.h>
#include <stdint.h>

/*
 * The module `in` (`words` 32-bit words in the host's byte order) with the
 * rewrites of spirv_lower.c: 0 with *out a new module (malloc'd, *out_words
 * long) when anything changed, 0 with *out NULL when nothing needed to (or
 * the module is not one it reads: the translator says why), -1 when out of
 * memory.
 */
int lanes_spirv_lower(const uint32_t *in, size_t words, uint32_t **out, size_t *out_words);

#endif
