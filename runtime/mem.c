/* SPDX-License-Identifier: MIT */
/* Buffers and sub-buffers: storage, lifetime, destructor callbacks, mappings. */
#include "mem.h"

#include "check.h"
#include "context.h"
#include "image.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

bool lanes_mem_is_buffer(cl_mem m)
{
    return lanes_mem_valid(m) && m->type == CL_MEM_OBJECT_BUFFER;
}

bool lanes_mem_is_image(cl_mem m)
{
    return lanes_mem_valid(m) && m->type != CL_MEM_OBJECT_BUFFER;
}

enum { HUGE_PAGE = 2 << 20 };

/*
 * A buffer's storage. One of a huge page or more starts on a huge page and
 * asks for transparent huge pages over its whole ones (Linux gives them
 * only when asked, in its default "madvise" mode): a kernel striding
 * through a big buffer (a grid-strided loop jumps the global size a step)
 * otherwise misses the TLB on nearly every access, and a streaming one
 * walks a new 4 KiB page every 64 loads (bench_reduce, on a loaded 2-CPU
 * VM: grid-strided 1.73 to 2.18 GB/s, blocked 11.5 to 15.6).
 */
static void *storage(size_t size)
{
    if (size < HUGE_PAGE) {
        size_t rounded = (size + LANES_MEM_ALIGN - 1) & ~(size_t)(LANES_MEM_ALIGN - 1);
        return aligned_alloc(LANES_MEM_ALIGN, rounded);
    }
    size_t rounded = (size + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    if (rounded < size)
        return NULL;
    void *p = aligned_alloc(HUGE_PAGE, rounded);
    if (p) /* a hint: without it (THP off) the buffer works the same */
        madvise(p, size & ~(size_t)(HUGE_PAGE - 1), MADV_HUGEPAGE);
    return p;
}

static cl_mem mem_alloc(cl_context context, cl_mem_flags flags, size_t size)
{
    cl_mem m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    if (!lanes_object_init(&m->obj, LANES_KIND_MEM)) {
        free(m);
        return NULL;
    }
    atomic_init(&m->keep, 1);
    m->context = context;
    m->type = CL_MEM_OBJECT_BUFFER;
    m->flags = flags;
    m->size = size;
    pthread_mutex_init(&m->lock, NULL);
    return m;
}

cl_mem lanes_buffer_create(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                           const cl_mem_properties *props, size_t num_props, cl_int *err)
{
    cl_mem m = mem_alloc(context, flags, size);
    if (!m) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    if (num_props) {
        m->props = malloc(num_props * sizeof *m->props);
        if (!m->props) {
            pthread_mutex_destroy(&m->lock);
            lanes_object_discard(&m->obj);
            free(m);
            *err = CL_OUT_OF_HOST_MEMORY;
            return NULL;
        }
        memcpy(m->props, props, num_props * sizeof *m->props);
        m->num_props = num_props;
    }
    if (flags & CL_MEM_USE_HOST_PTR) {
        /* The application's memory is the storage: the CPU shares it. */
        m->host_ptr = host_ptr;
        m->base = host_ptr;
    } else {
        m->alloc = storage(size);
        if (!m->alloc) {
            free(m->props);
            pthread_mutex_destroy(&m->lock);
            lanes_object_discard(&m->obj);
            free(m);
            *err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
            return NULL;
        }
        m->base = m->alloc;
        if (flags & CL_MEM_COPY_HOST_PTR)
            memcpy(m->base, host_ptr, size);
    }
    lanes_context_retain(context);
    *err = CL_SUCCESS;
    return m;
}

cl_mem lanes_sub_buffer_create(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size)
{
    cl_mem m = mem_alloc(parent->context, flags, size);
    if (!m)
        return NULL;
    m->parent = parent;
    m->offset = origin;
    m->base = parent->base + origin;
    m->uses_svm = parent->uses_svm;
    if (parent->flags & CL_MEM_USE_HOST_PTR)
        m->host_ptr = (char *)parent->host_ptr + origin;
    lanes_mem_keep(parent);
    lanes_context_retain(m->context);
    return m;
}

cl_mem lanes_image_create(cl_context context, cl_mem_flags flags, const struct lanes_image *image,
                          size_t size, void *host_ptr, const size_t host_pitch[2],
                          const cl_mem_properties *props, size_t num_props, cl_int *err)
{
    cl_mem buffer = image->desc.buffer;
    /* An image made from a buffer (or a 1D image buffer) is a view of its memory. */
    cl_mem m =
        buffer ? lanes_sub_buffer_create(buffer, flags, 0, size)
               : lanes_buffer_create(context, flags & ~CL_MEM_COPY_HOST_PTR, size,
                                     flags & CL_MEM_USE_HOST_PTR ? host_ptr : NULL, NULL, 0, err);
    if (!m) {
        if (buffer)
            *err = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    m->flags = flags;
    m->type = image->desc.image_type;
    m->image = *image;
    m->image.abi = (struct lanes_image_abi){
        .data = (unsigned char *)m->base,
        .pitch = {image->pitch[0], image->pitch[1]},
        .dims = {(int32_t)image->dims[0], (int32_t)image->dims[1], (int32_t)image->dims[2]},
        .elem_size = (int32_t)image->elem_size,
        .order = image->format.image_channel_order,
        .type = image->format.image_channel_data_type,
        .channels = lanes_image_channels(image->format.image_channel_order),
    };
    if (num_props) {
        m->props = malloc(num_props * sizeof *m->props);
        if (!m->props) {
            lanes_mem_release(m);
            *err = CL_OUT_OF_HOST_MEMORY;
            return NULL;
        }
        memcpy(m->props, props, num_props * sizeof *m->props);
        m->num_props = num_props;
    }
    if ((flags & CL_MEM_COPY_HOST_PTR) && !buffer) {
        /* The host's rows, in its pitches, to the image's. */
        const size_t *d = image->dims, *p = image->pitch;
        size_t row = d[0] * image->elem_size;
        for (size_t z = 0; z < d[2]; z++)
            for (size_t y = 0; y < d[1]; y++)
                memcpy(m->base + z * p[1] + y * p[0],
                       (const char *)host_ptr + z * host_pitch[1] + y * host_pitch[0], row);
    }
    *err = CL_SUCCESS;
    return m;
}

void lanes_mem_keep(cl_mem m)
{
    atomic_fetch_add_explicit(&m->keep, 1, memory_order_relaxed);
}

void lanes_mem_unkeep(cl_mem m)
{
    if (atomic_fetch_sub_explicit(&m->keep, 1, memory_order_acq_rel) != 1)
        return;
    /*
     * No application reference and no command is left. The callbacks run
     * newest first, with no lock held, before the storage goes away.
     */
    lanes_object_discard(&m->obj); /* in case its last reference was never dropped */
    for (struct lanes_mem_destructor_cb *cb = m->destructors, *next; cb; cb = next) {
        next = cb->next;
        cb->fn(m, cb->user_data);
        free(cb);
    }
    for (struct lanes_mem_map *map = m->maps, *next; map; map = next) {
        next = map->next;
        free(map);
    }
    cl_mem parent = m->parent;
    cl_context c = m->context;
    free(m->alloc);
    free(m->props);
    pthread_mutex_destroy(&m->lock);
    free(m);
    if (parent)
        lanes_mem_unkeep(parent);
    lanes_context_release(c);
}

void lanes_mem_release(cl_mem m)
{
    if (lanes_object_release(&m->obj))
        lanes_mem_unkeep(m);
}

cl_int lanes_mem_add_destructor(cl_mem m, lanes_mem_destructor fn, void *user_data)
{
    struct lanes_mem_destructor_cb *cb = malloc(sizeof *cb);
    if (!cb)
        return CL_OUT_OF_HOST_MEMORY;
    cb->fn = fn;
    cb->user_data = user_data;
    pthread_mutex_lock(&m->lock);
    cb->next = m->destructors;
    m->destructors = cb;
    pthread_mutex_unlock(&m->lock);
    return CL_SUCCESS;
}

/* True when two recorded mappings share a byte, or a texel for two of an image. */
static bool maps_overlap(const struct lanes_mem_map *a, const struct lanes_mem_map *b)
{
    if (a->boxed && b->boxed) {
        for (int i = 0; i < 3; i++)
            if (a->box[0][i] + a->box[1][i] <= b->box[0][i] ||
                b->box[0][i] + b->box[1][i] <= a->box[0][i])
                return false;
        return true;
    }
    return a->offset < b->offset + b->size && b->offset < a->offset + a->size;
}

static cl_int map_insert(cl_mem m, struct lanes_mem_map *map)
{
    const cl_map_flags writes = CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    pthread_mutex_lock(&m->lock);
    for (struct lanes_mem_map *o = m->maps; (map->flags & writes) && o; o = o->next) {
        if ((o->flags & writes) && maps_overlap(o, map)) {
            pthread_mutex_unlock(&m->lock);
            free(map);
            return CL_INVALID_OPERATION;
        }
    }
    map->next = m->maps;
    m->maps = map;
    m->map_count++;
    pthread_mutex_unlock(&m->lock);
    return CL_SUCCESS;
}

cl_int lanes_mem_map_add(cl_mem m, void *ptr, size_t offset, size_t size, cl_map_flags flags)
{
    struct lanes_mem_map *map = calloc(1, sizeof *map);
    if (!map)
        return CL_OUT_OF_HOST_MEMORY;
    map->ptr = ptr;
    map->offset = offset;
    map->size = size;
    map->flags = flags;
    return map_insert(m, map);
}

cl_int lanes_mem_map_add_box(cl_mem m, void *ptr, const size_t origin[3], const size_t region[3],
                             cl_map_flags flags)
{
    struct lanes_mem_map *map = calloc(1, sizeof *map);
    if (!map)
        return CL_OUT_OF_HOST_MEMORY;
    map->ptr = ptr;
    map->flags = flags;
    map->boxed = true;
    for (int i = 0; i < 3; i++) {
        map->box[0][i] = origin[i];
        map->box[1][i] = region[i];
    }
    return map_insert(m, map);
}

bool lanes_mem_map_remove(cl_mem m, void *ptr)
{
    pthread_mutex_lock(&m->lock);
    struct lanes_mem_map **p = &m->maps;
    while (*p && (*p)->ptr != ptr)
        p = &(*p)->next;
    struct lanes_mem_map *map = *p;
    if (map) {
        *p = map->next;
        m->map_count--;
    }
    pthread_mutex_unlock(&m->lock);
    free(map);
    return map != NULL;
}

bool lanes_mem_is_mapped(cl_mem m, void *ptr)
{
    pthread_mutex_lock(&m->lock);
    struct lanes_mem_map *map = m->maps;
    while (map && map->ptr != ptr)
        map = map->next;
    pthread_mutex_unlock(&m->lock);
    return map != NULL;
}

cl_int lanes_mem_check_inherited(cl_mem_flags parent, cl_mem_flags flags)
{
    LANES_CHECK(!(parent & CL_MEM_WRITE_ONLY) || !(flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)),
                CL_INVALID_VALUE, "the buffer is WRITE_ONLY");
    LANES_CHECK(!(parent & CL_MEM_READ_ONLY) || !(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)),
                CL_INVALID_VALUE, "the buffer is READ_ONLY");
    LANES_CHECK(!(parent & CL_MEM_HOST_WRITE_ONLY) || !(flags & CL_MEM_HOST_READ_ONLY),
                CL_INVALID_VALUE, "the buffer is HOST_WRITE_ONLY");
    LANES_CHECK(!(parent & CL_MEM_HOST_READ_ONLY) || !(flags & CL_MEM_HOST_WRITE_ONLY),
                CL_INVALID_VALUE, "the buffer is HOST_READ_ONLY");
    LANES_CHECK(!(parent & CL_MEM_HOST_NO_ACCESS) ||
                    !(flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)),
                CL_INVALID_VALUE, "the buffer is HOST_NO_ACCESS");
    return CL_SUCCESS;
}
