/* SPDX-License-Identifier: MIT */
/*
 * lanes-demo: finds the Lanes platform through the ICD loader, lists its
 * device, prints the sub-group sizes it offers and runs a small kernel.
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

/* Builds and runs a kernel that squares 16 numbers; prints them. */
static int run_kernel(cl_device_id dev)
{
    static const char *src = "kernel void square(global int *x) {\n"
                             "    size_t i = get_global_id(0);\n"
                             "    x[i] = x[i] * x[i];\n"
                             "}\n";
    enum { N = 16 };
    cl_int data[N], err;
    for (int i = 0; i < N; i++)
        data[i] = i;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (check(err, "clCreateContext"))
        return 1;
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (check(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL), "clBuildProgram"))
        return 1;
    cl_kernel k = clCreateKernel(prog, "square", &err);
    cl_mem buf =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    size_t global = N;
    if (check(clSetKernelArg(k, 0, sizeof buf, &buf), "clSetKernelArg") ||
        check(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL),
              "clEnqueueNDRangeKernel") ||
        check(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL),
              "clEnqueueReadBuffer"))
        return 1;
    printf("kernel:   square(0..%d) =", N - 1);
    for (int i = 0; i < N; i++)
        printf(" %d", data[i]);
    printf("\n");
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
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
    return run_kernel(dev);
}
