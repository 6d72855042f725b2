/* SPDX-License-Identifier: MIT */
/*
 * The built-in library as programs see it: three libraries embedded by
 * cmake/builtins.cmake, each split into small modules with a name index
 * (builtins_blob.h), one per x86-64 level, because the IR signature of
 * a vector argument follows the target (byval without AVX, <8 x float> with
 * it, <16 x float> by value with AVX-512). A program is compiled for the
 * host CPU, so the library of the host's level is the one whose signatures
 * match its calls.
 */
#include "builtins.h"

#include "builtins_blob.h"
#include "host.h"
#include "link_shim.h"
#include "names.h"

#include <llvm-c/BitReader.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char lanes_builtins_v2[], lanes_builtins_v2_end[];
extern const char lanes_builtins_v3[], lanes_builtins_v3_end[];
extern const char lanes_builtins_v4[], lanes_builtins_v4_end[];

/* SLEEF's functions are only referenced by address, so their C types do not matter here. */
#define LANES_RUNTIME_SYMBOL(name) extern void name(void);
#include "runtime_symbols.inc"
#undef LANES_RUNTIME_SYMBOL

static const struct lanes_runtime_symbol runtime_symbols[] = {
#define LANES_RUNTIME_SYMBOL(name) {#name, (void *)name},
#include "runtime_symbols.inc"
#undef LANES_RUNTIME_SYMBOL
};

const struct lanes_runtime_symbol *lanes_builtins_runtime_symbols(size_t *count)
{
    *count = sizeof runtime_symbols / sizeof *runtime_symbols;
    return runtime_symbols;
}

int lanes_builtins_is_runtime_symbol(const char *name)
{
    for (size_t i = 0; i < sizeof runtime_symbols / sizeof *runtime_symbols; i++)
        if (strcmp(runtime_symbols[i].name, name) == 0)
            return 1;
    return 0;
}

static bool has_feature(const char *features, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = features; (p = strstr(p, name)) != NULL; p += n)
        if (p > features && p[-1] == '+' && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

/*
 * The library for the host, or NULL with a reason: the level follows
 * lanes_host()'s ISA, and the vector ABI the host's features imply (widest
 * register Clang passes vectors in) must be that library's.
 */
static const char *library_for_host(size_t *size, const char **why)
{
    enum lanes_isa isa = lanes_host()->isa;
    const char *features = lanes_host()->features;
    unsigned abi_bytes = has_feature(features, "avx512f") ? 64
                         : has_feature(features, "avx")   ? 32
                                                          : 16;
    const char *start = lanes_builtins_v2, *end = lanes_builtins_v2_end;
    unsigned level_bytes = 16;
    if (isa == LANES_ISA_AVX512)
        start = lanes_builtins_v4, end = lanes_builtins_v4_end, level_bytes = 64;
    else if (isa == LANES_ISA_AVX2)
        start = lanes_builtins_v3, end = lanes_builtins_v3_end, level_bytes = 32;
    if (abi_bytes != level_bytes) {
        *why = "lanes: no built-in library matches this CPU's vector calling convention "
               "(AVX without AVX2 and FMA, or AVX-512F without BW, DQ and VL)\n";
        return NULL;
    }
    *size = (size_t)(end - start);
    return start;
}

static uint32_t read32(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
}

/* The identifier of an Itanium-mangled name (`sin` of `_Z3sinDv4_f`), or the name. */
static const char *base_name(const char *name, size_t length, size_t *base_length)
{
    const char *id = lanes_mangled_identifier(name, length, base_length);
    if (id)
        return id;
    *base_length = length;
    return name;
}

/* The chunk holding the built-in `name` (mangled), or -1: a binary search of the index. */
static long chunk_of(const char *blob, const char *name, size_t length)
{
    size_t n = 0;
    const char *base = base_name(name, length, &n);
    const char *names = blob + sizeof(struct lanes_builtins_header) +
                        read32(blob + 8) * sizeof(struct lanes_builtins_chunk);
    size_t lo = 0, hi = read32(blob + 12);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *e = names + mid * sizeof(struct lanes_builtins_name);
        size_t len = read32(e + 4);
        int c = memcmp(blob + read32(e), base, len < n ? len : n);
        if (c == 0)
            c = len < n ? -1 : len > n ? 1 : 0;
        if (c == 0)
            return (long)read32(e + 8);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Links chunk `c` of the blob into m (what m references of it, transitively). */
static int link_chunk(LLVMModuleRef m, const char *blob, uint32_t c, enum lanes_link_phase phase,
                      char **log)
{
    const char *e =
        blob + sizeof(struct lanes_builtins_header) + c * sizeof(struct lanes_builtins_chunk);
    /* The buffer borrows the embedded bytes; the lazy module owns the buffer. */
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRange(blob + read32(e), read32(e + 4), "lanes-builtins", 0);
    LLVMModuleRef lib = NULL;
    if (LLVMGetBitcodeModuleInContext2(LLVMGetModuleContext(m), buf, &lib)) {
        *log = strdup("lanes: the embedded built-in library cannot be read\n");
        return -1;
    }
    char *error = NULL;
    /* A deferred function sharing the chunk stays a declaration in the first link. */
    bool (*skip)(const char *, size_t) = phase == LANES_LINK_FIRST ? lanes_name_linked_late : NULL;
    if (lanes_link_only_needed(m, lib, skip, &error) != 0) {
        char text[1024];
        snprintf(text, sizeof text, "lanes: linking the built-in library: %s\n",
                 error ? error : "failed");
        free(error);
        *log = strdup(text);
        return -1;
    }
    return 0;
}

/* A set of names, small enough (a program's undefined functions) to search in order. */
struct names {
    char **items;
    size_t count, capacity;
};

static bool names_has(const struct names *s, const char *name)
{
    for (size_t i = 0; i < s->count; i++)
        if (strcmp(s->items[i], name) == 0)
            return true;
    return false;
}

static int names_add(struct names *s, const char *name)
{
    if (s->count == s->capacity) {
        size_t capacity = s->capacity ? 2 * s->capacity : 64;
        char **grown = realloc(s->items, capacity * sizeof *grown);
        if (!grown)
            return -1;
        s->items = grown;
        s->capacity = capacity;
    }
    if (!(s->items[s->count] = strdup(name)))
        return -1;
    s->count++;
    return 0;
}

static void names_free(struct names *s)
{
    for (size_t i = 0; i < s->count; i++)
        free(s->items[i]);
    free(s->items);
}

/* The program's own definitions (functions and variables), which keep their linkage. */
struct values {
    LLVMValueRef *items;
    size_t count;
};

static int own_definitions(LLVMModuleRef m, struct values *v)
{
    size_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        n += !LLVMIsDeclaration(f);
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        n += !LLVMIsDeclaration(g);
    if (!(v->items = malloc((n ? n : 1) * sizeof *v->items)))
        return -1;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            v->items[v->count++] = f;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            v->items[v->count++] = g;
    return 0;
}

static bool values_has(const struct values *v, LLVMValueRef x)
{
    for (size_t i = 0; i < v->count; i++)
        if (v->items[i] == x)
            return true;
    return false;
}

static bool attribute_is(LLVMValueRef f, const char *key, const char *value)
{
    LLVMAttributeRef a =
        LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, key, (unsigned)strlen(key));
    unsigned length = 0;
    const char *v = a ? LLVMGetStringAttributeValue(a, &length) : NULL;
    return v && length == strlen(value) && memcmp(v, value, length) == 0;
}

/*
 * The library's math modes, read from a kernel's function attributes (what
 * Clang sets for the options), that lanes_builtins_link defines as the
 * constants the library tests (builtins/include/lanes_math.h).
 */
enum {
    LANES_MATH_UNSAFE = 1, /* "approx-func-fp-math": relaxed accuracy (OpenCL C 7.4) */
    LANES_MATH_FINITE = 2, /* "no-nans-fp-math" and "no-infs-fp-math": no special values */
    LANES_MATH_DAZ = 4,    /* "denormal-fp-math-f32" not IEEE: float subnormals may flush */
    LANES_MATH_VNNI = 8,   /* not the kernel's: the host's byte dot products (host.h) */
};

unsigned lanes_builtins_math_mode(LLVMValueRef kernel)
{
    if (!kernel)
        return 0;
    unsigned mode = 0;
    if (attribute_is(kernel, "approx-func-fp-math", "true"))
        mode |= LANES_MATH_UNSAFE;
    if (attribute_is(kernel, "no-nans-fp-math", "true") &&
        attribute_is(kernel, "no-infs-fp-math", "true"))
        mode |= LANES_MATH_FINITE;
    if (attribute_is(kernel, "denormal-fp-math-f32", "preserve-sign,preserve-sign"))
        mode |= LANES_MATH_DAZ;
    return mode;
}

/*
 * The constants the library reads (builtins/include/lanes_math.h), defined
 * in m before the link binds the library's references to them; internal
 * with the library's own definitions after it, so that O3 folds each test
 * of them and the variant not taken disappears.
 */
static const struct {
    const char *name;
    unsigned mode;
} math_constants[] = {
    {"__lanes_unsafe_math", LANES_MATH_UNSAFE},
    {"__lanes_finite_math", LANES_MATH_FINITE},
    {"__lanes_vnni", LANES_MATH_VNNI},
};

static void define_math_constants(LLVMModuleRef m, unsigned mode)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
    /* __lanes_vnni: the host's byte dot products (builtins/integer/dot.cl), a mode of the host. */
    if (lanes_host()->vnni != LANES_VNNI_NONE)
        mode |= LANES_MATH_VNNI;
    for (size_t i = 0; i < sizeof math_constants / sizeof *math_constants; i++) {
        LLVMValueRef g = LLVMGetNamedGlobal(m, math_constants[i].name);
        if (g && !LLVMIsDeclaration(g))
            continue; /* defined by the first link: internal already */
        if (!g)       /* the constant address space, as the library declares them */
            g = LLVMAddGlobalInAddressSpace(m, i32, math_constants[i].name, 2);
        LLVMSetInitializer(g, LLVMConstInt(i32, (mode & math_constants[i].mode) != 0, 0));
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMExternalLinkage);
        LLVMSetAlignment(g, 4);
    }
}

int lanes_builtins_link(LLVMModuleRef m, unsigned mode, enum lanes_link_phase phase, char **log)
{
    size_t size = 0;
    const char *why = NULL;
    const char *blob = library_for_host(&size, &why);
    if (!blob) {
        *log = strdup(why);
        return -1;
    }
    if (size < sizeof(struct lanes_builtins_header) || memcmp(blob, LANES_BUILTINS_MAGIC, 8) != 0) {
        *log = strdup("lanes: the embedded built-in library is damaged\n");
        return -1;
    }
    uint32_t num_chunks = read32(blob + 8);
    unsigned char *linked = malloc(num_chunks ? num_chunks : 1);
    uint32_t *pending = malloc((num_chunks ? num_chunks : 1) * sizeof *pending);
    struct names looked_up = {0};
    struct values own = {0};
    int rc = linked && pending && own_definitions(m, &own) == 0 ? 0 : -1;
    if (rc != 0)
        *log = strdup("lanes: out of memory linking the built-in library\n");
    else
        define_math_constants(m, mode);
    /*
     * Rounds: the chunks of every name m declares but does not define, then
     * those of what they declared in turn, until a round adds nothing. A
     * chunk may come again in a later round: a link takes only what m uses
     * at that moment, and a function linked later may call another function
     * of a chunk linked before. Each name is looked up once, so that a
     * declaration its chunk does not define (an overload the library lacks)
     * ends the rounds rather than repeating them.
     */
    while (rc == 0) {
        uint32_t count = 0;
        memset(linked, 0, num_chunks ? num_chunks : 1);
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f && rc == 0; f = LLVMGetNextFunction(f)) {
            if (!LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) != 0)
                continue;
            size_t length = 0;
            const char *name = LLVMGetValueName2(f, &length);
            long c = chunk_of(blob, name, length);
            if (c < 0 || (uint32_t)c >= num_chunks || names_has(&looked_up, name))
                continue;
            if (phase == LANES_LINK_FIRST && lanes_name_linked_late(name, length))
                continue;
            if (names_add(&looked_up, name) != 0) {
                *log = strdup("lanes: out of memory linking the built-in library\n");
                rc = -1;
            } else if (!linked[c]) {
                linked[c] = 1;
                pending[count++] = (uint32_t)c;
            }
        }
        if (count == 0)
            break;
        for (uint32_t i = 0; i < count && rc == 0; i++)
            rc = link_chunk(m, blob, pending[i], phase, log);
    }
    names_free(&looked_up);
    free(linked);
    free(pending);
    if (rc != 0) {
        free(own.items);
        return -1;
    }
    /*
     * The library's definitions become internal, so that O3 inlines and
     * drops them; only now, because a definition made internal in one round
     * could not be bound to by the functions a later round brings.
     */
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    static const char daz_key[] = "denormal-fp-math-f32", daz[] = "preserve-sign,preserve-sign";
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || values_has(&own, f))
            continue;
        LLVMSetLinkage(f, LLVMInternalLinkage);
        /* The kernel's float denormal mode, without which the inliner keeps the library out. */
        if (mode & LANES_MATH_DAZ)
            LLVMAddAttributeAtIndex(
                f, LLVMAttributeFunctionIndex,
                LLVMCreateStringAttribute(ctx, daz_key, sizeof daz_key - 1, daz, sizeof daz - 1));
    }
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g) && !values_has(&own, g))
            LLVMSetLinkage(g, LLVMInternalLinkage);
    free(own.items);
    /* Library functions were compiled for a generic level: make them the program's. */
    lanes_host_set_attributes(m);
    return 0;
}

/* The chunks of the library loaded lazily (symbol tables only) to look overloads up. */
struct lazy_chunks {
    LLVMContextRef ctx;
    LLVMModuleRef *modules; /* by chunk; NULL until loaded */
    uint32_t count;
};

/* Whether the library defines the overload `name` (mangled), e.g. vstore_half of a double. */
static bool library_defines(const char *blob, const char *name, size_t length,
                            struct lazy_chunks *lc)
{
    long c = chunk_of(blob, name, length);
    if (c < 0 || (uint32_t)c >= lc->count)
        return false;
    if (!lc->modules[c]) {
        const char *e = blob + sizeof(struct lanes_builtins_header) +
                        (size_t)c * sizeof(struct lanes_builtins_chunk);
        LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
            blob + read32(e), read32(e + 4), "lanes-builtins", 0);
        if (LLVMGetBitcodeModuleInContext2(lc->ctx, buf, &lc->modules[c]))
            return true; /* unreadable: the launch will say so */
    }
    char *z = strndup(name, length);
    LLVMValueRef f = z ? LLVMGetNamedFunction(lc->modules[c], z) : NULL;
    free(z);
    return f && !LLVMIsDeclaration(f);
}

int lanes_builtins_check_undefined(LLVMModuleRef m, char **log)
{
    size_t size = 0;
    const char *why = NULL;
    const char *blob = library_for_host(&size, &why);
    int rc = 0;
    struct lazy_chunks lc = {0};
    if (blob && (lc.count = read32(blob + 8)) &&
        !(lc.modules = calloc(lc.count, sizeof *lc.modules)))
        lc.count = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) != 0 || !LLVMGetFirstUse(f))
            continue;
        size_t length = 0;
        const char *name = LLVMGetValueName2(f, &length);
        /*
         * Built-ins are overloadable, hence mangled: the library must define
         * this very overload (a vstore_half of a double it lacks would fail
         * every launch), unless the compiler lowers the name itself.
         */
        if (length >= 2 && name[0] == '_' && name[1] == 'Z') {
            if (lanes_name_lookup(name, length) != LANES_NAME_NONE || !lc.count)
                continue;
            if (!lc.ctx)
                lc.ctx = LLVMContextCreate();
            if (library_defines(blob, name, length, &lc))
                continue;
            size_t n = 0;
            const char *id = lanes_mangled_identifier(name, length, &n);
            char line[640];
            snprintf(line, sizeof line,
                     "error: undefined function '%.*s' (%.*s): neither the program nor the "
                     "built-in library has this overload\n",
                     (int)(id ? n : length), id ? id : name, (int)(length > 400 ? 400 : length),
                     name);
            size_t old = *log ? strlen(*log) : 0;
            char *grown = realloc(*log, old + strlen(line) + 1);
            if (grown) {
                strcpy(grown + old, line);
                *log = grown;
            }
            rc = -1;
            continue;
        }
        if (lanes_builtins_is_runtime_symbol(name) || (blob && chunk_of(blob, name, length) >= 0))
            continue;
        /* printf, to_global and friends: lowered by the compiler (compiler/names.c). */
        enum lanes_name what = lanes_name_lookup(name, length);
        if (what == LANES_NAME_PRINTF ||
            (what >= LANES_NAME_TO_GLOBAL && what <= LANES_NAME_GET_FENCE))
            continue;
        char line[512];
        snprintf(line, sizeof line, "error: undefined function '%.*s': no input defines it\n",
                 (int)(length > 400 ? 400 : length), name);
        size_t old = *log ? strlen(*log) : 0;
        char *grown = realloc(*log, old + strlen(line) + 1);
        if (grown) {
            strcpy(grown + old, line);
            *log = grown;
        }
        rc = -1;
    }
    for (uint32_t c = 0; c < lc.count; c++)
        if (lc.modules[c])
            LLVMDisposeModule(lc.modules[c]);
    free(lc.modules);
    if (lc.ctx)
        LLVMContextDispose(lc.ctx);
    return rc;
}
