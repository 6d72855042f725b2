/* SPDX-License-Identifier: MIT */
/*
 * The disk cache keeps launchers' object code: a second process runs a
 * kernel from it without compiling, and a damaged entry is rebuilt. Each
 * run is a child process, so that no JIT state is shared.
 */
#include "common.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

/* Builds and runs a kernel once; exits 0 when its results are right. */
static int child_run(void)
{
    cl_device_id dev = lanes_test_device();
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    const char *src = "kernel void twice(global int *x) { x[get_global_id(0)] *= 2; }";
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (clBuildProgram(p, 1, &dev, NULL, NULL, NULL) != CL_SUCCESS)
        return 1;
    cl_kernel k = clCreateKernel(p, "twice", &err);
    int data[64];
    for (int i = 0; i < 64; i++)
        data[i] = i;
    cl_mem m =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    size_t global = 64, local = 8;
    if (clSetKernelArg(k, 0, sizeof m, &m) != CL_SUCCESS ||
        clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL) != CL_SUCCESS)
        return 1;
    for (int i = 0; i < 64; i++)
        if (data[i] != 2 * i)
            return 1;
    return 0;
}

static void run_in_child(void)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
        _exit(child_run());
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* The one entry of the cache that holds object code ("" when none). */
static void object_entry(char *path, size_t size)
{
    char sub[128];
    snprintf(sub, sizeof sub, "%s/lanes", dir);
    path[0] = '\0';
    DIR *d = opendir(sub);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        /* Kind, payload size and digest, then the payload: an ELF file, or a record naming one. */
        char full[512], head[52] = "";
        snprintf(full, sizeof full, "%s/%s", sub, e->d_name);
        FILE *f = fopen(full, "rb");
        if (f && fread(head, 1, sizeof head, f) == sizeof head &&
            memcmp(head, "LANESOBJ", 8) == 0 && memcmp(head + 48, "\177ELF", 4) == 0) {
            snprintf(path, size, "%s", full);
            n++;
        }
        if (f)
            fclose(f);
    }
    closedir(d);
    assert_true(n <= 1);
}

static void object_code_is_cached(void **state)
{
    (void)state;
    char path[512];
    struct stat first, again;
    run_in_child();
    object_entry(path, sizeof path);
    assert_true(path[0]);
    assert_int_equal(stat(path, &first), 0);

    /* A second process finds it: the entry is read (marked used), not rewritten (a new file). */
    sleep(1);
    run_in_child();
    assert_int_equal(stat(path, &again), 0);
    assert_int_equal(again.st_ino, first.st_ino);
    assert_true(again.st_mtime > first.st_mtime);

    /* A damaged entry is not trusted: the launcher is rebuilt and the entry rewritten. */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -7, SEEK_END);
    int c = fgetc(f);
    fseek(f, -7, SEEK_END);
    fputc(c ^ 0x5a, f);
    fclose(f);
    run_in_child();
    f = fopen(path, "rb");
    fseek(f, -7, SEEK_END);
    assert_int_equal(fgetc(f), c);
    fclose(f);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/lanes-launcher-cache-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    setenv("XDG_CACHE_HOME", dir, 1);
    const struct CMUnitTest tests[] = {cmocka_unit_test(object_code_is_cached)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
