/* SPDX-License-Identifier: MIT */
/*
 * A launcher's compile, as one list of stages (compiler/pipeline.c): what
 * the kernel reaches specialized, vectorized and lowered, the built-in
 * library linked, the launcher emitted, optimized for the host, the LLVM 19
 * workarounds, code generation.
 */
#ifndef LANES_COMPILER_PIPELINE_H
#define LANES_COMPILER_PIPELINE_H

#include "abi.h"
#include "cache.h"
#include "module.h"

#include <stdbool.h>
#include <stddef.h>

/*
 * A launcher's code, named by what it is made of: the module about to be
 * optimized (the kernel's reach, library and launcher) and how it is
 * compiled. Programs that differ in source but not in that module (the
 * CTS builds its kernels once per memory scope and order, which the CPU's
 * atomics do not tell apart; a kernel in two programs that differ in
 * their other kernels) share one compile and one copy of the code.
 */
struct lanes_code {
    struct lanes_cache_key key;
    char name[64]; /* the launcher's symbol: "lanes.code." and the key's first 16 bytes */
};

/* Names c->name after c->key. */
void lanes_code_name(struct lanes_code *c);

/* What the pipeline found or made. */
struct lanes_jit_code;
struct lanes_compiled {
    struct lanes_code code;
    struct lanes_jit_code *loaded; /* the same code, loaded already in this process */
    void *object;                  /* or its object code, from the disk cache or compiled */
    size_t size;
    bool cached; /* the object came from the disk cache */
};

/*
 * Runs the stages for kernel `k` of `module` and `spec`: the launcher's
 * code, loaded already or in the disk cache once the module to optimize is
 * known, else optimized and compiled. False with *log (malloc'd) saying
 * why; *refused is then set when it is the vectorizer that cannot take the
 * kernel (it still runs at width 1). LANES_DUMP=after:<stage> prints the
 * module after a stage, `verify` verifies it after each, `time` the time
 * they took.
 */
bool lanes_pipeline_run(const struct lanes_program_module *module,
                        const struct lanes_kernel_info *k, const struct lanes_specialization *spec,
                        struct lanes_compiled *out, bool *refused, char **log);

/* Whether a launcher went through LLVM's optimizer in this process (lanes_launcher_warm_up). */
bool lanes_pipeline_optimized_here(void);
void lanes_pipeline_set_optimized_here(void);

#endif
