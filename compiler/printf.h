/* SPDX-License-Identifier: MIT */
/*
 * printf in kernels: the compiler turns each call into stores of its
 * arguments into the command's printf buffer (compiler/printf.c), and the
 * runtime formats the records when the command completes (runtime/printf.c).
 * This header is the record layout they share.
 *
 * The buffer: a struct lanes_printf_buffer of `capacity` data bytes. A call
 * reserves its record with an atomic add on `used`; a record that does not
 * fit is dropped and that call returns -1 (the others return 0). Records of
 * one work-item are in its program order, so its output is too.
 *
 * A record, every field 8-byte aligned:
 *     uint32_t size        bytes of the whole record, header included
 *     uint32_t num_args
 *     uint64_t format      address of the NUL-terminated format string
 *     then per argument: uint32_t tag (LANES_PRINTF_TAG), uint32_t 0, and
 *     `count` elements of `elem_size` bytes, padded to 8 bytes.
 * Pointers (%s and %p) are stored as 8-byte addresses; the runtime reads a
 * %s string at flush time, when the program and the command's buffers are
 * still alive.
 */
#ifndef LANES_COMPILER_PRINTF_H
#define LANES_COMPILER_PRINTF_H

#include <stdint.h>

struct lanes_printf_buffer {
    uint64_t used; /* bytes of `data` reserved so far; may exceed capacity */
    uint64_t capacity;
    _Alignas(8) char data[];
};

enum lanes_printf_kind {
    LANES_PRINTF_INT = 1,     /* signed or unsigned: the conversion decides */
    LANES_PRINTF_FLOAT = 2,   /* IEEE binary16, 32 or 64 by elem_size */
    LANES_PRINTF_POINTER = 3, /* an address */
};

#define LANES_PRINTF_TAG(kind, elem_size, count)                                                   \
    ((uint32_t)(kind) << 24 | (uint32_t)(elem_size) << 16 | (uint32_t)(count))
#define LANES_PRINTF_TAG_KIND(tag) ((tag) >> 24)
#define LANES_PRINTF_TAG_SIZE(tag) (((tag) >> 16) & 0xff)
#define LANES_PRINTF_TAG_COUNT(tag) ((tag)&0xffff)

enum { LANES_PRINTF_USED = 0, LANES_PRINTF_CAPACITY = 8, LANES_PRINTF_DATA = 16 };

#endif
