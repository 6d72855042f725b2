/* SPDX-License-Identifier: MIT */
/*
 * Program-scope variables (__opencl_c_program_scope_global_variables): one
 * instance per program object, shared by its kernels and launches,
 * initialized at build time (scalars, arrays, structs, vectors, pointers to
 * other variables, zero without an initializer). Two programs of one source
 * have their own; compile + link resolves `extern` variables; a program
 * made from a binary starts again from the initializers; a process that
 * takes the launchers from the disk cache still uses its own storage.
 * Values are checked against the host's copies of the initializers.
 */
#include "kernels.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The initial values, shared by the kernel source and the host references. */
#define GI (-7)
#define GARR 11, 22, 33, 44, 55
#define GL 0x123456789abcdefLL
#define SG 99
static const int garr_host[5] = {GARR};
static const float gv_host[4] = {1.5f, -2.0f, 3.25f, 1e30f};
static const float gs_v_host[4] = {0.5f, -1.0f, 2.25f, 7.0f};
static const short gs_s_host[3] = {-1, 2, -3};
static const int ctab_host[4] = {10, 20, 30, 40};

static const char init_source[] =
    "typedef struct { char c; int i; float4 v; short s[3]; } S;\n"
    "global int gi = -7;\n"
    "global int garr[5] = {11, 22, 33, 44, 55};\n"
    "global S gs = {'x', 1234567, (float4)(0.5f, -1.0f, 2.25f, 7.0f), {-1, 2, -3}};\n"
    "global float4 gv = (float4)(1.5f, -2.0f, 3.25f, 1e30f);\n"
    "global long gl = 0x123456789abcdefL;\n"
    "global int gz;\n"
    "global int gzarr[1000];\n"
    "global uchar3 gu3 = (uchar3)(1, 2, 3);\n"
    "constant int ctab[4] = {10, 20, 30, 40};\n"
    "static global int sg = 99;\n"
    "global int *gp = &garr[2];\n"
    "global S *gsp = &gs;\n"
    "constant int *global cp = &ctab[3];\n"
    "global int *global gpa[2] = {&gi, &gz};\n"
    "constant char *global msg = \"hello\";\n"
    "\n"
    "kernel void read_all(global int *out, global float *fout, int k) {\n"
    "    out[0] = gi;\n"
    "    for (int i = 0; i < 5; i++) out[1 + i] = garr[i];\n"
    "    out[6] = gs.c; out[7] = gs.i;\n"
    "    for (int i = 0; i < 3; i++) out[8 + i] = gs.s[i];\n"
    "    vstore4(gs.v, 0, fout); vstore4(gv, 1, fout);\n"
    "    out[11] = (int)gl; out[12] = (int)(gl >> 32);\n"
    "    out[13] = gz;\n"
    "    int sum = 0; for (int i = 0; i < 1000; i++) sum |= gzarr[i];\n"
    "    out[14] = sum;\n"
    "    out[15] = gu3.x; out[16] = gu3.y; out[17] = gu3.z;\n"
    "    for (int i = 0; i < 4; i++) out[18 + i] = ctab[(i + k) & 3];\n"
    "    out[22] = sg;\n"
    "    out[23] = *gp; out[24] = gp == &garr[2];\n"
    "    out[25] = gsp->i; out[26] = gsp == &gs;\n"
    "    out[27] = *cp; out[28] = cp == &ctab[3];\n"
    "    out[29] = *gpa[0]; out[30] = gpa[1] == &gz;\n"
    "    out[31] = msg[1]; out[32] = msg[4];\n"
    "    /* A private array whose initializer holds addresses of variables. */\n"
    "    global int *local_ptrs[3] = {&gi, &garr[4], &gs.i};\n"
    "    out[33] = *local_ptrs[k & 1]; out[34] = *local_ptrs[2];\n"
    "}\n"
    "\n"
    "/* The addresses two kernels see are the same. */\n"
    "kernel void addresses_a(global ulong *out) {\n"
    "    out[0] = (ulong)&gi; out[1] = (ulong)&ctab[0]; out[2] = (ulong)gp; out[3] = (ulong)cp;\n"
    "}\n"
    "kernel void addresses_b(global ulong *out) {\n"
    "    out[0] = (ulong)&gi; out[1] = (ulong)&ctab[0]; out[2] = (ulong)&garr[2];\n"
    "    out[3] = (ulong)&ctab[3];\n"
    "}\n"
    "\n"
    "kernel void write_all(int v) {\n"
    "    gi = v; garr[0] = v + 1; gs.i = v + 2; gv = (float4)(v); gz = v + 3; gzarr[999] = v + 4;\n"
    "    sg = v + 5; gp = &gz; *gpa[0] += 1;\n"
    "}\n";

/*
 * Reads every variable of init_source's program and compares with the
 * initializers, or with what write_all(v) left when `written`.
 */
static void check_read_all(cl_program p, const char *what, bool written, int v)
{
    int out[64];
    float fout[8];
    memset(out, 0x55, sizeof out);
    memset(fout, 0x55, sizeof fout);
    int k = 1;
    struct kt_arg args[] = {{.data = out, .size = sizeof out},
                            {.data = fout, .size = sizeof fout},
                            {.data = &k, .size = sizeof k, .value = true}};
    KT_CHECK_CL(kt_run(p, "read_all", 1, args, 3));
    int gi = written ? v + 1 : GI; /* write_all also bumps *gpa[0], that is gi */
    int expect[35] = {gi,
                      written ? v + 1 : garr_host[0],
                      garr_host[1],
                      garr_host[2],
                      garr_host[3],
                      garr_host[4],
                      'x',
                      written ? v + 2 : 1234567,
                      gs_s_host[0],
                      gs_s_host[1],
                      gs_s_host[2],
                      (int)(GL & 0xffffffff),
                      (int)(GL >> 32),
                      written ? v + 3 : 0,
                      written ? v + 4 : 0,
                      1,
                      2,
                      3,
                      ctab_host[1],
                      ctab_host[2],
                      ctab_host[3],
                      ctab_host[0],
                      written ? v + 5 : SG,
                      written ? v + 3 : garr_host[2],
                      written ? 0 : 1,
                      written ? v + 2 : 1234567,
                      1,
                      ctab_host[3],
                      1,
                      gi,
                      1,
                      'e',
                      'o',
                      garr_host[4], /* local_ptrs[k & 1] with k = 1 */
                      written ? v + 2 : 1234567};
    for (int i = 0; i < 35; i++)
        if (out[i] != expect[i])
            KT_FAIL("%s: read_all out[%d] = %d, expected %d", what, i, out[i], expect[i]);
    for (int i = 0; i < 4; i++) {
        float gv = written ? (float)v : gv_host[i];
        if (fout[i] != gs_v_host[i] || fout[4 + i] != gv)
            KT_FAIL("%s: read_all fout[%d] = %g, %g; expected %g, %g", what, i, fout[i],
                    fout[4 + i], gs_v_host[i], gv);
    }
}

static void run_write_all(cl_program p, int v)
{
    struct kt_arg args[] = {{.data = &v, .size = sizeof v, .value = true}};
    KT_CHECK_CL(kt_run(p, "write_all", 1, args, 1));
}

/* Initializers of every kind, pointers between variables, and one address in every kernel. */
static void test_initializers(void)
{
    cl_program p = kt_build(init_source, "-cl-std=CL3.0");
    check_read_all(p, "initial", false, 0);
    cl_ulong a[4], b[4];
    struct kt_arg aa[] = {{.data = a, .size = sizeof a}}, ab[] = {{.data = b, .size = sizeof b}};
    KT_CHECK_CL(kt_run(p, "addresses_a", 1, aa, 1));
    KT_CHECK_CL(kt_run(p, "addresses_b", 1, ab, 1));
    for (int i = 0; i < 4; i++)
        if (a[i] != b[i] || !a[i])
            KT_FAIL("addresses: kernel a sees %#llx, kernel b %#llx (%d)", (unsigned long long)a[i],
                    (unsigned long long)b[i], i);
    /* Writes persist into the next launch of another kernel. */
    run_write_all(p, 1000);
    check_read_all(p, "after write_all", true, 1000);
    clReleaseProgram(p);
}

/* Kernel A writes, kernel B launched later reads; many work-groups update one array. */
static const char rw_source[] =
    "global int hist[64];\n"
    "global int counter = 5;\n"
    "global float4 acc;\n"
    "global int fill[128];\n"
    "kernel void count(global const int *in, int n) {\n"
    "    size_t g = get_global_id(0);\n"
    "    atomic_add(&hist[in[g] & 63], 1);\n"
    "    if (g == 0) { counter += n; acc += (float4)(n, 2 * n, 3 * n, 4 * n); }\n"
    "}\n"
    "kernel void report(global int *out, global float *fout) {\n"
    "    size_t g = get_global_id(0);\n"
    "    out[g] = hist[g];\n"
    "    if (g == 0) { out[64] = counter; vstore4(acc, 0, fout); }\n"
    "}\n"
    "kernel void bump(global int *out) {\n"
    "    static global int calls = 100;\n"
    "    out[0] = calls++;\n"
    "}\n"
    "/* Sub-groups as coroutines: a barrier between a write and reads of other items' values. */\n"
    "kernel void with_barrier(global int *out) {\n"
    "    size_t l = get_local_id(0), g = get_global_id(0);\n"
    "    fill[g] = (int)g * 3 + counter;\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    out[g] = fill[get_group_id(0) * 64 + 63 - l];\n"
    "}\n";

static void test_write_read(void)
{
    cl_program p = kt_build(rw_source, "-cl-std=CL3.0");
    enum { N = 4096 };
    static int in[N];
    int hist[64] = {0}, counter = 5;
    float acc[4] = {0};
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < N; i++) {
            in[i] = (int)(kt_random() % 1000);
            hist[in[i] & 63]++;
        }
        int n = 10 + round;
        counter += n;
        for (int i = 0; i < 4; i++)
            acc[i] += (float)((i + 1) * n);
        struct kt_arg args[] = {{.data = in, .size = sizeof in},
                                {.data = &n, .size = sizeof n, .value = true}};
        size_t local = 64;
        KT_CHECK_CL(kt_run_local(p, "count", N, &local, args, 2));
    }
    int out[65];
    float fout[4];
    struct kt_arg args[] = {{.data = out, .size = sizeof out}, {.data = fout, .size = sizeof fout}};
    KT_CHECK_CL(kt_run(p, "report", 64, args, 2));
    for (int i = 0; i < 64; i++)
        if (out[i] != hist[i])
            KT_FAIL("hist[%d] = %d, expected %d", i, out[i], hist[i]);
    if (out[64] != counter)
        KT_FAIL("counter = %d, expected %d", out[64], counter);
    for (int i = 0; i < 4; i++)
        if (fout[i] != acc[i])
            KT_FAIL("acc[%d] = %g, expected %g", i, fout[i], acc[i]);

    for (int i = 0; i < 5; i++) {
        int calls = -1;
        struct kt_arg a[] = {{.data = &calls, .size = sizeof calls}};
        KT_CHECK_CL(kt_run(p, "bump", 1, a, 1));
        if (calls != 100 + i)
            KT_FAIL("function-scope static: launch %d saw %d, expected %d", i, calls, 100 + i);
    }

    int bout[128];
    struct kt_arg b[] = {{.data = bout, .size = sizeof bout}};
    size_t local = 64;
    KT_CHECK_CL(kt_run_local(p, "with_barrier", 128, &local, b, 1));
    for (int g = 0; g < 128; g++) {
        int src = g / 64 * 64 + 63 - g % 64;
        if (bout[g] != src * 3 + counter)
            KT_FAIL("with_barrier[%d] = %d, expected %d", g, bout[g], src * 3 + counter);
    }
    clReleaseProgram(p);
}

static int get_counter(cl_program p)
{
    int out[65];
    float fout[4];
    struct kt_arg args[] = {{.data = out, .size = sizeof out}, {.data = fout, .size = sizeof fout}};
    KT_CHECK_CL(kt_run(p, "report", 1, args, 2));
    return out[64];
}

static void add_to_counter(cl_program p, int n)
{
    int in[1] = {0};
    struct kt_arg args[] = {{.data = in, .size = sizeof in},
                            {.data = &n, .size = sizeof n, .value = true}};
    KT_CHECK_CL(kt_run(p, "count", 1, args, 2));
}

/* Two programs of one source share launchers but not variables; a rebuild starts again. */
static void test_independent_programs(void)
{
    cl_program a = kt_build(rw_source, "-cl-std=CL3.0");
    cl_program b = kt_build(rw_source, "-cl-std=CL3.0");
    add_to_counter(a, 10);
    add_to_counter(b, 20);
    add_to_counter(a, 1);
    if (get_counter(a) != 16 || get_counter(b) != 25)
        KT_FAIL("independent programs: counters %d and %d, expected 16 and 25", get_counter(a),
                get_counter(b));
    /* No kernel is attached any more: building again gives fresh variables. */
    KT_CHECK_CL(clBuildProgram(a, 1, &kt.dev, "-cl-std=CL3.0", NULL, NULL));
    if (get_counter(a) != 5 || get_counter(b) != 25)
        KT_FAIL("rebuilt program: counters %d and %d, expected 5 and 25", get_counter(a),
                get_counter(b));
    clReleaseProgram(a);
    clReleaseProgram(b);
}

static cl_program compile(const char *src)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(kt.ctx, 1, &src, NULL, &err);
    KT_CHECK_CL(err);
    KT_CHECK_CL(clCompileProgram(p, 1, &kt.dev, "-cl-std=CL3.0", 0, NULL, NULL, NULL, NULL));
    return p;
}

/* One object defines, the other declares `extern`: one variable after linking. */
static void test_compile_link(void)
{
    cl_program def = compile("global int shared_x = 11;\n"
                             "global int shared_arr[3] = {1, 2, 3};\n"
                             "global int *shared_p = &shared_arr[1];\n"
                             "kernel void set_x(int v) { shared_x = v; shared_arr[2] = v * 2; }\n");
    cl_program use = compile("extern global int shared_x;\n"
                             "extern global int shared_arr[3];\n"
                             "extern global int *shared_p;\n"
                             "kernel void get_x(global int *out) {\n"
                             "    out[0] = shared_x; out[1] = shared_arr[2]; out[2] = *shared_p;\n"
                             "}\n");
    cl_program objs[2] = {def, use};
    cl_int err;
    cl_program p = clLinkProgram(kt.ctx, 1, &kt.dev, "", 2, objs, NULL, NULL, &err);
    KT_CHECK_CL(err);
    int out[3];
    struct kt_arg args[] = {{.data = out, .size = sizeof out}};
    KT_CHECK_CL(kt_run(p, "get_x", 1, args, 1));
    if (out[0] != 11 || out[1] != 3 || out[2] != 2)
        KT_FAIL("linked: get_x saw %d %d %d, expected 11 3 2", out[0], out[1], out[2]);
    int v = 42;
    struct kt_arg set[] = {{.data = &v, .size = sizeof v, .value = true}};
    KT_CHECK_CL(kt_run(p, "set_x", 1, set, 1));
    KT_CHECK_CL(kt_run(p, "get_x", 1, args, 1));
    if (out[0] != 42 || out[1] != 84 || out[2] != 2)
        KT_FAIL("linked: after set_x(42), get_x saw %d %d %d, expected 42 84 2", out[0], out[1],
                out[2]);
    size_t total = 0;
    KT_CHECK_CL(clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                      sizeof total, &total, NULL));
    if (total < 4 + 12 + 8 || total > 64)
        KT_FAIL("linked: CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE = %zu", total);
    clReleaseProgram(p);

    /* Without the definition, the link fails and says why. */
    p = clLinkProgram(kt.ctx, 1, &kt.dev, "", 1, &use, NULL, NULL, &err);
    if (err != CL_LINK_PROGRAM_FAILURE)
        KT_FAIL("linking an undefined extern variable returned %d", err);
    char log[1024] = "";
    clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    if (!strstr(log, "shared_x"))
        KT_FAIL("the log of the failed link does not name shared_x: %s", log);
    clReleaseProgram(p);
    clReleaseProgram(def);
    clReleaseProgram(use);
}

/* A program made from another's binary starts from the initializers again. */
static void test_binary(void)
{
    cl_program p = kt_build(init_source, "-cl-std=CL3.0");
    run_write_all(p, 7);
    size_t size;
    KT_CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
    unsigned char *bin = malloc(size);
    KT_CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    cl_int err, status;
    const unsigned char *bins[1] = {bin};
    cl_program q = clCreateProgramWithBinary(kt.ctx, 1, &kt.dev, &size, bins, &status, &err);
    KT_CHECK_CL(err);
    KT_CHECK_CL(clBuildProgram(q, 1, &kt.dev, NULL, NULL, NULL));
    check_read_all(q, "from binary", false, 0);
    check_read_all(p, "original after the binary's build", true, 7);
    run_write_all(q, 50);
    check_read_all(q, "from binary, written", true, 50);
    check_read_all(p, "original, untouched by the binary's program", true, 7);
    free(bin);
    clReleaseProgram(q);
    clReleaseProgram(p);
}

static size_t total_size(const char *src)
{
    cl_program p = kt_build(src, "-cl-std=CL3.0");
    size_t total = 12345;
    KT_CHECK_CL(clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                      sizeof total, &total, NULL));
    clReleaseProgram(p);
    return total;
}

/* CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE and CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE. */
static void test_sizes(void)
{
    size_t none = total_size("constant int k[1000] = {1};\n"
                             "kernel void f(global int *o) { o[0] = k[o[1]]; }\n");
    if (none != 0)
        KT_FAIL("a program with only constants reports %zu bytes of global variables", none);
    /* 4 + 100 + 8 bytes, each aligned as LLVM places globals (at most 16). */
    size_t some = total_size("global int a; global char b[100]; global long c;\n"
                             "constant int k[1000] = {1};\n"
                             "kernel void f(global int *o) { o[0] = a + b[o[1]] + c + k[0]; }\n");
    if (some < 112 || some > 112 + 3 * 16)
        KT_FAIL("CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE = %zu, expected 112 to 160", some);

    size_t max = 0, preferred = 0;
    KT_CHECK_CL(
        clGetDeviceInfo(kt.dev, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof max, &max, NULL));
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
                                sizeof preferred, &preferred, NULL));
    if (max < 65536 || preferred < max)
        KT_FAIL("CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE %zu, PREFERRED_TOTAL_SIZE %zu", max, preferred);
    /* A variable of the largest size works at both ends; one byte more does not build. */
    char *src = kt_format("global uchar big[%zu];\n"
                          "kernel void ends(global uchar *o) {\n"
                          "    big[0] = 1; big[%zu] = 2; o[0] = big[0]; o[1] = big[%zu];\n"
                          "}\n",
                          max, max - 1, max - 1);
    cl_program p = kt_build(src, "-cl-std=CL3.0");
    unsigned char o[2] = {0, 0};
    struct kt_arg args[] = {{.data = o, .size = sizeof o}};
    KT_CHECK_CL(kt_run(p, "ends", 1, args, 1));
    if (o[0] != 1 || o[1] != 2)
        KT_FAIL("a variable of CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE bytes read %d %d", o[0], o[1]);
    size_t total = 0;
    KT_CHECK_CL(clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                      sizeof total, &total, NULL));
    if (total != max)
        KT_FAIL("CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE = %zu, expected %zu", total, max);
    clReleaseProgram(p);
    free(src);
    src = kt_format("global uchar big[%zu];\n"
                    "kernel void ends(global uchar *o) { o[0] = big[o[1]]; }\n",
                    max + 1);
    cl_int err;
    p = clCreateProgramWithSource(kt.ctx, 1, (const char **)&src, NULL, &err);
    KT_CHECK_CL(err);
    if ((err = clBuildProgram(p, 1, &kt.dev, "-cl-std=CL3.0", NULL, NULL)) !=
        CL_BUILD_PROGRAM_FAILURE)
        KT_FAIL("a variable over the limit: clBuildProgram returned %d", err);
    clReleaseProgram(p);
    free(src);
}

/* The cache test's directory, and what it held after the first process. */
static char cache_dir[64];

struct entry {
    char name[256];
    ino_t ino;
};

static size_t list_cache(struct entry *e, size_t max)
{
    char sub[128];
    snprintf(sub, sizeof sub, "%s/lanes", cache_dir);
    DIR *d = opendir(sub);
    size_t n = 0;
    for (struct dirent *de; d && (de = readdir(d));) {
        if (de->d_name[0] == '.' || n == max)
            continue;
        char full[512];
        snprintf(full, sizeof full, "%s/%s", sub, de->d_name);
        struct stat st;
        if (stat(full, &st) == 0) {
            snprintf(e[n].name, sizeof e[n].name, "%s", de->d_name);
            e[n++].ino = st.st_ino;
        }
    }
    if (d)
        closedir(d);
    return n;
}

/* One process: builds, checks the initial values, writes, and checks two programs apart. */
static int cache_child(void)
{
    kt_setup();
    cl_program a = kt_build(init_source, "-cl-std=CL3.0");
    cl_program b = kt_build(init_source, "-cl-std=CL3.0");
    check_read_all(a, "cache: first program", false, 0);
    run_write_all(a, 300);
    check_read_all(a, "cache: first program, written", true, 300);
    check_read_all(b, "cache: second program", false, 0);
    cl_ulong x[4], y[4];
    struct kt_arg ax[] = {{.data = x, .size = sizeof x}}, ay[] = {{.data = y, .size = sizeof y}};
    KT_CHECK_CL(kt_run(a, "addresses_a", 1, ax, 1));
    KT_CHECK_CL(kt_run(b, "addresses_a", 1, ay, 1));
    if (x[0] == y[0])
        KT_FAIL("cache: two programs share the address %#llx", (unsigned long long)x[0]);
    clReleaseProgram(a);
    clReleaseProgram(b);
    return kt_teardown();
}

static void run_child(const char *what)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(cache_child());
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        KT_FAIL("cache: the %s process failed", what);
}

/* A second process takes program and launchers from the disk cache: its storage is its own. */
static void test_disk_cache(void)
{
    snprintf(cache_dir, sizeof cache_dir, "/tmp/lanes-globals-cache-XXXXXX");
    if (!mkdtemp(cache_dir)) {
        KT_FAIL("cache: no temporary directory");
        return;
    }
    setenv("XDG_CACHE_HOME", cache_dir, 1);
    run_child("first");
    struct entry before[64], after[64];
    size_t n = list_cache(before, 64);
    if (n < 2)
        KT_FAIL("cache: the first process left %zu entries", n);
    run_child("second");
    /* Every entry was found: none written again (a rewrite is a rename, a new inode). */
    size_t m = list_cache(after, 64);
    bool same = n == m;
    for (size_t i = 0; same && i < n; i++) {
        bool found = false;
        for (size_t j = 0; j < m; j++)
            found |= strcmp(before[i].name, after[j].name) == 0 && before[i].ino == after[j].ino;
        same = found;
    }
    if (!same)
        KT_FAIL("cache: the second process compiled again (%zu entries, then %zu)", n, m);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    if (system(cmd) != 0)
        KT_FAIL("cache: cannot remove %s", cache_dir);
}

int main(void)
{
    /* Child processes first, before this one starts the driver's threads. */
    char *saved = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    test_disk_cache();
    if (saved)
        setenv("XDG_CACHE_HOME", saved, 1);
    else
        unsetenv("XDG_CACHE_HOME");
    free(saved);

    kt_setup();
    test_initializers();
    test_write_read();
    test_independent_programs();
    test_compile_link();
    test_binary();
    test_sizes();
    return kt_teardown();
}
