/* SPDX-License-Identifier: MIT */
/*
 * A launcher's compile as one list of stages, each a name, a function and
 * when it runs (`stages` below). The runner times every stage (the four
 * sums LANES_DUMP=time prints: specialized, linked, optimized, compiled),
 * prints the module after any stage LANES_DUMP=after:<stage> names
 * (`final` is after:split), verifies it after each with LANES_DUMP=verify,
 * and always after the stages a vectorizer's bug would show in. A stage
 * goes on, ends the compile with its code found (the same module compiled
 * before), or fails with the log saying why.
 */
#include "pipeline.h"

#include "builtins.h"
#include "crash.h"
#include "emit.h"
#include "globals.h"
#include "host.h"
#include "ir.h"
#include "jit.h"
#include "reach.h"
#include "scatters.h"
#include "specialize.h"
#include "workarounds.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static atomic_bool optimized_here;

bool lanes_pipeline_optimized_here(void)
{
    return atomic_load(&optimized_here);
}

void lanes_pipeline_set_optimized_here(void)
{
    atomic_store(&optimized_here, true);
}

void lanes_code_name(struct lanes_code *c)
{
    int n = snprintf(c->name, sizeof c->name, "lanes.code.");
    for (int i = 0; i < 16; i++)
        n += snprintf(c->name + n, sizeof c->name - (size_t)n, "%02x", c->key.digest[i]);
}

/*
 * Kernels past these sizes take the light path: LLVM's optimizer and
 * optimizing code generator take time quadratic in the cases of a switch
 * (SimplifyCFG folding the empty case blocks, the jump table's and branch
 * probabilities' bookkeeping: 5,000 cases took 18 s, 100,000 hours). A
 * switch vectorized becomes every case, masked, for every sub-group: past
 * VECTOR_SWITCH_CASES it stays a scalar switch, a work-item per sub-group
 * (512 cases took 0.66 s to compile at width 16, 0.13 s at width 1).
 * Instructions are counted in the kernel once its calls are inlined, what
 * the optimizer sees: never in the rest of its program.
 */
enum { VECTOR_SWITCH_CASES = 256, BIG_SWITCH_CASES = 2048, BIG_INSTRUCTIONS = 200000 };

/*
 * The longest basic block the code generator is given: its schedulers
 * take time quadratic in a block's length (a block of 13,000 instructions
 * at width 1, a hash's rounds once inlined, spent 3.4 s in them), and
 * nothing gains from scheduling further than this.
 */
enum { LONGEST_BLOCK = 1000 };

/* Instructions past which a kernel's tier 0 is lightly optimized (see choose_passes). */
enum { BIG_TIER0 = 5000 };

static const char *name_of(LLVMValueRef f)
{
    size_t len;
    return LLVMGetValueName2(f, &len);
}

static LLVMValueRef find_function(LLVMModuleRef m, const char *name)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    return f && !LLVMIsDeclaration(f) ? f : NULL;
}

/* Names the first undefined function that is not an LLVM intrinsic or libc, if any. */
static const char *missing_builtin(LLVMModuleRef m)
{
    static const char *libc[] = {"memcpy", "memset", "memmove"};
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f) || !LLVMGetFirstUse(f))
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        bool known = lanes_builtins_is_runtime_symbol(name);
        for (size_t i = 0; i < sizeof libc / sizeof *libc; i++)
            known |= strcmp(name, libc[i]) == 0;
        if (!known)
            return name;
    }
    return NULL;
}

/*
 * Why `kernel` cannot be vectorized for its size (malloc'd), or NULL: its
 * largest switch or its instructions once every callee is inlined, which
 * is what the specialization makes of it (compiler/reach.h); *light is set
 * when it is too big for the usual pipeline at any width. The reason names
 * the function that made it so.
 */
static char *too_big(LLVMValueRef kernel, bool *light)
{
    struct lanes_reach_size s;
    *light = false;
    if (lanes_reach_measure(kernel, &s) != 0)
        return NULL; /* out of memory: the compile that follows says so, or succeeds */
    *light = s.cases > BIG_SWITCH_CASES || s.instructions > BIG_INSTRUCTIONS;
    if (s.instructions > BIG_INSTRUCTIONS) {
        char copies[64] = "";
        if (s.biggest_copies > 1)
            snprintf(copies, sizeof copies, ", inlined %zu times", s.biggest_copies);
        return lanes_format(
            "%zu instructions once its calls are inlined (more than %d), the most from "
            "%.200s (%zu instructions%s): LLVM would take too long; lightly optimized "
            "instead",
            s.instructions, BIG_INSTRUCTIONS, name_of(s.biggest), s.biggest_instructions, copies);
    }
    if (s.cases > BIG_SWITCH_CASES)
        return lanes_format("a switch of %u cases in %.200s (more than %d): LLVM would take too "
                            "long; lightly optimized instead",
                            s.cases, name_of(s.switch_in), BIG_SWITCH_CASES);
    if (s.cases > VECTOR_SWITCH_CASES)
        return lanes_format("a switch of %u cases in %.200s (more than %d) would run every case "
                            "for every sub-group",
                            s.cases, name_of(s.switch_in), VECTOR_SWITCH_CASES);
    return NULL;
}

/* Milliseconds on a monotonic clock, for LANES_DUMP=time. */
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The sums of stage times LANES_DUMP=time prints. */
enum group { REACH, SPECIALIZED, LINKED, OPTIMIZED, COMPILED, GROUPS };

/* One compile's state, from stage to stage. */
struct state {
    const struct lanes_program_module *module;
    const struct lanes_kernel_info *k;
    const struct lanes_specialization *spec;
    struct lanes_compiled *out;
    char **log;
    const void *reach; /* the bitcode of what the kernel reaches (kept with its program) */
    size_t reach_size;
    bool refused;
    LLVMContextRef ctx;
    LLVMModuleRef m;
    LLVMValueRef kernel, launcher;
    struct lanes_globals_layout globals; /* the program's variables at the program's offsets */
    unsigned math_mode;                  /* the kernel's math options: the library's variants */
    bool light;                          /* too big for the usual pipeline: the light one */
    struct lanes_specialized sg;
    size_t functions, instructions; /* of the module to optimize */
    const char *passes;             /* LLVM's pipeline for it */
    enum lanes_codegen codegen;
    char vectors[48]; /* " (k sub-groups a vector)" when interleaved */
};

enum outcome { GO_ON, FOUND, FAILED };

/* What the kernel reaches, never the whole program (compiler/reach.h): taken at its first compile.
 */
static enum outcome reach(struct state *s)
{
    return lanes_reach_bitcode(s->module, s->k, &s->reach, &s->reach_size, s->log) == 0 ? GO_ON
                                                                                        : FAILED;
}

/* That bitcode, parsed into the compile's own context; the kernel found in it. */
static enum outcome parse(struct state *s)
{
    /*
     * Made here, not before the stages: a crash recovered from (LANES_CRASH_TEST=reach,
     * lanes_run_safely) leaves what it skipped, and the reach takes no context.
     */
    s->ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRange(s->reach, s->reach_size, "kernel", 0);
    bool parsed = LLVMParseBitcodeInContext2(s->ctx, buf, &s->m) == 0;
    LLVMDisposeMemoryBuffer(buf);
    if (!parsed) {
        s->m = NULL;
        *s->log =
            lanes_format("lanes: kernel %s: %s\n", s->k->name, "not found in the program module");
        return FAILED;
    }
    /* The program's variables at the program's offsets, told apart from the library's. */
    if (lanes_globals_from_marks(s->m, &s->globals, s->log) != 0)
        return FAILED;
    s->kernel = find_function(s->m, s->k->name);
    if (!s->kernel) {
        *s->log =
            lanes_format("lanes: kernel %s: %s\n", s->k->name, "not found in the program module");
        return FAILED;
    }
    return GO_ON;
}

/* The library's functions the kernel calls, before it is specialized; its math options choose them.
 */
static enum outcome link_first(struct state *s)
{
    s->math_mode = lanes_builtins_math_mode(s->kernel);
    return lanes_builtins_link(s->m, s->math_mode, LANES_LINK_FIRST, s->log) == 0 ? GO_ON : FAILED;
}

/* Too big to vectorize: width 1; too big to optimize in reasonable time: the light path. */
static enum outcome check_size(struct state *s)
{
    char *big = too_big(s->kernel, &s->light);
    if (big && s->spec->width > 1) {
        *s->log = lanes_format("%s\n", big);
        s->refused = true;
        free(big);
        return FAILED;
    }
    free(big);
    return GO_ON;
}

static enum outcome specialize(struct state *s)
{
    return lanes_specialize(s->m, s->kernel, s->spec, &s->globals, &s->sg, s->log) == 0 ? GO_ON
                                                                                        : FAILED;
}

static bool vectorized(const struct state *s)
{
    return s->spec->width > 1;
}

static enum outcome vectorize(struct state *s)
{
    if (lanes_specialize_vectorize(&s->sg, s->spec, s->log) != 0) {
        s->refused = s->sg.refused;
        return FAILED;
    }
    if (s->sg.vector_width != s->spec->width)
        snprintf(s->vectors, sizeof s->vectors, " (%u sub-groups a vector)",
                 s->sg.vector_width / s->spec->width);
    return GO_ON;
}

static enum outcome lower(struct state *s)
{
    lanes_specialize_lower(&s->sg, s->spec);
    return GO_ON;
}

/* The rest of the library: what the vectorizer mapped (sub-group functions, or their vector forms).
 */
static enum outcome link_rest(struct state *s)
{
    return lanes_builtins_link(s->m, s->math_mode, LANES_LINK_REST, s->log) == 0 ? GO_ON : FAILED;
}

/* The launcher walks the work-group a vector at a time: one sub-group, or several. */
static enum outcome emit(struct state *s)
{
    struct lanes_specialization walk = *s->spec;
    walk.width = s->sg.vector_width;
    s->launcher = lanes_emit_launcher(s->m, s->sg.sg, s->k, &walk, s->sg.coroutine, s->sg.yields,
                                      "lanes.launch");
    return GO_ON;
}

/* Only the launcher is needed from outside: everything else may go. */
static enum outcome seal(struct state *s)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(s->m); f; f = LLVMGetNextFunction(f))
        if (f != s->launcher && !LLVMIsDeclaration(f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    lanes_host_set_attributes(s->m);
    s->instructions = lanes_count_instructions(s->m, &s->functions);
    /*
     * Tier 0 (every local size, runtime/ndrange.c) lives until the shape's
     * own launcher replaces it: compiled in about half the time. A lighter
     * code generator (LLVM's "less") compiled the CTS's c11 atomics kernels
     * no faster, and none (FastISel) ran that suite in 63% of the time but
     * makes code that runs slower, for as long as a shape launched once
     * keeps it. A big kernel's tier 0, which its first launch waits for
     * longest, takes a few clean-up passes and no optimizing code
     * generator: bench_big_program's kernel of 13,000 instructions
     * launched first in 0.53-0.70 s instead of 1.18-1.29 at width 16 (0.17
     * instead of 1.39 at width 1), and ran as fast (its rounds are
     * arithmetic that neither pipeline could shorten).
     */
    bool big_tier0 = s->spec->dynamic && s->instructions > BIG_TIER0;
    s->passes = s->light    ? "function(sroa,early-cse)"
                : big_tier0 ? "function(sroa,early-cse,simplifycfg,instcombine<no-verify-fixpoint>)"
                : s->spec->dynamic ? "default<O1>"
                                   : "default<O3>";
    s->codegen = s->light || big_tier0 ? LANES_CODEGEN_FAST : LANES_CODEGEN_FULL;
    return GO_ON;
}

/* The code key of the module, whose launcher is still named "lanes.launch", compiled so. */
static bool code_key(LLVMModuleRef m, const char *passes, enum lanes_codegen codegen,
                     struct lanes_code *c)
{
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
    if (!bc)
        return false;
    const void *parts[] = {"code-1", LLVMGetBufferStart(bc), passes, &codegen};
    const size_t sizes[] = {6, LLVMGetBufferSize(bc), strlen(passes), sizeof codegen};
    lanes_cache_key_of(&c->key, parts, sizes, sizeof parts / sizeof *parts);
    LLVMDisposeMemoryBuffer(bc);
    lanes_code_name(c);
    return true;
}

/* The same code, loaded already in this process or in the disk cache: the compile ends here. */
static enum outcome look_up(struct state *s)
{
    struct lanes_compiled *out = s->out;
    if (!code_key(s->m, s->passes, s->codegen, &out->code)) {
        *s->log = lanes_format("lanes: kernel %s: its module could not be written as bitcode\n",
                               s->k->name);
        return FAILED;
    }
    LLVMSetValueName2(s->launcher, out->code.name, strlen(out->code.name));
    if ((out->loaded = lanes_jit_acquire(out->code.name)) ||
        (out->object = lanes_cache_load_object(&out->code.key, &out->size))) {
        out->cached = out->object != NULL;
        return FOUND;
    }
    return GO_ON;
}

static enum outcome optimize(struct state *s)
{
    lanes_pipeline_set_optimized_here();
    char *error = NULL;
    if (lanes_host_run_passes(s->m, s->passes, !s->spec->dynamic, &error) != 0) {
        *s->log = lanes_format("lanes: kernel %s: optimization failed: %s\n", s->k->name, error);
        free(error);
        return FAILED;
    }
    return GO_ON;
}

static enum outcome compress(struct state *s)
{
    lanes_compress_scatters(s->m);
    return GO_ON;
}

static enum outcome workarounds(struct state *s)
{
    lanes_llvm19_workarounds(s->m);
    return GO_ON;
}

static enum outcome split_blocks(struct state *s)
{
    lanes_host_split_long_blocks(s->m, LONGEST_BLOCK);
    return GO_ON;
}

static enum outcome codegen(struct state *s)
{
    const char *dump = getenv("LANES_DUMP");
    if (dump && strstr(dump, "asm")) {
        char *text = lanes_jit_emit_assembly(s->m);
        fprintf(stderr, "# lanes: kernel %s machine code (width %u)\n%s\n", s->k->name,
                s->spec->width, text ? text : "# (no assembly: code generation failed)\n");
        free(text);
    }
    const char *missing = missing_builtin(s->m);
    if (missing) {
        *s->log = lanes_format("lanes: kernel %s calls %s, which is not implemented yet\n",
                               s->k->name, missing);
        return FAILED;
    }
    char *error = NULL;
    s->out->object = lanes_jit_emit_object(s->m, s->codegen, &s->out->size, &error);
    if (!s->out->object) {
        *s->log = lanes_format("lanes: kernel %s: code generation failed: %s\n", s->k->name, error);
        free(error);
        return FAILED;
    }
    return GO_ON;
}

/*
 * The stages, in order. `check` marks the stages after which the module
 * is verified even without LANES_DUMP=verify: at W > 1 a module that is
 * not valid IR there is the vectorizer's fault, and the kernel runs at
 * width 1 instead.
 */
static const struct stage {
    const char *name;
    enum group group;
    bool (*when)(const struct state *s);
    enum outcome (*run)(struct state *s);
    bool check;
} stages[] = {
    {"reach", REACH, NULL, reach, false},
    {"parse", SPECIALIZED, NULL, parse, false},
    {"link-first", SPECIALIZED, NULL, link_first, false},
    {"size", SPECIALIZED, NULL, check_size, false},
    {"specialize", SPECIALIZED, NULL, specialize, false},
    {"vectorize", SPECIALIZED, vectorized, vectorize, false},
    {"lower", SPECIALIZED, NULL, lower, false},
    {"link", LINKED, NULL, link_rest, false},
    {"emit", LINKED, NULL, emit, true},
    {"seal", LINKED, NULL, seal, false},
    {"look-up", LINKED, NULL, look_up, false},
    {"optimize", OPTIMIZED, NULL, optimize, false},
    {"compress", OPTIMIZED, NULL, compress, false},
    {"workarounds", OPTIMIZED, NULL, workarounds, false},
    {"split", OPTIMIZED, NULL, split_blocks, false},
    {"codegen", COMPILED, NULL, codegen, false},
};

/* Whether LANES_DUMP (`dump`) asks for the module after stage `name`. */
static bool dump_after(const char *dump, const char *name)
{
    if (!dump)
        return false;
    if (strcmp(name, "split") == 0 && strstr(dump, "final"))
        return true;
    size_t n = strlen(name);
    for (const char *p = dump; (p = strstr(p, "after:")) != NULL; p += 6)
        if (strncmp(p + 6, name, n) == 0 && (p[6 + n] == ',' || p[6 + n] == '\0'))
            return true;
    return false;
}

/* False (with the log saying why) when the module is not valid IR after `stage`. */
static bool verified(struct state *s, const struct stage *stage)
{
    char *invalid = NULL;
    if (!LLVMVerifyModule(s->m, LLVMReturnStatusAction, &invalid)) {
        LLVMDisposeMessage(invalid);
        return true;
    }
    char *nl = strchr(invalid, '\n');
    if (nl)
        *nl = 0;
    if (vectorized(s)) {
        /* The vectorizer's fault, not the kernel's: it runs at width 1 (lanes_launcher_build). */
        *s->log =
            lanes_format("internal error: the vectorized kernel is not valid IR: %s\n", invalid);
        s->refused = true;
    } else {
        *s->log = lanes_format("lanes: kernel %s: internal error: not valid IR after %s: %s\n",
                               s->k->name, stage->name, invalid);
    }
    LLVMDisposeMessage(invalid);
    return false;
}

bool lanes_pipeline_run(const struct lanes_program_module *module,
                        const struct lanes_kernel_info *k, const struct lanes_specialization *spec,
                        struct lanes_compiled *out, bool *refused, char **log)
{
    lanes_crash_test("launcher");
    const char *dump = getenv("LANES_DUMP");
    bool verify_all = dump && strstr(dump, "verify");
    struct state s = {.module = module, .k = k, .spec = spec, .out = out, .log = log};
    double ms[GROUPS] = {0};
    enum outcome o = GO_ON;
    for (size_t i = 0; i < sizeof stages / sizeof *stages && o == GO_ON; i++) {
        const struct stage *stage = &stages[i];
        if (stage->when && !stage->when(&s))
            continue;
        double t = now_ms();
        o = stage->run(&s);
        ms[stage->group] += now_ms() - t;
        if (!s.m)
            continue; /* no module yet: nothing to verify or print */
        if (o == GO_ON && (verify_all || (stage->check && vectorized(&s))) && !verified(&s, stage))
            o = FAILED;
        if (o == GO_ON && dump_after(dump, stage->name)) {
            char *text = LLVMPrintModuleToString(s.m);
            if (strcmp(stage->name, "split") == 0)
                fprintf(stderr, "; lanes: kernel %s optimized\n%s\n", k->name, text);
            else
                fprintf(stderr, "; lanes: kernel %s after %s\n%s\n", k->name, stage->name, text);
            LLVMDisposeMessage(text);
        }
    }
    if (o != FAILED && dump && strstr(dump, "time")) {
        char head[160];
        snprintf(head, sizeof head, "lanes: kernel %s, width %u%s, group %llu x %llu x %llu",
                 k->name, spec->width, s.vectors, (unsigned long long)spec->local_size[0],
                 (unsigned long long)spec->local_size[1], (unsigned long long)spec->local_size[2]);
        if (o == FOUND)
            fprintf(stderr, "%s: specialized in %.2f ms, linked %.2f; the same code was %s\n", head,
                    ms[SPECIALIZED], ms[LINKED], out->loaded ? "loaded" : "in the disk cache");
        else
            fprintf(stderr,
                    "%s: specialized in %.2f ms, linked %.2f, optimized %.2f (%zu functions, %zu "
                    "instructions), compiled %.2f\n",
                    head, ms[SPECIALIZED], ms[LINKED], ms[OPTIMIZED], s.functions, s.instructions,
                    ms[COMPILED]);
    }
    if (o == FAILED && !*log)
        *log =
            lanes_format("lanes: kernel %s: its compile failed (out of host memory?)\n", k->name);
    *refused = o == FAILED && s.refused;
    lanes_globals_layout_free(&s.globals);
    if (s.m)
        LLVMDisposeModule(s.m);
    if (s.ctx)
        LLVMContextDispose(s.ctx);
    return o != FAILED && (out->loaded || out->object);
}
