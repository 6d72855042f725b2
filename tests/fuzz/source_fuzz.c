/* SPDX-License-Identifier: MIT */
/*
 * OpenCL C source fuzzer (issue 15: nothing a program passes in brings its
 * process down). It mutates the real kernels of a corpus (tests/fuzz/corpus)
 * at the token level, adds random build options, and hands each case to
 * clBuildProgram through the ICD loader. clBuildProgram must return
 * CL_SUCCESS, CL_BUILD_PROGRAM_FAILURE or CL_INVALID_BUILD_OPTIONS with a
 * well-formed build log; a built program's kernels are then queried
 * (arguments, work-group and sub-group info), which compiles their
 * launchers at width 1 and at the widths of several local sizes, so the
 * vectorizer and the JIT see every mutant that builds. Mutated kernels are
 * never enqueued: they may legitimately write out of bounds.
 *
 * A finding is any other error code, a malformed string, a crash or a case
 * that takes longer than --timeout seconds. Cases are deterministic: case I
 * of seed S is generated from (S, I) alone, so `--seed S --case I` rebuilds
 * exactly that case. To keep a crashing case, each case is written to
 * --save-crashes DIR as case-S-I.cl (its options on the first line) before
 * it is built and removed after: a crash or hang leaves it behind, and a
 * signal handler names it on stderr. A wrong error code keeps it as
 * finding-S-I.cl, and one whose build log tells of a compiler crash that
 * Lanes contained (CrashRecoveryContext: a failed build, not a finding) as
 * contained-S-I.cl, for a report upstream. `--replay FILE` builds a saved
 * case again.
 *
 *   source_fuzz --corpus DIR [--seed S] [--count N] [--seconds T]
 *               [--save-crashes DIR] [--timeout T] [--case I]
 *               [--replay FILE] [--check-corpus] [--verbose]
 *
 * The run stops after N cases or T seconds, whichever comes first. Exit
 * status 0: no finding; 1: findings (each printed); 2: usage or setup
 * error. Set LANES_CACHE=0 so that the disk cache does not fill with
 * mutants, and LANES_WIDTH to force a width (8, 16, 32) on every launcher.
 */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- Deterministic randomness ------------------------------------------ */

struct rng {
    uint64_t s;
};

/* splitmix64: one 64-bit value per step, good enough for choosing mutations. */
static uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A value in [0, n); n > 0. */
static size_t rng_below(struct rng *r, size_t n)
{
    return (size_t)(rng_next(r) % n);
}

static bool rng_chance(struct rng *r, unsigned percent)
{
    return rng_below(r, 100) < percent;
}

#define PICK(r, array) ((array)[rng_below((r), sizeof(array) / sizeof *(array))])

/* ---- Small helpers ------------------------------------------------------ */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "source_fuzz: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* A growable string. */
struct buf {
    char *s;
    size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        char *p = realloc(b->s, b->cap);
        if (!p) {
            fprintf(stderr, "source_fuzz: out of memory\n");
            exit(2);
        }
        b->s = p;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void buf_str(struct buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_add(&b, chunk, n);
    fclose(f);
    if (!b.s)
        buf_add(&b, "", 0);
    *size = b.len;
    return b.s;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- Corpus ------------------------------------------------------------- */

/* A corpus kernel; its first line may be `// options: ...` (its build options). */
struct seed_source {
    char *name;
    char *text;
    char *options;
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct seed_source *)a)->name, ((const struct seed_source *)b)->name);
}

static char *options_line(const char *text)
{
    static const char tag[] = "// options:";
    if (strncmp(text, tag, sizeof tag - 1) != 0)
        return xstrndup("", 0);
    const char *p = text + sizeof tag - 1;
    while (*p == ' ')
        p++;
    return xstrndup(p, strcspn(p, "\n"));
}

/* Every *.cl file of `dir`, sorted by name so that seeds mean the same cases everywhere. */
static struct seed_source *load_corpus(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "source_fuzz: cannot open corpus %s: %s\n", dir, strerror(errno));
        exit(2);
    }
    struct seed_source *v = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".cl") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t size;
        char *text = read_file(path, &size);
        if (!text)
            continue;
        struct seed_source *nv = realloc(v, (n + 1) * sizeof *v);
        if (!nv)
            exit(2);
        v = nv;
        v[n].name = xstrndup(e->d_name, len);
        v[n].text = text;
        v[n].options = options_line(text);
        n++;
    }
    closedir(d);
    if (n == 0) {
        fprintf(stderr, "source_fuzz: no .cl files in %s\n", dir);
        exit(2);
    }
    qsort(v, n, sizeof *v, by_name);
    *count = n;
    return v;
}

/* ---- Tokens ------------------------------------------------------------- */

enum token_kind { TK_SPACE, TK_IDENT, TK_NUMBER, TK_STRING, TK_PUNCT, TK_OTHER };

struct token {
    enum token_kind kind;
    char *text; /* owned */
};

struct tokens {
    struct token *v;
    size_t n, cap;
};

static void tokens_insert(struct tokens *t, size_t at, enum token_kind kind, const char *text,
                          size_t len)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        struct token *nv = realloc(t->v, t->cap * sizeof *t->v);
        if (!nv)
            exit(2);
        t->v = nv;
    }
    memmove(t->v + at + 1, t->v + at, (t->n - at) * sizeof *t->v);
    t->v[at].kind = kind;
    t->v[at].text = xstrndup(text, len);
    t->n++;
}

static void tokens_erase(struct tokens *t, size_t at, size_t count)
{
    for (size_t i = at; i < at + count; i++)
        free(t->v[i].text);
    memmove(t->v + at, t->v + at + count, (t->n - at - count) * sizeof *t->v);
    t->n -= count;
}

static void tokens_free(struct tokens *t)
{
    tokens_erase(t, 0, t->n);
    free(t->v);
    t->v = NULL;
    t->cap = 0;
}

static const char *const punct3[] = {"<<=", ">>=", "...", NULL};
static const char *const punct2[] = {
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", NULL};

/* Splits OpenCL C into tokens; whitespace and comments are kept (as TK_SPACE) so the text
 * joins back unchanged. */
static void tokenize(const char *s, struct tokens *t)
{
    size_t i = 0, n = strlen(s);
    while (i < n) {
        size_t j = i;
        enum token_kind kind;
        if (isspace((unsigned char)s[i])) {
            while (j < n && isspace((unsigned char)s[j]))
                j++;
            kind = TK_SPACE;
        } else if (s[i] == '/' && s[i + 1] == '/') {
            while (j < n && s[j] != '\n')
                j++;
            kind = TK_SPACE;
        } else if (s[i] == '/' && s[i + 1] == '*') {
            const char *end = strstr(s + i + 2, "*/");
            j = end ? (size_t)(end - s) + 2 : n;
            kind = TK_SPACE;
        } else if (isalpha((unsigned char)s[i]) || s[i] == '_') {
            while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_'))
                j++;
            kind = TK_IDENT;
        } else if (isdigit((unsigned char)s[i]) ||
                   (s[i] == '.' && isdigit((unsigned char)s[i + 1]))) {
            while (j < n &&
                   (isalnum((unsigned char)s[j]) || s[j] == '.' ||
                    ((s[j] == '+' || s[j] == '-') &&
                     (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' || s[j - 1] == 'P'))))
                j++;
            kind = TK_NUMBER;
        } else if (s[i] == '"' || s[i] == '\'') {
            j++;
            while (j < n && s[j] != s[i] && s[j] != '\n')
                j += (s[j] == '\\' && j + 1 < n) ? 2 : 1;
            if (j < n && s[j] == s[i])
                j++;
            kind = TK_STRING;
        } else {
            kind = TK_PUNCT;
            j = i + 1;
            for (const char *const *p = punct3; *p; p++)
                if (strncmp(s + i, *p, 3) == 0)
                    j = i + 3;
            if (j == i + 1)
                for (const char *const *p = punct2; *p; p++)
                    if (strncmp(s + i, *p, 2) == 0)
                        j = i + 2;
        }
        if (j > n)
            j = n;
        tokens_insert(t, t->n, kind, s + i, j - i);
        i = j;
    }
}

static char *detokenize(const struct tokens *t)
{
    struct buf b = {0};
    buf_add(&b, "", 0);
    for (size_t i = 0; i < t->n; i++)
        buf_str(&b, t->v[i].text);
    return b.s;
}

/* clang-format off */
/* ---- Dictionaries ------------------------------------------------------- */

static const char *const dict_types[] = {
    "void", "bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float",
    "double", "half", "size_t", "ptrdiff_t", "intptr_t", "float2", "float3", "float4", "float8",
    "float16", "int2", "int3", "int4", "int8", "int16", "uint4", "uchar16", "double2", "long8",
    "short3", "event_t", "sampler_t", "image2d_t", "image1d_buffer_t", "atomic_int", "atomic_uint",
    "atomic_float", "atomic_flag", "queue_t", "clk_event_t", "ndrange_t", "reserve_id_t", "struct",
    "union", "enum",
};

static const char *const dict_qualifiers[] = {
    "__global", "__local", "__constant", "__private", "__generic", "global", "local", "constant",
    "private", "generic", "const", "volatile", "restrict", "static", "extern", "inline", "__kernel",
    "kernel", "__read_only", "__write_only", "read_write", "unsigned", "signed", "typedef",
    "register", "_Atomic", "__attribute__",
};

static const char *const dict_keywords[] = {
    "if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return",
    "goto", "sizeof", "vec_step", "__builtin_astype", "as_int", "as_float", "as_uint4",
    "convert_int", "convert_float4_rtz", "convert_uchar_sat",
};

static const char *const dict_builtins[] = {
    "get_global_id", "get_local_id", "get_group_id", "get_global_size", "get_local_size",
    "get_num_groups", "get_work_dim", "get_global_offset", "get_enqueued_local_size",
    "get_global_linear_id", "get_local_linear_id", "barrier", "work_group_barrier", "mem_fence",
    "read_mem_fence", "sub_group_barrier", "get_sub_group_id", "get_sub_group_local_id",
    "get_sub_group_size", "get_max_sub_group_size", "get_num_sub_groups", "sub_group_reduce_add",
    "sub_group_reduce_max", "sub_group_scan_inclusive_add", "sub_group_scan_exclusive_min",
    "sub_group_broadcast", "sub_group_all", "sub_group_any", "sub_group_shuffle",
    "sub_group_shuffle_xor", "sub_group_shuffle_up", "sub_group_shuffle_down", "sub_group_rotate",
    "sub_group_clustered_reduce_add", "sub_group_ballot", "sub_group_ballot_bit_count",
    "sub_group_ballot_find_msb", "sub_group_elect", "sub_group_non_uniform_broadcast",
    "sub_group_non_uniform_reduce_mul", "intel_sub_group_shuffle", "intel_sub_group_shuffle_down",
    "intel_sub_group_shuffle_up", "intel_sub_group_shuffle_xor", "intel_sub_group_block_read",
    "intel_sub_group_block_read8", "intel_sub_group_block_write", "intel_sub_group_block_write2",
    "intel_sub_group_block_read_us", "intel_sub_group_block_write_uc16",
    "intel_sub_group_broadcast", "work_group_reduce_add", "work_group_broadcast",
    "work_group_scan_inclusive_max", "work_group_all", "async_work_group_copy",
    "async_work_group_strided_copy", "wait_group_events", "prefetch", "atomic_add", "atomic_inc",
    "atomic_cmpxchg", "atomic_xchg", "atomic_min", "atom_add", "atomic_fetch_add",
    "atomic_fetch_or_explicit", "atomic_load", "atomic_store_explicit",
    "atomic_compare_exchange_strong", "atomic_init", "atomic_work_item_fence",
    "atomic_flag_test_and_set", "to_global", "to_local", "to_private", "get_fence", "vload4",
    "vstore4", "vload16", "vstore3", "vload_half", "vstore_half_rtn", "vloada_half4",
    "vstorea_half8_rtz", "sin", "cos", "exp", "log", "pow", "pown", "rootn", "sqrt", "rsqrt", "fma",
    "mad", "fmin", "fmax", "fract", "modf", "frexp", "ldexp", "remquo", "sincos", "native_exp",
    "half_log", "tgamma", "lgamma_r", "nan", "ilogb", "clamp", "mix", "step", "smoothstep", "sign",
    "dot", "cross", "normalize", "length", "distance", "fast_normalize", "abs", "abs_diff",
    "add_sat", "hadd", "rotate", "clz", "ctz", "popcount", "mul24", "mad_hi", "upsample", "select",
    "bitselect", "isnan", "isinf", "signbit", "any", "all", "shuffle", "shuffle2", "printf",
    "read_imagef", "write_imagei", "get_image_width", "enqueue_kernel", "get_default_queue",
    "ndrange_1D", "__builtin_trap", "__builtin_unreachable", "__builtin_expect", "__builtin_memcpy",
    "__builtin_alloca", "__builtin_assume", "__builtin_huge_valf", "__builtin_nanf",
};

static const char *const dict_constants[] = {
    "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE", "CLK_IMAGE_MEM_FENCE", "memory_order_relaxed",
    "memory_order_seq_cst", "memory_order_acquire", "memory_scope_work_group",
    "memory_scope_sub_group", "memory_scope_all_svm_devices", "CLK_NORMALIZED_COORDS_TRUE",
    "CLK_ADDRESS_CLAMP", "CLK_FILTER_NEAREST", "MAXFLOAT", "HUGE_VALF", "INFINITY", "NAN",
    "FLT_MAX", "DBL_MIN", "INT_MIN", "UINT_MAX", "LONG_MIN", "CHAR_BIT", "M_PI_F", "M_E",
    "__OPENCL_VERSION__", "__OPENCL_C_VERSION__", "__LINE__", "__FILE__", "__kernel_exec", "NULL",
    "true", "false",
};

static const char *const dict_numbers[] = {
    "0", "1", "-1", "2", "3", "7", "8", "16", "31", "32", "33", "63", "64", "255", "256", "1024",
    "4096", "65536", "0x7fffffff", "0x80000000", "0xffffffff", "2147483647", "-2147483648",
    "4294967295u", "0x7fffffffffffffff", "0xffffffffffffffffUL", "18446744073709551615",
    "99999999999999999999999", "1e308", "1e309", "-1e308", "1e-320", "1e38f", "1e39f",
    "3.4028235e38f", "1.0e-45f", "0.0f", "-0.0", "0.5h", "1.5", "0x1p-149f", "0x1.fffffep127f",
    "0.", ".5e", "1e", "0x", "08", "0b101", "1'000", "100000000", "268435456", "1073741824",
};

static const char *const dict_operators[] = {
    "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "~", "!", "&&", "||", "<", ">", "<=", ">=",
    "==", "!=", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "++", "--", "?",
    ":", ",", ".", "->", "(", ")", "[", "]", "{", "}", ";", "#", "##", "...",
};

/* Statements, inserted where a statement may start inside a function. */
static const char *const dict_statements[] = {
    " barrier(CLK_LOCAL_MEM_FENCE); ", " barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE); ",
    " if (get_local_id(0) & 1) barrier(CLK_LOCAL_MEM_FENCE); ",
    " sub_group_barrier(CLK_LOCAL_MEM_FENCE); ", " if (get_sub_group_local_id() < 3) return; ",
    " if (get_global_id(0) == 5) { for (;;) { } } ", " while (get_local_id(0) > 1000000) { } ",
    " return; ", " break; ", " continue; ", " goto done; ", " done: ; ",
    " { int big[0x7fffffff]; big[get_global_id(0)] = 1; } ",
    " { float huge[1 << 24]; huge[get_local_id(0)] = 0; } ",
    " { char arr[100000]; arr[get_global_id(0) % 100000] = 2; } ",
    " { __local int lbig[1 << 20]; lbig[get_local_id(0)] = 0; } ",
    " { int z = 0; int q = 1 / z; (void)q; } ", " { int m = INT_MIN / -1; (void)m; } ",
    " { uint s = 1u << 40; (void)s; } ",
    " { int x = sub_group_reduce_add((int)get_local_id(0)); (void)x; } ",
    " { uint v = intel_sub_group_shuffle((uint)get_local_id(0), 100u); (void)v; } ",
    " { float f = sub_group_shuffle_xor(1.0f, 0xffffffffu); (void)f; } ",
    " { int w = work_group_reduce_min((int)get_group_id(0)); (void)w; } ",
    " { double d = sqrt(2.0); (void)d; } ", " printf(\"%d %s %v4f\\n\", 1, \"x\"); ",
    " printf(\"%n\"); ", " printf(\"%\"); ", " { __global int *p = 0; *p = 1; } ",
    " { int *g = 0; g[7] = 0; } ", " __builtin_trap(); ", " __builtin_unreachable(); ",
    " { switch (get_local_id(0)) { case 0: case 1000000: break; default: return; } } ",
    " { event_t e = async_work_group_copy((__local int *)0, (__global int *)0, 0, 0); "
    "wait_group_events(1, &e); } ",
    " { atomic_int ai; atomic_init(&ai, 1); } ",
    " #pragma unroll 1000000\n for (int u = 0; u < 4; u++) { } ",
    " #pragma OPENCL EXTENSION all : disable\n ",
    " #pragma OPENCL EXTENSION cl_khr_fp16 : enable\n ", " #error fuzz\n ",
    " #include \"nonexistent.h\"\n ", " #include <stdio.h>\n ", " #define get_global_id(x) 0\n ",
};

/* Attributes, inserted before a kernel or function. */
static const char *const dict_attributes[] = {
    " __attribute__((intel_reqd_sub_group_size(32))) ",
    " __attribute__((intel_reqd_sub_group_size(7))) ",
    " __attribute__((reqd_work_group_size(4096, 4096, 1))) ",
    " __attribute__((reqd_work_group_size(0, 1, 1))) ",
    " __attribute__((work_group_size_hint(3, 5, 7))) ",
    " __attribute__((vec_type_hint(double16))) ", " __attribute__((noinline)) ",
    " __attribute__((always_inline)) ", " __attribute__((aligned(4096))) ",
    " __attribute__((packed)) ",
};

/* Declarations, inserted between two top-level ones. */
static const char *const dict_declarations[] = {
    " __kernel void extra(__global int *o) { o[get_global_id(0)] = 0; } ",
    " void rec(int n) { if (n) rec(n - 1); } ",
    " __kernel void k_local(__local float *l, int n) { l[n] = 1.0f; } ",
    " __kernel void k_many(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int a7, "
    "float16 a8, double16 a9, __global char *a10, __constant int *a11, __local int2 *a12) { "
    "} ",
    " typedef struct { char c; double d; int3 v; } odd_t; ",
    " __constant int table[4] = {1, 2, 3, 4}; ", " __global int program_scope_var = 3; ",
    " int uninit; ", " sampler_t smp = CLK_NORMALIZED_COORDS_FALSE; ",
};

/* clang-format on */

/* ---- Mutations ---------------------------------------------------------- */

/* Index of a random non-space token, or t->n when there is none. */
static size_t pick_token(struct rng *r, const struct tokens *t)
{
    if (t->n == 0)
        return 0;
    for (int tries = 0; tries < 64; tries++) {
        size_t i = rng_below(r, t->n);
        if (t->v[i].kind != TK_SPACE)
            return i;
    }
    return t->n;
}

/* Index of a random token of `kind`, or t->n when none is found soon. */
static size_t pick_kind(struct rng *r, const struct tokens *t, enum token_kind kind)
{
    if (t->n == 0)
        return 0;
    for (int tries = 0; tries < 256; tries++) {
        size_t i = rng_below(r, t->n);
        if (t->v[i].kind == kind)
            return i;
    }
    return t->n;
}

static bool is_punct(const struct token *k, const char *s)
{
    return k->kind == TK_PUNCT && !strcmp(k->text, s);
}

/*
 * After a random `;`, `{` or `}` at brace depth > 0 when `inside` (where a
 * statement may start in a function body), else at depth 0 (between two
 * top-level declarations); anywhere when none is found.
 */
static size_t pick_boundary(struct rng *r, const struct tokens *t, bool inside)
{
    if (t->n == 0)
        return 0;
    size_t *cands = xmalloc(t->n * sizeof *cands), n = 0;
    int depth = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct token *k = &t->v[i];
        if (is_punct(k, "{"))
            depth++;
        else if (is_punct(k, "}"))
            depth--;
        else if (!is_punct(k, ";"))
            continue;
        if (inside ? depth > 0 : depth == 0)
            cands[n++] = i + 1;
    }
    size_t at = n ? cands[rng_below(r, n)] : rng_below(r, t->n + 1);
    free(cands);
    return at;
}

static bool in_list(const char *w, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(w, list[i]))
            return true;
    return false;
}

#define IN(w, array) in_list((w), (array), sizeof(array) / sizeof *(array))

/* Index of a random token that `pred` accepts, or t->n when there is none. */
static size_t pick_where(struct rng *r, const struct tokens *t, bool (*pred)(const struct token *))
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
        n += pred(&t->v[i]);
    if (n == 0)
        return t->n;
    size_t want = rng_below(r, n);
    for (size_t i = 0; i < t->n; i++)
        if (pred(&t->v[i]) && want-- == 0)
            return i;
    return t->n;
}

static bool is_type(const struct token *k)
{
    return k->kind == TK_IDENT && IN(k->text, dict_types);
}

static bool is_builtin(const struct token *k)
{
    return k->kind == TK_IDENT && IN(k->text, dict_builtins);
}

static const char *const address_spaces[] = {"__global",  "__local", "__constant", "__private",
                                             "__generic", "global",  "local",      "constant",
                                             "private",   ""};

static bool is_address_space(const struct token *k)
{
    return k->kind == TK_IDENT && IN(k->text, address_spaces);
}

/* Identifiers of the program itself (variables, functions), not keywords or types. */
static bool is_name(const struct token *k)
{
    return k->kind == TK_IDENT && !IN(k->text, dict_types) && !IN(k->text, dict_qualifiers) &&
           !IN(k->text, dict_keywords) && !IN(k->text, dict_builtins);
}

static bool is_number(const struct token *k)
{
    return k->kind == TK_NUMBER;
}

/* Operators that can stand for one another. */
static const char *const op_classes[][12] = {
    {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", NULL},
    {"<", ">", "<=", ">=", "==", "!=", NULL},
    {"&&", "||", NULL},
    {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", NULL},
    {"++", "--", NULL},
};

static int op_class(const struct token *k)
{
    if (k->kind != TK_PUNCT)
        return -1;
    for (size_t c = 0; c < sizeof op_classes / sizeof *op_classes; c++)
        for (size_t j = 0; op_classes[c][j]; j++)
            if (!strcmp(k->text, op_classes[c][j]))
                return (int)c;
    return -1;
}

static bool is_operator(const struct token *k)
{
    return op_class(k) >= 0;
}

/* Built-ins that take the same arguments, so that one may stand for another. */
static const char *const builtin_families[][16] = {
    {"get_global_id", "get_local_id", "get_group_id", "get_global_size", "get_local_size",
     "get_num_groups", "get_global_offset", "get_enqueued_local_size", NULL},
    {"get_sub_group_id", "get_sub_group_local_id", "get_sub_group_size", "get_max_sub_group_size",
     "get_num_sub_groups", "get_enqueued_num_sub_groups", "get_local_linear_id",
     "get_global_linear_id", "get_work_dim", NULL},
    {"sub_group_reduce_add", "sub_group_reduce_min", "sub_group_reduce_max",
     "sub_group_scan_inclusive_add", "sub_group_scan_exclusive_add", "sub_group_scan_inclusive_max",
     "sub_group_scan_exclusive_min", "work_group_reduce_add", "work_group_reduce_max",
     "work_group_scan_inclusive_min", "sub_group_non_uniform_reduce_mul",
     "sub_group_non_uniform_scan_inclusive_xor", "intel_sub_group_reduce_add", NULL},
    {"sub_group_shuffle", "sub_group_shuffle_xor", "sub_group_shuffle_up", "sub_group_shuffle_down",
     "sub_group_broadcast", "sub_group_rotate", "sub_group_non_uniform_broadcast",
     "intel_sub_group_shuffle", "intel_sub_group_shuffle_xor", "sub_group_clustered_reduce_add",
     "sub_group_clustered_rotate", "work_group_broadcast", NULL},
    {"sub_group_all", "sub_group_any", "sub_group_elect", "sub_group_non_uniform_all",
     "work_group_all", "work_group_any", "sub_group_ballot", NULL},
    {"sin", "cos", "exp", "log", "sqrt", "rsqrt", "native_exp", "half_log", "tgamma", "fabs",
     "floor", "cbrt", "erf", "log1p", "acosh", NULL},
    {"fmin", "fmax", "pow", "atan2", "hypot", "fmod", "copysign", "nextafter", "fdim", "powr",
     "remainder", "maxmag", NULL},
    {"barrier", "work_group_barrier", "mem_fence", "read_mem_fence", "write_mem_fence",
     "sub_group_barrier", NULL},
    {"atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_xchg", "atomic_or",
     "atomic_and", "atomic_xor", "atom_add", NULL},
    {"atomic_inc", "atomic_dec", "atom_inc", NULL},
    {"intel_sub_group_block_read", "intel_sub_group_block_read2", "intel_sub_group_block_read4",
     "intel_sub_group_block_read8", "intel_sub_group_block_read_ui4", NULL},
    {"intel_sub_group_block_write", "intel_sub_group_block_write2", "intel_sub_group_block_write4",
     "intel_sub_group_block_write8", NULL},
    {"vload2", "vload3", "vload4", "vload8", "vload16", "vload_half", "vload_half4", NULL},
    {"vstore2", "vstore3", "vstore4", "vstore8", "vstore16", "vstore_half_rte", NULL},
    {"min", "max", "add_sat", "sub_sat", "hadd", "rhadd", "abs_diff", "mul_hi", "rotate", NULL},
    {"clz", "ctz", "popcount", "abs", NULL},
};

static int family_of(const struct token *k)
{
    if (k->kind != TK_IDENT)
        return -1;
    for (size_t f = 0; f < sizeof builtin_families / sizeof *builtin_families; f++)
        for (size_t j = 0; builtin_families[f][j]; j++)
            if (!strcmp(k->text, builtin_families[f][j]))
                return (int)f;
    return -1;
}

static bool is_family_builtin(const struct token *k)
{
    return family_of(k) >= 0;
}

/* Scalar and vector types, the ones a mutated type mostly becomes. */
static const char *const plain_types[] = {"char",  "uchar",  "short",  "ushort", "int",    "uint",
                                          "long",  "ulong",  "float",  "double", "float4", "int4",
                                          "uint2", "float8", "char16", "long2",  "size_t", "bool"};

static bool is_kernel_keyword(const struct token *k)
{
    return k->kind == TK_IDENT && (!strcmp(k->text, "__kernel") || !strcmp(k->text, "kernel"));
}

/* `text` may be the token's own (copied before it is freed). */
static void replace_token(struct tokens *t, size_t i, enum token_kind kind, const char *text)
{
    char *copy = xstrndup(text, strlen(text));
    free(t->v[i].text);
    t->v[i].text = copy;
    t->v[i].kind = kind;
}

static const char *dict_word(struct rng *r)
{
    switch (rng_below(r, 5)) {
    case 0: return PICK(r, dict_types);
    case 1: return PICK(r, dict_qualifiers);
    case 2: return PICK(r, dict_keywords);
    case 3: return PICK(r, dict_constants);
    default: return PICK(r, dict_builtins);
    }
}

/* Inserts the non-space tokens [from, from + count) of `src` at `at` of `t`, spaced. */
static void insert_span(struct tokens *t, size_t at, const struct tokens *src, size_t from,
                        size_t count)
{
    for (size_t k = 0; k < count && from + k < src->n; k++) {
        const struct token *s = &src->v[from + k];
        tokens_insert(t, at++, s->kind, s->text, strlen(s->text));
    }
    tokens_insert(t, at, TK_SPACE, " ", 1);
}

static void insert_text(struct tokens *t, size_t at, const char *text)
{
    struct tokens snippet = {0};
    tokenize(text, &snippet);
    insert_span(t, at, &snippet, 0, snippet.n);
    tokens_free(&snippet);
}

/*
 * A mutation that often keeps the program valid: one word, number or
 * operator for another of its kind, a statement or declaration where one
 * may stand. Returns its name, or NULL when the program has nothing it applies to.
 */
static const char *mutate_gently(struct rng *r, struct tokens *t)
{
    size_t j;
    switch (rng_below(r, 10)) {
    case 0:
        if ((j = pick_where(r, t, is_number)) == t->n)
            return NULL;
        if (rng_chance(r, 70)) {
            replace_token(t, j, TK_NUMBER, PICK(r, dict_numbers));
        } else {
            char n[32];
            snprintf(n, sizeof n, "%d", (int)rng_below(r, 70) - 2);
            replace_token(t, j, TK_NUMBER, n);
        }
        return "number";
    case 1:
        if ((j = pick_where(r, t, is_type)) == t->n)
            return NULL;
        replace_token(t, j, TK_IDENT,
                      rng_chance(r, 70) ? PICK(r, plain_types) : PICK(r, dict_types));
        return "type";
    case 2: {
        /* Mostly another built-in of its family (same arguments), else any. */
        if (rng_chance(r, 25) && (j = pick_where(r, t, is_builtin)) != t->n) {
            replace_token(t, j, TK_IDENT, PICK(r, dict_builtins));
            return "builtin";
        }
        if ((j = pick_where(r, t, is_family_builtin)) == t->n)
            return NULL;
        const char *const *fam = builtin_families[family_of(&t->v[j])];
        size_t n = 0;
        while (fam[n])
            n++;
        replace_token(t, j, TK_IDENT, fam[rng_below(r, n)]);
        return "builtin-family";
    }
    case 3: {
        if ((j = pick_where(r, t, is_operator)) == t->n)
            return NULL;
        const char *const *cls = op_classes[op_class(&t->v[j])];
        size_t n = 0;
        while (cls[n])
            n++;
        replace_token(t, j, TK_PUNCT, cls[rng_below(r, n)]);
        return "operator";
    }
    case 4: {
        /* One name of the program for another: variables, functions, fields. */
        size_t k = pick_where(r, t, is_name);
        if ((j = pick_where(r, t, is_name)) == t->n)
            return NULL;
        replace_token(t, j, TK_IDENT, t->v[k].text);
        return "name";
    }
    case 5:
        if ((j = pick_where(r, t, is_address_space)) == t->n)
            return NULL;
        replace_token(t, j, TK_IDENT, PICK(r, address_spaces));
        return "address-space";
    case 6: insert_text(t, pick_boundary(r, t, true), PICK(r, dict_statements)); return "statement";
    case 7:
        insert_text(t, pick_boundary(r, t, false), PICK(r, dict_declarations));
        return "declaration";
    case 8:
        if ((j = pick_where(r, t, is_kernel_keyword)) == t->n)
            return NULL;
        insert_text(t, j, PICK(r, dict_attributes));
        return "attribute";
    default: {
        static const char *const conds[] = {
            " if (get_local_id(0) % 3 == 1) ",
            " if (get_sub_group_local_id() & 1) ",
            " if (get_global_id(0) < 5) ",
            " while (0) ",
            " for (int fz = 0; fz < (int)get_local_id(0); fz++) ",
            " if (get_group_id(0)) ; else ",
        };
        /*
         * Braces around the statements from a boundary to a later `;` of the
         * same block (a declaration's scope then ends early: an error, fine).
         */
        size_t at = pick_boundary(r, t, true), end = t->n, stmts = 1 + rng_below(r, 3);
        int depth = 0;
        for (size_t k = at; k < t->n; k++) {
            if (is_punct(&t->v[k], "{"))
                depth++;
            else if (is_punct(&t->v[k], "}") && --depth < 0)
                break;
            else if (depth == 0 && is_punct(&t->v[k], ";") && --stmts == 0) {
                end = k + 1;
                break;
            }
        }
        if (end == t->n)
            return NULL;
        insert_text(t, end, " } ");
        struct buf b = {0};
        buf_str(&b, PICK(r, conds));
        buf_str(&b, " { ");
        insert_text(t, at, b.s);
        free(b.s);
        return "condition";
    }
    }
}

/* Applies one random mutation; `other` is another corpus kernel for splices. Returns its name. */
static const char *mutate(struct rng *r, struct tokens *t, const struct tokens *other)
{
    size_t i = pick_token(r, t);
    if (t->n == 0 || i >= t->n) { /* nothing left to mutate: grow from the other kernel */
        insert_span(t, t->n, other, 0, other->n);
        return "refill";
    }
    if (rng_chance(r, 75))
        for (int tries = 0; tries < 8; tries++) {
            const char *name = mutate_gently(r, t);
            if (name)
                return name;
        }
    switch (rng_below(r, 16)) {
    case 0: tokens_erase(t, i, 1); return "delete";
    case 1: {
        size_t len = 1 + rng_below(r, 24);
        if (i + len > t->n)
            len = t->n - i;
        tokens_erase(t, i, len);
        return "delete-span";
    }
    case 2: {
        struct token copy = t->v[i];
        tokens_insert(t, i + 1, copy.kind, t->v[i].text, strlen(t->v[i].text));
        tokens_insert(t, i + 1, TK_SPACE, " ", 1);
        return "duplicate";
    }
    case 3: {
        size_t j = pick_token(r, t);
        if (j < t->n) {
            struct token tmp = t->v[i];
            t->v[i] = t->v[j];
            t->v[j] = tmp;
        }
        return "swap";
    }
    case 4: {
        size_t j = pick_kind(r, t, TK_IDENT);
        if (j < t->n)
            replace_token(t, j, TK_IDENT, dict_word(r));
        return "replace-identifier";
    }
    case 5: {
        size_t j = pick_kind(r, t, TK_IDENT);
        if (j < t->n)
            replace_token(t, j, TK_IDENT,
                          rng_chance(r, 50) ? PICK(r, dict_types) : PICK(r, dict_qualifiers));
        return "replace-type";
    }
    case 6: {
        size_t j = pick_kind(r, t, TK_NUMBER);
        if (j < t->n)
            replace_token(t, j, TK_NUMBER, PICK(r, dict_numbers));
        return "replace-number";
    }
    case 7: {
        size_t j = pick_kind(r, t, TK_PUNCT);
        if (j < t->n)
            replace_token(t, j, TK_PUNCT, PICK(r, dict_operators));
        return "replace-operator";
    }
    case 8: {
        size_t j = pick_kind(r, t, TK_IDENT);
        if (j < t->n)
            replace_token(t, j, TK_IDENT, PICK(r, dict_builtins));
        return "replace-builtin";
    }
    case 9: insert_text(t, rng_below(r, t->n + 1), PICK(r, dict_statements)); return "snippet";
    case 10: {
        const char *w = dict_word(r);
        tokens_insert(t, i, TK_SPACE, " ", 1);
        tokens_insert(t, i, TK_IDENT, w, strlen(w));
        return "insert-word";
    }
    case 11: {
        size_t len = 1 + rng_below(r, 40), from = rng_below(r, t->n);
        if (from + len > t->n)
            len = t->n - from;
        struct tokens span = {0};
        for (size_t k = 0; k < len; k++)
            tokens_insert(&span, k, t->v[from + k].kind, t->v[from + k].text,
                          strlen(t->v[from + k].text));
        insert_span(t, rng_below(r, t->n + 1), &span, 0, span.n);
        tokens_free(&span);
        return "copy-span";
    }
    case 12: tokens_erase(t, i, t->n - i); return "truncate";
    case 13: {
        /* Splice: this kernel's head, then the other's tail. */
        size_t cut = rng_below(r, t->n + 1), from = other->n ? rng_below(r, other->n) : 0;
        tokens_erase(t, cut, t->n - cut);
        insert_span(t, t->n, other, from, other->n - from);
        return "splice";
    }
    case 14: {
        /* A span of the other kernel at a statement boundary of this one. */
        size_t from = other->n ? rng_below(r, other->n) : 0, len = 1 + rng_below(r, 60);
        insert_span(t, pick_boundary(r, t, true), other, from, len);
        return "splice-span";
    }
    default: insert_text(t, rng_below(r, t->n + 1), PICK(r, dict_declarations)); return "decl";
    }
}

/* clang-format off */
/* Options a program may well be built with. */
static const char *const option_pool[] = {
    "-cl-fast-relaxed-math", "-cl-std=CL3.0", "-cl-std=CL3.0", "-cl-std=CL1.2", "-cl-std=CL1.1",
    "-cl-opt-disable", "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-denorms-are-zero", "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp",
    "-cl-kernel-arg-info", "-cl-kernel-arg-info", "-w", "-Werror", "-D X=1", "-DX",
    "-D N=0x7fffffff", "-DTILE=0", "-D T=1", "-D get_global_id=get_local_id", "-D __kernel=",
    "-Dfloat=double", "-U __OPENCL_VERSION__", "-I /nonexistent",
};

/* Malformed, unknown or out-of-place options. */
static const char *const bad_option_pool[] = {
    "-I", "-cl-std=CL2.0", "-D", "-cl-std=", "-g", "-O0", "-O3", "-create-library",
    "-enable-link-options", "-x spir", "--garbage", "-cl-", "-Xclang -ast-dump", "-mllvm -debug",
    "-fsyntax-only", "\"-D Q=1\"", "-DY=\"a b\"", "-cl-ext=+cl_khr_fp16",
};
/* clang-format on */

/* The build options of a case: its corpus kernel's, sometimes dropped, plus a few random ones. */
static char *make_options(struct rng *r, const char *base)
{
    struct buf b = {0};
    buf_add(&b, "", 0);
    if (rng_chance(r, 95))
        buf_str(&b, base);
    size_t extra = rng_chance(r, 50) ? 0 : 1 + rng_below(r, 3);
    for (size_t k = 0; k < extra; k++) {
        if (b.len)
            buf_str(&b, " ");
        buf_str(&b, rng_chance(r, 90) ? PICK(r, option_pool) : PICK(r, bad_option_pool));
    }
    return b.s;
}

/* ---- Findings and the case file ---------------------------------------- */

static unsigned long findings;
static bool contained; /* the case's build log tells of a compiler crash Lanes survived */
static const char *save_dir;
static char case_path[4096];  /* the case being built, left behind by a crash */
static char case_banner[256]; /* "seed S case I", for the signal handlers */
static volatile sig_atomic_t in_case;

static void write_str(const char *s)
{
    ssize_t ignored = write(2, s, strlen(s));
    (void)ignored;
}

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM};
static struct sigaction previous[sizeof fatal_signals / sizeof *fatal_signals];

/*
 * A crash or a hang: name the case, then let the handler that was there
 * before (the default, or a sanitizer's) take the signal. A fault returns
 * to the faulting instruction, which faults again into that handler with
 * its real context; a signal sent (abort, raise) is sent again.
 */
static void on_fatal(int sig, siginfo_t *info, void *context)
{
    (void)context;
    if (in_case) {
        write_str(sig == SIGALRM ? "\nsource_fuzz: FINDING: hang (over the time limit) in "
                                 : "\nsource_fuzz: FINDING: crash (signal) in ");
        write_str(case_banner);
        if (case_path[0]) {
            write_str("; the case is left in ");
            write_str(case_path);
        }
        write_str("\n");
    }
    if (sig == SIGALRM)
        _exit(3);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++)
        if (fatal_signals[i] == sig)
            sigaction(sig, &previous[i], NULL);
    if (info->si_code <= 0) /* sent, not a fault */
        raise(sig);
}

static void install_handlers(void)
{
    for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fatal;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal_signals[i], &sa, &previous[i]);
    }
}

static void finding(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "source_fuzz: FINDING: %s: ", case_banner);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    findings++;
}

/* Writes the case to `path`: its options on the first line, then its source. */
static bool write_case(const char *path, const char *options, const char *source, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    fprintf(f, "// options: %s\n", options);
    fwrite(source, 1, size, f);
    return fclose(f) == 0;
}

/* ---- Building and querying --------------------------------------------- */

struct stats {
    unsigned long cases, built, failed, bad_options, kernels, launcher_failures;
    unsigned long contained_crashes;
};

static cl_context context;
static cl_device_id device;
static bool verbose;

static const char *code_name(cl_int e)
{
    switch (e) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_DEFINITION: return "CL_INVALID_KERNEL_DEFINITION";
    case CL_KERNEL_ARG_INFO_NOT_AVAILABLE: return "CL_KERNEL_ARG_INFO_NOT_AVAILABLE";
    default: return "another code";
    }
}

/* A string query's answer must be NUL-terminated at exactly its reported size. */
typedef cl_int (*string_query)(const void *obj, cl_uint param, size_t size, void *value,
                               size_t *size_ret);

static cl_int program_build_info(const void *obj, cl_uint param, size_t size, void *value,
                                 size_t *ret)
{
    return clGetProgramBuildInfo((cl_program)obj, device, param, size, value, ret);
}

static cl_int program_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret)
{
    return clGetProgramInfo((cl_program)obj, param, size, value, ret);
}

static cl_int kernel_info(const void *obj, cl_uint param, size_t size, void *value, size_t *ret)
{
    return clGetKernelInfo((cl_kernel)obj, param, size, value, ret);
}

/* Reads a string property and checks its shape; returns it (malloc'd) or NULL. */
static char *check_string(string_query q, const void *obj, cl_uint param, const char *what)
{
    size_t size = 0;
    cl_int err = q(obj, param, 0, NULL, &size);
    if (err != CL_SUCCESS) {
        finding("%s: size query returned %d (%s)", what, err, code_name(err));
        return NULL;
    }
    if (size == 0) {
        finding("%s: size 0 (no NUL)", what);
        return NULL;
    }
    char *s = xmalloc(size);
    size_t again = 0;
    err = q(obj, param, size, s, &again);
    if (err != CL_SUCCESS || again != size) {
        finding("%s: query returned %d, size %zu then %zu", what, err, size, again);
        free(s);
        return NULL;
    }
    if (s[size - 1] != '\0' || strlen(s) + 1 != size) {
        finding("%s: not a string of its reported size %zu (strlen %zu)", what, size, strlen(s));
        free(s);
        return NULL;
    }
    return s;
}

static void query_kernel(struct rng *r, cl_kernel k, struct stats *st)
{
    char *name = check_string(kernel_info, k, CL_KERNEL_FUNCTION_NAME, "CL_KERNEL_FUNCTION_NAME");
    char *attrs = check_string(kernel_info, k, CL_KERNEL_ATTRIBUTES, "CL_KERNEL_ATTRIBUTES");
    cl_uint nargs = 0;
    cl_int err = clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (err != CL_SUCCESS)
        finding("CL_KERNEL_NUM_ARGS returned %d", err);
    for (cl_uint a = 0; a < nargs && a < 1024; a++) {
        cl_kernel_arg_address_qualifier aq;
        err = clGetKernelArgInfo(k, a, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL);
        if (err == CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
            break;
        if (err != CL_SUCCESS) {
            finding("clGetKernelArgInfo(%u) returned %d (%s)", a, err, code_name(err));
            break;
        }
        cl_kernel_arg_access_qualifier acc;
        cl_kernel_arg_type_qualifier tq;
        if ((err = clGetKernelArgInfo(k, a, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc,
                                      NULL)) != CL_SUCCESS ||
            (err = clGetKernelArgInfo(k, a, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL)) !=
                CL_SUCCESS)
            finding("clGetKernelArgInfo(%u) qualifiers returned %d", a, err);
        static const cl_kernel_arg_info strings[] = {CL_KERNEL_ARG_TYPE_NAME, CL_KERNEL_ARG_NAME};
        for (size_t q = 0; q < 2; q++) {
            size_t size = 0;
            err = clGetKernelArgInfo(k, a, strings[q], 0, NULL, &size);
            char *s = err == CL_SUCCESS && size ? xmalloc(size) : NULL;
            if (!s || clGetKernelArgInfo(k, a, strings[q], size, s, NULL) != CL_SUCCESS ||
                s[size - 1] != '\0' || strlen(s) + 1 != size)
                finding("clGetKernelArgInfo(%u, %#x): not a well-formed string", a,
                        (unsigned)strings[q]);
            free(s);
        }
    }
    size_t wg = 0, multiple = 0;
    cl_ulong priv = 0, local = 0;
    err = clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    if (err != CL_SUCCESS || wg == 0)
        finding("CL_KERNEL_WORK_GROUP_SIZE returned %d, %zu", err, wg);
    err = clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local, &local, NULL);
    if (err != CL_SUCCESS)
        finding("CL_KERNEL_LOCAL_MEM_SIZE returned %d", err);
    /* Compiles the width-1 launcher; a kernel too big to run says so with CL_OUT_OF_RESOURCES. */
    err = clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof priv, &priv, NULL);
    if (err == CL_OUT_OF_RESOURCES)
        st->launcher_failures++;
    else if (err != CL_SUCCESS)
        finding("CL_KERNEL_PRIVATE_MEM_SIZE returned %d (%s)", err, code_name(err));
    /* Compiles the launcher of the policy's width. */
    err = clGetKernelWorkGroupInfo(k, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                   sizeof multiple, &multiple, NULL);
    if (err != CL_SUCCESS || !(multiple == 1 || multiple == 8 || multiple == 16 || multiple == 32))
        finding("CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE returned %d, %zu", err, multiple);
    /* Two local sizes, each compiling the launcher of the width the policy gives it. */
    static const size_t shapes[][3] = {{8, 1, 1},  {16, 1, 1}, {32, 1, 1}, {24, 1, 1},
                                       {64, 1, 1}, {16, 4, 1}, {4, 4, 1},  {7, 3, 2}};
    for (int n = 0; n < 2; n++) {
        const size_t *shape = shapes[rng_below(r, sizeof shapes / sizeof *shapes)];
        cl_uint dims = shape[2] > 1 ? 3 : shape[1] > 1 ? 2 : 1;
        size_t max_sg = 0, count = 0;
        err = clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                      dims * sizeof(size_t), shape, sizeof max_sg, &max_sg, NULL);
        if (err != CL_SUCCESS || max_sg == 0 || max_sg > 32)
            finding("CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE(%zu,%zu,%zu) returned %d, %zu",
                    shape[0], shape[1], shape[2], err, max_sg);
        err = clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                      dims * sizeof(size_t), shape, sizeof count, &count, NULL);
        if (err != CL_SUCCESS || count == 0)
            finding("CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE returned %d, %zu", err, count);
    }
    size_t max_num = 0;
    err = clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, NULL, sizeof max_num,
                                  &max_num, NULL);
    if (err != CL_SUCCESS || max_num == 0)
        finding("CL_KERNEL_MAX_NUM_SUB_GROUPS returned %d, %zu", err, max_num);
    if (verbose)
        fprintf(stderr,
                "  kernel %s(%u args) [%s]: wg %zu, private %llu, local %llu, multiple %zu\n",
                name ? name : "?", nargs, attrs ? attrs : "?", wg, (unsigned long long)priv,
                (unsigned long long)local, multiple);
    free(name);
    free(attrs);
    st->kernels++;
}

/* Builds one case and queries what it yields; returns the clBuildProgram code. */
static cl_int run_case(struct rng *r, const char *source, size_t size, const char *options,
                       struct stats *st)
{
    cl_int err;
    const char *strings[1] = {source};
    size_t lengths[1] = {size};
    /* Half the cases give the length, half a NUL-terminated string. */
    cl_program p =
        clCreateProgramWithSource(context, 1, strings, rng_chance(r, 50) ? lengths : NULL, &err);
    if (!p || err != CL_SUCCESS) {
        finding("clCreateProgramWithSource returned %d (%s)", err, code_name(err));
        return err;
    }
    cl_int built = clBuildProgram(p, 1, &device, options, NULL, NULL);
    st->cases++;
    cl_build_status status = CL_BUILD_NONE;
    cl_int serr =
        clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    char *log = check_string(program_build_info, p, CL_PROGRAM_BUILD_LOG, "CL_PROGRAM_BUILD_LOG");
    char *opts =
        check_string(program_build_info, p, CL_PROGRAM_BUILD_OPTIONS, "CL_PROGRAM_BUILD_OPTIONS");
    if (log && strstr(log, "the compiler crashed"))
        st->contained_crashes++, contained = true;
    if (built == CL_SUCCESS) {
        st->built++;
        if (serr != CL_SUCCESS || status != CL_BUILD_SUCCESS)
            finding("built, but CL_PROGRAM_BUILD_STATUS is %d (query %d)", status, serr);
        char *names =
            check_string(program_info, p, CL_PROGRAM_KERNEL_NAMES, "CL_PROGRAM_KERNEL_NAMES");
        cl_uint n = 0;
        err = clCreateKernelsInProgram(p, 0, NULL, &n);
        if (err != CL_SUCCESS) {
            finding("clCreateKernelsInProgram(count) returned %d (%s)", err, code_name(err));
        } else if (n > 0) {
            cl_kernel *ks = xmalloc(n * sizeof *ks);
            err = clCreateKernelsInProgram(p, n, ks, NULL);
            if (err != CL_SUCCESS) {
                finding("clCreateKernelsInProgram returned %d (%s)", err, code_name(err));
            } else {
                for (cl_uint i = 0; i < n; i++) {
                    query_kernel(r, ks[i], st);
                    clReleaseKernel(ks[i]);
                }
            }
            free(ks);
        }
        free(names);
    } else if (built == CL_BUILD_PROGRAM_FAILURE || built == CL_INVALID_BUILD_OPTIONS) {
        if (built == CL_BUILD_PROGRAM_FAILURE)
            st->failed++;
        else
            st->bad_options++;
        if (built == CL_BUILD_PROGRAM_FAILURE && (serr != CL_SUCCESS || status != CL_BUILD_ERROR))
            finding("build failed, but CL_PROGRAM_BUILD_STATUS is %d (query %d)", status, serr);
    } else {
        finding("clBuildProgram returned %d (%s)", built, code_name(built));
    }
    if (built == CL_SUCCESS && !contained) { /* a launcher's crash, told by the log */
        free(log);
        log = check_string(program_build_info, p, CL_PROGRAM_BUILD_LOG, "CL_PROGRAM_BUILD_LOG");
        if (log && strstr(log, "the compiler crashed"))
            st->contained_crashes++, contained = true;
    }
    if (verbose)
        fprintf(stderr, "%s: %s [%s]\n%s%s", case_banner, code_name(built), options, log ? log : "",
                log && *log && log[strlen(log) - 1] != '\n' ? "\n" : "");
    free(log);
    free(opts);
    clReleaseProgram(p);
    return built;
}

/* ---- Driver ------------------------------------------------------------- */

static void setup_opencl(void)
{
    cl_platform_id ids[16];
    cl_uint n = 0;
    if (clGetPlatformIDs(16, ids, &n) != CL_SUCCESS || n == 0) {
        fprintf(stderr, "source_fuzz: no OpenCL platform (set OCL_ICD_VENDORS)\n");
        exit(2);
    }
    cl_platform_id lanes = NULL;
    for (cl_uint i = 0; i < n && i < 16; i++) {
        char name[64] = "";
        clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strcmp(name, "Lanes") == 0)
            lanes = ids[i];
    }
    if (!lanes || clGetDeviceIDs(lanes, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
        fprintf(stderr, "source_fuzz: no Lanes platform or device\n");
        exit(2);
    }
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "source_fuzz: clCreateContext returned %d\n", err);
        exit(2);
    }
}

static uint64_t case_seed(uint64_t seed, uint64_t index)
{
    struct rng r = {seed * 0x100000001b3ull ^ (index + 1) * 0x9e3779b97f4a7c15ull};
    return rng_next(&r);
}

/* Generates case `index` of `seed`: a mutated corpus kernel and its options. */
static void make_case(uint64_t seed, uint64_t index, const struct seed_source *corpus,
                      size_t ncorpus, struct tokens *toks, struct rng *r, char **source,
                      char **options, const char **origin, struct buf *history)
{
    r->s = case_seed(seed, index);
    const struct seed_source *a = &corpus[rng_below(r, ncorpus)];
    const struct seed_source *b = &corpus[rng_below(r, ncorpus)];
    *origin = a->name;
    tokenize(a->text, toks);
    struct tokens other = {0};
    tokenize(b->text, &other);
    /* Mostly a few mutations; sometimes many, which tends towards garbage. */
    size_t count = rng_chance(r, 85) ? 1 + rng_below(r, 3) : 1 + rng_below(r, 24);
    buf_add(history, "", 0);
    for (size_t k = 0; k < count; k++) {
        if (k)
            buf_str(history, ",");
        buf_str(history, mutate(r, toks, &other));
    }
    tokens_free(&other);
    *source = detokenize(toks);
    *options = make_options(r, a->options);
    tokens_free(toks);
}

static void usage(void)
{
    fprintf(stderr, "usage: source_fuzz --corpus DIR [--seed S] [--count N] [--seconds T]\n"
                    "                   [--save-crashes DIR] [--timeout T] [--case I]\n"
                    "                   [--replay FILE] [--check-corpus] [--verbose]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *corpus_dir = NULL, *replay = NULL;
    uint64_t seed = 1, only_case = UINT64_MAX;
    unsigned long count = 0; /* 0: no limit but the time */
    double seconds = 0;
    unsigned timeout = 60;
    bool check_corpus = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--check-corpus"))
            check_corpus = true;
        else if (!strcmp(a, "--verbose"))
            verbose = true;
        else if (!v)
            usage();
        else if (!strcmp(a, "--corpus"))
            corpus_dir = v, i++;
        else if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--count"))
            count = strtoul(v, NULL, 0), i++;
        else if (!strcmp(a, "--seconds"))
            seconds = strtod(v, NULL), i++;
        else if (!strcmp(a, "--save-crashes"))
            save_dir = v, i++;
        else if (!strcmp(a, "--timeout"))
            timeout = (unsigned)strtoul(v, NULL, 0), i++;
        else if (!strcmp(a, "--case"))
            only_case = strtoull(v, NULL, 0), i++;
        else if (!strcmp(a, "--replay"))
            replay = v, i++;
        else
            usage();
    }
    if (!corpus_dir && !replay)
        usage();
    if (count == 0 && seconds <= 0 && only_case == UINT64_MAX && !check_corpus && !replay)
        count = 100;
    install_handlers();
    setup_opencl();
    struct stats st = {0};
    struct rng r = {seed};
    double start = now_seconds();

    if (replay) {
        size_t size;
        char *text = read_file(replay, &size);
        if (!text) {
            fprintf(stderr, "source_fuzz: cannot read %s\n", replay);
            return 2;
        }
        char *options = options_line(text);
        snprintf(case_banner, sizeof case_banner, "replay of %s", replay);
        in_case = 1;
        alarm(timeout);
        cl_int e = run_case(&r, text, size, options, &st);
        alarm(0);
        printf("%s: clBuildProgram %s (%d), %lu kernels queried\n", replay, code_name(e), e,
               st.kernels);
        free(text);
        free(options);
        clReleaseContext(context);
        return findings ? 1 : 0;
    }

    size_t ncorpus = 0;
    struct seed_source *corpus = corpus_dir ? load_corpus(corpus_dir, &ncorpus) : NULL;
    if (check_corpus) {
        /* Every corpus kernel builds unmutated, with its own options, and its kernels query. */
        for (size_t i = 0; i < ncorpus; i++) {
            snprintf(case_banner, sizeof case_banner, "corpus %s", corpus[i].name);
            in_case = 1;
            alarm(timeout);
            unsigned long before = findings;
            cl_int e = run_case(&r, corpus[i].text, strlen(corpus[i].text), corpus[i].options, &st);
            alarm(0);
            if (e != CL_SUCCESS) {
                finding("the corpus kernel does not build (%s); rerun with --verbose for its log",
                        code_name(e));
            }
            printf("corpus %-24s %s\n", corpus[i].name,
                   e == CL_SUCCESS && findings == before ? "ok" : "FAILED");
        }
    }

    for (uint64_t index = only_case == UINT64_MAX ? 0 : only_case; corpus && !check_corpus;
         index++) {
        if (only_case != UINT64_MAX
                ? index != only_case
                : ((count && index >= count) || (seconds > 0 && now_seconds() - start >= seconds)))
            break;
        struct tokens toks = {0};
        struct buf history = {0};
        char *source, *options;
        const char *origin;
        make_case(seed, index, corpus, ncorpus, &toks, &r, &source, &options, &origin, &history);
        snprintf(case_banner, sizeof case_banner,
                 "seed %llu case %llu (%s, %s; reproduce: --seed %llu --case %llu)",
                 (unsigned long long)seed, (unsigned long long)index, origin, history.s,
                 (unsigned long long)seed, (unsigned long long)index);
        case_path[0] = '\0';
        if (save_dir) {
            snprintf(case_path, sizeof case_path, "%s/case-%llu-%llu.cl", save_dir,
                     (unsigned long long)seed, (unsigned long long)index);
            if (!write_case(case_path, options, source, strlen(source))) {
                fprintf(stderr, "source_fuzz: cannot write %s: %s\n", case_path, strerror(errno));
                return 2;
            }
        }
        unsigned long before = findings;
        contained = false;
        in_case = 1;
        alarm(timeout);
        run_case(&r, source, strlen(source), options, &st);
        alarm(0);
        in_case = 0;
        if (save_dir) {
            if (findings != before) {
                char kept[4096 + 32];
                snprintf(kept, sizeof kept, "%s/finding-%llu-%llu.cl", save_dir,
                         (unsigned long long)seed, (unsigned long long)index);
                rename(case_path, kept);
                fprintf(stderr, "source_fuzz: the case is kept in %s\n", kept);
            } else if (contained) { /* not a finding of Lanes, but one to report upstream */
                char kept[4096 + 32];
                snprintf(kept, sizeof kept, "%s/contained-%llu-%llu.cl", save_dir,
                         (unsigned long long)seed, (unsigned long long)index);
                rename(case_path, kept);
            } else {
                unlink(case_path);
            }
        }
        free(source);
        free(options);
        free(history.s);
    }

    double took = now_seconds() - start;
    printf("source_fuzz: seed %llu: %lu cases in %.1f s: %lu built (%lu kernels queried, %lu "
           "launchers refused), %lu failed to build, %lu refused options, %lu contained "
           "compiler crashes; %lu findings\n",
           (unsigned long long)seed, st.cases, took, st.built, st.kernels, st.launcher_failures,
           st.failed, st.bad_options, st.contained_crashes, findings);
    for (size_t i = 0; i < ncorpus; i++) {
        free(corpus[i].name);
        free(corpus[i].text);
        free(corpus[i].options);
    }
    free(corpus);
    clReleaseContext(context);
    return findings ? 1 : 0;
}
