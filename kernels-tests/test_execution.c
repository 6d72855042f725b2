/* SPDX-License-Identifier: MIT */
/*
 * Kernel execution: work-item ids in one to three dimensions with offsets
 * and non-uniform work-groups, local memory exchanged through barriers
 * (tree reduction, tiled transpose, a barrier in a loop whose trip count is
 * data-dependent but uniform across the work-group), arguments of every
 * kind, and kernels running at once on an out-of-order queue. Every result
 * is compared with a reference computed here.
 */
#include "kernels.h"

/* What each work-item records about itself, in this order. */
enum {
    R_DIM,
    R_GID, /* 3 entries each from here on */
    R_LID = 4,
    R_GROUP = 7,
    R_GSIZE = 10,
    R_LSIZE = 13,
    R_NGROUPS = 16,
    R_OFFSET = 19,
    R_ENQ = 22,
    R_GLINEAR = 25,
    R_LLINEAR,
    R_TOUCHED,
    R_SIZE
};

static const char *ids_src = "kernel void ids(global uint *out) {\n"
                             "    size_t g = get_global_linear_id();\n"
                             "    global uint *r = out + g * 28;\n"
                             "    r[0] = get_work_dim();\n"
                             "    for (uint d = 0; d < 3; d++) {\n"
                             "        r[1 + d] = get_global_id(d);\n"
                             "        r[4 + d] = get_local_id(d);\n"
                             "        r[7 + d] = get_group_id(d);\n"
                             "        r[10 + d] = get_global_size(d);\n"
                             "        r[13 + d] = get_local_size(d);\n"
                             "        r[16 + d] = get_num_groups(d);\n"
                             "        r[19 + d] = get_global_offset(d);\n"
                             "        r[22 + d] = get_enqueued_local_size(d);\n"
                             "    }\n"
                             "    r[25] = g;\n"
                             "    r[26] = get_local_linear_id();\n"
                             "    r[27] += 1;\n"
                             "}\n";

/* Runs `ids` over an NDRange and checks every work-item's record against the definition. */
static void check_ids(cl_program p, cl_uint dim, const size_t *offset, const size_t *global,
                      const size_t *local)
{
    size_t g[3] = {1, 1, 1}, off[3] = {0, 0, 0}, l[3] = {1, 1, 1};
    for (cl_uint d = 0; d < dim; d++) {
        g[d] = global[d];
        off[d] = offset ? offset[d] : 0;
    }
    size_t total = g[0] * g[1] * g[2];
    uint32_t *out = calloc(total * R_SIZE, sizeof *out);
    cl_int err;
    cl_mem m = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              total * R_SIZE * sizeof *out, out, &err);
    KT_CHECK_CL(err);
    cl_kernel k = clCreateKernel(p, "ids", &err);
    KT_CHECK_CL(err);
    KT_CHECK_CL(clSetKernelArg(k, 0, sizeof m, &m));
    KT_CHECK_CL(clEnqueueNDRangeKernel(kt.queue, k, dim, offset, global, local, 0, NULL, NULL));
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, m, CL_TRUE, 0, total * R_SIZE * sizeof *out, out, 0,
                                    NULL, NULL));
    /* The enqueued local size: given, or the runtime's choice read back from the first item. */
    for (cl_uint d = 0; d < 3; d++)
        l[d] = local && d < dim ? local[d] : out[R_ENQ + d];
    for (size_t z = 0; z < g[2]; z++)
        for (size_t y = 0; y < g[1]; y++)
            for (size_t x = 0; x < g[0]; x++) {
                size_t i = (z * g[1] + y) * g[0] + x, id[3] = {x, y, z};
                const uint32_t *r = out + i * R_SIZE;
                uint32_t want[R_SIZE] = {dim};
                for (int d = 0; d < 3; d++) {
                    size_t group = id[d] / l[d];
                    size_t ngroups = (g[d] + l[d] - 1) / l[d];
                    /* The last group of a non-uniform range holds the remainder. */
                    size_t lsize = group == ngroups - 1 && g[d] % l[d] ? g[d] % l[d] : l[d];
                    want[R_GID + d] = (uint32_t)(id[d] + off[d]);
                    want[R_LID + d] = (uint32_t)(id[d] % l[d]);
                    want[R_GROUP + d] = (uint32_t)group;
                    want[R_GSIZE + d] = (uint32_t)g[d];
                    want[R_LSIZE + d] = (uint32_t)lsize;
                    want[R_NGROUPS + d] = (uint32_t)ngroups;
                    want[R_OFFSET + d] = (uint32_t)off[d];
                    want[R_ENQ + d] = (uint32_t)l[d];
                }
                want[R_GLINEAR] = (uint32_t)i;
                want[R_LLINEAR] =
                    (uint32_t)((want[R_LID + 2] * want[R_LSIZE + 1] + want[R_LID + 1]) *
                                   want[R_LSIZE] +
                               want[R_LID]);
                want[R_TOUCHED] = 1;
                for (int e = 0; e < R_SIZE; e++)
                    if (r[e] != want[e]) {
                        KT_FAIL("ids dim %u item (%zu,%zu,%zu) entry %d: %u, want %u", dim, x, y, z,
                                e, r[e], want[e]);
                        e = R_SIZE;
                    }
            }
    clReleaseKernel(k);
    clReleaseMemObject(m);
    free(out);
}

static void test_ids(void)
{
    cl_program p = kt_build(ids_src, "-cl-std=CL3.0");
    const size_t o1[] = {5}, g1[] = {1000}, l1[] = {64};
    check_ids(p, 1, o1, g1, l1);     /* non-uniform: 1000 = 15 * 64 + 40 */
    check_ids(p, 1, NULL, g1, NULL); /* the runtime's local size */
    const size_t g1b[] = {1}, l1b[] = {1};
    check_ids(p, 1, NULL, g1b, l1b);
    const size_t o2[] = {3, 7}, g2[] = {37, 19}, l2[] = {8, 4};
    check_ids(p, 2, o2, g2, l2);
    check_ids(p, 2, NULL, g2, NULL);
    const size_t o3[] = {1, 2, 3}, g3[] = {9, 7, 5}, l3[] = {4, 2, 3};
    check_ids(p, 3, o3, g3, l3);
    const size_t g3u[] = {8, 4, 6}, l3u[] = {2, 4, 3};
    check_ids(p, 3, NULL, g3u, l3u);
    check_ids(p, 3, o3, g3, NULL);
    clReleaseProgram(p);
}

static const char *local_src =
    /* Sum of each work-group's values by a tree of barriers. */
    "kernel void reduce(global const int *in, global int *out, local int *t) {\n"
    "    uint l = get_local_id(0), n = get_local_size(0);\n"
    "    t[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (uint s = n / 2; s > 0; s >>= 1) {\n"
    "        if (l < s) t[l] += t[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = t[0];\n"
    "}\n"
    /* A tiled transpose through a kernel-scope local array. */
    "#define T 16\n"
    "kernel void transpose(global const float *in, global float *out, uint w, uint h) {\n"
    "    local float tile[T][T + 1];\n"
    "    uint x = get_group_id(0) * T + get_local_id(0), y = get_group_id(1) * T + "
    "get_local_id(1);\n"
    "    if (x < w && y < h) tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    x = get_group_id(1) * T + get_local_id(0);\n"
    "    y = get_group_id(0) * T + get_local_id(1);\n"
    "    if (x < h && y < w) out[y * h + x] = tile[get_local_id(0)][get_local_id(1)];\n"
    "}\n"
    /* Rotates a ring in local memory count[group] times: a uniform, data-dependent loop. */
    "kernel void rotate(global const int *in, global const int *count, global int *out,\n"
    "                   local int *ring) {\n"
    "    uint l = get_local_id(0), n = get_local_size(0);\n"
    "    ring[l] = in[get_global_id(0)];\n"
    "    int steps = count[get_group_id(0)];\n"
    "    for (int s = 0; s < steps; s++) {\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        int v = ring[(l + 1) % n];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        ring[l] = v + helper(s);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[get_global_id(0)] = ring[l];\n"
    "}\n";

/* `rotate` calls a function with a barrier of its own before the kernel is defined. */
static const char *helper_src =
    "int helper(int s) {\n"
    "    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);\n"
    "    return s & 1;\n"
    "}\n";

static void test_local_memory(void)
{
    char *src = kt_format("%s%s", helper_src, local_src);
    cl_program p = kt_build(src, "-cl-std=CL3.0");
    free(src);
    enum { GROUPS = 37, WG = 256 };
    static int in[GROUPS * WG], sums[GROUPS];
    for (int i = 0; i < GROUPS * WG; i++)
        in[i] = (i * 7919) % 1001 - 500;
    size_t local = WG;
    struct kt_arg r[] = {{in, sizeof in, false}, {sums, sizeof sums, false}, {NULL, WG * 4, true}};
    KT_CHECK_CL(kt_run_local(p, "reduce", GROUPS * WG, &local, r, 3));
    for (int g = 0; g < GROUPS; g++) {
        int want = 0;
        for (int i = 0; i < WG; i++)
            want += in[g * WG + i];
        if (sums[g] != want)
            KT_FAIL("reduce group %d: %d, want %d", g, sums[g], want);
    }

    /* Transpose of a 100 x 37 matrix in 16 x 16 tiles (partial tiles at the edges). */
    enum { W = 100, H = 37 };
    static float a[W * H], b[W * H];
    for (int i = 0; i < W * H; i++)
        a[i] = (float)i;
    cl_int err;
    cl_mem ma = clCreateBuffer(kt.ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    cl_mem mb = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE, sizeof b, NULL, &err);
    KT_CHECK_CL(err);
    cl_kernel k = clCreateKernel(p, "transpose", &err);
    KT_CHECK_CL(err);
    cl_uint w = W, h = H;
    KT_CHECK_CL(clSetKernelArg(k, 0, sizeof ma, &ma));
    KT_CHECK_CL(clSetKernelArg(k, 1, sizeof mb, &mb));
    KT_CHECK_CL(clSetKernelArg(k, 2, sizeof w, &w));
    KT_CHECK_CL(clSetKernelArg(k, 3, sizeof h, &h));
    size_t g2[] = {112, 48}, l2[] = {16, 16};
    KT_CHECK_CL(clEnqueueNDRangeKernel(kt.queue, k, 2, NULL, g2, l2, 0, NULL, NULL));
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, mb, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (b[x * H + y] != a[y * W + x]) {
                KT_FAIL("transpose (%d,%d): %g, want %g", x, y, b[x * H + y], a[y * W + x]);
                y = H, x = W;
            }
    clReleaseKernel(k);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);

    /* Ring rotation: group g turns its ring count[g] times, adding s & 1 at step s. */
    enum { RG = 9, RW = 48 };
    static int ring_in[RG * RW], count[RG], ring_out[RG * RW];
    for (int i = 0; i < RG * RW; i++)
        ring_in[i] = i * 3;
    for (int g = 0; g < RG; g++)
        count[g] = (g * 5) % 7; /* 0 included: the loop may not run at all */
    size_t rl = RW;
    struct kt_arg rr[] = {{ring_in, sizeof ring_in, false},
                          {count, sizeof count, false},
                          {ring_out, sizeof ring_out, false},
                          {NULL, RW * 4, true}};
    KT_CHECK_CL(kt_run_local(p, "rotate", RG * RW, &rl, rr, 4));
    for (int g = 0; g < RG; g++) {
        int bonus = 0;
        for (int s = 0; s < count[g]; s++)
            bonus += s & 1;
        for (int l = 0; l < RW; l++) {
            int want = ring_in[g * RW + (l + count[g]) % RW] + bonus;
            if (ring_out[g * RW + l] != want) {
                KT_FAIL("rotate group %d item %d: %d, want %d", g, l, ring_out[g * RW + l], want);
                l = RW, g = RG;
            }
        }
    }
    clReleaseProgram(p);
}

/* A struct passed by value: the kernel sees the host's layout (OpenCL C alignment rules). */
struct by_value {
    cl_int a;
    cl_float b;
    cl_char c;
    cl_long d;
    cl_short e[3];
};

static const char *args_src =
    "typedef struct { int a; float b; char c; long d; short e[3]; } by_value;\n"
    "kernel void args(char c, uchar uc, short s, ushort us, int i, uint ui, long l, ulong ul,\n"
    "                 float f, int2 i2, float4 f4, int3 i3, uchar16 u16, by_value sv,\n"
    "                 local int *scratch, constant int *table, global int *none,\n"
    "                 global long *out) {\n"
    "    local long kernel_scope[4];\n"
    "    size_t g = get_global_id(0);\n"
    "    scratch[get_local_id(0)] = (int)g;\n"
    "    kernel_scope[get_local_id(0) % 4] = 0;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (g != 0) return;\n"
    "    long r[] = {c, uc, s, us, i, ui, l, (long)ul, (long)(f * 1000.0f), i2.x, i2.y,\n"
    "                (long)(f4.x + f4.y * 10 + f4.z * 100 + f4.w * 1000), i3.x, i3.y, i3.z,\n"
    "                u16.s0, u16.s7, u16.sf, sv.a, (long)(sv.b * 4), sv.c, sv.d, sv.e[0],\n"
    "                sv.e[2], scratch[get_local_size(0) - 1], table[0] + table[99],\n"
    "                none == 0, kernel_scope[3]};\n"
    "    for (int k = 0; k < (int)(sizeof r / sizeof r[0]); k++) out[k] = r[k];\n"
    "}\n";

static void test_arguments(void)
{
    cl_program p = kt_build(args_src, "-cl-std=CL3.0");
    cl_int err;
    cl_kernel k = clCreateKernel(p, "args", &err);
    KT_CHECK_CL(err);
    cl_char c = -5;
    cl_uchar uc = 250;
    cl_short s = -30000;
    cl_ushort us = 60000;
    cl_int i = -2000000000;
    cl_uint ui = 4000000000u;
    cl_long l = -(1LL << 60);
    cl_ulong ul = (1ULL << 62) + 3;
    cl_float f = 2.5f;
    cl_int2 i2 = {{7, -8}};
    cl_float4 f4 = {{1, 2, 3, 4}};
    cl_int3 i3 = {{9, 10, 11}};
    cl_uchar16 u16;
    for (int e = 0; e < 16; e++)
        u16.s[e] = (cl_uchar)(e * 16 + 1);
    struct by_value sv = {-12, 0.75f, 'x', 1LL << 40, {-1, 2, -3}};
    cl_int table[100];
    for (int e = 0; e < 100; e++)
        table[e] = e * e;
    cl_long out[32] = {0};
    cl_mem mt =
        clCreateBuffer(kt.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof table, table, &err);
    cl_mem mo = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    KT_CHECK_CL(err);
    const struct {
        size_t size;
        const void *value;
    } a[] = {{sizeof c, &c},         {sizeof uc, &uc}, {sizeof s, &s},   {sizeof us, &us},
             {sizeof i, &i},         {sizeof ui, &ui}, {sizeof l, &l},   {sizeof ul, &ul},
             {sizeof f, &f},         {sizeof i2, &i2}, {sizeof f4, &f4}, {sizeof i3, &i3},
             {sizeof u16, &u16},     {sizeof sv, &sv}, {64 * 4, NULL},   {sizeof mt, &mt},
             {sizeof(cl_mem), NULL}, {sizeof mo, &mo}};
    for (cl_uint n = 0; n < sizeof a / sizeof *a; n++)
        KT_CHECK_CL(clSetKernelArg(k, n, a[n].size, a[n].value));
    size_t global = 256, local = 64;
    KT_CHECK_CL(clEnqueueNDRangeKernel(kt.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    KT_CHECK_CL(clEnqueueReadBuffer(kt.queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    const cl_long want[] = {c,           uc,   s,          us,          i,           ui, l,
                            (cl_long)ul, 2500, 7,          -8,          4321,        9,  10,
                            11,          1,    7 * 16 + 1, 15 * 16 + 1, -12,         3,  'x',
                            1LL << 40,   -1,   -3,         63,          0 + 99 * 99, 1,  0};
    for (size_t e = 0; e < sizeof want / sizeof *want; e++)
        if (out[e] != want[e])
            KT_FAIL("argument record entry %zu: %lld, want %lld", e, (long long)out[e],
                    (long long)want[e]);
    clReleaseMemObject(mt);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/*
 * Eight kernels on an out-of-order queue: four independent ones, and a chain
 * of four, each waiting for the previous through its event.
 */
static void test_concurrent_kernels(void)
{
    cl_program p = kt_build("kernel void step(global int *x, int add, int mul) {\n"
                            "    size_t i = get_global_id(0);\n"
                            "    x[i] = x[i] * mul + add;\n"
                            "}\n",
                            "");
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                         CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(kt.ctx, kt.dev, props, &err);
    KT_CHECK_CL(err);
    enum { N = 1 << 18, BUFS = 5 };
    static int host[BUFS][N];
    cl_mem m[BUFS];
    cl_kernel k[8];
    for (int b = 0; b < BUFS; b++) {
        for (int e = 0; e < N; e++)
            host[b][e] = e + b;
        m[b] = clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host[b],
                              host[b], &err);
        KT_CHECK_CL(err);
    }
    cl_event ev[8];
    size_t global = N;
    for (int n = 0; n < 8; n++) {
        k[n] = clCreateKernel(p, "step", &err);
        KT_CHECK_CL(err);
        /* Kernels 0-3 own buffers 0-3; kernels 4-7 all update buffer 4, in order. */
        cl_mem target = m[n < 4 ? n : 4];
        cl_int add = n + 1, mul = n < 4 ? 3 : 2;
        KT_CHECK_CL(clSetKernelArg(k[n], 0, sizeof target, &target));
        KT_CHECK_CL(clSetKernelArg(k[n], 1, sizeof add, &add));
        KT_CHECK_CL(clSetKernelArg(k[n], 2, sizeof mul, &mul));
        bool chained = n > 4;
        KT_CHECK_CL(clEnqueueNDRangeKernel(q, k[n], 1, NULL, &global, NULL, chained ? 1 : 0,
                                           chained ? &ev[n - 1] : NULL, &ev[n]));
    }
    KT_CHECK_CL(clWaitForEvents(8, ev));
    for (int b = 0; b < BUFS; b++)
        KT_CHECK_CL(
            clEnqueueReadBuffer(q, m[b], CL_TRUE, 0, sizeof host[b], host[b], 0, NULL, NULL));
    for (int e = 0; e < N; e++) {
        for (int b = 0; b < 4; b++)
            if (host[b][e] != (e + b) * 3 + b + 1) {
                KT_FAIL("independent kernel %d item %d: %d", b, e, host[b][e]);
                e = N;
                break;
            }
        if (e < N) {
            int v = e + 4;
            for (int n = 4; n < 8; n++)
                v = v * 2 + n + 1;
            if (host[4][e] != v) {
                KT_FAIL("chained kernels item %d: %d, want %d", e, host[4][e], v);
                e = N;
            }
        }
    }
    for (int n = 0; n < 8; n++) {
        clReleaseEvent(ev[n]);
        clReleaseKernel(k[n]);
    }
    for (int b = 0; b < BUFS; b++)
        clReleaseMemObject(m[b]);
    clReleaseCommandQueue(q);
    clReleaseProgram(p);
}

/*
 * Integer division by zero and INT_MIN / -1 are undefined in value only: the
 * kernel runs (x86 would trap), and every other quotient is right.
 */
static void test_division(void)
{
    cl_program p = kt_build(
        "kernel void d(global const int *x, global const int *y, global int *q, global int *r,\n"
        "              global long *lq, global uint *uq, global int4 *vq) {\n"
        "    size_t i = get_global_id(0);\n"
        "    q[i] = x[i] / y[i];\n"
        "    r[i] = x[i] % y[i];\n"
        "    lq[i] = (long)x[i] * 4294967296L / (long)y[i];\n"
        "    uq[i] = (uint)x[i] / (uint)y[i];\n"
        "    vq[i] = (int4)(x[i]) / (int4)(y[i], 1, 0, -1);\n"
        "}\n",
        "");
    enum { N = 64 };
    static int x[N], y[N], q[N], r[N];
    static cl_long lq[N];
    static cl_uint uq[N];
    static cl_int vq[4 * N];
    for (int i = 0; i < N; i++) {
        x[i] = i % 4 == 0 ? INT32_MIN : (i - 32) * 1000 + 7;
        y[i] = i % 8 == 0 ? 0 : i % 8 == 4 ? -1 : (i % 5) - 2;
    }
    struct kt_arg args[] = {{x, sizeof x, false},  {y, sizeof y, false},   {q, sizeof q, false},
                            {r, sizeof r, false},  {lq, sizeof lq, false}, {uq, sizeof uq, false},
                            {vq, sizeof vq, false}};
    KT_CHECK_CL(kt_run(p, "d", N, args, 7));
    for (int i = 0; i < N; i++) {
        if (y[i] == 0 || (y[i] == -1 && x[i] == INT32_MIN))
            continue; /* undefined values: only running matters */
        if (q[i] != x[i] / y[i] || r[i] != x[i] % y[i])
            KT_FAIL("division %d / %d: %d rem %d", x[i], y[i], q[i], r[i]);
        if (lq[i] != (cl_long)x[i] * 4294967296LL / y[i])
            KT_FAIL("long division %d: %lld", i, (long long)lq[i]);
        if (uq[i] != (cl_uint)x[i] / (cl_uint)y[i])
            KT_FAIL("unsigned division %d: %u", i, uq[i]);
        if (vq[4 * i] != x[i] / y[i] || vq[4 * i + 1] != x[i] ||
            (x[i] != INT32_MIN && vq[4 * i + 3] != -x[i]))
            KT_FAIL("vector division %d", i);
    }
    clReleaseProgram(p);
}

/* Addresses inside kernel-scope __local structs: offsets as the C layout rules give them. */
static void test_local_offsets(void)
{
    cl_program p = kt_build("typedef struct __attribute__((packed)) { char c; int4 v; } packed_t;\n"
                            "typedef struct { char c; int4 v; } plain_t;\n"
                            "kernel void k(global int *out) {\n"
                            "    local packed_t a;\n"
                            "    local plain_t b[2];\n"
                            "    out[0] = (int)((local uchar *)&a.v - (local uchar *)&a);\n"
                            "    out[1] = (int)((local uchar *)&b[1].v - (local uchar *)&b[0]);\n"
                            "}\n",
                            "");
    int out[2] = {-1, -1};
    struct kt_arg args[] = {{out, sizeof out, false}};
    KT_CHECK_CL(kt_run(p, "k", 1, args, 1));
    if (out[0] != 1 || out[1] != 48)
        KT_FAIL("local struct offsets %d %d, want 1 48", out[0], out[1]);
    clReleaseProgram(p);
}

int main(void)
{
    kt_setup();
    test_local_offsets();
    test_division();
    test_ids();
    test_local_memory();
    test_arguments();
    test_concurrent_kernels();
    return kt_teardown();
}
