/* SPDX-License-Identifier: MIT */
/* The names the compiler recognizes (compiler/names.h): one table. */
#include "names.h"

#include "ir.h"

#include <string.h>

/* Names as Clang emits the calls: Itanium-mangled, but for OpenCL C's own functions. */
static const struct {
    const char *name;
    bool prefix; /* any name that starts with it: every overload */
    enum lanes_name what;
} names[] = {
    /* OpenCL C 3.0 §6.15.1 and §6.15.18. */
    {"_Z12get_work_dimv", false, LANES_NAME_WORK_DIM},
    {"_Z15get_global_sizej", false, LANES_NAME_GLOBAL_SIZE},
    {"_Z13get_global_idj", false, LANES_NAME_GLOBAL_ID},
    {"_Z14get_local_sizej", false, LANES_NAME_LOCAL_SIZE},
    {"_Z23get_enqueued_local_sizej", false, LANES_NAME_ENQUEUED_LOCAL_SIZE},
    {"_Z12get_local_idj", false, LANES_NAME_LOCAL_ID},
    {"_Z14get_num_groupsj", false, LANES_NAME_NUM_GROUPS},
    {"_Z12get_group_idj", false, LANES_NAME_GROUP_ID},
    {"_Z17get_global_offsetj", false, LANES_NAME_GLOBAL_OFFSET},
    {"_Z20get_global_linear_idv", false, LANES_NAME_GLOBAL_LINEAR_ID},
    {"_Z19get_local_linear_idv", false, LANES_NAME_LOCAL_LINEAR_ID},
    {"_Z18get_sub_group_sizev", false, LANES_NAME_SUB_GROUP_SIZE},
    {"_Z22get_max_sub_group_sizev", false, LANES_NAME_MAX_SUB_GROUP_SIZE},
    {"_Z18get_num_sub_groupsv", false, LANES_NAME_NUM_SUB_GROUPS},
    {"_Z27get_enqueued_num_sub_groupsv", false, LANES_NAME_ENQUEUED_NUM_SUB_GROUPS},
    {"_Z16get_sub_group_idv", false, LANES_NAME_SUB_GROUP_ID},
    {"_Z22get_sub_group_local_idv", false, LANES_NAME_SUB_GROUP_LOCAL_ID},
    /* The library's own: the work-group scratch (abi.h), as a __local pointer. */
    {"__lanes_wg_scratch", false, LANES_NAME_WG_SCRATCH},
    /* OpenCL C 3.0 §6.15.10: Clang emits to_* as unmangled __to_*; get_fence is in its tables. */
    {"__to_global", false, LANES_NAME_TO_GLOBAL},
    {"__to_local", false, LANES_NAME_TO_LOCAL},
    {"__to_private", false, LANES_NAME_TO_PRIVATE},
    {"_Z9get_fencePU9CLgenericv", false, LANES_NAME_GET_FENCE},
    {"_Z9get_fencePU9CLgenericKv", false, LANES_NAME_GET_FENCE},
    {"printf", false, LANES_NAME_PRINTF},
    {"_Z7barrierj", true, LANES_NAME_BARRIER},
    {"_Z18work_group_barrier", true, LANES_NAME_BARRIER},
    {"_Z9mem_fencej", true, LANES_NAME_FENCE},
    {"_Z14read_mem_fencej", true, LANES_NAME_FENCE},
    {"_Z15write_mem_fencej", true, LANES_NAME_FENCE},
    {"_Z24atomic_work_item_fence", true, LANES_NAME_FENCE},
    {"_Z17sub_group_barrier", true, LANES_NAME_FENCE},
};

/* The identifier prefix of the deferred family (lanes_name_deferred). */
static const char deferred[] = "sub_group_";
static const char rotate[] = "sub_group_rotate";

enum lanes_name lanes_name_lookup(const char *name, size_t length)
{
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        size_t n = strlen(names[k].name);
        if ((names[k].prefix ? length >= n : length == n) && memcmp(name, names[k].name, n) == 0)
            return names[k].what;
    }
    return LANES_NAME_NONE;
}

bool lanes_is_barrier(LLVMValueRef i)
{
    size_t length;
    const char *name = lanes_called_name(i, &length);
    return name && lanes_name_lookup(name, length) == LANES_NAME_BARRIER;
}

bool lanes_is_yield(LLVMValueRef i)
{
    size_t length;
    const char *name = lanes_called_name(i, &length);
    return name && length == sizeof LANES_YIELD_FUNCTION - 1 &&
           memcmp(name, LANES_YIELD_FUNCTION, length) == 0;
}

const char *lanes_mangled_identifier(const char *name, size_t length, size_t *n)
{
    if (length < 3 || name[0] != '_' || name[1] != 'Z')
        return NULL;
    size_t i = 2, len = 0;
    while (i < length && name[i] >= '0' && name[i] <= '9' && len < length)
        len = len * 10 + (size_t)(name[i++] - '0');
    if (len == 0 || i + len > length)
        return NULL;
    *n = len;
    return name + i;
}

bool lanes_name_deferred(const char *name, size_t length)
{
    size_t n = 0;
    const char *id = lanes_mangled_identifier(name, length, &n);
    if (!id || n <= sizeof deferred - 1 || memcmp(id, deferred, sizeof deferred - 1) != 0)
        return false;
    /*
     * Those of an OpenCL vector (the broadcasts of char4, ...; the ballot
     * functions reading a uint4's bits at the work-item's lane) are the
     * library's, made of scalar ones or of the work-item alone: linked at
     * once, inlined, vectorized like any code. Their arguments passed under
     * the x86-64 ABI (char4 as an i32, double16 in memory) would hide what
     * the vectorizer needs to know.
     */
    /* sub_group_rotate is a shuffle by an index of the work-item's (subgroup_vectors.cl). */
    if (n == sizeof rotate - 1 && memcmp(id, rotate, n) == 0)
        return false;
    const char *params = id + n, *end = name + length;
    for (const char *p = params; p + 1 < end; p++)
        if (p[0] == 'D' && p[1] == 'v')
            return false;
    return true;
}

bool lanes_name_dot_form(const char *name, size_t length)
{
    static const char dot[] = "__lanes_dpbusd";
    size_t n = 0;
    const char *id = lanes_mangled_identifier(name, length, &n);
    /* __lanes_dpbusd, or __lanes_dpbusds */
    return id && (n == sizeof dot - 1 || (n == sizeof dot && id[n - 1] == 's')) &&
           memcmp(id, dot, sizeof dot - 1) == 0;
}

bool lanes_name_linked_late(const char *name, size_t length)
{
    return lanes_name_deferred(name, length) || lanes_name_dot_form(name, length);
}
