/* SPDX-License-Identifier: MIT */
/* Reading the LANES_* environment variables (documented in the README). */
#ifndef LANES_RUNTIME_ENV_H
#define LANES_RUNTIME_ENV_H

#include <stdbool.h>

/* True when `name` is set to anything but "", "0", "no", "off" or "false". */
bool lanes_env_flag(const char *name);

/* The positive integer in `name`, or `fallback` when unset or malformed. */
unsigned long lanes_env_uint(const char *name, unsigned long fallback);

#endif
