/* SPDX-License-Identifier: MIT */
/*
 * The generic address space (__opencl_c_generic_address_space): user
 * functions taking generic pointers called with global, local and private
 * ones (reads and writes), to_global / to_local / to_private (NULL when
 * the pointer is in another space, the same address when in theirs) and
 * get_fence on each kind, pointers chosen at run time, casts back to named
 * spaces, program-scope variables, atomics and the pointer built-ins (math,
 * vload/vstore) through generic pointers. Kernels run with and without a
 * barrier (with one, the sub-groups are coroutines whose privates live in
 * frames), at several work-group sizes, many work-groups on every worker;
 * then a second process runs them again from the disk cache. Everything is
 * compared with what the host computes.
 */
#include "kernels.h"

#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FENCE_LOCAL 1 /* CLK_LOCAL_MEM_FENCE */
#define FENCE_GLOBAL 2

/* What classify() returns for a pointer of each space. */
enum { IS_GLOBAL = 1, IS_LOCAL = 2, IS_PRIVATE = 4, SAME = 8 };
#define CLASS(space, fence) ((space) | SAME | (fence) << 4)

/* Results per work-item of kernel `spaces`. */
enum {
    R_GLOBAL,    /* &buf[gid] */
    R_LOCAL,     /* &lbuf[lid] */
    R_PRIV_ARR,  /* &arr[gid % 16], an array indexed at run time */
    R_PRIV_VAR,  /* &scalar */
    R_PRIV_PTR,  /* a pointer kept across the barrier */
    R_PROG_VAR,  /* &gvar[gid % 8], a program-scope variable */
    R_COND,      /* gid odd ? global : local */
    R_COND_PRIV, /* gid % 3 == 0 ? private : global */
    R_STRUCT,    /* a generic pointer read from a private struct */
    R_NULL,      /* NULL */
    V_GLOBAL,    /* buf[gid] after bump() through a generic pointer */
    V_LOCAL,     /* lbuf[lid] after bump(), read back through a local pointer */
    V_PRIV_ARR,
    V_PRIV_VAR,
    V_CAST,     /* reads through generic pointers cast back to named ones */
    V_PROG_VAR, /* gvar2[gid] after bump() */
    R_COUNT
};

static const char source[] =
    "global int gvar[8];\n"
    "global int gvar2[4096];\n"
    "\n"
    "int classify(int *p) {\n"
    "    global int *g = to_global(p);\n"
    "    local int *l = to_local(p);\n"
    "    private int *q = to_private(p);\n"
    "    int same = (!g || g == p) && (!l || l == p) && (!q || q == p);\n"
    "    return (g != 0) | (l != 0) << 1 | (q != 0) << 2 | same << 3 | get_fence(p) << 4;\n"
    "}\n"
    "int classify_const(const int *p) {\n"
    "    const global int *g = to_global(p);\n"
    "    const local int *l = to_local(p);\n"
    "    const private int *q = to_private(p);\n"
    "    int agree = get_fence(p) == get_fence((int *)p);\n"
    "    return (g != 0) | (l != 0) << 1 | (q != 0) << 2 | agree << 3 | get_fence(p) << 4;\n"
    "}\n"
    "void bump(int *p, int by) { *p += by; }\n"
    "typedef struct { int *p; int k; } holder;\n"
    "\n"
    "#ifdef WITH_BARRIER\n"
    "#define SYNC() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)\n"
    "#else\n"
    "#define SYNC()\n"
    "#endif\n"
    "\n"
    "kernel void spaces(global int *buf, local int *lbuf, global int *out, int count) {\n"
    "    int gid = get_global_id(0), lid = get_local_id(0);\n"
    "    global int *o = out + gid * count;\n"
    "    int arr[16];\n"
    "    for (int i = 0; i < 16; i++) arr[i] = gid * 100 + i;\n"
    "    int scalar = gid + 7;\n"
    "    lbuf[lid] = gid * 5;\n"
    "    gvar2[gid] = gid * 3;\n"
    "    int *kept = &arr[(gid + 1) % 16];\n"
    "    SYNC();\n"
    "    o[0] = classify(&buf[gid]);\n"
    "    o[1] = classify(&lbuf[lid]);\n"
    "    o[2] = classify(&arr[gid % 16]);\n"
    "    o[3] = classify(&scalar);\n"
    "    SYNC();\n"
    "    o[4] = classify(kept) | classify_const(kept) << 8;\n"
    "    o[5] = classify(&gvar[gid % 8]) | classify_const(&gvar[gid % 8]) << 8;\n"
    "    int *c = (gid & 1) ? (int *)&buf[gid] : (int *)&lbuf[lid];\n"
    "    o[6] = classify(c);\n"
    "    int *d = gid % 3 == 0 ? &scalar : (int *)&buf[gid];\n"
    "    o[7] = classify(d);\n"
    "    holder h = {(gid & 2) ? &arr[3] : (int *)&lbuf[lid], gid};\n"
    "    o[8] = classify(h.p) | classify_const(h.p) << 8;\n"
    "    o[9] = classify(0);\n"
    "    SYNC();\n"
    "    bump(&buf[gid], 11);\n"
    "    bump(&lbuf[lid], 12);\n"
    "    bump(&arr[gid % 16], 13);\n"
    "    bump(&scalar, 14);\n"
    "    bump(kept, 15);\n"
    "    bump(&gvar2[gid], 16);\n"
    "    SYNC();\n"
    "    o[10] = buf[gid];\n"
    "    o[11] = lbuf[lid];\n"
    "    o[12] = arr[gid % 16] + arr[(gid + 1) % 16];\n"
    "    o[13] = scalar;\n"
    "    int *gg = &buf[gid], *gl = &lbuf[lid], *gp = &scalar;\n"
    "    o[14] = *(global int *)gg + *(local int *)gl + *(private int *)gp;\n"
    "    o[15] = gvar2[gid];\n"
    "}\n"
    "\n"
    "/* Atomics through generic pointers to a global, a local and a program-scope counter. */\n"
    "global atomic_int prog_counter;\n"
    "kernel void atomics(global atomic_int *counter, global int *out) {\n"
    "    local atomic_int lcount;\n"
    "    int lid = get_local_id(0);\n"
    "    if (lid == 0) atomic_init(&lcount, 0);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_int *g = counter, *l = &lcount, *p = &prog_counter;\n"
    "    atomic_fetch_add(g, 1);\n"
    "    atomic_fetch_add_explicit(l, get_global_id(0) + 1, memory_order_relaxed,\n"
    "                              memory_scope_work_group);\n"
    "    atomic_fetch_add(p, 2);\n"
    "    /* compare-exchange with `expected` in private memory through a generic pointer */\n"
    "    int expected = atomic_load(g), *e = &expected;\n"
    "    while (!atomic_compare_exchange_weak(g + 1, e, *e + 1)) {}\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0) out[get_group_id(0)] = atomic_load(l);\n"
    "}\n"
    "/* Each work-item picks a local or a global counter: the space varies within the group. */\n"
    "kernel void atomics_variant(global atomic_int *counters, local atomic_int *l) {\n"
    "    int lid = get_local_id(0), g = get_group_id(0);\n"
    "    if (lid == 0) atomic_store(l, 0);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_int *p = (lid % 2) ? (atomic_int *)&counters[2 * g] : (atomic_int *)l;\n"
    "    atomic_fetch_add_explicit(p, 1, memory_order_relaxed, memory_scope_work_group);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0) atomic_store(&counters[2 * g + 1], atomic_load(l));\n"
    "}\n"
    "kernel void read_prog_counter(global int *out) { out[0] = atomic_load(&prog_counter); }\n"
    "\n"
    "/* The pointer built-ins with generic pointers to `which`: 0 global, 1 local, 2 private. */\n"
    "kernel void builtins(global const float *x, global float *res, global int *ires,\n"
    "                     global float *gscratch, local float *lscratch, global int *giscratch,\n"
    "                     local int *liscratch, int which) {\n"
    "    int gid = get_global_id(0), lid = get_local_id(0);\n"
    "    float pscratch[4];\n"
    "    int ipriv;\n"
    "    float *f = which == 0   ? (float *)&gscratch[gid * 4]\n"
    "               : which == 1 ? (float *)&lscratch[lid * 4] : (float *)pscratch;\n"
    "    int *ip = which == 0   ? (int *)&giscratch[gid]\n"
    "              : which == 1 ? (int *)&liscratch[lid] : &ipriv;\n"
    "    float v = x[gid];\n"
    "    global float *r = res + gid * 8;\n"
    "    r[0] = fract(v, f); r[1] = *f;\n"
    "    r[2] = modf(v, f); r[3] = *f;\n"
    "    r[4] = frexp(v, ip); ires[gid * 4] = *ip;\n"
    "    r[5] = remquo(v, 1.75f, ip); ires[gid * 4 + 1] = *ip;\n"
    "    vstore4((float4)(v, v + 1, v * 2, -v), 0, f);\n"
    "    float4 back = vload4(0, f);\n"
    "    r[6] = all(back == (float4)(v, v + 1, v * 2, -v)) ? v : NAN;\n"
    "    float s, c;\n"
    "    s = sincos(v, f); c = *f;\n"
    "    r[7] = (s == sin(v) && c == cos(v)) ? 1.0f : 0.0f;\n"
    "    ires[gid * 4 + 2] = classify(ip);\n"
    "}\n";

/*
 * classify() of the kernel for a pointer of `space`; classify_const() gives
 * the same, its bit 3 saying that both get_fence overloads agree.
 */
static int class_of(int space)
{
    return CLASS(space, space == IS_LOCAL ? FENCE_LOCAL : FENCE_GLOBAL);
}

static void check_spaces(cl_program p, const char *what, size_t global, size_t local, bool barrier)
{
    int *buf = malloc(global * sizeof *buf), *out = malloc(global * R_COUNT * sizeof *out);
    for (size_t i = 0; i < global; i++)
        buf[i] = (int)(i * 9 + 1);
    memset(out, 0x5a, global * R_COUNT * sizeof *out);
    int count = R_COUNT;
    struct kt_arg args[] = {{.data = buf, .size = global * sizeof *buf},
                            {.data = NULL, .size = local * sizeof(int)},
                            {.data = out, .size = global * R_COUNT * sizeof *out},
                            {.data = &count, .size = sizeof count, .value = true}};
    KT_CHECK_CL(kt_run_local(p, "spaces", global, &local, args, 4));
    for (size_t i = 0; i < global; i++) {
        int gid = (int)i;
        const int *o = out + i * R_COUNT;
        int expect[R_COUNT] = {
            [R_GLOBAL] = class_of(IS_GLOBAL),
            [R_LOCAL] = class_of(IS_LOCAL),
            [R_PRIV_ARR] = class_of(IS_PRIVATE),
            [R_PRIV_VAR] = class_of(IS_PRIVATE),
            [R_PRIV_PTR] = class_of(IS_PRIVATE) | class_of(IS_PRIVATE) << 8,
            [R_PROG_VAR] = class_of(IS_GLOBAL) | class_of(IS_GLOBAL) << 8,
            [R_COND] = class_of(gid & 1 ? IS_GLOBAL : IS_LOCAL),
            [R_COND_PRIV] = class_of(gid % 3 == 0 ? IS_PRIVATE : IS_GLOBAL),
            [R_STRUCT] = class_of(gid & 2 ? IS_PRIVATE : IS_LOCAL) |
                         class_of(gid & 2 ? IS_PRIVATE : IS_LOCAL) << 8,
            [R_NULL] = CLASS(0, FENCE_GLOBAL),
            [V_GLOBAL] = gid * 9 + 1 + 11,
            [V_LOCAL] = gid * 5 + 12,
            [V_PRIV_ARR] = 0,
            [V_PRIV_VAR] = gid + 7 + 14,
            [V_CAST] = gid * 9 + 1 + 11 + gid * 5 + 12 + gid + 7 + 14,
            [V_PROG_VAR] = gid * 3 + 16,
        };
        /* arr[gid % 16] += 13 and arr[(gid + 1) % 16] += 15: distinct elements. */
        expect[V_PRIV_ARR] = gid * 100 + gid % 16 + 13 + gid * 100 + (gid + 1) % 16 + 15;
        for (int r = 0; r < R_COUNT; r++)
            if (o[r] != expect[r])
                KT_FAIL("%s (%s, global %zu, local %zu): work-item %d result %d is %#x, "
                        "expected %#x",
                        what, barrier ? "barrier" : "no barrier", global, local, gid, r, o[r],
                        expect[r]);
    }
    free(buf);
    free(out);
}

static void check_atomics(cl_program p, size_t global, size_t local)
{
    int counter[2] = {0, 0};
    size_t groups = global / local;
    int *out = calloc(groups, sizeof *out);
    struct kt_arg args[] = {{.data = counter, .size = sizeof counter},
                            {.data = out, .size = groups * sizeof *out}};
    KT_CHECK_CL(kt_run_local(p, "atomics", global, &local, args, 2));
    if (counter[0] != (int)global || counter[1] != (int)global)
        KT_FAIL("atomics: global counters %d and %d, expected %zu", counter[0], counter[1], global);
    for (size_t g = 0; g < groups; g++) {
        /* sum of gid + 1 over the group */
        long first = (long)(g * local) + 1, last = (long)((g + 1) * local);
        long expect = (first + last) * (long)local / 2;
        if (out[g] != (int)expect)
            KT_FAIL("atomics: group %zu local counter %d, expected %ld", g, out[g], expect);
    }
    free(out);
}

/* Odd and even work-items use a global and a local counter: each gets its own count. */
static void check_atomics_variant(cl_program p, size_t global, size_t local)
{
    size_t groups = global / local;
    int *counters = calloc(2 * groups, sizeof *counters);
    struct kt_arg args[] = {{.data = counters, .size = 2 * groups * sizeof *counters},
                            {.data = NULL, .size = sizeof(int)}};
    KT_CHECK_CL(kt_run_local(p, "atomics_variant", global, &local, args, 2));
    for (size_t g = 0; g < groups; g++)
        if (counters[2 * g] != (int)(local / 2) || counters[2 * g + 1] != (int)((local + 1) / 2))
            KT_FAIL("atomics_variant (local %zu): group %zu counted %d global and %d local, "
                    "expected %zu and %zu",
                    local, g, counters[2 * g], counters[2 * g + 1], local / 2, (local + 1) / 2);
    free(counters);
}

static float host_fract(float v, float *ip)
{
    *ip = floorf(v);
    float r = v - *ip;
    return r < 0x1.fffffep-1f ? r : 0x1.fffffep-1f;
}

static void check_builtins(cl_program p, size_t global, size_t local)
{
    float *x = malloc(global * sizeof *x), *res = malloc(global * 8 * sizeof *res);
    int *ires = malloc(global * 4 * sizeof *ires);
    float *scratch = calloc(global * 4, sizeof *scratch);
    int *iscratch = calloc(global, sizeof *iscratch);
    for (size_t i = 0; i < global; i++)
        x[i] = ((float)i - (float)global / 2) * 0.37f + 0.01f;
    static const char *names[] = {"global", "local", "private"};
    for (int which = 0; which < 3; which++) {
        struct kt_arg args[] = {{.data = x, .size = global * sizeof *x},
                                {.data = res, .size = global * 8 * sizeof *res},
                                {.data = ires, .size = global * 4 * sizeof *ires},
                                {.data = scratch, .size = global * 4 * sizeof *scratch},
                                {.data = NULL, .size = local * 4 * sizeof(float)},
                                {.data = iscratch, .size = global * sizeof *iscratch},
                                {.data = NULL, .size = local * sizeof(int)},
                                {.data = &which, .size = sizeof which, .value = true}};
        KT_CHECK_CL(kt_run_local(p, "builtins", global, &local, args, 8));
        int space = which == 0 ? IS_GLOBAL : which == 1 ? IS_LOCAL : IS_PRIVATE;
        for (size_t i = 0; i < global; i++) {
            float v = x[i], ip, iq;
            const float *r = res + i * 8;
            int e, q;
            float expect[8];
            expect[0] = host_fract(v, &ip);
            expect[1] = ip;
            expect[2] = modff(v, &iq);
            expect[3] = iq;
            expect[4] = frexpf(v, &e);
            expect[5] = remquof(v, 1.75f, &q);
            /* The quotient's sign and low 7 bits (glibc gives only 3): v / 1.75 rounded to even. */
            double n = rint((double)v / 1.75);
            q = (n < 0 ? -1 : 1) * ((int)fabs(n) & 127);
            expect[6] = v; /* vstore4 then vload4 gave the vector back */
            expect[7] = 1.0f;
            for (int k = 0; k < 8; k++)
                if (memcmp(&r[k], &expect[k], sizeof(float)) != 0)
                    KT_FAIL("builtins (%s): x=%a result %d is %a, expected %a", names[which], v, k,
                            r[k], expect[k]);
            if (ires[i * 4] != e)
                KT_FAIL("builtins (%s): frexp(%a) exponent %d, expected %d", names[which], v,
                        ires[i * 4], e);
            if (ires[i * 4 + 1] != q)
                KT_FAIL("builtins (%s): remquo(%a) quotient %d, expected %d", names[which], v,
                        ires[i * 4 + 1], q);
            if (ires[i * 4 + 2] != class_of(space))
                KT_FAIL("builtins (%s): the int pointer classifies as %#x, expected %#x",
                        names[which], ires[i * 4 + 2], class_of(space));
        }
    }
    free(x);
    free(res);
    free(ires);
    free(scratch);
    free(iscratch);
}

/* Everything, with and without barriers, at several work-group sizes. */
static void run_all(void)
{
    static const size_t locals[] = {1, 3, 16, 64};
    for (int barrier = 0; barrier < 2; barrier++) {
        cl_program p = kt_build(source, barrier ? "-cl-std=CL3.0 -DWITH_BARRIER" : "-cl-std=CL3.0");
        for (size_t k = 0; k < sizeof locals / sizeof *locals; k++)
            check_spaces(p, "spaces", 768, locals[k], barrier);
        if (barrier) {
            check_atomics(p, 1024, 64);
            check_atomics(p, 48, 3);
            for (size_t local = 1; local <= 8; local++)
                check_atomics_variant(p, 4 * local, local);
            int prog[1] = {0};
            struct kt_arg args[] = {{.data = prog, .size = sizeof prog}};
            KT_CHECK_CL(kt_run(p, "read_prog_counter", 1, args, 1));
            if (prog[0] != 2 * (1024 + 48))
                KT_FAIL("atomics: program-scope counter %d, expected %d", prog[0], 2 * (1024 + 48));
        }
        check_builtins(p, 512, barrier ? 32 : 8);
        clReleaseProgram(p);
    }
}

/* The kernels in a process of their own, which starts the driver's threads. */
static int child(void)
{
    kt_setup();
    cl_bool generic = CL_FALSE;
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof generic,
                                &generic, NULL));
    if (!generic)
        KT_FAIL("CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT is false");
    run_all();
    return kt_teardown();
}

static void run_child(const char *what)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(child());
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        KT_FAIL("the %s process failed", what);
}

/* The cache's files (name and inode: a rewrite is a rename, a new inode), summed up. */
static unsigned long long cache_files, cache_inodes;
static int count_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type == FTW_F) {
        cache_files++;
        cache_inodes += (unsigned long long)st->st_ino * 31 + strlen(path);
    }
    return 0;
}

int main(void)
{
    /* A first process fills a fresh disk cache, a second runs everything from it. */
    char cache_dir[] = "/tmp/lanes-generic-cache-XXXXXX";
    if (!mkdtemp(cache_dir)) {
        fprintf(stderr, "FATAL: no temporary directory\n");
        return 1;
    }
    setenv("XDG_CACHE_HOME", cache_dir, 1);
    run_child("first (cold cache)");
    nftw(cache_dir, count_file, 16, FTW_PHYS);
    unsigned long long files = cache_files, inodes = cache_inodes;
    if (files < 4)
        KT_FAIL("the first process left %llu cache entries", files);
    run_child("second (warm cache)");
    cache_files = cache_inodes = 0;
    nftw(cache_dir, count_file, 16, FTW_PHYS);
    if (cache_files != files || cache_inodes != inodes)
        KT_FAIL("the second process compiled again (%llu cache files, then %llu)", files,
                cache_files);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    if (system(cmd) != 0)
        KT_FAIL("cannot remove %s", cache_dir);
    if (kt_failures)
        fprintf(stderr, "%d failure(s)\n", kt_failures);
    return kt_failures ? 1 : 0;
}
