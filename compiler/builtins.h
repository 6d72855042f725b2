/* SPDX-License-Identifier: MIT */
/* The built-in library (builtins/), embedded in liblanes.so: linked into programs on demand. */
#ifndef LANES_COMPILER_BUILTINS_H
#define LANES_COMPILER_BUILTINS_H

#include <llvm-c/Core.h>
#include <stddef.h>

/*
 * The two links of a specialization (ARCHITECTURE.md §3). The first, before
 * the vectorizer, brings every library function except those the
 * vectorizer maps to a vector form by name (lanes_name_deferred): they
 * stay calls it can see. The second, after it, brings what is left: those
 * functions at width 1, their vector forms (__lanes_sg<W>_*) otherwise.
 */
enum lanes_link_phase { LANES_LINK_FIRST, LANES_LINK_REST };

/*
 * The library's math variants a kernel asks for, from its function
 * attributes (-cl-unsafe-math-optimizations, -cl-finite-math-only,
 * -cl-denorms-are-zero); 0 (the precise ones) for NULL.
 */
unsigned lanes_builtins_math_mode(LLVMValueRef kernel);

/*
 * Links into `m` the library functions it calls, transitively, and nothing
 * else (in the first phase, nothing deferred); they become internal, so
 * that O3 inlines and drops them. The library is the one of the host's ISA
 * level, parsed lazily in m's context: a link reads only the bodies it
 * needs. `math_mode` (lanes_builtins_math_mode) selects the library's
 * variants (compiler/builtins.c). Returns 0, or -1 with *log set (malloc'd).
 */
int lanes_builtins_link(LLVMModuleRef m, unsigned math_mode, enum lanes_link_phase phase,
                        char **log);

/*
 * Reports in *log (appended, malloc'd) every function an executable calls
 * that neither it nor the built-in library defines; returns 0 when there is
 * none, -1 otherwise. OpenCL C's own functions are not overloadable, so
 * their names are not mangled: an unmangled declaration the library lacks
 * is a user function no input defined.
 */
int lanes_builtins_check_undefined(LLVMModuleRef m, char **log);

/* A function the built-in library calls outside itself (SLEEF), and its address. */
struct lanes_runtime_symbol {
    const char *name;
    void *address;
};

/* Every run-time symbol any built-in library may call; the JIT defines them. */
const struct lanes_runtime_symbol *lanes_builtins_runtime_symbols(size_t *count);

/* True when `name` is one of the run-time symbols. */
int lanes_builtins_is_runtime_symbol(const char *name);

#endif
