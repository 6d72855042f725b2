/* SPDX-License-Identifier: MIT */
/*
 * SIMT reference tester of the sub-group functions: random structured
 * kernels, each run by Lanes at W = 8, 16 and 32 and by a lock-step emulator
 * written here in C, their outputs compared bit for bit. Unlike difftest,
 * which compares widths with one another and so can only check identities
 * that hold for any set of lanes, the emulator says which lanes take part in
 * every sub-group operation and what each of them gets.
 *
 * The rule emulated: a sub-group operation runs with the lanes that reach it
 * together in SIMT order, in the same iteration of every enclosing loop and
 * on the same side of every branch. A sub-group is W consecutive local
 * linear ids of a work-group (local linear id = lid.y * lsize.x + lid.x,
 * over the work-group's own size when the range is not a multiple of it;
 * sub-group id = llid / W, sub-group local id = llid % W), so the last one
 * of a work-group may be partial (docs/architecture.md, the width policy).
 *
 * A kernel is a tree (blocks of assignments, if/else, for and do-while
 * loops with uniform and lane-dependent trip counts, break, continue and
 * early return, expressions of wrapping uint arithmetic that may call
 * sub-group functions anywhere); it is printed as OpenCL C and run by the
 * emulator one sub-group at a time, each statement for a mask of active
 * lanes: an `if` runs its then-side with the lanes taking it, then its
 * else-side with the others; a loop runs iteration by iteration with the
 * lanes still in it, and a block that leaves it (break, return) runs in the
 * iteration that takes it with only those lanes; `continue` lanes rejoin at
 * the next iteration. An expression is evaluated for all active lanes at
 * once, so a sub-group function sees exactly the active lanes.
 *
 * Generated kernels stay defined: results the specifications leave
 * undefined are masked off inside the kernel, with the lanes' own ballot
 * (a shuffle from an inactive lane, a clustered reduction over a cluster
 * with inactive lanes, find_lsb of an empty ballot), and the functions that
 * need the whole sub-group (sub_group_reduce_*, scans, broadcast, all, any,
 * Intel's shuffles) are generated in sub-group-uniform control flow only;
 * the emulator checks that they run with every lane of their sub-group and
 * draws the kernel again when they would not.
 *
 * As difftest does, this process never loads OpenCL (LANES_WIDTH is read
 * once per process): it forks a child per width that runs every kernel
 * through the ICD loader into memory it shares with the parent. The width a
 * kernel ran at is what it reads from get_max_sub_group_size() (a kernel the
 * vectorizer refuses runs at 1); the emulator runs at that width. A mismatch
 * is printed (seed, width, shape, source, the first differing work-items),
 * written out with its tree and reduced: statements dropped, branches and
 * expressions simplified, the launch made smaller, while it still fails.
 * `--kernel FILE` runs such a file again.
 */
#include "kernels.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NV 4        /* variables v0..v3 of each work-item */
#define SL (NV + 1) /* output words a work-item: the variables, the width it saw */
#define NIN 4096    /* input words, NV per work-item */
#define MAX_ITEMS (NIN / NV)
#define MAX_LOOPS 12
#define SENTINEL 0xa5a5a5a5u
#define MAX_CASES 100000

/* ---- Options ---- */

/* Device capabilities: which extensions the generator may use. */
enum cap {
    C_SUBGROUPS, /* __opencl_c_subgroups: the uniform functions */
    C_ARITH,     /* cl_khr_subgroup_non_uniform_arithmetic */
    C_BALLOT,
    C_VOTE,
    C_SHUFFLE,
    C_RELATIVE,
    C_CLUSTERED,
    C_ROTATE,
    C_EXTENDED, /* cl_khr_subgroup_extended_types */
    C_INTEL,
    NUM_CAPS
};

static const char *const cap_names[NUM_CAPS] = {
    "__opencl_c_subgroups",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_rotate",
    "cl_khr_subgroup_extended_types",
    "cl_intel_subgroups",
};

static struct {
    uint64_t seed;
    unsigned count;
    unsigned widths[4];
    unsigned num_widths;
    unsigned jobs;
    unsigned depth;
    bool verbose;
    bool keep_going;
    bool no_exit_paths; /* no sub-group function in a block that leaves a loop */
    bool no_reduce;
    bool no_classify;
    bool two_d;
    uint32_t caps; /* what the device offers, less --no-CAP */
    uint32_t no_caps;
    const char *kernel; /* --kernel: a file written by a failure (its tree line) */
} opt = {
    .seed = 1,
    .count = 100,
    .widths = {8, 16, 32},
    .num_widths = 3,
    .depth = 3,
    .two_d = true,
};

/* ---- Random numbers (splitmix64: the same sequence on every host) ---- */

struct rng {
    uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static unsigned below(struct rng *r, unsigned n)
{
    return n ? (unsigned)(rng_next(r) % n) : 0;
}

static bool chance(struct rng *r, unsigned percent)
{
    return below(r, 100) < percent;
}

/* ---- Types of the sub-group functions' operands ---- */

enum type { T_CHAR, T_UCHAR, T_SHORT, T_USHORT, T_INT, T_UINT, T_LONG, T_ULONG, NUM_TYPES };
static const struct {
    const char *name;
    unsigned bits;
    bool is_signed;
} types[NUM_TYPES] = {
    {"char", 8, true}, {"uchar", 8, false}, {"short", 16, true}, {"ushort", 16, false},
    {"int", 32, true}, {"uint", 32, false}, {"long", 64, true},  {"ulong", 64, false},
};

/* A value of type t, sign- or zero-extended to 64 bits. */
static int64_t norm(enum type t, uint64_t x)
{
    unsigned b = types[t].bits;
    if (b == 64)
        return (int64_t)x;
    x &= (1ull << b) - 1;
    if (types[t].is_signed && x >> (b - 1))
        x |= ~0ull << b;
    return (int64_t)x;
}

/* The operand the kernel passes: (T)(e), 64-bit types through W64 to fill their bits. */
static int64_t to_type(enum type t, uint32_t e)
{
    return norm(t, types[t].bits == 64 ? (uint64_t)e * 0x9e3779b97f4a7c15u : e);
}

/* The uint the kernel makes of a result: (uint)(r), F64 for 64-bit types. */
static uint32_t from_type(enum type t, int64_t r)
{
    uint64_t u = (uint64_t)r;
    return types[t].bits == 64 ? (uint32_t)(u ^ (u >> 32)) : (uint32_t)u;
}

enum arith { A_ADD, A_MIN, A_MAX, A_MUL, A_AND, A_OR, A_XOR, A_LAND, A_LOR, A_LXOR, NUM_ARITH };
static const char *const arith_names[NUM_ARITH] = {
    "add", "min", "max", "mul", "and", "or", "xor", "logical_and", "logical_or", "logical_xor"};

static int64_t arith_identity(enum arith a, enum type t)
{
    unsigned b = types[t].bits;
    bool s = types[t].is_signed;
    switch (a) {
    case A_MIN: return s ? (int64_t)((1ull << (b - 1)) - 1) : norm(t, ~0ull);
    case A_MAX: return s ? norm(t, 1ull << (b - 1)) : 0;
    case A_MUL:
    case A_LAND: return 1;
    case A_AND: return norm(t, ~0ull);
    default: return 0;
    }
}

static int64_t arith_apply(enum arith a, enum type t, int64_t x, int64_t y)
{
    bool s = types[t].is_signed;
    switch (a) {
    case A_ADD: return norm(t, (uint64_t)x + (uint64_t)y);
    case A_MUL: return norm(t, (uint64_t)x * (uint64_t)y);
    case A_MIN: return (s ? x < y : (uint64_t)x < (uint64_t)y) ? x : y;
    case A_MAX: return (s ? x > y : (uint64_t)x > (uint64_t)y) ? x : y;
    case A_AND: return x & y;
    case A_OR: return x | y;
    case A_XOR: return x ^ y;
    case A_LAND: return (x != 0) && (y != 0);
    case A_LOR: return (x != 0) || (y != 0);
    case A_LXOR: return (x != 0) != (y != 0);
    default: abort();
    }
}

/* ---- Programs: trees ---- */

/* Ids a work-item reads; the first ID_UNIFORM ones are the same in a whole sub-group. */
enum id {
    ID_SGID,
    ID_SGSIZE,
    ID_MAXSG,
    ID_GRP,
    ID_UNIFORM,
    ID_SGLID = ID_UNIFORM,
    ID_LLID,
    ID_GID,
    ID_LX,
    ID_LY,
    ID_EQ,
    ID_GE,
    ID_GT,
    ID_LE,
    ID_LT,
    NUM_IDS
};
static const char *const id_src[NUM_IDS] = {
    "get_sub_group_id()",
    "get_sub_group_size()",
    "get_max_sub_group_size()",
    "GRP",
    "get_sub_group_local_id()",
    "LLID",
    "GID",
    "(uint)get_local_id(0)",
    "(uint)get_local_id(1)",
    "get_sub_group_eq_mask().x",
    "get_sub_group_ge_mask().x",
    "get_sub_group_gt_mask().x",
    "get_sub_group_le_mask().x",
    "get_sub_group_lt_mask().x",
};

enum binop { B_ADD, B_SUB, B_MUL, B_XOR, B_AND, B_OR, B_SHL, B_SHR, B_LT, B_EQ, B_NE, NUM_BINOPS };
static const char *const binop_src[NUM_BINOPS] = {"+",  "-",  "*", "^",  "&", "|",
                                                  "<<", ">>", "<", "==", "!="};

/*
 * Families of sub-group functions. fn selects within one; a, b, c are the
 * operands (see print_op for each), val a constant delta or ballot, cs a
 * cluster size. The F_U_ and F_INTEL families need the whole sub-group.
 */
enum fam {
    F_REDUCE,  /* sub_group_non_uniform_reduce_<arith>(T a) */
    F_SCAN_IN, /* sub_group_non_uniform_scan_inclusive_<arith> */
    F_SCAN_EX,
    F_CLUSTER, /* sub_group_clustered_reduce_<arith>(T a, cs), guarded: a full cluster */
    F_BALLOT,  /* fn: ballot_fn */
    F_VOTE,    /* fn: all, any, all_equal(T a), elect */
    F_BCAST,   /* fn: broadcast_first, non_uniform_broadcast to the lowest, highest lane */
    F_SHUF,    /* fn: shuf_fn, guarded: the source lane active */
    F_U_REDUCE,
    F_U_SCAN_IN,
    F_U_SCAN_EX,
    F_U_BCAST, /* sub_group_broadcast(T a, uniform b % size) */
    F_U_VOTE,  /* sub_group_all, sub_group_any */
    F_INTEL,   /* fn: intel shuffle, xor, down, up */
    NUM_FAMS
};
static const char *const fam_names[NUM_FAMS] = {"reduce",
                                                "scan-inclusive",
                                                "scan-exclusive",
                                                "clustered",
                                                "ballot",
                                                "vote",
                                                "broadcast",
                                                "shuffle",
                                                "uniform-reduce",
                                                "uniform-scan-inclusive",
                                                "uniform-scan-exclusive",
                                                "uniform-broadcast",
                                                "uniform-vote",
                                                "intel-shuffle"};

enum ballot_fn {
    BA_COUNT,
    BA_INCL,
    BA_EXCL,
    BA_LSB,
    BA_MSB,
    BA_EXTRACT,
    BA_BITS,
    BA_INVERSE,
    BA_INVERSE_CONST,
    NUM_BALLOT_FNS
};
enum shuf_fn { SH_IDX, SH_XOR, SH_UP, SH_DOWN, SH_ROTATE, SH_CROTATE, NUM_SHUF_FNS };

enum ekind { E_CONST, E_VAR, E_LOOP, E_ID, E_BIN, E_OP };

struct expr {
    enum ekind kind;
    unsigned op; /* binop, id, variable, loop, or family */
    unsigned fn, type, cs;
    uint32_t val;
    struct expr *a, *b, *c;
};

enum skind { S_ASSIGN, S_IF, S_FOR, S_DO, S_BREAK, S_CONTINUE, S_RETURN };

struct block {
    struct stmt **s;
    unsigned n;
};

struct stmt {
    enum skind kind;
    unsigned var, mix; /* S_ASSIGN: v<var> = (mix) e */
    unsigned loop;     /* S_FOR, S_DO: counter i<loop>, bound n<loop> */
    struct expr *e;    /* value, condition or trip count */
    struct block body, els;
};

static struct expr *enew(enum ekind k, unsigned op)
{
    struct expr *e = calloc(1, sizeof *e);
    e->kind = k;
    e->op = op;
    return e;
}

static struct expr *ecopy(const struct expr *e)
{
    if (!e)
        return NULL;
    struct expr *c = malloc(sizeof *c);
    *c = *e;
    c->a = ecopy(e->a);
    c->b = ecopy(e->b);
    c->c = ecopy(e->c);
    return c;
}

static void efree(struct expr *e)
{
    if (!e)
        return;
    efree(e->a);
    efree(e->b);
    efree(e->c);
    free(e);
}

static void bfree(struct block *b);

static void sfree(struct stmt *s)
{
    efree(s->e);
    bfree(&s->body);
    bfree(&s->els);
    free(s);
}

static void bfree(struct block *b)
{
    for (unsigned i = 0; i < b->n; i++)
        sfree(b->s[i]);
    free(b->s);
    b->s = NULL;
    b->n = 0;
}

static struct block bcopy_(const struct block *b);

static struct stmt *scopy(const struct stmt *s)
{
    struct stmt *c = malloc(sizeof *c);
    *c = *s;
    c->e = ecopy(s->e);
    c->body = bcopy_(&s->body);
    c->els = bcopy_(&s->els);
    return c;
}

static struct block bcopy_(const struct block *b)
{
    struct block c = {b->n ? calloc(b->n, sizeof *c.s) : NULL, b->n};
    for (unsigned i = 0; i < b->n; i++)
        c.s[i] = scopy(b->s[i]);
    return c;
}

static void bpush(struct block *b, struct stmt *s)
{
    b->s = realloc(b->s, (b->n + 1) * sizeof *b->s);
    b->s[b->n++] = s;
}

/* ---- Generator ---- */

struct gen {
    struct rng r;
    unsigned loops;                /* counters named so far */
    unsigned scope[MAX_LOOPS];     /* counters readable here, innermost last */
    bool scope_uniform[MAX_LOOPS]; /* the same in the whole sub-group */
    unsigned num_scope;
    bool uniform;   /* every lane of the sub-group runs this point */
    bool ops;       /* sub-group functions may be called here */
    bool sensitive; /* prefer functions whose result tells every active lane apart */
};

static bool has(enum cap c)
{
    return opt.caps >> c & 1;
}

static struct expr *gen_expr(struct gen *g, unsigned depth, bool uniform_only);

static struct expr *constant(struct gen *g)
{
    static const uint32_t special[] = {0,           1,           2,           3,  7,
                                       0xffffffffu, 0x80000000u, 0xfffffffdu, 31, 16};
    struct expr *e = enew(E_CONST, 0);
    e->val = chance(&g->r, 40) ? special[below(&g->r, 10)] : below(&g->r, 40);
    return e;
}

static struct expr *leaf(struct gen *g, bool uniform_only)
{
    unsigned loops = 0, uniform_loops[MAX_LOOPS];
    for (unsigned i = 0; i < g->num_scope; i++)
        if (!uniform_only || g->scope_uniform[i])
            uniform_loops[loops++] = g->scope[i];
    for (;;) {
        unsigned k = below(&g->r, 10);
        if (k < 2)
            return constant(g);
        if (k < 4 && loops)
            return enew(E_LOOP, uniform_loops[below(&g->r, loops)]);
        if (k < 6 && !uniform_only)
            return enew(E_VAR, below(&g->r, NV));
        if (k >= 6) {
            unsigned id;
            if (uniform_only)
                id = below(&g->r, ID_UNIFORM);
            else if (chance(&g->r, 60))
                id = ID_SGLID;
            else
                id = below(&g->r, has(C_BALLOT) ? NUM_IDS : ID_EQ);
            return enew(E_ID, id);
        }
    }
}

static enum type pick_type(struct gen *g, bool uniform_fn)
{
    if (uniform_fn && !has(C_EXTENDED))
        return T_INT + below(&g->r, 4);
    return chance(&g->r, 60) ? T_INT + below(&g->r, 2) : below(&g->r, NUM_TYPES);
}

static bool fam_ok(struct gen *g, enum fam f)
{
    switch (f) {
    case F_REDUCE:
    case F_SCAN_IN:
    case F_SCAN_EX: return has(C_ARITH);
    case F_CLUSTER: return has(C_CLUSTERED) && has(C_BALLOT);
    case F_BALLOT:
    case F_BCAST: return has(C_BALLOT);
    case F_VOTE: return has(C_VOTE);
    case F_SHUF: return has(C_BALLOT) && (has(C_SHUFFLE) || has(C_RELATIVE) || has(C_ROTATE));
    case F_INTEL: return g->uniform && has(C_INTEL) && has(C_BALLOT);
    default: return g->uniform && has(C_SUBGROUPS);
    }
}

static struct expr *gen_op(struct gen *g, unsigned depth)
{
    struct rng *r = &g->r;
    enum fam f;
    unsigned tries = 0;
    do
        f = g->sensitive && chance(r, 90)
                ? (enum fam[]){F_REDUCE, F_SCAN_IN, F_SCAN_EX, F_BALLOT}[below(r, 4)]
                : below(r, NUM_FAMS);
    while (!fam_ok(g, f) && ++tries < 1000);
    if (tries == 1000)
        return leaf(g, false);
    struct expr *e = enew(E_OP, f);
    unsigned sub = depth ? depth - 1 : 0;
    if (g->sensitive && g->num_scope && chance(r, 60)) {
        /* A value of the lane's own and of the iteration: the result tells both apart. */
        e->a = enew(E_BIN, B_ADD);
        e->a->a = chance(r, 50) ? enew(E_VAR, below(r, NV)) : enew(E_ID, ID_SGLID);
        e->a->b = enew(E_LOOP, g->scope[g->num_scope - 1]);
    } else {
        e->a = gen_expr(g, sub, false);
    }
    switch (f) {
    case F_REDUCE:
    case F_SCAN_IN:
    case F_SCAN_EX:
        e->fn = g->sensitive ? (enum arith[]){A_ADD, A_MIN, A_MAX, A_XOR, A_OR}[below(r, 5)]
                             : below(r, NUM_ARITH);
        e->type = e->fn >= A_LAND ? T_INT : pick_type(g, false);
        break;
    case F_CLUSTER:
        e->fn = below(r, A_LAND);
        e->type = pick_type(g, false);
        e->cs = 1u << below(r, 4);
        break;
    case F_BALLOT:
        e->fn = g->sensitive ? (enum ballot_fn[]){BA_COUNT, BA_INCL, BA_EXCL, BA_BITS}[below(r, 4)]
                             : below(r, NUM_BALLOT_FNS);
        if (e->fn == BA_EXTRACT)
            e->b = gen_expr(g, sub, false);
        e->val = (uint32_t)rng_next(r);
        break;
    case F_VOTE:
        e->fn = below(r, 4);
        e->type = pick_type(g, false);
        break;
    case F_BCAST:
        e->fn = below(r, 3);
        e->type = pick_type(g, false);
        break;
    case F_SHUF:
        do
            e->fn = below(r, NUM_SHUF_FNS);
        while (!(e->fn <= SH_XOR    ? has(C_SHUFFLE)
                 : e->fn <= SH_DOWN ? has(C_RELATIVE)
                                    : has(C_ROTATE)));
        e->type = pick_type(g, false);
        if (e->fn <= SH_DOWN)
            e->b = chance(r, 70) || e->fn > SH_XOR ? gen_expr(g, 0, true) : gen_expr(g, sub, false);
        e->val = below(r, 40);
        e->cs = 1u << below(r, 4);
        break;
    case F_U_REDUCE:
    case F_U_SCAN_IN:
    case F_U_SCAN_EX:
        e->fn = below(r, 3);
        e->type = pick_type(g, true);
        break;
    case F_U_BCAST:
        e->type = pick_type(g, true);
        e->b = gen_expr(g, sub, true);
        break;
    case F_U_VOTE: e->fn = below(r, 2); break;
    case F_INTEL:
        e->fn = below(r, 4);
        e->type = T_INT + below(r, 2);
        e->b = gen_expr(g, sub, false);
        e->c = gen_expr(g, 0, chance(r, 50));
        break;
    default: abort();
    }
    return e;
}

static struct expr *gen_expr(struct gen *g, unsigned depth, bool uniform_only)
{
    if (!uniform_only && g->ops && depth > 0 && chance(&g->r, 20))
        return gen_op(g, depth);
    if (depth == 0 || chance(&g->r, 25))
        return leaf(g, uniform_only);
    /* Comparisons less often: their 0 or 1 hides what the lanes computed. */
    static const enum binop ops[] = {B_ADD, B_SUB, B_MUL, B_XOR, B_AND, B_OR, B_SHL,
                                     B_SHR, B_ADD, B_XOR, B_LT,  B_EQ,  B_NE};
    struct expr *e = enew(E_BIN, ops[below(&g->r, sizeof ops / sizeof *ops)]);
    e->a = gen_expr(g, depth - 1, uniform_only);
    e->b = gen_expr(g, depth - 1, uniform_only);
    return e;
}

/* A condition: often (x & m) == k, so that both sides get lanes. */
/*
 * A condition: often (x & m) == k, so that both sides get lanes; with
 * `counter`, x adds the innermost loop's counter, so that lanes take the
 * branch in different iterations.
 */
static struct expr *gen_cond(struct gen *g, bool uniform_only, bool counter)
{
    struct expr *x = gen_expr(g, 2, uniform_only);
    if (counter) {
        struct expr *sum = enew(E_BIN, B_ADD);
        sum->a = x;
        sum->b = enew(E_LOOP, g->scope[g->num_scope - 1]);
        x = sum;
    } else if (chance(&g->r, 40)) {
        return x;
    }
    struct expr *m = enew(E_BIN, B_AND), *e = enew(E_BIN, chance(&g->r, 70) ? B_EQ : B_LT);
    m->a = x;
    m->b = enew(E_CONST, 0);
    m->b->val = (1u << (1 + below(&g->r, 3))) - 1;
    e->a = m;
    e->b = enew(E_CONST, 0);
    e->b->val = below(&g->r, m->b->val + 1);
    return e;
}

enum { J_LOOP = 1, J_RET = 2 }; /* jumps a statement makes: to its loop, out of the kernel */

static unsigned gen_block(struct gen *g, struct block *b, unsigned depth, unsigned len);

static struct stmt *snew(enum skind k)
{
    struct stmt *s = calloc(1, sizeof *s);
    s->kind = k;
    return s;
}

static struct stmt *gen_assign(struct gen *g, bool op)
{
    struct stmt *s = snew(S_ASSIGN);
    s->var = below(&g->r, NV);
    s->mix = chance(&g->r, 10) ? 0 : 1 + below(&g->r, 3); /* rarely overwrite */
    s->e = op && g->ops ? gen_op(g, 2) : gen_expr(g, 3, false);
    return s;
}

/* A statement; *jumps gets the jumps it makes. */
static struct stmt *gen_stmt(struct gen *g, unsigned depth, unsigned *jumps)
{
    struct rng *r = &g->r;
    *jumps = 0;
    unsigned k = below(r, 100);
    if (depth == 0 || k < 25)
        return gen_assign(g, false);
    if (k < 45)
        return gen_assign(g, true);
    bool uniform = g->uniform, ops = g->ops;
    if (k < 72 || g->loops >= MAX_LOOPS || g->num_scope >= 3) {
        struct stmt *s = snew(S_IF);
        bool uniform_cond = g->uniform && chance(r, 35);
        /* The then-side may end with a jump: the exit path of a loop, or a return. */
        enum skind jump = S_ASSIGN;
        if (g->num_scope && chance(r, 45))
            jump = (enum skind[]){S_BREAK, S_BREAK, S_CONTINUE, S_RETURN}[below(r, 4)];
        else if (chance(r, 8))
            jump = S_RETURN;
        s->e = gen_cond(g, uniform_cond,
                        jump != S_ASSIGN && g->num_scope && !uniform_cond && chance(r, 60));
        g->uniform = uniform && uniform_cond;
        bool exits = g->num_scope && (jump == S_BREAK || jump == S_RETURN);
        if (exits && opt.no_exit_paths)
            g->ops = false;
        /* The pattern under test: a sub-group function just before the jump. */
        if (jump != S_ASSIGN && g->ops && chance(r, 70)) {
            g->sensitive = true;
            bpush(&s->body, gen_assign(g, true));
            g->sensitive = false;
        }
        *jumps |= gen_block(g, &s->body, depth - 1, 1 + below(r, 2));
        if (jump != S_ASSIGN) {
            if (g->ops && chance(r, 40))
                bpush(&s->body, gen_assign(g, true));
            bpush(&s->body, snew(jump));
            *jumps |= jump == S_RETURN ? J_RET : J_LOOP;
        }
        g->ops = ops;
        g->uniform = uniform && uniform_cond;
        if (chance(r, 40))
            *jumps |= gen_block(g, &s->els, depth - 1, 1 + below(r, 2));
        g->uniform = uniform && !*jumps;
        return s;
    }
    struct stmt *s = snew(chance(r, 70) ? S_FOR : S_DO);
    s->loop = g->loops++;
    bool uniform_bound = chance(r, 50);
    if (uniform_bound && chance(r, 70)) {
        s->e = enew(E_CONST, 0);
        s->e->val = chance(r, 20) ? below(r, 2) : 2 + below(r, 3);
    } else {
        /* (x & 3) + c, c in 0..1: lanes leave at different iterations. */
        struct expr *m = enew(E_BIN, B_AND), *e = enew(E_BIN, B_ADD);
        m->a = gen_expr(g, 2, uniform_bound);
        m->b = enew(E_CONST, 0);
        m->b->val = 3;
        e->a = m;
        e->b = enew(E_CONST, 0);
        e->b->val = below(r, 2);
        s->e = e;
    }
    g->uniform = uniform && uniform_bound;
    g->scope[g->num_scope] = s->loop;
    g->scope_uniform[g->num_scope++] = g->uniform;
    unsigned j = gen_block(g, &s->body, depth - 1, 1 + below(r, 3));
    g->num_scope--;
    *jumps = j & J_RET;
    g->uniform = uniform && !*jumps;
    return s;
}

/* A block of up to len statements; returns the jumps it makes. */
static unsigned gen_block(struct gen *g, struct block *b, unsigned depth, unsigned len)
{
    unsigned jumps = 0;
    for (unsigned i = 0; i < len; i++) {
        unsigned j;
        bpush(b, gen_stmt(g, depth, &j));
        if (j)
            g->uniform = false; /* some lanes may have left */
        jumps |= j;
    }
    return jumps;
}

static struct block generate(uint64_t seed)
{
    struct gen g = {.r = {seed ^ 0x73696d74u}, .uniform = true, .ops = true};
    struct block b = {0};
    gen_block(&g, &b, opt.depth, 3 + below(&g.r, 3));
    return b;
}

/* ---- Printing: OpenCL C ---- */

static const char preamble[] =
    "#define LLID ((uint)(get_local_id(1) * get_local_size(0) + get_local_id(0)))\n"
    "#define GID ((uint)(get_global_id(1) * get_global_size(0) + get_global_id(0)))\n"
    "#define GRP ((uint)(get_group_id(1) * get_num_groups(0) + get_group_id(0)))\n"
    "#define W64(e) ((ulong)(e) * 0x9e3779b97f4a7c15ul)\n"
    "#define F64(r) ((uint)((ulong)(r) ^ ((ulong)(r) >> 32)))\n"
    "#define MASKIF(g, r) ((uint)(r) & (0u - (uint)((g) != 0)))\n"
    "#define ACTIVE(l) sub_group_ballot_bit_extract(sub_group_ballot(1), (uint)(l) & 127u)\n"
    "#define STORE() (out[GID * 5u] = v0, out[GID * 5u + 1u] = v1, out[GID * 5u + 2u] = v2, \\\n"
    "    out[GID * 5u + 3u] = v3, out[GID * 5u + 4u] = get_max_sub_group_size())\n";

static const char preamble_ballot[] =
    "uint bits(uint4 b) { return b.x ^ ((b.y | b.z | b.w) << 1); }\n"
    "uint full_cluster(uint cs)\n{\n"
    "    uint m = (1u << cs) - 1u;\n"
    "    return (sub_group_ballot(1).x >> (get_sub_group_local_id() & ~(cs - 1u)) & m) == m;\n"
    "}\n";

static void print_expr(char **s, const struct expr *e);

/* (T)(e) */
static void print_arg(char **s, enum type t, const struct expr *e)
{
    kt_append(s, types[t].bits == 64 ? "(%s)W64(" : "(%s)(", types[t].name);
    print_expr(s, e);
    kt_append(s, ")");
}

static void print_op(char **s, const struct expr *e)
{
    enum type t = e->type;
    const char *wrap = types[t].bits == 64 ? "F64(" : "(uint)(";
    switch (e->op) {
    case F_REDUCE:
    case F_SCAN_IN:
    case F_SCAN_EX:
    case F_U_REDUCE:
    case F_U_SCAN_IN:
    case F_U_SCAN_EX: {
        static const char *const what[] = {"reduce", "scan_inclusive", "scan_exclusive"};
        bool uniform = e->op >= F_U_REDUCE;
        unsigned w = e->op - (uniform ? F_U_REDUCE : F_REDUCE);
        bool logical = e->fn >= A_LAND;
        kt_append(s, "%ssub_group_%s%s_%s(", logical ? "(uint)(" : wrap,
                  uniform ? "" : "non_uniform_", what[w], arith_names[e->fn]);
        print_arg(s, t, e->a);
        kt_append(s, logical ? ") != 0)" : "))");
        break;
    }
    case F_CLUSTER:
        kt_append(s, "MASKIF(full_cluster(%uu), %ssub_group_clustered_reduce_%s(", e->cs, wrap,
                  arith_names[e->fn]);
        print_arg(s, t, e->a);
        kt_append(s, ", %u)))", e->cs);
        break;
    case F_BALLOT: {
        static const char *const fn[] = {"bit_count", "inclusive_scan", "exclusive_scan",
                                         "find_lsb", "find_msb"};
        const char *b1 = "sub_group_ballot((int)(";
        switch (e->fn) {
        case BA_COUNT:
        case BA_INCL:
        case BA_EXCL:
            kt_append(s, "sub_group_ballot_%s(%s", fn[e->fn], b1);
            print_expr(s, e->a);
            kt_append(s, ")))");
            break;
        case BA_LSB:
        case BA_MSB:
            kt_append(s, "MASKIF(sub_group_ballot_bit_count(%s", b1);
            print_expr(s, e->a);
            kt_append(s, "))), sub_group_ballot_%s(%s", fn[e->fn], b1);
            print_expr(s, e->a);
            kt_append(s, "))))");
            break;
        case BA_EXTRACT:
            kt_append(s, "(uint)(sub_group_ballot_bit_extract(%s", b1);
            print_expr(s, e->a);
            kt_append(s, ")), (uint)(");
            print_expr(s, e->b);
            kt_append(s, ") & 31u) != 0)");
            break;
        case BA_BITS:
            kt_append(s, "bits(%s", b1);
            print_expr(s, e->a);
            kt_append(s, ")))");
            break;
        case BA_INVERSE:
            kt_append(s, "(uint)(sub_group_inverse_ballot(%s", b1);
            print_expr(s, e->a);
            kt_append(s, "))) != 0)");
            break;
        case BA_INVERSE_CONST:
            /* The operand must be the same in the active lanes: a constant (and a ballot). */
            kt_append(s, "((uint)(sub_group_inverse_ballot((uint4)(%uu, 0u, 0u, 0u)) != 0) + ",
                      e->val);
            print_expr(s, e->a);
            kt_append(s, ")");
            break;
        }
        break;
    }
    case F_VOTE:
        if (e->fn == 3) {
            kt_append(s, "((uint)(sub_group_elect() != 0) ^ ");
            print_expr(s, e->a);
            kt_append(s, ")");
            break;
        }
        kt_append(s, "(uint)(sub_group_non_uniform_%s(",
                  (const char *[]){"all", "any", "all_equal"}[e->fn]);
        if (e->fn == 2)
            print_arg(s, t, e->a);
        else {
            kt_append(s, "(int)(");
            print_expr(s, e->a);
            kt_append(s, ")");
        }
        kt_append(s, ") != 0)");
        break;
    case F_BCAST:
        kt_append(s, "%ssub_group_%s(", wrap, e->fn ? "non_uniform_broadcast" : "broadcast_first");
        print_arg(s, t, e->a);
        if (e->fn)
            kt_append(s, ", sub_group_ballot_find_%s(sub_group_ballot(1))",
                      e->fn == 1 ? "lsb" : "msb");
        kt_append(s, "))");
        break;
    case F_SHUF: {
        /* The source lane, then the call: both print the index expression. */
        char *ix = NULL;
        if (e->b) {
            kt_append(&ix, "((uint)(");
            print_expr(&ix, e->b);
            kt_append(&ix, ") & (get_max_sub_group_size() - 1u))");
        }
        char *src = NULL, *call = NULL, *tail = NULL;
        switch (e->fn) {
        case SH_IDX:
            src = strdup(ix);
            call = strdup("sub_group_shuffle");
            tail = kt_format(", %s)", ix);
            break;
        case SH_XOR:
            src = kt_format("get_sub_group_local_id() ^ %s", ix);
            call = strdup("sub_group_shuffle_xor");
            tail = kt_format(", %s)", ix);
            break;
        case SH_UP:
            src = kt_format("get_sub_group_local_id() - %s", ix);
            call = strdup("sub_group_shuffle_up");
            tail = kt_format(", %s)", ix);
            break;
        case SH_DOWN:
            src = kt_format("get_sub_group_local_id() + %s", ix);
            call = strdup("sub_group_shuffle_down");
            tail = kt_format(", %s)", ix);
            break;
        case SH_ROTATE:
            src = kt_format("(get_sub_group_local_id() + %uu) %% get_max_sub_group_size()", e->val);
            call = strdup("sub_group_rotate");
            tail = kt_format(", %u)", e->val);
            break;
        case SH_CROTATE:
            src = kt_format("(get_sub_group_local_id() & ~%uu) + "
                            "((get_sub_group_local_id() + %uu) & %uu)",
                            e->cs - 1, e->val, e->cs - 1);
            call = strdup("sub_group_clustered_rotate");
            tail = kt_format(", %u, %u)", e->val, e->cs);
            break;
        }
        char *arg = NULL;
        print_arg(&arg, t, e->a);
        char *c = kt_format("%s(%s%s", call, arg, tail);
        kt_append(s, "MASKIF(ACTIVE(%s), %s%s))", src, wrap, c);
        free(ix);
        free(src);
        free(call);
        free(tail);
        free(arg);
        free(c);
        break;
    }
    case F_U_BCAST:
        kt_append(s, "%ssub_group_broadcast(", wrap);
        print_arg(s, t, e->a);
        kt_append(s, ", (uint)(");
        print_expr(s, e->b);
        kt_append(s, ") %% get_sub_group_size()))");
        break;
    case F_U_VOTE:
        kt_append(s, "(uint)(sub_group_%s((int)(", e->fn ? "any" : "all");
        print_expr(s, e->a);
        kt_append(s, ")) != 0)");
        break;
    case F_INTEL: {
        char *d = NULL, *b = NULL, *a = NULL;
        kt_append(&d, "((uint)(");
        print_expr(&d, e->c);
        kt_append(&d, ") & (get_max_sub_group_size() - 1u))");
        print_arg(&a, t, e->a);
        print_arg(&b, t, e->b);
        switch (e->fn) {
        case 0:
            kt_append(s, "MASKIF(ACTIVE(%s), (uint)intel_sub_group_shuffle(%s, %s))", d, a, d);
            break;
        case 1:
            kt_append(s,
                      "MASKIF(ACTIVE(get_sub_group_local_id() ^ %s), "
                      "(uint)intel_sub_group_shuffle_xor(%s, %s))",
                      d, a, d);
            break;
        case 2:
            kt_append(s,
                      "MASKIF(ACTIVE((get_sub_group_local_id() + %s) %% get_max_sub_group_size()), "
                      "(uint)intel_sub_group_shuffle_down(%s, %s, %s))",
                      d, a, b, d);
            break;
        case 3:
            kt_append(s,
                      "MASKIF(ACTIVE((get_sub_group_local_id() + get_max_sub_group_size() - %s) %% "
                      "get_max_sub_group_size()), (uint)intel_sub_group_shuffle_up(%s, %s, %s))",
                      d, b, a, d);
            break;
        }
        free(d);
        free(a);
        free(b);
        break;
    }
    }
}

static void print_expr(char **s, const struct expr *e)
{
    switch (e->kind) {
    case E_CONST: kt_append(s, "%uu", e->val); break;
    case E_VAR: kt_append(s, "v%u", e->op); break;
    case E_LOOP: kt_append(s, "i%u", e->op); break;
    case E_ID: kt_append(s, "%s", id_src[e->op]); break;
    case E_BIN:
        kt_append(s, e->op >= B_LT ? "(uint)(" : "(");
        print_expr(s, e->a);
        kt_append(s, " %s ", binop_src[e->op]);
        if (e->op == B_SHL || e->op == B_SHR)
            kt_append(s, "(");
        print_expr(s, e->b);
        kt_append(s, e->op == B_SHL || e->op == B_SHR ? " & 31u))" : ")");
        break;
    case E_OP: print_op(s, e); break;
    }
}

static void print_block(char **s, const struct block *b, unsigned indent);

static void print_stmt(char **s, const struct stmt *st, unsigned indent)
{
    int in = (int)(4 * indent);
    switch (st->kind) {
    case S_ASSIGN: {
        static const char *const mix[] = {"v%u = ", "v%u += ", "v%u ^= ", "v%u = v%u * 33u + "};
        kt_append(s, "%*s", in, "");
        kt_append(s, mix[st->mix], st->var, st->var);
        print_expr(s, st->e);
        kt_append(s, ";\n");
        break;
    }
    case S_IF:
        kt_append(s, "%*sif (", in, "");
        print_expr(s, st->e);
        kt_append(s, ") {\n");
        print_block(s, &st->body, indent + 1);
        if (st->els.n) {
            kt_append(s, "%*s} else {\n", in, "");
            print_block(s, &st->els, indent + 1);
        }
        kt_append(s, "%*s}\n", in, "");
        break;
    case S_FOR:
        kt_append(s, "%*sfor (uint i%u = 0u, n%u = ", in, "", st->loop, st->loop);
        print_expr(s, st->e);
        kt_append(s, "; i%u < n%u; i%u++) {\n", st->loop, st->loop, st->loop);
        print_block(s, &st->body, indent + 1);
        kt_append(s, "%*s}\n", in, "");
        break;
    case S_DO:
        kt_append(s, "%*s{\n%*suint i%u = 0u, n%u = ", in, "", in + 4, "", st->loop, st->loop);
        print_expr(s, st->e);
        kt_append(s, ";\n%*sdo {\n", in + 4, "");
        print_block(s, &st->body, indent + 2);
        kt_append(s, "%*s} while (++i%u < n%u);\n%*s}\n", in + 4, "", st->loop, st->loop, in, "");
        break;
    case S_BREAK: kt_append(s, "%*sbreak;\n", in, ""); break;
    case S_CONTINUE: kt_append(s, "%*scontinue;\n", in, ""); break;
    case S_RETURN: kt_append(s, "%*sSTORE();\n%*sreturn;\n", in, "", in, ""); break;
    }
}

static void print_block(char **s, const struct block *b, unsigned indent)
{
    for (unsigned i = 0; i < b->n; i++)
        print_stmt(s, b->s[i], indent);
}

static char *print_kernel(const struct block *b)
{
    char *s = strdup(preamble);
    if (has(C_BALLOT))
        kt_append(&s, "%s", preamble_ballot);
    kt_append(&s, "__kernel void simt(__global const uint *in, __global uint *out)\n{\n"
                  "    uint v0 = in[GID * 4u], v1 = in[GID * 4u + 1u], v2 = in[GID * 4u + 2u], "
                  "v3 = in[GID * 4u + 3u];\n");
    print_block(&s, b, 1);
    kt_append(&s, "    STORE();\n}\n");
    return s;
}

/* ---- The tree as one line, to write failures out and read them back ---- */

static void ser_expr(char **s, const struct expr *e)
{
    if (!e) {
        kt_append(s, " -");
        return;
    }
    kt_append(s, " e%u.%u.%u.%u.%u.%" PRIu32, e->kind, e->op, e->fn, e->type, e->cs, e->val);
    if (e->kind == E_BIN || e->kind == E_OP) {
        ser_expr(s, e->a);
        ser_expr(s, e->b);
        ser_expr(s, e->c);
    }
}

static void ser_block(char **s, const struct block *b)
{
    kt_append(s, " {");
    for (unsigned i = 0; i < b->n; i++) {
        const struct stmt *st = b->s[i];
        kt_append(s, " s%u.%u.%u.%u", st->kind, st->var, st->mix, st->loop);
        ser_expr(s, st->e);
        ser_block(s, &st->body);
        ser_block(s, &st->els);
    }
    kt_append(s, " }");
}

static bool parse_expr(const char **p, struct expr **out)
{
    while (**p == ' ')
        (*p)++;
    if (**p == '-') {
        (*p)++;
        *out = NULL;
        return true;
    }
    struct expr e = {0};
    unsigned kind;
    int n = 0;
    if (sscanf(*p, "e%u.%u.%u.%u.%u.%" SCNu32 "%n", &kind, &e.op, &e.fn, &e.type, &e.cs, &e.val,
               &n) < 6 ||
        !n)
        return false;
    *p += n;
    e.kind = kind;
    *out = malloc(sizeof e);
    **out = e;
    if (kind == E_BIN || kind == E_OP)
        return parse_expr(p, &(*out)->a) && parse_expr(p, &(*out)->b) && parse_expr(p, &(*out)->c);
    return true;
}

static bool parse_block(const char **p, struct block *b)
{
    while (**p == ' ')
        (*p)++;
    if (**p != '{')
        return false;
    (*p)++;
    for (;;) {
        while (**p == ' ')
            (*p)++;
        if (**p == '}') {
            (*p)++;
            return true;
        }
        struct stmt *st = calloc(1, sizeof *st);
        unsigned kind;
        int n = 0;
        if (sscanf(*p, "s%u.%u.%u.%u%n", &kind, &st->var, &st->mix, &st->loop, &n) < 4 || !n)
            return false;
        *p += n;
        st->kind = kind;
        bpush(b, st);
        if (!parse_expr(p, &st->e) || !parse_block(p, &st->body) || !parse_block(p, &st->els))
            return false;
    }
}

/* ---- The emulator ---- */

struct lane {
    uint32_t v[NV];
    uint32_t it[MAX_LOOPS], nb[MAX_LOOPS];
    uint32_t ids[NUM_IDS];
    uint32_t gid;
};

/* One sub-group of n lanes at width w, as it runs the tree. */
struct sg {
    unsigned n, w, m;   /* lanes, width, get_max_sub_group_size() */
    uint32_t full;      /* the lanes that exist */
    uint32_t brk, cont; /* lanes leaving the innermost loop, going to its next iteration */
    struct lane lane[32];
    uint32_t *out;
    bool invalid; /* a function that needs the whole sub-group ran with part of it */
};

static void store(struct sg *g, uint32_t mask)
{
    for (unsigned l = 0; l < g->n; l++)
        if (mask >> l & 1) {
            uint32_t *o = g->out + (size_t)g->lane[l].gid * SL;
            memcpy(o, g->lane[l].v, sizeof g->lane[l].v);
            o[NV] = g->m;
        }
}

static uint32_t lowest(uint32_t mask)
{
    return (uint32_t)__builtin_ctz(mask);
}

static uint32_t highest(uint32_t mask)
{
    return 31u - (uint32_t)__builtin_clz(mask);
}

static void eval(struct sg *g, const struct expr *e, uint32_t mask, uint32_t *res);

/* Each lane's operand of type t. */
static void eval_typed(struct sg *g, const struct expr *e, enum type t, uint32_t mask, int64_t *res)
{
    uint32_t u[32];
    eval(g, e, mask, u);
    for (unsigned l = 0; l < g->n; l++)
        res[l] = mask >> l & 1 ? to_type(t, u[l]) : 0;
}

/* The lanes of mask whose value is non-zero. */
static uint32_t ballot(struct sg *g, const struct expr *e, uint32_t mask)
{
    uint32_t u[32], b = 0;
    eval(g, e, mask, u);
    for (unsigned l = 0; l < g->n; l++)
        if ((mask >> l & 1) && u[l])
            b |= 1u << l;
    return b;
}

static uint32_t popcount(uint64_t x)
{
    return (uint32_t)__builtin_popcountll(x);
}

static void eval_op(struct sg *g, const struct expr *e, uint32_t mask, uint32_t *res)
{
    enum type t = e->type;
    int64_t x[32];
    unsigned M = g->m;
    if (e->op >= F_U_REDUCE && mask != g->full)
        g->invalid = true;
    if ((e->op == F_CLUSTER || (e->op == F_SHUF && e->fn == SH_CROTATE)) && e->cs > M)
        g->invalid = true; /* a cluster wider than the sub-group */
    switch (e->op) {
    case F_REDUCE:
    case F_SCAN_IN:
    case F_SCAN_EX:
    case F_U_REDUCE:
    case F_U_SCAN_IN:
    case F_U_SCAN_EX: {
        bool uniform = e->op >= F_U_REDUCE;
        unsigned w = e->op - (uniform ? F_U_REDUCE : F_REDUCE);
        enum arith a = e->fn;
        eval_typed(g, e->a, t, mask, x);
        int64_t acc = arith_identity(a, t), all = acc;
        for (unsigned l = 0; l < g->n; l++)
            if (mask >> l & 1)
                all = arith_apply(a, t, all, x[l]);
        for (unsigned l = 0; l < g->n; l++) {
            if (!(mask >> l & 1))
                continue;
            int64_t before = acc;
            acc = arith_apply(a, t, acc, x[l]);
            int64_t r = w == 0 ? all : w == 1 ? acc : before;
            res[l] = a >= A_LAND ? r != 0 : from_type(t, r);
        }
        break;
    }
    case F_CLUSTER: {
        eval_typed(g, e->a, t, mask, x);
        uint32_t cm = (1u << e->cs) - 1;
        for (unsigned l = 0; l < g->n; l++) {
            if (!(mask >> l & 1))
                continue;
            unsigned c0 = l & ~(e->cs - 1);
            res[l] = 0;
            if ((mask >> c0 & cm) != cm)
                continue;
            int64_t acc = arith_identity(e->fn, t);
            for (unsigned k = c0; k < c0 + e->cs; k++)
                acc = arith_apply(e->fn, t, acc, x[k]);
            res[l] = from_type(t, acc);
        }
        break;
    }
    case F_BALLOT: {
        uint32_t u[32], ix[32];
        uint32_t b = e->fn == BA_INVERSE_CONST ? 0 : ballot(g, e->a, mask);
        if (e->fn == BA_INVERSE_CONST)
            eval(g, e->a, mask, u);
        if (e->fn == BA_EXTRACT)
            eval(g, e->b, mask, ix);
        for (unsigned l = 0; l < g->n; l++) {
            if (!(mask >> l & 1))
                continue;
            switch (e->fn) {
            case BA_COUNT: res[l] = popcount(b); break;
            case BA_INCL: res[l] = popcount(b & ((2ull << l) - 1)); break;
            case BA_EXCL: res[l] = popcount(b & ((1ull << l) - 1)); break;
            case BA_LSB: res[l] = b ? lowest(b) : 0; break;
            case BA_MSB: res[l] = b ? highest(b) : 0; break;
            case BA_EXTRACT: res[l] = b >> (ix[l] & 31) & 1; break;
            case BA_BITS: res[l] = b; break;
            case BA_INVERSE: res[l] = b >> l & 1; break;
            case BA_INVERSE_CONST: res[l] = ((e->val >> l & 1) & (l < M)) + u[l]; break;
            }
        }
        break;
    }
    case F_VOTE: {
        uint32_t u[32];
        if (e->fn == 2)
            eval_typed(g, e->a, t, mask, x);
        else
            eval(g, e->a, mask, u);
        uint32_t b = e->fn == 2 ? 0 : ballot(g, e->a, mask);
        bool equal = true;
        for (unsigned l = 0; l < g->n && e->fn == 2; l++)
            if ((mask >> l & 1) && x[l] != x[lowest(mask)])
                equal = false;
        for (unsigned l = 0; l < g->n; l++) {
            if (!(mask >> l & 1))
                continue;
            switch (e->fn) {
            case 0: res[l] = b == mask; break;
            case 1: res[l] = b != 0; break;
            case 2: res[l] = equal; break;
            default: res[l] = (l == lowest(mask)) ^ u[l]; break;
            }
        }
        break;
    }
    case F_BCAST: {
        eval_typed(g, e->a, t, mask, x);
        uint32_t from = e->fn == 2 ? highest(mask) : lowest(mask);
        for (unsigned l = 0; l < g->n; l++)
            if (mask >> l & 1)
                res[l] = from_type(t, x[from]);
        break;
    }
    case F_SHUF: {
        uint32_t ix[32];
        eval_typed(g, e->a, t, mask, x);
        if (e->b)
            eval(g, e->b, mask, ix);
        for (unsigned l = 0; l < g->n; l++) {
            if (!(mask >> l & 1))
                continue;
            uint32_t d = e->b ? ix[l] & (M - 1) : 0, src = 0;
            switch (e->fn) {
            case SH_IDX: src = d; break;
            case SH_XOR: src = l ^ d; break;
            case SH_UP: src = l - d; break;
            case SH_DOWN: src = l + d; break;
            case SH_ROTATE: src = (l + e->val) % M; break;
            case SH_CROTATE: src = (l & ~(e->cs - 1)) + ((l + e->val) & (e->cs - 1)); break;
            }
            src &= 127;
            res[l] = src < 32 && (mask >> src & 1) ? from_type(t, x[src]) : 0;
        }
        break;
    }
    case F_U_BCAST: {
        uint32_t ix[32];
        eval_typed(g, e->a, t, mask, x);
        eval(g, e->b, mask, ix);
        for (unsigned l = 0; l < g->n; l++)
            if (mask >> l & 1)
                res[l] = from_type(t, x[ix[l] % g->n]);
        break;
    }
    case F_U_VOTE: {
        uint32_t b = ballot(g, e->a, mask);
        for (unsigned l = 0; l < g->n; l++)
            if (mask >> l & 1)
                res[l] = e->fn ? b != 0 : b == mask;
        break;
    }
    case F_INTEL: {
        int64_t y[32];
        uint32_t ix[32];
        eval_typed(g, e->a, t, mask, x);
        eval_typed(g, e->b, t, mask, y);
        eval(g, e->c, mask, ix);
        for (unsigned l = 0; l < g->n; l++) {
            if (!(mask >> l & 1))
                continue;
            uint32_t d = ix[l] & (M - 1), src = 0;
            const int64_t *from = x;
            switch (e->fn) {
            case 0: src = d; break;
            case 1: src = l ^ d; break;
            case 2:
                src = l + d < M ? l + d : l + d - M;
                from = l + d < M ? x : y;
                break;
            case 3:
                src = l >= d ? l - d : l + M - d;
                from = l >= d ? x : y;
                break;
            }
            res[l] = (mask >> src & 1) ? from_type(t, from[src]) : 0;
        }
        break;
    }
    }
}

static void eval(struct sg *g, const struct expr *e, uint32_t mask, uint32_t *res)
{
    uint32_t a[32], b[32];
    switch (e->kind) {
    case E_CONST:
        for (unsigned l = 0; l < g->n; l++)
            res[l] = e->val;
        return;
    case E_VAR:
        for (unsigned l = 0; l < g->n; l++)
            res[l] = g->lane[l].v[e->op];
        return;
    case E_LOOP:
        for (unsigned l = 0; l < g->n; l++)
            res[l] = g->lane[l].it[e->op];
        return;
    case E_ID:
        for (unsigned l = 0; l < g->n; l++)
            res[l] = g->lane[l].ids[e->op];
        return;
    case E_OP: eval_op(g, e, mask, res); return;
    case E_BIN: break;
    }
    eval(g, e->a, mask, a);
    eval(g, e->b, mask, b);
    for (unsigned l = 0; l < g->n; l++) {
        uint32_t x = a[l], y = b[l];
        switch (e->op) {
        case B_ADD: res[l] = x + y; break;
        case B_SUB: res[l] = x - y; break;
        case B_MUL: res[l] = x * y; break;
        case B_XOR: res[l] = x ^ y; break;
        case B_AND: res[l] = x & y; break;
        case B_OR: res[l] = x | y; break;
        case B_SHL: res[l] = x << (y & 31); break;
        case B_SHR: res[l] = x >> (y & 31); break;
        case B_LT: res[l] = x < y; break;
        case B_EQ: res[l] = x == y; break;
        case B_NE: res[l] = x != y; break;
        }
    }
}

static uint32_t exec_block(struct sg *g, const struct block *b, uint32_t mask);

/* Runs a loop; returns the lanes that come out of it (all but those that returned). */
static uint32_t exec_loop(struct sg *g, const struct stmt *s, uint32_t mask)
{
    uint32_t n[32], brk = g->brk, cont = g->cont, out = 0;
    eval(g, s->e, mask, n);
    for (unsigned l = 0; l < g->n; l++)
        if (mask >> l & 1) {
            g->lane[l].it[s->loop] = 0;
            g->lane[l].nb[s->loop] = n[l];
        }
    uint32_t active = mask;
    for (unsigned iteration = 0;; iteration++) {
        bool first = iteration == 0;
        if (iteration == 64) {
            g->invalid = true; /* a reduction made the loop too long */
            return 0;
        }
        /* for: the test before each iteration; do: after each but the first. */
        uint32_t in = 0;
        for (unsigned l = 0; l < g->n; l++)
            if (active >> l & 1) {
                struct lane *ln = &g->lane[l];
                if (s->kind == S_DO && !first)
                    ln->it[s->loop]++;
                if ((s->kind == S_DO && first) || ln->it[s->loop] < ln->nb[s->loop])
                    in |= 1u << l;
            }
        out |= active & ~in;
        if (!in)
            break;
        g->brk = g->cont = 0;
        uint32_t next = exec_block(g, &s->body, in) | g->cont;
        out |= g->brk;
        if (s->kind == S_FOR)
            for (unsigned l = 0; l < g->n; l++)
                if (next >> l & 1)
                    g->lane[l].it[s->loop]++;
        active = next;
    }
    g->brk = brk;
    g->cont = cont;
    return out;
}

/* Runs a statement for mask; returns the lanes that go on to the next one. */
static uint32_t exec_stmt(struct sg *g, const struct stmt *s, uint32_t mask)
{
    uint32_t v[32];
    switch (s->kind) {
    case S_ASSIGN:
        eval(g, s->e, mask, v);
        for (unsigned l = 0; l < g->n; l++) {
            if (!(mask >> l & 1))
                continue;
            uint32_t *x = &g->lane[l].v[s->var];
            switch (s->mix) {
            case 0: *x = v[l]; break;
            case 1: *x += v[l]; break;
            case 2: *x ^= v[l]; break;
            default: *x = *x * 33u + v[l]; break;
            }
        }
        return mask;
    case S_IF: {
        eval(g, s->e, mask, v);
        uint32_t t = 0;
        for (unsigned l = 0; l < g->n; l++)
            if ((mask >> l & 1) && v[l])
                t |= 1u << l;
        uint32_t a = t ? exec_block(g, &s->body, t) : 0;
        uint32_t b = mask & ~t ? exec_block(g, &s->els, mask & ~t) : 0;
        return a | b;
    }
    case S_FOR:
    case S_DO: return exec_loop(g, s, mask);
    case S_BREAK: g->brk |= mask; return 0;
    case S_CONTINUE: g->cont |= mask; return 0;
    case S_RETURN: store(g, mask); return 0;
    }
    abort();
}

static uint32_t exec_block(struct sg *g, const struct block *b, uint32_t mask)
{
    for (unsigned i = 0; i < b->n && mask; i++)
        mask = exec_stmt(g, b->s[i], mask);
    return mask;
}

/* ---- Test cases ---- */

struct tcase {
    uint64_t seed;
    struct block prog;
    char *src;
    cl_uint dim;
    size_t global[2], local[2];
    size_t items;
    uint32_t in[NIN];
    size_t offset; /* of its outputs in a run's shared words */
};

static void pick_shape(struct tcase *c, struct rng *r)
{
    static const size_t l1[] = {100, 37, 64, 20, 13, 5, 48, 24, 33, 1, 72};
    static const size_t l2[][2] = {{6, 5}, {8, 4}, {3, 7}, {16, 3}, {5, 9}, {12, 2}, {10, 10}};
    bool two = opt.two_d && chance(r, 35);
    c->dim = two ? 2 : 1;
    c->local[1] = c->global[1] = 1;
    unsigned pick = below(r, two ? 7 : 11);
    for (unsigned d = 0; d < c->dim; d++) {
        c->local[d] = two ? l2[pick][d] : l1[pick];
        c->global[d] = c->local[d] * (1 + below(r, two ? 2 : 3));
        if (c->local[d] > 1 && chance(r, 25))
            c->global[d] += 1 + below(r, (unsigned)c->local[d] - 1);
    }
    c->items = c->global[0] * c->global[1];
}

static void make_inputs(struct tcase *c)
{
    struct rng r = {c->seed * 0x9e3779b97f4a7c15u + 3};
    for (unsigned i = 0; i < NIN; i++) {
        unsigned k = below(&r, 4);
        c->in[i] = k == 0   ? below(&r, 8)
                   : k == 1 ? (uint32_t) - (int)below(&r, 8)
                            : (uint32_t)rng_next(&r);
    }
}

/*
 * Runs c's tree at width w into out (items * SL words); false when a
 * function that needs the whole sub-group would run with part of it.
 */
static bool emulate(const struct tcase *c, unsigned w, uint32_t *out)
{
    size_t groups[2], gsize[2];
    for (unsigned d = 0; d < 2; d++)
        groups[d] = (c->global[d] + c->local[d] - 1) / c->local[d];
    struct sg *g = calloc(1, sizeof *g);
    bool ok = true;
    /* The widest sub-group of the dispatch: W, or the enqueued work-group when smaller. */
    unsigned m = c->local[0] * c->local[1] < w ? (unsigned)(c->local[0] * c->local[1]) : w;
    for (size_t gy = 0; gy < groups[1]; gy++)
        for (size_t gx = 0; gx < groups[0]; gx++) {
            gsize[0] = c->global[0] - gx * c->local[0] < c->local[0]
                           ? c->global[0] - gx * c->local[0]
                           : c->local[0];
            gsize[1] = c->global[1] - gy * c->local[1] < c->local[1]
                           ? c->global[1] - gy * c->local[1]
                           : c->local[1];
            size_t total = gsize[0] * gsize[1];
            for (size_t first = 0; first < total; first += w) {
                memset(g, 0, sizeof *g);
                g->w = w;
                g->m = m;
                g->n = (unsigned)(total - first < w ? total - first : w);
                g->full = g->n == 32 ? ~0u : (1u << g->n) - 1;
                g->out = out;
                for (unsigned l = 0; l < g->n; l++) {
                    struct lane *ln = &g->lane[l];
                    size_t llid = first + l, lx = llid % gsize[0], ly = llid / gsize[0];
                    size_t gid = (gy * c->local[1] + ly) * c->global[0] + gx * c->local[0] + lx;
                    ln->gid = (uint32_t)gid;
                    memcpy(ln->v, c->in + gid * 4, sizeof ln->v);
                    uint32_t *id = ln->ids;
                    id[ID_SGID] = (uint32_t)(first / w);
                    id[ID_SGSIZE] = g->n;
                    id[ID_MAXSG] = m;
                    id[ID_GRP] = (uint32_t)(gy * groups[0] + gx);
                    id[ID_SGLID] = l;
                    id[ID_LLID] = (uint32_t)llid;
                    id[ID_GID] = (uint32_t)gid;
                    id[ID_LX] = (uint32_t)lx;
                    id[ID_LY] = (uint32_t)ly;
                    uint64_t below_w = (1ull << m) - 1;
                    id[ID_EQ] = 1u << l;
                    id[ID_GE] = (uint32_t)(below_w & ~((1ull << l) - 1));
                    id[ID_GT] = (uint32_t)(below_w & ~((2ull << l) - 1));
                    id[ID_LE] = (uint32_t)((2ull << l) - 1);
                    id[ID_LT] = (uint32_t)((1ull << l) - 1);
                }
                uint32_t left = exec_block(g, &c->prog, g->full);
                store(g, left);
                ok &= !g->invalid;
            }
        }
    free(g);
    return ok;
}

/* A case from its seed: the first tree drawn that every width can run. */
static void make_case(struct tcase *c, uint64_t seed)
{
    memset(c, 0, sizeof *c);
    c->seed = seed;
    uint32_t *scratch = malloc(MAX_ITEMS * SL * sizeof *scratch);
    for (unsigned attempt = 0; attempt < 1000; attempt++) {
        struct rng r = {seed * 0x2545f4914f6cdd1du + 17 + attempt};
        pick_shape(c, &r);
        make_inputs(c);
        c->prog = generate(seed * 1000003u + attempt);
        bool ok = true;
        for (unsigned w = 0; w < opt.num_widths && ok; w++)
            ok = emulate(c, opt.widths[w], scratch);
        if (ok)
            break;
        bfree(&c->prog);
        if (attempt == 999) {
            fprintf(stderr, "simt: seed %" PRIu64 ": no valid kernel in 1000 draws\n", seed);
            exit(2);
        }
    }
    free(scratch);
    c->src = print_kernel(&c->prog);
}

static void describe_shape(const struct tcase *c, char *buf, size_t size)
{
    bool partial = c->global[0] % c->local[0] || c->global[1] % c->local[1];
    if (c->dim == 1)
        snprintf(buf, size, "1D global %zu local %zu%s", c->global[0], c->local[0],
                 partial ? " (non-uniform)" : "");
    else
        snprintf(buf, size, "2D global %zux%zu local %zux%zu%s", c->global[0], c->global[1],
                 c->local[0], c->local[1], partial ? " (non-uniform)" : "");
}

/* ---- Runs: a width's child and the memory it shares with us ---- */

static bool quiet; /* while reducing */

enum status { ST_NOT_RUN, ST_OK, ST_BUILD, ST_LAUNCH, ST_CRASH, ST_INTERNAL };
static const char *const status_names[] = {"not run",      "ok",    "build error",
                                           "launch error", "crash", "vectorizer's internal error"};

struct run {
    unsigned width;
    struct tcase *cases;
    unsigned n;
    void *map;
    size_t size;
    volatile int *progress;
    int32_t *status;
    uint32_t *words;
    pid_t pid;
    char error[160];
    bool setup_failed;
};

static struct run *run_new(struct tcase *cases, unsigned n, unsigned width)
{
    struct run *r = calloc(1, sizeof *r);
    r->width = width;
    r->cases = cases;
    r->n = n;
    size_t words = 0;
    for (unsigned i = 0; i < n; i++) {
        cases[i].offset = words;
        words += cases[i].items * SL;
    }
    r->size = sizeof(int) + n * sizeof(int32_t) + words * sizeof(uint32_t) + 64;
    r->map = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r->map == MAP_FAILED) {
        perror("simt: mmap");
        exit(2);
    }
    r->progress = r->map;
    r->status = (int32_t *)((char *)r->map + sizeof(int64_t));
    r->words = (uint32_t *)(r->status + n);
    for (size_t k = 0; k < words; k++)
        r->words[k] = SENTINEL;
    return r;
}

static void run_free(struct run *r)
{
    munmap(r->map, r->size);
    free(r);
}

static char *build_log(cl_program p)
{
    size_t size = 0;
    clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &size);
    char *log = calloc(1, size + 1);
    clGetProgramBuildInfo(p, kt.dev, CL_PROGRAM_BUILD_LOG, size, log, NULL);
    return log;
}

static enum status child_case(const struct tcase *c, uint32_t *out)
{
    cl_int err;
    const char *src = c->src;
    cl_program p = clCreateProgramWithSource(kt.ctx, 1, &src, NULL, &err);
    KT_CHECK_CL(err);
    err = clBuildProgram(p, 1, &kt.dev, "-cl-std=CL3.0", NULL, NULL);
    if (err != CL_SUCCESS) {
        char *log = build_log(p);
        fprintf(stderr, "simt: seed %" PRIu64 ": build error %d:\n%s\n", c->seed, err, log);
        free(log);
        clReleaseProgram(p);
        return ST_BUILD;
    }
    cl_kernel k = clCreateKernel(p, "simt", &err);
    KT_CHECK_CL(err);
    size_t out_size = c->items * SL * 4;
    cl_mem in = clCreateBuffer(kt.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof c->in,
                               (void *)c->in, &err);
    KT_CHECK_CL(err);
    cl_mem o =
        clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, out_size, out, &err);
    KT_CHECK_CL(err);
    KT_CHECK_CL(clSetKernelArg(k, 0, sizeof in, &in));
    KT_CHECK_CL(clSetKernelArg(k, 1, sizeof o, &o));
    err = clEnqueueNDRangeKernel(kt.queue, k, c->dim, NULL, c->global, c->local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(kt.queue, o, CL_TRUE, 0, out_size, out, 0, NULL, NULL);
    char *log = build_log(p);
    bool internal = err == CL_SUCCESS && strstr(log, "internal error") != NULL;
    if (err != CL_SUCCESS)
        fprintf(stderr, "simt: seed %" PRIu64 ": launch error %d\n%s\n", c->seed, err, log);
    else if (internal && !quiet)
        fprintf(stderr, "simt: seed %" PRIu64 ": %s\n", c->seed, log);
    free(log);
    clReleaseMemObject(in);
    clReleaseMemObject(o);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return err != CL_SUCCESS ? ST_LAUNCH : internal ? ST_INTERNAL : ST_OK;
}

static _Noreturn void child(struct run *r, unsigned start)
{
    char width[16];
    snprintf(width, sizeof width, "%u", r->width);
    setenv("LANES_WIDTH", width, 1);
    setenv("LANES_CACHE", "0", 1);
    setenv("LANES_TIER", "1", 1);
    *r->progress = -1;
    kt_setup();
    for (unsigned i = r->n ? start : 0; i < r->n; i++) {
        *r->progress = (int)i;
        alarm(30);
        r->status[i] = child_case(&r->cases[i], r->words + r->cases[i].offset);
    }
    alarm(0);
    clReleaseCommandQueue(kt.queue);
    clReleaseContext(kt.ctx);
    fflush(stdout);
    fflush(stderr);
    _exit(0);
}

static void spawn(struct run *r, unsigned start)
{
    fflush(stdout);
    fflush(stderr);
    *r->progress = -1;
    pid_t pid = fork();
    if (pid < 0) {
        perror("simt: fork");
        exit(2);
    }
    if (pid == 0)
        child(r, start);
    r->pid = pid;
}

/* Runs every run to its end, at most opt.jobs children at once; restarts after a crash. */
static void run_all(struct run **runs, unsigned num_runs)
{
    unsigned next = 0, active = 0;
    while (next < num_runs || active) {
        while (active < opt.jobs && next < num_runs) {
            spawn(runs[next++], 0);
            active++;
        }
        int ws;
        pid_t pid = waitpid(-1, &ws, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            perror("simt: waitpid");
            exit(2);
        }
        struct run *r = NULL;
        for (unsigned i = 0; i < next; i++)
            if (runs[i]->pid == pid)
                r = runs[i];
        if (!r)
            continue;
        r->pid = 0;
        int k = *r->progress;
        if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
            active--;
            continue;
        }
        char how[96];
        if (WIFSIGNALED(ws))
            snprintf(how, sizeof how, "killed by signal %d (%s)", WTERMSIG(ws),
                     strsignal(WTERMSIG(ws)));
        else
            snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(ws));
        if (k < 0) {
            snprintf(r->error, sizeof r->error, "child %s before its first kernel", how);
            r->setup_failed = true;
            active--;
            continue;
        }
        if (r->status[k] == ST_NOT_RUN) {
            r->status[k] = ST_CRASH;
            if (!quiet)
                fprintf(stderr, "simt: width %u: child %s while running seed %" PRIu64 "\n",
                        r->width, how, r->cases[k].seed);
        } else {
            snprintf(r->error, sizeof r->error, "child %s after seed %" PRIu64, how,
                     r->cases[k].seed);
        }
        if ((unsigned)k + 1 < r->n)
            spawn(r, (unsigned)k + 1);
        else
            active--;
    }
}

/* In a child: which capabilities the device offers, as bits into shared memory. */
static uint32_t probe_caps(void)
{
    uint32_t *bits = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (bits == MAP_FAILED) {
        perror("simt: mmap");
        exit(2);
    }
    *bits = 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("LANES_CACHE", "0", 1);
        kt_setup();
        uint32_t b = 1u << 31;
        for (unsigned c = 0; c < NUM_CAPS; c++)
            if (c == C_SUBGROUPS ? kt_has_feature(cap_names[c]) : kt_has_extension(cap_names[c]))
                b |= 1u << c;
        *bits = b;
        _exit(0);
    }
    int ws;
    waitpid(pid, &ws, 0);
    uint32_t b = *bits;
    munmap(bits, 4096);
    if (!(b >> 31)) {
        fprintf(stderr, "simt: the device probe failed\n");
        exit(1);
    }
    return b & ((1u << NUM_CAPS) - 1);
}

/* ---- Comparison and reports ---- */

/*
 * The width case i ran at, from what its work-items read from
 * get_max_sub_group_size() (the width, or the work-group's size when that is
 * smaller); 0 when they disagree.
 */
static unsigned ran_width(const struct run *r, unsigned i)
{
    const struct tcase *c = &r->cases[i];
    const uint32_t *o = r->words + c->offset;
    unsigned m = o[NV];
    for (size_t k = 0; k < c->items; k++)
        if (o[k * SL + NV] != m)
            return 0;
    size_t size = c->local[0] * c->local[1];
    if (m == (size < r->width ? size : r->width))
        return r->width;
    return m == 1 || m == 8 || m == 16 || m == 32 ? m : 0;
}

/* Whether case i of run r fails (prints why when told). */
static bool check(const struct run *r, unsigned i, bool print)
{
    const struct tcase *c = &r->cases[i];
    if (r->status[i] != ST_OK) {
        if (print)
            printf("  W=%u: %s\n", r->width, status_names[r->status[i]]);
        return true;
    }
    unsigned w = ran_width(r, i);
    if (!w) {
        if (print)
            printf("  W=%u: get_max_sub_group_size() differs between work-items, or is not a "
                   "width\n",
                   r->width);
        return true;
    }
    uint32_t *want = malloc(c->items * SL * sizeof *want);
    for (size_t k = 0; k < c->items * SL; k++)
        want[k] = SENTINEL;
    emulate(c, w, want);
    const uint32_t *got = r->words + c->offset;
    unsigned shown = 0, total = 0;
    for (size_t k = 0; k < c->items * SL; k++) {
        if (want[k] == got[k])
            continue;
        total++;
        if (!print || shown >= 12)
            continue;
        shown++;
        size_t gid = k / SL, gx = gid % c->global[0], gy = gid / c->global[0];
        size_t lx = gx % c->local[0], ly = gy % c->local[1];
        size_t lsx =
            c->global[0] - (gx - lx) < c->local[0] ? c->global[0] - (gx - lx) : c->local[0];
        size_t llid = ly * lsx + lx;
        printf("  work-item %zu (group %zu,%zu, local linear id %zu: sub-group %zu, lane %zu), "
               "%s%zu: expected 0x%08x (%d), got 0x%08x (%d)\n",
               gid, gx / c->local[0], gy / c->local[1], llid, llid / w, llid % w,
               k % SL < NV ? "v" : "max sub-group size, slot ", k % SL, want[k], (int32_t)want[k],
               got[k], (int32_t)got[k]);
    }
    if (print && w != r->width)
        printf("  (ran at width %u, not %u: emulated at %u)\n", w, r->width, w);
    if (print && total > shown)
        printf("  ... %u differing words in all\n", total);
    free(want);
    return total != 0;
}

static char *serialize(const struct tcase *c)
{
    char *s = NULL;
    kt_append(&s, "// simt seed %" PRIu64 " dim %u global %zu %zu local %zu %zu\n// tree:", c->seed,
              c->dim, c->global[0], c->global[1], c->local[0], c->local[1]);
    ser_block(&s, &c->prog);
    kt_append(&s, "\n");
    return s;
}

static void write_kernel(const struct tcase *c, unsigned width, const char *suffix)
{
    char path[96], shape[96];
    snprintf(path, sizeof path, "simt-%" PRIu64 "-w%u%s.cl", c->seed, width, suffix);
    describe_shape(c, shape, sizeof shape);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return;
    }
    char *head = serialize(c);
    fprintf(f, "%s// fails at width %u, %s\n%s", head, width, shape, c->src);
    free(head);
    fclose(f);
    printf("  kernel written to %s\n", path);
}

static void report(const struct run *r, unsigned i, const char *what)
{
    const struct tcase *c = &r->cases[i];
    char shape[96];
    describe_shape(c, shape, sizeof shape);
    printf("simt: %s: seed %" PRIu64 ", width %u, %s\n", what, c->seed, r->width, shape);
    check(r, i, true);
    printf("%s", c->src);
}

/* Reads a file that write_kernel wrote into case c; exits on error. */
static void read_kernel(struct tcase *c, const char *path)
{
    FILE *f = fopen(path, "r");
    char *line_ = NULL;
    size_t cap = 0;
    memset(c, 0, sizeof *c);
    bool head = false, tree = false;
    while (f && getline(&line_, &cap, f) > 0) {
        if (sscanf(line_, "// simt seed %" SCNu64 " dim %u global %zu %zu local %zu %zu", &c->seed,
                   &c->dim, &c->global[0], &c->global[1], &c->local[0], &c->local[1]) == 6)
            head = true;
        else if (!strncmp(line_, "// tree:", 8)) {
            const char *p = line_ + 8;
            tree = parse_block(&p, &c->prog);
        }
    }
    free(line_);
    if (f)
        fclose(f);
    if (!head || !tree || c->dim < 1 || c->dim > 2 || !c->local[0] || !c->local[1]) {
        fprintf(stderr, "simt: cannot read %s (its '// simt seed' and '// tree:' lines)\n", path);
        exit(2);
    }
    c->items = c->global[0] * c->global[1];
    if (c->items > MAX_ITEMS) {
        fprintf(stderr, "simt: %s: more than %d work-items\n", path, MAX_ITEMS);
        exit(2);
    }
    make_inputs(c);
    c->src = print_kernel(&c->prog);
}

/* ---- Classifying failures, counting what the kernels call ---- */

/* Whether block b leaves a loop (ends with break, or return inside a loop). */
static bool leaves_loop(const struct block *b, bool in_loop)
{
    if (!b->n)
        return false;
    enum skind k = b->s[b->n - 1]->kind;
    return k == S_BREAK || (k == S_RETURN && in_loop);
}

static void strip_expr(struct expr **e)
{
    if (!*e)
        return;
    if ((*e)->kind == E_OP) {
        efree(*e);
        *e = enew(E_CONST, 0);
        return;
    }
    strip_expr(&(*e)->a);
    strip_expr(&(*e)->b);
    strip_expr(&(*e)->c);
}

/* Replaces every sub-group function in b (all == true) or in b's exit paths by 0. */
static void strip_exits(struct block *b, bool in_loop, bool all)
{
    for (unsigned i = 0; i < b->n; i++) {
        struct stmt *s = b->s[i];
        if (all)
            strip_expr(&s->e);
        bool loop = in_loop || s->kind == S_FOR || s->kind == S_DO;
        strip_exits(&s->body, loop, all || leaves_loop(&s->body, loop));
        strip_exits(&s->els, loop, all || leaves_loop(&s->els, loop));
    }
}

static unsigned fam_count[NUM_FAMS], exit_calls;

static void count_expr(const struct expr *e, bool exit_path)
{
    if (!e)
        return;
    if (e->kind == E_OP) {
        fam_count[e->op]++;
        exit_calls += exit_path;
    }
    count_expr(e->a, exit_path);
    count_expr(e->b, exit_path);
    count_expr(e->c, exit_path);
}

static void count_calls(const struct block *b, bool in_loop, bool exit_path)
{
    for (unsigned i = 0; i < b->n; i++) {
        const struct stmt *s = b->s[i];
        count_expr(s->e, exit_path);
        bool loop = in_loop || s->kind == S_FOR || s->kind == S_DO;
        count_calls(&s->body, loop, exit_path || leaves_loop(&s->body, loop));
        count_calls(&s->els, loop, exit_path || leaves_loop(&s->els, loop));
    }
}

/*
 * Runs the failing cases again with the sub-group functions of their exit
 * paths replaced by 0: a failure that goes away is the exit-path pattern
 * (a function in a block that leaves a loop), one that stays is another bug.
 */
static void classify(struct tcase *cases, const unsigned *failing, unsigned n, struct run **runs)
{
    struct tcase *copies = calloc(n, sizeof *copies);
    for (unsigned i = 0; i < n; i++) {
        copies[i] = cases[failing[i]];
        copies[i].prog = bcopy_(&cases[failing[i]].prog);
        strip_exits(&copies[i].prog, false, false);
        copies[i].src = print_kernel(&copies[i].prog);
    }
    bool *other = calloc(n, sizeof *other);
    quiet = true;
    for (unsigned w = 0; w < opt.num_widths; w++) {
        struct run *r = run_new(copies, n, opt.widths[w]);
        run_all(&r, 1);
        for (unsigned i = 0; i < n; i++)
            other[i] |= check(runs[w], failing[i], false) && check(r, i, false);
        run_free(r);
    }
    quiet = false;
    unsigned others = 0;
    for (unsigned i = 0; i < n; i++)
        others += other[i];
    printf("simt: %u of %u failing kernels pass with the sub-group functions of their exit "
           "paths (blocks that leave a loop) replaced by 0",
           n - others, n);
    if (others) {
        printf("; these fail without them too (not the exit-path pattern):");
        for (unsigned i = 0; i < n; i++)
            if (other[i])
                printf(" %" PRIu64, cases[failing[i]].seed);
    }
    printf("\n");
    for (unsigned i = 0; i < n; i++) {
        bfree(&copies[i].prog);
        free(copies[i].src);
    }
    free(copies);
    free(other);
}

/* ---- Reduction ---- */

/* Every block of a tree, in order (for the reducer to walk). */
static unsigned blocks_of(struct block *b, struct block **list, unsigned n, unsigned max)
{
    if (n < max)
        list[n++] = b;
    for (unsigned i = 0; i < b->n; i++) {
        n = blocks_of(&b->s[i]->body, list, n, max);
        n = blocks_of(&b->s[i]->els, list, n, max);
    }
    return n;
}

/* Every expression slot of a tree. */
static unsigned exprs_of_e(struct expr **e, struct expr ***list, unsigned n, unsigned max)
{
    if (!*e)
        return n;
    if (n < max)
        list[n++] = e;
    n = exprs_of_e(&(*e)->a, list, n, max);
    n = exprs_of_e(&(*e)->b, list, n, max);
    return exprs_of_e(&(*e)->c, list, n, max);
}

static unsigned exprs_of(struct block *b, struct expr ***list, unsigned n, unsigned max)
{
    for (unsigned i = 0; i < b->n; i++) {
        n = exprs_of_e(&b->s[i]->e, list, n, max);
        n = exprs_of(&b->s[i]->body, list, n, max);
        n = exprs_of(&b->s[i]->els, list, n, max);
    }
    return n;
}

/*
 * The candidate `which` of the reductions of c (false when there are no
 * more): drop a statement, keep one side of an if, replace an expression by
 * one of its operands or 0, shrink the launch.
 */
static bool mutate(const struct tcase *c, unsigned which, struct tcase *out)
{
    enum { MAXN = 4096 };
    *out = *c;
    out->src = NULL;
    out->prog = bcopy_(&c->prog);
    struct block *blocks[MAXN];
    unsigned nb = blocks_of(&out->prog, blocks, 0, MAXN);
    /* Shapes first: one work-group, then one dimension. */
    if (which == 0) {
        if (out->global[0] == out->local[0] && out->global[1] == out->local[1])
            goto skip;
        out->global[0] = out->local[0];
        out->global[1] = out->local[1];
        goto done;
    }
    which--;
    if (which == 0) {
        if (out->global[0] % out->local[0] == 0 && out->global[1] % out->local[1] == 0)
            goto skip;
        out->global[0] -= out->global[0] % out->local[0];
        out->global[1] -= out->global[1] % out->local[1];
        goto done;
    }
    which--;
    /* Statements dropped, ifs replaced by a side. */
    for (unsigned k = 0; k < nb; k++)
        for (unsigned i = 0; i < blocks[k]->n; i++) {
            struct block *b = blocks[k];
            struct stmt *s = b->s[i];
            unsigned options = 1 + (s->kind == S_IF ? 2 : 0);
            if (which >= options) {
                which -= options;
                continue;
            }
            struct block side = {0};
            if (which == 1)
                side = s->body, s->body = (struct block){0};
            else if (which == 2)
                side = s->els, s->els = (struct block){0};
            sfree(s);
            b->s = realloc(b->s, (b->n + side.n + 1) * sizeof *b->s);
            memmove(b->s + i + side.n, b->s + i + 1, (b->n - i - 1) * sizeof *b->s);
            memcpy(b->s + i, side.s, side.n * sizeof *b->s);
            b->n += side.n - 1;
            free(side.s);
            goto done;
        }
    /* Expressions: an operand, or the constant 0 or 1. */
    struct expr **es[MAXN];
    unsigned ne = exprs_of(&out->prog, es, 0, MAXN);
    for (unsigned k = 0; k < ne; k++) {
        struct expr *e = *es[k];
        struct expr *kids[3] = {e->a, e->b, e->c};
        unsigned options = 2 + (e->kind == E_BIN || e->kind == E_OP ? 3 : 0);
        if (e->kind == E_CONST)
            options = e->val > 1 ? 2 : 0;
        if (which >= options) {
            which -= options;
            continue;
        }
        if (which < 2) {
            efree(e);
            *es[k] = enew(E_CONST, 0);
            (*es[k])->val = which;
        } else {
            struct expr *keep = kids[which - 2];
            if (!keep)
                goto skip;
            if (which - 2 == 0)
                e->a = NULL;
            else if (which - 2 == 1)
                e->b = NULL;
            else
                e->c = NULL;
            efree(e);
            *es[k] = keep;
        }
        goto done;
    }
    bfree(&out->prog);
    return false;
skip:
    bfree(&out->prog);
    out->items = 0; /* no candidate: the caller skips it */
    return true;
done:
    out->items = out->global[0] * out->global[1];
    out->src = print_kernel(&out->prog);
    return true;
}

static size_t case_size(const struct tcase *c)
{
    return strlen(c->src) + c->items;
}

/* Whether every width can run it (nothing that needs the whole sub-group runs with part). */
static bool valid(const struct tcase *c)
{
    uint32_t *scratch = malloc(c->items * SL * sizeof *scratch);
    bool ok = true;
    for (unsigned w = 0; w < opt.num_widths && ok; w++)
        ok = emulate(c, opt.widths[w], scratch);
    free(scratch);
    return ok;
}

static void reduce(const struct tcase *failing, unsigned width)
{
    struct tcase *best = malloc(sizeof *best);
    *best = *failing;
    best->prog = bcopy_(&failing->prog);
    best->src = strdup(failing->src);
    printf("simt: reducing seed %" PRIu64 " at width %u\n", failing->seed, width);
    quiet = true;
    enum { BATCH = 48 };
    struct tcase *cands = calloc(BATCH, sizeof *cands);
    for (unsigned round = 0; round < 200;) {
        bool progress = false;
        for (unsigned start = 0;;) {
            unsigned n = 0;
            bool more = true;
            while (n < BATCH && (more = mutate(best, start, &cands[n]))) {
                start++;
                if (cands[n].items && valid(&cands[n]))
                    n++;
                else if (cands[n].items) {
                    bfree(&cands[n].prog);
                    free(cands[n].src);
                }
            }
            if (!n)
                break;
            struct run *r = run_new(cands, n, width);
            run_all(&r, 1);
            int pick = -1;
            for (unsigned i = 0; i < n; i++)
                if (check(r, i, false) &&
                    (pick < 0 || case_size(&cands[i]) < case_size(&cands[pick])))
                    pick = (int)i;
            run_free(r);
            if (pick >= 0 && case_size(&cands[pick]) < case_size(best)) {
                bfree(&best->prog);
                free(best->src);
                *best = cands[pick];
                cands[pick].prog = (struct block){0};
                cands[pick].src = NULL;
                progress = true;
            }
            for (unsigned i = 0; i < n; i++) {
                bfree(&cands[i].prog);
                free(cands[i].src);
            }
            round++;
            if (progress || !more)
                break;
        }
        if (opt.verbose)
            printf("simt: round %u: %zu bytes\n", round, strlen(best->src));
        if (!progress)
            break;
    }
    quiet = false;
    struct run *r = run_new(best, 1, width);
    run_all(&r, 1);
    report(r, 0, "smallest failing kernel");
    write_kernel(best, width, "-min");
    run_free(r);
    bfree(&best->prog);
    free(best->src);
    free(best);
    free(cands);
}

/* ---- Main ---- */

static void usage(void)
{
    fprintf(stderr,
            "usage: simt [--seed S] [--count N] [--widths 8,16,32] [--jobs J] [--depth D]\n"
            "            [--no-exit-paths] [--no-2d] [--no-reduce] [--no-classify] [--keep-going]\n"
            "            [--verbose]\n"
            "            [--kernel FILE] [--no-CAPABILITY...]\n"
            "(--no-exit-paths: no sub-group function in a block that leaves a loop;\n"
            " --kernel: a file a failure wrote (simt-<seed>-w<W>[-min].cl), run again;\n"
            " capabilities:");
    for (unsigned c = 0; c < NUM_CAPS; c++)
        fprintf(stderr, " %s", cap_names[c]);
    fprintf(stderr, ")\n");
    exit(2);
}

static void parse(int argc, char **argv)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    opt.jobs = cpus > 0 ? (unsigned)cpus : 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seed") && v) {
            opt.seed = strtoull(v, NULL, 0);
            i++;
        } else if (!strcmp(a, "--count") && v) {
            opt.count = (unsigned)strtoul(v, NULL, 0);
            i++;
        } else if (!strcmp(a, "--jobs") && v) {
            opt.jobs = (unsigned)strtoul(v, NULL, 0);
            i++;
        } else if (!strcmp(a, "--depth") && v) {
            opt.depth = (unsigned)strtoul(v, NULL, 0);
            i++;
        } else if (!strcmp(a, "--widths") && v) {
            opt.num_widths = 0;
            for (char *s = (char *)v; *s;) {
                unsigned w = (unsigned)strtoul(s, &s, 10);
                if (w != 1 && w != 8 && w != 16 && w != 32)
                    usage();
                if (opt.num_widths < 4)
                    opt.widths[opt.num_widths++] = w;
                if (*s == ',')
                    s++;
                else if (*s)
                    usage();
            }
            i++;
        } else if (!strcmp(a, "--kernel") && v) {
            opt.kernel = v;
            i++;
        } else if (!strcmp(a, "--verbose")) {
            opt.verbose = true;
        } else if (!strcmp(a, "--keep-going")) {
            opt.keep_going = true;
        } else if (!strcmp(a, "--no-exit-paths")) {
            opt.no_exit_paths = true;
        } else if (!strcmp(a, "--no-2d")) {
            opt.two_d = false;
        } else if (!strcmp(a, "--no-reduce")) {
            opt.no_reduce = true;
        } else if (!strcmp(a, "--no-classify")) {
            opt.no_classify = true;
        } else if (!strncmp(a, "--no-", 5)) {
            unsigned c = 0;
            while (c < NUM_CAPS && strcmp(a + 5, cap_names[c]))
                c++;
            if (c == NUM_CAPS)
                usage();
            opt.no_caps |= 1u << c;
        } else {
            usage();
        }
    }
    if (!opt.jobs)
        opt.jobs = 1;
    if (!opt.count || opt.count > MAX_CASES || !opt.num_widths)
        usage();
}

int main(int argc, char **argv)
{
    parse(argc, argv);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    opt.caps = probe_caps() & ~opt.no_caps;
    if (opt.verbose) {
        printf("simt: device capabilities:");
        for (unsigned c = 0; c < NUM_CAPS; c++)
            if (has(c))
                printf(" %s", cap_names[c]);
        printf("\n");
    }
    if (opt.kernel)
        opt.count = 1;
    struct tcase *cases = calloc(opt.count, sizeof *cases);
    for (unsigned i = 0; i < opt.count; i++) {
        if (opt.kernel)
            read_kernel(&cases[i], opt.kernel);
        else
            make_case(&cases[i], opt.seed + i);
        if (opt.verbose) {
            char shape[96];
            describe_shape(&cases[i], shape, sizeof shape);
            printf("simt: seed %" PRIu64 ": %s\n%s", cases[i].seed, shape, cases[i].src);
        }
    }
    struct run *runs[4];
    for (unsigned w = 0; w < opt.num_widths; w++)
        runs[w] = run_new(cases, opt.count, opt.widths[w]);
    run_all(runs, opt.num_widths);

    unsigned failed = 0, reported = 0, *failing = calloc(opt.count, sizeof *failing);
    bool run_error = false;
    for (unsigned w = 0; w < opt.num_widths; w++)
        if (runs[w]->error[0]) {
            printf("simt: width %u: %s\n", runs[w]->width, runs[w]->error);
            run_error = true;
            if (runs[w]->setup_failed)
                return 1;
        }
    for (unsigned i = 0; i < opt.count; i++) {
        unsigned w = 0;
        while (w < opt.num_widths && !check(runs[w], i, false))
            w++;
        if (w == opt.num_widths)
            continue;
        failing[failed++] = i;
        if (reported++ && !opt.keep_going) {
            printf("simt: FAIL: seed %" PRIu64 ", width %u (not shown: see --keep-going)\n",
                   cases[i].seed, runs[w]->width);
            continue;
        }
        report(runs[w], i, "FAIL");
        for (unsigned x = w + 1; x < opt.num_widths; x++)
            if (check(runs[x], i, false))
                printf("  (fails at width %u too)\n", runs[x]->width);
        write_kernel(&cases[i], runs[w]->width, "");
        if (!opt.kernel && !opt.no_reduce && runs[w]->status[i] == ST_OK)
            reduce(&cases[i], runs[w]->width);
    }
    if (failed && !opt.no_classify)
        classify(cases, failing, failed, runs);
    free(failing);
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    unsigned with_exit_calls = 0;
    for (unsigned i = 0; i < opt.count; i++) {
        unsigned before = exit_calls;
        count_calls(&cases[i].prog, false, false);
        with_exit_calls += exit_calls > before;
    }
    printf("simt: sub-group functions called:");
    for (unsigned f = 0; f < NUM_FAMS; f++)
        printf(" %s %u,", fam_names[f], fam_count[f]);
    printf(" %u of them on exit paths (in %u kernels)\n", exit_calls, with_exit_calls);
    for (unsigned w = 0; w < opt.num_widths; w++) {
        unsigned at = 0;
        for (unsigned i = 0; i < opt.count; i++)
            at += runs[w]->status[i] == ST_OK && ran_width(runs[w], i) == runs[w]->width;
        printf("simt: width %u: %u of %u kernels ran at that width\n", runs[w]->width, at,
               opt.count);
        unsigned listed = 0;
        for (unsigned i = 0; i < opt.count && at < opt.count; i++)
            if (runs[w]->status[i] == ST_OK && ran_width(runs[w], i) != runs[w]->width &&
                listed++ < 8)
                printf("simt: width %u: seed %" PRIu64 " ran at %u\n", runs[w]->width,
                       cases[i].seed, ran_width(runs[w], i));
    }
    if (opt.kernel)
        printf("simt: %s, %.1f s\n", opt.kernel,
               (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    else
        printf("simt: seeds %" PRIu64 "..%" PRIu64 ", %.1f s\n", opt.seed, opt.seed + opt.count - 1,
               (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    printf("simt: %u passed, %u failed\n", opt.count - failed, failed);
    for (unsigned w = 0; w < opt.num_widths; w++)
        run_free(runs[w]);
    for (unsigned i = 0; i < opt.count; i++) {
        bfree(&cases[i].prog);
        free(cases[i].src);
    }
    free(cases);
    return failed || run_error ? 1 : 0;
}
