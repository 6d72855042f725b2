/* SPDX-License-Identifier: MIT */
/*
 * Building a launcher (its ABI is compiler/abi.h): one specialization of a
 * kernel for (local size, work_dim, W), compiled for the host and handed
 * to the JIT.
 */
#ifndef LANES_COMPILER_LAUNCHER_H
#define LANES_COMPILER_LAUNCHER_H

#include "abi.h"
#include "module.h"

#include <stdint.h>

/* A launcher built, and what its caller needs to know about it. */
struct lanes_jit_code;
struct lanes_launcher {
    lanes_launcher_fn fn;
    uint32_t width;       /* the width it runs: spec->width, or 1 (see below) */
    uint64_t stack_bytes; /* the stack it may use (its frames, callees included) */
    /* The reference that keeps fn's code loaded: give it to lanes_jit_release (compiler/jit.h). */
    struct lanes_jit_code *code;
};

/*
 * Compiles kernel `k` of `module` for `spec`, fills *out and returns
 * out->fn, or NULL with *log saying why (malloc'd). A kernel the
 * vectorizer cannot handle at spec->width, or whose private memory at that
 * width needs more stack than a worker thread has, runs at width 1:
 * out->width says which width the launcher runs, and *log then says why
 * (malloc'd, for the build log). Thread-safe.
 */
lanes_launcher_fn lanes_launcher_build(const struct lanes_program_module *module,
                                       const struct lanes_kernel_info *k,
                                       const struct lanes_specialization *spec,
                                       struct lanes_launcher *out, char **log);

/*
 * Unless a launcher was optimized in this process already, compiles a small
 * function with the pipelines and code generator that launchers use, for
 * nothing: LLVM's function-local statics are then constructed, and their
 * destructors registered as exit handlers, before whatever the caller
 * registers next (runtime/ndrange.c's background compiler registers its
 * exit handler after it, so that a compile running at exit finishes before
 * those statics go).
 */
void lanes_launcher_warm_up(void);

/*
 * lanes_launcher_build, except that it never compiles: the launcher comes
 * from this process's JIT or the disk cache, or NULL with *log NULL when
 * neither has it (*log non-NULL: it failed, as lanes_launcher_build would).
 */
lanes_launcher_fn lanes_launcher_load(const struct lanes_program_module *module,
                                      const struct lanes_kernel_info *k,
                                      const struct lanes_specialization *spec,
                                      struct lanes_launcher *out, char **log);

#endif
