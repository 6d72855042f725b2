/* SPDX-License-Identifier: MIT */
/*
 * Intel's sub-group extensions: cl_intel_subgroups, _short, _char, _long,
 * cl_intel_subgroup_local_block_io, cl_intel_subgroup_buffer_prefetch and
 * cl_intel_required_subgroup_size, against host references computed per
 * sub-group from the width W the kernel reads with get_max_sub_group_size()
 * and writes out (the work-items of local ids k * W .. k * W + W - 1 of a
 * one-dimensional work-group):
 *
 * - intel_sub_group_shuffle, _down, _up and _xor on every type
 *   lanes_extensions.h declares, with uniform, constant, per-lane random,
 *   permuting and reversing indices, delta 0 and W - 1 (results whose index
 *   is out of range are undefined and not checked), vectors a subset of
 *   those cases that still has each function with uniform and per-lane
 *   indices;
 * - the block reads and writes on __global and __local memory, unsuffixed
 *   and _ui, _us, _uc and _ul, at a 64-byte, a 16-byte (the specs' alignment
 *   for writes and for __local) and a one-element offset (Lanes' own promise:
 *   the functions are plain accesses), in full sub-groups and in partial ones
 *   (the specs leave those undefined; in Lanes only the work-items that exist
 *   read and write), with every element outside the blocks checked unchanged;
 * - the block prefetches: kernels calling them build, run and change nothing;
 * - intel_sub_group_broadcast, _reduce, _scan_inclusive and _scan_exclusive
 *   (add, min, max) on char, uchar, short and ushort;
 * - intel_reqd_sub_group_size for each size of CL_DEVICE_SUB_GROUP_SIZES_INTEL
 *   (and the width LANES_WIDTH forces instead), the kernel queries, the build
 *   error of a size the device does not offer, the width policy's choice for
 *   reqd_work_group_size(8, 4, 1);
 * - the extensions' macros and pragmas (-Werror), and the device's lists.
 */
#include "kernels.h"

#include <CL/cl_ext.h>

/* Work-group shapes (one-dimensional): full sub-groups at every width, then
 * a partial last sub-group at W = 8, 16 and 32 (44 = 5 * 8 + 4 = 2 * 16 + 12
 * = 32 + 12). */
static const size_t shapes[][2] = {{128, 64}, {88, 44}};
#define NUM_SHAPES (sizeof shapes / sizeof *shapes)

/* The width LANES_WIDTH forces, or 0. */
static unsigned forced_width(void)
{
    const char *w = getenv("LANES_WIDTH");
    unsigned n = w ? (unsigned)atoi(w) : 0;
    return n == 1 || n == 8 || n == 16 || n == 32 ? n : 0;
}

/* CL_DEVICE_SUB_GROUP_SIZES_INTEL. */
static size_t device_sizes[8];
static unsigned num_device_sizes;

static bool offered(size_t w)
{
    for (unsigned i = 0; i < num_device_sizes; i++)
        if (device_sizes[i] == w)
            return true;
    return false;
}

/* Element i of a packed array of `size`-byte elements, as raw bits. */
static uint64_t get(const void *p, unsigned size, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, (const char *)p + i * size, size);
    return v;
}

/* Random bits for an element; no NaN for floating types (a shuffle moves bits, but a NaN
 * is not worth a doubt). */
static void fill_random(void *p, unsigned size, bool is_float, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t v = kt_random();
        if (is_float && size == 4 && ((v >> 23) & 0xff) == 0xff)
            v ^= 1ull << 30;
        if (is_float && size == 8 && ((v >> 52) & 0x7ff) == 0x7ff)
            v ^= 1ull << 62;
        memcpy((char *)p + i * size, &v, size);
    }
}

/*
 * The width of a launch of `total` work-items in groups of `local`, from
 * what each work-item wrote to info: get_max_sub_group_size(),
 * get_sub_group_id(), get_sub_group_local_id(). 0 (and a failure) when the
 * work-items disagree with each other or with the sub-groups the host model
 * assumes, or with the width LANES_WIDTH forces.
 */
static size_t width_of(const cl_uint *info, size_t total, size_t local, const char *what)
{
    size_t w = info[0];
    unsigned forced = forced_width();
    if (w == 0 || (forced && w != forced) || (!forced && !offered(w))) {
        KT_FAIL("%s, local %zu: get_max_sub_group_size() is %zu (LANES_WIDTH %u)", what, local, w,
                forced);
        return 0;
    }
    for (size_t g = 0; g < total; g++) {
        size_t lid = g % local;
        if (info[3 * g] != w || info[3 * g + 1] != lid / w || info[3 * g + 2] != lid % w) {
            KT_FAIL("%s, local %zu, W %zu: work-item %zu says W %u, sub-group %u, lane %u", what,
                    local, w, g, info[3 * g], info[3 * g + 1], info[3 * g + 2]);
            return 0;
        }
    }
    return w;
}

/* Writes info for width_of. */
static const char *info_source = "#define INFO(info, g)                                      \\\n"
                                 "    info[3 * (g)] = get_max_sub_group_size(),              \\\n"
                                 "    info[3 * (g) + 1] = get_sub_group_id(),                \\\n"
                                 "    info[3 * (g) + 2] = get_sub_group_local_id()\n";

/* LOAD_k and STORE_k: one value of k elements from and to a packed array. */
static const char *vector_source = "#define LOAD_1(i, p) (p)[i]\n"
                                   "#define STORE_1(v, i, p) ((p)[i] = (v))\n"
                                   "#define LOAD_2 vload2\n#define STORE_2 vstore2\n"
                                   "#define LOAD_3 vload3\n#define STORE_3 vstore3\n"
                                   "#define LOAD_4 vload4\n#define STORE_4 vstore4\n"
                                   "#define LOAD_8 vload8\n#define STORE_8 vstore8\n"
                                   "#define LOAD_16 vload16\n#define STORE_16 vstore16\n";

/* Builds `source`; returns the status and (malloc'd) the log. */
static cl_int try_build(const char *source, const char *options, char **log)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(kt.ctx, 1, &source, NULL, &err);
    KT_CHECK_CL(err);
    err = clBuildProgram(p, 1, &kt.dev, options, NULL, NULL);
    size_t size = 0;
    clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    *log = calloc(size + 1, 1);
    clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, size, *log, NULL);
    clReleaseProgram(p);
    return err;
}

/* --- Shuffles -------------------------------------------------------------- */

struct type {
    const char *name;
    unsigned size;
    bool is_signed, is_float;
};

static const struct type t_float = {"float", 4, true, true}, t_int = {"int", 4, true, false},
                         t_uint = {"uint", 4, false, false}, t_short = {"short", 2, true, false},
                         t_ushort = {"ushort", 2, false, false}, t_char = {"char", 1, true, false},
                         t_uchar = {"uchar", 1, false, false}, t_long = {"long", 8, true, false},
                         t_ulong = {"ulong", 8, false, false}, t_double = {"double", 8, true, true};
/* Shuffled as bits: filled with any bits (a NaN's stay as they are). */
static const struct type t_half = {"half", 2, true, false};

/* The shuffles' types and their vector sizes (char and uchar have no 3-vectors). */
static const struct {
    const struct type *type;
    unsigned num_sizes;
    unsigned sizes[6];
} shuffle_types[] = {
    {&t_float, 6, {1, 2, 3, 4, 8, 16}},
    {&t_int, 6, {1, 2, 3, 4, 8, 16}},
    {&t_uint, 6, {1, 2, 3, 4, 8, 16}},
    {&t_short, 6, {1, 2, 3, 4, 8, 16}},
    {&t_ushort, 6, {1, 2, 3, 4, 8, 16}},
    {&t_char, 5, {1, 2, 4, 8, 16}},
    {&t_uchar, 5, {1, 2, 4, 8, 16}},
    {&t_long, 1, {1}},
    {&t_ulong, 1, {1}},
    {&t_double, 1, {1}},
    {&t_half, 1, {1}}, /* with cl_khr_fp16 only */
};
#define NUM_SHUFFLE_TYPES (sizeof shuffle_types / sizeof *shuffle_types)

enum shuffle_fn { SHUFFLE, DOWN, UP, XOR };

/*
 * The cases, each a call whose result the kernel stores in an array of its
 * own: x and y are this work-item's two sources, w is W, r a random number
 * below W per work-item, grp the group id. Vectors are built one component
 * at a time from the scalar function: they take a subset (every function,
 * uniform and varying indices, W - 1) to keep the compile time at W = 32
 * modest.
 */
enum index_kind { UNIFORM, CONSTANT, RANDOM, PERMUTED, REVERSED, ZERO, LAST };
static const struct {
    enum shuffle_fn fn;
    enum index_kind kind;
    bool vectors;
    const char *call;
} shuffle_cases[] = {
    {SHUFFLE, UNIFORM, true, "intel_sub_group_shuffle(x, (grp * 7 + 3) % w)"},
    {SHUFFLE, CONSTANT, false, "intel_sub_group_shuffle(x, 0)"},
    {SHUFFLE, RANDOM, true, "intel_sub_group_shuffle(x, r)"},
    {SHUFFLE, PERMUTED, true, "intel_sub_group_shuffle(x, (lane * 5 + 3) % w)"},
    {SHUFFLE, REVERSED, false, "intel_sub_group_shuffle(x, w - 1 - lane)"},
    {DOWN, ZERO, false, "intel_sub_group_shuffle_down(x, y, 0)"},
    {DOWN, LAST, true, "intel_sub_group_shuffle_down(x, y, w - 1)"},
    {DOWN, UNIFORM, false, "intel_sub_group_shuffle_down(x, y, (grp * 3 + 1) % w)"},
    {DOWN, RANDOM, true, "intel_sub_group_shuffle_down(x, y, r)"},
    {UP, ZERO, false, "intel_sub_group_shuffle_up(y, x, 0)"},
    {UP, LAST, true, "intel_sub_group_shuffle_up(y, x, w - 1)"},
    {UP, UNIFORM, false, "intel_sub_group_shuffle_up(y, x, (grp * 3 + 2) % w)"},
    {UP, RANDOM, true, "intel_sub_group_shuffle_up(y, x, r)"},
    {XOR, UNIFORM, true, "intel_sub_group_shuffle_xor(x, (grp * 5 + 1) % w)"},
    {XOR, RANDOM, true, "intel_sub_group_shuffle_xor(x, r)"},
    {XOR, LAST, false, "intel_sub_group_shuffle_xor(x, w - 1)"},
    {XOR, CONSTANT, false, "intel_sub_group_shuffle_xor(x, 1)"},
};
#define NUM_SHUFFLE_CASES (sizeof shuffle_cases / sizeof *shuffle_cases)

/* The kernel of type t and vector size k (vector type vt): case c into out[c * t + g]. */
static void append_shuffle_kernel(char **source, const char *t, unsigned k, const char *vt)
{
    kt_append(source,
              "kernel void shuffle_%s%u(global const %s *a, global const %s *b,\n"
              "                         global const uint *random, global %s *out,\n"
              "                         global uint *info)\n"
              "{\n"
              "    size_t g = get_global_id(0), t = get_global_size(0);\n"
              "    uint w = get_max_sub_group_size(), lane = get_sub_group_local_id();\n"
              "    uint grp = get_group_id(0), r = random[g] %% w;\n"
              "    %s x = LOAD_%u(g, a), y = LOAD_%u(g, b);\n",
              t, k, t, t, t, vt, k, k);
    for (unsigned c = 0; c < NUM_SHUFFLE_CASES; c++)
        if (k == 1 || shuffle_cases[c].vectors)
            kt_append(source, "    STORE_%u(%s, %u * t + g, out);\n", k, shuffle_cases[c].call, c);
    kt_append(source, "    INFO(info, g);\n}\n");
}

/* The index a case's function is given in lane `lane` of group `grp`. */
static size_t case_index(unsigned c, size_t w, size_t lane, size_t grp, size_t r)
{
    switch (shuffle_cases[c].kind) {
    case UNIFORM:
        switch (shuffle_cases[c].fn) {
        case SHUFFLE: return (grp * 7 + 3) % w;
        case DOWN: return (grp * 3 + 1) % w;
        case UP: return (grp * 3 + 2) % w;
        case XOR: return (grp * 5 + 1) % w;
        }
        break;
    case CONSTANT: return shuffle_cases[c].fn == XOR ? 1 : 0;
    case RANDOM: return r;
    case PERMUTED: return (lane * 5 + 3) % w;
    case REVERSED: return w - 1 - lane;
    case ZERO: return 0;
    case LAST: return w - 1;
    }
    return 0;
}

/*
 * The source of case c in lane `lane`: the lane of the sub-group it reads
 * and whether it reads x (false) or y (true); false when the index is out
 * of range.
 */
static bool case_source(unsigned c, size_t w, size_t lane, size_t index, size_t *from, bool *y)
{
    *y = false;
    switch (shuffle_cases[c].fn) {
    case SHUFFLE: *from = index; return index < w;
    case XOR: *from = lane ^ index; return *from < w;
    case DOWN:
        *from = lane + index;
        *y = *from >= w;
        *from -= *y ? w : 0;
        return lane + index < 2 * w;
    case UP: {
        long j = (long)lane - (long)index;
        *y = j < 0;
        *from = (size_t)(j < 0 ? j + (long)w : j);
        return j >= -(long)w && j < (long)w;
    }
    }
    return false;
}

static void check_shuffles(const struct type *t, unsigned k, size_t total, size_t local,
                           const void *a, const void *b, const cl_uint *random, const void *out,
                           const cl_uint *info)
{
    char what[64];
    snprintf(what, sizeof what, "shuffles of %s%u", t->name, k);
    size_t w = width_of(info, total, local, what);
    if (!w)
        return;
    for (unsigned c = 0; c < NUM_SHUFFLE_CASES; c++)
        for (size_t g = 0; g < total && (k == 1 || shuffle_cases[c].vectors); g++) {
            size_t lane = g % local % w, base = g - lane, from;
            bool y;
            size_t index = case_index(c, w, lane, g / local, random[g] % w);
            if (!case_source(c, w, lane, index, &from, &y))
                continue;
            for (unsigned e = 0; e < k; e++) {
                uint64_t want = get(y ? b : a, t->size, (base + from) * k + e);
                uint64_t got = get(out, t->size, (c * total + g) * k + e);
                if (got != want)
                    KT_FAIL("%s%u %s, W %zu, local %zu, work-item %zu (lane %zu, index %zu), "
                            "element %u: 0x%llx, want 0x%llx (lane %zu of %s)",
                            t->name, k, shuffle_cases[c].call, w, local, g, lane, index, e,
                            (unsigned long long)got, (unsigned long long)want, from, y ? "y" : "x");
            }
        }
}

static void test_shuffles(void)
{
    bool half = kt_has_extension("cl_khr_fp16");
    char *source = kt_format("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n%s%s%s",
                             half ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" : "",
                             vector_source, info_source);
    for (size_t i = 0; i < NUM_SHUFFLE_TYPES; i++)
        for (unsigned j = 0;
             j < shuffle_types[i].num_sizes && (half || shuffle_types[i].type != &t_half); j++) {
            const char *t = shuffle_types[i].type->name;
            unsigned k = shuffle_types[i].sizes[j];
            char vt[16];
            snprintf(vt, sizeof vt, k == 1 ? "%s" : "%s%u", t, k);
            append_shuffle_kernel(&source, t, k, vt);
        }
    cl_program p = kt_build(source, "-cl-std=CL3.0");
    free(source);
    size_t total = shapes[0][0], local = shapes[0][1];
    for (size_t i = 0; i < NUM_SHUFFLE_TYPES; i++)
        for (unsigned j = 0;
             j < shuffle_types[i].num_sizes && (half || shuffle_types[i].type != &t_half); j++) {
            const struct type *t = shuffle_types[i].type;
            unsigned k = shuffle_types[i].sizes[j];
            size_t n = total * k;
            char *a = malloc(n * t->size), *b = malloc(n * t->size);
            char *out = calloc(NUM_SHUFFLE_CASES * n, t->size);
            cl_uint *random = malloc(total * sizeof *random), *info = calloc(3 * total, 4);
            fill_random(a, t->size, t->is_float, n);
            fill_random(b, t->size, t->is_float, n);
            for (size_t g = 0; g < total; g++)
                random[g] = (cl_uint)kt_random();
            struct kt_arg args[] = {{a, n * t->size, false},
                                    {b, n * t->size, false},
                                    {random, total * sizeof *random, false},
                                    {out, NUM_SHUFFLE_CASES * n * t->size, false},
                                    {info, 3 * total * 4, false}};
            char name[64];
            snprintf(name, sizeof name, "shuffle_%s%u", t->name, k);
            if (kt_run_local(p, name, total, &local, args, 5) != CL_SUCCESS)
                KT_FAIL("%s: launch failed", name);
            else
                check_shuffles(t, k, total, local, a, b, random, out, info);
            free(a);
            free(b);
            free(out);
            free(random);
            free(info);
        }
    clReleaseProgram(p);
}

/* --- Broadcast, reductions and scans of char, uchar, short, ushort ----------- */

static const struct type *collective_types[] = {&t_char, &t_uchar, &t_short, &t_ushort};
#define NUM_COLLECTIVE_TYPES (sizeof collective_types / sizeof *collective_types)

enum {
    C_BROADCAST,
    C_REDUCE,
    C_INCLUSIVE = C_REDUCE + 3,
    C_EXCLUSIVE = C_INCLUSIVE + 3,
    C_COUNT = C_EXCLUSIVE + 3
};
static const char *op_names[] = {"add", "min", "max"};

static const char *collective_source =
    "#define COLLECTIVES(T)                                                             \\\n"
    "kernel void collectives_##T(global const T *in, global T *out, global uint *info)  \\\n"
    "{                                                                                  \\\n"
    "    size_t g = get_global_id(0), t = get_global_size(0);                           \\\n"
    "    T x = in[g];                                                                   \\\n"
    "    uint id = (get_group_id(0) * 5 + get_sub_group_id() * 3 + 2) %                 \\\n"
    "              get_sub_group_size();                                                \\\n"
    "    out[0 * t + g] = intel_sub_group_broadcast(x, id);                             \\\n"
    "    out[1 * t + g] = intel_sub_group_reduce_add(x);                                \\\n"
    "    out[2 * t + g] = intel_sub_group_reduce_min(x);                                \\\n"
    "    out[3 * t + g] = intel_sub_group_reduce_max(x);                                \\\n"
    "    out[4 * t + g] = intel_sub_group_scan_inclusive_add(x);                        \\\n"
    "    out[5 * t + g] = intel_sub_group_scan_inclusive_min(x);                        \\\n"
    "    out[6 * t + g] = intel_sub_group_scan_inclusive_max(x);                        \\\n"
    "    out[7 * t + g] = intel_sub_group_scan_exclusive_add(x);                        \\\n"
    "    out[8 * t + g] = intel_sub_group_scan_exclusive_min(x);                        \\\n"
    "    out[9 * t + g] = intel_sub_group_scan_exclusive_max(x);                        \\\n"
    "    INFO(info, g);                                                                 \\\n"
    "}\n"
    "COLLECTIVES(char)\nCOLLECTIVES(uchar)\nCOLLECTIVES(short)\nCOLLECTIVES(ushort)\n";

/* Element i as the value of its type. */
static int64_t value(const struct type *t, const void *p, size_t i)
{
    uint64_t bits = get(p, t->size, i);
    if (t->is_signed && t->size < 8 && (bits >> (8 * t->size - 1)) & 1)
        return (int64_t)(bits | ~0ull << (8 * t->size));
    return (int64_t)bits;
}

/* v in the bits of the type (add wraps). */
static uint64_t bits_of(const struct type *t, int64_t v)
{
    return (uint64_t)v & (~0ull >> (64 - 8 * t->size));
}

static int64_t apply(unsigned op, int64_t a, int64_t b)
{
    return op == 0 ? a + b : op == 1 ? (a < b ? a : b) : (a > b ? a : b);
}

/* The identities of add, min and max in the type. */
static int64_t identity(const struct type *t, unsigned op)
{
    int64_t top = t->is_signed ? (1ll << (8 * t->size - 1)) - 1 : (1ll << (8 * t->size)) - 1;
    int64_t bottom = t->is_signed ? -(1ll << (8 * t->size - 1)) : 0;
    return op == 0 ? 0 : op == 1 ? top : bottom;
}

static void check_collective(const struct type *t, unsigned r, const char *name, size_t w,
                             size_t local, size_t g, const void *out, size_t total, int64_t want)
{
    uint64_t got = get(out, t->size, r * total + g);
    if (got != bits_of(t, want))
        KT_FAIL("intel_sub_group_%s on %s, W %zu, local %zu, work-item %zu: 0x%llx, want 0x%llx",
                name, t->name, w, local, g, (unsigned long long)got,
                (unsigned long long)bits_of(t, want));
}

/* Checks the sub-group of `size` work-items from `first`, sub-group j of group grp. */
static void check_collective_group(const struct type *t, size_t w, size_t local, size_t first,
                                   size_t size, size_t grp, size_t j, const void *in,
                                   const void *out, size_t total)
{
    int64_t reduce[3], scan[3];
    for (unsigned op = 0; op < 3; op++) {
        reduce[op] = scan[op] = identity(t, op);
        for (size_t i = 0; i < size; i++)
            reduce[op] = apply(op, reduce[op], value(t, in, first + i));
    }
    int64_t b = value(t, in, first + (grp * 5 + j * 3 + 2) % size);
    char name[64];
    for (size_t i = 0; i < size; i++) {
        size_t g = first + i;
        check_collective(t, C_BROADCAST, "broadcast", w, local, g, out, total, b);
        for (unsigned op = 0; op < 3; op++) {
            snprintf(name, sizeof name, "scan_exclusive_%s", op_names[op]);
            check_collective(t, C_EXCLUSIVE + op, name, w, local, g, out, total, scan[op]);
            scan[op] = apply(op, scan[op], value(t, in, g));
            snprintf(name, sizeof name, "scan_inclusive_%s", op_names[op]);
            check_collective(t, C_INCLUSIVE + op, name, w, local, g, out, total, scan[op]);
            snprintf(name, sizeof name, "reduce_%s", op_names[op]);
            check_collective(t, C_REDUCE + op, name, w, local, g, out, total, reduce[op]);
        }
    }
}

static void test_collectives(void)
{
    char *source = kt_format("%s%s", info_source, collective_source);
    cl_program p = kt_build(source, "-cl-std=CL3.0");
    free(source);
    for (size_t i = 0; i < NUM_COLLECTIVE_TYPES; i++)
        for (size_t s = 0; s < NUM_SHAPES; s++) {
            const struct type *t = collective_types[i];
            size_t total = shapes[s][0], local = shapes[s][1];
            char *in = malloc(total * t->size), *out = calloc(C_COUNT * total, t->size);
            cl_uint *info = calloc(3 * total, 4);
            fill_random(in, t->size, false, total);
            struct kt_arg args[] = {{in, total * t->size, false},
                                    {out, C_COUNT * total * t->size, false},
                                    {info, 3 * total * 4, false}};
            char name[64];
            snprintf(name, sizeof name, "collectives_%s", t->name);
            size_t w;
            if (kt_run_local(p, name, total, &local, args, 3) != CL_SUCCESS)
                KT_FAIL("%s: launch failed", name);
            else if ((w = width_of(info, total, local, name)) != 0)
                for (size_t grp = 0; grp * local < total; grp++)
                    for (size_t j = 0; j * w < local; j++) {
                        size_t size = local - j * w < w ? local - j * w : w;
                        check_collective_group(t, w, local, grp * local + j * w, size, grp, j, in,
                                               out, total);
                    }
            free(in);
            free(out);
            free(info);
        }
    clReleaseProgram(p);
}

/* --- Block reads and writes, block prefetches ----------------------------- */

/* The block functions: element type, suffix, the value counts. */
static const struct {
    const struct type *type;
    const char *suffix;
    unsigned num_counts;
    unsigned counts[5];
} block_kinds[] = {
    {&t_uint, "", 4, {1, 2, 4, 8}},          {&t_uint, "_ui", 4, {1, 2, 4, 8}},
    {&t_ushort, "_us", 5, {1, 2, 4, 8, 16}}, {&t_uchar, "_uc", 5, {1, 2, 4, 8, 16}},
    {&t_ulong, "_ul", 4, {1, 2, 4, 8}},
};
#define NUM_BLOCK_KINDS (sizeof block_kinds / sizeof *block_kinds)

/* Room after a group's blocks: the largest offset (16 bytes of uchar) and more. */
enum { SLACK = 32 };

/*
 * Sub-group j of group grp reads and writes the block at
 * base = (grp * S + j) * W * K elements (S sub-groups a group) past `off`
 * in global memory, and at j * W * K past `off` in a group's local copy of
 * its region (S * W * K + SLACK elements of the global buffer from
 * grp * S * W * K) and in a local region filled with 0xa5 bytes, which the
 * group then copies out. The values written are those a plain load of
 * `src` gives each work-item.
 */
static const char *block_source =
    "#define SLACK 32\n"
    "#define BLOCK(T, SUF, N, K)                                                        \\\n"
    "kernel void block##SUF##K(global const T *in, global const T *src,                 \\\n"
    "                          global T *rout, global T *wout, global T *lrout,         \\\n"
    "                          global T *lwout, local T *lin, local T *lw, uint off,    \\\n"
    "                          global uint *info)                                       \\\n"
    "{                                                                                  \\\n"
    "    size_t g = get_global_id(0);                                                   \\\n"
    "    uint w = get_max_sub_group_size(), len = get_enqueued_num_sub_groups() * w * K;\\\n"
    "    uint base = get_sub_group_id() * w * K;                                        \\\n"
    "    size_t first = get_group_id(0) * len;                                          \\\n"
    "    STORE_##K(intel_sub_group_block_read##SUF##N(in + first + off + base), g, rout);\\\n"
    "    intel_sub_group_block_write##SUF##N(wout + first + off + base, LOAD_##K(g, src));\\\n"
    "    uint lid = get_local_id(0), ls = get_local_size(0);                            \\\n"
    "    for (uint i = lid; i < len + SLACK; i += ls) {                                 \\\n"
    "        lin[i] = in[first + i];                                                    \\\n"
    "        lw[i] = (T)0xa5a5a5a5a5a5a5a5ul;                                           \\\n"
    "    }                                                                              \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);                                                  \\\n"
    "    STORE_##K(intel_sub_group_block_read##SUF##N(lin + off + base), g, lrout);     \\\n"
    "    intel_sub_group_block_write##SUF##N(lw + off + base, LOAD_##K(g, src));        \\\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);                                                  \\\n"
    "    for (uint i = lid; i < len + SLACK; i += ls)                                   \\\n"
    "        lwout[get_group_id(0) * (len + SLACK) + i] = lw[i];                        \\\n"
    "    INFO(info, g);                                                                 \\\n"
    "}\n"
    /* Every prefetch, at p + off of each buffer; the buffers must stay as they are. */
    "#define PREFETCH(T, SUF, N) intel_sub_group_block_prefetch##SUF##N(T + off)\n"
    "kernel void prefetch(global const uchar *c, global const ushort *s, global const uint *i,\n"
    "                     global const ulong *l, uint off, global uint *ran)\n"
    "{\n"
    "    PREFETCH(c, _uc, ); PREFETCH(c, _uc, 2); PREFETCH(c, _uc, 4); PREFETCH(c, _uc, 8);\n"
    "    PREFETCH(c, _uc, 16);\n"
    "    PREFETCH(s, _us, ); PREFETCH(s, _us, 2); PREFETCH(s, _us, 4); PREFETCH(s, _us, 8);\n"
    "    PREFETCH(s, _us, 16);\n"
    "    PREFETCH(i, _ui, ); PREFETCH(i, _ui, 2); PREFETCH(i, _ui, 4); PREFETCH(i, _ui, 8);\n"
    "    PREFETCH(l, _ul, ); PREFETCH(l, _ul, 2); PREFETCH(l, _ul, 4); PREFETCH(l, _ul, 8);\n"
    "    if (get_global_id(0) % 2)\n" /* and in divergent control flow */
    "        PREFETCH(i, _ui, 8);\n"
    "    ran[get_global_id(0)] = 1;\n"
    "}\n";

/* A block function, its element offset, the launch shape. */
struct block_case {
    const struct type *t;
    const char *suffix;
    unsigned k;
    size_t off, total, local;
};

/* Compares n elements of `got` (of block function `op` on memory `space`) with `want`;
 * reports the first few differences. */
static void compare(const struct block_case *c, const char *op, const char *space, size_t w,
                    const void *got, const void *want, size_t n)
{
    unsigned shown = 0;
    for (size_t e = 0; e < n; e++) {
        uint64_t a = get(got, c->t->size, e), b = get(want, c->t->size, e);
        if (a != b && shown++ < 3)
            KT_FAIL("intel_sub_group_block_%s%s%u (%s, %s), W %zu, local %zu, offset %zu: "
                    "element %zu is 0x%llx, want 0x%llx",
                    op, c->suffix, c->k, c->t->name, space, w, c->local, c->off, e,
                    (unsigned long long)a, (unsigned long long)b);
    }
}

static void run_block(cl_program p, const struct block_case *c)
{
    unsigned sz = c->t->size, k = c->k;
    size_t groups = c->total / c->local;
    /* A group's region is S * W * K elements: at most (local + 31) * K. */
    size_t room = (c->local + 32) * k + SLACK, n_in = groups * room + SLACK;
    size_t n_items = c->total * k;
    char *in = malloc(n_in * sz), *src = malloc(n_items * sz);
    char *rout = calloc(n_items, sz), *lrout = calloc(n_items, sz);
    char *wout = malloc(n_in * sz), *lwout = malloc(n_in * sz);
    cl_uint *info = calloc(3 * c->total, 4);
    fill_random(in, sz, false, n_in);
    fill_random(src, sz, false, n_items);
    memset(wout, 0xa5, n_in * sz);
    memset(lwout, 0x5a, n_in * sz);
    cl_uint off = (cl_uint)c->off;
    struct kt_arg args[] = {{in, n_in * sz, false},       {src, n_items * sz, false},
                            {rout, n_items * sz, false},  {wout, n_in * sz, false},
                            {lrout, n_items * sz, false}, {lwout, n_in * sz, false},
                            {NULL, room * sz, false},     {NULL, room * sz, false},
                            {&off, sizeof off, true},     {info, 3 * c->total * 4, false}};
    char name[64], what[96];
    snprintf(name, sizeof name, "block%s%u", c->suffix, k);
    snprintf(what, sizeof what, "%s, offset %zu", name, c->off);
    size_t w;
    if (kt_run_local(p, name, c->total, &c->local, args, 10) != CL_SUCCESS) {
        KT_FAIL("%s: launch failed", what);
    } else if ((w = width_of(info, c->total, c->local, what)) != 0) {
        size_t per_group = (c->local + w - 1) / w, len = per_group * w * k;
        char *want_r = malloc(n_items * sz), *want_w = malloc(n_in * sz);
        char *want_lw = malloc(n_in * sz);
        memset(want_w, 0xa5, n_in * sz);
        memset(want_lw, 0x5a, n_in * sz);
        memset(want_lw, 0xa5, groups * (len + SLACK) * sz);
        for (size_t g = 0; g < c->total; g++) {
            size_t grp = g / c->local, lid = g % c->local, j = lid / w, lane = lid % w;
            size_t at = grp * len + c->off + j * w * k + lane; /* value 0 of the work-item */
            size_t local_at = grp * (len + SLACK) + c->off + j * w * k + lane;
            for (unsigned e = 0; e < k; e++) {
                memcpy(want_r + (g * k + e) * sz, in + (at + e * w) * sz, sz);
                memcpy(want_w + (at + e * w) * sz, src + (g * k + e) * sz, sz);
                memcpy(want_lw + (local_at + e * w) * sz, src + (g * k + e) * sz, sz);
            }
        }
        compare(c, "read", "__global", w, rout, want_r, n_items);
        compare(c, "write", "__global", w, wout, want_w, n_in);
        compare(c, "read", "__local", w, lrout, want_r, n_items);
        compare(c, "write", "__local", w, lwout, want_lw, n_in);
        free(want_r);
        free(want_w);
        free(want_lw);
    }
    free(in);
    free(src);
    free(rout);
    free(lrout);
    free(wout);
    free(lwout);
    free(info);
}

/* The prefetches at offsets 0 and 1 and at the last whole block of 16 values of 32 lanes. */
static void run_prefetch(cl_program p)
{
    enum { LEN = 32 * 16 + 64 };
    static const unsigned sizes[4] = {1, 2, 4, 8};
    const unsigned offsets[] = {0, 1, 64};
    for (size_t o = 0; o < sizeof offsets / sizeof *offsets; o++) {
        size_t total = shapes[o % NUM_SHAPES][0], local = shapes[o % NUM_SHAPES][1];
        char *data[4], *copy[4];
        for (unsigned b = 0; b < 4; b++) {
            data[b] = malloc(LEN * sizes[b]);
            fill_random(data[b], sizes[b], false, LEN);
            copy[b] = malloc(LEN * sizes[b]);
            memcpy(copy[b], data[b], LEN * sizes[b]);
        }
        cl_uint off = offsets[o], *ran = calloc(total, sizeof *ran);
        struct kt_arg args[] = {{data[0], LEN, false},     {data[1], 2 * LEN, false},
                                {data[2], 4 * LEN, false}, {data[3], 8 * LEN, false},
                                {&off, sizeof off, true},  {ran, total * sizeof *ran, false}};
        if (kt_run_local(p, "prefetch", total, &local, args, 6) != CL_SUCCESS)
            KT_FAIL("prefetch, offset %u: launch failed", off);
        else {
            for (unsigned b = 0; b < 4; b++)
                if (memcmp(data[b], copy[b], LEN * sizes[b]) != 0)
                    KT_FAIL("prefetch, offset %u: the buffer of %u-byte elements changed", off,
                            sizes[b]);
            for (size_t g = 0; g < total; g++)
                if (ran[g] != 1) {
                    KT_FAIL("prefetch, offset %u: work-item %zu did not run", off, g);
                    break;
                }
        }
        for (unsigned b = 0; b < 4; b++) {
            free(data[b]);
            free(copy[b]);
        }
        free(ran);
    }
}

static void test_blocks(void)
{
    char *source = kt_format("%s%s%s", vector_source, info_source, block_source);
    for (size_t i = 0; i < NUM_BLOCK_KINDS; i++)
        for (unsigned j = 0; j < block_kinds[i].num_counts; j++) {
            unsigned k = block_kinds[i].counts[j];
            const char *name = block_kinds[i].type->name, *suffix = block_kinds[i].suffix;
            if (k == 1)
                kt_append(&source, "BLOCK(%s, %s, , 1)\n", name, suffix);
            else
                kt_append(&source, "BLOCK(%s, %s, %u, %u)\n", name, suffix, k, k);
        }
    cl_program p = kt_build(source, "-cl-std=CL3.0");
    free(source);
    for (size_t i = 0; i < NUM_BLOCK_KINDS; i++)
        for (unsigned j = 0; j < block_kinds[i].num_counts; j++)
            for (size_t s = 0; s < NUM_SHAPES; s++) {
                const struct type *t = block_kinds[i].type;
                /* Aligned to 64 bytes, to 16 bytes, to the element only. */
                size_t offsets[] = {0, 16 / t->size, 1};
                for (size_t o = 0; o < 3; o++) {
                    struct block_case c = {
                        t,          block_kinds[i].suffix, block_kinds[i].counts[j],
                        offsets[o], shapes[s][0],          shapes[s][1]};
                    run_block(p, &c);
                }
            }
    run_prefetch(p);
    clReleaseProgram(p);
}

/* --- cl_intel_required_subgroup_size ----------------------------------------- */

/*
 * A kernel requiring size N: each work-item writes W and what the work-item
 * W - 1 - lane of its sub-group has (an xor shuffle with W - 1).
 */
static const char *required_source =
    "#define REQUIRED(N)                                                                \\\n"
    "__attribute__((intel_reqd_sub_group_size(N)))                                      \\\n"
    "kernel void required_##N(global uint *out, global uint *info)                      \\\n"
    "{                                                                                  \\\n"
    "    size_t g = get_global_linear_id();                                             \\\n"
    "    out[g] = intel_sub_group_shuffle_xor((uint)g, get_max_sub_group_size() - 1);   \\\n"
    "    INFO(info, g);                                                                 \\\n"
    "}\n"
    "kernel void unrequired(global uint *out, global uint *info)\n"
    "{\n"
    "    size_t g = get_global_linear_id();\n"
    "    out[g] = intel_sub_group_shuffle_xor((uint)g, get_max_sub_group_size() - 1);\n"
    "    INFO(info, g);\n"
    "}\n"
    "__attribute__((reqd_work_group_size(8, 4, 1)))\n"
    "kernel void rows_of_8(global uint *out, global uint *info)\n"
    "{\n"
    "    size_t g = get_global_linear_id();\n"
    "    out[g] = intel_sub_group_shuffle_xor((uint)g, get_max_sub_group_size() - 1);\n"
    "    INFO(info, g);\n"
    "}\n";

/*
 * Runs kernel `name` over `dim` dimensions (local linear ids in x-major
 * order: sub-groups of consecutive local linear ids) and checks that it ran
 * at width `want`.
 */
static void run_required(cl_program p, const char *name, cl_uint dim, const size_t *global,
                         const size_t *local, size_t want)
{
    size_t total = global[0] * (dim > 1 ? global[1] : 1);
    cl_uint *out = calloc(total, sizeof *out), *info = calloc(3 * total, 4);
    struct kt_arg args[] = {{out, total * sizeof *out, false}, {info, 3 * total * 4, false}};
    if (kt_run_nd(p, name, dim, global, local, args, 2) != CL_SUCCESS) {
        KT_FAIL("%s: launch failed", name);
    } else if (info[0] != want) {
        KT_FAIL("%s: get_max_sub_group_size() is %u, want %zu", name, info[0], want);
    } else {
        for (size_t g = 0; g < total; g++) {
            /* The global linear id of the work-item of local linear id lid in g's group. */
            size_t x = g % global[0], y = g / global[0];
            size_t lid = (y % (dim > 1 ? local[1] : 1)) * local[0] + x % local[0];
            size_t peer = lid ^ (want - 1), px = peer % local[0], py = peer / local[0];
            size_t expect =
                (y - y % (dim > 1 ? local[1] : 1) + py) * global[0] + x - x % local[0] + px;
            if (info[3 * g] != want || info[3 * g + 1] != lid / want ||
                info[3 * g + 2] != lid % want || out[g] != expect) {
                KT_FAIL("%s, W %zu, work-item %zu: W %u, sub-group %u, lane %u, shuffle_xor %u "
                        "(want %zu)",
                        name, want, g, info[3 * g], info[3 * g + 1], info[3 * g + 2], out[g],
                        expect);
                break;
            }
        }
    }
    free(out);
    free(info);
}

/* Checks the queries of kernel `name`: its required sub-group size `want` (0: none), its
 * spill size. */
static void check_kernel_queries(cl_program p, const char *name, size_t want)
{
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    KT_CHECK_CL(err);
    size_t n = 99;
    err = clGetKernelSubGroupInfo(k, kt.dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL,
                                  sizeof n, &n, NULL);
    if (err != CL_SUCCESS || n != want)
        KT_FAIL("%s: CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL: error %d, size %zu, want %zu", name,
                err, n, want);
    cl_ulong spill = 1;
    err = clGetKernelWorkGroupInfo(k, kt.dev, CL_KERNEL_SPILL_MEM_SIZE_INTEL, sizeof spill, &spill,
                                   NULL);
    if (err != CL_SUCCESS)
        KT_FAIL("%s: CL_KERNEL_SPILL_MEM_SIZE_INTEL: error %d", name, err);
    clReleaseKernel(k);
}

static void test_required(void)
{
    unsigned forced = forced_width();
    char *source = kt_format("%s%s", info_source, required_source);
    for (unsigned i = 0; i < num_device_sizes; i++)
        kt_append(&source, "REQUIRED(%zu)\n", device_sizes[i]);
    cl_program p = kt_build(source, "-cl-std=CL3.0");
    free(source);
    size_t global = 128, local = 64;
    for (unsigned i = 0; i < num_device_sizes; i++) {
        char name[32];
        snprintf(name, sizeof name, "required_%zu", device_sizes[i]);
        run_required(p, name, 1, &global, &local, forced ? forced : device_sizes[i]);
        check_kernel_queries(p, name, device_sizes[i]);
    }
    check_kernel_queries(p, "unrequired", 0);
    /* The widest width that divides the rows of 8. */
    size_t global2[2] = {16, 8}, local2[2] = {8, 4};
    run_required(p, "rows_of_8", 2, global2, local2, forced ? forced : 8);
    check_kernel_queries(p, "rows_of_8", 0);
    clReleaseProgram(p);

    /* Sizes the device does not offer fail the build, the log naming the kernel. */
    const size_t unoffered[] = {4, 64, 32};
    for (size_t i = 0; i < sizeof unoffered / sizeof *unoffered; i++) {
        if (offered(unoffered[i]))
            continue;
        char *src = kt_format("__attribute__((intel_reqd_sub_group_size(%zu)))\n"
                              "kernel void wants_%zu(global int *out) { out[0] = 1; }\n"
                              "kernel void fine(global int *out) { out[0] = 2; }\n",
                              unoffered[i], unoffered[i]);
        char *log, name[32];
        snprintf(name, sizeof name, "wants_%zu", unoffered[i]);
        cl_int err = try_build(src, "-cl-std=CL3.0", &log);
        if (err != CL_BUILD_PROGRAM_FAILURE || !strstr(log, name))
            KT_FAIL("intel_reqd_sub_group_size(%zu): clBuildProgram %d, want %d with a log naming "
                    "%s:\n%s",
                    unoffered[i], err, CL_BUILD_PROGRAM_FAILURE, name, log);
        free(log);
        free(src);
    }
}

/* --- Extensions: device lists, macros, pragmas ------------------------------ */

static const char *extensions[] = {
    "cl_intel_subgroups",
    "cl_intel_subgroups_short",
    "cl_intel_subgroups_char",
    "cl_intel_subgroups_long",
    "cl_intel_subgroup_local_block_io",
    "cl_intel_required_subgroup_size",
    "cl_intel_subgroup_buffer_prefetch",
};
#define NUM_EXTENSIONS (sizeof extensions / sizeof *extensions)

static void test_extensions(void)
{
    size_t size = 0;
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_EXTENSIONS, 0, NULL, &size));
    char *list = malloc(size + 2);
    list[0] = ' ';
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_EXTENSIONS, size, list + 1, NULL));
    strcat(list, " ");
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, NULL, &size));
    cl_name_version *v = malloc(size);
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, v, NULL));
    char *source = NULL;
    for (size_t i = 0; i < NUM_EXTENSIONS; i++) {
        char *word = kt_format(" %s ", extensions[i]);
        if (!strstr(list, word))
            KT_FAIL("CL_DEVICE_EXTENSIONS does not list %s", extensions[i]);
        free(word);
        bool found = false;
        for (size_t j = 0; j < size / sizeof *v; j++)
            found |= strcmp(v[j].name, extensions[i]) == 0;
        if (!found)
            KT_FAIL("CL_DEVICE_EXTENSIONS_WITH_VERSION does not list %s", extensions[i]);
        kt_append(&source,
                  "#pragma OPENCL EXTENSION %s : enable\n"
                  "#ifndef %s\n#error %s is not defined\n#endif\n",
                  extensions[i], extensions[i], extensions[i]);
    }
    kt_append(&source, "kernel void k(global int *out) { out[0] = 1; }\n");
    char *log;
    cl_int err = try_build(source, "-cl-std=CL3.0 -Werror", &log);
    if (err != CL_SUCCESS)
        KT_FAIL("the pragmas and macros of the extensions under -Werror: error %d\n%s", err, log);
    free(log);
    free(source);
    free(list);
    free(v);

    size = 0;
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, NULL, &size));
    if (size == 0 || size > sizeof device_sizes || size % sizeof(size_t)) {
        KT_FAIL("CL_DEVICE_SUB_GROUP_SIZES_INTEL: %zu bytes", size);
        return;
    }
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, size, device_sizes, NULL));
    num_device_sizes = (unsigned)(size / sizeof(size_t));
    if (!offered(8) || !offered(16))
        KT_FAIL("CL_DEVICE_SUB_GROUP_SIZES_INTEL does not list 8 and 16");
    for (unsigned i = 0; i < num_device_sizes; i++)
        if (device_sizes[i] != 8 && device_sizes[i] != 16 && device_sizes[i] != 32)
            KT_FAIL("CL_DEVICE_SUB_GROUP_SIZES_INTEL lists %zu", device_sizes[i]);
}

int main(void)
{
    kt_setup();
    test_extensions();
    test_required();
    test_shuffles();
    test_collectives();
    test_blocks();
    return kt_teardown();
}
