/* SPDX-License-Identifier: MIT */
/*
 * async_work_group_copy and async_work_group_strided_copy in both
 * directions, copies joined to one event, wait_group_events and prefetch
 * (OpenCL C 3.0 6.15.13), for every element type and vector width, over
 * several work-groups of 1D and 2D shapes (a non-uniform last one, groups of
 * one work-item) with counts that are not multiples of the work-group size.
 * Each work-item afterwards reads elements that another one copied, so the
 * copy must be complete and visible to the whole work-group after
 * wait_group_events.
 */
#include "kernels.h"

/*
 * Per element type T (-DN gives the width), one kernel runs every kind of
 * copy in turn, each over its own region of src and dst (the host computes
 * the same layout): each work-group copies `pg` elements, strided ones with
 * stride `s`. `grp` is the group's linear index, `lid`/`ls` the work-item's
 * local linear id and the group's size, `n` the elements of a region.
 */
static const char *source =
    "#define KERNEL(T)\\\n"
    "kernel void copies_##T(global const VEC(T) *a, global VEC(T) *b, local VEC(T) *buf,\\\n"
    "                       uint pg, uint s)\\\n"
    "{\\\n"
    "    size_t grp = get_group_id(0) + get_num_groups(0) * get_group_id(1);\\\n"
    "    size_t lid = get_local_linear_id(), ls = get_local_size(0) * get_local_size(1);\\\n"
    "    size_t n = get_num_groups(0) * get_num_groups(1) * pg, base = grp * pg;\\\n"
    /* global to local, then each work-item reads what the copy put elsewhere */
    "    for (size_t i = lid; i < pg; i += ls) buf[i] = (VEC(T))0;\\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\\\n"
    "    event_t e = async_work_group_copy(buf, a + base, pg, 0);\\\n"
    "    wait_group_events(1, &e);\\\n"
    "    for (size_t i = lid; i < pg; i += ls) b[base + i] = buf[pg - 1 - i];\\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\\\n"
    "    a += n, b += n;\\\n"
    /* local to global */
    "    for (size_t i = lid; i < pg; i += ls) buf[i] = a[base + pg - 1 - i];\\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\\\n"
    "    e = async_work_group_copy(b + base, buf, pg, 0);\\\n"
    "    wait_group_events(1, &e);\\\n"
    "    a += n, b += n;\\\n"
    /* strided, global to local */
    "    for (size_t i = lid; i < pg; i += ls) buf[i] = (VEC(T))0;\\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\\\n"
    "    e = async_work_group_strided_copy(buf, a + base * s, pg, s, 0);\\\n"
    "    wait_group_events(1, &e);\\\n"
    "    for (size_t i = lid; i < pg; i += ls) b[base + i] = buf[pg - 1 - i];\\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\\\n"
    "    a += n * s, b += n;\\\n"
    /* strided, local to global: the elements between stay as they were */
    "    for (size_t i = lid; i < pg; i += ls) buf[i] = a[base + pg - 1 - i];\\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\\\n"
    "    e = async_work_group_strided_copy(b + base * s, buf, pg, s, 0);\\\n"
    "    wait_group_events(1, &e);\\\n"
    "    a += n, b += n * s;\\\n"
    /* two copies joined to one event and a strided one with its own: two events waited */
    "    size_t h = pg / 2;\\\n"
    "    event_t ev[2];\\\n"
    "    ev[0] = async_work_group_copy(buf, a + base, h, 0);\\\n"
    "    ev[0] = async_work_group_copy(buf + h, a + base + h, pg - h, ev[0]);\\\n"
    "    ev[1] = async_work_group_strided_copy(buf + pg, a + base, pg, 1, 0);\\\n"
    "    wait_group_events(2, ev);\\\n"
    "    for (size_t i = lid; i < pg; i += ls)\\\n"
    "        b[base + i] = i % 2 ? buf[pg - 1 - i] : buf[2 * pg - 1 - i];\\\n"
    "    a += n, b += n;\\\n"
    /* prefetch: each work-item s elements of its own */
    "    size_t g = get_global_id(0) + get_global_size(0) * get_global_id(1);\\\n"
    "    prefetch(a + g * s, s);\\\n"
    "    for (uint i = 0; i < s; i++) b[g * s + i] = a[g * s + i];\\\n"
    "}\n"
    "KERNEL(char) KERNEL(uchar) KERNEL(short) KERNEL(ushort) KERNEL(int) KERNEL(uint)\n"
    "KERNEL(long) KERNEL(ulong) KERNEL(float) KERNEL(double)\n"
    "#ifdef cl_khr_fp16\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "KERNEL(half)\n"
    "#endif\n";

static const struct {
    const char *name;
    size_t size;
} types[] = {
    {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4}, {"uint", 4},
    {"long", 8}, {"ulong", 8}, {"float", 4}, {"double", 8}, {"half", 2}}; /* last: with cl_khr_fp16
                                                                             only */
#define NUM_TYPES (sizeof types / sizeof *types)

enum kind { G2L, L2G, SG2L, SL2G, JOIN, PREFETCH, NUM_KINDS };
static const char *kinds[] = {"copy to local",          "copy to global", "strided copy to local",
                              "strided copy to global", "joined copies",  "prefetch"};

struct shape {
    cl_uint dim;
    size_t global[2], local[2];
    cl_uint pg, stride; /* elements per work-group, stride */
};

static const struct shape shapes[] = {
    {1, {48, 1}, {16, 1}, 37, 3}, /* 3 groups, 37 elements each: not a multiple of 16 */
    {1, {40, 1}, {16, 1}, 21, 2}, /* non-uniform: the last group has 8 work-items */
    {2, {12, 6}, {4, 3}, 29, 4},  /* 6 groups of 4x3 */
    {2, {10, 5}, {4, 2}, 9, 1},   /* non-uniform in x and y */
    {1, {4, 1}, {1, 1}, 5, 3},    /* groups of one work-item */
};

/* One type and width: the element's bytes in memory and the bytes that are its value. */
struct elem {
    size_t bytes, value_bytes;
};

static bool same_elem(const struct elem *e, const unsigned char *a, const unsigned char *b)
{
    return memcmp(a, b, e->value_bytes) == 0;
}

/* Checks one region of dst against the reference; every byte of an element untouched must stay. */
static void compare(const char *what, const struct shape *s, const struct elem *e,
                    const unsigned char *dst, const unsigned char *want, const bool *written,
                    size_t begin, size_t end)
{
    for (size_t i = begin; i < end; i++) {
        const unsigned char *a = dst + i * e->bytes, *b = want + i * e->bytes;
        bool ok = written[i] ? same_elem(e, a, b) : memcmp(a, b, e->bytes) == 0;
        if (!ok) {
            KT_FAIL("%s, %uD global (%zu,%zu) local (%zu,%zu), %u per group, stride %u: element "
                    "%zu %s",
                    what, s->dim, s->global[0], s->global[1], s->local[0], s->local[1], s->pg,
                    s->stride, i - begin, written[i] ? "wrong" : "overwritten");
            return;
        }
    }
}

/* Runs the kernel of type `t` at width `n` over shape `s` and checks every region. */
static void run_one(cl_program p, size_t t, unsigned n, const struct shape *s)
{
    struct elem e = {types[t].size * (n == 3 ? 4 : n), types[t].size * n};
    size_t groups = 1, items = 1;
    for (unsigned d = 0; d < s->dim; d++) {
        groups *= (s->global[d] + s->local[d] - 1) / s->local[d];
        items *= s->global[d];
    }
    size_t pg = s->pg, stride = s->stride, r = groups * pg;
    /* The regions of src and of dst, in elements, kind by kind. */
    size_t src_len[NUM_KINDS] = {r, r, r * stride, r, r, items * stride};
    size_t dst_len[NUM_KINDS] = {r, r, r, r * stride, r, items * stride};
    size_t src_at[NUM_KINDS + 1] = {0}, dst_at[NUM_KINDS + 1] = {0};
    for (unsigned k = 0; k < NUM_KINDS; k++) {
        src_at[k + 1] = src_at[k] + src_len[k];
        dst_at[k + 1] = dst_at[k] + dst_len[k];
    }
    size_t src_n = src_at[NUM_KINDS], dst_n = dst_at[NUM_KINDS];
    unsigned char *src = malloc(src_n * e.bytes), *dst = malloc(dst_n * e.bytes);
    unsigned char *want = malloc(dst_n * e.bytes);
    bool *written = calloc(dst_n, sizeof *written);
    for (size_t i = 0; i < src_n * e.bytes; i++)
        src[i] = (unsigned char)kt_random();
    memset(dst, 0xa5, dst_n * e.bytes);
    memcpy(want, dst, dst_n * e.bytes);
    /* The reference: which src element ends in which dst element. */
    for (enum kind k = G2L; k < NUM_KINDS; k++)
        for (size_t g = 0; g < (k == PREFETCH ? 1 : groups); g++)
            for (size_t i = 0; i < (k == PREFETCH ? dst_len[k] : pg); i++) {
                size_t from, to;
                switch (k) {
                case SG2L: to = g * pg + i, from = (g * pg + pg - 1 - i) * stride; break;
                case SL2G: to = (g * pg + i) * stride, from = g * pg + pg - 1 - i; break;
                case PREFETCH: to = from = i; break;
                default: to = g * pg + i, from = g * pg + pg - 1 - i; break;
                }
                memcpy(want + (dst_at[k] + to) * e.bytes, src + (src_at[k] + from) * e.bytes,
                       e.bytes);
                written[dst_at[k] + to] = true;
            }
    char name[32];
    snprintf(name, sizeof name, "copies_%s", types[t].name);
    cl_uint pg32 = (cl_uint)pg, s32 = (cl_uint)stride;
    struct kt_arg args[] = {{src, src_n * e.bytes, false},
                            {dst, dst_n * e.bytes, false},
                            {NULL, 2 * pg * e.bytes, false},
                            {&pg32, sizeof pg32, true},
                            {&s32, sizeof s32, true}};
    char what[96];
    if (kt_run_nd(p, name, s->dim, s->global, s->local, args, 5) != CL_SUCCESS)
        KT_FAIL("%s%u: launch failed", types[t].name, n);
    else
        for (enum kind k = G2L; k < NUM_KINDS; k++) {
            snprintf(what, sizeof what, "%s, %s%.0u", kinds[k], types[t].name, n == 1 ? 0 : n);
            compare(what, s, &e, dst, want, written, dst_at[k], dst_at[k + 1]);
        }
    free(src);
    free(dst);
    free(want);
    free(written);
}

int main(void)
{
    kt_setup();
    char *full = kt_format("%s%s", kt_preamble(), source);
    /* half under cl_khr_fp16 (on by default; CMakeLists.txt sets LANES_FP16=1 for this test). */
    size_t num_types = kt_has_extension("cl_khr_fp16") ? NUM_TYPES : NUM_TYPES - 1;
    for (size_t w = 0; w < KT_NUM_WIDTHS; w++) {
        unsigned n = kt_widths[w];
        cl_program p = kt_build(full, kt_width_options(n));
        for (size_t t = 0; t < num_types; t++) {
            /*
             * The first shape for every type, all of them for one type per
             * width (each specialization is compiled: this keeps it short).
             */
            size_t num_shapes = (t + 2 * w) % NUM_TYPES == 0 ? sizeof shapes / sizeof *shapes : 1;
            for (size_t si = 0; si < num_shapes; si++)
                run_one(p, t, n, &shapes[si]);
        }
        clReleaseProgram(p);
    }
    free(full);
    return kt_teardown();
}
