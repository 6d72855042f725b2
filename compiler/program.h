/* SPDX-License-Identifier: MIT */
/*
 * Building program modules (compiler/modules.h says what one holds) from
 * OpenCL C source, and linking them. The runtime sees only this interface,
 * never IR.
 */
#ifndef LANES_COMPILER_PROGRAM_H
#define LANES_COMPILER_PROGRAM_H

#include "modules.h"
#include "options.h"

#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Compiles `source` with parsed `options` into a program module. Returns
 * NULL on failure; `*log` receives the diagnostics either way (malloc'd).
 */
struct lanes_program_module *lanes_program_build(const char *source, size_t size,
                                                 const struct lanes_options *options,
                                                 const struct lanes_language *language, char **log);

struct lanes_frontend_file;

struct lanes_spirv_spec;

/*
 * Builds a SPIR-V module (clCreateProgramWithIL) as lanes_program_compile
 * builds source: through the SPIR-V translator (compiler/frontend/spirv.h) instead
 * of Clang, with the values of its specialization constants in `specs`.
 * NULL on failure, with the translator's messages in *log.
 */
struct lanes_program_module *
lanes_program_compile_il(const void *il, size_t size, const struct lanes_spirv_spec *specs,
                         size_t num_specs, const struct lanes_options *options,
                         const struct lanes_language *language, bool executable, char **log);

/*
 * Compiles `source` with its in-memory `headers` (clCompileProgram's input
 * headers). `executable` says the module is a program of its own (its
 * variables are made internal) rather than an object to link.
 */
struct lanes_program_module *
lanes_program_compile(const char *source, size_t size, const struct lanes_frontend_file *headers,
                      size_t num_headers, const struct lanes_options *options,
                      const struct lanes_language *language, bool executable, char **log);

/*
 * Links compiled objects and libraries into one module (an executable unless
 * `executable` is false, for -create-library), applying the math options of
 * `options` (may be NULL) to every function an executable defines, except
 * those of a library made without -enable-link-options. NULL with the
 * linker's messages in *log (malloc'd) on failure.
 */
struct lanes_program_module *lanes_program_link(const struct lanes_program_module *const *inputs,
                                                size_t n, bool executable,
                                                const struct lanes_options *options, char **log);

#endif
