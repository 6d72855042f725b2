/* SPDX-License-Identifier: MIT */
/* The disk cache of built programs: miss, hit, corruption, LANES_CACHE=0, edited headers, size
 * limit. */
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

    /* A hit reads the entry and leaves it as it was, only marked as used (its mtime). */
    sleep(1);
    build(src, "-DA=1");
    assert_int_equal(stat(path, &again), 0);
    assert_int_equal(first.st_ino, again.st_ino); /* not written again (that renames a new file) */
    assert_int_equal(first.st_size, again.st_size);
    assert_true(again.st_mtime > first.st_mtime);

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

/* Builds `source` with `options`, runs its kernel k(global int *x) once and returns x[0]. */
static int build_and_run(const char *source, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    assert_int_equal(clBuildProgram(p, 1, &dev, options, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(cl_int), NULL, &err);
    assert_int_equal(clSetKernelArg(k, 0, sizeof x, &x), CL_SUCCESS);
    size_t one = 1;
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_SUCCESS);
    cl_int value = -1;
    assert_int_equal(clEnqueueReadBuffer(q, x, CL_TRUE, 0, sizeof value, &value, 0, NULL, NULL),
                     CL_SUCCESS);
    clReleaseMemObject(x);
    clReleaseCommandQueue(q);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return value;
}

/* The one program entry in the cache directory (launchers' entries left aside), or "". */
static void program_entry(char *path, size_t size)
{
    char sub[128];
    snprintf(sub, sizeof sub, "%s/lanes", dir);
    path[0] = '\0';
    DIR *d = opendir(sub);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char name[512], kind[8] = "";
        snprintf(name, sizeof name, "%s/%s", sub, e->d_name);
        FILE *f = e->d_name[0] != '.' ? fopen(name, "rb") : NULL;
        if (f && fread(kind, 1, 8, f) == 8 && memcmp(kind, "LANESPR", 7) == 0 && ++n)
            snprintf(path, size, "%s", name);
        if (f)
            fclose(f);
    }
    closedir(d);
    assert_int_equal(n, 1);
}

static void write_header(const char *path, int value)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#define VAL %d\n", value);
    fclose(f);
}

/*
 * A program that includes a header of an -I directory: an edit of the header
 * makes its cached build stale (the entry lists the files the build read,
 * with their digests), so the next build sees the new header; an unchanged
 * header still hits.
 */
static void edited_header(void **state)
{
    (void)state;
    char inc[128], header[192], options[160], path[512];
    snprintf(inc, sizeof inc, "%s/include", dir);
    assert_int_equal(mkdir(inc, 0700), 0);
    snprintf(header, sizeof header, "%s/val.h", inc);
    snprintf(options, sizeof options, "-I %s", inc);
    static const char *source = "#include \"val.h\"\nkernel void k(global int *x) { x[0] = VAL; }";
    write_header(header, 1);
    assert_int_equal(build_and_run(source, options), 1);
    program_entry(path, sizeof path);
    struct stat first, again;
    assert_int_equal(stat(path, &first), 0);

    write_header(header, 2);
    assert_int_equal(build_and_run(source, options), 2);

    /* Unchanged: a hit, which leaves the rewritten entry as it is (the same file). */
    assert_int_equal(stat(path, &first), 0);
    sleep(1);
    assert_int_equal(build_and_run(source, options), 2);
    assert_int_equal(stat(path, &again), 0);
    assert_int_equal(first.st_ino, again.st_ino);

    /* A header that is gone: the entry is stale, and the build fails as Clang says. */
    assert_int_equal(unlink(header), 0);
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    assert_int_equal(clBuildProgram(p, 1, &dev, options, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    clReleaseProgram(p);
    assert_int_equal(rmdir(inc), 0);
}

/* Bytes of the entries in the cache directory `sub`. */
static long long cache_bytes(const char *sub)
{
    long long total = 0;
    DIR *d = opendir(sub);
    for (struct dirent *e; d && (e = readdir(d));) {
        char path[512];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
        if (e->d_name[0] != '.' && stat(path, &st) == 0)
            total += st.st_size;
    }
    if (d)
        closedir(d);
    return total;
}

/*
 * LANES_CACHE_SIZE caps the cache: past it, the least recently used
 * entries go (a hit counts as a use), and the cache stays near the limit.
 */
static void size_limit_evicts_least_recently_used(void **state)
{
    (void)state;
    char own[96], sub[128], hot[512];
    snprintf(own, sizeof own, "%s/limited", dir);
    snprintf(sub, sizeof sub, "%s/lanes", own);
    assert_int_equal(mkdir(own, 0700), 0);
    setenv("XDG_CACHE_HOME", own, 1);
    setenv("LANES_CACHE_SIZE", "1", 1); /* MiB */
    /* Entries of about 100 KB: a program with a large constant table. */
    enum { WORDS = 25000 };
    size_t cap = 64 + 12 * WORDS;
    char *text = malloc(cap + 256);
    int n = snprintf(text, cap, "#warning from the source\nconstant int table[%d] = {", WORDS);
    for (int i = 0; i < WORDS; i++)
        n += snprintf(text + n, cap - (size_t)n, "%d,", i * 7919 % 100003);
    snprintf(text + n, cap + 256 - (size_t)n,
             "};\nkernel void cached(global int *x) { x[0] = table[x[1]] + V; }");
    build(text, "-DV=0");
    snprintf(hot, sizeof hot, "%s", "");
    {
        DIR *d = opendir(sub);
        for (struct dirent *e; d && (e = readdir(d));)
            if (e->d_name[0] != '.')
                snprintf(hot, sizeof hot, "%s/%s", sub, e->d_name);
        closedir(d);
    }
    assert_true(hot[0]);
    long long most = 0;
    for (int v = 1; v <= 30; v++) {
        char options[32];
        snprintf(options, sizeof options, "-DV=%d", v);
        build(text, options);
        build(text, "-DV=0"); /* a hit: the entry stays the most recently used */
        long long now = cache_bytes(sub);
        most = now > most ? now : most;
    }
    struct stat st;
    assert_int_equal(stat(hot, &st), 0); /* kept */
    assert_true(most > 0);
    /* At most the limit, an eighth of it written since the last check, and one entry. */
    if (most > (1 << 20) + (1 << 17) + (long long)st.st_size)
        fail_msg("the cache grew to %lld bytes with a limit of 1 MiB (entries of %lld bytes)", most,
                 (long long)st.st_size);
    assert_true(st.st_size > 50000); /* the entries are as large as meant */
    unsetenv("LANES_CACHE_SIZE");
    setenv("XDG_CACHE_HOME", dir, 1);
    free(text);
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
    const struct CMUnitTest tests[] = {cmocka_unit_test(miss_hit_corrupt),
                                       cmocka_unit_test(edited_header),
                                       cmocka_unit_test(size_limit_evicts_least_recently_used)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clReleaseContext(ctx);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
