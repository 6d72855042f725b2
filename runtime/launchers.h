/* SPDX-License-Identifier: MIT */
/* The launchers of a program's kernels: their table and tiers (runtime/launchers.c). */
#ifndef LANES_RUNTIME_LAUNCHERS_H
#define LANES_RUNTIME_LAUNCHERS_H

#include "program.h"

#include <pthread.h>
#include <stdatomic.h>

/*
 * The launcher of `kernel` for `spec`: compiled at its first use, then taken
 * from the program's list (valid while the program lives). NULL when it
 * cannot be built; the reason is appended to the program's build log (a
 * later call tries again). Thread-safe; a launcher already built is found
 * without taking a lock.
 */
const struct lanes_launcher *lanes_launchers_get(cl_program program,
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
 * launch, as lanes_launchers_get does; LANES_TIER=0 runs tier 0 only
 * (for tests). *tier0 says which ran. NULL as lanes_launchers_get.
 */
const struct lanes_launcher *lanes_launchers_for_launch(cl_program program,
                                                        const struct lanes_kernel_info *kernel,
                                                        const struct lanes_specialization *spec,
                                                        bool *tier0);

/*
 * Drops the background compiles queued for `program` and waits for the one
 * running for it, if any: before a rebuild replaces its module. Call it
 * without the program's lock.
 */
void lanes_launchers_forget_background(cl_program program);

#endif
