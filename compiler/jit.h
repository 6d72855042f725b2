/* SPDX-License-Identifier: MIT */
/* ORC LLJIT for the host CPU: compiles launcher modules and loads their code. */
#ifndef LANES_COMPILER_JIT_H
#define LANES_COMPILER_JIT_H

#include <llvm-c/Types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A function the JIT's modules may call outside themselves, and its address in this process. */
struct lanes_jit_symbol {
    const char *name;
    void *address;
};

/*
 * Defines `symbols` in the JIT as absolute symbols (created on first use),
 * for the objects added after; returns 0, or -1 with *error set (malloc'd).
 * The names are copied. Thread-safe, but each name may be defined once.
 */
int lanes_jit_define_symbols(const struct lanes_jit_symbol *symbols, size_t count, char **error);

/* Code loaded by lanes_jit_add_object: kept while someone holds a reference. */
struct lanes_jit_code;

/*
 * The code loaded for `symbol`, with one more reference, or NULL when none
 * is loaded. Thread-safe.
 */
struct lanes_jit_code *lanes_jit_acquire(const char *symbol);

/* The address of the symbol `code` was loaded for. */
void *lanes_jit_address(const struct lanes_jit_code *code);

/*
 * The stack `code` may use at once: the sum of its functions' frames, from
 * the object's .stack_sizes section; UINT64_MAX when it has none.
 */
uint64_t lanes_jit_stack_bytes(const struct lanes_jit_code *code);

/* Takes one more reference to `code` (NULL: nothing). Thread-safe. */
void lanes_jit_retain(struct lanes_jit_code *code);

/* Drops a reference (NULL: nothing); the last one unloads the code. Thread-safe. */
void lanes_jit_release(struct lanes_jit_code *code);

/* How many objects are loaded (for tests). */
size_t lanes_jit_loaded(void);

/* How much the code generator optimizes (compiler/host.h's levels). */
enum lanes_codegen {
    /*
     * Without optimization and without jump tables, in time linear in the
     * code (LLVM's optimizing code generator is quadratic in the cases of
     * a switch), for kernels too big for the usual pipeline.
     */
    LANES_CODEGEN_FAST = 0,
    LANES_CODEGEN_FULL = 3,
};

/* Compiles `m` to an object file for the host (malloc'd bytes), or NULL with *error set. */
void *lanes_jit_emit_object(LLVMModuleRef m, enum lanes_codegen level, size_t *size, char **error);

/* The host machine code of `m` as assembly text (malloc'd), for LANES_DUMP=asm; NULL on failure. */
char *lanes_jit_emit_assembly(LLVMModuleRef m);

/*
 * Hands object code defining `symbol` to the JIT and returns it loaded, with
 * one reference (the code already loaded for `symbol`, if another thread
 * loaded it first), or NULL with *error set (malloc'd). Thread-safe; the
 * bytes are copied.
 */
struct lanes_jit_code *lanes_jit_add_object(const void *object, size_t size, const char *symbol,
                                            char **error);

#endif
