/* SPDX-License-Identifier: MIT */
/* The width policy (width.h). */
#include "width.h"

#include <stdlib.h>
#include <string.h>

/* The width LANES_WIDTH forces (0: none), or 1 under LANES_VECTORIZE=0; read once. */
static uint32_t forced_width(void)
{
    static int forced = -1;
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
    }
    return (uint32_t)forced;
}

uint32_t lanes_width_policy(const struct lanes_kernel_info *k, const size_t local[3])
{
    (void)k;
    (void)local;
    uint32_t forced = forced_width();
    return forced ? forced : 1;
}
