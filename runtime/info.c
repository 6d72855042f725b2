/* SPDX-License-Identifier: MIT */
#include "info.h"

#include "check.h"

#include <string.h>

cl_int lanes_info(struct lanes_info_out out, const void *src, size_t size)
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

cl_int lanes_info_string(struct lanes_info_out out, const char *s)
{
    return lanes_info(out, s, strlen(s) + 1);
}
