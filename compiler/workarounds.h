/* SPDX-License-Identifier: MIT */
/* The LLVM 19 code generation workarounds (workarounds.c says which, and why). */
#ifndef LANES_COMPILER_WORKAROUNDS_H
#define LANES_COMPILER_WORKAROUNDS_H

#include <llvm-c/Types.h>

/*
 * Rewrites the IR forms of `m` that LLVM 19's x86 code generation
 * mishandles into equivalent ones it compiles: run after the last
 * optimization, just before code generation.
 */
void lanes_llvm19_workarounds(LLVMModuleRef m);

/*
 * The most lanes the vectorizer maps SLEEF's vector functions at
 * (sleef_lanes in workarounds.c): wider, the calls stay per lane, and the
 * interleaving rule keeps a kernel that calls them within it.
 */
enum { LANES_LLVM19_SLEEF_LANES = 16 };

#endif
