/* SPDX-License-Identifier: MIT */
/*
 * Differential tester of the vectorizer: random OpenCL C kernels run at
 * W = 1 (the reference) and at W = 8, 16 and 32, every output compared bit
 * for bit (two NaNs count as equal: their payloads are not specified).
 *
 * LANES_WIDTH is read once per process, so this process never calls OpenCL:
 * it generates every kernel, its launch shape and its inputs from the seed,
 * then forks one child per width. The child sets LANES_WIDTH, builds and
 * runs each kernel through the ICD loader and writes the outputs, a status
 * and whether the kernel ran vectorized into memory it shares with the
 * parent, its progress too: a child that dies is reported with the kernel
 * it was running and restarted after it.
 *
 * Generated kernels stay inside defined behaviour, so that any difference is
 * a bug: signed arithmetic wraps through uint, float to int goes through
 * convert_*_sat, indices are masked into range, loops count a private
 * counter down, barriers only sit in uniform control flow with no return
 * before them, and an atomic on a per-work-group slot changes it at most
 * once per work-item (never in a generated loop; a compare-exchange loop
 * succeeds once) so that the old values it returns follow the work-items'
 * linear order at every width. Sub-group functions
 * sit in uniform control flow too, in identities whose value does not
 * depend on the width (an inclusive minus an exclusive scan is the value
 * itself); the non-uniform ones (cl_khr_subgroup_*) anywhere, in identities
 * that hold for any set of active work-items. x / 0 and
 * INT_MIN / -1 are generated on purpose: Lanes gives them a value, which
 * must not depend on the width.
 */
#include "kernels.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NIN 1024       /* elements of each input buffer, a power of two */
#define NV 3           /* variables of each type */
#define SLOTS (NV + 2) /* output slots per work-item and type: the variables, two stores */
#define GA 4           /* atomic counters per work-group */
#define GO 2           /* output slots per work-group */
#define LMAX 64        /* the largest work-group */
#define SENTINEL 0xa5a5a5a5u
#define MAX_GROUPS 64
#define STR_(x) #x
#define STR(x) STR_(x)
#define MAX_CASES 100000

/* ---- Options ---- */

enum feature {
    F_IF,
    F_SWITCH,
    F_LOOPS,
    F_BREAK,
    F_RETURN,
    F_ARRAYS,
    F_DIVISION,
    F_FLOAT,
    F_MATH,
    F_INT_BUILTINS,
    F_SELECT,
    F_VECTORS,
    F_ATOMICS,
    F_LOCAL,
    F_GATHER,
    F_2D,
    F_NON_UNIFORM,
    F_SUBGROUPS,
    F_EXCHANGE, /* drawn only when on: --no-exchange gives a seed its choices from before */
    NUM_FEATURES
};

static const char *const feature_names[NUM_FEATURES] = {
    "if",     "switch", "loops",        "break",     "return",   "arrays",  "division",
    "float",  "math",   "int-builtins", "select",    "vectors",  "atomics", "local",
    "gather", "2d",     "non-uniform",  "subgroups", "exchange",
};

/* What the generator may emit; a test case is its seed and this. */
struct gen_cfg {
    uint32_t features;  /* bit per enum feature */
    unsigned depth;     /* nesting of compound statements */
    unsigned block_len; /* statements per block, at most */
    unsigned expr_depth;
};

static struct {
    uint64_t seed;
    unsigned count;
    unsigned widths[8];
    unsigned num_widths;
    unsigned jobs;
    bool verbose;
    bool keep_going;
    bool tier0;          /* --tier0: the widths under test run tier 0, the reference tier 1 */
    unsigned interleave; /* --interleave K: the widths under test run K sub-groups a vector */
    const char *kernel;  /* --kernel: this source instead of the seed's (a hand reduction) */
    struct gen_cfg cfg;
} opt = {
    .seed = 1,
    .count = 150,
    .widths = {8, 16, 32},
    .num_widths = 3,
    .cfg = {(1u << NUM_FEATURES) - 1, 3, 5, 3},
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

/* ---- Kernel generator ---- */

enum type { T_INT, T_UINT, T_FLOAT };
static const char var_prefix[] = {'i', 'u', 'f'};
static const char *const out_name[] = {"oi", "ou", "of"};

struct gen {
    struct rng r;
    const struct gen_cfg *cfg;
    char *src;
    unsigned indent;
    unsigned loop_depth;
    unsigned names; /* loop counters and vector locals named so far */
    unsigned scope[32];
    unsigned num_scope; /* loop counters readable here */
    unsigned atomics;   /* per-work-group atomic slots used */
    bool may_return;
};

static bool on(const struct gen *g, enum feature f)
{
    return g->cfg->features >> f & 1;
}

/* A line of the kernel at the current indentation. */
__attribute__((format(printf, 2, 3))) static void line(struct gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s;
    if (vasprintf(&s, fmt, ap) < 0)
        abort();
    va_end(ap);
    kt_append(&g->src, "%*s%s\n", (int)(4 * g->indent), "", s);
    free(s);
}

static char *expr(struct gen *g, enum type t, unsigned depth);

static enum type any_type(struct gen *g)
{
    return below(&g->r, on(g, F_FLOAT) ? 3 : 2);
}

static char *constant(struct gen *g, enum type t)
{
    static const char *const ints[] = {
        "0",      "1", "-1", "2", "3", "7", "-8", "31", "255", "0x7fffffff", "(-0x7fffffff - 1)",
        "0x10000"};
    static const char *const uints[] = {"0u",          "1u",          "2u",          "7u",    "31u",
                                        "0xffffffffu", "0x80000000u", "0x7fffffffu", "65535u"};
    static const char *const floats[] = {"0.0f",   "-0.0f",   "1.0f",     "-1.5f",
                                         "0.5f",   "3.0f",    "1e30f",    "-1e-30f",
                                         "1e-40f", "100.25f", "INFINITY", "NAN"};
    struct rng *r = &g->r;
    bool special = chance(r, 50);
    switch (t) {
    case T_INT:
        return special ? strdup(ints[below(r, 12)]) : kt_format("%d", (int)below(r, 200) - 100);
    case T_UINT: return special ? strdup(uints[below(r, 9)]) : kt_format("%uu", below(r, 1000));
    case T_FLOAT:
        if (special && chance(r, 70))
            return strdup(floats[below(r, chance(r, 80) ? 10 : 12)]);
        return kt_format("%.3ff", (double)((int)below(r, 20000) - 10000) / 256);
    }
    abort();
}

static char *leaf(struct gen *g, enum type t)
{
    static const char *const ids[] = {"gid", "lid", "lsize", "grpid"};
    static const char *const fns[] = {"get_local_id", "get_group_id", "get_local_size",
                                      "get_global_id", "get_num_groups"};
    struct rng *r = &g->r;
    for (;;) {
        switch (below(r, 10)) {
        case 0:
        case 1:
        case 2:
        case 3: return kt_format("%c%u", var_prefix[t], below(r, NV));
        case 4:
        case 5: return constant(g, t);
        case 6:
            if (t == T_FLOAT || !g->num_scope)
                continue;
            return kt_format("%sc%u", t == T_UINT ? "(uint)" : "",
                             g->scope[below(r, g->num_scope)]);
        case 7:
            if (t == T_FLOAT)
                continue;
            return kt_format("%s%s", t == T_UINT ? "(uint)" : "", ids[below(r, 4)]);
        case 8:
            if (t == T_FLOAT)
                continue;
            return kt_format("(%s)%s(%u)", t == T_UINT ? "uint" : "int", fns[below(r, 5)],
                             below(r, 2));
        case 9:
            if (t != T_INT || !on(g, F_ARRAYS))
                continue;
            return kt_format("pa[IXP(i%u)]", below(r, NV));
        }
    }
}

/* The divisor of a division: often a constant 0 or -1 or a value that can be 0. */
static char *divisor(struct gen *g, enum type t, unsigned depth)
{
    switch (below(&g->r, 5)) {
    case 0: return strdup(t == T_INT ? (chance(&g->r, 50) ? "0" : "-1") : "0u");
    case 1: {
        char *e = expr(g, t, depth);
        char *s = kt_format("(%s & %s)", e, t == T_INT ? "1" : "1u");
        free(e);
        return s;
    }
    default: return expr(g, t, depth);
    }
}

/* fmt applied to n fresh subexpressions of types ts. */
static char *compose(struct gen *g, unsigned depth, const char *fmt, unsigned n,
                     const enum type *ts)
{
    char *a[3] = {0};
    for (unsigned i = 0; i < n; i++)
        a[i] = expr(g, ts[i], depth);
    char *s = kt_format(fmt, a[0], a[1], a[2]);
    for (unsigned i = 0; i < n; i++)
        free(a[i]);
    return s;
}

#define COMPOSE(fmt, ...)                                                                          \
    compose(g, d, fmt, sizeof((enum type[]){__VA_ARGS__}) / sizeof(enum type),                     \
            (enum type[]){__VA_ARGS__})

static char *int_expr(struct gen *g, unsigned d)
{
    static const char *const macros[] = {"ADD", "SUB", "MUL", "SHL"};
    static const char *const bitwise[] = {"&", "|", "^"};
    static const char *const cmps[] = {"<", "<=", "==", "!=", ">", ">="};
    static const char *const bin2[] = {"min",     "max",     "rotate", "mul_hi",
                                       "add_sat", "sub_sat", "hadd",   "rhadd"};
    struct rng *r = &g->r;
    for (;;) {
        switch (below(r, 16)) {
        case 0:
        case 1: {
            char *f = kt_format("%s(%%s, %%s)", macros[below(r, 4)]);
            char *s = COMPOSE(f, T_INT, T_INT);
            free(f);
            return s;
        }
        case 2: {
            char *f = kt_format("(%%s %s %%s)", bitwise[below(r, 3)]);
            char *s = COMPOSE(f, T_INT, T_INT);
            free(f);
            return s;
        }
        case 3: return COMPOSE("(%s >> %s)", T_INT, T_INT);
        case 4: {
            if (!on(g, F_DIVISION))
                continue;
            char *a = expr(g, T_INT, d), *b = divisor(g, T_INT, d);
            char *s = kt_format(chance(r, 50) ? "DIV(%s, %s)" : "REM(%s, %s)", a, b);
            free(a);
            free(b);
            return s;
        }
        case 5: {
            enum type t = any_type(g);
            char *f = kt_format("(%%s %s %%s)", cmps[below(r, 6)]);
            char *s = compose(g, d, f, 2, (enum type[]){t, t});
            free(f);
            return s;
        }
        case 6: return COMPOSE(chance(r, 50) ? "(%s && %s)" : "(%s || %s)", T_INT, T_INT);
        case 7:
            return COMPOSE(chance(r, 30) ? "(!%s)" : chance(r, 50) ? "(~%s)" : "SUB(0, %s)", T_INT);
        case 8: return COMPOSE("(int)%s", T_UINT);
        case 9:
            if (!on(g, F_FLOAT))
                continue;
            return COMPOSE("convert_int_sat(%s)", T_FLOAT);
        case 10:
            if (!on(g, F_SELECT))
                continue;
            return COMPOSE(chance(r, 50) ? "(%s ? %s : %s)" : "select(%2$s, %3$s, %1$s)", T_INT,
                           T_INT, T_INT);
        case 11:
        case 12: {
            if (!on(g, F_INT_BUILTINS))
                continue;
            switch (below(r, 4)) {
            case 0: {
                char *f = kt_format("%s(%%s, %%s)", bin2[below(r, 8)]);
                char *s = COMPOSE(f, T_INT, T_INT);
                free(f);
                return s;
            }
            case 1: return COMPOSE(chance(r, 50) ? "popcount(%s)" : "clz(%s)", T_INT);
            case 2:
                return COMPOSE(chance(r, 50) ? "(int)abs(%s)" : "(int)abs_diff(%s, %s)", T_INT,
                               T_INT);
            default:
                return COMPOSE(chance(r, 50) ? "clamp(%s, -5, 100)" : "mad_sat(%s, %s, %s)", T_INT,
                               T_INT, T_INT);
            }
        }
        case 13:
        case 14:
            if (!on(g, F_GATHER))
                continue;
            if (chance(r, 30)) {
                /* A neighbour's, clamped to uniform bounds (a vector load where none bites). */
                static const char *const lo[] = {"0", "5"};
                static const char *const hi[] = {"NIN - 1", "100", "min(lsize + 5, NIN - 1)"};
                return kt_format("ia[clamp(gid + (%d), %s, %s)]", (int)below(r, 7) - 3,
                                 lo[below(r, 2)], hi[below(r, 3)]);
            }
            return COMPOSE(chance(r, 60) ? "ia[IX(%s)]" : "(int)ub[IX(%s)]", T_INT);
        case 15:
            if (!on(g, F_ARRAYS))
                continue;
            return COMPOSE("pa[IXP(%s)]", T_INT);
        }
    }
}

static char *uint_expr(struct gen *g, unsigned d)
{
    static const char *const ops[] = {"+", "-", "*", "<<", ">>", "&", "|", "^"};
    static const char *const bin2[] = {"min",     "max",     "rotate", "mul_hi",
                                       "add_sat", "sub_sat", "hadd",   "abs_diff"};
    struct rng *r = &g->r;
    for (;;) {
        switch (below(r, 12)) {
        case 0:
        case 1:
        case 2: {
            char *f = kt_format("(%%s %s %%s)", ops[below(r, 8)]);
            char *s = COMPOSE(f, T_UINT, T_UINT);
            free(f);
            return s;
        }
        case 3: return COMPOSE("(~%s)", T_UINT);
        case 4: {
            if (!on(g, F_DIVISION))
                continue;
            char *a = expr(g, T_UINT, d), *b = divisor(g, T_UINT, d);
            char *s = kt_format(chance(r, 50) ? "DIV(%s, %s)" : "REM(%s, %s)", a, b);
            free(a);
            free(b);
            return s;
        }
        case 5: return COMPOSE("(uint)%s", T_INT);
        case 6:
            if (!on(g, F_FLOAT))
                continue;
            return COMPOSE("convert_uint_sat(%s)", T_FLOAT);
        case 7:
            if (!on(g, F_SELECT))
                continue;
            return COMPOSE(chance(r, 50) ? "(%s ? %s : %s)" : "select(%2$s, %3$s, %1$s)", T_INT,
                           T_UINT, T_UINT);
        case 8:
        case 9: {
            if (!on(g, F_INT_BUILTINS))
                continue;
            if (chance(r, 30))
                return COMPOSE(chance(r, 50) ? "popcount(%s)" : "clamp(%s, 3u, 1000u)", T_UINT);
            char *f = kt_format("%s(%%s, %%s)", bin2[below(r, 8)]);
            char *s = COMPOSE(f, T_UINT, T_UINT);
            free(f);
            return s;
        }
        case 10:
        case 11:
            if (!on(g, F_GATHER))
                continue;
            return COMPOSE("ub[IX(%s)]", T_INT);
        }
    }
}

static char *float_expr(struct gen *g, unsigned d)
{
    static const char *const ops[] = {"+", "-", "*", "/"};
    static const char *const un[] = {"sqrt", "sin",   "cos",  "exp",   "log",
                                     "fabs", "floor", "ceil", "trunc", "rint"};
    static const char *const bin[] = {"fmin", "fmax", "fmod", "hypot"};
    struct rng *r = &g->r;
    for (;;) {
        switch (below(r, 10)) {
        case 0:
        case 1:
        case 2: {
            char *f = kt_format("(%%s %s %%s)", ops[below(r, 4)]);
            char *s = COMPOSE(f, T_FLOAT, T_FLOAT);
            free(f);
            return s;
        }
        case 3: return COMPOSE("(-(%s))", T_FLOAT);
        case 4: return COMPOSE("(float)%s", chance(r, 50) ? T_INT : T_UINT);
        case 5:
        case 6: {
            if (!on(g, F_MATH))
                continue;
            char *f;
            switch (below(r, 3)) {
            case 0: f = kt_format("%s(%%s)", un[below(r, 10)]); break;
            case 1: f = kt_format("%s(%%s, %%s)", bin[below(r, 4)]); break;
            default:
                /* Not mad: its precision is the implementation's, and may differ between widths.
                   The draw stays, so that every seed keeps its kernel. */
                f = kt_format("%s(%%s, %%s, %%s)", chance(r, 50) ? "fma" : "fma");
                break;
            }
            char *s = COMPOSE(f, T_FLOAT, T_FLOAT, T_FLOAT);
            free(f);
            return s;
        }
        case 7:
            if (!on(g, F_SELECT))
                continue;
            return COMPOSE(chance(r, 50) ? "(%s ? %s : %s)" : "select(%2$s, %3$s, %1$s)", T_INT,
                           T_FLOAT, T_FLOAT);
        case 8:
        case 9:
            if (!on(g, F_GATHER))
                continue;
            if (chance(r, 30))
                return kt_format("fc[clamp(gid + (%d), 0, NIN - 1)]", (int)below(r, 7) - 3);
            return COMPOSE("fc[IX(%s)]", T_INT);
        }
    }
}

/* An expression of type t, side-effect free, at most depth operators deep. */
static char *expr(struct gen *g, enum type t, unsigned depth)
{
    if (depth == 0 || chance(&g->r, 25))
        return leaf(g, t);
    switch (t) {
    case T_INT: return int_expr(g, depth - 1);
    case T_UINT: return uint_expr(g, depth - 1);
    case T_FLOAT: return float_expr(g, depth - 1);
    }
    abort();
}

static char *cond(struct gen *g)
{
    return expr(g, T_INT, g->cfg->expr_depth);
}

static void block(struct gen *g, unsigned depth);

static void assign(struct gen *g)
{
    static const char *const int_forms[] = {"%s = %s;", "%s = ADD(%s, %s);", "%s ^= %s;"};
    static const char *const other_forms[] = {"%s = %s;", "%s += %s;", "%s *= %s;", "%s -= %s;"};
    enum type t = any_type(g);
    char *v = kt_format("%c%u", var_prefix[t], below(&g->r, NV));
    char *e = expr(g, t, g->cfg->expr_depth);
    unsigned k = below(&g->r, t == T_INT ? 3 : t == T_UINT ? 3 : 4);
    if (t == T_INT && k == 1)
        line(g, int_forms[1], v, v, e);
    else if (t == T_UINT && k == 2)
        line(g, "%s ^= %s;", v, e);
    else
        line(g, t == T_INT ? int_forms[k] : other_forms[k], v, e);
    free(v);
    free(e);
}

static void vector_block(struct gen *g)
{
    unsigned n = g->names++;
    struct rng *r = &g->r;
    unsigned ed = g->cfg->expr_depth > 1 ? g->cfg->expr_depth - 1 : 0;
    line(g, "{");
    g->indent++;
    if (!on(g, F_FLOAT) || chance(r, 50)) {
        char *e[4];
        for (unsigned i = 0; i < 4; i++)
            e[i] = expr(g, T_INT, ed);
        line(g, "int4 v%u = (int4)(%s, %s, %s, %s);", n, e[0], e[1], e[2], e[3]);
        for (unsigned i = 0; i < 4; i++)
            free(e[i]);
        char *m = expr(g, T_UINT, ed);
        line(g, "v%u = as_int4(as_uint4(v%u) * (uint4)(%s) + as_uint4(v%u.wzyx));", n, n, m, n);
        free(m);
        if (chance(r, 50))
            line(g, "v%u.yzw = v%u.yzw ^ (v%u.xxy >> (int3)(%u, 1, 7));", n, n, n, below(r, 32));
        else
            line(g, "v%u = select(v%u, v%u.zwxy, v%u > (int4)(i%u));", n, n, n, n, below(r, NV));
        line(g, "i%u ^= v%u.x ^ v%u.w;", below(r, NV), n, n);
        line(g, "i%u = ADD(i%u, v%u.y);", below(r, NV), below(r, NV), n);
    } else {
        char *e[4];
        for (unsigned i = 0; i < 4; i++)
            e[i] = expr(g, T_FLOAT, ed);
        line(g, "float4 v%u = (float4)(%s, %s, %s, %s);", n, e[0], e[1], e[2], e[3]);
        for (unsigned i = 0; i < 4; i++)
            free(e[i]);
        char *a = expr(g, T_FLOAT, ed);
        line(g, "v%u = v%u * v%u.yzwx + (float4)(%s);", n, n, n, a);
        free(a);
        if (on(g, F_MATH))
            line(g, "v%u.xy = fmin(v%u.xy, v%u.zw);", n, n, n);
        line(g, "f%u = v%u.x + v%u.z;", below(r, NV), n, n);
        line(g, "u%u ^= convert_uint_sat(v%u.w);", below(r, NV), n);
    }
    g->indent--;
    line(g, "}");
}

/* A for, while or do-while loop of at most 7 (3 when nested) data-dependent trips. */
static void loop(struct gen *g, unsigned depth)
{
    unsigned c = g->names++, kind = below(&g->r, 3);
    char *bound = expr(g, T_INT, g->cfg->expr_depth);
    unsigned mask = g->loop_depth ? 3 : 7;
    if (kind == 0) {
        line(g, "for (int c%u = 0; c%u < (int)((uint)(%s) & %uu); c%u++) {", c, c, bound, mask, c);
    } else {
        /* The counter counts down first, so that continue cannot skip it. */
        line(g, "{");
        g->indent++;
        line(g, "int c%u = (int)((uint)(%s) & %uu);", c, bound, mask);
        if (kind == 1)
            line(g, "while (c%u > 0) {", c);
        else
            line(g, "do {");
        line(g, "    c%u--;", c);
    }
    free(bound);
    g->indent++;
    g->scope[g->num_scope++] = c;
    g->loop_depth++;
    block(g, depth - 1);
    g->loop_depth--;
    g->num_scope--;
    g->indent--;
    if (kind == 2)
        line(g, "} while (c%u > 0);", c);
    else
        line(g, "}");
    if (kind != 0) {
        g->indent--;
        line(g, "}");
    }
}

static void nonuniform_stmt(struct gen *g);

static void stmt(struct gen *g, unsigned depth)
{
    struct rng *r = &g->r;
    for (;;) {
        switch (below(r, 21)) {
        default: assign(g); return;
        case 19:
            if (!on(g, F_SUBGROUPS))
                continue;
            nonuniform_stmt(g);
            return;
        case 8: {
            enum type t = any_type(g);
            char *e = expr(g, t, g->cfg->expr_depth);
            line(g, "%s[gid * SLOTS + %u] = %s;", out_name[t], NV + below(r, 2), e);
            free(e);
            return;
        }
        case 9:
        case 10: {
            if (!depth || !on(g, F_IF))
                continue;
            char *c = cond(g);
            line(g, "if (%s) {", c);
            free(c);
            g->indent++;
            block(g, depth - 1);
            g->indent--;
            if (chance(r, 60)) {
                line(g, "} else {");
                g->indent++;
                block(g, depth - 1);
                g->indent--;
            }
            line(g, "}");
            return;
        }
        case 11: {
            if (!depth || !on(g, F_SWITCH))
                continue;
            char *c = expr(g, T_INT, g->cfg->expr_depth);
            line(g, "switch ((%s) & 3) {", c);
            free(c);
            for (unsigned k = 0; k < 4; k++) {
                if (k < 3 && chance(r, 25))
                    continue; /* no such case: default takes it */
                if (k == 3)
                    line(g, "default: {");
                else
                    line(g, "case %u: {", k);
                g->indent++;
                block(g, depth - 1);
                g->indent--;
                line(g, chance(r, 70) || k == 3 ? "} break;" : "} /* falls through */");
            }
            line(g, "}");
            return;
        }
        case 12:
        case 13:
            if (!depth || !on(g, F_LOOPS))
                continue;
            loop(g, depth);
            return;
        case 14: {
            if (!g->loop_depth || !on(g, F_BREAK))
                continue;
            char *c = cond(g);
            line(g, "if (%s) %s;", c, chance(r, 50) ? "break" : "continue");
            free(c);
            return;
        }
        case 15: {
            if (!g->may_return || !on(g, F_RETURN) || chance(r, 50))
                continue;
            char *c = cond(g);
            line(g, "if (%s) return;", c);
            free(c);
            return;
        }
        case 16: {
            if (!on(g, F_ARRAYS))
                continue;
            char *i = expr(g, T_INT, g->cfg->expr_depth), *e = expr(g, T_INT, g->cfg->expr_depth);
            line(g, "pa[IXP(%s)] = %s;", i, e);
            free(i);
            free(e);
            return;
        }
        case 17:
            if (!on(g, F_VECTORS))
                continue;
            vector_block(g);
            return;
        case 18: {
            static const char *const ops[] = {"atomic_add", "atomic_sub", "atomic_xor",
                                              "atomic_max", "atomic_min", "atomic_inc"};
            if (g->loop_depth || g->atomics >= GA || !on(g, F_ATOMICS))
                continue;
            unsigned op = below(r, 6), slot = g->atomics++, v = below(r, NV);
            if (on(g, F_EXCHANGE) && chance(r, 40))
                op = 6 + below(r, 2);
            /*
             * In a block of its own: jump threading could otherwise copy
             * the atomic into both arms of a later branch on a condition
             * its operand depends on (a `c ? x : y` operand before an
             * `if (c)`), and a sub-group runs those arms one after the
             * other, its lanes meeting the atomic out of their order (an
             * order the memory model allows, but not width 1's).
             */
            line(g, "if (zero == 0) {");
            g->indent++;
            if (op == 6) {
                char *e = expr(g, T_INT, g->cfg->expr_depth);
                line(g, "i%u ^= atomic_xchg(&grp[grpid * GA + %u], %s);", v, slot, e);
                free(e);
            } else if (op == 7) {
                /*
                 * A compare-exchange loop: the first try of each work-item
                 * succeeds at width 1; in a sub-group the lanes succeed one
                 * per try, in lane order, each from the value the lanes
                 * before it left.
                 */
                char *e = expr(g, T_INT, g->cfg->expr_depth);
                line(g, "int d = %s;", e);
                line(g, "int o = atomic_or(&grp[grpid * GA + %u], 0), w;", slot);
                line(g, "while ((w = atomic_cmpxchg(&grp[grpid * GA + %u], o, %s)) != o)", slot,
                     chance(r, 50) ? "ADD(o, d)" : "o ^ d");
                line(g, "    o = w;");
                line(g, "i%u ^= o;", v);
                free(e);
            } else if (op == 5) {
                line(g, "i%u = ADD(i%u, atomic_inc(&grp[grpid * GA + %u]));", v, v, slot);
            } else {
                char *e = expr(g, T_INT, g->cfg->expr_depth);
                line(g, "i%u ^= %s(&grp[grpid * GA + %u], %s);", v, ops[op], slot, e);
                free(e);
            }
            g->indent--;
            line(g, "}");
            return;
        }
        }
    }
}

static void block(struct gen *g, unsigned depth)
{
    unsigned n = 1 + below(&g->r, g->cfg->block_len);
    for (unsigned i = 0; i < n; i++)
        stmt(g, depth);
}

/* Work-items exchange values through local memory between two barriers. */
static void exchange(struct gen *g, unsigned k)
{
    struct rng *r = &g->r;
    char *e = expr(g, T_INT, g->cfg->expr_depth);
    line(g, "lm[lid] = %s;", e);
    free(e);
    line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
    unsigned v = below(r, NV);
    switch (below(r, 3)) {
    case 0: line(g, "i%u = ADD(i%u, lm[(lid + %u) %% lsize]);", v, v, 1 + below(r, 7)); break;
    case 1: line(g, "i%u ^= lm[lsize - 1 - lid];", v); break;
    default: {
        char *i = expr(g, T_INT, g->cfg->expr_depth);
        line(g, "i%u = SUB(i%u, lm[(uint)(%s) %% (uint)lsize]);", v, v, i);
        free(i);
    }
    }
    line(g, "if (lid == 0) {");
    line(g, "    int s = 0;");
    line(g, "    for (int k = 0; k < lsize; k++)");
    line(g, "        s = ADD(MUL(s, 31), lm[k]);");
    line(g, "    og[grpid * GO + %u] = s;", k % GO);
    line(g, "}");
    line(g, "barrier(CLK_LOCAL_MEM_FENCE);");
}

/*
 * A statement of sub-group functions (uniform control flow, no return
 * before it), whose effect is the same at every width: each identity holds
 * in any sub-group.
 */
static void subgroup_stmt(struct gen *g)
{
    struct rng *r = &g->r;
    unsigned v = below(r, NV);
    char *e = expr(g, below(r, 2) ? T_INT : T_UINT, g->cfg->expr_depth);
    switch (below(r, 4)) {
    case 0:
        line(g,
             "i%u = ADD(i%u, SUB(sub_group_scan_inclusive_add(%s), "
             "sub_group_scan_exclusive_add(%s)));",
             v, v, e, e);
        break;
    case 1:
        line(g,
             "i%u = ADD(i%u, (sub_group_reduce_max(%s) >= (%s)) + "
             "(sub_group_reduce_min(%s) <= (%s)));",
             v, v, e, e, e, e);
        break;
    case 2:
        line(g, "u%u ^= sub_group_scan_inclusive_max(%s) >= (%s) ? (uint)(%s) : 0u;", v, e, e, e);
        break;
    default:
        line(g,
             "u%u += (uint)sub_group_all(1) + (uint)sub_group_any((%s) == (%s)) + "
             "(get_sub_group_id() * get_max_sub_group_size() + get_sub_group_local_id() == "
             "(uint)lid);",
             v, e, e);
        break;
    }
    free(e);
}

/*
 * A statement of the non-uniform sub-group functions, anywhere (divergent
 * branches, loops, after a return): each identity holds for any set of
 * active work-items, so the effect is the same at every width, and a lane
 * the mask should leave out but does not breaks it.
 */
static void nonuniform_stmt(struct gen *g)
{
    struct rng *r = &g->r;
    unsigned v = below(r, NV);
    char *e = expr(g, T_INT, g->cfg->expr_depth), *u = expr(g, T_UINT, g->cfg->expr_depth);
    switch (below(r, 8)) {
    case 0:
        line(g,
             "i%u = ADD(i%u, SUB(sub_group_non_uniform_scan_inclusive_add(%s), "
             "sub_group_non_uniform_scan_exclusive_add(%s)));",
             v, v, e, e);
        break;
    case 1:
        line(g,
             "u%u += (sub_group_non_uniform_scan_inclusive_mul(%s) - "
             "sub_group_non_uniform_scan_exclusive_mul(%s) * (%s)) + "
             "(sub_group_non_uniform_scan_inclusive_xor(%s) ^ "
             "sub_group_non_uniform_scan_exclusive_xor(%s));",
             v, u, u, u, u, u);
        break;
    case 2:
        line(g,
             "i%u = ADD(i%u, (char)(sub_group_non_uniform_scan_inclusive_add((char)(%s)) - "
             "sub_group_non_uniform_scan_exclusive_add((char)(%s))) + "
             "(sub_group_non_uniform_reduce_max((short)(%s)) >= (short)(%s)));",
             v, v, e, e, e, e);
        break;
    case 3:
        line(g,
             "u%u ^= (uint)sub_group_ballot_bit_extract(sub_group_ballot(%s), "
             "get_sub_group_local_id()) + 2u * (uint)sub_group_inverse_ballot("
             "sub_group_ballot(%s)) + 4u * (uint)(%s);",
             v, e, e, e);
        break;
    case 4:
        line(g,
             "i%u = ADD(i%u, sub_group_shuffle(%s, get_sub_group_local_id()) ^ "
             "sub_group_shuffle_xor(%s, 0u) ^ sub_group_shuffle_up(%s, 0u) ^ "
             "sub_group_rotate(%s, 0) ^ sub_group_clustered_reduce_add(%s, 1u));",
             v, v, e, e, e, e, e);
        break;
    case 5:
        line(g,
             "u%u += (uint)sub_group_non_uniform_reduce_add(sub_group_elect()) + "
             "(uint)sub_group_non_uniform_all(1) + (uint)sub_group_non_uniform_any(1) + "
             "sub_group_ballot_inclusive_scan(sub_group_ballot(1)) - "
             "sub_group_ballot_exclusive_scan(sub_group_ballot(1));",
             v);
        break;
    case 6:
        line(g,
             "u%u += (uint)(sub_group_broadcast_first(%s) == sub_group_shuffle(%s, "
             "sub_group_ballot_find_lsb(sub_group_ballot(1)))) + "
             "(uint)sub_group_non_uniform_all_equal(sub_group_broadcast_first(%s));",
             v, u, u, u);
        break;
    default:
        line(g,
             "u%u += (uint)(sub_group_non_uniform_reduce_min(%s) <= (%s)) + "
             "(uint)(sub_group_non_uniform_reduce_and(%s) == (sub_group_non_uniform_reduce_and(%s) "
             "& (%s))) + popcount(sub_group_ballot(1).x & get_sub_group_eq_mask().x);",
             v, u, u, u, u, u);
        break;
    }
    free(e);
    free(u);
}

static const char preamble[] =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "#define NIN " STR(
        NIN) "\n"
             "#define SLOTS " STR(
                 SLOTS) "\n"
                        "#define GA " STR(
                            GA) "\n"
                                "#define GO " STR(
                                    GO) "\n"
                                        "#define IX(e) ((uint)(e) & (NIN - 1u))\n"
                                        "#define IXP(e) ((uint)(e) & 7u)\n"
                                        "#define ADD(a, b) ((int)((uint)(a) + (uint)(b)))\n"
                                        "#define SUB(a, b) ((int)((uint)(a) - (uint)(b)))\n"
                                        "#define MUL(a, b) ((int)((uint)(a) * (uint)(b)))\n"
                                        "#define SHL(a, b) ((int)((uint)(a) << ((uint)(b) & "
                                        "31u)))\n"
                                        /* A divisor 0 or -1 must not be a constant: Clang folds a
                                           constant x / 0 to poison. */
                                        "#define DIV(a, b) ((a) / ((b) ^ zero))\n"
                                        "#define REM(a, b) ((a) % ((b) ^ zero))\n";

/* The source of kernel `name`, from seed and cfg alone. */
static char *generate(uint64_t seed, const struct gen_cfg *cfg, const char *name)
{
    struct gen g = {.r = {seed ^ 0x6b65726e656cu}, .cfg = cfg, .src = strdup("")};
    kt_append(&g.src, "%s", preamble);
    kt_append(&g.src,
              "__kernel void %s(__global const int *ia, __global const uint *ub,\n"
              "    __global const float *fc, __global int *oi, __global uint *ou,\n"
              "    __global float *of, __global int *og, __global int *grp, int zero)\n{\n",
              name);
    g.indent = 1;
    line(&g, "const int gid = (int)(get_global_id(1) * get_global_size(0) + get_global_id(0));");
    line(&g, "const int lid = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));");
    line(&g, "const int lsize = (int)(get_local_size(0) * get_local_size(1));");
    line(&g, "const int grpid = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0));");
    unsigned exchanges = on(&g, F_LOCAL) ? 1 + below(&g.r, 2) : 0;
    if (exchanges)
        line(&g, "__local int lm[%u];", LMAX);
    line(&g, "int i0 = ia[gid], i1 = ia[IX(gid + 7)], i2 = lid;");
    line(&g, "uint u0 = ub[gid], u1 = ub[IX(gid * 3)], u2 = (uint)grpid;");
    line(&g, "float f0 = fc[gid], f1 = fc[IX(gid + 1)], f2 = (float)lid * 0.5f;");
    if (on(&g, F_ARRAYS)) {
        line(&g, "int pa[8];");
        line(&g, "for (int k = 0; k < 8; k++)");
        line(&g, "    pa[k] = ia[IX(gid * 8 + k)];");
    }
    if (on(&g, F_SUBGROUPS))
        subgroup_stmt(&g);
    for (unsigned s = 0; s <= exchanges; s++) {
        /* No return before a barrier: every work-item must reach it. */
        g.may_return = s == exchanges;
        block(&g, cfg->depth);
        if (s < exchanges) {
            exchange(&g, s);
            if (on(&g, F_SUBGROUPS))
                subgroup_stmt(&g);
        }
    }
    for (unsigned t = 0; t < 3; t++)
        for (unsigned v = 0; v < NV; v++)
            line(&g, "%s[gid * SLOTS + %u] = %c%u;", out_name[t], v, var_prefix[t], v);
    kt_append(&g.src, "}\n");
    return g.src;
}

/* ---- Test cases ---- */

struct tcase {
    uint64_t seed;
    struct gen_cfg cfg;
    char name[32];
    char *src;
    cl_uint dim;
    size_t global[2], local[2];
    size_t items, groups;
    int32_t ia[NIN];
    uint32_t ub[NIN];
    float fc[NIN];
    int32_t grp_init[MAX_GROUPS * GA];
    size_t words;  /* output words: oi, ou, of, og, grp */
    size_t offset; /* of its outputs in a run's shared words */
};

/* The output buffers, in order, as word ranges of a case's outputs. */
enum { B_OI, B_OU, B_OF, B_OG, B_GRP, NUM_BUFS };
static const char *const buf_names[NUM_BUFS] = {"oi", "ou", "of", "og", "grp"};

static size_t buf_words(const struct tcase *c, unsigned b)
{
    return b < B_OG ? c->items * SLOTS : c->groups * (b == B_OG ? GO : GA);
}

static int32_t random_int(struct rng *r)
{
    static const int32_t special[] = {0, 1, -1, INT_MIN, INT_MAX, 2, -2, 8};
    switch (below(r, 8)) {
    case 0: return special[below(r, 8)];
    case 1:
    case 2:
    case 3: return (int32_t)below(r, 41) - 20;
    case 4: return (int32_t)below(r, 2001) - 1000;
    default: return (int32_t)(uint32_t)rng_next(r);
    }
}

static float random_float(struct rng *r)
{
    static const float special[] = {0.0f,     -0.0f,     1.0f, -1.0f,  0.5f,
                                    INFINITY, -INFINITY, NAN,  1e-40f, 3.4e38f};
    unsigned k = below(r, 10);
    if (k == 0)
        return special[below(r, 10)];
    if (k < 7)
        return (float)((int)below(r, 2001) - 1000) / 100;
    return ldexpf((float)((int)below(r, 2001) - 1000), (int)below(r, 80) - 40);
}

static void pick_shape(struct tcase *c)
{
    static const size_t l1[] = {20, 37, 64, 1, 5, 24, 13};
    static const size_t l2[][2] = {{6, 5}, {8, 4}, {3, 7}, {2, 3}, {16, 4}, {1, 9}};
    /* --interleave: rows of a multiple of 32 work-items, which several sub-groups can share. */
    static const size_t i1[] = {32, 64, 96, 128, 64, 32, 128};
    static const size_t i2[][2] = {{32, 2}, {64, 1}, {32, 1}, {32, 2}, {64, 1}, {32, 1}};
    struct rng r = {c->seed * 0x2545f4914f6cdd1du + 17};
    bool two = (c->cfg.features >> F_2D & 1) && chance(&r, 35);
    bool non_uniform = c->cfg.features >> F_NON_UNIFORM & 1;
    c->dim = two ? 2 : 1;
    c->local[1] = c->global[1] = 1;
    unsigned pick = below(&r, two ? 6 : 7);
    for (unsigned d = 0; d < c->dim; d++) {
        if (opt.interleave)
            c->local[d] = two ? i2[pick][d] : i1[pick];
        else
            c->local[d] = two ? l2[pick][d] : l1[pick];
        c->global[d] = c->local[d] * (1 + below(&r, two ? 3 : 4));
        if (non_uniform && c->local[d] > 1 && chance(&r, 30))
            c->global[d] += 1 + below(&r, (unsigned)c->local[d] - 1);
    }
    c->items = c->global[0] * c->global[1];
    c->groups = 1;
    for (unsigned d = 0; d < c->dim; d++)
        c->groups *= (c->global[d] + c->local[d] - 1) / c->local[d];
    if (c->items > NIN || c->groups > MAX_GROUPS)
        abort(); /* the shapes above stay within both */
}

static void make_case(struct tcase *c, uint64_t seed, const struct gen_cfg *cfg)
{
    memset(c, 0, sizeof *c);
    c->seed = seed;
    c->cfg = *cfg;
    snprintf(c->name, sizeof c->name, "k%" PRIu64, seed);
    c->src = generate(seed, cfg, c->name);
    if (opt.kernel) {
        FILE *f = fopen(opt.kernel, "r");
        char *text = f ? calloc(1, 1 << 20) : NULL;
        if (!text || fread(text, 1, (1 << 20) - 1, f) == 0) {
            fprintf(stderr, "difftest: cannot read %s\n", opt.kernel);
            exit(2);
        }
        fclose(f);
        free(c->src);
        c->src = text;
    }
    pick_shape(c);
    struct rng r = {seed * 0x9e3779b97f4a7c15u + 3};
    for (unsigned i = 0; i < NIN; i++) {
        c->ia[i] = random_int(&r);
        c->ub[i] = (uint32_t)random_int(&r);
        c->fc[i] = random_float(&r);
    }
    for (size_t i = 0; i < c->groups * GA; i++)
        c->grp_init[i] = (int32_t)below(&r, 100) - 50;
    c->words = 0;
    for (unsigned b = 0; b < NUM_BUFS; b++)
        c->words += buf_words(c, b);
}

static void describe_shape(const struct tcase *c, char *buf, size_t size)
{
    bool non_uniform = c->global[0] % c->local[0] || c->global[1] % c->local[1];
    if (c->dim == 1)
        snprintf(buf, size, "1D global %zu local %zu%s", c->global[0], c->local[0],
                 non_uniform ? " (non-uniform)" : "");
    else
        snprintf(buf, size, "2D global %zux%zu local %zux%zu%s", c->global[0], c->global[1],
                 c->local[0], c->local[1], non_uniform ? " (non-uniform)" : "");
}

static void describe_cfg(const struct gen_cfg *cfg, char *buf, size_t size)
{
    int n = snprintf(buf, size, "depth %u, block %u, expr %u, features:", cfg->depth,
                     cfg->block_len, cfg->expr_depth);
    for (unsigned f = 0; f < NUM_FEATURES && n > 0 && (size_t)n < size; f++)
        if (cfg->features >> f & 1)
            n += snprintf(buf + n, size - (size_t)n, " %s", feature_names[f]);
}

/* ---- Runs: a width's children and the memory they share with us ---- */

/* Set while reducing: crashes are expected then and not reported one by one. */
static bool quiet;

/* ST_INTERNAL: the kernel ran, but its build log reports a bug of the vectorizer's. */
enum status { ST_NOT_RUN, ST_OK, ST_BUILD, ST_LAUNCH, ST_CRASH, ST_INTERNAL };

struct shared {
    volatile int progress; /* the case being run, -1 before the first */
    int32_t status[];      /* then vectorized[n], detail[n], the outputs */
};

struct run {
    unsigned width;
    struct tcase *cases;
    unsigned n;
    struct shared *sh;
    size_t size;
    int32_t *status, *vectorized, *detail;
    uint32_t *words;
    pid_t pid;
    char error[160];   /* a child that failed outside any kernel */
    bool setup_failed; /* before its first kernel: nothing to compare */
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
        words += cases[i].words;
    }
    r->size = sizeof(struct shared) + 3 * n * sizeof(int32_t) + words * sizeof(uint32_t);
    r->sh = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (r->sh == MAP_FAILED) {
        perror("difftest: mmap");
        exit(2);
    }
    r->status = r->sh->status;
    r->vectorized = r->status + n;
    r->detail = r->vectorized + n;
    r->words = (uint32_t *)(r->detail + n);
    /* The initial contents of the output buffers. */
    for (unsigned i = 0; i < n; i++) {
        uint32_t *w = r->words + cases[i].offset;
        size_t before_grp = cases[i].words - buf_words(&cases[i], B_GRP);
        for (size_t k = 0; k < before_grp; k++)
            w[k] = SENTINEL;
        memcpy(w + before_grp, cases[i].grp_init, buf_words(&cases[i], B_GRP) * 4);
    }
    return r;
}

static void run_free(struct run *r)
{
    munmap(r->sh, r->size);
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

/*
 * In the child: whether a kernel without a fallback line in its build log ran
 * vectorized. Not at W = 1, and not on a device that offers no sub-groups
 * (Lanes before its vectorizer, which writes no fallback lines either).
 */
static bool child_vectorizes;

/* In the child: builds and runs case c, its outputs to out. */
static enum status child_case(const struct tcase *c, uint32_t *out, int32_t *vectorized,
                              int32_t *detail)
{
    cl_int err;
    const char *src = c->src;
    cl_program p = clCreateProgramWithSource(kt.ctx, 1, &src, NULL, &err);
    KT_CHECK_CL(err);
    err = clBuildProgram(p, 1, &kt.dev, "-cl-std=CL3.0", NULL, NULL);
    if (err != CL_SUCCESS) {
        char *log = build_log(p);
        fprintf(stderr, "difftest: %s: build error %d:\n%s\n", c->name, err, log);
        free(log);
        clReleaseProgram(p);
        *detail = err;
        return ST_BUILD;
    }
    cl_kernel k = clCreateKernel(p, c->name, &err);
    KT_CHECK_CL(err);
    const void *in[3] = {c->ia, c->ub, c->fc};
    cl_mem mems[3 + NUM_BUFS];
    for (unsigned i = 0; i < 3 + NUM_BUFS; i++) {
        size_t size = (i < 3 ? NIN : buf_words(c, i - 3)) * 4;
        void *host = i < 3 ? (void *)in[i] : out;
        mems[i] =
            clCreateBuffer(kt.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, host, &err);
        KT_CHECK_CL(err);
        KT_CHECK_CL(clSetKernelArg(k, i, sizeof(cl_mem), &mems[i]));
        if (i >= 3)
            out += size / 4;
    }
    out -= c->words;
    cl_int zero = 0;
    KT_CHECK_CL(clSetKernelArg(k, 3 + NUM_BUFS, sizeof zero, &zero));
    err = clEnqueueNDRangeKernel(kt.queue, k, c->dim, NULL, c->global, c->local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(kt.queue);
    for (unsigned i = 3; i < 3 + NUM_BUFS && err == CL_SUCCESS; i++) {
        size_t size = buf_words(c, i - 3) * 4;
        err = clEnqueueReadBuffer(kt.queue, mems[i], CL_TRUE, 0, size, out, 0, NULL, NULL);
        out += size / 4;
    }
    char *log = build_log(p);
    char *fallback = kt_format("lanes: kernel %s: not vectorized at width", c->name);
    *vectorized = child_vectorizes && strstr(log, fallback) == NULL;
    bool internal = err == CL_SUCCESS && strstr(log, "internal error") != NULL;
    if (err != CL_SUCCESS)
        fprintf(stderr, "difftest: %s: launch error %d\n%s\n", c->name, err, log);
    else if (internal && !quiet)
        fprintf(stderr, "difftest: %s: %s\n", c->name, log);
    free(fallback);
    free(log);
    for (unsigned i = 0; i < 3 + NUM_BUFS; i++)
        clReleaseMemObject(mems[i]);
    clReleaseKernel(k);
    clReleaseProgram(p);
    *detail = err;
    return err != CL_SUCCESS ? ST_LAUNCH : internal ? ST_INTERNAL : ST_OK;
}

/* The child process: runs cases [start, n) at r->width, then exits. */
static _Noreturn void child(struct run *r, unsigned start)
{
    char width[16];
    snprintf(width, sizeof width, "%u", r->width);
    setenv("LANES_WIDTH", width, 1);
    setenv("LANES_CACHE", "0", 1);
    /*
     * Every kernel runs once: without LANES_TIER, on the launcher of every
     * local size (runtime/ndrange.c). The reference runs the shape's own
     * launcher, and so do the widths unless --tier0.
     */
    setenv("LANES_TIER", opt.tier0 && r->width > 1 ? "0" : "1", 1);
    /* Where the kernel cannot tell (compiler/interleave.c); never the reference. */
    char interleave[16];
    snprintf(interleave, sizeof interleave, "%u",
             r->width > 1 && opt.interleave ? opt.interleave : 1);
    setenv("LANES_INTERLEAVE", interleave, 1);
    r->sh->progress = -1;
    kt_setup();
    /* A kernel ran vectorized unless the build log says it was not. */
    child_vectorizes = r->width > 1;
    for (unsigned i = start; i < r->n; i++) {
        r->sh->progress = (int)i;
        alarm(20); /* a kernel that never ends (compiling and running one takes well under a second)
                    */
        r->status[i] = child_case(&r->cases[i], r->words + r->cases[i].offset, &r->vectorized[i],
                                  &r->detail[i]);
    }
    alarm(0);
    clReleaseCommandQueue(kt.queue);
    clReleaseContext(kt.ctx);
    fflush(stdout);
    fflush(stderr);
    exit(0);
}

static void spawn(struct run *r, unsigned start)
{
    fflush(stdout);
    fflush(stderr);
    r->sh->progress = -1;
    pid_t pid = fork();
    if (pid < 0) {
        perror("difftest: fork");
        exit(2);
    }
    if (pid == 0)
        child(r, start);
    r->pid = pid;
}

static void describe_exit(int wstatus, char *buf, size_t size)
{
    if (WIFSIGNALED(wstatus))
        snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(wstatus),
                 strsignal(WTERMSIG(wstatus)));
    else
        snprintf(buf, size, "exit status %d", WEXITSTATUS(wstatus));
}

/* Runs every run to its end, at most opt.jobs children at once. */
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
            perror("difftest: waitpid");
            exit(2);
        }
        struct run *r = NULL;
        for (unsigned i = 0; i < next; i++)
            if (runs[i]->pid == pid)
                r = runs[i];
        if (!r)
            continue;
        r->pid = 0;
        int k = r->sh->progress;
        if (WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
            active--;
            continue;
        }
        char how[96];
        describe_exit(ws, how, sizeof how);
        if (k < 0) {
            snprintf(r->error, sizeof r->error, "child %s before its first kernel", how);
            r->setup_failed = true;
            active--;
            continue;
        }
        if (r->status[k] == ST_OK || r->status[k] == ST_BUILD || r->status[k] == ST_LAUNCH ||
            r->status[k] == ST_INTERNAL) {
            snprintf(r->error, sizeof r->error, "child %s after kernel %s", how, r->cases[k].name);
        } else {
            r->status[k] = ST_CRASH;
            r->detail[k] = ws;
            if (!quiet)
                fprintf(stderr, "difftest: width %u: child %s while running kernel %s\n", r->width,
                        how, r->cases[k].name);
        }
        if ((unsigned)k + 1 < r->n)
            spawn(r, (unsigned)k + 1);
        else
            active--;
    }
}

/* ---- Comparison and reports ---- */

static bool word_equal(const struct tcase *c, size_t i, uint32_t a, uint32_t b)
{
    if (a == b)
        return true;
    /* Two NaNs are equal whatever their payloads. */
    bool is_float = i >= buf_words(c, B_OI) + buf_words(c, B_OU) &&
                    i < buf_words(c, B_OI) + buf_words(c, B_OU) + buf_words(c, B_OF);
    return is_float && isnan(kt_bits_float(a)) && isnan(kt_bits_float(b));
}

static const char *status_name(enum status s)
{
    static const char *const names[] = {"not run",      "ok",    "build error",
                                        "launch error", "crash", "vectorizer's internal error"};
    return names[s];
}

/* Whether case i of r differs from the reference; prints the first differences when told. */
static bool differs(const struct run *ref, const struct run *r, unsigned i, bool print)
{
    const struct tcase *c = &r->cases[i];
    if (ref->status[i] != ST_OK || r->status[i] != ST_OK) {
        if (print)
            printf("  W=1: %s, W=%u: %s\n", status_name(ref->status[i]), r->width,
                   status_name(r->status[i]));
        return ref->status[i] != r->status[i] || ref->status[i] != ST_OK;
    }
    const uint32_t *a = ref->words + c->offset, *b = r->words + c->offset;
    unsigned shown = 0, total = 0;
    for (size_t w = 0; w < c->words; w++) {
        if (word_equal(c, w, a[w], b[w]))
            continue;
        total++;
        if (!print || shown >= 10)
            continue;
        shown++;
        size_t at = w;
        unsigned buf = 0;
        while (at >= buf_words(c, buf))
            at -= buf_words(c, buf++);
        char where[64];
        if (buf < B_OG)
            snprintf(where, sizeof where, "%s[%zu] (work-item %zu, slot %zu)", buf_names[buf], at,
                     at / SLOTS, at % SLOTS);
        else
            snprintf(where, sizeof where, "%s[%zu] (work-group %zu, slot %zu)", buf_names[buf], at,
                     at / (buf == B_OG ? GO : GA), at % (buf == B_OG ? GO : GA));
        if (buf == B_OF)
            printf("  %s: W=1 0x%08x (%.9g), W=%u 0x%08x (%.9g)\n", where, a[w],
                   (double)kt_bits_float(a[w]), r->width, b[w], (double)kt_bits_float(b[w]));
        else if (buf == B_OU)
            printf("  %s: W=1 0x%08x (%u), W=%u 0x%08x (%u)\n", where, a[w], a[w], r->width, b[w],
                   b[w]);
        else
            printf("  %s: W=1 0x%08x (%d), W=%u 0x%08x (%d)\n", where, a[w], (int32_t)a[w],
                   r->width, b[w], (int32_t)b[w]);
    }
    if (print && total > shown)
        printf("  ... %u differing words in all\n", total);
    return total != 0;
}

/* Whether case i fails: differs from the reference, or at width 1 the reference itself fails. */
static bool fails(const struct run *ref, const struct run *r, unsigned i)
{
    if (r == ref)
        return ref->status[i] != ST_OK;
    return ref->status[i] == ST_OK && differs(ref, r, i, false);
}

static void write_kernel(const struct tcase *c, unsigned width, const char *suffix)
{
    char path[96], shape[96], cfg[512];
    snprintf(path, sizeof path, "difftest-%" PRIu64 "-w%u%s.cl", c->seed, width, suffix);
    describe_shape(c, shape, sizeof shape);
    describe_cfg(&c->cfg, cfg, sizeof cfg);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return;
    }
    fprintf(f, "// difftest seed %" PRIu64 ", fails at width %u\n// %s\n// %s\n%s", c->seed, width,
            shape, cfg, c->src);
    fclose(f);
    printf("  kernel written to %s\n", path);
}

static void report(const struct run *ref, const struct run *r, unsigned i, const char *what)
{
    const struct tcase *c = &r->cases[i];
    char shape[96], cfg[512];
    describe_shape(c, shape, sizeof shape);
    describe_cfg(&c->cfg, cfg, sizeof cfg);
    printf("difftest: %s: seed %" PRIu64 ", width %u, %s\n  %s\n", what, c->seed, r->width, shape,
           cfg);
    differs(ref, r, i, true);
    printf("%s", c->src);
}

/* Runs cases at W = 1 and at width (only once when width is 1). */
static void run_pair(struct tcase *cases, unsigned n, unsigned width, struct run **ref,
                     struct run **r)
{
    *ref = *r = run_new(cases, n, 1);
    if (width != 1)
        *r = run_new(cases, n, width);
    struct run *runs[2] = {*ref, *r};
    run_all(runs, width != 1 ? 2 : 1);
}

static void pair_free(struct run *ref, struct run *r)
{
    if (r != ref)
        pair_free(ref, r);
}

/*
 * Makes a failing case smaller: regenerates it from its seed with one feature
 * off, or one less depth, block length or expression depth, and keeps the
 * shortest candidate that still fails, until none does.
 */
static void reduce(const struct tcase *failing, unsigned width)
{
    struct tcase *best = malloc(sizeof *best);
    *best = *failing;
    best->src = strdup(failing->src);
    enum { MAX_CANDIDATES = NUM_FEATURES + 3 };
    struct tcase *cands = calloc(MAX_CANDIDATES, sizeof *cands);
    printf("difftest: reducing seed %" PRIu64 " at width %u\n", failing->seed, width);
    quiet = true;
    for (unsigned round = 0; round < 40; round++) {
        unsigned n = 0;
        for (unsigned f = 0; f < NUM_FEATURES; f++) {
            if (!(best->cfg.features >> f & 1))
                continue;
            struct gen_cfg cfg = best->cfg;
            cfg.features &= ~(1u << f);
            make_case(&cands[n++], best->seed, &cfg);
        }
        struct gen_cfg cfg = best->cfg;
        if (cfg.depth > 0) {
            cfg.depth--;
            make_case(&cands[n++], best->seed, &cfg);
            cfg.depth++;
        }
        if (cfg.block_len > 1) {
            cfg.block_len--;
            make_case(&cands[n++], best->seed, &cfg);
            cfg.block_len++;
        }
        if (cfg.expr_depth > 0) {
            cfg.expr_depth--;
            make_case(&cands[n++], best->seed, &cfg);
        }
        struct run *ref, *r;
        run_pair(cands, n, width, &ref, &r);
        int pick = -1;
        for (unsigned i = 0; i < n; i++)
            if (fails(ref, r, i) && (pick < 0 || strlen(cands[i].src) < strlen(cands[pick].src)))
                pick = (int)i;
        if (pick >= 0) {
            free(best->src);
            *best = cands[pick];
            best->src = strdup(cands[pick].src);
        }
        for (unsigned i = 0; i < n; i++)
            free(cands[i].src);
        if (pick < 0) {
            pair_free(ref, r);
            break;
        }
        if (opt.verbose)
            printf("difftest: round %u: %zu bytes\n", round, strlen(best->src));
        pair_free(ref, r);
    }
    quiet = false;
    /* Once more, to print the differences of the smallest. */
    struct run *ref, *r;
    run_pair(best, 1, width, &ref, &r);
    report(ref, r, 0, "smallest failing kernel");
    write_kernel(best, width, "-min");
    pair_free(ref, r);
    free(best->src);
    free(best);
    free(cands);
}

/* ---- Main ---- */

static void usage(void)
{
    fprintf(stderr, "usage: difftest [--seed S] [--count N] [--widths 8,16,32] [--jobs J] "
                    "[--depth D] [--verbose] [--keep-going] [--tier0] [--interleave K] "
                    "[--kernel FILE] [--no-FEATURE...]\n"
                    "(--kernel: run FILE, kernel k<seed>, with the seed's inputs and shape;\n"
                    " --tier0: the widths run the launcher of every local size;\n"
                    " --interleave 2|4: the widths run 2 or 4 sub-groups as one vector where the\n"
                    " kernel cannot tell, LANES_INTERLEAVE)\n"
                    "features:");
    for (unsigned f = 0; f < NUM_FEATURES; f++)
        fprintf(stderr, " %s", feature_names[f]);
    fprintf(stderr, "\n");
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
            opt.cfg.depth = (unsigned)strtoul(v, NULL, 0);
            i++;
        } else if (!strcmp(a, "--widths") && v) {
            opt.num_widths = 0;
            for (char *s = (char *)v; *s;) {
                unsigned w = (unsigned)strtoul(s, &s, 10);
                if (w != 1 && opt.num_widths < 8)
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
        } else if (!strcmp(a, "--tier0")) {
            opt.tier0 = true;
        } else if (!strcmp(a, "--interleave") && v) {
            opt.interleave = (unsigned)strtoul(v, NULL, 0);
            if (opt.interleave != 2 && opt.interleave != 4)
                usage();
            i++;
        } else if (!strncmp(a, "--no-", 5)) {
            unsigned f = 0;
            while (f < NUM_FEATURES && strcmp(a + 5, feature_names[f]))
                f++;
            if (f == NUM_FEATURES)
                usage();
            opt.cfg.features &= ~(1u << f);
        } else {
            usage();
        }
    }
    if (!opt.jobs)
        opt.jobs = 1;
    if (!opt.count || opt.count > MAX_CASES)
        usage();
}

/* OpenCL must not be loaded here: the width is chosen when a process first uses it. */
static void check_no_opencl(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line_[512];
    while (f && fgets(line_, sizeof line_, f))
        if (strstr(line_, "liblanes")) {
            fprintf(stderr, "difftest: liblanes is loaded in the parent process\n");
            exit(2);
        }
    if (f)
        fclose(f);
}

int main(int argc, char **argv)
{
    parse(argc, argv);
    check_no_opencl();
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);

    struct tcase *cases = calloc(opt.count, sizeof *cases);
    for (unsigned i = 0; i < opt.count; i++) {
        make_case(&cases[i], opt.seed + i, &opt.cfg);
        if (opt.verbose) {
            char shape[96];
            describe_shape(&cases[i], shape, sizeof shape);
            printf("difftest: seed %" PRIu64 ": %s\n%s", cases[i].seed, shape, cases[i].src);
        }
    }
    struct run *runs[9];
    unsigned num_runs = 0;
    runs[num_runs++] = run_new(cases, opt.count, 1);
    for (unsigned w = 0; w < opt.num_widths; w++)
        runs[num_runs++] = run_new(cases, opt.count, opt.widths[w]);
    run_all(runs, num_runs);

    const struct run *ref = runs[0];
    unsigned failed = 0, reported = 0;
    bool run_error = false;
    for (unsigned r = 0; r < num_runs; r++)
        if (runs[r]->error[0]) {
            printf("difftest: width %u: %s\n", runs[r]->width, runs[r]->error);
            run_error = true;
            if (runs[r]->setup_failed)
                return 1;
        }
    for (unsigned i = 0; i < opt.count; i++) {
        /* The reference's own failure first: then no width is compared. */
        unsigned r = 0;
        while (r < num_runs && !fails(ref, runs[r], i))
            r++;
        if (r == num_runs)
            continue;
        failed++;
        const char *what = r ? "FAIL" : "FAIL at the reference (W=1)";
        if (reported++ && !opt.keep_going) {
            printf("difftest: %s: seed %" PRIu64 ", width %u (not shown: see --keep-going)\n", what,
                   cases[i].seed, runs[r]->width);
            continue;
        }
        report(ref, runs[r], i, what);
        write_kernel(&cases[i], runs[r]->width, "");
        if (!opt.kernel) /* a kernel given by hand is reduced by hand */
            reduce(&cases[i], runs[r]->width);
    }
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    for (unsigned r = 1; r < num_runs; r++) {
        unsigned vectorized = 0;
        for (unsigned i = 0; i < opt.count; i++)
            vectorized += runs[r]->status[i] == ST_OK && runs[r]->vectorized[i];
        printf("difftest: width %u: %u of %u kernels vectorized\n", runs[r]->width, vectorized,
               opt.count);
    }
    printf("difftest: seeds %" PRIu64 "..%" PRIu64 ", %.1f s\n", opt.seed, opt.seed + opt.count - 1,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    printf("difftest: %u passed, %u failed\n", opt.count - failed, failed);
    for (unsigned r = 0; r < num_runs; r++)
        run_free(runs[r]);
    for (unsigned i = 0; i < opt.count; i++)
        free(cases[i].src);
    free(cases);
    return failed || run_error ? 1 : 0;
}
