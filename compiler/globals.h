/* SPDX-License-Identifier: MIT */
/*
 * Program-scope variables (OpenCL C 6.10): `global` and `constant`
 * variables at program scope and `static` ones in functions. A program has
 * one instance of each, shared by all its kernels and launches, in one
 * block of memory the runtime allocates per program object. The layout of
 * that block is a pure function of the program's module, so that the
 * program build (its size), the runtime (its initial values) and every
 * launcher (the offsets it adds to wg->globals) agree without storing it.
 * A launcher starts from what its kernel reaches, which holds only some
 * of the variables: they carry their offsets there as marks
 * (lanes_globals_mark), computed from the whole module.
 */
#ifndef LANES_COMPILER_GLOBALS_H
#define LANES_COMPILER_GLOBALS_H

#include <llvm-c/Types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One variable of the block. */
struct lanes_global_var {
    LLVMValueRef var;
    uint64_t offset;
    /*
     * Constant data whose initializer holds no address: where a kernel only
     * reads it, a launcher may read its own copy instead (which O3 folds);
     * nobody can tell the copies apart without comparing addresses.
     */
    bool copyable;
};

struct lanes_globals_layout {
    struct lanes_global_var *vars; /* those in the global address space first */
    size_t count;
    uint64_t size;        /* bytes of the block */
    uint64_t global_size; /* bytes of its first part, the global address space's variables */
    uint64_t align;       /* of the block */
};

/*
 * The variables of `m` that live in the block: every defined variable of
 * the global or constant address space, except Clang's unnamed constants
 * (string and aggregate literals), which join only when a member's
 * initializer points at them or theirs points at a member. Returns 0, or
 * -1 with *error (malloc'd).
 */
int lanes_globals_layout(LLVMModuleRef m, struct lanes_globals_layout *layout, char **error);

void lanes_globals_layout_free(struct lanes_globals_layout *layout);

/*
 * Attaches to every variable of `layout` its offset in the block (metadata
 * that linking and bitcode keep), so that a module holding only some of
 * them, what one kernel reaches (compiler/reach.h), still places each
 * where the program's layout does.
 */
void lanes_globals_mark(const struct lanes_globals_layout *layout);

/*
 * The layout of `m`'s marked variables, at the offsets their marks give,
 * which are removed (size, global_size and align stay 0: the block is the
 * program's). Returns 0, or -1 with *error (malloc'd).
 */
int lanes_globals_from_marks(LLVMModuleRef m, struct lanes_globals_layout *layout, char **error);

/* The entry of `var`, or NULL when it is not in the block. */
const struct lanes_global_var *lanes_globals_find(const struct lanes_globals_layout *layout,
                                                  LLVMValueRef var);

/*
 * Writes every variable's initial value into `block` (layout->size bytes,
 * zeroed, at its final address: pointers to variables are block addresses).
 * With a NULL block, only checks that every initializer can be written.
 * Returns 0, or -1 with *error (malloc'd).
 */
int lanes_globals_write(LLVMModuleRef m, const struct lanes_globals_layout *layout, char *block,
                        char **error);

#endif
