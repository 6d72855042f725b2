/* SPDX-License-Identifier: MIT */
#include "env.h"

#include <errno.h>
#include <stdlib.h>
#include <strings.h>

bool lanes_env_flag(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return false;
    return strcasecmp(v, "0") != 0 && strcasecmp(v, "no") != 0 && strcasecmp(v, "off") != 0 &&
           strcasecmp(v, "false") != 0;
}

unsigned long lanes_env_uint(const char *name, unsigned long fallback)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (errno || *end || n == 0 || v[0] == '-')
        return fallback;
    return n;
}
