/* SPDX-License-Identifier: MIT */
/* Printing what kernels wrote with printf. */
#ifndef LANES_RUNTIME_PRINTF_H
#define LANES_RUNTIME_PRINTF_H

#include <stdio.h>

struct lanes_printf_buffer;

/*
 * Formats the records of `buf` (compiler/printf.h) to `out` in the order
 * they were reserved, then flushes `out`. Records of commands completing at
 * once are not interleaved. Thread-safe.
 */
void lanes_printf_flush(const struct lanes_printf_buffer *buf, FILE *out);

#endif
