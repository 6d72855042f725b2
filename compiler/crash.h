/* SPDX-License-Identifier: MIT */
/* Compiling without letting a compiler crash end the process (compiler/crash_shim.cpp). */
#ifndef LANES_COMPILER_CRASH_H
#define LANES_COMPILER_CRASH_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Runs fn(ctx) on this thread; true if it returned. False if it crashed (a
 * signal such as SIGSEGV, or an LLVM fatal error) and was abandoned where it
 * was: `what` (if not NULL) then names the crash, as "SIGSEGV" or "an LLVM
 * fatal error (exit code 1)". What it was building is lost (leaked: its
 * state cannot be trusted), and the caller reports the crash as a failed
 * build.
 */
bool lanes_run_safely(void (*fn)(void *), void *ctx, char what[64]);

/*
 * `what` when lanes_run_safely did not run fn because the process is
 * exiting: from an exit handler that runs before LLVM's own on, compiles
 * wait for those running and then fail (compiler/crash_shim.cpp).
 */
#define LANES_RUN_EXITING "exit"

/*
 * Whether a compile ran to its end in this process: LLVM's and Clang's
 * statics are then made, and lanes_compiles_stop runs at exit before their
 * destructors. Until then an asynchronous build runs on the caller's
 * thread (runtime/build.c).
 */
bool lanes_compiled_once(void);

/*
 * Waits for the compiles running on other threads; any later one fails
 * (LANES_RUN_EXITING). For exit handlers and the library's unloading.
 */
void lanes_compiles_stop(void);

/*
 * Raises SIGSEGV when the environment variable LANES_CRASH_TEST names
 * `stage` ("compile", "link", "launcher", "reach"): how the tests make the compiler
 * crash where a real crash would happen.
 */
void lanes_crash_test(const char *stage);

#ifdef __cplusplus
}
#endif

#endif
