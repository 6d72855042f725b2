/* SPDX-License-Identifier: MIT */
/*
 * Work-group memory: where every thread runs work-groups. A kernel's
 * __local memory, and its private memory (the launcher's stack frames and
 * a barrier kernel's coroutine frames), lie in two address ranges reserved
 * once per process, each thread that runs work-groups using a slot of both.
 * So an address tells its OpenCL address space whichever thread's memory it
 * points into (to_local, to_private and get_fence, compiler/generic.c): a
 * generic pointer that one work-group wrote and another read is __local or
 * private memory to both, as on a GPU.
 *
 * Workers each own a slot. Any other thread that runs work-groups (an
 * application thread helping in clFinish, or one running a command while
 * the pool shuts down) borrows a helpers' slot for the call, waiting for
 * one when all are taken; every slot has a full-size stack.
 *
 * Threading: lanes_wgmem_run is callable from any thread, concurrently;
 * the frame functions only from inside it, on the same thread.
 */
#ifndef LANES_RUNTIME_EXEC_WGMEM_H
#define LANES_RUNTIME_EXEC_WGMEM_H

#include <stdbool.h>
#include <stdint.h>

/* What a thread runs work-groups with, inside lanes_wgmem_run. */
struct lanes_wg_memory {
    char *local;   /* LANES_MAX_LOCAL_MEM bytes of __local memory (compiler/abi.h) */
    char *scratch; /* LANES_WG_SCRATCH_SIZE bytes of work-group scratch */
    /* The ranges every slot's __local and private memory lie in (struct lanes_wg). */
    char *local_region, *private_region;
    uint64_t local_region_size, private_region_size;
};

/*
 * Calls fn(ctx, mem) on the calling thread, running on its slot's stack
 * with its slot's memory. False, without calling fn, when the process
 * could not reserve the regions or make a slot's memory usable.
 */
bool lanes_wgmem_run(void (*fn)(void *ctx, const struct lanes_wg_memory *mem), void *ctx);

/*
 * `size` bytes (64-byte aligned) from the running slot's frames, valid
 * until lanes_wgmem_frames_reset; NULL when the slot's frames are full.
 */
void *lanes_wgmem_frame_alloc(uint64_t size);

/* Every frame of the running slot is free again (for the next work-group). */
void lanes_wgmem_frames_reset(void);

#endif
