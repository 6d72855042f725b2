/* SPDX-License-Identifier: MIT */
/* Diagnostics for refused API calls, printed when LANES_DEBUG is set. */
#include "check.h"
#include "env.h"

#include <stdio.h>

void lanes_refuse(const char *func, const char *error, const char *reason)
{
    if (lanes_env_flag("LANES_DEBUG"))
        fprintf(stderr, "lanes: %s: %s: %s\n", func, error, reason);
}
