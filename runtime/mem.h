/* SPDX-License-Identifier: MIT */
/*
 * Memory objects: buffers and sub-buffers. The CPU shares memory with the
 * host, so a buffer is one host allocation (or the application's memory with
 * CL_MEM_USE_HOST_PTR) at a fixed address for its whole life: commands and
 * kernels reach it through lanes_mem_address().
 */
#ifndef LANES_RUNTIME_MEM_H
#define LANES_RUNTIME_MEM_H

#include "../compiler/abi.h"
#include "object.h"

#include <pthread.h>

/* The alignment of every allocation: CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes. */
#define LANES_MEM_ALIGN 128

/* Flags that say how kernels and the host may access a memory object. */
#define LANES_MEM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define LANES_MEM_HOST_FLAGS                                                                       \
    (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define LANES_MEM_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

typedef void(CL_CALLBACK *lanes_mem_destructor)(cl_mem memobj, void *user_data);

struct lanes_mem_destructor_cb {
    struct lanes_mem_destructor_cb *next; /* the one registered before */
    lanes_mem_destructor fn;
    void *user_data;
};

/*
 * What an image adds to a memory object. Every image type is seen as a box
 * of texels dims[0] x dims[1] x dims[2], rows and layers alike: a 1D array's
 * layers are its rows (dims[1], pitch[0] its slice pitch), a 2D array's its
 * slices. pitch[0] and pitch[1] are the byte strides of dims 1 and 2.
 */
struct lanes_image {
    cl_image_format format;
    cl_image_desc desc; /* as resolved: pitches filled in, buffer the associated object */
    size_t elem_size;
    size_t dims[3];
    size_t pitch[2];
    /* What a kernel's image argument points at (its built-ins read the image through it). */
    struct lanes_image_abi abi;
};

/* A region handed out by clEnqueueMapBuffer or clEnqueueMapImage and not unmapped yet. */
struct lanes_mem_map {
    struct lanes_mem_map *next;
    void *ptr;
    size_t offset, size;
    cl_map_flags flags;
    bool boxed;       /* an image's: the box of texels below, not the bytes above */
    size_t box[2][3]; /* origin, region */
};

struct _cl_mem {
    struct lanes_object obj; /* refs: the application's references */
    atomic_uint keep;        /* the runtime's: 1 while refs > 0, plus commands, sub-buffers */
    cl_context context;
    cl_mem_object_type type;
    cl_mem_flags flags; /* as given, plus what a sub-buffer inherits */
    size_t size;
    void *host_ptr; /* CL_MEM_HOST_PTR: the application's, with USE_HOST_PTR */
    char *base;     /* byte 0 of this object */
    void *alloc;    /* what this object allocated, freed with it */
    bool uses_svm;  /* CL_MEM_USES_SVM_POINTER: USE_HOST_PTR on a clSVMAlloc pointer */
    cl_mem parent;  /* a sub-buffer's buffer, or the buffer an image was made from */
    size_t offset;  /* a sub-buffer's origin in its buffer */
    /* The properties as given to clCreateBufferWithProperties, with their 0. */
    cl_mem_properties *props;
    size_t num_props;
    pthread_mutex_t lock;                        /* guards the lists and the map count */
    struct lanes_mem_destructor_cb *destructors; /* newest first */
    struct lanes_mem_map *maps;
    cl_uint map_count;
    struct lanes_image image; /* images only */
};
LANES_OBJECT_FIRST(struct _cl_mem);

/* True when `m` is a live memory object. */
static inline bool lanes_mem_valid(cl_mem m)
{
    return lanes_object_is(m, LANES_KIND_MEM);
}

/* True when `m` is a live buffer or sub-buffer. */
bool lanes_mem_is_buffer(cl_mem m);

/* The host address of byte 0 of a buffer (a sub-buffer's origin included). */
static inline void *lanes_mem_address(cl_mem m)
{
    return m->base;
}

/* The buffer a sub-buffer belongs to, or the buffer itself. */
static inline cl_mem lanes_mem_root(cl_mem m)
{
    return m->parent ? m->parent : m;
}

/* True when `m` is a live image. */
bool lanes_mem_is_image(cl_mem m);

/*
 * The CL_INVALID_VALUE cases where the flags of a memory object made from
 * a buffer (a sub-buffer, an image) contradict the buffer's; CL_SUCCESS
 * otherwise.
 */
cl_int lanes_mem_check_inherited(cl_mem_flags parent, cl_mem_flags flags);

/* Creates a buffer from validated arguments; sets *err on failure. */
cl_mem lanes_buffer_create(cl_context context, cl_mem_flags flags, size_t size, void *host_ptr,
                           const cl_mem_properties *props, size_t num_props, cl_int *err);

/*
 * Creates an image from validated arguments: its own storage, the
 * application's (USE_HOST_PTR, `image` then has the host's pitches) or the
 * memory of image->desc.buffer. COPY_HOST_PTR copies from `host_ptr` laid
 * out in `host_pitch`. Sets *err on failure.
 */
cl_mem lanes_image_create(cl_context context, cl_mem_flags flags, const struct lanes_image *image,
                          size_t size, void *host_ptr, const size_t host_pitch[2],
                          const cl_mem_properties *props, size_t num_props, cl_int *err);

/* Creates a sub-buffer from validated arguments; NULL when out of memory. */
cl_mem lanes_sub_buffer_create(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size);

/* Runtime references (commands and sub-buffers hold one each). */
void lanes_mem_keep(cl_mem m);
void lanes_mem_unkeep(cl_mem m);

/* Drops an application reference. */
void lanes_mem_release(cl_mem m);

/* Registers a destructor callback; CL_OUT_OF_HOST_MEMORY on failure. */
cl_int lanes_mem_add_destructor(cl_mem m, lanes_mem_destructor fn, void *user_data);

/*
 * Records a mapping handed to the application: CL_INVALID_OPERATION when it
 * and another mapping of `m` for writing overlap, CL_OUT_OF_HOST_MEMORY.
 */
cl_int lanes_mem_map_add(cl_mem m, void *ptr, size_t offset, size_t size, cl_map_flags flags);

/* The same for a box of an image's texels, which overlaps others by its texels. */
cl_int lanes_mem_map_add_box(cl_mem m, void *ptr, const size_t origin[3], const size_t region[3],
                             cl_map_flags flags);

/* True when `ptr` is a mapping of `m` not unmapped yet. */
bool lanes_mem_is_mapped(cl_mem m, void *ptr);

/* Forgets one mapping at `ptr`; false when `ptr` was not mapped from `m`. */
bool lanes_mem_map_remove(cl_mem m, void *ptr);

#endif
