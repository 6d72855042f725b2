/* SPDX-License-Identifier: MIT */
/*
 * A program module's life outside the compiler's build and link
 * (compiler/modules.c): made from bitcode, its variables' first values
 * written, freed; and what a build shares with it, its variables read and
 * its digest.
 */
#ifndef LANES_COMPILER_MODULES_H
#define LANES_COMPILER_MODULES_H

#include "module.h"

#include <llvm-c/Types.h>

/* A module from bitcode of a previous build (kernel metadata read back); NULL if unreadable. */
struct lanes_program_module *lanes_program_module_from_bitcode(const void *bitcode, size_t size);

/*
 * Writes the initial values of `m`'s program-scope variables into `block`
 * (m->globals_size bytes, zeroed, aligned to m->globals_align): done once
 * per program object, at the block's final address. Returns 0, or -1 with
 * *error (malloc'd, a build log line).
 */
int lanes_program_init_globals(const struct lanes_program_module *m, void *block, char **error);

/* Frees a module and everything in it. */
void lanes_program_module_free(struct lanes_program_module *m);

/*
 * Reads the layout of `m`'s program-scope variables into pm (an
 * executable's are also checked: every one it uses defined, within the
 * device's limit, its initializer writable). Returns 0, or -1 with lines
 * appended to *log.
 */
int lanes_module_read_globals(LLVMModuleRef m, struct lanes_program_module *pm, bool executable,
                              char **log);

/* The digest of pm's bitcode, computed once: every launcher's key starts from it. */
void lanes_module_digest(struct lanes_program_module *pm);

/* Adds a line to a malloc'd build log (kept as it was when out of memory). */
void lanes_log_append(char **log, const char *line);

#endif
