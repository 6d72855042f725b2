/* SPDX-License-Identifier: MIT */
/* ORC LLJIT for the host CPU: optimizes and compiles launcher modules. */
#ifndef LANES_COMPILER_JIT_H
#define LANES_COMPILER_JIT_H

#include <llvm-c/Types.h>
#include <llvm-c/TargetMachine.h>

/* A target machine for the host CPU (LLVM's host detection); caller disposes. */
LLVMTargetMachineRef lanes_jit_target_machine(void);

/*
 * Stamps the host CPU and its features on every function of `m`, replacing
 * what Clang put there (ARCHITECTURE.md §8: they override the JIT's target).
 */
void lanes_jit_set_host_attributes(LLVMModuleRef m);

/* Runs `pipeline` (e.g. "default<O3>") on `m` for the host; returns 0 or -1 with *error set. */
int lanes_jit_optimize(LLVMModuleRef m, const char *pipeline, char **error);

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
