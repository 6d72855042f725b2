/* SPDX-License-Identifier: MIT */
/*
 * Building a launcher (its ABI is compiler/abi.h): one specialization of a
 * kernel for (local size, work_dim, W), compiled for the host and handed
 * to the JIT.
 */
#ifndef LANES_COMPILER_LAUNCHER_H
#define LANES_COMPILER_LAUNCHER_H

#include "abi.h"
#include "program.h"

#include <stdint.h>

/*
 * Compiles kernel `k` of `module` for `spec` and returns its launcher, or
 * NULL with *log saying why (malloc'd). A kernel the vectorizer cannot
 * handle at spec->width runs at width 1: *width_used says which width the
 * launcher runs (may be NULL), and *log then says why (malloc'd, for the
 * build log). *code gets the reference that keeps the launcher's code
 * loaded: give it to lanes_jit_release (compiler/jit.h) when done (NULL:
 * the code stays loaded for the life of the process). Thread-safe.
 */
struct lanes_jit_code;
lanes_launcher_fn lanes_launcher_build(const struct lanes_program_module *module,
                                       const struct lanes_kernel_info *k,
                                       const struct lanes_specialization *spec,
                                       uint32_t *width_used, struct lanes_jit_code **code,
                                       char **log);

#endif
