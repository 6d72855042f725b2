/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V programs (clCreateProgramWithIL): the IL goes through Debian's
 * SPIRV-LLVM-Translator 15 run as a helper process (docs/spirv.md says why
 * not in-process), and its LLVM 15 bitcode becomes a module shaped as the
 * Clang bridge's are, which then enters the pipeline as OpenCL C does.
 */
#ifndef LANES_COMPILER_SPIRV_H
#define LANES_COMPILER_SPIRV_H

#include <llvm-c/Types.h>
#include <stdbool.h>
#include <stddef.h>

/* True when SPIR-V input is on: LANES_SPIRV=1 and a translator was found at build time. */
bool lanes_spirv_enabled(void);

/*
 * True when `il` starts with the SPIR-V magic number (either byte order),
 * holds at least the 5-word header and is whole words.
 */
bool lanes_spirv_is_spirv(const void *il, size_t size);

/*
 * The translator's identity for cache keys, a line of its program's and
 * library's size, modification time and inode (so that an upgrade
 * translates again) in `out`; "" when it is missing.
 */
void lanes_spirv_identity(char out[512]);

/*
 * Translates the SPIR-V module `il` into an LLVM module in `ctx`, retargeted
 * to the host and normalized for the pipeline. Returns 0 with *out set, or
 * -1 with the translator's messages appended to *log.
 */
int lanes_spirv_translate(LLVMContextRef ctx, const void *il, size_t size, LLVMModuleRef *out,
                          char **log);

#endif
