/* SPDX-License-Identifier: MIT */
/* ORC LLJIT for the host CPU: compiles launcher modules and loads their code. */
#ifndef LANES_COMPILER_JIT_H
#define LANES_COMPILER_JIT_H

#include <llvm-c/Types.h>
#include <stddef.h>

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

/* The address of `symbol` if some module added it already, else NULL. Thread-safe. */
void *lanes_jit_lookup(const char *symbol);

/* Compiles `m` to an object file for the host (malloc'd bytes), or NULL with *error set. */
void *lanes_jit_emit_object(LLVMModuleRef m, size_t *size, char **error);

/* The host machine code of `m` as assembly text (malloc'd), for LANES_DUMP=asm; NULL on failure. */
char *lanes_jit_emit_assembly(LLVMModuleRef m);

/*
 * Hands object code to the JIT and returns the address of `symbol`, or NULL
 * with *error set (malloc'd). Thread-safe; the bytes are copied.
 */
void *lanes_jit_add_object(const void *object, size_t size, const char *symbol, char **error);

#endif
