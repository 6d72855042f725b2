/* SPDX-License-Identifier: MIT */
/* The platform through the loader: every clGetPlatformInfo query and its errors. */
#include "common.h"

#include <CL/cl_icd.h>

static void finds_lanes(void **state)
{
    (void)state;
    cl_uint n = 0;
    assert_int_equal(clGetPlatformIDs(0, NULL, &n), CL_SUCCESS);
    assert_true(n >= 1);
    assert_non_null(lanes_test_platform());
}

static void string_queries(void **state)
{
    (void)state;
    cl_platform_id p = lanes_test_platform();
    static const struct {
        cl_platform_info param;
        const char *expect; /* exact value, or a prefix when it ends with '*' */
    } cases[] = {
        {CL_PLATFORM_PROFILE, "FULL_PROFILE"}, {CL_PLATFORM_VERSION, "OpenCL 3.0 Lanes *"},
        {CL_PLATFORM_NAME, "Lanes"},           {CL_PLATFORM_VENDOR, "Lanes"},
        {CL_PLATFORM_ICD_SUFFIX_KHR, "LANES"}, {CL_PLATFORM_EXTENSIONS, "*"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char value[1024];
        size_t size = 0;
        assert_int_equal(clGetPlatformInfo(p, cases[i].param, 0, NULL, &size), CL_SUCCESS);
        assert_int_equal(clGetPlatformInfo(p, cases[i].param, sizeof value, value, NULL),
                         CL_SUCCESS);
        assert_int_equal(strlen(value) + 1, size);
        size_t n = strlen(cases[i].expect);
        if (cases[i].expect[n - 1] == '*')
            assert_memory_equal(value, cases[i].expect, n - 1);
        else
            assert_string_equal(value, cases[i].expect);
    }
}

static void versions_and_extensions(void **state)
{
    (void)state;
    cl_platform_id p = lanes_test_platform();
    cl_version v = 0;
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, NULL),
                     CL_SUCCESS);
    assert_int_equal(CL_VERSION_MAJOR(v), 3);
    assert_int_equal(CL_VERSION_MINOR(v), 0);

    char ext[1024];
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS, sizeof ext, ext, NULL),
                     CL_SUCCESS);
    assert_true(lanes_test_has_word(ext, "cl_khr_icd"));
    cl_name_version list[32];
    size_t size = 0;
    assert_int_equal(
        clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, sizeof list, list, &size),
        CL_SUCCESS);
    assert_int_equal(size % sizeof(cl_name_version), 0);
    size_t count = size / sizeof(cl_name_version), words = 0;
    for (size_t i = 0; i < count; i++)
        assert_true(lanes_test_has_word(ext, list[i].name));
    for (char *w = strtok(ext, " "); w; w = strtok(NULL, " "))
        words++;
    assert_int_equal(words, count);

    cl_ulong res = 0;
    assert_int_equal(
        clGetPlatformInfo(p, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof res, &res, NULL),
        CL_SUCCESS);
    assert_true(res >= 1 && res <= 1000000);
}

static void query_errors(void **state)
{
    (void)state;
    cl_platform_id p = lanes_test_platform();
    char small[4];
    size_t size = 0;
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_NAME + 0x100, 0, NULL, &size),
                     CL_INVALID_VALUE);
    assert_int_equal(clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof small, small, &size),
                     CL_INVALID_VALUE);
    /* The needed size is reported even when the buffer is too small. */
    assert_true(size > sizeof small);
    assert_int_equal(clGetPlatformIDs(0, NULL, NULL), CL_INVALID_VALUE);
    cl_platform_id id;
    assert_int_equal(clGetPlatformIDs(0, &id, NULL), CL_INVALID_VALUE);
}

/*
 * The loader forwards extension lookups to Lanes. The Khronos loader answers
 * clIcdGetPlatformIDsKHR itself (with NULL); ocl-icd hands out Lanes' own.
 */
static void extension_functions(void **state)
{
    (void)state;
    cl_platform_id p = lanes_test_platform();
    typedef cl_int(CL_API_CALL * get_ids_fn)(cl_uint, cl_platform_id *, cl_uint *);
    get_ids_fn get_ids =
        (get_ids_fn)clGetExtensionFunctionAddressForPlatform(p, "clIcdGetPlatformIDsKHR");
    if (get_ids) {
        cl_platform_id again = NULL;
        cl_uint n = 0;
        assert_int_equal(get_ids(1, &again, &n), CL_SUCCESS);
        assert_int_equal(n, 1);
        /* The function is Lanes' own: it hands out Lanes' platform handle. */
        assert_ptr_equal(again, p);
    }
    assert_null(clGetExtensionFunctionAddressForPlatform(p, "clNoSuchFunctionLANES"));
    assert_null(clGetExtensionFunctionAddressForPlatform(p, ""));
}

static void unload_compiler(void **state)
{
    (void)state;
    assert_int_equal(clUnloadPlatformCompiler(lanes_test_platform()), CL_SUCCESS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_lanes),
        cmocka_unit_test(string_queries),
        cmocka_unit_test(versions_and_extensions),
        cmocka_unit_test(query_errors),
        cmocka_unit_test(extension_functions),
        cmocka_unit_test(unload_compiler),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
