/* SPDX-License-Identifier: MIT */
/* Compiling without letting a compiler crash end the process (compiler/crash_shim.cpp). */
#ifndef LANES_COMPILER_CRASH_H
#define LANES_COMPILER_CRASH_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Runs fn(ctx) on this thread; false if it crashed (a signal such as
 * SIGSEGV, or an LLVM fatal error) and was abandoned where it was. What it
 * was building is then lost (leaked: its state cannot be trusted), and the
 * caller reports the crash as a failed build.
 */
bool lanes_run_safely(void (*fn)(void *), void *ctx);

/*
 * Raises SIGSEGV when the environment variable LANES_CRASH_TEST names
 * `stage` ("compile", "link", "launcher"): how the tests make the compiler
 * crash where a real crash would happen.
 */
void lanes_crash_test(const char *stage);

#ifdef __cplusplus
}
#endif

#endif
