/* SPDX-License-Identifier: MIT */
/* Platform entries: clGetPlatformIDs, clGetPlatformInfo, compiler unloading. */
#include "../icd/icd.h"
#include "check.h"
#include "info.h"
#include "platform.h"

#include <time.h>

cl_int lanes_get_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
                              cl_uint *num_platforms)
{
    LANES_CHECK(!(platforms && num_entries == 0), CL_INVALID_VALUE,
                "num_entries is 0 but platforms is not NULL");
    LANES_CHECK(platforms || num_platforms, CL_INVALID_VALUE,
                "platforms and num_platforms are both NULL");
    if (platforms)
        platforms[0] = lanes_platform();
    if (num_platforms)
        *num_platforms = 1;
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
                                                 cl_uint *num_platforms)
{
    return lanes_get_platform_ids(num_entries, platforms, num_platforms);
}

/* Resolution of lanes_now_ns(), the clock of every timestamp. */
static cl_ulong timer_resolution_ns(void)
{
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 1000;
    cl_ulong ns = (cl_ulong)res.tv_sec * 1000000000u + (cl_ulong)res.tv_nsec;
    return ns ? ns : 1;
}

LANES_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                               cl_platform_info param_name,
                                                               size_t param_value_size,
                                                               void *param_value,
                                                               size_t *param_value_size_ret)
{
    LANES_CHECK(lanes_platform_valid(platform), CL_INVALID_PLATFORM, "not a Lanes platform");
    cl_platform_id p = lanes_platform();
    struct lanes_info_out out = {param_value_size, param_value, param_value_size_ret};

    switch (param_name) {
    case CL_PLATFORM_PROFILE: return lanes_info_string(out, "FULL_PROFILE");
    case CL_PLATFORM_VERSION:
        return lanes_info_string(out, "OpenCL 3.0 Lanes " LANES_VERSION_STRING);
    case CL_PLATFORM_NUMERIC_VERSION: return LANES_INFO(out, cl_version, CL_MAKE_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME: return lanes_info_string(out, "Lanes");
    case CL_PLATFORM_VENDOR: return lanes_info_string(out, "Lanes");
    case CL_PLATFORM_EXTENSIONS: return lanes_info_string(out, p->extensions.joined);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
        return lanes_info(out, p->extensions.items, p->extensions.count * sizeof(cl_name_version));
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return LANES_INFO(out, cl_ulong, timer_resolution_ns());
    case CL_PLATFORM_ICD_SUFFIX_KHR: return lanes_info_string(out, "LANES");
    }
    LANES_FAIL(CL_INVALID_VALUE, "unknown param_name");
}

/* Nothing to release early: the compiler lives in liblanes.so itself. */
CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform)
{
    LANES_CHECK(platform && lanes_platform_valid(platform), CL_INVALID_PLATFORM,
                "not a Lanes platform");
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void)
{
    return CL_SUCCESS;
}
