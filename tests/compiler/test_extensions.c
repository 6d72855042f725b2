/* SPDX-License-Identifier: MIT */
/*
 * The built-ins of Intel's sub-group extensions, which Clang's tables lack
 * and compiler/frontend/lanes_extensions.h declares: compiled through
 * lanes_program_compile with the extensions in the program's language, every
 * function of every family (the lists below are the extension
 * specifications') is declared, convergent, under the name the built-in
 * library will define; a family is declared only when its extension is in
 * the language, and a language with none of them does not include the
 * header at all.
 */
#include "../../compiler/frontend/frontend.h"
#include "../../compiler/program.h"
#include "../../compiler/options.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h> /* cmocka.h needs these four first */
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The extensions, as bits of a mask. */
enum { SUBGROUPS = 1, SHORT = 2, CHAR = 4, LONG = 8, LOCAL = 16, ALL = 31 };
static const char *const ext_names[] = {"cl_intel_subgroups", "cl_intel_subgroups_short",
                                        "cl_intel_subgroups_char", "cl_intel_subgroups_long",
                                        "cl_intel_subgroup_local_block_io"};

/* An element type: its OpenCL C name and its Itanium mangling. */
struct type {
    const char *name, *code;
};

static const struct type t_float = {"float", "f"}, t_int = {"int", "i"}, t_uint = {"uint", "j"},
                         t_long = {"long", "l"}, t_ulong = {"ulong", "m"}, t_half = {"half", "Dh"},
                         t_double = {"double", "d"}, t_short = {"short", "s"},
                         t_ushort = {"ushort", "t"}, t_char = {"char", "c"},
                         t_uchar = {"uchar", "h"};

/* Vector widths, 0-terminated. */
static const unsigned widths_3[] = {1, 2, 3, 4, 8, 16, 0}, widths_16[] = {1, 2, 4, 8, 16, 0},
                      widths_8[] = {1, 2, 4, 8, 0}, widths_1[] = {1, 0};

/*
 * Each family below is available when the language has all the extensions
 * of its mask `all` and, if `any` is not 0, one of those of `any`.
 */

/* Types of intel_sub_group_shuffle, _down, _up, _xor, per extension. */
static const struct shuffles {
    unsigned all;
    const struct type *type;
    const unsigned *widths;
} shuffles[] = {
    {SUBGROUPS, &t_float, widths_3},  {SUBGROUPS, &t_int, widths_3},
    {SUBGROUPS, &t_uint, widths_3},   {SUBGROUPS, &t_long, widths_1},
    {SUBGROUPS, &t_ulong, widths_1},  {SUBGROUPS, &t_half, widths_1},
    {SUBGROUPS, &t_double, widths_1}, {SHORT, &t_short, widths_3},
    {SHORT, &t_ushort, widths_3},     {CHAR, &t_char, widths_16},
    {CHAR, &t_uchar, widths_16},
};

/* Types of intel_sub_group_broadcast, _reduce_<op>, _scan_<kind>_<op>. */
static const struct collectives {
    unsigned all;
    const struct type *type;
} collectives[] = {{SHORT, &t_short}, {SHORT, &t_ushort}, {CHAR, &t_char}, {CHAR, &t_uchar}};

/* intel_sub_group_block_read<suffix><N> / _write<suffix><N> on pointers to `space`. */
static const struct block_io {
    unsigned all, any;
    const char *suffix;
    const struct type *type;
    const unsigned *widths;
    const char *space; /* "global" or "local" */
} block_io[] = {
    {SUBGROUPS, 0, "", &t_uint, widths_8, "global"},
    {SHORT, 0, "_us", &t_ushort, widths_16, "global"},
    {0, SHORT | CHAR | LONG, "_ui", &t_uint, widths_8, "global"}, /* each adds the aliases */
    {CHAR, 0, "_uc", &t_uchar, widths_16, "global"},
    {LONG, 0, "_ul", &t_ulong, widths_8, "global"},
    {LOCAL, 0, "", &t_uint, widths_8, "local"},
    {LOCAL, 0, "_ui", &t_uint, widths_8, "local"},
    {LOCAL | SHORT, 0, "_us", &t_ushort, widths_16, "local"},
    {LOCAL | CHAR, 0, "_uc", &t_uchar, widths_16, "local"},
    {LOCAL | LONG, 0, "_ul", &t_ulong, widths_8, "local"},
};

/* Whether a family of masks `all` and `any` is available with the extensions `on`. */
static bool available(unsigned all, unsigned any, unsigned on)
{
    return (all & ~on) == 0 && (any == 0 || (any & on) != 0);
}

/* A growing string. */
struct text {
    char *s;
    size_t len;
};

static void append(struct text *t, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    assert_true(n >= 0);
    t->s = realloc(t->s, t->len + (size_t)n + 1);
    assert_non_null(t->s);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap2);
    t->len += (size_t)n;
    va_end(ap2);
    va_end(ap);
}

/* Calls to generate, and the mangled names of the declarations they need. */
struct calls {
    struct text source;
    char *names[2048]; /* distinct, as each call is of a distinct overload */
    size_t num_names;
    char *identifiers[64]; /* the distinct function names called */
    size_t num_identifiers;
};

/* Records one call `call;` of identifier `fn` whose mangled parameters are `params`. */
static void add_call(struct calls *c, const char *fn, const char *params, const char *call)
{
    append(&c->source, "    %s;\n", call);
    struct text name = {0};
    append(&name, "_Z%zu%s%s", strlen(fn), fn, params);
    for (size_t i = 0; i < c->num_names; i++)
        assert_string_not_equal(c->names[i], name.s);
    assert_true(c->num_names < ARRAY_SIZE(c->names));
    c->names[c->num_names++] = name.s;
    for (size_t i = 0; i < c->num_identifiers; i++)
        if (strcmp(c->identifiers[i], fn) == 0)
            return;
    assert_true(c->num_identifiers < ARRAY_SIZE(c->identifiers));
    c->identifiers[c->num_identifiers++] = strdup(fn);
}

/* "float4" and "Dv4_f" (or "float" and "f" when n is 1). */
static void vector(const struct type *t, unsigned n, char name[16], char code[16])
{
    snprintf(name, 16, n == 1 ? "%s" : "%s%u", t->name, n);
    if (n == 1)
        snprintf(code, 16, "%s", t->code);
    else
        snprintf(code, 16, "Dv%u_%s", n, t->code);
}

/*
 * A kernel calling, each with its own overload, every function available
 * with the extensions `on` (or, `missing` true, every function that is not
 * available with them but is with all five).
 */
static void generate(struct calls *c, unsigned on, bool missing)
{
    memset(c, 0, sizeof *c);
    append(&c->source, "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                       "kernel void k(global uint *global_uint, global ushort *global_ushort,\n"
                       "              global uchar *global_uchar, global ulong *global_ulong,\n"
                       "              local uint *local_uint, local ushort *local_ushort,\n"
                       "              local uchar *local_uchar, local ulong *local_ulong)\n"
                       "{\n");
    char name[16], code[16], call[256], params[64];
    for (size_t i = 0; i < ARRAY_SIZE(shuffles); i++) {
        const struct shuffles *s = &shuffles[i];
        if (available(s->all, 0, on) == missing)
            continue;
        for (const unsigned *w = s->widths; *w; w++) {
            vector(s->type, *w, name, code);
            /* The second of two vector operands is a substitution, S_. */
            const char *again = *w == 1 ? code : "S_";
            static const char *const one[] = {"intel_sub_group_shuffle",
                                              "intel_sub_group_shuffle_xor"};
            static const char *const two[] = {"intel_sub_group_shuffle_down",
                                              "intel_sub_group_shuffle_up"};
            for (int f = 0; f < 2; f++) {
                snprintf(call, sizeof call, "%s((%s)(1), 1u)", one[f], name);
                snprintf(params, sizeof params, "%sj", code);
                add_call(c, one[f], params, call);
                snprintf(call, sizeof call, "%s((%s)(1), (%s)(2), 1u)", two[f], name, name);
                snprintf(params, sizeof params, "%s%sj", code, again);
                add_call(c, two[f], params, call);
            }
        }
    }
    for (size_t i = 0; i < ARRAY_SIZE(collectives); i++) {
        const struct collectives *s = &collectives[i];
        if (available(s->all, 0, on) == missing)
            continue;
        const char *t = s->type->name;
        snprintf(call, sizeof call, "intel_sub_group_broadcast((%s)(1), 0u)", t);
        snprintf(params, sizeof params, "%sj", s->type->code);
        add_call(c, "intel_sub_group_broadcast", params, call);
        static const char *const kinds[] = {"reduce", "scan_exclusive", "scan_inclusive"};
        static const char *const ops[] = {"add", "min", "max"};
        for (int k = 0; k < 3; k++)
            for (int o = 0; o < 3; o++) {
                char fn[64];
                snprintf(fn, sizeof fn, "intel_sub_group_%s_%s", kinds[k], ops[o]);
                snprintf(call, sizeof call, "%s((%s)(1))", fn, t);
                add_call(c, fn, s->type->code, call);
            }
    }
    for (size_t i = 0; i < ARRAY_SIZE(block_io); i++) {
        const struct block_io *b = &block_io[i];
        if (available(b->all, b->any, on) == missing)
            continue;
        for (const unsigned *w = b->widths; *w; w++) {
            char read[64], write[64], n[12] = "";
            if (*w > 1)
                snprintf(n, sizeof n, "%u", *w);
            snprintf(read, sizeof read, "intel_sub_group_block_read%s%s", b->suffix, n);
            snprintf(write, sizeof write, "intel_sub_group_block_write%s%s", b->suffix, n);
            vector(b->type, *w, name, code);
            /* Clang's OpenCL address-space mangling: U8CLglobal, U7CLlocal. */
            char pointer[32];
            snprintf(pointer, sizeof pointer, "PU%zuCL%s", strlen(b->space) + 2, b->space);
            snprintf(call, sizeof call, "%s(%s_%s)", read, b->space, b->type->name);
            snprintf(params, sizeof params, "%sK%s", pointer, b->type->code);
            add_call(c, read, params, call);
            snprintf(call, sizeof call, "%s(%s_%s, (%s)(1))", write, b->space, b->type->name, name);
            snprintf(params, sizeof params, "%s%s%s", pointer, b->type->code, code);
            add_call(c, write, params, call);
        }
    }
    append(&c->source, "}\n");
}

static void free_calls(struct calls *c)
{
    free(c->source.s);
    for (size_t i = 0; i < c->num_names; i++)
        free(c->names[i]);
    for (size_t i = 0; i < c->num_identifiers; i++)
        free(c->identifiers[i]);
}

static const cl_name_version versions[] = {{CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
                                           {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"},
                                           {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"}};
static const cl_name_version features[] = {{CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"},
                                           {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"},
                                           {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_subgroups"}};

/*
 * Compiles `source` (with the in-memory `headers`) to an object with
 * `options` and a language of the extensions in the mask `exts`, plus
 * cl_khr_fp16 and cl_khr_fp64 (so that the half and double shuffles are
 * there). Returns the module, parsed into `ctx`, or NULL; `*log` receives
 * the log.
 */
static LLVMModuleRef compile_with(LLVMContextRef ctx, const char *source,
                                  const struct lanes_frontend_file *headers, size_t num_headers,
                                  const char *options, unsigned exts, char **log)
{
    cl_name_version list[ARRAY_SIZE(ext_names) + 2];
    size_t n = 0;
    for (size_t i = 0; i < ARRAY_SIZE(ext_names); i++)
        if (exts & (1u << i)) {
            list[n].version = CL_MAKE_VERSION(1, 0, 0);
            snprintf(list[n++].name, sizeof list->name, "%s", ext_names[i]);
        }
    list[n++] = (cl_name_version){CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp16"};
    list[n++] = (cl_name_version){CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp64"};
    struct lanes_language lang = {.extensions = list,
                                  .num_extensions = n,
                                  .features = features,
                                  .num_features = ARRAY_SIZE(features),
                                  .opencl_version = CL_MAKE_VERSION(3, 0, 0)};
    struct lanes_options o;
    assert_int_equal(
        lanes_options_parse(options, LANES_OPTIONS_COMPILE, versions, ARRAY_SIZE(versions), &o), 0);
    struct lanes_program_module *pm =
        lanes_program_compile(source, strlen(source), headers, num_headers, &o, &lang, false, log);
    lanes_options_free(&o);
    assert_non_null(*log);
    if (!pm)
        return NULL;
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)pm->bitcode,
                                                                        pm->bitcode_size, "object");
    LLVMModuleRef m = NULL;
    assert_int_equal(LLVMParseBitcodeInContext2(ctx, buf, &m), 0);
    LLVMDisposeMemoryBuffer(buf);
    lanes_program_module_free(pm);
    return m;
}

/* compile_with and no headers. */
static LLVMModuleRef compile(LLVMContextRef ctx, const char *source, const char *options,
                             unsigned exts, char **log)
{
    return compile_with(ctx, source, NULL, 0, options, exts, log);
}

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("expected \"%s\" in:\n%s", needle, haystack);
}

/* Every expected declaration is in `m`, convergent, and no other intel_sub_group one. */
static void assert_declarations(LLVMModuleRef m, const struct calls *c)
{
    unsigned convergent = LLVMGetEnumAttributeKindForName("convergent", 10);
    for (size_t i = 0; i < c->num_names; i++) {
        LLVMValueRef fn = LLVMGetNamedFunction(m, c->names[i]);
        if (!fn)
            fail_msg("no declaration %s", c->names[i]);
        assert_true(LLVMIsDeclaration(fn));
        if (!LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, convergent))
            fail_msg("%s is not convergent", c->names[i]);
    }
    size_t found = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        size_t len;
        found += strstr(LLVMGetValueName2(fn, &len), "intel_sub_group") != NULL;
    }
    assert_int_equal(found, c->num_names);
}

/* With all five extensions, every function compiles to its declaration. */
static void test_all_declared(void **state)
{
    (void)state;
    struct calls c;
    generate(&c, ALL, false);
    /* Per extension: 4 x 22 + 8 (cl_intel_subgroups), 4 x 12 + 2 x 10 + 10 + 8 (_short,
     * with the _ui aliases), 4 x 10 + 2 x 10 + 10 (_char), 8 (_long), 8 + 8 + 10 + 10 + 8
     * (_local_block_io). */
    assert_int_equal(c.num_names, 96 + 86 + 70 + 8 + 44);
    static const char *const options[] = {"", "-cl-std=CL3.0"};
    for (size_t i = 0; i < ARRAY_SIZE(options); i++) {
        LLVMContextRef ctx = LLVMContextCreate();
        char *log;
        LLVMModuleRef m = compile(ctx, c.source.s, options[i], ALL, &log);
        if (!m)
            fail_msg("%s failed:\n%s\n%s", options[i], log, c.source.s);
        assert_string_equal(log, "");
        assert_declarations(m, &c);
        /* Samples, spelled out. */
        assert_non_null(LLVMGetNamedFunction(m, "_Z23intel_sub_group_shuffleij"));
        assert_non_null(LLVMGetNamedFunction(m, "_Z28intel_sub_group_shuffle_downDv2_fS_j"));
        assert_non_null(LLVMGetNamedFunction(m, "_Z26intel_sub_group_reduce_addt"));
        assert_non_null(LLVMGetNamedFunction(m, "_Z27intel_sub_group_block_read4PU8CLglobalKj"));
        assert_non_null(
            LLVMGetNamedFunction(m, "_Z32intel_sub_group_block_write_uc16PU7CLlocalhDv16_h"));
        free(log);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
    free_calls(&c);
}

/*
 * Each family needs its extension: without it (the others on), its calls
 * fail; the rest still compiles. cl_intel_subgroups is required by the
 * others, so only its own calls are tried without it.
 */
static void test_gated_by_extension(void **state)
{
    (void)state;
    for (unsigned e = 1; e < ALL; e <<= 1) {
        struct calls c;
        generate(&c, ALL & ~e, true);
        char *log;
        LLVMContextRef ctx = LLVMContextCreate();
        if (compile(ctx, c.source.s, "", ALL & ~e, &log))
            fail_msg("compiled without %s:\n%s", ext_names[__builtin_ctz(e)], c.source.s);
        assert_contains(log, "error:");
        free(log);
        free_calls(&c);
        if (e == SUBGROUPS) {
            LLVMContextDispose(ctx);
            continue;
        }
        generate(&c, ALL & ~e, false);
        LLVMModuleRef m = compile(ctx, c.source.s, "", ALL & ~e, &log);
        if (!m)
            fail_msg("without %s:\n%s", ext_names[__builtin_ctz(e)], log);
        assert_declarations(m, &c);
        free(log);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        free_calls(&c);
    }
}

/* With none of them, every name is undeclared. */
static void test_none_undeclared(void **state)
{
    (void)state;
    struct calls c;
    generate(&c, ALL, false);
    LLVMContextRef ctx = LLVMContextCreate();
    char *log;
    assert_null(compile(ctx, c.source.s, "-cl-std=CL3.0", 0, &log));
    for (size_t i = 0; i < c.num_identifiers; i++) {
        char message[128];
        snprintf(message, sizeof message, "error: use of undeclared identifier '%s'",
                 c.identifiers[i]);
        assert_contains(log, message);
    }
    free(log);
    LLVMContextDispose(ctx);
    free_calls(&c);
}

/* Compiles `source`, expecting success, and disposes of the module. */
static void compiles(LLVMContextRef ctx, const char *source, const char *options, unsigned exts)
{
    char *log;
    LLVMModuleRef m = compile(ctx, source, options, exts, &log);
    if (!m)
        fail_msg("with extensions %#x, options '%s':\n%s\n%s", exts, options, log, source);
    free(log);
    LLVMDisposeModule(m);
}

/*
 * The header (its guard macro tells) is included only when the language has
 * one of the extensions and the program may call their built-ins: it spells
 * "intel" (even in a comment), includes a file, or has an option that does.
 */
static void test_header_included(void **state)
{
    (void)state;
    static const char included[] = "#ifndef LANES_EXTENSIONS_H\n#error header missing\n#endif\n"
                                   "kernel void k(void) {} // intel\n";
    static const char not_included[] = "#ifdef LANES_EXTENSIONS_H\n#error header seen\n#endif\n"
                                       "kernel void k(void) {}\n";
    static const char no_extension[] = "#ifdef LANES_EXTENSIONS_H\n#error header seen\n#endif\n"
                                       "kernel void k(void) {} // intel\n";
    LLVMContextRef ctx = LLVMContextCreate();
    compiles(ctx, no_extension, "", 0);
    compiles(ctx, not_included, "", ALL);
    for (unsigned e = 1; e < ALL; e <<= 1)
        compiles(ctx, included, "", e);

    /* Through an option, and through a header. */
    char *log;
    LLVMModuleRef m = compile(ctx, "kernel void k(global int *p) { p[0] = SHUFFLE(p[1], 1u); }\n",
                              "-DSHUFFLE=intel_sub_group_shuffle", ALL, &log);
    if (!m)
        fail_msg("%s", log);
    assert_non_null(LLVMGetNamedFunction(m, "_Z23intel_sub_group_shuffleij"));
    free(log);
    LLVMDisposeModule(m);
    static const char header[] = "#define READ(p) intel_sub_group_block_read_us8(p)\n";
    const struct lanes_frontend_file h = {"read.h", header, strlen(header)};
    m = compile_with(ctx,
                     "#include \"read.h\"\n"
                     "kernel void k(global ushort *p) { p[0] = READ(p).s0; }\n",
                     &h, 1, "", SUBGROUPS | SHORT, &log);
    if (!m)
        fail_msg("%s", log);
    assert_non_null(LLVMGetNamedFunction(m, "_Z30intel_sub_group_block_read_us8PU8CLglobalKt"));
    free(log);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/*
 * The macros of all five are defined exactly when they are in the language,
 * and not before OpenCL C 1.2, where Clang leaves out cl_intel_subgroups,
 * which the others require.
 */
static void test_macros(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    for (unsigned i = 0; i < ARRAY_SIZE(ext_names); i++) {
        char src[256];
        snprintf(src, sizeof src, "#ifndef %s\n#error undefined\n#endif\nkernel void k(void) {}\n",
                 ext_names[i]);
        compiles(ctx, src, "", ALL);
        compiles(ctx, src, "-cl-std=CL3.0", 1u << i);
        char *log;
        assert_null(compile(ctx, src, "", ALL & ~(1u << i), &log));
        assert_contains(log, "error: undefined");
        free(log);
        assert_null(compile(ctx, src, "-cl-std=CL1.1", ALL, &log));
        assert_contains(log, "error: undefined");
        free(log);
    }
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_declared),    cmocka_unit_test(test_gated_by_extension),
        cmocka_unit_test(test_none_undeclared), cmocka_unit_test(test_header_included),
        cmocka_unit_test(test_macros),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
