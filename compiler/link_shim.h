/* SPDX-License-Identifier: MIT */
/* LLVM's link-only-needed mode, which the C API does not offer (link_shim.cpp). */
#ifndef LANES_COMPILER_LINK_SHIM_H
#define LANES_COMPILER_LINK_SHIM_H

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Links into `dst` the definitions of `src` (same context; consumed, even on
 * failure) that `dst` references, transitively; their linkage stays as in
 * `src`.
 * `src` may be lazily loaded: only what is linked gets materialized.
 * Definitions whose name `skip` accepts (when given) stay behind: `dst`
 * keeps its declarations of them.
 * Returns 0, or -1 with *error set (malloc'd).
 */
int lanes_link_only_needed(LLVMModuleRef dst, LLVMModuleRef src,
                           bool (*skip)(const char *name, size_t length), char **error);

#ifdef __cplusplus
}
#endif

#endif
