/* SPDX-License-Identifier: MIT */
/*
 * The program binary container (CL_PROGRAM_BINARIES, clCreateProgramWithBinary
 * and the disk cache). Little-endian, fixed layout:
 *
 *   offset  size  field
 *   0       8     magic "LANESBC\0"
 *   8       4     format version (LANES_BINARY_VERSION)
 *   12      4     cl_program_binary_type
 *   16      4     flags: bit 0 = built with -cl-kernel-arg-info,
 *                 bit 1 = work-groups must be uniform (OpenCL C 1.x, -cl-uniform-work-group-size)
 *   20      4     reserved, 0
 *   24      16    Lanes version string, NUL-padded
 *   40      96    ISA key of the host that built it (compiler/host.h), NUL-padded
 *   136     8     size of the bitcode in bytes
 *   144     32    SHA-256 of the bitcode
 *   176     n     the program module as LLVM bitcode
 *
 * Kernel metadata is not stored twice: it is read back from the bitcode.
 */
#ifndef LANES_COMPILER_BINARY_H
#define LANES_COMPILER_BINARY_H

#include "module.h"

#include <stdbool.h>

#define LANES_BINARY_VERSION 2

/* What a binary says besides its module. */
struct lanes_binary_info {
    cl_program_binary_type type;
    bool kernel_arg_info;
    bool uniform_work_groups;
};

/* Serializes a module; returns a malloc'd container of *size bytes, or NULL. */
void *lanes_binary_encode(const struct lanes_program_module *m, struct lanes_binary_info info,
                          size_t *size);

/*
 * Checks and reads a container. Returns the module, or NULL with `*reason`
 * saying why (garbage, truncated, another format, Lanes version or ISA).
 */
struct lanes_program_module *lanes_binary_decode(const void *data, size_t size,
                                                 struct lanes_binary_info *info,
                                                 const char **reason);

#endif
