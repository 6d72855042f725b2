/* SPDX-License-Identifier: MIT */
/*
 * lanes-demo: finds the Lanes platform through the ICD loader, lists its
 * device and prints the sub-group sizes it offers.
 */
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <string.h>

static int check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS)
        fprintf(stderr, "lanes-demo: %s failed: error %d\n", what, err);
    return err != CL_SUCCESS;
}

/* The Lanes platform among those the loader knows, or NULL. */
static cl_platform_id find_lanes(void)
{
    cl_platform_id ids[32];
    cl_uint n = 0;
    if (check(clGetPlatformIDs(32, ids, &n), "clGetPlatformIDs"))
        return NULL;
    for (cl_uint i = 0; i < n && i < 32; i++) {
        char name[128] = "";
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strcmp(name, "Lanes") == 0)
            return ids[i];
    }
    fprintf(stderr, "lanes-demo: no Lanes platform among %u (is lanes.icd registered?)\n", n);
    return NULL;
}

int main(void)
{
    cl_platform_id platform = find_lanes();
    if (!platform)
        return 1;
    char version[256];
    if (check(clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof version, version, NULL),
              "clGetPlatformInfo"))
        return 1;
    printf("platform: %s\n", version);

    cl_device_id dev;
    if (check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL), "clGetDeviceIDs"))
        return 1;
    char name[256];
    cl_uint units;
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    printf("device:   %s, %u compute units\n", name, units);

    size_t sizes[8], size = 0;
    cl_int err = clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof sizes, sizes, &size);
    printf("sub-group sizes:");
    if (err == CL_SUCCESS && size) {
        for (size_t i = 0; i < size / sizeof *sizes; i++)
            printf(" %zu", sizes[i]);
        printf("\n");
    } else {
        printf(" none yet (the vectorizer has not landed)\n");
    }
    return 0;
}
