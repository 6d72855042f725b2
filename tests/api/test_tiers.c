/* SPDX-License-Identifier: MIT */
/*
 * Launcher tiers (runtime/ndrange.c): the launcher of every local size
 * (tier 0, LANES_TIER=0) and each shape's own (LANES_TIER=1) give the same
 * bits for every shape, in 1 to 3 dimensions, non-uniform, with barriers,
 * __local memory and sub-groups; shapes launched again are compiled in the
 * background and swapped in between launches; a rebuild while background
 * compiles are queued, and a process ending with compiles queued, are safe.
 * LANES_TIER is read at each launch of a shape not built yet, so setting it
 * between launches (with no command running) chooses the tier.
 */
#include "kernel_fixture.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* What every work-item sees of its shape, and work shared through __local memory and sub-groups. */
static const char *src =
    "kernel void k(global int *ids, global float *f, local int *tile) {\n"
    "    size_t lin = get_local_linear_id(), g = get_global_linear_id();\n"
    "    tile[lin] = (int)(get_local_id(0) + 7 * get_local_id(1) + 31 * get_local_id(2));\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);\n"
    "    int other = tile[(lin + 1) % n];\n"
    "    global int *o = ids + 12 * g;\n"
    "    o[0] = (int)get_local_id(0); o[1] = (int)get_local_id(1); o[2] = (int)get_local_id(2);\n"
    "    o[3] = (int)get_local_size(0) * 10000 + (int)get_local_size(1) * 100 +\n"
    "           (int)get_local_size(2);\n"
    "    o[4] = (int)get_enqueued_local_size(0) * 10000 + (int)get_enqueued_local_size(1) * 100\n"
    "           + (int)get_enqueued_local_size(2);\n"
    "    o[5] = other;\n"
    "    o[6] = (int)get_sub_group_size(); o[7] = (int)get_num_sub_groups();\n"
    "    o[8] = (int)get_max_sub_group_size(); o[9] = (int)get_enqueued_num_sub_groups();\n"
    "    o[10] = (int)(get_sub_group_id() * 1000 + get_sub_group_local_id());\n"
    "    o[11] = sub_group_reduce_add((int)lin);\n"
    "    float x = (float)g * 0.37f + 1.0f;\n"
    "    f[g] = sqrt(x) * sin(x) + sub_group_reduce_add(x);\n"
    "}\n";

struct shape {
    unsigned dim;
    size_t global[3], local[3];
};

static const struct shape shapes[] = {
    {1, {40}, {20}},       {1, {100}, {33}},          {1, {64}, {64}},
    {1, {7}, {3}},         {2, {24, 6}, {12, 3}},     {2, {10, 10}, {4, 3}},
    {2, {33, 5}, {16, 2}}, {3, {6, 4, 4}, {3, 2, 2}}, {3, {5, 5, 3}, {2, 3, 2}},
    {1, {256}, {128}},     {2, {64, 4}, {32, 2}},     {3, {32, 3, 5}, {16, 2, 2}},
};
enum { NUM_SHAPES = sizeof shapes / sizeof *shapes };

static size_t items(const struct shape *s)
{
    size_t n = 1;
    for (unsigned d = 0; d < s->dim; d++)
        n *= s->global[d];
    return n;
}

/* Runs `k` over shape s; the results in ids (12 ints per work-item) and f. */
static void run(cl_kernel k, const struct shape *s, int *ids, float *f)
{
    size_t n = items(s);
    cl_mem mi = buffer(12 * n * sizeof(int), NULL), mf = buffer(n * sizeof(float), NULL);
    size_t group = 1;
    for (unsigned d = 0; d < s->dim; d++)
        group *= s->local[d];
    assert_int_equal(clSetKernelArg(k, 0, sizeof mi, &mi), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof mf, &mf), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, group * sizeof(int), NULL), CL_SUCCESS);
    assert_int_equal(
        clEnqueueNDRangeKernel(queue, k, s->dim, NULL, s->global, s->local, 0, NULL, NULL),
        CL_SUCCESS);
    assert_int_equal(
        clEnqueueReadBuffer(queue, mi, CL_TRUE, 0, 12 * n * sizeof(int), ids, 0, NULL, NULL),
        CL_SUCCESS);
    assert_int_equal(
        clEnqueueReadBuffer(queue, mf, CL_TRUE, 0, n * sizeof(float), f, 0, NULL, NULL),
        CL_SUCCESS);
    clReleaseMemObject(mi);
    clReleaseMemObject(mf);
}

/* The ids a work-item must see (the first 6 values), computed in C. */
static void check_ids(const struct shape *s, const int *ids)
{
    size_t g3[3] = {1, 1, 1}, l3[3] = {1, 1, 1};
    for (unsigned d = 0; d < s->dim; d++)
        g3[d] = s->global[d], l3[d] = s->local[d];
    for (size_t z = 0; z < g3[2]; z++)
        for (size_t y = 0; y < g3[1]; y++)
            for (size_t x = 0; x < g3[0]; x++) {
                size_t at[3] = {x, y, z}, lid[3], size[3];
                for (unsigned d = 0; d < 3; d++) {
                    lid[d] = at[d] % l3[d];
                    size_t start = at[d] - lid[d];
                    size[d] = g3[d] - start < l3[d] ? g3[d] - start : l3[d];
                }
                size_t lin = lid[0] + size[0] * (lid[1] + size[1] * lid[2]);
                size_t next = (lin + 1) % (size[0] * size[1] * size[2]);
                size_t nx = next % size[0], ny = next / size[0] % size[1],
                       nz = next / (size[0] * size[1]);
                const int *o = ids + 12 * (x + g3[0] * (y + g3[1] * z));
                assert_int_equal(o[0], lid[0]);
                assert_int_equal(o[1], lid[1]);
                assert_int_equal(o[2], lid[2]);
                assert_int_equal(o[3], size[0] * 10000 + size[1] * 100 + size[2]);
                assert_int_equal(o[4], l3[0] * 10000 + l3[1] * 100 + l3[2]);
                assert_int_equal(o[5], nx + 7 * ny + 31 * nz);
            }
}

static cl_kernel make_kernel(void)
{
    return kernel_of(src, "k", "-cl-std=CL3.0");
}

/*
 * Every shape on tier 0 and on its own launcher: the ids are the host's,
 * and the rest (sub-group sizes, reductions, float math) the same bits.
 */
static void both_tiers_give_the_same_bits(void **state)
{
    (void)state;
    for (size_t i = 0; i < NUM_SHAPES; i++) {
        const struct shape *s = &shapes[i];
        size_t n = items(s);
        int *ids[2] = {malloc(12 * n * sizeof(int)), malloc(12 * n * sizeof(int))};
        float *f[2] = {malloc(n * sizeof(float)), malloc(n * sizeof(float))};
        for (int tier = 0; tier < 2; tier++) {
            setenv("LANES_TIER", tier ? "1" : "0", 1);
            cl_kernel k = make_kernel(); /* a new program: no launcher built yet */
            run(k, s, ids[tier], f[tier]);
            clReleaseKernel(k);
            check_ids(s, ids[tier]);
        }
        unsetenv("LANES_TIER");
        for (size_t j = 0; j < 12 * n; j++)
            if (ids[0][j] != ids[1][j])
                fail_msg("shape %zu: value %zu of work-item %zu: tier 0 %d, tier 1 %d", i, j % 12,
                         j / 12, ids[0][j], ids[1][j]);
        if (memcmp(f[0], f[1], n * sizeof(float)) != 0)
            fail_msg("shape %zu: tier 0 and tier 1 differ in the float results", i);
        for (int t = 0; t < 2; t++)
            free(ids[t]), free(f[t]);
    }
}

/*
 * Both tiers in turn: each shape launched again and again (the second
 * launch queues its own launcher, which replaces tier 0 between
 * launches) gives the same bits every time.
 */
static void shapes_launched_again_keep_their_results(void **state)
{
    (void)state;
    cl_kernel k = make_kernel();
    for (size_t i = 0; i < NUM_SHAPES; i++) {
        const struct shape *s = &shapes[i];
        size_t n = items(s);
        int *first = malloc(12 * n * sizeof(int)), *ids = malloc(12 * n * sizeof(int));
        float *f0 = malloc(n * sizeof(float)), *f = malloc(n * sizeof(float));
        run(k, s, first, f0);
        check_ids(s, first);
        for (int r = 0; r < 6; r++) {
            if (r == 3)
                usleep(200 * 1000); /* time for the background compile */
            run(k, s, ids, f);
            assert_memory_equal(ids, first, 12 * n * sizeof(int));
            assert_memory_equal(f, f0, n * sizeof(float));
        }
        free(first), free(ids), free(f0), free(f);
    }
    clReleaseKernel(k);
}

/* A program rebuilt while compiles of its shapes are queued or running. */
static void rebuild_while_compiling_in_the_background(void **state)
{
    (void)state;
    cl_program p = program_of(src, "-cl-std=CL3.0");
    for (int round = 0; round < 3; round++) {
        cl_int err;
        cl_kernel k = clCreateKernel(p, "k", &err);
        assert_int_equal(err, CL_SUCCESS);
        for (size_t i = 0; i < NUM_SHAPES; i++) {
            size_t n = items(&shapes[i]);
            int *ids = malloc(12 * n * sizeof(int));
            float *f = malloc(n * sizeof(float));
            run(k, &shapes[i], ids, f);
            run(k, &shapes[i], ids, f); /* queues the shape's own launcher */
            check_ids(&shapes[i], ids);
            free(ids), free(f);
        }
        clReleaseKernel(k);
        assert_int_equal(clBuildProgram(p, 1, &dev,
                                        round == 1 ? "-cl-std=CL3.0 -DX" : "-cl-std=CL3.0", NULL,
                                        NULL),
                         CL_SUCCESS);
    }
    clReleaseProgram(p);
}

/*
 * The body of a process that ends with background compiles queued: it
 * launches 24 new shapes twice each and returns from main at once.
 */
static int launch_and_exit(void)
{
    cl_device_id d = lanes_test_device();
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &err);
    const char *text = "kernel void k(global int *o) { o[get_global_id(0)] = 1; }\n";
    cl_program p = clCreateProgramWithSource(c, 1, &text, NULL, &err);
    if (clBuildProgram(p, 1, &d, "", NULL, NULL) != CL_SUCCESS)
        return 3;
    cl_kernel k = clCreateKernel(p, "k", &err);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 4096 * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof m, &m);
    for (size_t local = 1; local <= 24; local++)
        for (int twice = 0; twice < 2; twice++) {
            size_t global = local * 3;
            if (clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL) != CL_SUCCESS)
                return 4;
        }
    return clFinish(q) == CL_SUCCESS ? 0 : 5; /* destructors run with compiles queued */
}

/*
 * Runs launch_and_exit in a new process (with `cache` as XDG_CACHE_HOME
 * when not NULL); fails unless it exits 0 within a minute.
 */
static void run_launch_and_exit(const char *cache)
{
    fflush(NULL);
    pid_t pid = fork(); /* then exec: Lanes' threads do not survive a fork */
    assert_true(pid >= 0);
    if (pid == 0) {
        /*
         * Under ASan, LeakSanitizer checks at exit before Lanes' destructor
         * has joined the background compiler, and counts the LLVM objects of
         * the compile still running as leaks: the child is not checked.
         */
        const char *asan = getenv("ASAN_OPTIONS");
        char options[1024];
        snprintf(options, sizeof options, "%s%sdetect_leaks=0", asan ? asan : "",
                 asan && *asan ? ":" : "");
        setenv("ASAN_OPTIONS", options, 1);
        if (cache)
            setenv("XDG_CACHE_HOME", cache, 1);
        execl("/proc/self/exe", "test_tiers", "--launch-and-exit", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    pid_t done = 0;
    for (int waited = 0; waited < 600 && (done = waitpid(pid, &status, WNOHANG)) == 0; waited++)
        usleep(100 * 1000);
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("the process did not end within a minute of launching");
    }
    assert_int_equal(done, pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the process ended with status %#x", status);
}

/* A process that ends with background compiles queued ends cleanly (exit status 0). */
static void exit_with_compiles_queued(void **state)
{
    (void)state;
    run_launch_and_exit(NULL);
}

/*
 * The same, when the process's tier-0 code comes from the disk cache: its
 * first LLVM compile is then a background one, whose exit handler must
 * still run before LLVM's statics go (the process never exited in 4 of 6
 * such runs of CLBlast's xspmv test at W = 16, stuck in a destroyed map).
 */
static void exit_with_compiles_queued_warm_cache(void **state)
{
    (void)state;
    char dir[] = "/tmp/lanes-tiers-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (int run = 0; run < 4; run++)
        run_launch_and_exit(dir);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--launch-and-exit") == 0)
        return launch_and_exit();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(both_tiers_give_the_same_bits),
        cmocka_unit_test(shapes_launched_again_keep_their_results),
        cmocka_unit_test(rebuild_while_compiling_in_the_background),
        cmocka_unit_test(exit_with_compiles_queued),
        cmocka_unit_test(exit_with_compiles_queued_warm_cache),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
