/* SPDX-License-Identifier: MIT */
/*
 * A process that exits with asynchronous builds queued or running: each
 * build either ends (built, or failed with "the process is exiting") or
 * never reports; none may run into LLVM's statics already destroyed by
 * the exit ("pure virtual method called", a compiler crash; leaks under
 * LeakSanitizer). The process's first compile runs on the caller's thread
 * even when asynchronous (its callback still on a worker). `test_exit_builds N` waits for N builds
 * to end before exiting, so that others are running then, not only queued.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static cl_device_id device;
static _Atomic int built, refused;

static void count(void) /* the first exit handler registered: the last to run */
{
    printf("%d built, %d refused as the process exited, %d not reported\n", built, refused,
           16 - built - refused);
}

static void CL_CALLBACK done(cl_program program, void *user_data)
{
    int i = (int)(size_t)user_data;
    cl_build_status status = CL_BUILD_NONE;
    char log[512] = "";
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    if (status != CL_BUILD_SUCCESS && !strstr(log, "the process is exiting")) {
        fprintf(stderr, "FAIL: build %d: status %d, log: %s\n", i, (int)status, log);
        _exit(1);
    }
    if (status == CL_BUILD_SUCCESS)
        built++;
    else
        refused++;
}

int main(int argc, char **argv)
{
    int wait_for = argc > 1 ? atoi(argv[1]) : 0;
    atexit(count);
    setenv("LANES_CACHE", "0", 1); /* every build compiles */
    cl_platform_id platform;
    cl_int err;
    if (clGetPlatformIDs(1, &platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "FAIL: no device\n");
        return 1;
    }
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (!context) {
        fprintf(stderr, "FAIL: clCreateContext: %d\n", err);
        return 1;
    }
    const char *source =
        "kernel void k(global int *x)\n"
        "{\n"
        "    size_t i = get_global_id(0);\n"
        "    x[i] = sub_group_reduce_add(x[i] * N) + sub_group_scan_inclusive_max(x[i]);\n"
        "}\n";
    for (int i = 0; i < 16; i++) {
        cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
        char options[32];
        snprintf(options, sizeof options, "-DN=%d", i + 1);
        if (!program ||
            clBuildProgram(program, 1, &device, options, done, (void *)(size_t)i) != CL_SUCCESS) {
            fprintf(stderr, "FAIL: build %d did not start\n", i);
            return 1;
        }
        cl_build_status status = CL_BUILD_IN_PROGRESS;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                              NULL);
        if (i == 0 && status != CL_BUILD_SUCCESS) {
            fprintf(stderr, "FAIL: the process's first build did not run on its thread\n");
            return 1;
        }
        clReleaseProgram(program);
    }
    while (built + refused < wait_for) {
        struct timespec t = {0, 100000};
        nanosleep(&t, NULL);
    }
    printf("exiting with builds queued or running\n");
    return 0; /* the context too is left to the exit */
}
