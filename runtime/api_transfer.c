/* SPDX-License-Identifier: MIT */
/*
 * Buffer transfer entries: read, write, copy (and their rectangle forms),
 * fill, map, unmap and migrate, validating in the order of the OpenCL 3.0
 * specification. Each becomes one command on the scheduler.
 */
#include "check.h"
#include "event.h"
#include "mem.h"
#include "queue.h"
#include "transfer.h"

#include <string.h>

/* The queue is live, the buffer is a live buffer of the queue's context. */
static cl_int check_target(cl_command_queue q, cl_mem b)
{
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(lanes_mem_is_buffer(b), CL_INVALID_MEM_OBJECT, "not a live buffer");
    LANES_CHECK(b->context == q->context, CL_INVALID_CONTEXT,
                "the buffer belongs to another context");
    return CL_SUCCESS;
}

static bool in_bounds(cl_mem b, size_t offset, size_t size)
{
    return offset <= b->size && size <= b->size - offset;
}

/* Creates a command that uses up to two buffers; NULL when out of memory. */
static cl_event command(cl_command_queue q, cl_command_type type, lanes_command_fn run, cl_mem a,
                        cl_mem b)
{
    cl_event cmd = lanes_command_create(q, type, run);
    if (!cmd)
        return NULL;
    if ((a && lanes_command_keep_mem(cmd, a) != CL_SUCCESS) ||
        (b && lanes_command_keep_mem(cmd, b) != CL_SUCCESS)) {
        lanes_command_discard(cmd);
        return NULL;
    }
    return cmd;
}

#define CHECK_OK(expr)                                                                             \
    do {                                                                                           \
        cl_int err_ = (expr);                                                                      \
        if (err_ != CL_SUCCESS)                                                                    \
            return err_;                                                                           \
    } while (0)

static cl_int read_write(cl_command_queue q, cl_mem b, bool write, cl_bool blocking, size_t offset,
                         size_t size, void *ptr, cl_uint num_wait, const cl_event *wait,
                         cl_event *event)
{
    CHECK_OK(check_target(q, b));
    LANES_CHECK(in_bounds(b, offset, size), CL_INVALID_VALUE, "offset and size are out of bounds");
    LANES_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    CHECK_OK(lanes_check_wait_list(q->context, num_wait, wait));
    if (write)
        LANES_CHECK(!(b->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, "the buffer is HOST_READ_ONLY or HOST_NO_ACCESS");
    else
        LANES_CHECK(!(b->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, "the buffer is HOST_WRITE_ONLY or HOST_NO_ACCESS");
    cl_event cmd = command(q, write ? CL_COMMAND_WRITE_BUFFER : CL_COMMAND_READ_BUFFER,
                           lanes_transfer_copy, b, NULL);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    char *mem = (char *)lanes_mem_address(b) + offset;
    cmd->cmd.u.copy.dst = write ? mem : ptr;
    cmd->cmd.u.copy.src = write ? ptr : mem;
    cmd->cmd.u.copy.size = size;
    return lanes_command_submit(cmd, num_wait, wait, LANES_ORDER_COMMAND, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    cl_bool blocking_read, size_t offset,
                                                    size_t size, void *ptr,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event)
{
    return read_write(command_queue, buffer, false, blocking_read, offset, size, ptr,
                      num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                     cl_bool blocking_write, size_t offset,
                                                     size_t size, const void *ptr,
                                                     cl_uint num_events_in_wait_list,
                                                     const cl_event *event_wait_list,
                                                     cl_event *event)
{
    return read_write(command_queue, buffer, true, blocking_write, offset, size, (void *)ptr,
                      num_events_in_wait_list, event_wait_list, event);
}

/* a * b + c, false on overflow. */
static bool mul_add(size_t a, size_t b, size_t c, size_t *out)
{
    size_t m;
    return !__builtin_mul_overflow(a, b, &m) && !__builtin_add_overflow(m, c, out);
}

/*
 * Resolves a side of a rectangle transfer: default pitches, their rules,
 * and its byte offset. `limit` is the size of the memory it lies in, or
 * SIZE_MAX for host memory (never out of bounds).
 */
static cl_int rect_side(const size_t origin[3], const size_t region[3], size_t *row, size_t *slice,
                        size_t limit, size_t *start)
{
    LANES_CHECK(*row == 0 || *row >= region[0], CL_INVALID_VALUE,
                "a row pitch is smaller than region[0]");
    if (*row == 0)
        *row = region[0];
    size_t min_slice;
    LANES_CHECK(mul_add(region[1], *row, 0, &min_slice), CL_INVALID_VALUE, "region too large");
    LANES_CHECK(*slice == 0 || *slice >= min_slice, CL_INVALID_VALUE,
                "a slice pitch is smaller than region[1] * row pitch");
    LANES_CHECK(*slice == 0 || *slice % *row == 0, CL_INVALID_VALUE,
                "a slice pitch is not a multiple of its row pitch");
    if (*slice == 0)
        *slice = min_slice;
    size_t first, last, tmp;
    bool ok = mul_add(origin[1], *row, origin[0], &tmp) && mul_add(origin[2], *slice, tmp, &first);
    ok = ok && mul_add(region[2] - 1, *slice, first, &tmp) &&
         mul_add(region[1] - 1, *row, tmp, &tmp) && mul_add(1, region[0], tmp, &last);
    LANES_CHECK(ok && last <= limit, CL_INVALID_VALUE, "the rectangle is out of bounds");
    *start = first;
    return CL_SUCCESS;
}

static cl_int rect_region(const size_t *a, const size_t *b, const size_t *region)
{
    LANES_CHECK(a && b && region, CL_INVALID_VALUE, "an origin or region is NULL");
    LANES_CHECK(region[0] && region[1] && region[2], CL_INVALID_VALUE, "a region element is 0");
    return CL_SUCCESS;
}

static cl_int read_write_rect(cl_command_queue q, cl_mem b, bool write, cl_bool blocking,
                              const size_t *buffer_origin, const size_t *host_origin,
                              const size_t *region, size_t buffer_row_pitch,
                              size_t buffer_slice_pitch, size_t host_row_pitch,
                              size_t host_slice_pitch, void *ptr, cl_uint num_wait,
                              const cl_event *wait, cl_event *event)
{
    CHECK_OK(check_target(q, b));
    CHECK_OK(rect_region(buffer_origin, host_origin, region));
    size_t buf_start, host_start;
    CHECK_OK(rect_side(buffer_origin, region, &buffer_row_pitch, &buffer_slice_pitch, b->size,
                       &buf_start));
    CHECK_OK(
        rect_side(host_origin, region, &host_row_pitch, &host_slice_pitch, SIZE_MAX, &host_start));
    LANES_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    CHECK_OK(lanes_check_wait_list(q->context, num_wait, wait));
    if (write)
        LANES_CHECK(!(b->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, "the buffer is HOST_READ_ONLY or HOST_NO_ACCESS");
    else
        LANES_CHECK(!(b->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, "the buffer is HOST_WRITE_ONLY or HOST_NO_ACCESS");
    cl_event cmd = command(q, write ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT,
                           lanes_transfer_rect, b, NULL);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    char *mem = (char *)lanes_mem_address(b) + buf_start, *host = (char *)ptr + host_start;
    struct lanes_command *c = &cmd->cmd;
    c->u.rect.dst = write ? mem : host;
    c->u.rect.src = write ? host : mem;
    for (int i = 0; i < 3; i++)
        c->u.rect.region[i] = region[i];
    size_t mem_pitch[2] = {buffer_row_pitch, buffer_slice_pitch};
    size_t host_pitch[2] = {host_row_pitch, host_slice_pitch};
    for (int i = 0; i < 2; i++) {
        c->u.rect.dst_pitch[i] = write ? mem_pitch[i] : host_pitch[i];
        c->u.rect.src_pitch[i] = write ? host_pitch[i] : mem_pitch[i];
    }
    return lanes_command_submit(cmd, num_wait, wait, LANES_ORDER_COMMAND, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
    const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
    size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
    size_t host_slice_pitch, void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    return read_write_rect(command_queue, buffer, false, blocking_read, buffer_origin, host_origin,
                           region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                           host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
    const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
    size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
    size_t host_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    return read_write_rect(command_queue, buffer, true, blocking_write, buffer_origin, host_origin,
                           region, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                           host_slice_pitch, (void *)ptr, num_events_in_wait_list, event_wait_list,
                           event);
}

/* Checks both buffers of a copy: live, same context as the queue. */
static cl_int check_copy_targets(cl_command_queue q, cl_mem src, cl_mem dst)
{
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(lanes_mem_is_buffer(src), CL_INVALID_MEM_OBJECT, "src_buffer is not a buffer");
    LANES_CHECK(lanes_mem_is_buffer(dst), CL_INVALID_MEM_OBJECT, "dst_buffer is not a buffer");
    LANES_CHECK(src->context == q->context && dst->context == q->context, CL_INVALID_CONTEXT,
                "a buffer belongs to another context");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue,
                                                    cl_mem src_buffer, cl_mem dst_buffer,
                                                    size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event)
{
    cl_command_queue q = command_queue;
    CHECK_OK(check_copy_targets(q, src_buffer, dst_buffer));
    LANES_CHECK(in_bounds(src_buffer, src_offset, size), CL_INVALID_VALUE,
                "src_offset and size are out of src_buffer's bounds");
    LANES_CHECK(in_bounds(dst_buffer, dst_offset, size), CL_INVALID_VALUE,
                "dst_offset and size are out of dst_buffer's bounds");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    /* Overlap is judged in the buffer both lie in: sub-buffers of one buffer share it. */
    if (lanes_mem_root(src_buffer) == lanes_mem_root(dst_buffer) && size) {
        size_t s = src_buffer->offset + src_offset, d = dst_buffer->offset + dst_offset;
        LANES_CHECK(s + size <= d || d + size <= s, CL_MEM_COPY_OVERLAP,
                    "the source and destination regions overlap");
    }
    cl_event cmd = command(q, CL_COMMAND_COPY_BUFFER, lanes_transfer_copy, src_buffer, dst_buffer);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    cmd->cmd.u.copy.dst = (char *)lanes_mem_address(dst_buffer) + dst_offset;
    cmd->cmd.u.copy.src = (char *)lanes_mem_address(src_buffer) + src_offset;
    cmd->cmd.u.copy.size = size;
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer, const size_t *src_origin,
    const size_t *dst_origin, const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
    size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
    const cl_event *event_wait_list, cl_event *event)
{
    cl_command_queue q = command_queue;
    CHECK_OK(check_copy_targets(q, src_buffer, dst_buffer));
    CHECK_OK(rect_region(src_origin, dst_origin, region));
    size_t src_start, dst_start;
    CHECK_OK(rect_side(src_origin, region, &src_row_pitch, &src_slice_pitch, src_buffer->size,
                       &src_start));
    CHECK_OK(rect_side(dst_origin, region, &dst_row_pitch, &dst_slice_pitch, dst_buffer->size,
                       &dst_start));
    LANES_CHECK(src_buffer != dst_buffer ||
                    (src_row_pitch == dst_row_pitch && src_slice_pitch == dst_slice_pitch),
                CL_INVALID_VALUE, "one buffer with different source and destination pitches");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    if (lanes_mem_root(src_buffer) == lanes_mem_root(dst_buffer)) {
        struct lanes_rect s = {src_buffer->offset + src_start, src_row_pitch, src_slice_pitch};
        struct lanes_rect d = {dst_buffer->offset + dst_start, dst_row_pitch, dst_slice_pitch};
        LANES_CHECK(!lanes_rect_overlap(s, d, region), CL_MEM_COPY_OVERLAP,
                    "the source and destination rectangles overlap");
    }
    cl_event cmd =
        command(q, CL_COMMAND_COPY_BUFFER_RECT, lanes_transfer_rect, src_buffer, dst_buffer);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    struct lanes_command *c = &cmd->cmd;
    c->u.rect.dst = (char *)lanes_mem_address(dst_buffer) + dst_start;
    c->u.rect.src = (char *)lanes_mem_address(src_buffer) + src_start;
    for (int i = 0; i < 3; i++)
        c->u.rect.region[i] = region[i];
    c->u.rect.src_pitch[0] = src_row_pitch;
    c->u.rect.src_pitch[1] = src_slice_pitch;
    c->u.rect.dst_pitch[0] = dst_row_pitch;
    c->u.rect.dst_pitch[1] = dst_slice_pitch;
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t offset, size_t size,
                                                    cl_uint num_events_in_wait_list,
                                                    const cl_event *event_wait_list,
                                                    cl_event *event)
{
    cl_command_queue q = command_queue;
    CHECK_OK(check_target(q, buffer));
    LANES_CHECK(in_bounds(buffer, offset, size), CL_INVALID_VALUE,
                "offset and size are out of bounds");
    LANES_CHECK(pattern, CL_INVALID_VALUE, "pattern is NULL");
    LANES_CHECK(pattern_size && (pattern_size & (pattern_size - 1)) == 0 && pattern_size <= 128,
                CL_INVALID_VALUE, "pattern_size is not a power of two up to 128");
    LANES_CHECK(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE,
                "offset or size is not a multiple of pattern_size");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    cl_event cmd = command(q, CL_COMMAND_FILL_BUFFER, lanes_transfer_fill, buffer, NULL);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    struct lanes_command *c = &cmd->cmd;
    c->u.fill.dst = (char *)lanes_mem_address(buffer) + offset;
    c->u.fill.size = size;
    c->u.fill.pattern_size = pattern_size;
    memcpy(c->u.fill.pattern, pattern, pattern_size);
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

#define MAP_FLAGS (CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                  cl_bool blocking_map, cl_map_flags map_flags,
                                                  size_t offset, size_t size,
                                                  cl_uint num_events_in_wait_list,
                                                  const cl_event *event_wait_list, cl_event *event,
                                                  cl_int *errcode_ret)
{
    cl_command_queue q = command_queue;
    cl_int err = check_target(q, buffer);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad queue or buffer");
    LANES_CHECK_OBJ(in_bounds(buffer, offset, size), CL_INVALID_VALUE, errcode_ret,
                    "offset and size are out of bounds");
    LANES_CHECK_OBJ(size, CL_INVALID_VALUE, errcode_ret, "size is 0");
    LANES_CHECK_OBJ(!(map_flags & ~MAP_FLAGS), CL_INVALID_VALUE, errcode_ret,
                    "unknown map_flags bits");
    LANES_CHECK_OBJ(!(map_flags & CL_MAP_WRITE_INVALIDATE_REGION) ||
                        !(map_flags & (CL_MAP_READ | CL_MAP_WRITE)),
                    CL_INVALID_VALUE, errcode_ret,
                    "CL_MAP_WRITE_INVALIDATE_REGION with CL_MAP_READ or CL_MAP_WRITE");
    err = lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "bad event_wait_list");
    LANES_CHECK_OBJ(!(map_flags & CL_MAP_READ) ||
                        !(buffer->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, errcode_ret,
                    "CL_MAP_READ of a HOST_WRITE_ONLY or HOST_NO_ACCESS buffer");
    LANES_CHECK_OBJ(!(map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ||
                        !(buffer->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)),
                    CL_INVALID_OPERATION, errcode_ret,
                    "mapping for writing a HOST_READ_ONLY or HOST_NO_ACCESS buffer");

    /* The host shares the buffer's memory: the map hands out its address. */
    void *ptr = (char *)lanes_mem_address(buffer) + offset;
    cl_event cmd = command(q, CL_COMMAND_MAP_BUFFER, NULL, buffer, NULL);
    LANES_CHECK_OBJ(cmd, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the command");
    err = lanes_mem_map_add(buffer, ptr, offset, size, map_flags);
    if (err != CL_SUCCESS) {
        lanes_command_discard(cmd);
        LANES_CHECK_OBJ(false, err, errcode_ret,
                        "overlapping regions mapped for writing, or out of memory");
    }
    /* A blocking map that cannot run returns no pointer and leaves no mapping. */
    lanes_mem_keep(buffer);
    err = lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                               event, blocking_map);
    if (err != CL_SUCCESS)
        lanes_mem_map_remove(buffer, ptr);
    lanes_mem_unkeep(buffer);
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "the map command failed");
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return ptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue,
                                                        cl_mem memobj, void *mapped_ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event *event_wait_list,
                                                        cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(lanes_mem_valid(memobj), CL_INVALID_MEM_OBJECT, "not a live memory object");
    LANES_CHECK(lanes_mem_is_mapped(memobj, mapped_ptr), CL_INVALID_VALUE,
                "mapped_ptr is not a mapping of memobj");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    LANES_CHECK(memobj->context == q->context, CL_INVALID_CONTEXT,
                "memobj belongs to another context");
    cl_event cmd = command(q, CL_COMMAND_UNMAP_MEM_OBJECT, NULL, memobj, NULL);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    if (!lanes_mem_map_remove(memobj, mapped_ptr)) {
        lanes_command_discard(cmd);
        LANES_FAIL(CL_INVALID_VALUE, "mapped_ptr was unmapped meanwhile");
    }
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(
    cl_command_queue command_queue, cl_uint num_mem_objects, const cl_mem *mem_objects,
    cl_mem_migration_flags flags, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
    cl_event *event)
{
    cl_command_queue q = command_queue;
    LANES_CHECK(lanes_queue_valid(q), CL_INVALID_COMMAND_QUEUE, "not a live queue");
    LANES_CHECK(num_mem_objects && mem_objects, CL_INVALID_VALUE, "no memory objects given");
    for (cl_uint i = 0; i < num_mem_objects; i++)
        LANES_CHECK(lanes_mem_valid(mem_objects[i]), CL_INVALID_MEM_OBJECT,
                    "not a live memory object");
    for (cl_uint i = 0; i < num_mem_objects; i++)
        LANES_CHECK(mem_objects[i]->context == q->context, CL_INVALID_CONTEXT,
                    "a memory object belongs to another context");
    LANES_CHECK(!(flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)),
                CL_INVALID_VALUE, "unknown migration flags");
    CHECK_OK(lanes_check_wait_list(q->context, num_events_in_wait_list, event_wait_list));
    /* Host and device share memory: migrating only orders the command. */
    cl_event cmd = command(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, NULL, NULL, NULL);
    LANES_CHECK(cmd, CL_OUT_OF_HOST_MEMORY, "allocating the command");
    for (cl_uint i = 0; i < num_mem_objects; i++) {
        if (lanes_command_keep_mem(cmd, mem_objects[i]) != CL_SUCCESS) {
            lanes_command_discard(cmd);
            LANES_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the command");
        }
    }
    return lanes_command_submit(cmd, num_events_in_wait_list, event_wait_list, LANES_ORDER_COMMAND,
                                event, false);
}
