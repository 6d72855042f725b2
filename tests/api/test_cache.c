/* SPDX-License-Identifier: MIT */
/* The disk cache of built programs: miss, hit, corruption, LANES_CACHE=0. */
#include "common.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static cl_context ctx;
static cl_device_id dev;

/* The one entry in the cache directory, or "" (fails when there are several). */
static void only_entry(char *path, size_t size)
{
    char sub[128];
    snprintf(sub, sizeof sub, "%s/lanes", dir);
    path[0] = '\0';
    DIR *d = opendir(sub);
    if (!d)
        return;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.' && ++n)
            snprintf(path, size, "%s/%s", sub, e->d_name);
    closedir(d);
    assert_true(n <= 1);
}

/* Builds `src`; returns the build log's first character count and checks the kernel is there. */
static void build(const char *src, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(clBuildProgram(p, 1, &dev, options, NULL, NULL), CL_SUCCESS);
    char names[32], log[256];
    assert_int_equal(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL),
                     CL_SUCCESS);
    assert_string_equal(names, "cached");
    /* The log of a hit is the log of the build that filled the entry. */
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "warning: from the source"));
    clReleaseProgram(p);
}

static const char *src =
    "#warning from the source\nkernel void cached(global int *x) { x[0] = 1; }";

static void miss_hit_corrupt(void **state)
{
    (void)state;
    char path[512];
    struct stat first, again;
    build(src, "-DA=1");
    only_entry(path, sizeof path);
    assert_true(path[0]);
    assert_int_equal(stat(path, &first), 0);

    /* A hit reads the entry and leaves it as it was. */
    sleep(1);
    build(src, "-DA=1");
    assert_int_equal(stat(path, &again), 0);
    assert_int_equal(first.st_mtime, again.st_mtime);

    /* A truncated entry is not trusted: the program is rebuilt and the entry rewritten. */
    assert_int_equal(truncate(path, first.st_size / 2), 0);
    build(src, "-DA=1");
    assert_int_equal(stat(path, &again), 0);
    assert_int_equal(again.st_size, first.st_size);

    /* So is an entry with a flipped byte in its module. */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, -5, SEEK_END);
    int c = fgetc(f);
    fseek(f, -5, SEEK_END);
    fputc(c ^ 0xff, f);
    fclose(f);
    build(src, "-DA=1");
    f = fopen(path, "rb");
    fseek(f, -5, SEEK_END);
    assert_int_equal(fgetc(f), c);
    fclose(f);

    /* Other options make another entry. */
    assert_int_equal(unlink(path), 0);
    build(src, "-DA=2");
    only_entry(path, sizeof path);
    assert_true(path[0]);
    assert_int_equal(unlink(path), 0);

    /* LANES_CACHE=0 turns the cache off. */
    setenv("LANES_CACHE", "0", 1);
    build(src, "-DA=3");
    only_entry(path, sizeof path);
    assert_false(path[0]);
    unsetenv("LANES_CACHE");
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/lanes-cache-test-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    setenv("XDG_CACHE_HOME", dir, 1);
    dev = lanes_test_device();
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    const struct CMUnitTest tests[] = {cmocka_unit_test(miss_hit_corrupt)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clReleaseContext(ctx);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
