/* SPDX-License-Identifier: MIT */
/*
 * One LLJIT per process, created on first use. Every module added to it
 * carries unique symbol names (the caller's business), so all share the main
 * JITDylib; the C runtime (memcpy, memset) is found in the process, what
 * is not in its global scope is defined by the caller (lanes_jit_define_symbols).
 * Each object gets its own resource tracker and a reference count: code
 * shared by identical programs is loaded once, and unloaded with the last
 * program that uses it.
 */
#include "jit.h"

#include "host.h"

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/TargetMachine.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static LLVMOrcLLJITRef jit;
static char *jit_error;
static pthread_once_t jit_once = PTHREAD_ONCE_INIT;

/* A loaded object, found by the symbol it was loaded for. */
struct lanes_jit_code {
    struct lanes_jit_code *next; /* in its bucket */
    char *symbol;
    void *address;
    uint64_t stack_bytes; /* stack_bytes() of the object */
    LLVMOrcResourceTrackerRef tracker;
    /*
     * Changed without code_lock while it stays above 0 (a holder retaining
     * or releasing one of several references: every kernel enqueue does);
     * the drop to 0, and the finds that may take a first reference again,
     * are under code_lock.
     */
    atomic_size_t refs;
};
enum { CODE_BUCKETS = 256 };
static struct lanes_jit_code *code_table[CODE_BUCKETS];
static size_t code_count;
static pthread_mutex_t code_lock = PTHREAD_MUTEX_INITIALIZER;

static struct lanes_jit_code **code_bucket(const char *symbol)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const char *c = symbol; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    return &code_table[h % CODE_BUCKETS];
}

/* The loaded code of `symbol`, or NULL; under code_lock. */
static struct lanes_jit_code *code_find(const char *symbol)
{
    for (struct lanes_jit_code *c = *code_bucket(symbol); c; c = c->next)
        if (strcmp(c->symbol, symbol) == 0)
            return c;
    return NULL;
}

/* Takes the message out of an LLVM error as a malloc'd string. */
static char *take_error(LLVMErrorRef e)
{
    char *msg = LLVMGetErrorMessage(e);
    char *copy = strdup(msg ? msg : "unknown LLVM error");
    LLVMDisposeErrorMessage(msg);
    return copy;
}

static void create_jit(void)
{
    lanes_host_init_targets();
    LLVMOrcJITTargetMachineBuilderRef jtmb;
    LLVMErrorRef e = LLVMOrcJITTargetMachineBuilderDetectHost(&jtmb);
    if (e) {
        jit_error = take_error(e);
        return;
    }
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
    if ((e = LLVMOrcCreateLLJIT(&jit, builder))) {
        jit_error = take_error(e);
        jit = NULL;
        return;
    }
    LLVMOrcDefinitionGeneratorRef gen;
    if ((e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
             &gen, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL))) {
        jit_error = take_error(e);
        return;
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit), gen);
}

int lanes_jit_define_symbols(const struct lanes_jit_symbol *symbols, size_t count, char **error)
{
    pthread_once(&jit_once, create_jit);
    if (!jit) {
        *error = strdup(jit_error ? jit_error : "the JIT could not be created");
        return -1;
    }
    if (count == 0)
        return 0;
    LLVMOrcCSymbolMapPair *pairs = calloc(count, sizeof *pairs);
    if (!pairs) {
        *error = strdup("out of host memory");
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit, symbols[i].name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)symbols[i].address;
        pairs[i].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, count);
    free(pairs); /* the unit holds its own references to the names */
    LLVMErrorRef e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit), mu);
    if (e) {
        LLVMOrcDisposeMaterializationUnit(mu);
        *error = take_error(e);
        return -1;
    }
    return 0;
}

/* A little-endian field of an ELF header. */
static uint64_t elf_field(const unsigned char *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = bytes; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/*
 * The sum of the frame sizes in the .stack_sizes sections of an ELF64
 * object (the host's, little-endian; lanes_host_emit_stack_sizes): at least
 * what its functions use at once, whichever calls which. UINT64_MAX when
 * the object has no such section or is malformed (unknown: assume the worst).
 */
static uint64_t stack_bytes(const unsigned char *o, size_t size)
{
    if (size < 64 || memcmp(o, "\177ELF\2\1", 6) != 0)
        return UINT64_MAX;
    uint64_t shoff = elf_field(o + 0x28, 8), entsize = elf_field(o + 0x3a, 2),
             count = elf_field(o + 0x3c, 2), strndx = elf_field(o + 0x3e, 2);
    if (entsize < 64 || strndx >= count || shoff > size || count > (size - shoff) / entsize)
        return UINT64_MAX;
    const unsigned char *strtab_hdr = o + shoff + strndx * entsize;
    uint64_t str_off = elf_field(strtab_hdr + 0x18, 8), str_size = elf_field(strtab_hdr + 0x20, 8);
    if (str_off > size || str_size > size - str_off)
        return UINT64_MAX;
    uint64_t total = 0;
    bool found = false;
    for (uint64_t i = 0; i < count; i++) {
        const unsigned char *h = o + shoff + i * entsize;
        uint64_t name = elf_field(h, 4), off = elf_field(h + 0x18, 8), len = elf_field(h + 0x20, 8);
        static const char want[] = ".stack_sizes";
        if (name >= str_size || str_size - name < sizeof want ||
            memcmp(o + str_off + name, want, sizeof want) != 0)
            continue;
        if (off > size || len > size - off)
            return UINT64_MAX;
        found = true;
        /* Entries: an 8-byte function address (relocated), then the frame size in ULEB128. */
        for (uint64_t p = off + 8; p < off + len; p += 8) {
            uint64_t frame = 0;
            unsigned shift = 0;
            for (;; p++) {
                if (p >= off + len || shift > 63)
                    return UINT64_MAX;
                frame |= (uint64_t)(o[p] & 0x7f) << shift;
                shift += 7;
                if (!(o[p] & 0x80))
                    break;
            }
            p++;
            total = total + frame < total ? UINT64_MAX : total + frame;
        }
    }
    return found ? total : UINT64_MAX;
}

struct lanes_jit_code *lanes_jit_acquire(const char *symbol)
{
    pthread_mutex_lock(&code_lock);
    struct lanes_jit_code *c = code_find(symbol);
    if (c)
        atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
    pthread_mutex_unlock(&code_lock);
    return c;
}

void *lanes_jit_address(const struct lanes_jit_code *code)
{
    return code->address;
}

uint64_t lanes_jit_stack_bytes(const struct lanes_jit_code *code)
{
    return code->stack_bytes;
}

void lanes_jit_retain(struct lanes_jit_code *code)
{
    if (code) /* the caller holds a reference: refs is above 0 */
        atomic_fetch_add_explicit(&code->refs, 1, memory_order_relaxed);
}

void lanes_jit_release(struct lanes_jit_code *code)
{
    if (!code)
        return;
    /* Not the last reference: no lock. */
    size_t r = atomic_load_explicit(&code->refs, memory_order_relaxed);
    while (r > 1)
        if (atomic_compare_exchange_weak_explicit(&code->refs, &r, r - 1, memory_order_release,
                                                  memory_order_relaxed))
            return;
    pthread_mutex_lock(&code_lock);
    bool last = atomic_fetch_sub_explicit(&code->refs, 1, memory_order_acq_rel) == 1;
    if (!last) {
        pthread_mutex_unlock(&code_lock);
        return;
    }
    struct lanes_jit_code **p = code_bucket(code->symbol);
    while (*p != code)
        p = &(*p)->next;
    *p = code->next;
    code_count--;
    /*
     * Unloaded under the lock: until the JIT forgets the symbol, another
     * thread loading the same launcher would define it twice.
     */
    LLVMErrorRef e = LLVMOrcResourceTrackerRemove(code->tracker);
    pthread_mutex_unlock(&code_lock);
    if (e) /* the code stays mapped: nothing else to do */
        LLVMConsumeError(e);
    LLVMOrcReleaseResourceTracker(code->tracker);
    free(code->symbol);
    free(code);
}

size_t lanes_jit_loaded(void)
{
    pthread_mutex_lock(&code_lock);
    size_t n = code_count;
    pthread_mutex_unlock(&code_lock);
    return n;
}

void *lanes_jit_emit_object(LLVMModuleRef m, enum lanes_codegen level, size_t *size, char **error)
{
    bool fast = level == LANES_CODEGEN_FAST;
    LLVMTargetMachineRef tm = lanes_host_target_machine();
    if (!tm) {
        *error = strdup("no LLVM target for the host");
        return NULL;
    }
    char *msg = NULL;
    LLVMMemoryBufferRef buf = NULL;
    void *object = NULL;
    if (fast) {
        LLVMContextRef ctx = LLVMGetModuleContext(m);
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
            LLVMAddAttributeAtIndex(
                f, LLVMAttributeFunctionIndex,
                LLVMCreateStringAttribute(ctx, "no-jump-tables", 14, "true", 4));
    }
    if (level != LANES_CODEGEN_FULL)
        lanes_host_set_codegen_level(tm, level);
    bool failed = LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, &buf);
    if (level != LANES_CODEGEN_FULL)
        lanes_host_set_codegen_level(tm, LANES_CODEGEN_FULL);
    if (failed) {
        *error = strdup(msg ? msg : "code generation failed");
    } else {
        *size = LLVMGetBufferSize(buf);
        if ((object = malloc(*size)))
            memcpy(object, LLVMGetBufferStart(buf), *size);
        else
            *error = strdup("out of host memory");
        LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeMessage(msg);
    return object;
}

char *lanes_jit_emit_assembly(LLVMModuleRef m)
{
    LLVMTargetMachineRef tm = lanes_host_target_machine();
    if (!tm)
        return NULL;
    /* Code generation changes the module it runs on: a copy, so that `m` stays as it was. */
    LLVMModuleRef copy = LLVMCloneModule(m);
    char *msg = NULL, *text = NULL;
    LLVMMemoryBufferRef buf = NULL;
    if (!LLVMTargetMachineEmitToMemoryBuffer(tm, copy, LLVMAssemblyFile, &msg, &buf)) {
        size_t size = LLVMGetBufferSize(buf);
        if ((text = malloc(size + 1))) {
            memcpy(text, LLVMGetBufferStart(buf), size);
            text[size] = '\0';
        }
        LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeMessage(msg);
    LLVMDisposeModule(copy);
    return text;
}

struct lanes_jit_code *lanes_jit_add_object(const void *object, size_t size, const char *symbol,
                                            char **error)
{
    pthread_once(&jit_once, create_jit);
    if (!jit) {
        *error = strdup(jit_error ? jit_error : "the JIT could not be created");
        return NULL;
    }
    struct lanes_jit_code *c = malloc(sizeof *c);
    char *name = strdup(symbol);
    if (!c || !name) {
        free(c);
        free(name);
        *error = strdup("out of host memory");
        return NULL;
    }
    /* Loaded and linked under the lock, so that a symbol is never defined twice. */
    pthread_mutex_lock(&code_lock);
    struct lanes_jit_code *old = code_find(symbol);
    if (old) { /* another thread added it first */
        atomic_fetch_add_explicit(&old->refs, 1, memory_order_relaxed);
        pthread_mutex_unlock(&code_lock);
        free(c);
        free(name);
        return old;
    }
    LLVMOrcResourceTrackerRef rt =
        LLVMOrcJITDylibCreateResourceTracker(LLVMOrcLLJITGetMainJITDylib(jit));
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(object, size, "lanes-launcher.o");
    LLVMOrcExecutorAddress addr = 0;
    LLVMErrorRef e = LLVMOrcLLJITAddObjectFileWithRT(jit, rt, buf); /* owns buf even on error */
    if (!e)
        e = LLVMOrcLLJITLookup(jit, &addr, symbol);
    if (e) {
        pthread_mutex_unlock(&code_lock);
        *error = take_error(e);
        if ((e = LLVMOrcResourceTrackerRemove(rt)))
            LLVMConsumeError(e);
        LLVMOrcReleaseResourceTracker(rt);
        free(c);
        free(name);
        return NULL;
    }
    *c = (struct lanes_jit_code){.symbol = name,
                                 .address = (void *)(uintptr_t)addr,
                                 .stack_bytes = stack_bytes(object, size),
                                 .tracker = rt};
    atomic_init(&c->refs, 1);
    struct lanes_jit_code **b = code_bucket(symbol);
    c->next = *b;
    *b = c;
    code_count++;
    pthread_mutex_unlock(&code_lock);
    return c;
}
