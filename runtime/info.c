/* SPDX-License-Identifier: MIT */
#include "info.h"

#include <string.h>

cl_int lanes_info_string(struct lanes_info_out out, const char *s)
{
    return lanes_info(out, s, strlen(s) + 1);
}
