/* SPDX-License-Identifier: MIT */
/*
 * Building a launcher: what an earlier build of the same launcher came to
 * (the disk cache's record: its code's key, or the vectorizer's refusal),
 * else the compile (compiler/pipeline.c) under lanes_run_safely; the code
 * loaded into the JIT and handed out, or the kernel narrowed to width 1
 * with the reason in the build log.
 */
#include "launcher.h"

#include "builtins.h"
#include "cache.h"
#include "crash.h"
#include "host.h"
#include "ir.h"
#include "jit.h"
#include "passes.h"
#include "pipeline.h"
#include "reach.h"

#include <llvm-c/Core.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The functions the built-in library calls (SLEEF), defined in the JIT at
 * their addresses in this process, once, before the first launcher is
 * loaded: liblanes.so is opened RTLD_LOCAL by the ICD loader, so its
 * dependencies are not in the global scope the JIT searches.
 */
static pthread_once_t runtime_symbols_once = PTHREAD_ONCE_INIT;
static char *runtime_symbols_error;

/*
 * And the run-time library calls LLVM 19's x86 code generator makes for
 * half precision without AVX-512 FP16 (llc-19 for haswell and
 * icelake-server; half <-> float and the integer conversions are inline
 * with F16C): __truncdfhf2 for a conversion from double (a kernel's
 * (half)d), fminf and fmaxf per element for llvm.minnum/maxnum of half,
 * scalar or vector (which InstCombine makes of a float min of two halves
 * rounded back), fmodf for frem. libgcc's (from GCC 12 on) and libm's,
 * which liblanes.so links: the JIT's search of the process finds them only
 * when the application itself has loaded them globally.
 */
extern void __truncdfhf2(void);
static const struct lanes_jit_symbol codegen_calls[] = {
    {"__truncdfhf2", (void *)__truncdfhf2},
    {"fminf", (void *)fminf},
    {"fmaxf", (void *)fmaxf},
    {"fmodf", (void *)fmodf},
};
enum { NUM_CODEGEN_CALLS = sizeof codegen_calls / sizeof *codegen_calls };

static void define_runtime_symbols(void)
{
    size_t n;
    const struct lanes_runtime_symbol *syms = lanes_builtins_runtime_symbols(&n);
    struct lanes_jit_symbol *table = malloc((n + NUM_CODEGEN_CALLS) * sizeof *table);
    if (!table) {
        runtime_symbols_error = strdup("out of host memory");
        return;
    }
    for (size_t i = 0; i < n; i++)
        table[i] = (struct lanes_jit_symbol){syms[i].name, syms[i].address};
    memcpy(table + n, codegen_calls, sizeof codegen_calls);
    lanes_jit_define_symbols(table, n + NUM_CODEGEN_CALLS, &runtime_symbols_error);
    free(table);
}

/*
 * The cache key of a program's launcher: a digest of the program module,
 * the kernel and the specialization (the cache adds the Lanes build and the
 * CPU). Its entry names the code (struct code) or says why there is none,
 * so that the next process finds either without specializing.
 */
static void launcher_key(const struct lanes_program_module *module,
                         const struct lanes_kernel_info *k, const struct lanes_specialization *spec,
                         struct lanes_cache_key *key)
{
    const unsigned char *digest = module->bitcode_digest;
    uint64_t group[3];
    for (unsigned d = 0; d < 3; d++)
        group[d] = lanes_spec_group_size(spec, d);
    unsigned interleave = lanes_interleave_setting();
    const void *parts[] = {"launcher-9",    digest,       k->name,     spec->local_size,
                           &spec->work_dim, &spec->width, group,       &spec->small_ids,
                           &spec->dynamic,  &spec->rows,  &interleave, spec->image_formats};
    const size_t sizes[] = {10,
                            sizeof module->bitcode_digest,
                            strlen(k->name),
                            sizeof spec->local_size,
                            sizeof spec->work_dim,
                            sizeof spec->width,
                            sizeof group,
                            sizeof spec->small_ids,
                            sizeof spec->dynamic,
                            sizeof spec->rows,
                            sizeof interleave,
                            sizeof spec->image_formats};
    lanes_cache_key_of(key, parts, sizes, sizeof parts / sizeof *parts);
}

/* lanes_pipeline_run's arguments and results, under lanes_run_safely. */
struct safe_compile {
    const struct lanes_program_module *module;
    const struct lanes_kernel_info *k;
    const struct lanes_specialization *spec;
    struct lanes_compiled *out;
    bool refused, ok;
    char *log;
};

static void safe_compile(void *p)
{
    struct safe_compile *c = p;
    c->ok = lanes_pipeline_run(c->module, c->k, c->spec, c->out, &c->refused, &c->log);
}

/* lanes_pipeline_run, except that a crash of the compiler fails the compile instead of the process.
 */
static bool compile_safely(const struct lanes_program_module *module,
                           const struct lanes_kernel_info *k,
                           const struct lanes_specialization *spec, struct lanes_compiled *out,
                           bool *refused, char **log)
{
    struct safe_compile c = {.module = module, .k = k, .spec = spec, .out = out};
    char crash[64];
    if (!lanes_run_safely(safe_compile, &c, crash)) {
        *refused = false;
        if (!strcmp(crash, LANES_RUN_EXITING)) {
            *log =
                lanes_format("lanes: kernel %s: not compiled: the process is exiting\n", k->name);
            return false;
        }
        lanes_reach_abandon();
        *log = lanes_format("lanes: kernel %s: the compiler crashed (%s) while compiling it for "
                            "work-groups of %llu x %llu x %llu at width %u; the launch fails, the "
                            "process goes on (please report the kernel)\n",
                            k->name, crash, (unsigned long long)spec->local_size[0],
                            (unsigned long long)spec->local_size[1],
                            (unsigned long long)spec->local_size[2], spec->width);
        return false;
    }
    *refused = c.refused;
    *log = c.log;
    return c.ok;
}

/*
 * A launcher the vectorizer refused at a width is cached as this text and
 * the reason, so that the next process goes straight to width 1 and can
 * still say why.
 */
static const char refusal[] = "lanes-refused\n";

/*
 * Fills *out with the loaded `code` (whose reference it takes) for
 * `spec`, unless its frames need more stack than a worker has or it has no
 * code at all: then the reference is dropped and *why says so (malloc'd).
 */
static lanes_launcher_fn hand_out(struct lanes_jit_code *code,
                                  const struct lanes_specialization *spec,
                                  struct lanes_launcher *out, char **why)
{
    uint64_t stack = lanes_jit_stack_bytes(code);
    if (stack > LANES_LAUNCHER_MAX_STACK) {
        lanes_jit_release(code);
        if (stack == UINT64_MAX)
            *why = strdup("its stack use is unknown (no stack sizes in its object code)\n");
        else
            *why =
                lanes_format("its private memory takes %llu bytes of stack for a sub-group of %u "
                             "work-items, more than a worker thread's %llu\n",
                             (unsigned long long)stack, spec->width,
                             (unsigned long long)LANES_LAUNCHER_MAX_STACK);
        return NULL;
    }
    /*
     * A kernel whose every path has undefined behaviour (a store through
     * an index converted from an out-of-range float, say) is optimized to
     * `unreachable`: an empty function, which the JIT gives no address.
     */
    if (!lanes_jit_address(code)) {
        lanes_jit_release(code);
        *why = strdup("its compiled code is empty: every work-item reaches undefined behaviour "
                      "(such as an out-of-range conversion from floating point to integer)\n");
        return NULL;
    }
    *out = (struct lanes_launcher){.fn = (lanes_launcher_fn)lanes_jit_address(code),
                                   .width = spec->width,
                                   .stack_bytes = stack,
                                   .code = code};
    return out->fn;
}

/* Drops the newlines that end `s`. */
static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        s[--n] = 0;
}

/*
 * A program's launcher that compiled is cached as this text and its code's
 * key in hexadecimal; the code itself is cached under that key, once for
 * every program that compiles to it.
 */
static const char code_record[] = "lanes-code\n";

/* The code key a program's record names; false when `r` is no such record. */
static bool read_code_record(const char *r, size_t size, struct lanes_code *c)
{
    size_t head = sizeof code_record - 1;
    if (size != head + 2 * sizeof c->key.digest || memcmp(r, code_record, head) != 0)
        return false;
    for (size_t i = 0; i < sizeof c->key.digest; i++) {
        unsigned byte = 0;
        for (size_t j = 0; j < 2; j++) {
            char x = r[head + 2 * i + j];
            unsigned v = x >= '0' && x <= '9'   ? (unsigned)(x - '0')
                         : x >= 'a' && x <= 'f' ? (unsigned)(x - 'a' + 10)
                                                : 16;
            if (v > 15)
                return false;
            byte = byte * 16 + v;
        }
        c->key.digest[i] = (unsigned char)byte;
    }
    lanes_code_name(c);
    return true;
}

static void write_code_record(const struct lanes_cache_key *key, const struct lanes_code *c)
{
    char r[sizeof code_record + 2 * sizeof c->key.digest];
    size_t n = (size_t)snprintf(r, sizeof r, "%s", code_record);
    for (size_t i = 0; i < sizeof c->key.digest; i++)
        n += (size_t)snprintf(r + n, sizeof r - n, "%02x", c->key.digest[i]);
    lanes_cache_store_object(key, r, n);
}

static lanes_launcher_fn build(const struct lanes_program_module *module,
                               const struct lanes_kernel_info *k,
                               const struct lanes_specialization *spec, struct lanes_launcher *out,
                               bool compile, char **log)
{
    *log = NULL;
    *out = (struct lanes_launcher){.width = spec->width};
    struct lanes_cache_key key;
    launcher_key(module, k, spec, &key);
    char *error = NULL, *why = NULL;
    struct lanes_compiled c = {0};
    /* What an earlier build of this program's launcher (here or in another process) came to. */
    size_t size;
    char *record = lanes_cache_load_object(&key, &size);
    if (record && size >= sizeof refusal - 1 && memcmp(record, refusal, sizeof refusal - 1) == 0) {
        why = strndup(record + sizeof refusal - 1, size - (sizeof refusal - 1));
        free(record);
        goto narrow;
    }
    bool recorded = record && read_code_record(record, size, &c.code);
    free(record);
    if (recorded && !(c.loaded = lanes_jit_acquire(c.code.name)))
        c.cached = (c.object = lanes_cache_load_object(&c.code.key, &c.size)) != NULL;
    if (!c.loaded && !c.object) {
        bool refused = false;
        if (!compile)
            return NULL; /* *log is NULL: not built yet */
        if (!compile_safely(module, k, spec, &c, &refused, log)) {
            if (!refused || spec->width == 1)
                return NULL;
            why = *log;
            *log = NULL;
            char *text = malloc(sizeof refusal + strlen(why));
            if (text) {
                strcpy(text, refusal);
                strcat(text, why);
                lanes_cache_store_object(&key, text, strlen(text));
                free(text);
            }
            goto narrow;
        }
    }
    if (!c.loaded) {
        pthread_once(&runtime_symbols_once, define_runtime_symbols);
        if (runtime_symbols_error)
            error = strdup(runtime_symbols_error);
        else
            c.loaded = lanes_jit_add_object(c.object, c.size, c.code.name, &error);
        if (c.loaded && !c.cached)
            lanes_cache_store_object(&c.code.key, c.object, c.size);
        free(c.object);
        if (!c.loaded)
            *log = lanes_format("lanes: kernel %s: loading its code failed: %s\n", k->name, error);
        free(error);
        if (!c.loaded)
            return NULL;
    }
    if (!recorded)
        write_code_record(&key, &c.code);
    if (hand_out(c.loaded, spec, out, &why))
        return out->fn;

    /* Too much private memory for a worker's stack, or no code: narrower, or not at all. */
    if (spec->width == 1) {
        chomp(why);
        *log = lanes_format("lanes: kernel %s cannot run: %.1000s\n", k->name, why);
        free(why);
        return NULL;
    }

narrow:;
    /*
     * A kernel that requires its sub-group size (cl_intel_required_subgroup_size:
     * get_max_sub_group_size() is guaranteed) cannot run narrower: it fails, saying why.
     */
    chomp(why);
    if (k->reqd_sub_group_size == spec->width) {
        *log = lanes_format("lanes: kernel %s: requires sub-groups of %u work-items "
                            "(intel_reqd_sub_group_size), and cannot be vectorized: %.1000s\n",
                            k->name, k->reqd_sub_group_size, why);
        free(why);
        return NULL;
    }
    /* The kernel still runs, a work-item per sub-group, and the build log says why. */
    struct lanes_specialization one = *spec;
    one.width = 1;
    char *narrow_log = NULL;
    lanes_launcher_fn fn = build(module, k, &one, out, compile, &narrow_log);
    if (!fn && !narrow_log) { /* not built yet at width 1 */
        free(why);
        return NULL;
    }
    if (fn)
        *log = lanes_format("lanes: kernel %s: not vectorized at width %u: %.1000s\n", k->name,
                            spec->width, why);
    else
        *log = narrow_log, narrow_log = NULL;
    free(narrow_log);
    free(why);
    return fn;
}

lanes_launcher_fn lanes_launcher_build(const struct lanes_program_module *module,
                                       const struct lanes_kernel_info *k,
                                       const struct lanes_specialization *spec,
                                       struct lanes_launcher *out, char **log)
{
    return build(module, k, spec, out, true, log);
}

lanes_launcher_fn lanes_launcher_load(const struct lanes_program_module *module,
                                      const struct lanes_kernel_info *k,
                                      const struct lanes_specialization *spec,
                                      struct lanes_launcher *out, char **log)
{
    return build(module, k, spec, out, false, log);
}

void lanes_launcher_warm_up(void)
{
    if (lanes_pipeline_optimized_here())
        return;
    /* A loop calling a library function on vectors: the kinds of code every launcher has. */
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = LLVMModuleCreateWithNameInContext("warm-up", ctx);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0), v8 = LLVMVectorType(f32, 8);
    LLVMTypeRef sqrt_type = LLVMFunctionType(f32, &f32, 1, 0);
    LLVMValueRef sqrt_fn = LLVMAddFunction(m, "sqrtf", sqrt_type);
    LLVMTypeRef params[2] = {ptr, i64};
    LLVMTypeRef ft = LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 2, 0);
    LLVMValueRef f = LLVMAddFunction(m, "lanes.warm_up", ft);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, f, "entry");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(ctx, f, "body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, f, "done");
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, LLVMGetParam(f, 1), zero, ""), body, done);
    LLVMPositionBuilderAtEnd(b, body);
    LLVMValueRef i = LLVMBuildPhi(b, i64, "i");
    LLVMValueRef at = LLVMBuildGEP2(b, v8, LLVMGetParam(f, 0), &i, 1, "");
    LLVMValueRef x = LLVMBuildLoad2(b, v8, at, "");
    LLVMValueRef lane = LLVMConstInt(LLVMInt32TypeInContext(ctx), 0, 0);
    LLVMValueRef s = LLVMBuildCall2(
        b, sqrt_type, sqrt_fn, (LLVMValueRef[]){LLVMBuildExtractElement(b, x, lane, "")}, 1, "");
    LLVMBuildStore(b, LLVMBuildFMul(b, x, LLVMBuildInsertElement(b, x, s, lane, ""), ""), at);
    LLVMValueRef next = LLVMBuildAdd(b, i, LLVMConstInt(i64, 1, 0), "");
    LLVMAddIncoming(i, (LLVMValueRef[]){zero, next}, (LLVMBasicBlockRef[]){entry, body}, 2);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, next, LLVMGetParam(f, 1), ""), body, done);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    lanes_host_set_attributes(m);
    const char *pipelines[] = {"default<O1>", "default<O3>"};
    for (size_t p = 0; p < 2; p++) {
        LLVMModuleRef copy = LLVMCloneModule(m);
        char *error = NULL;
        size_t size;
        if (lanes_host_run_passes(copy, pipelines[p], p == 1, &error) == 0)
            free(lanes_jit_emit_object(copy, LANES_CODEGEN_FULL, &size, &error));
        free(error);
        LLVMDisposeModule(copy);
    }
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    lanes_pipeline_set_optimized_here();
}
