/* SPDX-License-Identifier: MIT */
/*
 * The launcher ABI between the compiler and runtime/exec, and what a
 * specialization of a kernel is for (local size, work_dim, W).
 *
 * A launcher runs one whole work-group:
 *     void launcher(const void *args, const struct lanes_wg *wg);
 * `args` is the argument block: each kernel argument in its slot at
 * lanes_kernel_arg.offset (compiler/program.h): by-value arguments as their
 * bytes, buffers as the host address (NULL allowed), __local arguments as
 * the byte offset of their region in the work-group's local memory.
 * Everything is plain data: no argument is marshalled at launch.
 */
#ifndef LANES_COMPILER_ABI_H
#define LANES_COMPILER_ABI_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What a work-group sees (get_global_id and friends read it). Dimensions at
 * or above work_dim hold size 1, offset 0 and id 0, as the specification
 * asks of the built-ins there. Field offsets are part of the ABI: the
 * compiler reads them with the LANES_WG_* constants below.
 */
struct lanes_wg {
    uint64_t group_id[3];
    uint64_t local_size[3]; /* of this work-group: smaller for the last, non-uniform ones */
    uint64_t global_size[3];
    uint64_t global_offset[3];
    uint64_t num_groups[3];
    uint64_t enqueued_local_size[3];
    char *local_mem; /* this work-group's __local memory: the kernel's variables, then arguments */
    uint32_t work_dim;
    /*
     * Memory for the frames of a work-group's sub-groups when the kernel has
     * barriers (coroutines): valid until the launcher returns, never freed
     * one by one. The runtime serves it from the frames of the thread's
     * work-group memory slot (runtime/exec/wgmem.h).
     */
    void *(*frame_alloc)(uint64_t size);
    /*
     * Work-group scratch of LANES_WG_SCRATCH_SIZE bytes (64-byte aligned)
     * for the built-ins that act for the whole work-group (work_group_reduce
     * and friends, builtins/workgroup/): work-group-shared like __local
     * memory, but apart from it, so that a kernel's __local budget and
     * CL_KERNEL_LOCAL_MEM_SIZE stay its own. The library reaches it through
     * __lanes_wg_scratch(), which compiler/workitem.c lowers to this field.
     */
    void *scratch;
    /*
     * The program object's block of program-scope variables
     * (compiler/globals.h): each variable is at a fixed offset from it. The
     * code never holds the block's address, so one launcher serves every
     * program built from the same module, in this process or the next.
     */
    char *globals;
    /*
     * The command's printf buffer (compiler/printf.h) when the kernel calls
     * printf, else NULL; the runtime prints its records when the command
     * completes.
     */
    struct lanes_printf_buffer *printf_buffer;
    /*
     * What to_global, to_local, to_private and get_fence (compiler/generic.c)
     * need to tell a generic pointer's address space in one flat address
     * space. Every thread runs work-groups with its __local memory inside
     * [local_region, local_region + local_region_size) and its private
     * memory (stack and coroutine frames) inside [private_region,
     * private_region + private_region_size): the same two ranges for every
     * thread and launch of the process (runtime/exec/wgmem.h), so an
     * address written by one work-group classifies alike in another.
     */
    char *local_region;
    uint64_t local_region_size;
    char *private_region;
    uint64_t private_region_size;
};

enum {
    LANES_WG_GROUP_ID = 0,
    LANES_WG_LOCAL_SIZE = 24,
    LANES_WG_GLOBAL_SIZE = 48,
    LANES_WG_GLOBAL_OFFSET = 72,
    LANES_WG_NUM_GROUPS = 96,
    LANES_WG_ENQUEUED_LOCAL_SIZE = 120,
    LANES_WG_LOCAL_MEM = 144,
    LANES_WG_WORK_DIM = 152,
    LANES_WG_FRAME_ALLOC = 160,
    LANES_WG_SCRATCH = 168,
    LANES_WG_GLOBALS = 176,
    LANES_WG_PRINTF = 184,
    LANES_WG_LOCAL_REGION = 192,
    LANES_WG_LOCAL_REGION_SIZE = 200,
    LANES_WG_PRIVATE_REGION = 208,
    LANES_WG_PRIVATE_REGION_SIZE = 216,
};

/*
 * The work-group scratch holds a 64-byte head (a collective's result) and
 * one 8-byte slot per work-item, for work-groups of up to
 * LANES_WG_SCRATCH_ITEMS work-items (builtins/workgroup/workgroup.cl).
 */
#define LANES_WG_SCRATCH_ITEMS 4096

/* The most work-items a work-group has (CL_DEVICE_MAX_WORK_GROUP_SIZE). */
#define LANES_MAX_GROUP_ITEMS 4096
#define LANES_WG_SCRATCH_SIZE (64 + 8 * LANES_WG_SCRATCH_ITEMS)

/*
 * Stacks: a launcher's frames hold the private memory of a sub-group (W
 * work-items at once). Every thread runs work-groups on a stack of
 * LANES_WORKER_STACK_BYTES (runtime/exec/wgmem.h; address space: only the
 * pages touched are memory); a launcher that needs more than
 * LANES_LAUNCHER_MAX_STACK (a MiB left for the runtime's frames) runs
 * narrower or not at all.
 */
#define LANES_WORKER_STACK_BYTES ((size_t)64 << 20)
#define LANES_LAUNCHER_MAX_STACK (LANES_WORKER_STACK_BYTES - ((size_t)1 << 20))

/* The most __local memory a work-group has (CL_DEVICE_LOCAL_MEM_SIZE is at most this). */
#define LANES_MAX_LOCAL_MEM ((size_t)256 << 10)

static_assert(offsetof(struct lanes_wg, local_mem) == LANES_WG_LOCAL_MEM, "ABI");
static_assert(offsetof(struct lanes_wg, work_dim) == LANES_WG_WORK_DIM, "ABI");
static_assert(offsetof(struct lanes_wg, frame_alloc) == LANES_WG_FRAME_ALLOC, "ABI");
static_assert(offsetof(struct lanes_wg, scratch) == LANES_WG_SCRATCH, "ABI");
static_assert(offsetof(struct lanes_wg, globals) == LANES_WG_GLOBALS, "ABI");
static_assert(offsetof(struct lanes_wg, printf_buffer) == LANES_WG_PRINTF, "ABI");
static_assert(offsetof(struct lanes_wg, local_region) == LANES_WG_LOCAL_REGION, "ABI");
static_assert(offsetof(struct lanes_wg, local_region_size) == LANES_WG_LOCAL_REGION_SIZE, "ABI");
static_assert(offsetof(struct lanes_wg, private_region) == LANES_WG_PRIVATE_REGION, "ABI");
static_assert(offsetof(struct lanes_wg, private_region_size) == LANES_WG_PRIVATE_REGION_SIZE,
              "ABI");

/*
 * What a kernel's image argument points at: the image as its built-ins
 * (builtins/image/) see it, the same box as runtime/mem.h's lanes_image.
 * An image argument's slot holds the address of its object's descriptor;
 * a sampler argument's slot holds the sampler's bits as a pointer, the
 * CLK_* values of opencl-c-base.h (normalized coordinates 1, addressing
 * mode 0-8, filter 0x10 nearest or 0x20 linear), which is also what
 * __translate_sampler_initializer makes of a sampler in the source.
 */
struct lanes_image_abi {
    unsigned char *data; /* texel (0, 0, 0) */
    uint64_t pitch[2];   /* bytes from one row to the next, one slice (or layer) to the next */
    int32_t dims[3];     /* the box in texels: width, rows (or 1D layers), slices (or 2D layers) */
    int32_t elem_size;   /* bytes of one texel */
    uint32_t order;      /* cl_channel_order */
    uint32_t type;       /* cl_channel_type */
    int32_t channels;    /* stored channels of a texel: 1, 2 or 4 */
    int32_t pad;
};
static_assert(sizeof(struct lanes_image_abi) == 56, "ABI: builtins/image/image.cl");
static_assert(offsetof(struct lanes_image_abi, dims) == 24, "ABI: builtins/image/image.cl");
static_assert(offsetof(struct lanes_image_abi, channels) == 48, "ABI: builtins/image/image.cl");

typedef void (*lanes_launcher_fn)(const void *args, const struct lanes_wg *wg);

/*
 * The format of an image argument a launcher is compiled for: the fields of
 * its lanes_image_abi that the image built-ins switch on, which the
 * compiler folds (compiler/image_formats.c). All zero: any format.
 */
struct lanes_image_format_spec {
    uint16_t order, type;
    uint8_t channels, elem_size, pad[2];
};

/* The arguments (by index) whose image formats a specialization may fix. */
#define LANES_SPEC_IMAGE_ARGS 16

/* What a specialization is for. */
struct lanes_specialization {
    uint64_t local_size[3]; /* the enqueued local size, folded into the code */
    uint32_t work_dim;
    /*
     * W: work-items per sub-group, the runs of W consecutive local linear
     * ids; only the last sub-group of a work-group may be partial.
     * compiler/width.c chooses it; 1 runs every work-item alone.
     */
    uint32_t width;
    /*
     * The local size of the work-groups this launcher runs: the enqueued
     * one, or smaller in the dimensions where the last work-group of a
     * non-uniform NDRange is cut (0 stands for the enqueued size). Every
     * size is a constant of the code, so a sub-group's lanes are known at
     * compile time to stay in one row or not.
     */
    uint64_t group_size[3];
    /*
     * True when every global id and offset of the launch fits in 31 bits
     * (global offset + global size <= INT32_MAX in every dimension): the
     * ids are then computed in 32 bits without overflow, and a kernel's
     * `int i = get_global_id(0)` indexes memory contiguously.
     */
    uint32_t small_ids;
    /*
     * True for a launcher of every local size (tier 0): it reads the sizes
     * from its lanes_wg at run time, so one compile serves every shape of
     * a (kernel, W, work_dim, small_ids, rows) at once; local_size and group_size
     * are then 0. The runtime uses it until the shape's own launcher is
     * built in the background (runtime/ndrange.c).
     */
    uint32_t dynamic;
    /*
     * For tier 0: true when it runs only work-groups whose rows (local
     * size in x) are a multiple of W. As in a shape's own launcher, each
     * sub-group then lies in one row and is full, and its lanes' ids in x
     * are contiguous: a kernel indexing by them makes vector accesses, not
     * gathers and scatters. Other work-groups (other shapes, or the last
     * ones of a non-uniform NDRange, cut short in x) share the other
     * tier-0 launcher, which finds each lane's ids by dividing its local
     * linear id.
     */
    uint32_t rows;
    /*
     * The format of each image argument among the first
     * LANES_SPEC_IMAGE_ARGS, by argument index (zeros elsewhere): the
     * launcher runs only images of these formats (runtime/api_ndrange.c
     * checks), and its format switches are folded away.
     */
    struct lanes_image_format_spec image_formats[LANES_SPEC_IMAGE_ARGS];
};

/* The local size of the work-groups `spec` runs, in dimension d. */
static inline uint64_t lanes_spec_group_size(const struct lanes_specialization *spec, unsigned d)
{
    return spec->group_size[d] ? spec->group_size[d] : spec->local_size[d];
}

/* True when W divides the rows of every work-group `spec` runs: a sub-group stays in one row. */
static inline bool lanes_spec_rows(const struct lanes_specialization *spec)
{
    return spec->width == 1 ||
           (spec->dynamic ? spec->rows != 0 : lanes_spec_group_size(spec, 0) % spec->width == 0);
}

#endif
