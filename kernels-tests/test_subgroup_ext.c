/* SPDX-License-Identifier: MIT */
/*
 * The eight Khronos sub-group extensions (OpenCL C 3.0 6.15.14.x):
 * cl_khr_subgroup_extended_types, _non_uniform_vote, _ballot,
 * _non_uniform_arithmetic, _shuffle, _shuffle_relative, _clustered_reduce
 * and _rotate, every function at every type it takes (vectors of 2 to 16
 * for the broadcasts; half when the device has cl_khr_fp16), against a
 * host model of the active-lane mask. Each
 * function runs in uniform control flow and under a data-dependent branch
 * at every type, and in a loop whose trip count varies per work-item at two
 * types (the last iteration's result is checked, with the lanes still
 * looping as the active ones); those that the whole sub-group must meet
 * (extended types) in uniform flow only; non-uniform broadcasts of vectors
 * at two types per width (see runs_in). Work-groups are of 40 with a last
 * one of 20 (partial sub-groups at W = 16 and 32), and for int also of 24
 * (at W = 32, one sub-group whose maximum size, 24, is no power of two).
 * Sub-groups are the work-items of local ids k * M .. k * M + M - 1, M as
 * the kernel reports get_max_sub_group_size(). Only what the spec defines is
 * checked: a lane whose source lane is inactive or out of range is not.
 */
#include "kernels.h"

enum ext {
    EXTENDED_TYPES,
    VOTE,
    BALLOT,
    ARITHMETIC,
    SHUFFLE,
    SHUFFLE_RELATIVE,
    CLUSTERED,
    ROTATE,
    NUM_EXTS,
};
static const char *ext_names[NUM_EXTS] = {
    "cl_khr_subgroup_extended_types",   "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",           "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",          "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate",
};

enum type { CHAR, UCHAR, SHORT, USHORT, INT, UINT, LONG, ULONG, FLOAT, DOUBLE, HALF, NUM_TYPES };
static const struct {
    const char *name;
    size_t size;
    bool is_signed, is_float;
} types[NUM_TYPES] = {
    {"char", 1, true, false},    {"uchar", 1, false, false}, {"short", 2, true, false},
    {"ushort", 2, false, false}, {"int", 4, true, false},    {"uint", 4, false, false},
    {"long", 8, true, false},    {"ulong", 8, false, false}, {"float", 4, true, true},
    {"double", 8, true, true},   {"half", 2, true, true},
};
#define IS_INT(t) (!types[t].is_float)
#define IS_SMALL(t) ((t) <= USHORT)

/* The three situations a function is called in. */
enum mode { UNIFORM, DIVERGE, LOOP, NUM_MODES };
static const char *mode_names[NUM_MODES] = {"uniform", "divergent", "loop"};

/* Host values: integers as their bits zero-extended, floats as a double. */
typedef union {
    uint64_t u;
    double f;
} value;

static uint64_t mask_of(enum type t)
{
    return types[t].size == 8 ? ~0ull : (1ull << (8 * types[t].size)) - 1;
}

static int64_t signed_of(enum type t, uint64_t u)
{
    unsigned shift = 64 - 8 * (unsigned)types[t].size;
    return (int64_t)(u << shift) >> shift;
}

static value load(enum type t, const void *base, size_t i)
{
    value v = {.u = 0};
    const char *p = (const char *)base + i * types[t].size;
    if (t == FLOAT) {
        float f;
        memcpy(&f, p, sizeof f);
        v.f = f;
    } else if (t == DOUBLE) {
        memcpy(&v.f, p, sizeof v.f);
    } else if (t == HALF) {
        _Float16 h;
        memcpy(&h, p, sizeof h);
        v.f = h;
    } else {
        memcpy(&v.u, p, types[t].size); /* little-endian host */
    }
    return v;
}

static void store(enum type t, void *base, size_t i, value v)
{
    char *p = (char *)base + i * types[t].size;
    if (t == FLOAT) {
        float f = (float)v.f;
        memcpy(p, &f, sizeof f);
    } else if (t == DOUBLE) {
        memcpy(p, &v.f, sizeof v.f);
    } else if (t == HALF) {
        _Float16 h = (_Float16)v.f;
        memcpy(p, &h, sizeof h);
    } else {
        memcpy(p, &v.u, types[t].size);
    }
}

/* The operations of the reductions; the logical ones act on int predicates. */
enum op { ADD, MUL, MIN, MAX, AND, OR, XOR, LAND, LOR, LXOR, NUM_OPS };
static const char *op_names[NUM_OPS] = {"add", "mul", "min",         "max",        "and",
                                        "or",  "xor", "logical_and", "logical_or", "logical_xor"};

static bool less(enum type t, value a, value b)
{
    if (types[t].is_float)
        return a.f < b.f;
    return types[t].is_signed ? signed_of(t, a.u) < signed_of(t, b.u) : a.u < b.u;
}

static value apply(enum type t, enum op op, value a, value b)
{
    value r = {.u = 0};
    bool fl = types[t].is_float;
    switch (op) {
    case ADD:
        if (fl)
            r.f = t == FLOAT  ? (double)((float)a.f + (float)b.f)
                  : t == HALF ? (double)(_Float16)(a.f + b.f) /* rounded once from the exact */
                              : a.f + b.f;
        else
            r.u = (a.u + b.u) & mask_of(t);
        break;
    case MUL:
        if (fl)
            r.f = t == FLOAT  ? (double)((float)a.f * (float)b.f)
                  : t == HALF ? (double)(_Float16)(a.f * b.f)
                              : a.f * b.f;
        else
            r.u = (a.u * b.u) & mask_of(t);
        break;
    case MIN: r = less(t, b, a) ? b : a; break;
    case MAX: r = less(t, a, b) ? b : a; break;
    case AND: r.u = a.u & b.u; break;
    case OR: r.u = a.u | b.u; break;
    case XOR: r.u = a.u ^ b.u; break;
    case LAND: r.u = (a.u != 0) & (b.u != 0); break;
    case LOR: r.u = (a.u != 0) | (b.u != 0); break;
    case LXOR: r.u = (a.u != 0) ^ (b.u != 0); break;
    default: break;
    }
    return r;
}

static value identity(enum type t, enum op op)
{
    value v = {.u = 0};
    bool fl = types[t].is_float;
    switch (op) {
    case MUL:
        if (fl)
            v.f = 1;
        else
            v.u = 1;
        break;
    case MIN:
        if (fl)
            v.f = INFINITY;
        else
            v.u = types[t].is_signed ? mask_of(t) >> 1 : mask_of(t);
        break;
    case MAX:
        if (fl)
            v.f = -INFINITY;
        else
            v.u = types[t].is_signed ? (mask_of(t) >> 1) + 1 : 0;
        break;
    case AND: v.u = mask_of(t); break;
    case LAND: v.u = 1; break;
    default: break;
    }
    return v;
}

/* What a check computes; each is modelled in `expected` below. */
enum fn {
    F_REDUCE,
    F_INCL,
    F_EXCL,
    F_CLUSTER,
    F_BROADCAST,
    F_NU_BROADCAST,
    F_BROADCAST_FIRST,
    F_ELECT,
    F_ALL,
    F_ANY,
    F_ALL_EQUAL,
    F_BALLOT,
    F_INVERSE_BALLOT,
    F_BIT_EXTRACT,
    F_BIT_COUNT,
    F_BIT_INCL,
    F_BIT_EXCL,
    F_FIND_LSB,
    F_FIND_MSB,
    F_EQ_MASK,
    F_GE_MASK,
    F_GT_MASK,
    F_LE_MASK,
    F_LT_MASK,
    F_SHUFFLE,
    F_SHUFFLE_XOR,
    F_SHUFFLE_UP,
    F_SHUFFLE_DOWN,
    F_ROTATE,
    F_CLUSTERED_ROTATE,
};

/* Where a check's result goes: the T results, the uint ones, or the vector ones. */
enum kind { K_T, K_BOOL, K_UINT, K_UINT4, K_VEC };

static const unsigned vec_widths[] = {2, 3, 4, 8, 16};
#define NUM_VEC (sizeof vec_widths / sizeof *vec_widths)
#define VEC_STRIDE 16 /* elements of a vector result slot */

struct check {
    enum ext ext;
    enum fn fn;
    enum op op;
    unsigned cs; /* the cluster size, or the vector width for K_VEC */
    enum kind kind;
    bool uniform; /* must be encountered by the whole sub-group */
    bool loop;    /* also runs in the loop */
    unsigned slot;
    unsigned chunk; /* the kernel it is in */
    char *call;     /* the OpenCL C expression */
};

struct checks {
    struct check list[256];
    unsigned n, t_slots, u_slots, v_slots, chunks;
};

static void add_check(struct checks *c, enum ext ext, enum fn fn, enum op op, unsigned cs,
                      enum kind kind, bool uniform, char *call)
{
    if (c->n == sizeof c->list / sizeof *c->list) {
        fprintf(stderr, "FATAL: more than %u checks\n", c->n);
        exit(1);
    }
    struct check *k = &c->list[c->n++];
    *k = (struct check){
        .ext = ext, .fn = fn, .op = op, .cs = cs, .kind = kind, .uniform = uniform, .call = call};
    if (kind == K_T)
        k->slot = c->t_slots++;
    else if (kind == K_VEC)
        k->slot = c->v_slots++;
    else {
        k->slot = c->u_slots;
        c->u_slots += kind == K_UINT4 ? 4 : 1;
    }
}

/* The operand each operation reads: y for mul (exact products), p for the logical ones. */
static const char *operand(enum op op)
{
    return op == MUL ? "y" : op >= LAND ? "p" : "x";
}

static bool op_takes(enum type t, enum op op)
{
    if (op >= LAND)
        return t == INT;
    if (op >= AND)
        return IS_INT(t);
    return true;
}

/*
 * Checks are compiled in kernels of CHUNK calls, those with vector operands
 * in kernels of VEC_CHUNK of their own (char16 broadcasts at W = 32 cost as
 * much as 40 scalar calls, and more again beside them). The compile time
 * of a kernel grows faster than its number of calls at W = 32 (every call
 * of a type in one kernel per mode takes twice as long), while each kernel
 * has a fixed cost that dominates at W = 1 (kernels of 8 calls take twice
 * as long as of 64); 32 is the fastest at W = 32.
 */
#define CHUNK 32
#define VEC_CHUNK 5

/*
 * Which types' loops hold each function: the loop kernel, with its masks
 * carried around the back edge, costs the most to compile, and its
 * concern, the mask, does not depend on the type. A function of int only
 * is always there; the others at two types each, chosen by the call's text.
 */
static void choose_loop_types(enum type t, struct checks *c)
{
    for (unsigned i = 0; i < c->n; i++) {
        struct check *k = &c->list[i];
        uint32_t h = 2166136261u;
        for (const char *p = k->call; *p; p++)
            h = (h ^ (unsigned char)*p) * 16777619u;
        h %= 20;
        bool reduction = k->fn <= F_CLUSTER;
        if ((reduction && k->op >= LAND) || (k->fn >= F_ELECT && k->fn <= F_LT_MASK &&
                                             k->fn != F_ALL_EQUAL && k->fn != F_BROADCAST_FIRST))
            k->loop = true;
        else if (reduction && k->op >= AND)
            k->loop = (h + t) % 4 == 0; /* of the 8 integer types */
        else
            k->loop = (h + t) % 5 == 0; /* of the 10 types */
    }
}

static void assign_chunks(struct checks *c)
{
    unsigned scalars = 0, vectors = 0;
    for (unsigned i = 0; i < c->n; i++)
        if (c->list[i].kind != K_VEC)
            c->list[i].chunk = scalars++ / CHUNK;
    unsigned first = (scalars + CHUNK - 1) / CHUNK;
    for (unsigned i = 0; i < c->n; i++)
        if (c->list[i].kind == K_VEC)
            c->list[i].chunk = first + vectors++ / VEC_CHUNK;
    c->chunks = first + (vectors + VEC_CHUNK - 1) / VEC_CHUNK;
}

/* The checks of type t among the extensions `on`. */
static void make_checks(enum type t, const bool *on, struct checks *c)
{
    memset(c, 0, sizeof *c);
    static const char *forms[] = {"reduce", "scan_inclusive", "scan_exclusive"};
    if (on[EXTENDED_TYPES]) {
        if (IS_SMALL(t)) {
            for (unsigned f = 0; f < 3; f++)
                for (enum op op = ADD; op <= MAX; op++)
                    if (op != MUL)
                        add_check(c, EXTENDED_TYPES, (enum fn)(F_REDUCE + f), op, 0, K_T, true,
                                  kt_format("sub_group_%s_%s(x)", forms[f], op_names[op]));
            add_check(c, EXTENDED_TYPES, F_BROADCAST, 0, 0, K_T, true,
                      kt_format("sub_group_broadcast(x, bidx)"));
        }
        for (unsigned w = 0; w < NUM_VEC; w++)
            add_check(c, EXTENDED_TYPES, F_BROADCAST, 0, vec_widths[w], K_VEC, true,
                      kt_format("sub_group_broadcast(vload%u(0, va + e * %u), bidx)", vec_widths[w],
                                VEC_STRIDE));
    }
    if (on[VOTE]) {
        if (t == INT) {
            add_check(c, VOTE, F_ELECT, 0, 0, K_BOOL, false, kt_format("sub_group_elect()"));
            add_check(c, VOTE, F_ALL, 0, 0, K_BOOL, false,
                      kt_format("sub_group_non_uniform_all(p)"));
            add_check(c, VOTE, F_ANY, 0, 0, K_BOOL, false,
                      kt_format("sub_group_non_uniform_any(p)"));
        }
        add_check(c, VOTE, F_ALL_EQUAL, 0, 0, K_BOOL, false,
                  kt_format("sub_group_non_uniform_all_equal(q)"));
    }
    if (on[BALLOT]) {
        add_check(c, BALLOT, F_NU_BROADCAST, 0, 0, K_T, false,
                  kt_format("sub_group_non_uniform_broadcast(x, nidx)"));
        add_check(c, BALLOT, F_BROADCAST_FIRST, 0, 0, K_T, false,
                  kt_format("sub_group_broadcast_first(x)"));
        for (unsigned w = 0; w < NUM_VEC; w++)
            add_check(c, BALLOT, F_NU_BROADCAST, 0, vec_widths[w], K_VEC, false,
                      kt_format("sub_group_non_uniform_broadcast(vload%u(0, va + e * %u), nidx)",
                                vec_widths[w], VEC_STRIDE));
        if (t == INT) {
            static const struct {
                enum fn fn;
                enum kind kind;
                const char *call;
            } ballot[] = {
                {F_BALLOT, K_UINT4, "sub_group_ballot(p)"},
                {F_INVERSE_BALLOT, K_BOOL, "sub_group_inverse_ballot(u)"},
                {F_BIT_EXTRACT, K_BOOL, "sub_group_ballot_bit_extract(v, (ix >> 4) % size)"},
                {F_BIT_COUNT, K_UINT, "sub_group_ballot_bit_count(v)"},
                {F_BIT_INCL, K_UINT, "sub_group_ballot_inclusive_scan(v)"},
                {F_BIT_EXCL, K_UINT, "sub_group_ballot_exclusive_scan(v)"},
                {F_FIND_LSB, K_UINT, "sub_group_ballot_find_lsb(v)"},
                {F_FIND_MSB, K_UINT, "sub_group_ballot_find_msb(v)"},
                {F_EQ_MASK, K_UINT4, "get_sub_group_eq_mask()"},
                {F_GE_MASK, K_UINT4, "get_sub_group_ge_mask()"},
                {F_GT_MASK, K_UINT4, "get_sub_group_gt_mask()"},
                {F_LE_MASK, K_UINT4, "get_sub_group_le_mask()"},
                {F_LT_MASK, K_UINT4, "get_sub_group_lt_mask()"},
            };
            for (unsigned i = 0; i < sizeof ballot / sizeof *ballot; i++)
                add_check(c, BALLOT, ballot[i].fn, 0, 0, ballot[i].kind, false,
                          kt_format("%s", ballot[i].call));
        }
    }
    if (on[ARITHMETIC])
        for (unsigned f = 0; f < 3; f++)
            for (enum op op = ADD; op < NUM_OPS; op++)
                if (op_takes(t, op))
                    add_check(c, ARITHMETIC, (enum fn)(F_REDUCE + f), op, 0,
                              op >= LAND ? K_BOOL : K_T, false,
                              kt_format("sub_group_non_uniform_%s_%s(%s)", forms[f], op_names[op],
                                        operand(op)));
    if (on[SHUFFLE]) {
        add_check(c, SHUFFLE, F_SHUFFLE, 0, 0, K_T, false, kt_format("sub_group_shuffle(x, sh)"));
        add_check(c, SHUFFLE, F_SHUFFLE_XOR, 0, 0, K_T, false,
                  kt_format("sub_group_shuffle_xor(x, sx)"));
    }
    if (on[SHUFFLE_RELATIVE]) {
        add_check(c, SHUFFLE_RELATIVE, F_SHUFFLE_UP, 0, 0, K_T, false,
                  kt_format("sub_group_shuffle_up(x, du)"));
        add_check(c, SHUFFLE_RELATIVE, F_SHUFFLE_DOWN, 0, 0, K_T, false,
                  kt_format("sub_group_shuffle_down(x, du)"));
    }
    if (on[CLUSTERED])
        for (unsigned cs = 1; cs <= 32; cs *= 2)
            for (enum op op = ADD; op < NUM_OPS; op++)
                if (op_takes(t, op))
                    add_check(c, CLUSTERED, F_CLUSTER, op, cs, op >= LAND ? K_BOOL : K_T, false,
                              kt_format("sub_group_clustered_reduce_%s(%s, %u)", op_names[op],
                                        operand(op), cs));
    if (on[ROTATE]) {
        add_check(c, ROTATE, F_ROTATE, 0, 0, K_T, false, kt_format("sub_group_rotate(x, delta)"));
        for (unsigned cs = 1; cs <= 32; cs *= 2)
            add_check(c, ROTATE, F_CLUSTERED_ROTATE, 0, cs, K_T, false,
                      kt_format("sub_group_clustered_rotate(x, delta, %u)", cs));
    }
    choose_loop_types(t, c);
    assign_chunks(c);
}

static void free_checks(struct checks *c)
{
    for (unsigned i = 0; i < c->n; i++)
        free(c->list[i].call);
}

/*
 * Whether check k runs in `mode`: those that need the whole sub-group run
 * in uniform flow only, and the loop holds each function at two types. So
 * does every mode for sub_group_non_uniform_broadcast of vectors (each
 * width at two types; its scalars run at every type, and
 * sub_group_broadcast of every vector type in uniform flow): vector
 * broadcasts of char and short cost a third of the compile time at W = 32.
 */
static bool runs_in(const struct check *k, enum mode mode)
{
    if (k->fn == F_NU_BROADCAST && k->kind == K_VEC)
        return k->loop;
    return mode == UNIFORM || (!k->uniform && (mode == DIVERGE || k->loop));
}

/*
 * The checks a kernel holds: those of a chunk, or, when that kernel does
 * not build or launch, those of one part of it (one extension's scalar or
 * vector operands), so that a function missing hides no other.
 */
struct part {
    unsigned chunk;
    int part; /* -1: the whole chunk */
};
#define NUM_PARTS (2 * NUM_EXTS)

static int part_of(const struct check *k)
{
    return 2 * (int)k->ext + (k->kind == K_VEC);
}

/* Whether check k is in kernel `sel` of `mode`. */
static bool selected(const struct check *k, struct part sel, enum mode mode)
{
    return k->chunk == sel.chunk && (sel.part < 0 || part_of(k) == sel.part) && runs_in(k, mode);
}

/* Whether kernel `sel` of `mode` has a check. */
static bool part_runs(const struct checks *c, struct part sel, enum mode mode)
{
    for (unsigned i = 0; i < c->n; i++)
        if (selected(&c->list[i], sel, mode))
            return true;
    return false;
}

/* The kernel's name: <mode>_<chunk> or <mode>_<chunk>_<part>. */
static void kernel_name(char *buf, size_t size, struct part sel, enum mode mode)
{
    if (sel.part < 0)
        snprintf(buf, size, "%s_%u", mode_names[mode], sel.chunk);
    else
        snprintf(buf, size, "%s_%u_%d", mode_names[mode], sel.chunk, sel.part);
}

/*
 * The kernel of `sel` in one mode: each check's call, its result stored per
 * work-item. `i` is the loop's iteration (0 outside the loop): odd
 * iterations read the second half of the inputs. ACTIVE(j) says whether the
 * work-item of global id j runs this call, from the same data the branch
 * and the loop test; nidx, the index of sub_group_non_uniform_broadcast,
 * is the first active lane from bidx on, so it is uniform and active.
 */
static void append_kernel(char **src, const struct checks *c, struct part sel, enum mode mode)
{
    if (!part_runs(c, sel, mode))
        return;
    char name[32];
    kernel_name(name, sizeof name, sel, mode);
    kt_append(src,
              "kernel void %s(global const T *a, global const T *ym, global const T *qs,\n"
              "    global const int *ps, global const uint4 *vs, global const uint *ixs,\n"
              "    global const int *pred, global const int *trip, global const int *rot,\n"
              "    global const uint4 *us, global const T *va, global T *out, global uint *uout,\n"
              "    global T *vout, global uint *info, uint total)\n"
              "{\n"
              "    size_t g = get_global_id(0);\n"
              "    uint lid = get_sub_group_local_id(), size = get_sub_group_size();\n"
              "    uint maxs = get_max_sub_group_size();\n"
              "    size_t base = g - lid, grp = get_group_id(0);\n"
              "    info[4 * g + 0] = get_sub_group_id();\n"
              "    info[4 * g + 1] = lid;\n"
              "    info[4 * g + 2] = size;\n"
              "    info[4 * g + 3] = maxs;\n",
              name);
    if (mode == UNIFORM)
        kt_append(src, "    { const uint i = 0;\n#define ACTIVE(j) 1\n");
    else if (mode == DIVERGE)
        kt_append(src, "    if (pred[g]) { const uint i = 0;\n#define ACTIVE(j) (pred[j] != 0)\n");
    else
        kt_append(src, "    for (uint i = 0; i < (uint)trip[g]; i++) {\n"
                       "#define ACTIVE(j) ((uint)trip[j] > i)\n");
    kt_append(src, "    size_t e = g + (i & 1) * total;\n"
                   "    T x = a[e], y = ym[e], q = qs[e];\n"
                   "    int p = ps[e];\n"
                   "    uint4 v = vs[e], u = us[2 * grp + (i & 1)];\n"
                   "    int delta = rot[2 * grp + (i & 1)];\n"
                   "    uint ix = ixs[e];\n"
                   "    uint bidx = (uint)(grp * 5 + get_sub_group_id() * 3 + 2) %% size;\n"
                   "    uint nidx = bidx;\n");
    for (unsigned i = 0; i < c->n; i++)
        if (selected(&c->list[i], sel, mode) && c->list[i].fn == F_NU_BROADCAST) {
            kt_append(src, "    for (uint k = 0; k < size; k++)\n"
                           "        if (ACTIVE(base + (bidx + k) %% size)) {\n"
                           "            nidx = (bidx + k) %% size;\n"
                           "            break;\n"
                           "        }\n");
            break;
        }
    kt_append(src, "    uint sh = ix %% size, sx = (ix >> 8) %% maxs, du = (ix >> 16) %% maxs;\n");
    for (unsigned i = 0; i < c->n; i++) {
        const struct check *k = &c->list[i];
        if (!selected(k, sel, mode))
            continue;
        const char *guard = "";
        char buf[32];
        if ((k->fn == F_CLUSTER || k->fn == F_CLUSTERED_ROTATE) && k->cs > 1) {
            snprintf(buf, sizeof buf, "if (maxs >= %u) ", k->cs);
            guard = buf;
        }
        switch (k->kind) {
        case K_T:
            kt_append(src, "    %sout[%u * total + g] = %s;\n", guard, k->slot, k->call);
            break;
        case K_BOOL:
        case K_UINT:
            kt_append(src, "    %suout[%u * total + g] = (uint)%s;\n", guard, k->slot, k->call);
            break;
        case K_UINT4:
            kt_append(src,
                      "    { uint4 r_ = %s;\n"
                      "      uout[%u * total + g] = r_.x; uout[%u * total + g] = r_.y;\n"
                      "      uout[%u * total + g] = r_.z; uout[%u * total + g] = r_.w; }\n",
                      k->call, k->slot, k->slot + 1, k->slot + 2, k->slot + 3);
            break;
        case K_VEC:
            kt_append(src, "    vstore%u(%s, 0, vout + (%u * total + g) * %u);\n", k->cs, k->call,
                      k->slot, VEC_STRIDE);
            break;
        }
    }
    kt_append(src, "#undef ACTIVE\n    }\n}\n");
}

/*
 * The launches: full and partial sub-groups (40 at W = 16 and 32), with a
 * non-uniform last work-group (20); for int also work-groups of 24: one
 * sub-group of 24 at W = 32, a maximum size that is no power of two, and a
 * last group of 4. Each work-group size is a compile.
 */
static const struct {
    size_t global, local;
    bool all_types;
} shapes[] = {{100, 40, true}, {100, 24, false}};
#define NUM_SHAPES (sizeof shapes / sizeof *shapes)

/* The inputs of one launch; the per-work-item ones hold two sets (odd loop iterations). */
struct inputs {
    size_t total, groups;
    void *a, *ym, *qs, *va;
    int *ps, *pred, *trip, *rot;
    cl_uint *vs, *ixs, *us;
};

static value random_value(enum type t)
{
    value v = {.u = kt_random() & mask_of(t)};
    if (types[t].is_float) /* sums of 32 exact in any order (in half: integers to 2048) */
        v.f = t == HALF ? (double)((int)(kt_random() % 65) - 32)
                        : (double)((int)(kt_random() % 8193) - 4096);
    return v;
}

/* Inputs drawn per work-group so that sub-groups of any width see all-true, mixed and none. */
static void make_inputs(enum type t, size_t global, size_t local, struct inputs *in)
{
    size_t n = 2 * global, sz = types[t].size;
    in->total = global;
    in->groups = (global + local - 1) / local;
    in->a = malloc(n * sz);
    in->ym = malloc(n * sz);
    in->qs = malloc(n * sz);
    in->va = malloc(n * VEC_STRIDE * sz);
    in->ps = malloc(n * sizeof *in->ps);
    in->pred = malloc(global * sizeof *in->pred);
    in->trip = malloc(global * sizeof *in->trip);
    in->rot = malloc(2 * in->groups * sizeof *in->rot);
    in->vs = malloc(4 * n * sizeof *in->vs);
    in->ixs = malloc(n * sizeof *in->ixs);
    in->us = malloc(8 * in->groups * sizeof *in->us);
    static const double factors[] = {1, 2, -1, 0.5, -2};
    for (size_t e = 0; e < n; e++) {
        size_t g = e % global, grp = g / local;
        store(t, in->a, e, random_value(t));
        value m = random_value(t);
        if (types[t].is_float)
            m.f = factors[kt_random() % 5];
        store(t, in->ym, e, m);
        for (unsigned k = 0; k < VEC_STRIDE; k++)
            store(t, in->va, e * VEC_STRIDE + k, random_value(t));
        /* all_equal: the whole group equal, all but one lane, two values, or signed zeros and a
         * NaN. */
        value q = {.u = (grp * 0x9e3779b9u) & mask_of(t)};
        if (types[t].is_float)
            q.f = (double)grp;
        switch ((grp + e / global) % 4) {
        case 1:
            if (g % local == (grp * 7) % local)
                q = random_value(t);
            break;
        case 2:
            if (kt_random() % 2 == 0)
                break;
            if (types[t].is_float)
                q.f += 1;
            else
                q.u ^= 1;
            break;
        case 3:
            if (types[t].is_float)
                q.f = g % local == (grp * 5) % local ? NAN : kt_random() % 2 ? 0.0 : -0.0;
            break;
        default: break;
        }
        store(t, in->qs, e, q);
        unsigned density = (unsigned)((grp + e / global) % 5); /* quarters of true */
        in->ps[e] = kt_random() % 4 < density ? (int)(kt_random() | 1) : 0;
        for (unsigned k = 0; k < 4; k++) {
            uint32_t bits = (uint32_t)kt_random();
            if (e % 3 == 1) /* sparse: find_lsb and find_msb away from the ends */
                bits &= (uint32_t)kt_random() & (uint32_t)kt_random() & (uint32_t)kt_random();
            in->vs[4 * e + k] = bits;
        }
        in->ixs[e] = (cl_uint)kt_random();
    }
    for (size_t g = 0; g < global; g++) {
        size_t grp = g / local;
        unsigned density = (unsigned)((grp + 2) % 5);
        in->pred[g] = kt_random() % 4 < density || (density == 0 && g % local == 3);
        in->trip[g] = grp % 3 == 0 ? 2 : (int)(kt_random() % 4);
    }
    for (size_t k = 0; k < 2 * in->groups; k++) {
        in->rot[k] = (int)(kt_random() % 141) - 70;
        for (unsigned c = 0; c < 4; c++)
            in->us[4 * k + c] = (cl_uint)kt_random();
    }
}

static void free_inputs(struct inputs *in)
{
    free(in->a);
    free(in->ym);
    free(in->qs);
    free(in->va);
    free(in->ps);
    free(in->pred);
    free(in->trip);
    free(in->rot);
    free(in->vs);
    free(in->ixs);
    free(in->us);
}

/* One sub-group in one iteration: lanes 0 .. n - 1, which are active, and where their inputs are.
 */
struct sub_group {
    enum type t;
    const struct inputs *in;
    size_t n, grp, sgid, first; /* first: the global id of lane 0 */
    unsigned M, it;
    bool act[32];
    size_t e[32];
};

static value lane_value(const struct sub_group *s, enum op op, size_t k)
{
    if (op == MUL)
        return load(s->t, s->in->ym, s->e[k]);
    if (op >= LAND) {
        value v = {.u = s->in->ps[s->e[k]] != 0};
        return v;
    }
    return load(s->t, s->in->a, s->e[k]);
}

static value fold(const struct sub_group *s, enum op op, size_t from, size_t to)
{
    value r = identity(s->t, op);
    for (size_t k = from; k < to && k < s->n; k++)
        if (s->act[k])
            r = apply(s->t, op, r, lane_value(s, op, k));
    return r;
}

/* The bits of a uint4 at lanes [from, to). */
static unsigned count_bits(const cl_uint *v, unsigned from, unsigned to)
{
    unsigned n = 0;
    for (unsigned b = from; b < to && b < 128; b++)
        n += (v[b / 32] >> (b % 32)) & 1;
    return n;
}

static void set_bits(cl_uint *v, unsigned from, unsigned to)
{
    for (unsigned b = from; b < to && b < 128; b++)
        v[b / 32] |= 1u << (b % 32);
}

static size_t first_active(const struct sub_group *s)
{
    for (size_t k = 0; k < s->n; k++)
        if (s->act[k])
            return k;
    return s->n;
}

/* The source lane of a shuffle or rotation, or s->n when the result is undefined. */
static size_t source_lane(const struct sub_group *s, const struct check *c, size_t l)
{
    size_t ix = s->in->ixs[s->e[l]], M = s->M, src = s->n;
    long delta = s->in->rot[2 * s->grp + (s->it & 1)];
    switch (c->fn) {
    case F_SHUFFLE: src = ix % s->n; break;
    case F_SHUFFLE_XOR: src = l ^ ((ix >> 8) % M); break;
    case F_SHUFFLE_UP:
        if ((ix >> 16) % M <= l)
            src = l - (ix >> 16) % M;
        break;
    case F_SHUFFLE_DOWN: src = l + (ix >> 16) % M; break;
    case F_ROTATE:
        /* (lid + delta) mod M: a negative delta is ambiguous unless M is a power of two. */
        if (delta >= 0 || (M & (M - 1)) == 0)
            src = (size_t)(((long)l + delta) % (long)M + (long)M) % M;
        break;
    case F_CLUSTERED_ROTATE: {
        size_t c0 = l / c->cs * c->cs;
        src = c0 + (size_t)((((long)(l - c0) + delta) % (long)c->cs + (long)c->cs) % (long)c->cs);
        break;
    }
    default: break;
    }
    return src < s->n && s->act[src] ? src : s->n;
}

/* What lane l's result must be: false when the spec leaves it undefined. */
static bool expected(const struct sub_group *s, const struct check *c, size_t l, value *want,
                     cl_uint want4[4])
{
    enum type t = s->t;
    size_t e = s->e[l];
    const cl_uint *v = s->in->vs + 4 * e;
    memset(want4, 0, 4 * sizeof *want4);
    want->u = 0;
    switch (c->fn) {
    case F_REDUCE: *want = fold(s, c->op, 0, s->n); return true;
    case F_INCL: *want = fold(s, c->op, 0, l + 1); return true;
    case F_EXCL: *want = fold(s, c->op, 0, l); return true;
    case F_CLUSTER:
        if (c->cs > s->M)
            return false;
        *want = fold(s, c->op, l / c->cs * c->cs, l / c->cs * c->cs + c->cs);
        return true;
    case F_BROADCAST:
    case F_NU_BROADCAST: {
        size_t b = (s->grp * 5 + s->sgid * 3 + 2) % s->n;
        if (c->fn == F_NU_BROADCAST)
            for (size_t k = 0; k < s->n; k++)
                if (s->act[(b + k) % s->n]) {
                    b = (b + k) % s->n;
                    break;
                }
        want->u = b; /* K_VEC: the lane; checked by the caller */
        if (c->kind == K_T)
            *want = load(t, s->in->a, s->e[b]);
        return true;
    }
    case F_BROADCAST_FIRST: *want = load(t, s->in->a, s->e[first_active(s)]); return true;
    case F_ELECT: want->u = l == first_active(s); return true;
    case F_ALL:
    case F_ANY: {
        bool all = true, any = false;
        for (size_t k = 0; k < s->n; k++)
            if (s->act[k]) {
                all &= s->in->ps[s->e[k]] != 0;
                any |= s->in->ps[s->e[k]] != 0;
            }
        want->u = c->fn == F_ALL ? all : any;
        return true;
    }
    case F_ALL_EQUAL: {
        value q0 = load(t, s->in->qs, s->e[first_active(s)]);
        bool eq = true;
        unsigned active = 0;
        for (size_t k = 0; k < s->n; k++)
            if (s->act[k]) {
                value q = load(t, s->in->qs, s->e[k]);
                eq &= types[t].is_float ? q.f == q0.f : q.u == q0.u;
                active++;
            }
        /* One active lane holding a NaN: equal to itself or not, the spec does not say. */
        if (active == 1 && types[t].is_float && isnan(q0.f))
            return false;
        want->u = eq;
        return true;
    }
    case F_BALLOT:
        for (size_t k = 0; k < s->n; k++)
            if (s->act[k] && s->in->ps[s->e[k]] != 0)
                set_bits(want4, (unsigned)k, (unsigned)k + 1);
        return true;
    case F_INVERSE_BALLOT: {
        const cl_uint *u = s->in->us + 4 * (2 * s->grp + (s->it & 1));
        want->u = count_bits(u, (unsigned)l, (unsigned)l + 1);
        return true;
    }
    case F_BIT_EXTRACT: {
        unsigned i = (unsigned)((s->in->ixs[e] >> 4) % s->n);
        want->u = count_bits(v, i, i + 1);
        return true;
    }
    case F_BIT_COUNT: want->u = count_bits(v, 0, s->M); return true;
    case F_BIT_INCL: want->u = count_bits(v, 0, (unsigned)l + 1); return true;
    case F_BIT_EXCL: want->u = count_bits(v, 0, (unsigned)l); return true;
    case F_FIND_LSB:
    case F_FIND_MSB:
        if (!count_bits(v, 0, s->M))
            return false;
        for (unsigned b = 0; b < s->M; b++)
            if (count_bits(v, b, b + 1)) {
                want->u = b;
                if (c->fn == F_FIND_LSB)
                    break;
            }
        return true;
    case F_EQ_MASK: set_bits(want4, (unsigned)l, (unsigned)l + 1); return true;
    case F_GE_MASK: set_bits(want4, (unsigned)l, s->M); return true;
    case F_GT_MASK: set_bits(want4, (unsigned)l + 1, s->M); return true;
    case F_LE_MASK: set_bits(want4, 0, (unsigned)l + 1); return true;
    case F_LT_MASK: set_bits(want4, 0, (unsigned)l); return true;
    case F_SHUFFLE:
    case F_SHUFFLE_XOR:
    case F_SHUFFLE_UP:
    case F_SHUFFLE_DOWN:
    case F_ROTATE:
    case F_CLUSTERED_ROTATE: {
        if (c->fn == F_CLUSTERED_ROTATE && c->cs > s->M)
            return false;
        size_t src = source_lane(s, c, l);
        if (src == s->n)
            return false;
        *want = load(t, s->in->a, s->e[src]);
        return true;
    }
    }
    return false;
}

static void show(enum type t, value v, char *buf, size_t size)
{
    if (types[t].is_float)
        snprintf(buf, size, "%g", v.f);
    else if (types[t].is_signed)
        snprintf(buf, size, "%lld", (long long)signed_of(t, v.u));
    else
        snprintf(buf, size, "%llu", (unsigned long long)v.u);
}

/* Mismatches per check, type and mode; the first few of each are printed. */
struct tally {
    unsigned run[NUM_EXTS], failed[NUM_EXTS];
};
static struct tally tally;
static char *failed_list;

struct launch {
    enum type t;
    enum mode mode;
    size_t global, local;
};

static void mismatch(const struct launch *L, const struct sub_group *s, const struct check *c,
                     size_t l, unsigned *count, const char *got, const char *want)
{
    if (++*count <= 3)
        fprintf(stderr,
                "FAIL %s, %s, %s, W %u, global %zu local %zu, group %zu sub-group %zu (size %zu) "
                "lane %zu iteration %u: got %s, want %s\n",
                c->call, types[L->t].name, mode_names[L->mode], s->M, L->global, L->local, s->grp,
                s->sgid, s->n, l, s->it, got, want);
    kt_failures++;
}

/* Compares lane l's result of check c with the model. */
static void check_lane(const struct launch *L, const struct sub_group *s, const struct check *c,
                       size_t l, const void *out, const cl_uint *uout, const void *vout,
                       unsigned *count)
{
    enum type t = L->t;
    size_t g = s->first + l, total = s->in->total;
    value want;
    cl_uint want4[4];
    if (!expected(s, c, l, &want, want4))
        return;
    char a[160], b[160];
    switch (c->kind) {
    case K_T: {
        value got = load(t, out, c->slot * total + g);
        bool same = types[t].is_float ? got.f == want.f : got.u == want.u;
        if (!same) {
            show(t, got, a, sizeof a);
            show(t, want, b, sizeof b);
            mismatch(L, s, c, l, count, a, b);
        }
        break;
    }
    case K_BOOL:
        if ((uout[c->slot * total + g] != 0) != (want.u != 0)) {
            snprintf(a, sizeof a, "%u", uout[c->slot * total + g]);
            mismatch(L, s, c, l, count, a, want.u ? "true" : "false");
        }
        break;
    case K_UINT:
        if (uout[c->slot * total + g] != want.u) {
            snprintf(a, sizeof a, "%u", uout[c->slot * total + g]);
            snprintf(b, sizeof b, "%llu", (unsigned long long)want.u);
            mismatch(L, s, c, l, count, a, b);
        }
        break;
    case K_UINT4: {
        cl_uint got[4];
        for (unsigned k = 0; k < 4; k++)
            got[k] = uout[(c->slot + k) * total + g];
        if (memcmp(got, want4, sizeof got)) {
            snprintf(a, sizeof a, "(%#x,%#x,%#x,%#x)", got[0], got[1], got[2], got[3]);
            snprintf(b, sizeof b, "(%#x,%#x,%#x,%#x)", want4[0], want4[1], want4[2], want4[3]);
            mismatch(L, s, c, l, count, a, b);
        }
        break;
    }
    case K_VEC: {
        size_t src = s->e[want.u] * VEC_STRIDE, at = (c->slot * total + g) * VEC_STRIDE;
        for (unsigned k = 0; k < c->cs; k++) {
            value w = load(t, s->in->va, src + k), got = load(t, vout, at + k);
            if (types[t].is_float ? got.f != w.f : got.u != w.u) {
                char sa[64], sb[64];
                show(t, got, sa, sizeof sa);
                show(t, w, sb, sizeof sb);
                snprintf(a, sizeof a, "%s in component %u", sa, k);
                mismatch(L, s, c, l, count, a, sb);
                break;
            }
        }
        break;
    }
    }
}

/* Which lanes of sub-group s run the call in iteration `it`. */
static void activate(struct sub_group *s, enum mode mode, unsigned it)
{
    s->it = it;
    for (size_t k = 0; k < s->n; k++) {
        size_t g = s->first + k;
        s->act[k] = mode == UNIFORM   ? true
                    : mode == DIVERGE ? s->in->pred[g] != 0
                                      : (unsigned)s->in->trip[g] > it;
        s->e[k] = g + (it & 1) * s->in->total;
    }
}

/* Checks every result of kernel `sel` in one launch, sub-group by sub-group. */
static void check_launch(const struct launch *L, const struct checks *cs, struct part sel,
                         const struct inputs *in, const void *out, const cl_uint *uout,
                         const void *vout, const cl_uint *info)
{
    unsigned counts[256] = {0};
    for (size_t grp = 0; grp < in->groups; grp++) {
        size_t start = grp * L->local;
        size_t n = in->total - start < L->local ? in->total - start : L->local;
        unsigned M = info[4 * start + 3];
        if (M < 1 || M > 32) {
            KT_FAIL("%s %s: get_max_sub_group_size() is %u", types[L->t].name, mode_names[L->mode],
                    M);
            return;
        }
        for (size_t sg = 0; sg * M < n; sg++) {
            struct sub_group s = {.t = L->t, .in = in, .grp = grp, .sgid = sg, .M = M};
            s.first = start + sg * M;
            s.n = n - sg * M < M ? n - sg * M : M;
            bool layout_ok = true;
            for (size_t l = 0; l < s.n; l++) {
                const cl_uint *q = info + 4 * (s.first + l);
                if (q[0] != sg || q[1] != l || q[2] != s.n || q[3] != M)
                    layout_ok = false;
            }
            if (!layout_ok) {
                KT_FAIL("%s %s, global %zu local %zu, group %zu: the sub-group queries disagree "
                        "with sub-groups of M = %u",
                        types[L->t].name, mode_names[L->mode], L->global, L->local, grp, M);
                continue;
            }
            for (size_t l = 0; l < s.n; l++) {
                size_t g = s.first + l;
                if (L->mode == DIVERGE && !in->pred[g])
                    continue;
                if (L->mode == LOOP && in->trip[g] == 0)
                    continue;
                activate(&s, L->mode, L->mode == LOOP ? (unsigned)in->trip[g] - 1 : 0);
                for (unsigned i = 0; i < cs->n; i++)
                    if (selected(&cs->list[i], sel, L->mode))
                        check_lane(L, &s, &cs->list[i], l, out, uout, vout, &counts[i]);
            }
        }
    }
    for (unsigned i = 0; i < cs->n; i++) {
        const struct check *c = &cs->list[i];
        if (!selected(c, sel, L->mode))
            continue;
        tally.run[c->ext]++;
        if (counts[i]) {
            tally.failed[c->ext]++;
            kt_append(&failed_list, "  %s  %s  %s  global %zu local %zu: %u lane(s)\n", c->call,
                      types[L->t].name, mode_names[L->mode], L->global, L->local, counts[i]);
        }
    }
}

/* Builds `source`; NULL when it does not build, with the log's first lines printed. */
static cl_program build(const char *source, const char *options)
{
    cl_int err;
    cl_program p = clCreateProgramWithSource(kt.ctx, 1, &source, NULL, &err);
    KT_CHECK_CL(err);
    if (clBuildProgram(p, 1, &kt.dev, options, NULL, NULL) == CL_SUCCESS)
        return p;
    char log[2048] = "";
    clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed (%s):\n%s\n", options, log);
    clReleaseProgram(p);
    return NULL;
}

/* Records that the checks of kernel `sel` in `mode` could not run. */
static void record_broken(const struct checks *cs, struct part sel, enum mode mode, enum type t,
                          const char *what)
{
    unsigned n = 0, first = 0;
    for (unsigned i = 0; i < cs->n; i++)
        if (selected(&cs->list[i], sel, mode)) {
            if (!n++)
                first = i;
            tally.run[cs->list[i].ext]++;
            tally.failed[cs->list[i].ext]++;
        }
    if (!n)
        return;
    const struct check *c = &cs->list[first];
    KT_FAIL("%s, %s, %s: the kernel of %u calls from %s %s", ext_names[c->ext], types[t].name,
            mode_names[mode], n, c->call, what);
    kt_append(&failed_list, "  %u calls from %s  %s  %s: %s\n", n, c->call, types[t].name,
              mode_names[mode], what);
}

/* The source of type t's kernels: every chunk in every mode, or the parts of one. */
static char *program_source(const struct checks *cs, int chunk, bool t_is_half)
{
    char *src = kt_format("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n%s",
                          t_is_half ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" : "");
    for (unsigned k = 0; k < cs->chunks; k++)
        for (enum mode m = UNIFORM; m < NUM_MODES; m++) {
            if (chunk < 0)
                append_kernel(&src, cs, (struct part){k, -1}, m);
            else if ((unsigned)chunk == k)
                for (int x = 0; x < NUM_PARTS; x++)
                    append_kernel(&src, cs, (struct part){k, x}, m);
        }
    return src;
}

/* Runs kernel `sel` of `mode` over `in` and checks it; false when it does not launch. */
static bool run_kernel(enum type t, cl_program p, const struct checks *cs, struct part sel,
                       enum mode m, const struct inputs *in, size_t local)
{
    size_t sz = types[t].size, global = in->total, n = 2 * global;
    size_t t_bytes = (cs->t_slots + 1) * global * sz;
    size_t u_bytes = (cs->u_slots + 1) * global * sizeof(cl_uint);
    size_t v_bytes = (cs->v_slots + 1) * global * VEC_STRIDE * sz;
    void *out = malloc(t_bytes), *vout = malloc(v_bytes);
    cl_uint *uout = malloc(u_bytes), *info = malloc(4 * global * sizeof *info);
    memset(out, 0xa5, t_bytes);
    memset(vout, 0xa5, v_bytes);
    memset(uout, 0xa5, u_bytes);
    memset(info, 0xff, 4 * global * sizeof *info);
    cl_uint total = (cl_uint)global;
    struct kt_arg args[] = {
        {in->a, n * sz, false},
        {in->ym, n * sz, false},
        {in->qs, n * sz, false},
        {in->ps, n * sizeof *in->ps, false},
        {in->vs, 4 * n * sizeof *in->vs, false},
        {in->ixs, n * sizeof *in->ixs, false},
        {in->pred, global * sizeof *in->pred, false},
        {in->trip, global * sizeof *in->trip, false},
        {in->rot, 2 * in->groups * sizeof *in->rot, false},
        {in->us, 8 * in->groups * sizeof *in->us, false},
        {in->va, n * VEC_STRIDE * sz, false},
        {out, t_bytes, false},
        {uout, u_bytes, false},
        {vout, v_bytes, false},
        {info, 4 * global * sizeof *info, false},
        {&total, sizeof total, true},
    };
    char name[32];
    kernel_name(name, sizeof name, sel, m);
    struct launch L = {t, m, global, local};
    bool ok = kt_run_local(p, name, global, &local, args, 16) == CL_SUCCESS;
    if (ok)
        check_launch(&L, cs, sel, in, out, uout, vout, info);
    free(out);
    free(vout);
    free(uout);
    free(info);
    return ok;
}

/*
 * Checks type t over every shape, in the extensions `on`: one program of
 * one kernel per chunk and mode; a chunk whose program does not build or
 * whose kernel does not launch is run again as one kernel per part.
 */
static void run_type(enum type t, const bool *on)
{
    struct checks *cs = malloc(sizeof *cs);
    make_checks(t, on, cs);
    if (!cs->n) {
        free(cs);
        return;
    }
    char options[64];
    snprintf(options, sizeof options, "-cl-std=CL3.0 -DT=%s", types[t].name);
    char *src = program_source(cs, -1, t == HALF);
    cl_program whole = build(src, options);
    free(src);
    /* Per chunk and mode: whether it runs as parts; per part, whether it is broken. */
    bool *split = calloc(cs->chunks * NUM_MODES, sizeof *split);
    bool *broken = calloc(cs->chunks * NUM_MODES * NUM_PARTS, sizeof *broken);
    cl_program *parts = calloc(cs->chunks, sizeof *parts);
    for (unsigned k = 0; k < cs->chunks; k++)
        for (enum mode m = UNIFORM; m < NUM_MODES; m++)
            split[k * NUM_MODES + m] = !whole;
    for (size_t si = 0; si < NUM_SHAPES; si++) {
        if (!shapes[si].all_types && t != INT)
            continue;
        struct inputs in;
        make_inputs(t, shapes[si].global, shapes[si].local, &in);
        for (enum mode m = UNIFORM; m < NUM_MODES; m++)
            for (unsigned k = 0; k < cs->chunks; k++) {
                struct part sel = {k, -1};
                if (!part_runs(cs, sel, m))
                    continue;
                if (!split[k * NUM_MODES + m] &&
                    run_kernel(t, whole, cs, sel, m, &in, shapes[si].local))
                    continue;
                split[k * NUM_MODES + m] = true;
                if (!parts[k]) {
                    src = program_source(cs, (int)k, t == HALF);
                    parts[k] = build(src, options);
                    free(src);
                }
                for (sel.part = 0; sel.part < NUM_PARTS; sel.part++) {
                    bool *b = &broken[(k * NUM_MODES + m) * NUM_PARTS + (unsigned)sel.part];
                    if (*b || !part_runs(cs, sel, m))
                        continue;
                    *b = !parts[k] || !run_kernel(t, parts[k], cs, sel, m, &in, shapes[si].local);
                    if (*b)
                        record_broken(cs, sel, m, t,
                                      parts[k] ? "does not launch" : "does not build");
                }
            }
        free_inputs(&in);
    }
    if (whole)
        clReleaseProgram(whole);
    for (unsigned k = 0; k < cs->chunks; k++)
        if (parts[k])
            clReleaseProgram(parts[k]);
    free(parts);
    free(split);
    free(broken);
    free_checks(cs);
    free(cs);
}

int main(void)
{
    kt_setup();
    if (!kt_has_feature("__opencl_c_subgroups")) {
        KT_FAIL("the device does not report __opencl_c_subgroups");
        return kt_teardown();
    }
    bool on[NUM_EXTS], any = false;
    for (unsigned x = 0; x < NUM_EXTS; x++) {
        on[x] = kt_has_extension(ext_names[x]);
        any |= on[x];
        if (!on[x])
            printf("skip %s: not listed by the device\n", ext_names[x]);
    }
    /* Sub-groups without any of their extensions: they are expected by now. */
    if (!any)
        KT_FAIL("the device lists __opencl_c_subgroups but none of the eight sub-group extensions");
    /* half under cl_khr_fp16 (on by default; CMakeLists.txt sets LANES_FP16=1 for this test). */
    bool half = kt_has_extension("cl_khr_fp16");
    if (!half)
        printf("skip half: no cl_khr_fp16\n");
    for (enum type t = CHAR; t < NUM_TYPES; t++)
        if (t != HALF || half)
            run_type(t, on);
    /* A check: one function at one type in one mode over one launch. */
    printf("%-40s %-8s %8s %8s\n", "extension", "listed", "checks", "failed");
    for (unsigned x = 0; x < NUM_EXTS; x++)
        printf("%-40s %-8s %8u %8u\n", ext_names[x], on[x] ? "yes" : "no", tally.run[x],
               tally.failed[x]);
    if (failed_list) {
        fprintf(stderr, "failing (call, type, mode, launch):\n%s", failed_list);
        free(failed_list);
    }
    return kt_teardown();
}
