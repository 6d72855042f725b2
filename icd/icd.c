/* SPDX-License-Identifier: MIT */
/* The ICD contract: the loader's entry point and extension function lookup. */
#include "icd.h"

#include "../runtime/check.h"
#include "../runtime/platform.h"

#include <CL/cl_ext.h>
#include <string.h>

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                       cl_platform_id *platforms,
                                                       cl_uint *num_platforms);

/* Extension functions an application may look up, by name. */
static const struct {
    const char *name;
    void *function;
} extension_functions[] = {
    {"clIcdGetPlatformIDsKHR", (void *)clIcdGetPlatformIDsKHR},
    /* cl_khr_subgroups (runtime/api_kernel.c). */
    {"clGetKernelSubGroupInfoKHR", (void *)clGetKernelSubGroupInfoKHR},
    /* cl_khr_il_program (runtime/api_program.c), with LANES_SPIRV=1. */
    {"clCreateProgramWithILKHR", (void *)clCreateProgramWithILKHR},
    /* cl_khr_suggested_local_work_size (runtime/api_ndrange.c). */
    {"clGetKernelSuggestedLocalWorkSizeKHR", (void *)clGetKernelSuggestedLocalWorkSizeKHR},
};

LANES_EXPORT CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                                    cl_platform_id *platforms,
                                                                    cl_uint *num_platforms)
{
    return lanes_get_platform_ids(num_entries, platforms, num_platforms);
}

LANES_EXPORT CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name)
{
    if (!func_name)
        return NULL;
    for (size_t i = 0; i < sizeof extension_functions / sizeof *extension_functions; i++)
        if (strcmp(func_name, extension_functions[i].name) == 0)
            return extension_functions[i].function;
    lanes_refuse(__func__, "NULL", "no extension function of that name");
    return NULL;
}

LANES_EXPORT CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *func_name)
{
    if (!platform || !lanes_platform_valid(platform))
        return NULL;
    return clGetExtensionFunctionAddress(func_name);
}
