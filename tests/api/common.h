/* SPDX-License-Identifier: MIT */
/* Shared by the API tests: they reach Lanes through the ICD loader only. */
#ifndef LANES_TESTS_COMMON_H
#define LANES_TESTS_COMMON_H

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <setjmp.h> /* cmocka needs these first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

/* The Lanes platform, found by name among the loader's platforms. */
static inline cl_platform_id lanes_test_platform(void)
{
    cl_platform_id ids[16];
    cl_uint n = 0;
    assert_int_equal(clGetPlatformIDs(16, ids, &n), CL_SUCCESS);
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[64] = "";
        assert_int_equal(clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL),
                         CL_SUCCESS);
        if (strcmp(name, "Lanes") == 0)
            return ids[i];
    }
    fail_msg("no platform named Lanes among %u", n);
    return NULL;
}

static inline cl_device_id lanes_test_device(void)
{
    cl_device_id dev = NULL;
    assert_int_equal(clGetDeviceIDs(lanes_test_platform(), CL_DEVICE_TYPE_ALL, 1, &dev, NULL),
                     CL_SUCCESS);
    return dev;
}

/* Queries a string-valued device property into a malloc'd buffer. */
static inline char *lanes_test_device_string(cl_device_id dev, cl_device_info param)
{
    size_t size = 0;
    assert_int_equal(clGetDeviceInfo(dev, param, 0, NULL, &size), CL_SUCCESS);
    assert_true(size >= 1);
    char *s = malloc(size);
    assert_non_null(s);
    assert_int_equal(clGetDeviceInfo(dev, param, size, s, NULL), CL_SUCCESS);
    assert_int_equal(s[size - 1], '\0');
    assert_int_equal(strlen(s) + 1, size);
    return s;
}

/* True when the space-separated list `list` holds the word `word`. */
static inline int lanes_test_has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

#endif
