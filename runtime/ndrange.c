/* SPDX-License-Identifier: MIT */
/*
 * Running kernels. A kernel command runs its work-groups as one exec range
 * (runtime/exec): workers claim chunks of work-groups and call the launcher
 * for each, with the __local memory, stack and frames of their work-group
 * memory slot (runtime/exec/wgmem.h), reused across work-groups and
 * commands.
 */
#include "ndrange.h"

#include "event.h"
#include "platform.h"
#include "queue.h"
#include "exec/wgmem.h"
#include "sched/sched.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

static_assert(LANES_MAX_WORK_GROUP_SIZE <= LANES_MAX_GROUP_ITEMS,
              "tier 0 launchers have room for every sub-group's handle");
static_assert(LANES_MAX_WORK_GROUP_SIZE <= LANES_WG_SCRATCH_ITEMS,
              "the work-group scratch has a slot for every work-item");

/* Where frame_alloc goes when there is no memory for a frame: out of the work-group (run_groups).
 */
static _Thread_local jmp_buf *frame_failed;

/* wg->frame_alloc: a frame for one sub-group of the work-group this thread runs. */
static void *frame_alloc(uint64_t size)
{
    /* LANES_CRASH_TEST=frames: how the tests run out of memory here. */
    const char *test = getenv("LANES_CRASH_TEST");
    void *frame = test && strcmp(test, "frames") == 0 ? NULL : lanes_wgmem_frame_alloc(size);
    if (!frame) {
        /*
         * A coroutine cannot report it: leave the work-group's code (JIT code
         * with nothing to unwind, its frames in this thread's slot) for
         * run_groups, which fails the launch with CL_OUT_OF_RESOURCES.
         */
        if (frame_failed)
            longjmp(*frame_failed, 1);
        abort();
    }
    return frame;
}

struct groups {
    cl_event cmd;
    size_t begin, end;
};

/* Runs work-groups [begin, end) of a command with this thread's work-group memory. */
static void run_groups_with(void *ctx, const struct lanes_wg_memory *mem)
{
    const struct groups *groups = ctx;
    cl_event cmd = groups->cmd;
    const struct lanes_ndrange *nd = cmd->cmd.data;
    struct lanes_wg wg = nd->wg;
    wg.frame_alloc = frame_alloc;
    wg.local_mem = mem->local;
    wg.scratch = mem->scratch;
    wg.local_region = mem->local_region;
    wg.local_region_size = mem->local_region_size;
    wg.private_region = mem->private_region;
    wg.private_region_size = mem->private_region_size;
    jmp_buf failed;
    if (setjmp(failed)) {
        frame_failed = NULL;
        atomic_store(&cmd->cmd.range_status, CL_OUT_OF_RESOURCES);
        return;
    }
    frame_failed = &failed;
    for (size_t g = groups->begin; g < groups->end; g++) {
        size_t rest = g;
        unsigned cut = 0; /* the dimensions in which this work-group is the smaller last one */
        for (unsigned d = 0; d < 3; d++) {
            wg.group_id[d] = rest % nd->wg.num_groups[d];
            rest /= nd->wg.num_groups[d];
            uint64_t left = nd->wg.global_size[d] - wg.group_id[d] * nd->wg.enqueued_local_size[d];
            wg.local_size[d] =
                left < nd->wg.enqueued_local_size[d] ? left : nd->wg.enqueued_local_size[d];
            if (left < nd->wg.enqueued_local_size[d])
                cut |= 1u << d;
        }
        lanes_wgmem_frames_reset(); /* every frame of the previous work-group is free again */
        nd->fn[cut](nd->args, &wg);
    }
    frame_failed = NULL;
}

static void run_groups(void *ctx, size_t begin, size_t end)
{
    struct groups groups = {ctx, begin, end};
    if (!lanes_wgmem_run(run_groups_with, &groups))
        atomic_store(&groups.cmd->cmd.range_status, CL_OUT_OF_RESOURCES);
}

static void groups_done(void *ctx)
{
    cl_event cmd = ctx;
    lanes_command_complete(cmd, atomic_load(&cmd->cmd.range_status));
}

cl_int lanes_ndrange_run(cl_event cmd)
{
    const struct lanes_ndrange *nd = cmd->cmd.data;
    if (nd->num_groups == 0)
        return CL_COMPLETE;
    atomic_store(&cmd->cmd.range_status, CL_COMPLETE);
    /* Chunks small enough for every worker to get several, large enough to amortize claims. */
    size_t chunk = nd->num_groups / (8 * (size_t)lanes_exec_num_workers());
    /* On a sub-device, the work-groups run on its share of the workers. */
    cl_device_id dev = cmd->queue->device;
    const struct lanes_worker_set *only = dev->restricted ? &dev->workers : NULL;
    lanes_exec_range_limited(&cmd->cmd.range, nd->num_groups, chunk ? chunk : 1, dev->compute_units,
                             only, run_groups, groups_done, cmd);
    return LANES_COMMAND_PENDING;
}
