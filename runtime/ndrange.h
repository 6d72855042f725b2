/* SPDX-License-Identifier: MIT */
/* Kernel commands: launchers per specialization, and running an NDRange on the pool. */
#ifndef LANES_RUNTIME_NDRANGE_H
#define LANES_RUNTIME_NDRANGE_H

#include "../compiler/launcher.h"
#include "object.h"

#include <pthread.h>
#include <stdatomic.h>

/*
 * One specialization of a kernel of a program, kept by the program in a
 * list that only grows (until the program is freed or built again): readers
 * walk it without a lock. `build` is held while the launcher compiles, so
 * that one thread compiles it and the others that need it wait, while the
 * rest of the program (its queries, other specializations) goes on.
 */
struct lanes_launcher_entry {
    struct lanes_launcher_entry *next;
    const struct lanes_kernel_info *kernel;
    struct lanes_specialization spec;
    pthread_mutex_t build;
    atomic_int ready; /* launcher is set (release); 0 before, or after a failure */
    /* Tiers (lanes_ndrange_launch_launcher): launches that ran tier 0 for it, and its state. */
    atomic_uint uses;
    atomic_bool not_cached; /* neither this process nor the disk cache had it */
    atomic_bool queued;     /* handed to the background compiler */
    /* Its width is spec.width, or 1 when the vectorizer refused; its code reference is ours. */
    struct lanes_launcher launcher;
};

/*
 * The launcher of `kernel` for `spec`: compiled at its first use, then taken
 * from the program's list (valid while the program lives). NULL when it
 * cannot be built; the reason is appended to the program's build log (a
 * later call tries again). Thread-safe; a launcher already built is found
 * without taking a lock.
 */
const struct lanes_launcher *lanes_ndrange_launcher(cl_program program,
                                                    const struct lanes_kernel_info *kernel,
                                                    const struct lanes_specialization *spec);

/*
 * The launcher a launch of `spec` runs now. A shape's own launcher when it
 * is built (here, in an earlier process or in the background); otherwise,
 * at once, the kernel's launcher of every local size (tier 0: spec with
 * `dynamic` set, compiled once per kernel, W, work_dim, small_ids and rows),
 * and the shape's own is compiled in the background once the shape
 * launches again. Both give the same results: the same code at the same
 * W, with the sizes constant in one and read at run time in the other.
 * LANES_TIER=1 compiles every shape's own launcher before its first
 * launch, as lanes_ndrange_launcher does; LANES_TIER=0 runs tier 0 only
 * (for tests). *tier0 says which ran. NULL as lanes_ndrange_launcher.
 */
const struct lanes_launcher *lanes_ndrange_launch_launcher(cl_program program,
                                                           const struct lanes_kernel_info *kernel,
                                                           const struct lanes_specialization *spec,
                                                           bool *tier0);

/*
 * Drops the background compiles queued for `program` and waits for the one
 * running for it, if any: before a rebuild replaces its module. Call it
 * without the program's lock.
 */
void lanes_ndrange_forget_background(cl_program program);

/* Frees a program's list of launchers, letting go of their code. */
void lanes_ndrange_free_launchers(struct lanes_launcher_entry *list);

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
