/* SPDX-License-Identifier: MIT */
/* clEnqueueNDRangeKernel and clEnqueueTask, validating in the specification's order. */
#include "../compiler/jit.h"
#include "../compiler/printf.h"
#include "../compiler/program.h"
#include "../compiler/width.h"
#include "check.h"
#include "context.h"
#include "event.h"
#include "kernel.h"
#include "mem.h"
#include "launchers.h"
#include "ndrange.h"
#include "platform.h"
#include "printf.h"
#include "program.h"
#include "queue.h"
#include "sched/sched.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* __local regions start at this alignment (a long16, a cache line pair). */
#define LOCAL_ALIGN 128

static size_t round_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/*
 * A local size for each dimension when the application gives none: as many
 * work-items in x as divide the global size (up to 256), then y, then z, so
 * that one launcher call covers enough work to amortize it. In x, a
 * multiple of the sub-group width when one divides the global size, so
 * that every sub-group is full.
 */
static void choose_local_size(const struct lanes_kernel_info *k, unsigned work_dim,
                              const size_t *global, size_t local[3])
{
    size_t budget = 256, w = lanes_width_policy(k, NULL);
    for (unsigned d = 0; d < 3; d++) {
        local[d] = 1;
        if (d >= work_dim)
            continue;
        size_t top = budget < global[d] ? budget : global[d];
        for (size_t l = top - top % w; d == 0 && l >= w; l -= w)
            if (global[d] % l == 0) {
                local[d] = l;
                break;
            }
        for (size_t l = top; local[d] == 1 && l > 1; l--)
            if (global[d] % l == 0) {
                local[d] = l;
                break;
            }
        budget /= local[d];
    }
}

/* Checks the shape of an NDRange against the kernel and fills `local` (the size to use). */
static cl_int check_shape(cl_kernel k, cl_uint work_dim, const size_t *offset, const size_t *global,
                          const size_t *local_in, size_t local[3])
{
    const struct lanes_kernel_info *info = k->info;
    LANES_CHECK(work_dim >= 1 && work_dim <= 3, CL_INVALID_WORK_DIMENSION,
                "work_dim is not 1, 2 or 3");
    /* Every work-item has a linear global id: the whole range must fit in a size_t. */
    size_t items = 1;
    for (cl_uint d = 0; global && d < work_dim; d++)
        LANES_CHECK(!__builtin_mul_overflow(items, global[d], &items), CL_INVALID_GLOBAL_WORK_SIZE,
                    "the global size's work-items overflow size_t");
    for (cl_uint d = 0; global && offset && d < work_dim; d++)
        LANES_CHECK(global[d] <= SIZE_MAX - offset[d], CL_INVALID_GLOBAL_OFFSET,
                    "global size plus offset overflows size_t");
    const size_t *reqd = info->reqd_work_group_size;
    if (!local_in && reqd[0]) {
        /* The runtime picks the local size: the one the kernel requires. */
        local_in = reqd;
    } else if (!local_in) {
        if (global)
            choose_local_size(info, work_dim, global, local);
        else
            local[0] = local[1] = local[2] = 1; /* nothing runs (OpenCL 2.1+) */
        return CL_SUCCESS;
    }
    size_t total = 1;
    for (unsigned d = 0; d < 3; d++) {
        local[d] = d < work_dim ? local_in[d] : 1;
        LANES_CHECK(local[d] > 0, CL_INVALID_WORK_GROUP_SIZE, "a local size is 0");
        LANES_CHECK(!reqd[0] || local[d] == reqd[d], CL_INVALID_WORK_GROUP_SIZE,
                    "the local size differs from reqd_work_group_size");
        LANES_CHECK(local[d] <= LANES_MAX_WORK_GROUP_SIZE, CL_INVALID_WORK_ITEM_SIZE,
                    "a local size exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES");
        LANES_CHECK(!k->program->uniform_work_groups || !global || d >= work_dim ||
                        global[d] % local[d] == 0,
                    CL_INVALID_WORK_GROUP_SIZE,
                    "the global size is not a multiple of the local size and the program "
                    "requires uniform work-groups");
        total *= local[d];
    }
    LANES_CHECK(total <= LANES_MAX_WORK_GROUP_SIZE, CL_INVALID_WORK_GROUP_SIZE,
                "the work-group is larger than CL_KERNEL_WORK_GROUP_SIZE");
    return CL_SUCCESS;
}

/*
 * The command's payload: the argument block with buffer addresses and
 * __local offsets filled in, and the work-group template.
 */
/* What a launcher specialized for image `m`'s format knows of it. */
static struct lanes_image_format_spec image_format_of(cl_mem m)
{
    const struct lanes_image_abi *d = &m->image.abi;
    return (struct lanes_image_format_spec){.order = (uint16_t)d->order,
                                            .type = (uint16_t)d->type,
                                            .channels = (uint8_t)d->channels,
                                            .elem_size = (uint8_t)d->elem_size};
}

static struct lanes_ndrange *make_payload(cl_kernel k, cl_event cmd, cl_uint work_dim,
                                          const size_t *offset, const size_t *global,
                                          const size_t local[3],
                                          const struct lanes_image_format_spec *formats,
                                          cl_int *err)
{
    const struct lanes_kernel_info *info = k->info;
    /* Aligned, so that every argument's slot is aligned as its type requires. */
    size_t size = round_up(sizeof(struct lanes_ndrange) + info->args_size, LANES_ARGS_ALIGN);
    struct lanes_ndrange *nd = aligned_alloc(LANES_ARGS_ALIGN, size);
    *err = CL_OUT_OF_HOST_MEMORY;
    if (!nd)
        return NULL;
    memset(nd, 0, size);
    size_t local_bytes = round_up(info->local_mem_size, LOCAL_ALIGN);
    pthread_mutex_lock(&k->lock);
    memcpy(nd->args, k->block, info->args_size);
    *err = CL_SUCCESS;
    for (size_t i = 0; i < info->num_args && *err == CL_SUCCESS; i++) {
        const struct lanes_kernel_arg *a = &info->args[i];
        const struct lanes_kernel_argval *v = &k->argv[i];
        if (a->kind == LANES_ARG_BUFFER) {
            void *address = v->svm ? v->svm_ptr : v->mem ? lanes_mem_address(v->mem) : NULL;
            memcpy(nd->args + a->offset, &address, sizeof address);
            if (v->mem)
                *err = lanes_command_keep_mem(cmd, v->mem);
        } else if (a->kind == LANES_ARG_IMAGE) {
            const struct lanes_image_abi *desc = &v->mem->image.abi;
            memcpy(nd->args + a->offset, &desc, sizeof desc);
            *err = lanes_command_keep_mem(cmd, v->mem);
            /* Another thread's clSetKernelArg since the launchers were chosen: no launch. */
            struct lanes_image_format_spec f = image_format_of(v->mem);
            if (*err == CL_SUCCESS && i < LANES_SPEC_IMAGE_ARGS &&
                memcmp(&f, &formats[i], sizeof f) != 0)
                *err = CL_INVALID_KERNEL_ARGS;
        } else if (a->kind == LANES_ARG_LOCAL) {
            uint64_t at = local_bytes;
            memcpy(nd->args + a->offset, &at, sizeof at);
            /* Each is at most CL_DEVICE_LOCAL_MEM_SIZE, but a kernel may have many. */
            if (__builtin_add_overflow(local_bytes, v->local_size + LOCAL_ALIGN - 1, &local_bytes))
                *err = CL_OUT_OF_RESOURCES;
            local_bytes = local_bytes / LOCAL_ALIGN * LOCAL_ALIGN;
        }
    }
    pthread_mutex_unlock(&k->lock);
    if (*err == CL_SUCCESS && local_bytes > k->program->context->devices[0]->local_mem_size)
        *err = CL_OUT_OF_RESOURCES;
    if (*err != CL_SUCCESS) {
        free(nd);
        return NULL;
    }
    nd->local_bytes = local_bytes;
    nd->num_groups = 1;
    nd->wg.work_dim = work_dim;
    for (unsigned d = 0; d < 3; d++) {
        nd->wg.global_size[d] = d < work_dim ? global[d] : 1;
        nd->wg.global_offset[d] = d < work_dim && offset ? offset[d] : 0;
        nd->wg.enqueued_local_size[d] = local[d];
        /* Rounded up without overflowing when the global size is near SIZE_MAX. */
        nd->wg.num_groups[d] =
            nd->wg.global_size[d] / local[d] + (nd->wg.global_size[d] % local[d] != 0);
        nd->num_groups *= nd->wg.num_groups[d];
    }
    return nd;
}

/*
 * The launchers of an NDRange (lanes_ndrange.fn): one per shape of
 * work-group it has, whole or cut short in some dimensions. False when one
 * cannot be built (the build log says why).
 */
static bool launchers(cl_kernel kernel, cl_uint work_dim, const size_t *offset,
                      const size_t *global, const size_t local[3],
                      const struct lanes_image_format_spec *formats, lanes_launcher_fn fn[8],
                      struct lanes_jit_code *code[8])
{
    struct lanes_specialization spec = {.work_dim = work_dim, .small_ids = 1};
    memcpy(spec.image_formats, formats, sizeof spec.image_formats);
    uint64_t rest[3];
    unsigned cuts = 0;
    for (unsigned d = 0; d < 3; d++) {
        spec.local_size[d] = local[d];
        uint64_t size = d < work_dim ? global[d] : 1,
                 start = d < work_dim && offset ? offset[d] : 0;
        spec.small_ids &= start <= INT32_MAX && size <= INT32_MAX - start;
        rest[d] = size % local[d];
        if (rest[d])
            cuts |= 1u << d;
    }
    spec.width = lanes_width_policy(kernel->info, local);
    for (unsigned c = 0; c < 8; c++) {
        if ((c & cuts) != c)
            continue;
        for (unsigned d = 0; d < 3; d++)
            spec.group_size[d] = c >> d & 1 ? rest[d] : local[d];
        bool tier0;
        const struct lanes_launcher *l =
            lanes_launchers_for_launch(kernel->program, kernel->info, &spec, &tier0);
        if (!l)
            return false;
        fn[c] = l->fn;
        code[c] = l->code;
    }
    return true;
}

/*
 * The end of a kernel command: what it printed goes to stdout (before the
 * event completes, so that clFinish returns after the output, and before
 * its buffers are let go, which %s may point into); it lets go of its
 * program's variables.
 */
static void ndrange_cleanup(cl_event cmd)
{
    struct lanes_ndrange *nd = cmd->cmd.data;
    if (nd->printf_buffer) {
        lanes_printf_flush(nd->printf_buffer, stdout);
        free(nd->printf_buffer);
        nd->printf_buffer = NULL;
    }
    lanes_globals_unkeep(nd->globals);
    for (unsigned c = 0; c < 8; c++)
        lanes_jit_release(nd->code[c]);
}

/*
 * A live queue and kernel of one context, every argument set and every
 * buffer one still alive; `formats` gets the images' formats.
 */
static cl_int check_launch(cl_command_queue queue, cl_kernel kernel,
                           struct lanes_image_format_spec *formats)
{
    LANES_CHECK(lanes_queue_valid(queue), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    LANES_CHECK(kernel->program->context == queue->context, CL_INVALID_CONTEXT,
                "the kernel and the queue belong to different contexts");
    pthread_mutex_lock(&kernel->lock);
    bool all_set = true, all_live = true;
    for (size_t i = 0; i < kernel->info->num_args; i++) {
        const struct lanes_kernel_argval *v = &kernel->argv[i];
        all_set &= v->set;
        /* clSetKernelArg takes no reference: the buffer may have been released since. */
        all_live &= !v->mem || lanes_mem_valid(v->mem);
        if (i < LANES_SPEC_IMAGE_ARGS && kernel->info->args[i].kind == LANES_ARG_IMAGE && v->mem &&
            lanes_mem_valid(v->mem))
            formats[i] = image_format_of(v->mem);
    }
    pthread_mutex_unlock(&kernel->lock);
    LANES_CHECK(all_set, CL_INVALID_KERNEL_ARGS, "an argument has not been set");
    LANES_CHECK(all_live, CL_INVALID_KERNEL_ARGS, "a buffer argument has been released");
    return CL_SUCCESS;
}

/*
 * cl_khr_suggested_local_work_size: the local size clEnqueueNDRangeKernel
 * takes when given none (check_shape: the kernel's required one, else
 * choose_local_size's, from the width policy), for the same arguments.
 */
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSizeKHR(
    cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size,
    size_t *suggested_local_work_size)
{
    struct lanes_image_format_spec formats[LANES_SPEC_IMAGE_ARGS] = {0};
    cl_int err = check_launch(command_queue, kernel, formats);
    if (err != CL_SUCCESS)
        return err;
    LANES_CHECK(work_dim >= 1 && work_dim <= 3, CL_INVALID_WORK_DIMENSION,
                "work_dim is not 1, 2 or 3");
    LANES_CHECK(global_work_size, CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
    for (cl_uint d = 0; d < work_dim; d++)
        LANES_CHECK(global_work_size[d] > 0, CL_INVALID_GLOBAL_WORK_SIZE, "a global size is 0");
    LANES_CHECK(suggested_local_work_size, CL_INVALID_VALUE, "suggested_local_work_size is NULL");
    size_t local[3];
    err = check_shape(kernel, work_dim, global_work_offset, global_work_size, NULL, local);
    if (err != CL_SUCCESS)
        return err;
    memcpy(suggested_local_work_size, local, work_dim * sizeof *local);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
    const size_t *global_work_offset, const size_t *global_work_size, const size_t *local_work_size,
    cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
    /* The launchers are compiled for the formats of the images (compiler/image_formats.c). */
    struct lanes_image_format_spec formats[LANES_SPEC_IMAGE_ARGS] = {0};
    cl_int err = check_launch(command_queue, kernel, formats);
    if (err != CL_SUCCESS)
        return err;
    size_t local[3];
    err =
        check_shape(kernel, work_dim, global_work_offset, global_work_size, local_work_size, local);
    if (err != CL_SUCCESS)
        return err;
    err = lanes_check_wait_list(command_queue->context, num_events_in_wait_list, event_wait_list);
    if (err != CL_SUCCESS)
        return err;

    /* A global size of 0 (or none) runs nothing once the wait list is complete (OpenCL 2.1+). */
    bool empty = !global_work_size;
    for (cl_uint d = 0; !empty && d < work_dim; d++)
        empty = global_work_size[d] == 0;
    lanes_launcher_fn fn[8] = {0};
    struct lanes_jit_code *code[8] = {0};
    if (!empty && !launchers(kernel, work_dim, global_work_offset, global_work_size, local, formats,
                             fn, code)) {
        /* The reason is the last line of the build log; show it to whoever debugs. */
        pthread_mutex_lock(&kernel->program->lock);
        lanes_refuse(__func__, "CL_OUT_OF_RESOURCES", kernel->program->log);
        pthread_mutex_unlock(&kernel->program->lock);
        LANES_FAIL(CL_OUT_OF_RESOURCES,
                   "the kernel could not be compiled for this launch (see the build log)");
    }
    cl_event cmd = lanes_command_create(command_queue, CL_COMMAND_NDRANGE_KERNEL,
                                        empty ? NULL : lanes_ndrange_run);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    if (!empty) {
        struct lanes_ndrange *nd = make_payload(kernel, cmd, work_dim, global_work_offset,
                                                global_work_size, local, formats, &err);
        if (!nd) {
            lanes_command_discard(cmd);
            LANES_CHECK(0, err, "preparing the kernel's arguments");
        }
        memcpy(nd->fn, fn, sizeof fn);
        cmd->cmd.data = nd;
        /*
         * Kept by the command: the kernel and program may be released before
         * it runs, and the launchers' code with the program's last reference.
         */
        for (unsigned c = 0; c < 8; c++)
            if ((nd->code[c] = code[c]))
                lanes_jit_retain(code[c]);
        pthread_mutex_lock(&kernel->program->lock);
        nd->globals = kernel->program->globals;
        lanes_globals_keep(nd->globals);
        pthread_mutex_unlock(&kernel->program->lock);
        nd->wg.globals = nd->globals ? nd->globals->data : NULL;
        cmd->cmd.cleanup = ndrange_cleanup;
        if (kernel->info->uses_printf) {
            /* Untouched pages of the buffer cost nothing: only what is printed is written. */
            nd->printf_buffer = malloc(sizeof *nd->printf_buffer + LANES_PRINTF_BUFFER_SIZE);
            if (!nd->printf_buffer) {
                lanes_command_discard(cmd); /* ndrange_cleanup lets go of the rest */
                LANES_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the printf buffer");
            }
            nd->printf_buffer->used = 0;
            nd->printf_buffer->capacity = LANES_PRINTF_BUFFER_SIZE;
            nd->wg.printf_buffer = nd->printf_buffer;
        }
    }
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event *event_wait_list, cl_event *event)
{
    const size_t one = 1;
    return clEnqueueNDRangeKernel(command_queue, kernel, 1, NULL, &one, &one,
                                  num_events_in_wait_list, event_wait_list, event);
}
