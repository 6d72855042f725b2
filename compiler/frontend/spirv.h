/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V programs (clCreateProgramWithIL): the IL goes through Debian's
 * SPIRV-LLVM-Translator 15 run as a helper process (docs/spirv.md says why
 * not in-process), and its LLVM 15 bitcode becomes a module shaped as the
 * Clang bridge's are, which then enters the pipeline as OpenCL C does. The
 * frontend's other half, beside the Clang bridge (frontend.h); C, since it
 * only runs a process and edits IR through the LLVM-C API.
 */
#ifndef LANES_COMPILER_FRONTEND_SPIRV_H
#define LANES_COMPILER_FRONTEND_SPIRV_H

#include <llvm-c/Types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * True when SPIR-V input is on: LANES_SPIRV=1, and the translator found at
 * build time is still there.
 */
bool lanes_spirv_enabled(void);

/*
 * True when `il` starts with the SPIR-V magic number (either byte order),
 * holds at least the 5-word header and is whole words.
 */
bool lanes_spirv_is_spirv(const void *il, size_t size);

/* A specialization constant's value (clSetProgramSpecializationConstant). */
struct lanes_spirv_spec {
    uint32_t id;   /* its SpecId */
    uint32_t size; /* bytes: 1 for a bool */
    char type[4];  /* the translator's name of its type: i1, i8 ... i64, f16, f32, f64 */
    uint64_t bits; /* the value given, in its low `size` bytes */
};

/*
 * Finds the scalar specialization constant `spec_id` of SPIR-V module `il`:
 * true with out->id, size and type set; false when the module has none.
 */
bool lanes_spirv_spec_constant(const void *il, size_t size, uint32_t spec_id,
                               struct lanes_spirv_spec *out);

/* The translator's argument setting `specs` ("--spec-const=..."), malloc'd; NULL when n is 0. */
char *lanes_spirv_spec_arg(const struct lanes_spirv_spec *specs, size_t n);

/*
 * The translator's identity for cache keys, a line of its program's and
 * library's size, modification time and inode (so that an upgrade
 * translates again) in `out`; "" when it is missing.
 */
void lanes_spirv_identity(char out[512]);

/*
 * Translates the SPIR-V module `il` into an LLVM module in `ctx`, its
 * specialization constants set by `spec_arg` (lanes_spirv_spec_arg; NULL:
 * their defaults), retargeted to `triple` and `data_layout` (the host's, as
 * the Clang bridge's modules have) and shaped as the Clang bridge's modules
 * are. Returns 0 with *out set, or -1 with the translator's messages
 * appended to *log (malloc'd).
 */
int lanes_spirv_translate(LLVMContextRef ctx, const void *il, size_t size, const char *spec_arg,
                          const char *triple, const char *data_layout, LLVMModuleRef *out,
                          char **log);

#endif
