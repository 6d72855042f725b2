/* SPDX-License-Identifier: MIT */
/*
 * Work-group collective functions (OpenCL C 3.0 6.15.16): work_group_all,
 * _any, _broadcast (1D, 2D and 3D forms), _reduce, _scan_inclusive and
 * _scan_exclusive with add, min and max, for int, uint, long, ulong,
 * float and double, over 1D, 2D and 3D work-groups, non-uniform last work-groups and
 * work-groups of one work-item, against host references computed per
 * work-group in local linear id order.
 */
#include "kernels.h"

/* The results a work-item writes, one array of `total` values each. */
enum {
    R_REDUCE_ADD,
    R_REDUCE_MIN,
    R_REDUCE_MAX,
    R_INCL_ADD,
    R_INCL_MIN,
    R_INCL_MAX,
    R_EXCL_ADD,
    R_EXCL_MIN,
    R_EXCL_MAX,
    R_BROADCAST,
    R_LOOP, /* three reduce_max in a loop: the max over ids == i (mod 3) */
    NUM_RESULTS = R_LOOP + 3,
};
static const char *result_names[] = {
    "reduce_add",
    "reduce_min",
    "reduce_max",
    "scan_inclusive_add",
    "scan_inclusive_min",
    "scan_inclusive_max",
    "scan_exclusive_add",
    "scan_exclusive_min",
    "scan_exclusive_max",
    "broadcast",
    "loop[0]",
    "loop[1]",
    "loop[2]",
};

/* Every collective once, and one in a loop; T, LOWEST (max's identity) come from -D. */
static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#ifdef HALF\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "#endif\n"
    "kernel void collectives(global const T *in, global const int *pred, global T *out,\n"
    "                        global int *flags, uint total)\n"
    "{\n"
    "    size_t g = get_global_linear_id();\n"
    "    T x = in[g];\n"
    "    out[0 * total + g] = work_group_reduce_add(x);\n"
    "    out[1 * total + g] = work_group_reduce_min(x);\n"
    "    out[2 * total + g] = work_group_reduce_max(x);\n"
    "    out[3 * total + g] = work_group_scan_inclusive_add(x);\n"
    "    out[4 * total + g] = work_group_scan_inclusive_min(x);\n"
    "    out[5 * total + g] = work_group_scan_inclusive_max(x);\n"
    "    out[6 * total + g] = work_group_scan_exclusive_add(x);\n"
    "    out[7 * total + g] = work_group_scan_exclusive_min(x);\n"
    "    out[8 * total + g] = work_group_scan_exclusive_max(x);\n"
    "    size_t bx = (get_group_id(0) * 5 + 2) % get_local_size(0);\n"
    "    size_t by = (get_group_id(1) * 3 + 1) % get_local_size(1);\n"
    "    size_t bz = (get_group_id(2) + 1) % get_local_size(2);\n"
    "    T b;\n"
    "    if (get_work_dim() == 1)\n"
    "        b = work_group_broadcast(x, bx);\n"
    "    else if (get_work_dim() == 2)\n"
    "        b = work_group_broadcast(x, bx, by);\n"
    "    else\n"
    "        b = work_group_broadcast(x, bx, by, bz);\n"
    "    out[9 * total + g] = b;\n"
    "    flags[g] = work_group_all(pred[g]);\n"
    "    flags[total + g] = work_group_any(pred[g]);\n"
    "    for (uint i = 0; i < 3; i++)\n"
    "        out[(10 + i) * total + g] =\n"
    "            work_group_reduce_max(get_local_linear_id() % 3 == i ? x : LOWEST);\n"
    "}\n";

enum type { INT, UINT, LONG, ULONG, FLOAT, DOUBLE, HALF };
static const struct {
    const char *name, *lowest;
    size_t size;
} types[] = {
    {"int", "INT_MIN", 4},          {"uint", "0u", 4},
    {"long", "LONG_MIN", 8},        {"ulong", "0ul", 8},
    {"float", "-INFINITY", 4},      {"double", "-INFINITY", 8},
    {"half", "(half)-INFINITY", 2}, /* with cl_khr_fp16 only */
};

/* Host values: every type held as its own C type in a union. */
union value {
    int32_t i;
    uint32_t u;
    int64_t l;
    uint64_t ul;
    float f;
    double d;
    _Float16 h;
};

static union value load(enum type t, const void *base, size_t i)
{
    union value v = {.ul = 0};
    memcpy(&v, (const char *)base + i * types[t].size, types[t].size);
    return v;
}

static union value add(enum type t, union value a, union value b)
{
    union value r = {.ul = 0};
    switch (t) {
    case INT: r.i = (int32_t)((uint32_t)a.i + (uint32_t)b.i); break;
    case UINT: r.u = a.u + b.u; break;
    case LONG: r.l = (int64_t)((uint64_t)a.l + (uint64_t)b.l); break;
    case ULONG: r.ul = a.ul + b.ul; break;
    case FLOAT: r.f = a.f + b.f; break;
    case DOUBLE: r.d = a.d + b.d; break;
    case HALF: r.h = (_Float16)((float)a.h + (float)b.h); break;
    }
    return r;
}

/* a < b in type t. */
static bool less(enum type t, union value a, union value b)
{
    switch (t) {
    case INT: return a.i < b.i;
    case UINT: return a.u < b.u;
    case LONG: return a.l < b.l;
    case ULONG: return a.ul < b.ul;
    case FLOAT: return a.f < b.f;
    case DOUBLE: return a.d < b.d;
    case HALF: return a.h < b.h;
    }
    return false;
}

static union value vmin(enum type t, union value a, union value b)
{
    return less(t, b, a) ? b : a;
}

static union value vmax(enum type t, union value a, union value b)
{
    return less(t, a, b) ? b : a;
}

/* The identities of min (the largest value) and max (the smallest). */
static union value largest(enum type t)
{
    union value v = {.ul = 0};
    switch (t) {
    case INT: v.i = INT32_MAX; break;
    case UINT: v.u = UINT32_MAX; break;
    case LONG: v.l = INT64_MAX; break;
    case ULONG: v.ul = UINT64_MAX; break;
    case FLOAT: v.f = INFINITY; break;
    case DOUBLE: v.d = INFINITY; break;
    case HALF: v.h = (_Float16)INFINITY; break;
    }
    return v;
}

static union value smallest(enum type t)
{
    union value v = {.ul = 0};
    switch (t) {
    case INT: v.i = INT32_MIN; break;
    case LONG: v.l = INT64_MIN; break;
    case FLOAT: v.f = -INFINITY; break;
    case DOUBLE: v.d = -INFINITY; break;
    case HALF: v.h = (_Float16)-INFINITY; break;
    default: break;
    }
    return v;
}

/*
 * Random inputs: integers over their whole range (add wraps); floats and
 * doubles are multiples of 1/8 below 512 in magnitude, halves integers up to
 * 8, so that every sum of a work-group is exact in any order.
 */
static union value random_value(enum type t)
{
    union value v = {.ul = kt_random()};
    if (t == FLOAT)
        v.f = (float)((int)(kt_random() % 8192) - 4096) / 8.0f;
    else if (t == DOUBLE)
        v.d = (double)((int)(kt_random() % 8192) - 4096) / 8.0;
    else if (t == HALF)
        v.h = (_Float16)((int)(kt_random() % 17) - 8);
    else if (t == INT || t == UINT)
        v.u = (uint32_t)v.ul;
    return v;
}

struct shape {
    cl_uint dim;
    size_t global[3], local[3];
};

static const struct shape shapes[] = {
    {1, {100, 1, 1}, {16, 1, 1}},  /* non-uniform: the last group has 4 */
    {1, {256, 1, 1}, {256, 1, 1}}, /* one full group */
    {1, {7, 1, 1}, {1, 1, 1}},     /* groups of one work-item */
    {1, {1000, 1, 1}, {128, 1, 1}}, {2, {10, 7, 1}, {4, 3, 1}}, /* non-uniform in x and y */
    {2, {16, 16, 1}, {8, 8, 1}},    {2, {3, 3, 1}, {1, 1, 1}},
    {3, {5, 4, 3}, {2, 2, 2}}, /* non-uniform in x and z */
    {3, {8, 4, 4}, {4, 2, 2}},      {3, {3, 2, 2}, {1, 1, 1}},
};

/* Where work-item `g` (global linear id) is: its group's index and its local linear id. */
struct place {
    size_t group, lid;
};

/*
 * For each work-group, the global linear ids of its work-items in local
 * linear id order (members[first[k] ..< first[k + 1]]), and the broadcast
 * target of each group.
 */
struct layout {
    size_t total, num_groups;
    size_t *first, *members, *target;
    struct place *place;
};

static struct layout layout_of(const struct shape *s)
{
    struct layout L;
    size_t groups[3], total = 1, ng = 1;
    for (unsigned d = 0; d < 3; d++) {
        groups[d] = (s->global[d] + s->local[d] - 1) / s->local[d];
        total *= s->global[d];
        ng *= groups[d];
    }
    L.total = total;
    L.num_groups = ng;
    L.first = calloc(ng + 1, sizeof *L.first);
    L.members = malloc(total * sizeof *L.members);
    L.target = malloc(ng * sizeof *L.target);
    L.place = malloc(total * sizeof *L.place);
    for (size_t z = 0; z < s->global[2]; z++)
        for (size_t y = 0; y < s->global[1]; y++)
            for (size_t x = 0; x < s->global[0]; x++) {
                size_t id[3] = {x, y, z}, grp[3], lid[3], size[3];
                for (unsigned d = 0; d < 3; d++) {
                    grp[d] = id[d] / s->local[d];
                    lid[d] = id[d] % s->local[d];
                    size_t left = s->global[d] - grp[d] * s->local[d];
                    size[d] = left < s->local[d] ? left : s->local[d];
                }
                size_t g = (z * s->global[1] + y) * s->global[0] + x;
                L.place[g].group = (grp[2] * groups[1] + grp[1]) * groups[0] + grp[0];
                L.place[g].lid = (lid[2] * size[1] + lid[1]) * size[0] + lid[0];
                L.first[L.place[g].group + 1]++;
                size_t t[3] = {(grp[0] * 5 + 2) % size[0], (grp[1] * 3 + 1) % size[1],
                               (grp[2] + 1) % size[2]};
                L.target[L.place[g].group] = (t[2] * size[1] + t[1]) * size[0] + t[0];
                if (s->dim == 1)
                    L.target[L.place[g].group] = t[0];
            }
    for (size_t k = 0; k < ng; k++)
        L.first[k + 1] += L.first[k];
    for (size_t g = 0; g < total; g++)
        L.members[L.first[L.place[g].group] + L.place[g].lid] = g;
    return L;
}

static void layout_free(struct layout *L)
{
    free(L->first);
    free(L->members);
    free(L->target);
    free(L->place);
}

static bool same(enum type t, union value a, union value b)
{
    return t == FLOAT    ? a.f == b.f
           : t == DOUBLE ? a.d == b.d
           : t == HALF   ? a.h == b.h
                         : memcmp(&a, &b, types[t].size) == 0;
}

static void show(enum type t, union value v, char *buf, size_t size)
{
    switch (t) {
    case INT: snprintf(buf, size, "%d", v.i); break;
    case UINT: snprintf(buf, size, "%u", v.u); break;
    case LONG: snprintf(buf, size, "%lld", (long long)v.l); break;
    case ULONG: snprintf(buf, size, "%llu", (unsigned long long)v.ul); break;
    case FLOAT: snprintf(buf, size, "%a", v.f); break;
    case DOUBLE: snprintf(buf, size, "%a", v.d); break;
    case HALF: snprintf(buf, size, "%a", (double)v.h); break;
    }
}

static void expect(enum type t, const struct shape *s, unsigned r, size_t g, union value want,
                   const void *out, size_t total)
{
    union value got = load(t, out, (size_t)r * total + g);
    if (!same(t, got, want)) {
        char a[64], b[64];
        show(t, got, a, sizeof a);
        show(t, want, b, sizeof b);
        KT_FAIL("%s %s, %uD global (%zu,%zu,%zu) local (%zu,%zu,%zu), work-item %zu: %s, want %s",
                types[t].name, result_names[r], s->dim, s->global[0], s->global[1], s->global[2],
                s->local[0], s->local[1], s->local[2], g, a, b);
    }
}

/* Checks one work-group's results against its reference. */
static void check_group(enum type t, const struct shape *s, const struct layout *L, size_t k,
                        const void *in, const int *pred, const void *out, const int *flags)
{
    size_t n = L->first[k + 1] - L->first[k];
    const size_t *m = L->members + L->first[k];
    union value sum = {.ul = 0}, lo = largest(t), hi = smallest(t), third[3];
    for (unsigned i = 0; i < 3; i++)
        third[i] = smallest(t);
    bool all = true, any = false;
    for (size_t i = 0; i < n; i++) {
        union value x = load(t, in, m[i]);
        sum = add(t, sum, x);
        lo = vmin(t, lo, x);
        hi = vmax(t, hi, x);
        third[i % 3] = vmax(t, third[i % 3], x);
        all &= pred[m[i]] != 0;
        any |= pred[m[i]] != 0;
    }
    union value isum = {.ul = 0}, ilo = largest(t), ihi = smallest(t);
    union value b = load(t, in, m[L->target[k]]);
    for (size_t i = 0; i < n; i++) {
        size_t g = m[i];
        union value x = load(t, in, g);
        expect(t, s, R_EXCL_ADD, g, isum, out, L->total);
        expect(t, s, R_EXCL_MIN, g, ilo, out, L->total);
        expect(t, s, R_EXCL_MAX, g, ihi, out, L->total);
        isum = add(t, isum, x);
        ilo = vmin(t, ilo, x);
        ihi = vmax(t, ihi, x);
        expect(t, s, R_INCL_ADD, g, isum, out, L->total);
        expect(t, s, R_INCL_MIN, g, ilo, out, L->total);
        expect(t, s, R_INCL_MAX, g, ihi, out, L->total);
        expect(t, s, R_REDUCE_ADD, g, sum, out, L->total);
        expect(t, s, R_REDUCE_MIN, g, lo, out, L->total);
        expect(t, s, R_REDUCE_MAX, g, hi, out, L->total);
        expect(t, s, R_BROADCAST, g, b, out, L->total);
        for (unsigned j = 0; j < 3; j++)
            expect(t, s, R_LOOP + j, g, third[j], out, L->total);
        if ((flags[g] != 0) != all || (flags[L->total + g] != 0) != any)
            KT_FAIL("%s all/any, %uD local (%zu,%zu,%zu), work-item %zu: %d %d, want %d %d",
                    types[t].name, s->dim, s->local[0], s->local[1], s->local[2], g, flags[g],
                    flags[L->total + g], all, any);
    }
}

/*
 * Predicates: in a third of the groups all true (any non-zero value), in a
 * third all false, in the rest mixed (one group in two of those with a
 * single true work-item).
 */
static void make_predicates(const struct layout *L, int *pred)
{
    for (size_t k = 0; k < L->num_groups; k++) {
        size_t n = L->first[k + 1] - L->first[k];
        const size_t *m = L->members + L->first[k];
        for (size_t i = 0; i < n; i++) {
            int v;
            switch (k % 3) {
            case 0: v = (int)(kt_random() | 1) * (i % 2 ? -1 : 1); break;
            case 1: v = 0; break;
            default: v = k % 2 ? i == n / 2 : (int)(kt_random() % 2); break;
            }
            pred[m[i]] = v;
        }
    }
}

static void run_type(enum type t)
{
    char options[128];
    snprintf(options, sizeof options, "-cl-std=CL3.0 -DT=%s -DLOWEST=%s%s", types[t].name,
             types[t].lowest, t == HALF ? " -DHALF" : "");
    cl_program p = kt_build(source, options);
    for (size_t si = 0; si < sizeof shapes / sizeof *shapes; si++) {
        const struct shape *s = &shapes[si];
        struct layout L = layout_of(s);
        size_t sz = types[t].size;
        char *in = malloc(L.total * sz), *out = calloc(NUM_RESULTS * L.total, sz);
        int *pred = malloc(L.total * sizeof *pred), *flags = calloc(2 * L.total, sizeof *flags);
        for (size_t g = 0; g < L.total; g++) {
            union value v = random_value(t);
            memcpy(in + g * sz, &v, sz);
        }
        make_predicates(&L, pred);
        cl_uint total = (cl_uint)L.total;
        struct kt_arg args[] = {{in, L.total * sz, false},
                                {pred, L.total * sizeof *pred, false},
                                {out, NUM_RESULTS * L.total * sz, false},
                                {flags, 2 * L.total * sizeof *flags, false},
                                {&total, sizeof total, true}};
        if (kt_run_nd(p, "collectives", s->dim, s->global, s->local, args, 5) != CL_SUCCESS)
            KT_FAIL("%s: launch failed", types[t].name);
        else
            for (size_t k = 0; k < L.num_groups; k++)
                check_group(t, s, &L, k, in, pred, out, flags);
        free(in);
        free(out);
        free(pred);
        free(flags);
        layout_free(&L);
    }
    clReleaseProgram(p);
}

int main(void)
{
    kt_setup();
    cl_bool supported = CL_FALSE;
    KT_CHECK_CL(clGetDeviceInfo(kt.dev, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT,
                                sizeof supported, &supported, NULL));
    if (!supported)
        KT_FAIL("CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT is false");
    for (enum type t = INT; t <= DOUBLE; t++)
        run_type(t);
    /* half under cl_khr_fp16 (on by default; CMakeLists.txt sets LANES_FP16=1 for this test). */
    if (kt_has_extension("cl_khr_fp16"))
        run_type(HALF);
    else
        printf("skip half: no cl_khr_fp16\n");
    return kt_teardown();
}
