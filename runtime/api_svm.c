/* SPDX-License-Identifier: MIT */
/*
 * Shared virtual memory entries: clSVMAlloc / clSVMFree and the
 * clEnqueueSVM* commands, validating in the order of the OpenCL 3.0
 * specification. Host and device share memory, so an SVM pointer is used
 * as is: copies and fills reuse the buffer transfer bodies (transfer.c),
 * maps, unmaps and migrations only order their commands.
 */
#include "check.h"
#include "context.h"
#include "event.h"
#include "platform.h"
#include "queue.h"
#include "svm.h"
#include "transfer.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SVM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define SVM_FLAGS (SVM_ACCESS_FLAGS | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)

/* The largest data type, long16, and so the default and the largest alignment. */
#define SVM_MAX_ALIGN 128

#define CHECK_OK(expr)                                                                             \
    do {                                                                                           \
        cl_int err_ = (expr);                                                                      \
        if (err_ != CL_SUCCESS)                                                                    \
            return err_;                                                                           \
    } while (0)

/* clSVMAlloc reports no error code: a refusal is logged and answers NULL. */
#define SVM_REFUSE(cond, reason)                                                                   \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            lanes_refuse(__func__, "NULL", reason);                                                \
            return NULL;                                                                           \
        }                                                                                          \
    } while (0)

static bool power_of_two(size_t n)
{
    return n && (n & (n - 1)) == 0;
}

/* The largest allocation every device of the context accepts. */
static cl_ulong max_alloc(cl_context c)
{
    cl_ulong max = 0;
    for (cl_uint i = 0; i < c->num_devices; i++)
        if (c->devices[i]->max_alloc_size > max)
            max = c->devices[i]->max_alloc_size;
    return max;
}

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                                          cl_uint alignment)
{
    SVM_REFUSE(lanes_context_valid(context), "not a live context");
    SVM_REFUSE(!(flags & ~SVM_FLAGS), "unknown flags");
    cl_svm_mem_flags access = flags & SVM_ACCESS_FLAGS;
    SVM_REFUSE((access & (access - 1)) == 0,
               "more than one of READ_WRITE, WRITE_ONLY and READ_ONLY");
    SVM_REFUSE(!(flags & CL_MEM_SVM_ATOMICS) || (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER),
               "CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER");
    SVM_REFUSE(size && size <= max_alloc(context),
               "size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    SVM_REFUSE(alignment == 0 || power_of_two(alignment), "alignment is not a power of two");
    SVM_REFUSE(alignment <= SVM_MAX_ALIGN, "alignment is above that of the largest type");
    size_t align = alignment ? alignment : SVM_MAX_ALIGN;
    /* aligned_alloc wants at least the alignment of a pointer. */
    if (align < sizeof(void *))
        align = sizeof(void *);
    if (!access)
        flags |= CL_MEM_READ_WRITE;
    void *p = lanes_svm_alloc(context, flags, size, align);
    SVM_REFUSE(p, "out of host memory");
    return p;
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context context, void *svm_pointer)
{
    if (!lanes_context_valid(context)) {
        lanes_refuse(__func__, "-", "not a live context");
        return;
    }
    /* NULL does nothing; a pointer clSVMAlloc did not return is undefined: ignored. */
    if (svm_pointer && !lanes_svm_free(context, svm_pointer))
        lanes_refuse(__func__, "-", "not an allocation of clSVMAlloc in this context");
}

typedef void(CL_CALLBACK *svm_free_fn)(cl_command_queue queue, cl_uint num_svm_pointers,
                                       void *svm_pointers[], void *user_data);

/* The payload of clEnqueueSVMFree: the application's list, copied. */
struct svm_free_payload {
    svm_free_fn fn;
    void *user_data;
    cl_uint num;
    void *ptrs[];
};

static cl_int run_svm_free(cl_event cmd)
{
    struct svm_free_payload *p = cmd->cmd.data;
    if (p->fn) {
        p->fn(cmd->queue, p->num, p->ptrs, p->user_data);
    } else {
        for (cl_uint i = 0; i < p->num; i++)
            if (p->ptrs[i])
                lanes_svm_free(cmd->context, p->ptrs[i]);
    }
    return CL_COMPLETE;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue,
                                                 cl_uint num_svm_pointers, void *svm_pointers[],
                                                 svm_free_fn pfn_free_func, void *user_data,
                                                 cl_uint num_events_in_wait_list,
                                                 const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(num_svm_pointers || !svm_pointers, CL_INVALID_VALUE,
                "num_svm_pointers is 0 and svm_pointers is not NULL");
    LANES_CHECK(svm_pointers || !num_svm_pointers, CL_INVALID_VALUE,
                "svm_pointers is NULL and num_svm_pointers is not 0");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    struct svm_free_payload *p = malloc(sizeof *p + num_svm_pointers * sizeof(void *));
    LANES_CHECK(p, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    p->fn = pfn_free_func;
    p->user_data = user_data;
    p->num = num_svm_pointers;
    if (num_svm_pointers)
        memcpy(p->ptrs, svm_pointers, num_svm_pointers * sizeof(void *));
    cl_event cmd = lanes_command_create(q, CL_COMMAND_SVM_FREE, run_svm_free);
    if (!cmd)
        free(p);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    cmd->cmd.data = p;
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue,
                                                   cl_bool blocking_copy, void *dst_ptr,
                                                   const void *src_ptr, size_t size,
                                                   cl_uint num_events_in_wait_list,
                                                   const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    LANES_CHECK(dst_ptr && src_ptr, CL_INVALID_VALUE, "dst_ptr or src_ptr is NULL");
    uintptr_t d = (uintptr_t)dst_ptr, s = (uintptr_t)src_ptr;
    /* Distances, not ends: an end past the address space would wrap around. */
    LANES_CHECK(!size || (d >= s ? d - s : s - d) >= size, CL_MEM_COPY_OVERLAP,
                "the source and destination regions overlap");
    cl_event cmd = lanes_command_create(q, CL_COMMAND_SVM_MEMCPY, lanes_transfer_copy);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    cmd->cmd.u.copy.dst = dst_ptr;
    cmd->cmd.u.copy.src = src_ptr;
    cmd->cmd.u.copy.size = size;
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, blocking_copy);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    LANES_CHECK(svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    LANES_CHECK(pattern, CL_INVALID_VALUE, "pattern is NULL");
    LANES_CHECK(power_of_two(pattern_size) && pattern_size <= 128, CL_INVALID_VALUE,
                "pattern_size is not a power of two up to 128");
    LANES_CHECK((uintptr_t)svm_ptr % pattern_size == 0, CL_INVALID_VALUE,
                "svm_ptr is not aligned to pattern_size");
    LANES_CHECK(size % pattern_size == 0, CL_INVALID_VALUE,
                "size is not a multiple of pattern_size");
    cl_event cmd = lanes_command_create(q, CL_COMMAND_SVM_MEMFILL, lanes_transfer_fill);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    struct lanes_command *c = &cmd->cmd;
    c->u.fill.dst = svm_ptr;
    c->u.fill.size = size;
    c->u.fill.pattern_size = pattern_size;
    memcpy(c->u.fill.pattern, pattern, pattern_size);
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

#define MAP_FLAGS (CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)

/* A command that only orders: the host already sees the memory. */
static cl_int order_only(cl_command_queue q, cl_command_type type, bool blocking, cl_uint num_wait,
                         const cl_event *wait, cl_event *event)
{
    cl_event cmd = lanes_command_create(q, type, NULL);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    return lanes_command_submit(cmd, num_wait, wait, LANES_ORDER_COMMAND, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue,
                                                cl_bool blocking_map, cl_map_flags flags,
                                                void *svm_ptr, size_t size,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    LANES_CHECK(svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    LANES_CHECK(size, CL_INVALID_VALUE, "size is 0");
    LANES_CHECK(!(flags & ~MAP_FLAGS), CL_INVALID_VALUE, "unknown map_flags bits");
    LANES_CHECK(
        !(flags & CL_MAP_WRITE_INVALIDATE_REGION) || !(flags & (CL_MAP_READ | CL_MAP_WRITE)),
        CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or CL_MAP_WRITE");
    return order_only(q, CL_COMMAND_SVM_MAP, blocking_map, num_events_in_wait_list, event_wait_list,
                      event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
                                                  cl_uint num_events_in_wait_list,
                                                  const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    LANES_CHECK(svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    return order_only(q, CL_COMMAND_SVM_UNMAP, false, num_events_in_wait_list, event_wait_list,
                      event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(
    cl_command_queue command_queue, cl_uint num_svm_pointers, const void **svm_pointers,
    const size_t *sizes, cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    LANES_CHECK(num_svm_pointers && svm_pointers, CL_INVALID_VALUE,
                "num_svm_pointers is 0 or svm_pointers is NULL");
    for (cl_uint i = 0; i < num_svm_pointers; i++) {
        LANES_CHECK(svm_pointers[i], CL_INVALID_VALUE, "an svm_pointers entry is NULL");
        if (!sizes || !sizes[i])
            continue; /* the whole allocation, or (fine-grain system) any host memory */
        char *base;
        size_t size;
        bool found = lanes_svm_find(q->context, svm_pointers[i], &base, &size);
        size_t at = found ? (size_t)((const char *)svm_pointers[i] - base) : 0;
        LANES_CHECK(found && sizes[i] <= size - at, CL_INVALID_VALUE,
                    "a range is not contained in an SVM allocation of the queue's context");
    }
    LANES_CHECK(!(flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)),
                CL_INVALID_VALUE, "unknown migration flags");
    /* Host and device share memory: migrating only orders the command. */
    return order_only(q, CL_COMMAND_SVM_MIGRATE_MEM, false, num_events_in_wait_list,
                      event_wait_list, event);
}
