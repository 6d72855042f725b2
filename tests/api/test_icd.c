/* SPDX-License-Identifier: MIT */
/*
 * The ICD contract without a loader: liblanes.so (argv[1]) exports exactly
 * the four functions a loader looks up, and every handle starts with the
 * dispatch table that reaches the rest.
 */
#include "common.h"

#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <stdio.h>

static const char *library;

static void exports_only_the_contract(void **state)
{
    (void)state;
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(lib);
    const char *exported[] = {"clIcdGetPlatformIDsKHR", "clGetPlatformInfo",
                              "clGetExtensionFunctionAddress",
                              "clGetExtensionFunctionAddressForPlatform"};
    for (size_t i = 0; i < sizeof exported / sizeof *exported; i++)
        assert_non_null(dlsym(lib, exported[i]));
    const char *hidden[] = {"clGetDeviceInfo", "clCreateContext", "clGetPlatformIDs",
                            "clEnqueueNDRangeKernel", "lanes_platform"};
    for (size_t i = 0; i < sizeof hidden / sizeof *hidden; i++)
        assert_null(dlsym(lib, hidden[i]));
    dlclose(lib);
}

static void dispatch_reaches_everything(void **state)
{
    (void)state;
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(lib);
    typedef cl_int (*get_ids_fn)(cl_uint, cl_platform_id *, cl_uint *);
    typedef void *(*lookup_fn)(const char *);
    get_ids_fn get_ids = (get_ids_fn)dlsym(lib, "clIcdGetPlatformIDsKHR");
    lookup_fn lookup = (lookup_fn)dlsym(lib, "clGetExtensionFunctionAddress");
    assert_ptr_equal((void *)get_ids, lookup("clIcdGetPlatformIDsKHR"));
    assert_null(lookup("clNoSuchFunction"));

    cl_uint n = 0;
    assert_int_equal(get_ids(0, NULL, &n), CL_SUCCESS);
    assert_int_equal(n, 1);
    cl_platform_id p;
    assert_int_equal(get_ids(1, &p, NULL), CL_SUCCESS);
    /* A loader finds the table at offset 0 of the handle. */
    const cl_icd_dispatch *table = *(const cl_icd_dispatch *const *)p;
    char suffix[16];
    assert_int_equal(
        table->clGetPlatformInfo(p, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof suffix, suffix, NULL),
        CL_SUCCESS);
    assert_string_equal(suffix, "LANES");
    size_t size;
    assert_int_equal(table->clGetPlatformInfo((cl_platform_id)&n, CL_PLATFORM_NAME, 0, NULL, &size),
                     CL_INVALID_PLATFORM);

    /* Every slot of OpenCL 3.0 is filled, up to the last one. */
    assert_non_null(table->clSetContextDestructorCallback);
    assert_non_null(table->clCreateBufferWithProperties);
    assert_non_null(table->clGetKernelSubGroupInfo);
    cl_device_id dev;
    assert_int_equal(table->clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), CL_SUCCESS);
    assert_ptr_equal(*(const cl_icd_dispatch *const *)dev, table);
    dlclose(lib);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s liblanes.so\n", argv[0]);
        return 2;
    }
    library = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exports_only_the_contract),
        cmocka_unit_test(dispatch_reaches_everything),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
