/* SPDX-License-Identifier: MIT */
/* Kernel entries: creation from a built program and the kernel queries. */
#include "../compiler/program.h"
#include "../compiler/width.h"
#include "check.h"
#include "context.h"
#include "info.h"
#include "kernel.h"
#include "mem.h"
#include "sampler.h"
#include "launchers.h"
#include "platform.h"
#include "program.h"

#include <stdlib.h>
#include <string.h>

/* A new kernel object for `info` with no argument set; takes a reference to the program. */
static cl_kernel kernel_new(cl_program program, const struct lanes_kernel_info *info)
{
    cl_kernel k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->block = calloc(1, info->args_size ? info->args_size : 1);
    k->argv = calloc(info->num_args ? info->num_args : 1, sizeof *k->argv);
    if (!k->block || !k->argv || !lanes_object_init(&k->obj, LANES_KIND_KERNEL)) {
        free(k->block), free(k->argv), free(k);
        return NULL;
    }
    pthread_mutex_init(&k->lock, NULL);
    k->program = program;
    k->info = info;
    lanes_program_retain(program);
    atomic_fetch_add(&program->kernels, 1);
    return k;
}

static void kernel_release(cl_kernel k)
{
    if (!lanes_object_release(&k->obj))
        return;
    cl_program p = k->program;
    pthread_mutex_destroy(&k->lock);
    free(k->block);
    free(k->argv);
    free(k);
    atomic_fetch_sub(&p->kernels, 1);
    lanes_program_release(p);
}

/* The program's module once built, or NULL; the module lives until the program is rebuilt,
 * which attached kernels forbid. */
static const struct lanes_program_module *built_module(cl_program p)
{
    pthread_mutex_lock(&p->lock);
    const struct lanes_program_module *m =
        p->status == CL_BUILD_SUCCESS && p->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE
            ? p->module
            : NULL;
    pthread_mutex_unlock(&p->lock);
    return m;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char *kernel_name,
                                                  cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_program_valid(program), CL_INVALID_PROGRAM, errcode_ret,
                    "not a live program");
    const struct lanes_program_module *m = built_module(program);
    LANES_CHECK_OBJ(m, CL_INVALID_PROGRAM_EXECUTABLE, errcode_ret, "the program is not built");
    LANES_CHECK_OBJ(kernel_name, CL_INVALID_VALUE, errcode_ret, "kernel_name is NULL");
    for (size_t i = 0; i < m->num_kernels; i++) {
        if (strcmp(m->kernels[i].name, kernel_name) == 0) {
            cl_kernel k = kernel_new(program, &m->kernels[i]);
            LANES_CHECK_OBJ(k, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the kernel");
            lanes_set_error(errcode_ret, CL_SUCCESS);
            return k;
        }
    }
    LANES_FAIL_OBJ(CL_INVALID_KERNEL_NAME, errcode_ret, "no kernel of that name");
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                                         cl_kernel *kernels,
                                                         cl_uint *num_kernels_ret)
{
    LANES_CHECK(lanes_program_valid(program), CL_INVALID_PROGRAM, "not a live program");
    const struct lanes_program_module *m = built_module(program);
    LANES_CHECK(m, CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built");
    LANES_CHECK(!kernels || num_kernels >= m->num_kernels, CL_INVALID_VALUE,
                "num_kernels is smaller than the number of kernels");
    if (kernels) {
        for (size_t i = 0; i < m->num_kernels; i++) {
            kernels[i] = kernel_new(program, &m->kernels[i]);
            if (!kernels[i]) {
                while (i--)
                    kernel_release(kernels[i]);
                LANES_FAIL(CL_OUT_OF_HOST_MEMORY, "allocating the kernels");
            }
        }
    }
    if (num_kernels_ret)
        *num_kernels_ret = (cl_uint)m->num_kernels;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel)
{
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    lanes_object_retain(&kernel->obj);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel)
{
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    kernel_release(kernel);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_kernel_valid(source_kernel), CL_INVALID_KERNEL, errcode_ret,
                    "not a live kernel");
    cl_kernel k = kernel_new(source_kernel->program, source_kernel->info);
    LANES_CHECK_OBJ(k, CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the kernel");
    /* The clone starts with the source's argument values, which later change apart. */
    pthread_mutex_lock(&source_kernel->lock);
    memcpy(k->block, source_kernel->block, k->info->args_size);
    memcpy(k->argv, source_kernel->argv, k->info->num_args * sizeof *k->argv);
    pthread_mutex_unlock(&source_kernel->lock);
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return k;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                               const void *arg_value)
{
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    LANES_CHECK(arg_index < kernel->info->num_args, CL_INVALID_ARG_INDEX,
                "arg_index is not an argument");
    const struct lanes_kernel_arg *a = &kernel->info->args[arg_index];
    struct lanes_kernel_argval v = {.set = true};
    uint64_t sampler_bits = 0;
    switch (a->kind) {
    case LANES_ARG_LOCAL:
        LANES_CHECK(!arg_value, CL_INVALID_ARG_VALUE, "a __local argument takes no value");
        LANES_CHECK(arg_size, CL_INVALID_ARG_SIZE, "a __local argument needs a size");
        LANES_CHECK(arg_size <= kernel->program->context->devices[0]->local_mem_size,
                    CL_INVALID_ARG_SIZE, "larger than CL_DEVICE_LOCAL_MEM_SIZE");
        v.local_size = arg_size;
        break;
    case LANES_ARG_BUFFER:
        LANES_CHECK(arg_size == sizeof(cl_mem), CL_INVALID_ARG_SIZE,
                    "a buffer argument takes sizeof(cl_mem)");
        v.mem = arg_value ? *(const cl_mem *)arg_value : NULL;
        /* NULL (or a pointer to NULL) makes the kernel see a NULL pointer. */
        LANES_CHECK(!v.mem ||
                        (lanes_mem_is_buffer(v.mem) && v.mem->context == kernel->program->context),
                    CL_INVALID_MEM_OBJECT, "not a buffer of the kernel's context");
        break;
    /* The size is checked first, as for every other argument; then the object. */
    case LANES_ARG_IMAGE: {
        LANES_CHECK(arg_size == sizeof(cl_mem), CL_INVALID_ARG_SIZE,
                    "an image argument takes sizeof(cl_mem)");
        /* A NULL arg_value is no image, as for a sampler. */
        v.mem = arg_value ? *(const cl_mem *)arg_value : NULL;
        LANES_CHECK(lanes_mem_valid(v.mem) && lanes_mem_is_image(v.mem) &&
                        v.mem->context == kernel->program->context,
                    CL_INVALID_MEM_OBJECT, "not an image of the kernel's context");
        LANES_CHECK(v.mem->type == a->image_type, CL_INVALID_MEM_OBJECT,
                    "the image is not of the argument's image type");
        LANES_CHECK(
            !(a->access == CL_KERNEL_ARG_ACCESS_READ_ONLY && (v.mem->flags & CL_MEM_WRITE_ONLY)) &&
                !(a->access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
                  (v.mem->flags & CL_MEM_READ_ONLY)),
            CL_INVALID_ARG_VALUE, "the image's flags forbid the argument's access");
        LANES_CHECK(a->access != CL_KERNEL_ARG_ACCESS_READ_WRITE ||
                        !(v.mem->flags & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY)),
                    CL_INVALID_ARG_VALUE, "a read_write image argument needs a read-write image");
        break;
    }
    case LANES_ARG_SAMPLER: {
        LANES_CHECK(arg_size == sizeof(cl_sampler), CL_INVALID_ARG_SIZE,
                    "a sampler argument takes sizeof(cl_sampler)");
        /* A NULL arg_value is no sampler (as the CTS's negative_invalid_arg_sampler asks). */
        cl_sampler s = arg_value ? *(const cl_sampler *)arg_value : NULL;
        LANES_CHECK(lanes_sampler_valid(s) && s->context == kernel->program->context,
                    CL_INVALID_SAMPLER, "not a sampler of the kernel's context");
        sampler_bits = lanes_sampler_bits(s);
        break;
    }
    case LANES_ARG_VALUE:
        LANES_CHECK(arg_value, CL_INVALID_ARG_VALUE, "arg_value is NULL");
        LANES_CHECK(arg_size == a->size, CL_INVALID_ARG_SIZE,
                    "arg_size is not the size of the argument's type");
        break;
    }
    pthread_mutex_lock(&kernel->lock);
    if (a->kind == LANES_ARG_VALUE)
        memcpy(kernel->block + a->offset, arg_value, arg_size);
    else if (a->kind == LANES_ARG_SAMPLER)
        memcpy(kernel->block + a->offset, &sampler_bits, sizeof sampler_bits);
    kernel->argv[arg_index] = v;
    pthread_mutex_unlock(&kernel->lock);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                                size_t param_value_size, void *param_value,
                                                size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    const struct lanes_kernel_info *k = kernel->info;
    switch (param_name) {
    case CL_KERNEL_FUNCTION_NAME: return lanes_info_string(out, k->name);
    case CL_KERNEL_NUM_ARGS: return LANES_INFO(out, cl_uint, (cl_uint)k->num_args);
    case CL_KERNEL_REFERENCE_COUNT:
        return LANES_INFO(out, cl_uint, lanes_object_refs(&kernel->obj));
    case CL_KERNEL_CONTEXT: return LANES_INFO(out, cl_context, kernel->program->context);
    case CL_KERNEL_PROGRAM: return LANES_INFO(out, cl_program, kernel->program);
    case CL_KERNEL_ATTRIBUTES: return lanes_info_string(out, k->attributes);
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
                                                   cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void *param_value,
                                                   size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    LANES_CHECK(arg_index < kernel->info->num_args, CL_INVALID_ARG_INDEX,
                "arg_index is not an argument");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    const struct lanes_kernel_arg *a = &kernel->info->args[arg_index];
    switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    case CL_KERNEL_ARG_TYPE_NAME:
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
    case CL_KERNEL_ARG_NAME: break;
    default: LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
    }
    LANES_CHECK(kernel->program->kernel_arg_info, CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                "the program was not built with -cl-kernel-arg-info");
    switch (param_name) {
    case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
        return LANES_INFO(out, cl_kernel_arg_address_qualifier, a->address);
    case CL_KERNEL_ARG_ACCESS_QUALIFIER:
        return LANES_INFO(out, cl_kernel_arg_access_qualifier, a->access);
    case CL_KERNEL_ARG_TYPE_NAME: return lanes_info_string(out, a->type_name);
    case CL_KERNEL_ARG_TYPE_QUALIFIER:
        return LANES_INFO(out, cl_kernel_arg_type_qualifier, a->type_qualifier);
    }
    return lanes_info_string(out, a->name);
}

static size_t kernel_preferred_width(cl_kernel kernel);

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info param_name,
                                                         size_t param_value_size, void *param_value,
                                                         size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    cl_context c = kernel->program->context;
    LANES_CHECK(device ? lanes_context_has_device(c, device) : c->num_devices == 1,
                CL_INVALID_DEVICE, "device is not the kernel's, or NULL with several devices");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    const struct lanes_kernel_info *k = kernel->info;
    switch (param_name) {
    case CL_KERNEL_WORK_GROUP_SIZE: {
        size_t n = LANES_MAX_WORK_GROUP_SIZE;
        if (k->reqd_work_group_size[0])
            n = k->reqd_work_group_size[0] * k->reqd_work_group_size[1] *
                k->reqd_work_group_size[2];
        return LANES_INFO(out, size_t, n);
    }
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
        return lanes_info(out, k->reqd_work_group_size, sizeof k->reqd_work_group_size);
    case CL_KERNEL_LOCAL_MEM_SIZE: {
        /* The kernel's own __local variables plus the __local arguments set so far. */
        cl_ulong total = k->local_mem_size;
        pthread_mutex_lock(&kernel->lock);
        for (size_t i = 0; i < k->num_args; i++)
            total += kernel->argv[i].local_size;
        pthread_mutex_unlock(&kernel->lock);
        return LANES_INFO(out, cl_ulong, total);
    }
    /* A sub-group's width: groups of whole sub-groups leave no lane idle. */
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
        return LANES_INFO(out, size_t, kernel_preferred_width(kernel));
    case CL_KERNEL_PRIVATE_MEM_SIZE: {
        /*
         * The stack a work-item takes: the frames of the kernel's width-1
         * launcher (compiled now if no launch has; its private arrays and
         * spills). A kernel too big to run at all fails the query as its
         * launches do, with the reason in the build log.
         */
        struct lanes_specialization spec = {.work_dim = 1, .small_ids = 1, .width = 1};
        for (unsigned d = 0; d < 3; d++)
            spec.local_size[d] = k->reqd_work_group_size[0] ? k->reqd_work_group_size[d] : 1;
        const struct lanes_launcher *l = lanes_launchers_get(kernel->program, k, &spec);
        LANES_CHECK(l, CL_OUT_OF_RESOURCES, "the kernel cannot be compiled (see the build log)");
        return LANES_INFO(out, cl_ulong, l->stack_bytes);
    }
    /* cl_intel_required_subgroup_size: no register file to spill from, so none. */
    case CL_KERNEL_SPILL_MEM_SIZE_INTEL: return LANES_INFO(out, cl_ulong, 0);
    case CL_KERNEL_GLOBAL_WORK_SIZE:
        LANES_FAIL(CL_INVALID_VALUE, "only for built-in kernels or custom devices");
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

/* Any pointer value is accepted for a __global or __constant pointer: SVM is host memory. */
CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                                         const void *arg_value)
{
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    LANES_CHECK(arg_index < kernel->info->num_args, CL_INVALID_ARG_INDEX,
                "arg_index is not an argument");
    LANES_CHECK(kernel->info->args[arg_index].kind == LANES_ARG_BUFFER, CL_INVALID_ARG_VALUE,
                "not a __global or __constant pointer argument");
    struct lanes_kernel_argval v = {.set = true, .svm = true, .svm_ptr = (void *)arg_value};
    pthread_mutex_lock(&kernel->lock);
    kernel->argv[arg_index] = v;
    pthread_mutex_unlock(&kernel->lock);
    return CL_SUCCESS;
}

/* The pointers a kernel may reach are all host memory already: nothing to record. */
CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel,
                                                    cl_kernel_exec_info param_name,
                                                    size_t param_value_size,
                                                    const void *param_value)
{
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    switch (param_name) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS:
        /* A size of 0 with NULL unsets the pointers set before (nothing to do either). */
        LANES_CHECK(param_value || !param_value_size, CL_INVALID_VALUE,
                    "param_value is NULL with a non-zero size");
        LANES_CHECK(param_value_size % sizeof(void *) == 0, CL_INVALID_VALUE,
                    "param_value_size is not a multiple of sizeof(void *)");
        return CL_SUCCESS;
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
        LANES_CHECK(param_value, CL_INVALID_VALUE, "param_value is NULL");
        LANES_CHECK(param_value_size == sizeof(cl_bool), CL_INVALID_VALUE,
                    "param_value_size is not sizeof(cl_bool)");
        /* CL_DEVICE_SVM_FINE_GRAIN_SYSTEM is supported, so CL_TRUE is accepted too. */
        return CL_SUCCESS;
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

/* The largest work-group the kernel may run. */
static size_t max_group_items(const struct lanes_kernel_info *k)
{
    if (k->reqd_work_group_size[0])
        return k->reqd_work_group_size[0] * k->reqd_work_group_size[1] * k->reqd_work_group_size[2];
    return LANES_MAX_WORK_GROUP_SIZE;
}

/* The most sub-groups of width w a work-group of the kernel holds. */
static size_t max_sub_groups(const struct lanes_kernel_info *k, size_t w)
{
    return (max_group_items(k) + w - 1) / w;
}

/* The work-items of a work-group of local size `local` (zeros beyond `dims`). */
static size_t group_items(const size_t local[3])
{
    return local[0] * local[1] * local[2];
}

/*
 * The width work-groups of `local` run at: the policy's, or 1 when the
 * vectorizer refuses the kernel. Finding out compiles the launcher, as the
 * first launch of that shape would (and that launch then finds it done),
 * so that the queries always agree with what the kernel itself reports.
 */
static size_t kernel_width(cl_kernel kernel, const size_t local[3], cl_uint dims)
{
    struct lanes_specialization spec = {
        .work_dim = dims, .small_ids = 1, .width = lanes_width_policy(kernel->info, local)};
    memcpy(spec.local_size, local, sizeof spec.local_size);
    const struct lanes_launcher *l =
        spec.width > 1 ? lanes_launchers_get(kernel->program, kernel->info, &spec) : NULL;
    return l ? l->width : spec.width; /* failing, the launch will say why; the policy stands */
}

/*
 * The width of the kernel's launches that leave the choice to the policy
 * (no local size named): the policy's, or 1 when the vectorizer refuses
 * the kernel (found by compiling one such shape, reqd_work_group_size's
 * if it has one). The shape-free queries answer from it.
 */
static size_t kernel_preferred_width(cl_kernel kernel)
{
    const struct lanes_kernel_info *k = kernel->info;
    size_t w = lanes_width_policy(k, NULL);
    if (w == 1)
        return 1;
    if (k->reqd_work_group_size[0])
        return kernel_width(kernel, k->reqd_work_group_size, 3);
    const size_t row[3] = {w, 1, 1};
    return kernel_width(kernel, row, 1);
}

/* The local size an NDRange query names: 1 to 3 size_t values. */
static cl_int ndrange_input(size_t input_value_size, const void *input_value, size_t local[3])
{
    LANES_CHECK(input_value, CL_INVALID_VALUE, "input_value is NULL");
    LANES_CHECK(input_value_size && input_value_size % sizeof(size_t) == 0 &&
                    input_value_size <= 3 * sizeof(size_t),
                CL_INVALID_VALUE, "input_value_size is not 1 to 3 size_t values");
    local[0] = local[1] = local[2] = 1;
    memcpy(local, input_value, input_value_size);
    for (unsigned d = 0; d < 3; d++)
        LANES_CHECK(local[d] > 0, CL_INVALID_VALUE, "a local size is 0");
    /* A shape no launch can have is refused before anything is compiled for it. */
    for (unsigned d = 0; d < 3; d++)
        LANES_CHECK(local[d] <= LANES_MAX_WORK_GROUP_SIZE, CL_INVALID_VALUE,
                    "a local size is larger than CL_DEVICE_MAX_WORK_ITEM_SIZES");
    LANES_CHECK(local[0] * local[1] * local[2] <= LANES_MAX_WORK_GROUP_SIZE, CL_INVALID_VALUE,
                "the local size is larger than CL_DEVICE_MAX_WORK_GROUP_SIZE");
    return CL_SUCCESS;
}

/*
 * The sub-group queries (OpenCL 3.0 §5.9.4), from the width policy that
 * launches use (compiler/width.h), so that they agree with what the
 * kernel's get_max_sub_group_size and friends return.
 */
static cl_int sub_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info name,
                             size_t input_value_size, const void *input_value,
                             size_t param_value_size, void *param_value,
                             size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_kernel_valid(kernel), CL_INVALID_KERNEL, "not a live kernel");
    cl_context c = kernel->program->context;
    LANES_CHECK(device ? lanes_context_has_device(c, device) : c->num_devices == 1,
                CL_INVALID_DEVICE, "device is not the kernel's, or NULL with several devices");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    const struct lanes_kernel_info *k = kernel->info;
    size_t local[3];
    cl_int err;
    switch (name) {
    case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
    case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
        if ((err = ndrange_input(input_value_size, input_value, local)) != CL_SUCCESS)
            return err;
        size_t w = kernel_width(kernel, local, (cl_uint)(input_value_size / sizeof(size_t)));
        size_t items = group_items(local);
        if (name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
            return LANES_INFO(out, size_t, items < w ? items : w);
        return LANES_INFO(out, size_t, (items + w - 1) / w);
    }
    case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
        LANES_CHECK(input_value && input_value_size == sizeof(size_t), CL_INVALID_VALUE,
                    "input_value is not one size_t");
        size_t count = *(const size_t *)input_value;
        LANES_CHECK(param_value_size_ret || param_value, CL_INVALID_VALUE,
                    "param_value and param_value_size_ret are both NULL");
        size_t dims = param_value_size / sizeof(size_t);
        LANES_CHECK(!param_value ||
                        (param_value_size % sizeof(size_t) == 0 && dims >= 1 && dims <= 3),
                    CL_INVALID_VALUE, "param_value_size is not 1 to 3 size_t values");
        size_t result[3] = {0, 0, 0};
        const size_t *reqd = k->reqd_work_group_size;
        if (reqd[0]) {
            /* The one local size the kernel runs with, if it has `count` sub-groups. */
            size_t w = kernel_width(kernel, reqd, 3), items = group_items(reqd);
            if (count == (items + w - 1) / w)
                memcpy(result, reqd, sizeof result);
        } else if (count > 0 && count <= max_sub_groups(k, kernel_preferred_width(kernel))) {
            /* `count` rows of W work-items. */
            result[0] = count * kernel_preferred_width(kernel);
            result[1] = result[2] = 1;
        }
        if (param_value_size_ret)
            *param_value_size_ret = param_value_size ? param_value_size : 3 * sizeof(size_t);
        if (param_value)
            memcpy(param_value, result, dims * sizeof(size_t));
        return CL_SUCCESS;
    }
    case CL_KERNEL_MAX_NUM_SUB_GROUPS:
        /* The narrowest width a launch may take: 1 when the kernel is not vectorized. */
        return LANES_INFO(
            out, size_t,
            max_sub_groups(k, kernel_preferred_width(kernel) == 1 ? 1 : lanes_min_width()));
    case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: return LANES_INFO(out, size_t, 0);
    /* cl_intel_required_subgroup_size: the kernel's intel_reqd_sub_group_size, or 0. */
    case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL:
        return LANES_INFO(out, size_t, (size_t)k->reqd_sub_group_size);
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                                        cl_kernel_sub_group_info param_name,
                                                        size_t input_value_size,
                                                        const void *input_value,
                                                        size_t param_value_size, void *param_value,
                                                        size_t *param_value_size_ret)
{
    return sub_group_info(kernel, device, param_name, input_value_size, input_value,
                          param_value_size, param_value, param_value_size_ret);
}

/*
 * cl_khr_subgroups' entry: its two queries, and cl_intel_required_subgroup_size's,
 * which that extension also accepts here; the queries OpenCL 2.1 added are
 * clGetKernelSubGroupInfo's only.
 */
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(
    cl_kernel in_kernel, cl_device_id in_device, cl_kernel_sub_group_info param_name,
    size_t input_value_size, const void *input_value, size_t param_value_size, void *param_value,
    size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_kernel_valid(in_kernel), CL_INVALID_KERNEL, "not a live kernel");
    cl_context c = in_kernel->program->context;
    LANES_CHECK(in_device ? lanes_context_has_device(c, in_device) : c->num_devices == 1,
                CL_INVALID_DEVICE, "device is not the kernel's, or NULL with several devices");
    LANES_CHECK(param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR ||
                    param_name == CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR ||
                    param_name == CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL,
                CL_INVALID_VALUE, "not a query of cl_khr_subgroups");
    return sub_group_info(in_kernel, in_device, param_name, input_value_size, input_value,
                          param_value_size, param_value, param_value_size_ret);
}
