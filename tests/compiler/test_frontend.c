/* SPDX-License-Identifier: MIT */
/* The Clang bridge: OpenCL C in memory -> LLVM module in the caller's context. */
#include "../../compiler/frontend/frontend.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <setjmp.h> /* cmocka.h needs these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Everything one compile needs, with the defaults most tests want. */
struct job {
    const char *source;
    const char *const *args;
    size_t num_args;
    const struct lanes_frontend_file *headers;
    size_t num_headers;
    const char *triple, *cpu, *features;
};

static int compile(LLVMContextRef ctx, const struct job *job, struct lanes_frontend_result *out)
{
    struct lanes_frontend_request req = {
        .args = job->args,
        .num_args = job->num_args,
        .source = {"input.cl", job->source, strlen(job->source)},
        .headers = job->headers,
        .num_headers = job->num_headers,
        .triple = job->triple,
        .cpu = job->cpu,
        .features = job->features,
    };
    return lanes_frontend_compile(ctx, &req, out);
}

/* Compiles `job`, expecting success; prints the log when it fails. */
static LLVMModuleRef compile_ok(LLVMContextRef ctx, const struct job *job, char **log)
{
    struct lanes_frontend_result res;
    int rc = compile(ctx, job, &res);
    assert_non_null(res.log);
    if (rc != 0)
        fprintf(stderr, "unexpected failure:\n%s", res.log);
    assert_int_equal(rc, 0);
    assert_non_null(res.module);
    assert_non_null(res.deps);
    free(res.deps);
    if (log)
        *log = res.log;
    else
        free(res.log);
    return res.module;
}

/* Compiles `job`, expecting failure; returns the log (caller frees). */
static char *compile_fails(const struct job *job)
{
    LLVMContextRef ctx = LLVMContextCreate();
    struct lanes_frontend_result res;
    int rc = compile(ctx, job, &res);
    assert_int_not_equal(rc, 0);
    assert_null(res.module);
    assert_non_null(res.log);
    free(res.deps);
    LLVMContextDispose(ctx);
    return res.log;
}

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("expected \"%s\" in:\n%s", needle, haystack);
}

/* The operands of a function's `!name` metadata node, as values. */
static unsigned fn_metadata(LLVMValueRef fn, const char *name, LLVMValueRef *ops, unsigned max)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    unsigned kind = LLVMGetMDKindIDInContext(ctx, name, (unsigned)strlen(name));
    size_t count;
    LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(fn, &count);
    unsigned n = 0;
    for (unsigned i = 0; i < count; i++) {
        if (LLVMValueMetadataEntriesGetKind(entries, i) != kind)
            continue;
        LLVMValueRef node =
            LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(entries, i));
        n = LLVMGetMDNodeNumOperands(node);
        assert_true(n <= max);
        LLVMGetMDNodeOperands(node, ops);
    }
    LLVMDisposeValueMetadataEntries(entries);
    return n;
}

static const char *md_string(LLVMValueRef v)
{
    unsigned len;
    const char *s = LLVMGetMDString(v, &len);
    assert_non_null(s);
    return s;
}

static const char address_space_kernel[] =
    "kernel void k(global float *g, constant int *c, local float *l, float x)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    l[i] = x + c[i];\n"
    "    g[i] = l[i];\n"
    "}\n";

/*
 * Clang looks LLVM's target up in every compile, and the registry has no
 * lock: a compile must register the target before Clang runs, never leave
 * it to another thread (a launch) that could be registering it while Clang
 * reads the list. Runs first, in a process that has registered nothing.
 */
static void test_registers_targets_first(void **state)
{
    (void)state;
    assert_null(LLVMGetFirstTarget());
    LLVMContextRef ctx = LLVMContextCreate();
    struct job job = {.source = address_space_kernel};
    char *log;
    LLVMModuleRef m = compile_ok(ctx, &job, &log);
    free(log);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    char *triple = LLVMGetDefaultTargetTriple(), *err = NULL;
    LLVMTargetRef target = NULL;
    assert_int_equal(LLVMGetTargetFromTriple(triple, &target, &err), 0);
    assert_true(LLVMTargetHasTargetMachine(target));
    assert_true(LLVMTargetHasAsmBackend(target));
    LLVMDisposeMessage(triple);
}

/* (a) OpenCL address spaces stay distinct and kernels carry their metadata. */
static void test_address_spaces_and_metadata(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    struct job job = {.source = address_space_kernel};
    char *log;
    LLVMModuleRef m = compile_ok(ctx, &job, &log);
    assert_string_equal(log, "");
    free(log);

    LLVMValueRef k = LLVMGetNamedFunction(m, "k");
    assert_non_null(k);
    assert_int_equal(LLVMCountParams(k), 4);
    const unsigned want_as[] = {1, 2, 3};
    for (unsigned i = 0; i < 3; i++) {
        LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(k, i));
        assert_int_equal(LLVMGetTypeKind(t), LLVMPointerTypeKind);
        assert_int_equal(LLVMGetPointerAddressSpace(t), want_as[i]);
    }
    assert_int_equal(LLVMGetTypeKind(LLVMTypeOf(LLVMGetParam(k, 3))), LLVMFloatTypeKind);
    /* Clang's default OpenCL kernel convention, whatever the triple. */
    assert_int_equal(LLVMGetFunctionCallConv(k), LLVMSPIRKERNELCallConv);

    LLVMValueRef ops[8];
    assert_int_equal(fn_metadata(k, "kernel_arg_addr_space", ops, 8), 4);
    const unsigned long long want_md_as[] = {1, 2, 3, 0};
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(LLVMConstIntGetZExtValue(ops[i]), want_md_as[i]);
    assert_int_equal(fn_metadata(k, "kernel_arg_type", ops, 8), 4);
    assert_string_equal(md_string(ops[0]), "float*");
    assert_string_equal(md_string(ops[1]), "int*");
    assert_string_equal(md_string(ops[3]), "float");
    assert_int_equal(fn_metadata(k, "kernel_arg_base_type", ops, 8), 4);
    assert_int_equal(fn_metadata(k, "kernel_arg_access_qual", ops, 8), 4);
    assert_string_equal(md_string(ops[0]), "none");
    assert_int_equal(fn_metadata(k, "kernel_arg_type_qual", ops, 8), 4);
    assert_string_equal(md_string(ops[1]), "const");
    /* Argument names only on request (clGetKernelArgInfo needs them). */
    assert_int_equal(fn_metadata(k, "kernel_arg_name", ops, 8), 0);

    /* NULL target = the host CPU, as LLVM's host detection sees it. */
    char *host_cpu = LLVMGetHostCPUName();
    LLVMAttributeRef cpu =
        LLVMGetStringAttributeAtIndex(k, LLVMAttributeFunctionIndex, "target-cpu", 10);
    assert_non_null(cpu);
    unsigned len;
    const char *cpu_name = LLVMGetStringAttributeValue(cpu, &len);
    assert_int_equal(len, strlen(host_cpu));
    assert_memory_equal(cpu_name, host_cpu, len);
    LLVMDisposeMessage(host_cpu);

    /* No optnone (the compiler optimizes later) and no blanket noinline. */
    unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
    unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    assert_null(LLVMGetEnumAttributeAtIndex(k, LLVMAttributeFunctionIndex, optnone));
    assert_null(LLVMGetEnumAttributeAtIndex(k, LLVMAttributeFunctionIndex, noinline));

    char *err = NULL;
    assert_false(LLVMVerifyModule(m, LLVMReturnStatusAction, &err));
    LLVMDisposeMessage(err);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* (a) -cl-kernel-arg-info adds the argument names. */
static void test_kernel_arg_info(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    static const char *const args[] = {"-cl-kernel-arg-info"};
    struct job job = {.source = address_space_kernel, .args = args, .num_args = 1};
    LLVMModuleRef m = compile_ok(ctx, &job, NULL);
    LLVMValueRef ops[8];
    assert_int_equal(fn_metadata(LLVMGetNamedFunction(m, "k"), "kernel_arg_name", ops, 8), 4);
    assert_string_equal(md_string(ops[0]), "g");
    assert_string_equal(md_string(ops[3]), "x");
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* True when some line of `log` is a caret line: blanks and '|', then '^'. */
static bool has_caret_line(const char *log)
{
    for (const char *line = log; *line;) {
        const char *p = line;
        while (*p == ' ' || *p == '|')
            p++;
        if (*p == '^')
            return true;
        const char *nl = strchr(line, '\n');
        if (!nl)
            break;
        line = nl + 1;
    }
    return false;
}

/* (b) A syntax error fails with file:line:col, the source line and a caret. */
static void test_syntax_error(void **state)
{
    (void)state;
    struct job job = {.source = "kernel void k(global int *a)\n"
                                "{\n"
                                "    a[0] = 1\n"
                                "}\n"};
    char *log = compile_fails(&job);
    assert_contains(log, "input.cl:3:13: error: expected ';'");
    assert_contains(log, "a[0] = 1\n");
    assert_true(has_caret_line(log));
    assert_contains(log, "1 error generated.");
    assert_null(strstr(log, "\033[")); /* no colours */
    free(log);
}

/* (c) In-memory headers: quoted, in a subdirectory, and in angle brackets. */
static void test_in_memory_headers(void **state)
{
    (void)state;
    static const char my_h[] = "#include \"inc/sub.h\"\n"
                               "int twice(int x) { return 2 * x; }\n";
    static const char sub_h[] = "#define VAL 21\n";
    static const char angle_h[] = "#define OFFSET 1\n";
    const struct lanes_frontend_file headers[] = {
        {"my.h", my_h, strlen(my_h)},
        {"inc/sub.h", sub_h, strlen(sub_h)},
        {"angle.h", angle_h, strlen(angle_h)},
    };
    struct job job = {.source = "#include \"my.h\"\n"
                                "#include <angle.h>\n"
                                "kernel void k(global int *a) { a[0] = twice(VAL) + OFFSET; }\n",
                      .headers = headers,
                      .num_headers = ARRAY_SIZE(headers)};
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile_ok(ctx, &job, NULL);
    assert_non_null(LLVMGetNamedFunction(m, "twice"));
    assert_non_null(LLVMGetNamedFunction(m, "k"));
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);

    /* A diagnostic inside a header names the header as the caller did. */
    static const char bad_h[] = "int broken(void) { return }\n";
    const struct lanes_frontend_file bad[] = {{"bad.h", bad_h, strlen(bad_h)}};
    struct job bad_job = {
        .source = "#include \"bad.h\"\nkernel void k(void) {}\n", .headers = bad, .num_headers = 1};
    char *log = compile_fails(&bad_job);
    assert_contains(log, "In file included from input.cl:1:\n");
    assert_contains(log, "bad.h:1:27: error: expected expression");
    free(log);

    /* A missing header is an error, not a crash. */
    struct job missing = {.source = "#include \"nowhere.h\"\n"};
    log = compile_fails(&missing);
    assert_contains(log, "input.cl:1:10: fatal error: 'nowhere.h' file not found");
    free(log);
}

/* Headers on disk stay reachable through -I next to the in-memory ones. */
static void test_include_from_disk(void **state)
{
    (void)state;
    char dir[] = "/tmp/lanes-frontend-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/disk.h", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("#define DISK 7\n", f);
    fclose(f);

    static const char mem_h[] = "#define MEM 5\n";
    const struct lanes_frontend_file headers[] = {{"mem.h", mem_h, strlen(mem_h)}};
    const char *const args[] = {"-I", dir};
    struct job job = {.source = "#include \"disk.h\"\n"
                                "#include <mem.h>\n"
                                "kernel void k(global int *a) { a[0] = DISK + MEM; }\n",
                      .args = args,
                      .num_args = 2,
                      .headers = headers,
                      .num_headers = 1};
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile_ok(ctx, &job, NULL);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    remove(path);
    rmdir(dir);
}

/* (d) -D macros reach the source, even to name a kernel. */
static void test_define(void **state)
{
    (void)state;
    static const char *const args[] = {"-DNAME=scaled_", "-DSCALE=3"};
    struct job job = {.source = "#define CAT2(a, b) a##b\n"
                                "#define CAT(a, b) CAT2(a, b)\n"
                                "kernel void CAT(NAME, SCALE)(global int *a) { a[0] *= SCALE; }\n",
                      .args = args,
                      .num_args = ARRAY_SIZE(args)};
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile_ok(ctx, &job, NULL);
    assert_non_null(LLVMGetNamedFunction(m, "scaled_3"));
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* (e) Bad arguments and targets fail with a log that names them. */
static void test_invalid_arguments(void **state)
{
    (void)state;
    static const char *const unknown[] = {"-cl-std=CL3.0", "-fno-such-flag"};
    struct job job = {.source = address_space_kernel, .args = unknown, .num_args = 2};
    char *log = compile_fails(&job);
    assert_contains(log, "error: unknown argument: '-fno-such-flag'");
    free(log);

    static const char *const bad_std[] = {"-cl-std=CL9.9"};
    job.args = bad_std;
    job.num_args = 1;
    log = compile_fails(&job);
    assert_contains(log, "error: invalid value 'CL9.9' in '-cl-std=CL9.9'");
    free(log);

    static const char *const mllvm[] = {"-mllvm", "-debug-pass=Structure"};
    job.args = mllvm;
    job.num_args = 2;
    log = compile_fails(&job);
    assert_contains(log, "'-mllvm' is not supported");
    free(log);

    static const char *const extra_input[] = {"other.cl"};
    job.args = extra_input;
    job.num_args = 1;
    log = compile_fails(&job);
    assert_contains(log, "error: unexpected input file 'other.cl'");
    free(log);

    /* A flag without its value must not take the bridge's next argument. */
    static const char *const no_value[] = {"-cl-std=CL1.2", "-D"};
    job.args = no_value;
    job.num_args = 2;
    log = compile_fails(&job);
    assert_string_equal(log, "error: argument to '-D' is missing (expected 1 value)\n");
    free(log);

    struct job bad_cpu = {.source = address_space_kernel, .cpu = "no-such-cpu"};
    log = compile_fails(&bad_cpu);
    assert_contains(log, "unknown target CPU 'no-such-cpu'");
    free(log);

    struct job bad_triple = {.source = address_space_kernel, .triple = "nonsense"};
    log = compile_fails(&bad_triple);
    assert_contains(log, "unknown target triple 'nonsense'");
    free(log);

    struct job bad_feature = {.source = address_space_kernel, .features = "+avx2,sse4.2"};
    log = compile_fails(&bad_feature);
    assert_contains(log, "+name or -name");
    free(log);

    struct lanes_frontend_result res;
    assert_int_not_equal(lanes_frontend_compile(NULL, NULL, &res), 0);
    assert_null(res.module);
    assert_contains(res.log, "invalid arguments");
    free(res.log);
}

/* (f) Built-ins are declared (from Clang's built-in tables). */
static void test_builtins(void **state)
{
    (void)state;
    struct job job = {.source = "kernel void k(global float *f, global int *i)\n"
                                "{\n"
                                "    size_t gid = get_global_id(0);\n"
                                "    f[gid] = sin(f[gid]);\n"
                                "    i[gid] = convert_int_sat(f[gid] * 1e10f);\n"
                                "    vstore4(vload4(0, f) * 2.0f, 1, f);\n"
                                "}\n"};
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile_ok(ctx, &job, NULL);
    assert_non_null(LLVMGetNamedFunction(m, "_Z13get_global_idj"));
    assert_non_null(LLVMGetNamedFunction(m, "_Z3sinf"));
    assert_non_null(LLVMGetNamedFunction(m, "_Z15convert_int_satf"));
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* Warnings stay in the log of a success; -Werror and -w work. */
static void test_warnings(void **state)
{
    (void)state;
    static const char src[] = "kernel void k(global int *a) { a[0] = 10000000000; }\n";
    struct job job = {.source = src};
    LLVMContextRef ctx = LLVMContextCreate();
    char *log;
    LLVMModuleRef m = compile_ok(ctx, &job, &log);
    assert_contains(log, "input.cl:1:39: warning: implicit conversion from 'long' to 'int'");
    assert_contains(log, "1 warning generated.");
    free(log);
    LLVMDisposeModule(m);

    static const char *const quiet[] = {"-w"};
    job.args = quiet;
    job.num_args = 1;
    m = compile_ok(ctx, &job, &log);
    assert_string_equal(log, "");
    free(log);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);

    static const char *const werror[] = {"-Werror"};
    job.args = werror;
    log = compile_fails(&job);
    assert_contains(log, "input.cl:1:39: error: implicit conversion from 'long' to 'int'");
    free(log);
}

/*
 * OpenCL C 3.0 with an optional feature off compiles, and the built-ins of
 * that feature are not declared; turned on, they are.
 */
static void test_features_gate_builtins(void **state)
{
    (void)state;
    static const char *const off[] = {"-cl-std=CL3.0", "-cl-ext=-all,+__opencl_c_int64"};
    static const char *const on[] = {"-cl-std=CL3.0",
                                     "-cl-ext=-all,+__opencl_c_int64,+__opencl_c_images"};
    struct job job = {.source = "kernel void k(global ulong *a) { a[0] = get_global_id(0); }\n",
                      .args = off,
                      .num_args = ARRAY_SIZE(off)};
    LLVMContextRef ctx = LLVMContextCreate();
    char *log;
    LLVMModuleRef m = compile_ok(ctx, &job, &log);
    free(log);
    LLVMDisposeModule(m);
    job.source = "kernel void k(read_only image2d_t img, sampler_t s, global float4 *a) {\n"
                 "    a[0] = read_imagef(img, s, (int2)(0, 0));\n"
                 "}\n";
    log = compile_fails(&job);
    assert_contains(log, "requires __opencl_c_images support");
    free(log);
    job.args = on;
    m = compile_ok(ctx, &job, &log);
    free(log);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/*
 * A Khronos sub-group extension that -cl-ext turns on: its macro is defined
 * from OpenCL C 2.0 on, Clang declares its built-ins, and its pragma, which
 * it does not need, passes under -Werror; off, none of that.
 */
static void test_subgroup_extensions(void **state)
{
    (void)state;
    static const char *const on[] = {
        "-cl-std=CL3.0", "-cl-ext=-all,+__opencl_c_subgroups,+cl_khr_subgroup_ballot", "-Werror"};
    static const char *const off[] = {"-cl-std=CL3.0", "-cl-ext=-all,+__opencl_c_subgroups",
                                      "-Werror"};
    static const char *const old[] = {"-cl-std=CL1.2", "-cl-ext=-all,+cl_khr_subgroup_ballot"};
    struct job job = {.source = "#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable\n"
                                "#ifndef cl_khr_subgroup_ballot\n"
                                "#error no cl_khr_subgroup_ballot\n"
                                "#endif\n"
                                "kernel void k(global uint *a) { a[0] = sub_group_ballot(1).x; }\n",
                      .args = on,
                      .num_args = ARRAY_SIZE(on)};
    LLVMContextRef ctx = LLVMContextCreate();
    char *log;
    LLVMModuleRef m = compile_ok(ctx, &job, &log);
    assert_string_equal(log, "");
    free(log);
    assert_non_null(LLVMGetNamedFunction(m, "_Z16sub_group_balloti"));
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    job.args = off;
    log = compile_fails(&job);
    assert_contains(log, "OpenCL extension 'cl_khr_subgroup_ballot' unknown");
    free(log);
    job.args = old;
    job.num_args = ARRAY_SIZE(old);
    log = compile_fails(&job);
    assert_contains(log, "no cl_khr_subgroup_ballot");
    free(log);
}

struct thread_job {
    const char *name;
    bool ok;
};

static void *compile_on_thread(void *arg)
{
    struct thread_job *tj = arg;
    char src[256];
    snprintf(src, sizeof src,
             "kernel void %s(global float *a) { a[get_global_id(0)] = cos(a[0]); }\n", tj->name);
    LLVMContextRef ctx = LLVMContextCreate();
    struct job job = {.source = src};
    struct lanes_frontend_result res;
    for (int round = 0; round < 3; round++) {
        tj->ok = compile(ctx, &job, &res) == 0 && res.module &&
                 LLVMGetNamedFunction(res.module, tj->name) && res.log && !*res.log;
        free(res.log);
        free(res.deps);
        if (res.module)
            LLVMDisposeModule(res.module);
        if (!tj->ok)
            break;
    }
    LLVMContextDispose(ctx);
    return NULL;
}

/* (g) Two threads with two contexts compile at the same time. */
static void test_two_threads(void **state)
{
    (void)state;
    struct thread_job jobs[2] = {{"first", false}, {"second", false}};
    pthread_t threads[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&threads[i], NULL, compile_on_thread, &jobs[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(threads[i], NULL), 0);
    assert_true(jobs[0].ok);
    assert_true(jobs[1].ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registers_targets_first), /* first: nothing registered yet */
        cmocka_unit_test(test_address_spaces_and_metadata),
        cmocka_unit_test(test_kernel_arg_info),
        cmocka_unit_test(test_syntax_error),
        cmocka_unit_test(test_in_memory_headers),
        cmocka_unit_test(test_include_from_disk),
        cmocka_unit_test(test_define),
        cmocka_unit_test(test_invalid_arguments),
        cmocka_unit_test(test_builtins),
        cmocka_unit_test(test_warnings),
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_features_gate_builtins),
        cmocka_unit_test(test_subgroup_extensions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
