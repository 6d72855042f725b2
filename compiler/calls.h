/* SPDX-License-Identifier: MIT */
/*
 * The call graph of a module's defined functions, walked once: OpenCL C
 * forbids recursion, so a cycle is an error that names its functions; and
 * whether a function reaches printf is known with each function visited
 * once (a walk of every call path takes exponential time when callees are
 * shared, and never ends on a cycle).
 */
#ifndef LANES_COMPILER_CALLS_H
#define LANES_COMPILER_CALLS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

struct lanes_calls;

/* The call graph of `m` (direct calls between its functions); NULL when out of memory. */
struct lanes_calls *lanes_calls_of(LLVMModuleRef m);

void lanes_calls_free(struct lanes_calls *c);

/*
 * The log lines naming each cycle of calls ("error: recursion ...: f -> g
 * -> f"), or NULL when there is none. Owned by `c`.
 */
const char *lanes_calls_recursion(const struct lanes_calls *c);

/* True when `f`, a function of the module, calls printf itself or through its callees. */
bool lanes_calls_reach_printf(const struct lanes_calls *c, LLVMValueRef f);

#endif
