/* SPDX-License-Identifier: MIT */
/*
 * Builds an OpenCL C file and runs its first kernel once on zero-filled
 * buffers (every pointer argument 1 MiB, every other argument zero), so
 * that what LANES_DUMP prints of its compilation can be checked by
 * FileCheck: golden_run <file.cl> <global size> <local size>, each size one
 * number per dimension separated by commas ("256,256").
 */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads "a[,b[,c]]" into size[]; returns the number of dimensions (0 if malformed). */
static cl_uint parse_size(const char *s, size_t size[3])
{
    cl_uint dims = 0;
    for (;;) {
        char *end;
        size[dims++] = strtoul(s, &end, 10);
        if (end == s)
            return 0;
        if (!*end)
            return dims;
        if (*end != ',' || dims == 3)
            return 0;
        s = end + 1;
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: golden_run <file.cl> <global size> <local size>\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    static char src[1 << 16];
    size_t n = f ? fread(src, 1, sizeof src - 1, f) : 0;
    if (f)
        fclose(f);
    if (!n) {
        fprintf(stderr, "golden_run: cannot read %s\n", argv[1]);
        return 2;
    }
    src[n] = 0;
    size_t global[3], local[3];
    cl_uint dims = parse_size(argv[2], global);
    if (!dims || parse_size(argv[3], local) != dims) {
        fprintf(stderr, "golden_run: sizes must be 1 to 3 numbers, as many for both\n");
        return 2;
    }
    cl_platform_id platform;
    cl_device_id dev;
    cl_int err = clGetPlatformIDs(1, &platform, NULL);
    if (!err)
        err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &dev, NULL);
    cl_context ctx = err ? NULL : clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = err ? NULL : clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    const char *s = src;
    cl_program p = err ? NULL : clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    if (!err)
        err = clBuildProgram(p, 1, &dev, "-cl-std=CL3.0 -cl-kernel-arg-info", NULL, NULL);
    cl_kernel k = NULL;
    if (!err)
        err = clCreateKernelsInProgram(p, 1, &k, NULL);
    cl_uint args = 0;
    if (!err)
        err = clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, NULL);
    for (cl_uint i = 0; i < args && !err; i++) {
        char type[128] = "";
        clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
        if (strchr(type, '*')) {
            cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, NULL, &err);
            char zero = 0;
            if (!err)
                err = clEnqueueFillBuffer(q, b, &zero, 1, 0, 1 << 20, 0, NULL, NULL);
            if (!err)
                err = clSetKernelArg(k, i, sizeof b, &b);
        } else {
            char zeros[128] = {0};
            size_t size = strstr(type, "long") || strstr(type, "double") ? 8 : 4;
            err = clSetKernelArg(k, i, size, zeros);
        }
    }
    if (!err)
        err = clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, NULL);
    if (!err)
        err = clFinish(q);
    if (err) {
        static char log[1 << 16];
        if (p)
            clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "golden_run: error %d\n%s\n", err, log);
        return 1;
    }
    return 0;
}
