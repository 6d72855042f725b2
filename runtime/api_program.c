/* SPDX-License-Identifier: MIT */
/* Program entries, validating in the order of the OpenCL 3.0 specification. */
#include "../compiler/binary.h"
#include "../compiler/frontend/frontend.h"
#include "../compiler/program.h"
#include "../compiler/frontend/spirv.h"
#include "check.h"
#include "context.h"
#include "info.h"
#include "platform.h"
#include "build.h"
#include "program.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                              const char **strings,
                                                              const size_t *lengths,
                                                              cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    LANES_CHECK_OBJ(count && strings, CL_INVALID_VALUE, errcode_ret, "no strings");
    size_t total = 0;
    for (cl_uint i = 0; i < count; i++) {
        LANES_CHECK_OBJ(strings[i], CL_INVALID_VALUE, errcode_ret, "a string is NULL");
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        LANES_CHECK_OBJ(!__builtin_add_overflow(total, n, &total) && total < SIZE_MAX,
                        CL_OUT_OF_HOST_MEMORY, errcode_ret, "the lengths overflow size_t");
    }
    char *source = malloc(total + 1);
    cl_program p = source ? lanes_program_new(context) : NULL;
    if (!p) {
        free(source);
        LANES_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the program");
    }
    /* The strings are concatenated as given: nothing is added or lost. */
    size_t at = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
        memcpy(source + at, strings[i], n);
        at += n;
    }
    source[total] = '\0';
    p->source = source;
    p->source_size = total;
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return p;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list, const size_t *lengths,
    const unsigned char **binaries, cl_int *binary_status, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    LANES_CHECK_OBJ(num_devices && device_list, CL_INVALID_VALUE, errcode_ret, "no devices");
    for (cl_uint i = 0; i < num_devices; i++)
        LANES_CHECK_OBJ(lanes_context_has_device(context, device_list[i]), CL_INVALID_DEVICE,
                        errcode_ret, "a device is not in the context");
    LANES_CHECK_OBJ(lengths && binaries, CL_INVALID_VALUE, errcode_ret,
                    "lengths or binaries is NULL");
    cl_int err = CL_SUCCESS;
    for (cl_uint i = 0; i < num_devices; i++) {
        cl_int status = CL_SUCCESS;
        if (!lengths[i] || !binaries[i]) {
            status = CL_INVALID_VALUE;
        } else {
            /* Every device of Lanes runs the same code: each binary must decode. */
            struct lanes_binary_info info;
            const char *reason;
            struct lanes_program_module *m =
                lanes_binary_decode(binaries[i], lengths[i], &info, &reason);
            if (!m)
                lanes_refuse(__func__, "CL_INVALID_BINARY", reason);
            status = m ? CL_SUCCESS : CL_INVALID_BINARY;
            lanes_program_module_free(m);
        }
        if (binary_status)
            binary_status[i] = status;
        if (err == CL_SUCCESS)
            err = status;
    }
    LANES_CHECK_OBJ(err == CL_SUCCESS, err, errcode_ret, "a binary is missing or invalid");
    struct lanes_binary_info info;
    const char *reason;
    cl_program p = lanes_program_new(context);
    struct lanes_program_module *m =
        p ? lanes_binary_decode(binaries[0], lengths[0], &info, &reason) : NULL;
    if (!m) {
        if (p)
            lanes_program_release(p);
        LANES_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the program");
    }
    p->module = m;
    p->binary_type = info.type;
    p->kernel_arg_info = info.kernel_arg_info;
    p->uniform_work_groups = info.uniform_work_groups;
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return p;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(
    cl_context context, cl_uint num_devices, const cl_device_id *device_list,
    const char *kernel_names, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    LANES_CHECK_OBJ(num_devices && device_list, CL_INVALID_VALUE, errcode_ret, "no devices");
    for (cl_uint i = 0; i < num_devices; i++)
        LANES_CHECK_OBJ(lanes_context_has_device(context, device_list[i]), CL_INVALID_DEVICE,
                        errcode_ret, "a device is not in the context");
    LANES_CHECK_OBJ(kernel_names, CL_INVALID_VALUE, errcode_ret, "kernel_names is NULL");
    /* CL_DEVICE_BUILT_IN_KERNELS is empty: no name can be one of them. */
    LANES_FAIL_OBJ(CL_INVALID_VALUE, errcode_ret, "Lanes offers no built-in kernels");
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program)
{
    LANES_CHECK(lanes_program_valid(program), CL_INVALID_PROGRAM, "not a live program");
    lanes_program_retain_handle(program);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program)
{
    LANES_CHECK(lanes_program_valid(program), CL_INVALID_PROGRAM, "not a live program");
    LANES_CHECK(lanes_program_release_handle(program), CL_INVALID_PROGRAM,
                "released more often than created and retained (its kernels keep it)");
    return CL_SUCCESS;
}

/* Checks a device list given to a build entry against the program's context. */
static cl_int check_devices(cl_program p, cl_uint num_devices, const cl_device_id *devices)
{
    LANES_CHECK(!(devices == NULL && num_devices > 0), CL_INVALID_VALUE,
                "num_devices > 0 with no device_list");
    LANES_CHECK(!(devices != NULL && num_devices == 0), CL_INVALID_VALUE,
                "device_list with num_devices 0");
    for (cl_uint i = 0; i < num_devices; i++)
        LANES_CHECK(lanes_context_has_device(p->context, devices[i]), CL_INVALID_DEVICE,
                    "a device is not in the program's context");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                               const cl_device_id *device_list, const char *options,
                                               void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                               void *user_data)
{
    LANES_CHECK(lanes_program_valid(program), CL_INVALID_PROGRAM, "not a live program");
    cl_int err = check_devices(program, num_devices, device_list);
    if (err != CL_SUCCESS)
        return err;
    LANES_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
    LANES_CHECK(atomic_load(&program->kernels) == 0, CL_INVALID_OPERATION,
                "kernel objects are attached to the program");
    return lanes_program_start_build(program, false, options, NULL, 0, pfn_notify, user_data);
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(
    cl_program program, cl_uint num_devices, const cl_device_id *device_list, const char *options,
    cl_uint num_input_headers, const cl_program *input_headers, const char **header_include_names,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data)
{
    LANES_CHECK(lanes_program_valid(program), CL_INVALID_PROGRAM, "not a live program");
    cl_int err = check_devices(program, num_devices, device_list);
    if (err != CL_SUCCESS)
        return err;
    LANES_CHECK(num_input_headers ? input_headers && header_include_names
                                  : !input_headers && !header_include_names,
                CL_INVALID_VALUE, "input headers and their names do not match their count");
    LANES_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
    struct lanes_frontend_file headers[num_input_headers ? num_input_headers : 1];
    for (cl_uint i = 0; i < num_input_headers; i++) {
        cl_program h = input_headers[i];
        LANES_CHECK(lanes_program_valid(h) && h->source && header_include_names[i],
                    CL_INVALID_VALUE, "an input header is not a program made from source");
        headers[i] =
            (struct lanes_frontend_file){header_include_names[i], h->source, h->source_size};
    }
    LANES_CHECK(program->source || program->il, CL_INVALID_OPERATION,
                "the program was not made from source or IL");
    LANES_CHECK(atomic_load(&program->kernels) == 0, CL_INVALID_OPERATION,
                "kernel objects are attached to the program");
    return lanes_program_start_build(program, true, options, headers, num_input_headers, pfn_notify,
                                     user_data);
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id *device_list,
                                                  const char *options, cl_uint num_input_programs,
                                                  const cl_program *input_programs,
                                                  void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                                  void *user_data, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    LANES_CHECK_OBJ(!(device_list == NULL && num_devices > 0) &&
                        !(device_list != NULL && num_devices == 0),
                    CL_INVALID_VALUE, errcode_ret, "device_list does not match num_devices");
    for (cl_uint i = 0; i < num_devices; i++)
        LANES_CHECK_OBJ(lanes_context_has_device(context, device_list[i]), CL_INVALID_DEVICE,
                        errcode_ret, "a device is not in the context");
    LANES_CHECK_OBJ(num_input_programs && input_programs, CL_INVALID_VALUE, errcode_ret,
                    "no input programs");
    LANES_CHECK_OBJ(pfn_notify || !user_data, CL_INVALID_VALUE, errcode_ret,
                    "user_data without pfn_notify");
    return lanes_program_start_link(context, options, num_input_programs, input_programs,
                                    pfn_notify, user_data, errcode_ret);
}

/* The kernel names of a built program, separated by ';' (malloc'd). */
static char *kernel_names(const struct lanes_program_module *m)
{
    size_t len = 1;
    for (size_t k = 0; k < m->num_kernels; k++)
        len += strlen(m->kernels[k].name) + 1;
    char *names = malloc(len), *p = names;
    if (!names)
        return NULL;
    *p = '\0';
    for (size_t k = 0; k < m->num_kernels; k++)
        p += sprintf(p, "%s%s", k ? ";" : "", m->kernels[k].name);
    return names;
}

/*
 * CL_PROGRAM_BINARY_SIZES and CL_PROGRAM_BINARIES: one container (compiler/binary.h)
 * per device, all alike; size 0 while the program has no module.
 */
static cl_int binary_info(cl_program p, cl_program_info param, struct lanes_info_out out)
{
    cl_uint n = p->context->num_devices;
    size_t size = 0;
    void *bin = NULL;
    pthread_mutex_lock(&p->lock);
    bool has_module = p->module != NULL; /* read under the lock: a background build replaces it */
    if (has_module) {
        struct lanes_binary_info info = {p->binary_type, p->kernel_arg_info,
                                         p->uniform_work_groups};
        bin = lanes_binary_encode(p->module, info, &size);
    }
    pthread_mutex_unlock(&p->lock);
    LANES_CHECK(!has_module || bin, CL_OUT_OF_HOST_MEMORY, "encoding the binary");
    cl_int err;
    if (param == CL_PROGRAM_BINARY_SIZES) {
        size_t sizes[n];
        for (cl_uint i = 0; i < n; i++)
            sizes[i] = size;
        err = lanes_info(out, sizes, sizeof sizes);
    } else {
        /* The caller owns one buffer per device, each at least its size; NULL ones are skipped. */
        err = lanes_info(out, NULL, 0);
        if (out.size_ret)
            *out.size_ret = n * sizeof(unsigned char *);
        if (out.value && out.size < n * sizeof(unsigned char *))
            err = CL_INVALID_VALUE;
        else if (out.value)
            for (cl_uint i = 0; i < n; i++)
                if (((unsigned char **)out.value)[i] && size)
                    memcpy(((unsigned char **)out.value)[i], bin, size);
    }
    free(bin);
    LANES_CHECK(err == CL_SUCCESS, err, "param_value_size is smaller than the answer");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void *param_value,
                                                 size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_program_valid(program), CL_INVALID_PROGRAM, "not a live program");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    cl_context c = program->context;
    switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT:
        return LANES_INFO(out, cl_uint, lanes_object_refs(&program->obj));
    case CL_PROGRAM_CONTEXT: return LANES_INFO(out, cl_context, c);
    case CL_PROGRAM_NUM_DEVICES: return LANES_INFO(out, cl_uint, c->num_devices);
    case CL_PROGRAM_DEVICES:
        return lanes_info(out, c->devices, c->num_devices * sizeof(cl_device_id));
    case CL_PROGRAM_SOURCE: return lanes_info_string(out, program->source ? program->source : "");
    case CL_PROGRAM_IL: return lanes_info(out, program->il, program->il_size);
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: return LANES_INFO(out, cl_bool, CL_FALSE);
    case CL_PROGRAM_BINARY_SIZES:
    case CL_PROGRAM_BINARIES: return binary_info(program, param_name, out);
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES: break;
    default: LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
    }
    pthread_mutex_lock(&program->lock);
    /* Kernels exist only in an executable (not in a compiled object or a library). */
    const struct lanes_program_module *m =
        program->binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE ? program->module : NULL;
    cl_int err = CL_INVALID_PROGRAM_EXECUTABLE;
    if (m && param_name == CL_PROGRAM_NUM_KERNELS) {
        err = LANES_INFO(out, size_t, m->num_kernels);
    } else if (m) {
        char *names = kernel_names(m);
        err = names ? lanes_info_string(out, names) : CL_OUT_OF_HOST_MEMORY;
        free(names);
    }
    pthread_mutex_unlock(&program->lock);
    LANES_CHECK(err != CL_INVALID_PROGRAM_EXECUTABLE, err, "the program is not built");
    return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name,
                                                      size_t param_value_size, void *param_value,
                                                      size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_program_valid(program), CL_INVALID_PROGRAM, "not a live program");
    LANES_CHECK(lanes_context_has_device(program->context, device), CL_INVALID_DEVICE,
                "the device is not in the program's context");
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS:
    case CL_PROGRAM_BUILD_OPTIONS:
    case CL_PROGRAM_BUILD_LOG:
    case CL_PROGRAM_BINARY_TYPE: break;
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: break;
    default: LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
    }
    cl_int err;
    pthread_mutex_lock(&program->lock);
    if (param_name == CL_PROGRAM_BUILD_STATUS)
        err = LANES_INFO(out, cl_build_status, program->status);
    else if (param_name == CL_PROGRAM_BUILD_OPTIONS)
        err = lanes_info_string(out, program->options);
    else if (param_name == CL_PROGRAM_BUILD_LOG)
        err = lanes_info_string(out, program->log);
    else if (param_name == CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE)
        /* The global address space's variables of the last build (0 before one). */
        err = LANES_INFO(out, size_t,
                         program->status == CL_BUILD_SUCCESS && program->module
                             ? program->module->global_variables_size
                             : 0);
    else
        err = LANES_INFO(out, cl_program_binary_type, program->binary_type);
    pthread_mutex_unlock(&program->lock);
    return err;
}

/*
 * SPIR-V, kept as given and translated at build time (compiler/frontend/spirv.h),
 * only with LANES_SPIRV=1; otherwise CL_DEVICE_IL_VERSION is "" and no
 * device of the context accepts an intermediate language.
 */
CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il,
                                                          size_t length, cl_int *errcode_ret)
{
    LANES_CHECK_OBJ(lanes_context_valid(context), CL_INVALID_CONTEXT, errcode_ret,
                    "not a live context");
    LANES_CHECK_OBJ(il && length, CL_INVALID_VALUE, errcode_ret, "il is NULL or length is 0");
    LANES_CHECK_OBJ(lanes_spirv_enabled(), CL_INVALID_OPERATION, errcode_ret,
                    "no device of the context supports intermediate language programs");
    LANES_CHECK_OBJ(lanes_spirv_is_spirv(il, length), CL_INVALID_VALUE, errcode_ret,
                    "not SPIR-V: no magic number, a length not a multiple of 4, or no header");
    void *copy = malloc(length);
    cl_program p = copy ? lanes_program_new(context) : NULL;
    if (!p) {
        free(copy);
        LANES_FAIL_OBJ(CL_OUT_OF_HOST_MEMORY, errcode_ret, "allocating the program");
    }
    memcpy(copy, il, length);
    p->il = copy;
    p->il_size = length;
    lanes_set_error(errcode_ret, CL_SUCCESS);
    return p;
}

/* cl_khr_il_program's name for it (listed with LANES_SPIRV=1, as the core function works). */
CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void *il,
                                                             size_t length, cl_int *errcode_ret)
{
    return clCreateProgramWithIL(context, il, length, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program,
                                                                   cl_uint spec_id,
                                                                   size_t spec_size,
                                                                   const void *spec_value)
{
    LANES_CHECK(lanes_program_valid(program), CL_INVALID_PROGRAM, "not a live program");
    LANES_CHECK(lanes_spirv_enabled(), CL_INVALID_OPERATION,
                "no device of the program supports intermediate language programs");
    LANES_CHECK(program->il, CL_INVALID_PROGRAM, "the program was not made from SPIR-V");
    struct lanes_spirv_spec spec;
    LANES_CHECK(lanes_spirv_spec_constant(program->il, program->il_size, spec_id, &spec),
                CL_INVALID_SPEC_ID, "no scalar specialization constant of that id");
    LANES_CHECK(spec_value && spec_size == spec.size, CL_INVALID_VALUE,
                "spec_value is NULL or spec_size is not the constant's size");
    spec.bits = 0;
    memcpy(&spec.bits, spec_value, spec_size); /* little-endian host: the low bytes */
    pthread_mutex_lock(&program->lock);
    size_t i = 0;
    while (i < program->num_specs && program->specs[i].id != spec_id)
        i++;
    struct lanes_spirv_spec *grown = program->specs;
    if (i == program->num_specs)
        grown = realloc(program->specs, (i + 1) * sizeof *grown);
    if (grown) {
        program->specs = grown;
        grown[i] = spec;
        if (i == program->num_specs)
            program->num_specs++;
    }
    pthread_mutex_unlock(&program->lock);
    LANES_CHECK(grown, CL_OUT_OF_HOST_MEMORY, "keeping the value");
    return CL_SUCCESS;
}

/* No device supports program-scope constructors and destructors. */
CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(
    cl_program program, void(CL_CALLBACK *pfn_notify)(cl_program program, void *user_data),
    void *user_data)
{
    (void)user_data;
    LANES_CHECK(lanes_program_valid(program), CL_INVALID_PROGRAM, "not a live program");
    LANES_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    LANES_FAIL(CL_INVALID_OPERATION,
               "no device of the program supports program-scope constructors and destructors");
}
