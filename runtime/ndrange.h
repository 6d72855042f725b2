/* SPDX-License-Identifier: MIT */
/* Kernel commands: an NDRange's work-groups run on the pool (the launchers: runtime/launchers.h).
 */
#ifndef LANES_RUNTIME_NDRANGE_H
#define LANES_RUNTIME_NDRANGE_H

#include "../compiler/abi.h"
#include "object.h"

#include <pthread.h>
#include <stdatomic.h>

/*
 * The alignment of a command's argument block: the largest ABI alignment of
 * an argument type (long16, double16), which the launcher's loads rely on.
 */
#define LANES_ARGS_ALIGN 128

/* What a kernel command carries: its launcher, argument block and work-group template. */
struct lanes_ndrange {
    /*
     * The launcher of each shape of work-group: fn[0] for whole ones, fn[c]
     * for those cut short in the dimensions of bitmask c (the last
     * work-groups of a non-uniform NDRange); NULL for shapes it has none of.
     */
    lanes_launcher_fn fn[8];
    struct lanes_jit_code *code[8]; /* fn's code, kept loaded until the command ends */
    struct lanes_globals *globals;  /* the program's variables (wg.globals), kept until the end */
    struct lanes_printf_buffer *printf_buffer; /* wg.printf_buffer: printed and freed at the end */
    struct lanes_wg wg; /* group_id, local_size and local_mem are set per work-group */
    size_t local_bytes; /* of __local memory per work-group */
    size_t num_groups;  /* in all dimensions */
    _Alignas(LANES_ARGS_ALIGN) unsigned char args[]; /* the argument block */
};

/* The body of a kernel command: its work-groups run on every worker. */
cl_int lanes_ndrange_run(cl_event command);

#endif
