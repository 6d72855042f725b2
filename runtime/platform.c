/* SPDX-License-Identifier: MIT */
/* The platform singleton. */
#include "platform.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct _cl_platform_id platform;
static struct _cl_device_id root_device;
static pthread_once_t platform_once = PTHREAD_ONCE_INIT;

/* The platform offers what every device offers, plus the ICD contract. */
static const cl_name_version platform_extensions[] = {
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"},
    {CL_MAKE_VERSION(1, 0, 0), "cl_khr_extended_versioning"},
};

struct lanes_name_list lanes_name_list_make(const cl_name_version *items, size_t count)
{
    size_t len = 1;
    for (size_t i = 0; i < count; i++)
        len += strlen(items[i].name) + 1;
    char *s = malloc(len), *p = s;
    if (!s)
        return (struct lanes_name_list){items, count, ""};
    for (size_t i = 0; i < count; i++)
        p += sprintf(p, "%s%s", i ? " " : "", items[i].name);
    *p = '\0';
    return (struct lanes_name_list){items, count, s};
}

static void init(void)
{
    lanes_object_init_static(&platform.obj, LANES_KIND_PLATFORM);
    lanes_device_init_root(&root_device, &platform);
    platform.device = &root_device;
    platform.extensions = lanes_name_list_make(
        platform_extensions, sizeof platform_extensions / sizeof *platform_extensions);
}

cl_platform_id lanes_platform(void)
{
    pthread_once(&platform_once, init);
    return &platform;
}

bool lanes_platform_valid(cl_platform_id p)
{
    return p == NULL || p == lanes_platform();
}

cl_ulong lanes_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}
