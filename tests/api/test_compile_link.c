/* SPDX-License-Identifier: MIT */
/* clCompileProgram with embedded headers, clLinkProgram of objects and libraries, their errors. */
#include "kernel_fixture.h"

#include <stdatomic.h>
#include <unistd.h>

static cl_program source_program(const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    return p;
}

static cl_program_binary_type binary_type(cl_program p)
{
    cl_program_binary_type t;
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL),
                     CL_SUCCESS);
    return t;
}

static const char *helper_src = "int helper(int x) { return x * SCALE; }\n";
static const char *kernel_src =
    "#include \"defs.h\"\n"
    "int helper(int x);\n"
    "kernel void k(global int *o) {\n"
    "    o[get_global_id(0)] = helper((int)get_global_id(0)) + OFFSET;\n"
    "}\n";

/* Runs kernel k of `p` over 8 items and checks o[i] == 3 * i + 7. */
static void check_runs(cl_program p)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem m = buffer(8 * sizeof(int), NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t global = 8;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    int r[8];
    assert_int_equal(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof r, r, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 8; i++)
        assert_int_equal(r[i], 3 * i + 7);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

/* Two objects compiled apart, one with an embedded header, linked into an executable. */
static void compile_and_link(void **state)
{
    (void)state;
    cl_program header = source_program("#define OFFSET 7\n");
    const char *names[] = {"defs.h"};
    cl_program a = source_program(helper_src), b = source_program(kernel_src);
    assert_int_equal(clCompileProgram(a, 1, &dev, "-DSCALE=3", 0, NULL, NULL, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clCompileProgram(b, 0, NULL, NULL, 1, &header, names, NULL, NULL), CL_SUCCESS);
    assert_int_equal(binary_type(a), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    cl_int err;
    cl_kernel none = clCreateKernel(b, "k", &err); /* an object is not executable */
    assert_null(none);
    assert_int_equal(err, CL_INVALID_PROGRAM_EXECUTABLE);

    cl_program objects[] = {a, b};
    cl_program exe = clLinkProgram(ctx, 1, &dev, NULL, 2, objects, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    check_runs(exe);

    /* The helper as a library, linked with the kernel's object. */
    cl_program lib = clLinkProgram(ctx, 0, NULL, "-create-library", 1, &a, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(binary_type(lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_program parts[] = {lib, b};
    cl_program exe2 = clLinkProgram(ctx, 0, NULL, NULL, 2, parts, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    check_runs(exe2);

    /* A compiled object as a binary, built into an executable of its own. */
    size_t size;
    assert_int_equal(clGetProgramInfo(a, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
                     CL_SUCCESS);
    assert_true(size > 0);
    cl_program progs[] = {exe, exe2, lib, a, b, header};
    for (size_t i = 0; i < sizeof progs / sizeof *progs; i++)
        clReleaseProgram(progs[i]);
}

static atomic_int compiled;

static void CL_CALLBACK on_compiled(cl_program p, void *user)
{
    (void)user;
    cl_build_status status;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    atomic_store(&compiled, status == CL_BUILD_SUCCESS ? 1 : -1);
}

/* With a callback the compile runs in the background, on copies of the headers. */
static void asynchronous_compile(void **state)
{
    (void)state;
    cl_program header = source_program("#define OFFSET 7\n");
    cl_program a = source_program(helper_src), b = source_program(kernel_src);
    assert_int_equal(clCompileProgram(a, 0, NULL, "-DSCALE=3", 0, NULL, NULL, NULL, NULL),
                     CL_SUCCESS);
    {
        char name[] = "defs.h";
        const char *names[] = {name};
        atomic_store(&compiled, 0);
        assert_int_equal(clCompileProgram(b, 0, NULL, NULL, 1, &header, names, on_compiled, NULL),
                         CL_SUCCESS);
        name[0] = 'X'; /* the caller's strings may change once the call returns */
    }
    for (int i = 0; i < 30000 && atomic_load(&compiled) == 0; i++)
        usleep(1000);
    assert_int_equal(atomic_load(&compiled), 1);
    cl_program objects[] = {a, b};
    cl_int err;
    cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 2, objects, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    check_runs(exe);
    cl_program progs[] = {exe, a, b, header};
    for (size_t i = 0; i < sizeof progs / sizeof *progs; i++)
        clReleaseProgram(progs[i]);
}

static atomic_int linked;
static _Atomic(cl_program) linked_program;

static void CL_CALLBACK on_linked(cl_program p, void *user)
{
    cl_build_status status;
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    atomic_store(&linked_program, p);
    atomic_store(&linked, status == CL_BUILD_SUCCESS ? *(int *)user : -1);
}

static int wait_linked(void)
{
    for (int i = 0; i < 30000 && atomic_load(&linked) == 0; i++)
        usleep(1000);
    return atomic_load(&linked);
}

/*
 * With a callback, clLinkProgram returns its program at once and links in
 * the background; an input compiled again meanwhile does not disturb it,
 * and a failed link reports through the callback and the log.
 */
static void asynchronous_link(void **state)
{
    (void)state;
    cl_program header = source_program("#define OFFSET 7\n");
    const char *names[] = {"defs.h"};
    cl_program a = source_program(helper_src), b = source_program(kernel_src);
    assert_int_equal(clCompileProgram(a, 0, NULL, "-DSCALE=3", 0, NULL, NULL, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clCompileProgram(b, 0, NULL, NULL, 1, &header, names, NULL, NULL), CL_SUCCESS);
    cl_program objects[] = {a, b};
    cl_int err = 1;
    int tag = 5;
    atomic_store(&linked, 0);
    cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 2, objects, on_linked, &tag, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_non_null(exe);
    /* The input changes at once; the link reads what it was at the call. */
    assert_int_equal(clCompileProgram(a, 0, NULL, "-DSCALE=100", 0, NULL, NULL, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(wait_linked(), 5);
    assert_ptr_equal(atomic_load(&linked_program), exe);
    assert_int_equal(binary_type(exe), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    check_runs(exe);

    /* A link that fails: the callback runs and the program's log says why. */
    cl_program only_b = b;
    atomic_store(&linked, 0);
    cl_program bad = clLinkProgram(ctx, 0, NULL, NULL, 1, &only_b, on_linked, &tag, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(wait_linked(), -1);
    cl_build_status status;
    assert_int_equal(
        clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL),
        CL_SUCCESS);
    assert_int_equal(status, CL_BUILD_ERROR);
    char log[4096];
    assert_int_equal(clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "helper"));

    /*
     * An input that is no object (an executable) is refused. Refusing it
     * freed the executable's own module, which the program then used after
     * the free (the API fuzzer's find, under ASan).
     */
    cl_program mixed[] = {a, exe};
    assert_null(clLinkProgram(ctx, 0, NULL, NULL, 2, mixed, on_linked, &tag, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    size_t size = 0;
    assert_int_equal(clGetProgramInfo(exe, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL),
                     CL_SUCCESS);
    assert_true(size > 0);
    check_runs(exe);
    cl_program progs[] = {bad, exe, a, b, header};
    for (size_t i = 0; i < sizeof progs / sizeof *progs; i++)
        clReleaseProgram(progs[i]);
}

/*
 * A synchronous link of an input that is being compiled again in the
 * background: the link reads a copy of the input's module, which the
 * compile frees when it replaces it (the API fuzzer's find, under ASan).
 */
static void link_while_an_input_compiles(void **state)
{
    (void)state;
    cl_program a = source_program(helper_src);
    assert_int_equal(clCompileProgram(a, 0, NULL, "-DSCALE=3", 0, NULL, NULL, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < 10; i++) {
        atomic_store(&compiled, 0);
        assert_int_equal(
            clCompileProgram(a, 0, NULL, "-DSCALE=3", 0, NULL, NULL, on_compiled, NULL),
            CL_SUCCESS);
        cl_int err = 1;
        cl_program lib = clLinkProgram(ctx, 0, NULL, "-create-library", 1, &a, NULL, NULL, &err);
        /* Linked from the old module or the new one, or refused: never freed memory. */
        assert_true(err == CL_SUCCESS || err == CL_INVALID_OPERATION);
        if (lib)
            clReleaseProgram(lib);
        for (int w = 0; w < 30000 && atomic_load(&compiled) == 0; w++)
            usleep(1000);
        assert_int_equal(atomic_load(&compiled), 1);
    }
    clReleaseProgram(a);
}

/* A function declared and called but defined by no input fails the build or link, saying which. */
static void undefined_function(void **state)
{
    (void)state;
    cl_program p = source_program("int helper(int x);\n"
                                  "kernel void k(global int *o) { o[0] = helper(OFFSET); }\n");
    char opts[] = "-DOFFSET=7";
    assert_int_equal(clBuildProgram(p, 0, NULL, opts, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096];
    assert_int_equal(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "undefined function 'helper'"));
    assert_int_equal(clCompileProgram(p, 0, NULL, opts, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_int err;
    cl_program exe = clLinkProgram(ctx, 0, NULL, NULL, 1, &p, NULL, NULL, &err);
    assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
    assert_int_equal(clGetProgramBuildInfo(exe, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "undefined function 'helper'"));
    /* The failed link's program has nothing to build from (it crashed: the API fuzzer). */
    assert_int_equal(clBuildProgram(exe, 0, NULL, "", NULL, NULL), CL_INVALID_OPERATION);
    /* A library may leave it undefined: the executable linked from it will not. */
    cl_program lib = clLinkProgram(ctx, 0, NULL, "-create-library", 1, &p, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseProgram(lib);
    clReleaseProgram(exe);
    clReleaseProgram(p);

    /*
     * An overloadable function (mangled, as a built-in the library has no
     * overload of would be) fails the link too, naming it.
     */
    p = source_program("float __attribute__((overloadable)) no_such_function(float);\n"
                       "kernel void k(global float *x) { x[0] = no_such_function(x[1]); }\n");
    assert_int_equal(clCompileProgram(p, 0, NULL, "", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    exe = clLinkProgram(ctx, 0, NULL, NULL, 1, &p, NULL, NULL, &err);
    assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
    assert_int_equal(clGetProgramBuildInfo(exe, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "undefined function 'no_such_function'"));
    clReleaseProgram(exe);
    clReleaseProgram(p);
}

static const char *math_src = "kernel void k(global const float *x, global float *o) {\n"
                              "    size_t i = get_global_id(0);\n"
                              "    o[2 * i] = sin(x[i]);\n"
                              "    o[2 * i + 1] = pow(x[i] + 4.0f, 1.7f);\n"
                              "}\n";
enum { MATH_N = 4096 };

/* Runs math_src's kernel of `p` over x[MATH_N] into o[2 * MATH_N]. */
static void run_math(cl_program p, const float *x, float *o)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem in = buffer(MATH_N * sizeof *x, (void *)x), out = buffer(2 * MATH_N * sizeof *o, NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof in, &in), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof out, &out), CL_SUCCESS);
    size_t global = MATH_N;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(
        clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 2 * MATH_N * sizeof *o, o, 0, NULL, NULL),
        CL_SUCCESS);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

/*
 * Links math_src, compiled without options, with link options `options`;
 * through a library made with `library_options` unless that is NULL.
 */
static cl_program link_math(const char *library_options, const char *options)
{
    cl_program obj = source_program(math_src);
    assert_int_equal(clCompileProgram(obj, 0, NULL, "", 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    cl_int err;
    if (library_options) {
        cl_program lib = clLinkProgram(ctx, 0, NULL, library_options, 1, &obj, NULL, NULL, &err);
        assert_int_equal(err, CL_SUCCESS);
        clReleaseProgram(obj);
        obj = lib;
    }
    cl_program exe = clLinkProgram(ctx, 0, NULL, options, 1, &obj, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    clReleaseProgram(obj);
    return exe;
}

/*
 * -cl-fast-relaxed-math given to clLinkProgram reaches the built-in library as
 * if the source had been compiled with it: sin and pow give the relaxed
 * variants' results (which differ from the precise ones on some of these
 * inputs); a link without it gives the precise ones, and so does a library
 * made without -enable-link-options.
 */
static void link_math_options(void **state)
{
    (void)state;
    static float x[MATH_N], precise[2 * MATH_N], relaxed[2 * MATH_N], linked[2 * MATH_N];
    for (int i = 0; i < MATH_N; i++)
        x[i] = -3.0f + 6.0f * (float)i / MATH_N;
    cl_program p = source_program(math_src), q = source_program(math_src);
    assert_int_equal(clBuildProgram(p, 0, NULL, "", NULL, NULL), CL_SUCCESS);
    assert_int_equal(clBuildProgram(q, 0, NULL, "-cl-fast-relaxed-math", NULL, NULL), CL_SUCCESS);
    run_math(p, x, precise);
    run_math(q, x, relaxed);
    assert_true(memcmp(precise, relaxed, sizeof precise) != 0);
    /* Through a library, only one made with -enable-link-options takes them. */
    const struct {
        const char *library, *link;
        const float *want;
    } links[] = {{NULL, "-cl-fast-relaxed-math", relaxed},
                 {NULL, NULL, precise},
                 {"-create-library -enable-link-options", "-cl-fast-relaxed-math", relaxed},
                 {"-create-library", "-cl-fast-relaxed-math", precise}};
    for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
        cl_program exe = link_math(links[i].library, links[i].link);
        run_math(exe, x, linked);
        assert_memory_equal(linked, links[i].want, sizeof linked);
        clReleaseProgram(exe);
    }
    clReleaseProgram(p);
    clReleaseProgram(q);
}

static void errors(void **state)
{
    (void)state;
    cl_program a = source_program(helper_src);
    const char *names[] = {"defs.h"};
    assert_int_equal(clCompileProgram(a, 0, NULL, "-cl-no-such-option", 0, NULL, NULL, NULL, NULL),
                     CL_INVALID_COMPILER_OPTIONS);
    assert_int_equal(clCompileProgram(a, 0, NULL, NULL, 1, NULL, names, NULL, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(clCompileProgram(a, 0, NULL, NULL, 0, NULL, names, NULL, NULL),
                     CL_INVALID_VALUE);
    /* SCALE undefined: a compile error with Clang's diagnostic in the log. */
    assert_int_equal(clCompileProgram(a, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
                     CL_COMPILE_PROGRAM_FAILURE);
    char log[2048];
    assert_int_equal(clGetProgramBuildInfo(a, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "SCALE"));

    cl_int err;
    /* An input that was never compiled cannot be linked. */
    assert_null(clLinkProgram(ctx, 0, NULL, NULL, 1, &a, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_OPERATION);
    assert_null(clLinkProgram(ctx, 0, NULL, NULL, 0, NULL, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_VALUE);

    /* Two definitions of one function: the link fails, its program tells why. */
    cl_program x = source_program("int twice(int v) { return 2 * v; }\n");
    cl_program y = source_program("int twice(int v) { return v + v; }\n");
    assert_int_equal(clCompileProgram(x, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    assert_int_equal(clCompileProgram(y, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL), CL_SUCCESS);
    assert_null(clLinkProgram(ctx, 0, NULL, "-enable-link-options", 1, &x, NULL, NULL, &err));
    assert_int_equal(err, CL_INVALID_LINKER_OPTIONS);
    cl_program both[] = {x, y};
    cl_program bad = clLinkProgram(ctx, 0, NULL, NULL, 2, both, NULL, NULL, &err);
    assert_int_equal(err, CL_LINK_PROGRAM_FAILURE);
    assert_non_null(bad);
    assert_int_equal(clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL),
                     CL_SUCCESS);
    assert_non_null(strstr(log, "twice"));
    cl_build_status status;
    assert_int_equal(
        clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL),
        CL_SUCCESS);
    assert_int_equal(status, CL_BUILD_ERROR);
    clReleaseProgram(bad);
    clReleaseProgram(x), clReleaseProgram(y), clReleaseProgram(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(compile_and_link),
                                       cmocka_unit_test(asynchronous_compile),
                                       cmocka_unit_test(asynchronous_link),
                                       cmocka_unit_test(undefined_function),
                                       cmocka_unit_test(link_math_options),
                                       cmocka_unit_test(errors),
                                       cmocka_unit_test(link_while_an_input_compiles)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
