/* SPDX-License-Identifier: MIT */
/* The param_value / param_value_size protocol of every clGet*Info entry. */
#ifndef LANES_RUNTIME_INFO_H
#define LANES_RUNTIME_INFO_H

#include "check.h"

#include <CL/cl.h>
#include <stddef.h>
#include <string.h>

/* Where a clGet*Info entry writes its answer. */
struct lanes_info_out {
    size_t size;
    void *value;
    size_t *size_ret;
};

/*
 * Answers a query with `size` bytes at `src`: reports the size, and copies
 * the bytes when a buffer is given; CL_INVALID_VALUE when it is too small.
 * Inline, so that an answer of a constant size is a store: called out of
 * line, passing `out` and copying a few bytes cost more than the rest of a
 * query (a store-forwarding stall on the struct, a call to memcpy).
 */
static inline cl_int lanes_info(struct lanes_info_out out, const void *src, size_t size)
{
    if (out.size_ret)
        *out.size_ret = size;
    if (!out.value)
        return CL_SUCCESS;
    LANES_CHECK(out.size >= size, CL_INVALID_VALUE, "param_value_size is smaller than the answer");
    if (size)
        memcpy(out.value, src, size);
    return CL_SUCCESS;
}

/* Answers with a NUL-terminated string. */
cl_int lanes_info_string(struct lanes_info_out out, const char *s);

/* Answers with one value of `type`, e.g. LANES_INFO(out, cl_uint, 3). */
#define LANES_INFO(out, type, v) lanes_info((out), &(type){v}, sizeof(type))

#endif
