/* SPDX-License-Identifier: MIT */
/*
 * Specialization starts from what a kernel reaches, and every size limit
 * counts that (ARCHITECTURE.md §2): in a generated program of more than
 * 200,000 instructions (a library of hashing helpers, as real programs
 * include), a memset kernel and a kernel calling two helpers of the
 * library are vectorized, see the program's variables where the others do,
 * and give the right results; a kernel that is itself huge once its calls
 * are inlined runs lightly optimized at width 1, and the build log names
 * the function that made it so.
 */
#include "kernel_fixture.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* 300 helpers of 80 steps: about 220,000 instructions as Clang emits them. */
enum { HELPERS = 300, STEPS = 80, N = 256, BIG_CALLS = 300 };

/* The helpers' hashing, as the kernels compute it. */
static cl_uint helper(cl_uint h, cl_uint x)
{
    cl_uint y = x ^ h;
    for (cl_uint s = 0; s < STEPS; s++) {
        y = y * (2654435761u + 2 * s) + h;
        y ^= y >> (s % 13 + 3);
    }
    return h == 1 ? helper(2, y) : y;
}

/* The program (malloc'd); `salt` makes its source one no cache has seen. */
static char *generate(unsigned salt)
{
    char *src = malloc((size_t)HELPERS * STEPS * 64 + (size_t)BIG_CALLS * 32 + 4096), *p = src;
    assert_non_null(src);
    /* Variables the library user does not touch come first in the program's block. */
    p += sprintf(p, "global uint counters[64];\n"
                    "global uint seen[4];\n"
                    "constant uint table[4] = {3, 5, 7, 11};\n"
                    "uint h2(uint x);\n");
    for (unsigned h = 0; h < HELPERS; h++) {
        p += sprintf(p, "uint h%u(uint x) {\n    uint y = x ^ %uu;\n", h, h);
        for (unsigned s = 0; s < STEPS; s++)
            p += sprintf(p, "    y = y * %uu + %uu; y ^= y >> %u;\n", 2654435761u + 2 * s, h,
                         s % 13 + 3);
        p += sprintf(p, "    return %s;\n}\n", h == 1 ? "h2(y)" : "y");
    }
    p += sprintf(p,
                 "kernel void count(global uint *o) {\n"
                 "    for (int i = 0; i < 64; i++) counters[i] += o[i] + h5(i);\n"
                 "}\n"
                 "kernel void fill(global uint *o, uint v) {\n"
                 "    size_t i = get_global_id(0);\n"
                 "    o[i] = v + %uu;\n"
                 "    if (i == 0) o[%d] = get_sub_group_size();\n"
                 "}\n"
                 "kernel void user(global uint *o) {\n"
                 "    size_t i = get_global_id(0);\n"
                 "    o[i] = h0(o[i]) + h1((uint)i) * table[i %% 4];\n"
                 "    if (i == 0) { o[%d] = get_sub_group_size(); seen[1] = 42; }\n"
                 "}\n"
                 "kernel void peek(global uint *o) { o[0] = seen[1]; o[1] = counters[1]; }\n"
                 "kernel void twin(global uint *o) {\n"
                 "    size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1))\n"
                 "               * get_global_size(0) + get_global_id(0);\n"
                 "    o[i] = h7((uint)i);\n"
                 "}\n"
                 "kernel void big(global uint *o) {\n"
                 "    size_t i = get_global_id(0);\n"
                 "    uint x = o[i];\n",
                 salt, N, N);
    for (int c = 0; c < BIG_CALLS; c++)
        p += sprintf(p, "    x = h3(x);\n");
    p += sprintf(p,
                 "    o[i] = x;\n"
                 "    if (i == 0) o[%d] = get_sub_group_size();\n"
                 "}\n",
                 N);
    return src;
}

static cl_program program;
static unsigned salt;
static size_t width; /* the sub-group size of a vectorized kernel in groups of 64 */

/* The build log (static: valid until the next call). */
static const char *build_log(void)
{
    static char log[1 << 16];
    assert_int_equal(
        clGetProgramBuildInfo(program, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
        CL_SUCCESS);
    return log;
}

static int setup_program(void **state)
{
    if (setup(state) != 0)
        return 1;
    salt = (unsigned)getpid() * 2654435761u ^ (unsigned)time(NULL);
    char *src = generate(salt);
    cl_int err;
    program = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
    free(src);
    if (err != CL_SUCCESS)
        return 1;
    if (clBuildProgram(program, 1, &dev, "-cl-std=CL3.0", NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "build failed: %s\n", build_log());
        return 1;
    }
    return 0;
}

static int teardown_program(void **state)
{
    clReleaseProgram(program);
    return teardown(state);
}

/* Runs kernel `name` over N work-items in groups of 64 on `in`; the N + 1 words it leaves. */
static void run(const char *name, cl_uint *in, cl_uint *out)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem m = buffer((N + 1) * sizeof *out, in);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    cl_uint v = 9;
    if (strcmp(name, "fill") == 0)
        assert_int_equal(clSetKernelArg(k, 1, sizeof v, &v), CL_SUCCESS);
    size_t global = N, local = 64;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(
        clEnqueueReadBuffer(queue, m, CL_TRUE, 0, (N + 1) * sizeof *out, out, 0, NULL, NULL),
        CL_SUCCESS);
    if (!width)
        assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                                 sizeof local, &local, sizeof width, &width, NULL),
                         CL_SUCCESS);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

/* A memset kernel of the big program is vectorized, as it would be on its own. */
static void small_kernel_of_a_big_program(void **state)
{
    (void)state;
    static cl_uint in[N + 1], out[N + 1];
    run("fill", in, out);
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 9 + salt);
    assert_true(width > 1);
    assert_int_equal(out[N], width);
    assert_null(strstr(build_log(), "kernel fill: not vectorized"));
}

/*
 * A kernel calling two helpers of the library (one of which calls a third)
 * is vectorized; the variable it writes is where another kernel reads it,
 * though the variables before it in the program's block are not in its
 * reach.
 */
static void kernel_calling_a_little_of_a_library(void **state)
{
    (void)state;
    static cl_uint in[N + 1], out[N + 1];
    for (cl_uint i = 0; i < N; i++)
        in[i] = 3 * i + 1;
    run("user", in, out);
    static const cl_uint table[4] = {3, 5, 7, 11};
    for (cl_uint i = 0; i < N; i++)
        assert_int_equal(out[i], helper(0, 3 * i + 1) + helper(1, i) * table[i % 4]);
    assert_true(width > 1);
    assert_int_equal(out[N], width);
    assert_null(strstr(build_log(), "kernel user: not vectorized"));
    run("peek", in, out);
    assert_int_equal(out[0], 42);
    assert_int_equal(out[1], 0);
}

/*
 * A kernel that is itself huge (a helper of 700 instructions inlined 300
 * times) takes the light path at width 1; the log says why and names the
 * helper.
 */
static void huge_kernel_names_its_biggest_function(void **state)
{
    (void)state;
    static cl_uint in[N + 1], out[N + 1];
    for (cl_uint i = 0; i < N; i++)
        in[i] = i * i;
    run("big", in, out);
    for (cl_uint i = 0; i < N; i++) {
        cl_uint x = i * i;
        for (int c = 0; c < BIG_CALLS; c++)
            x = helper(3, x);
        assert_int_equal(out[i], x);
    }
    assert_int_equal(out[N], 1);
    const char *log = build_log(), *line = strstr(log, "kernel big: not vectorized");
    assert_non_null(line);
    const char *end = strchr(line, '\n');
    char text[1024];
    snprintf(text, sizeof text, "%.*s", end ? (int)(end - line) : (int)strlen(line), line);
    assert_non_null(strstr(text, "lightly optimized"));
    assert_non_null(strstr(text, "h3 ("));
    assert_non_null(strstr(text, "inlined 300 times"));
}

/* One thread's launch of `twin` in `dims` dimensions over N work-items. */
struct twin_run {
    cl_uint dims;
    pthread_barrier_t *start;
    cl_uint out[N];
    cl_int err;
};

static void *run_twin(void *p)
{
    struct twin_run *r = p;
    cl_int err;
    cl_kernel k = clCreateKernel(program, "twin", &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof r->out, NULL, &err);
    clSetKernelArg(k, 0, sizeof m, &m);
    size_t global[3][3] = {{N, 1, 1}, {16, N / 16, 1}, {8, 8, N / 64}};
    pthread_barrier_wait(r->start);
    r->err = clEnqueueNDRangeKernel(q, k, r->dims, NULL, global[r->dims - 1], NULL, 0, NULL, NULL);
    if (r->err == CL_SUCCESS)
        r->err = clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof r->out, r->out, 0, NULL, NULL);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    clReleaseKernel(k);
    return NULL;
}

/*
 * Launches in 1, 2 and 3 dimensions at once from three threads: three
 * launchers of one kernel compile together (each work_dim has its own),
 * and all need its reach, which one of them takes while the others wait.
 */
static void concurrent_first_launches(void **state)
{
    (void)state;
    pthread_barrier_t start;
    assert_int_equal(pthread_barrier_init(&start, NULL, 3), 0);
    static struct twin_run runs[3];
    pthread_t t[3];
    for (cl_uint d = 0; d < 3; d++) {
        runs[d] = (struct twin_run){.dims = d + 1, .start = &start};
        assert_int_equal(pthread_create(&t[d], NULL, run_twin, &runs[d]), 0);
    }
    for (int d = 0; d < 3; d++)
        pthread_join(t[d], NULL);
    pthread_barrier_destroy(&start);
    for (int d = 0; d < 3; d++) {
        assert_int_equal(runs[d].err, CL_SUCCESS);
        for (cl_uint i = 0; i < N; i++)
            assert_int_equal(runs[d].out[i], helper(7, i));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_kernel_of_a_big_program),
        cmocka_unit_test(kernel_calling_a_little_of_a_library),
        cmocka_unit_test(huge_kernel_names_its_biggest_function),
        cmocka_unit_test(concurrent_first_launches),
    };
    return cmocka_run_group_tests(tests, setup_program, teardown_program);
}
