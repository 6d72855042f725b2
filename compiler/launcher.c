/* SPDX-License-Identifier: MIT */
/*
 * Building a launcher: parse what the kernel reaches of its program
 * (compiler/reach.h) into a fresh context, turn the kernel into its
 * sub-group function (specialize.c), generate
 *     void launch(const void *args, const struct lanes_wg *wg)
 * that unpacks the argument block and runs the sub-groups of one
 * work-group in a loop, then optimize at O3 for the host and JIT it.
 */
#include "launcher.h"

#include "builtins.h"
#include "cache.h"
#include "crash.h"
#include "globals.h"
#include "host.h"
#include "ir.h"
#include "jit.h"
#include "passes.h"
#include "reach.h"
#include "sha256.h"
#include "specialize.h"
#include "workarounds.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct gen {
    LLVMContextRef ctx;
    LLVMBuilderRef b;
    LLVMTypeRef i8, i64, ptr;
};

static LLVMValueRef byte_gep(struct gen *g, LLVMValueRef base, uint64_t offset)
{
    LLVMValueRef idx = LLVMConstInt(g->i64, offset, 0);
    return LLVMBuildInBoundsGEP2(g->b, g->i8, base, &idx, 1, "");
}

/* The value the sub-group function receives for argument `a` of parameter type `t`. */
static LLVMValueRef unpack_arg(struct gen *g, LLVMValueRef sg, unsigned i,
                               const struct lanes_kernel_arg *a, LLVMValueRef args,
                               LLVMValueRef local_mem)
{
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(sg, i));
    LLVMValueRef slot = byte_gep(g, args, a->offset);
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    switch (a->kind) {
    case LANES_ARG_VALUE:
        /* A byval parameter points at its bytes; the inliner makes the private copy. */
        if (LLVMGetEnumAttributeAtIndex(sg, i + 1, byval))
            return LLVMBuildAddrSpaceCast(g->b, slot, t, "");
        return LLVMBuildLoad2(g->b, t, slot, "");
    case LANES_ARG_LOCAL: {
        LLVMValueRef off = LLVMBuildLoad2(g->b, g->i64, slot, "");
        LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, g->i8, local_mem, &off, 1, "");
        return LLVMBuildAddrSpaceCast(g->b, p, t, "");
    }
    default: return LLVMBuildAddrSpaceCast(g->b, LLVMBuildLoad2(g->b, g->ptr, slot, ""), t, "");
    }
}

/* Emits `for (v = 0; v < n; v++)` around what `body` builds; returns the loop variable. */
struct loop {
    LLVMBasicBlockRef head, body, exit;
    LLVMValueRef var;
};

static struct loop loop_begin(struct gen *g, LLVMValueRef fn, LLVMValueRef n, const char *name)
{
    struct loop l;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    l.head = LLVMAppendBasicBlockInContext(g->ctx, fn, name);
    l.body = LLVMAppendBasicBlockInContext(g->ctx, fn, name);
    l.exit = LLVMAppendBasicBlockInContext(g->ctx, fn, name);
    LLVMBuildBr(g->b, l.head);
    LLVMPositionBuilderAtEnd(g->b, l.head);
    l.var = LLVMBuildPhi(g->b, g->i64, name);
    LLVMValueRef zero = LLVMConstInt(g->i64, 0, 0);
    LLVMAddIncoming(l.var, &zero, &pre, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, l.var, n, ""), l.body, l.exit);
    LLVMPositionBuilderAtEnd(g->b, l.body);
    return l;
}

static void loop_end(struct gen *g, struct loop *l, uint64_t step)
{
    LLVMValueRef next = LLVMBuildAdd(g->b, l->var, LLVMConstInt(g->i64, step, 0), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(l->var, &next, &latch, 1);
    LLVMBuildBr(g->b, l->head);
    LLVMPositionBuilderAtEnd(g->b, l->exit);
}

/* A call of the coroutine intrinsic `name` on handle `h`. */
static LLVMValueRef coro_call(struct gen *g, LLVMModuleRef m, const char *name, LLVMValueRef h)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
    return LLVMBuildCall2(g->b, LLVMIntrinsicGetType(g->ctx, id, NULL, 0), f, &h, 1, "");
}

/*
 * After every sub-group of a coroutine kernel has started (and stopped at
 * its first barrier or its end), resume them in turn, round after round,
 * until the first one has finished: barriers are reached by all work-items
 * of a work-group, so all finish in the same round.
 */
static void emit_resume_rounds(struct gen *g, LLVMModuleRef m, LLVMValueRef fn,
                               LLVMValueRef handles, LLVMValueRef count)
{
    LLVMBasicBlockRef round = LLVMAppendBasicBlockInContext(g->ctx, fn, "round");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, fn, "resume");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, fn, "finished");
    LLVMBuildBr(g->b, round);
    LLVMPositionBuilderAtEnd(g->b, round);
    LLVMValueRef first = LLVMBuildLoad2(g->b, g->ptr, handles, "");
    LLVMBuildCondBr(g->b, coro_call(g, m, "llvm.coro.done", first), done, body);
    LLVMPositionBuilderAtEnd(g->b, body);
    struct loop each = loop_begin(g, fn, count, "each");
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(g->b, g->ptr, handles, &each.var, 1, "");
    coro_call(g, m, "llvm.coro.resume", LLVMBuildLoad2(g->b, g->ptr, slot, ""));
    loop_end(g, &each, 1);
    LLVMBuildBr(g->b, round);
    LLVMPositionBuilderAtEnd(g->b, done);
}

/* The launcher: unpack the block once, then run every sub-group of the work-group. */
static LLVMValueRef emit_launcher(LLVMModuleRef m, LLVMValueRef sg,
                                  const struct lanes_kernel_info *k,
                                  const struct lanes_specialization *spec, bool coroutine,
                                  const char *name)
{
    struct gen g = {.ctx = LLVMGetModuleContext(m)};
    g.b = LLVMCreateBuilderInContext(g.ctx);
    g.i8 = LLVMInt8TypeInContext(g.ctx);
    g.i64 = LLVMInt64TypeInContext(g.ctx);
    g.ptr = LLVMPointerTypeInContext(g.ctx, 0);
    LLVMTypeRef params[2] = {g.ptr, g.ptr};
    LLVMValueRef fn =
        LLVMAddFunction(m, name, LLVMFunctionType(LLVMVoidTypeInContext(g.ctx), params, 2, 0));
    LLVMValueRef args = LLVMGetParam(fn, 0), wg = LLVMGetParam(fn, 1);
    LLVMPositionBuilderAtEnd(g.b, LLVMAppendBasicBlockInContext(g.ctx, fn, "entry"));

    LLVMValueRef local_mem = LLVMBuildLoad2(g.b, g.ptr, byte_gep(&g, wg, LANES_WG_LOCAL_MEM), "");
    unsigned n = (unsigned)k->num_args;
    LLVMValueRef call_args[n + LANES_SG_NUM_PARAMS];
    for (unsigned i = 0; i < n; i++)
        call_args[i] = unpack_arg(&g, sg, i, &k->args[i], args, local_mem);
    call_args[n + LANES_SG_WG] = wg;

    /*
     * Sub-groups are runs of W consecutive local linear ids, every one full
     * but the last. When W divides the rows, they are walked row by row,
     * W at a time; otherwise by their linear index, each lane's local id
     * then computed in the sub-group (compiler/workitem.c).
     */
    uint64_t w = spec->width, size[3], items = 1;
    for (unsigned d = 0; d < 3; d++)
        items *= size[d] = lanes_spec_group_size(spec, d);
    uint64_t sgs = (items + w - 1) / w;
    /* Tier 0 reads its sizes from wg. */
    LLVMValueRef s[3], all = LLVMConstInt(g.i64, items, 0), count = LLVMConstInt(g.i64, sgs, 0);
    for (unsigned d = 0; d < 3; d++)
        s[d] = LLVMConstInt(g.i64, size[d], 0);
    if (spec->dynamic) {
        for (unsigned d = 0; d < 3; d++)
            s[d] = LLVMBuildLoad2(g.b, g.i64, byte_gep(&g, wg, LANES_WG_LOCAL_SIZE + 8 * d), "");
        all = LLVMBuildMul(g.b, LLVMBuildMul(g.b, s[0], s[1], ""), s[2], "items");
        count = LLVMBuildUDiv(g.b, LLVMBuildAdd(g.b, all, LLVMConstInt(g.i64, w - 1, 0), ""),
                              LLVMConstInt(g.i64, w, 0), "sub_groups");
        sgs = (LANES_MAX_GROUP_ITEMS + w - 1) / w; /* the handles' room */
    }
    LLVMValueRef handles =
        coroutine ? LLVMBuildArrayAlloca(g.b, g.ptr, LLVMConstInt(g.i64, sgs, 0), "handles") : NULL;
    LLVMValueRef call, index;
    struct loop loops[3];
    unsigned nloops;
    if (lanes_spec_rows(spec)) {
        nloops = 3;
        loops[2] = loop_begin(&g, fn, s[2], "z");
        loops[1] = loop_begin(&g, fn, s[1], "y");
        loops[0] = loop_begin(&g, fn, s[0], "x");
        LLVMValueRef row =
            LLVMBuildAdd(g.b, LLVMBuildMul(g.b, loops[2].var, s[1], ""), loops[1].var, "");
        LLVMValueRef first = LLVMBuildAdd(g.b, LLVMBuildMul(g.b, row, s[0], ""), loops[0].var, "");
        call_args[n + LANES_SG_FIRST] = first;
        call_args[n + LANES_SG_LANES] = LLVMConstInt(g.i64, w, 0);
        for (unsigned d = 0; d < 3; d++)
            call_args[n + LANES_SG_LX + d] = loops[d].var;
        index = LLVMBuildUDiv(g.b, first, LLVMConstInt(g.i64, w, 0), "");
    } else {
        nloops = 1;
        loops[0] = loop_begin(&g, fn, count, "sg");
        index = loops[0].var;
        LLVMValueRef first = LLVMBuildMul(g.b, index, LLVMConstInt(g.i64, w, 0), "");
        LLVMValueRef left = LLVMBuildSub(g.b, all, first, "");
        LLVMValueRef full = LLVMBuildICmp(g.b, LLVMIntUGT, left, LLVMConstInt(g.i64, w, 0), "");
        call_args[n + LANES_SG_FIRST] = first;
        call_args[n + LANES_SG_LANES] =
            LLVMBuildSelect(g.b, full, LLVMConstInt(g.i64, w, 0), left, "");
        LLVMValueRef rows = LLVMBuildUDiv(g.b, first, s[0], "");
        call_args[n + LANES_SG_LX] = LLVMBuildURem(g.b, first, s[0], "");
        call_args[n + LANES_SG_LY] = LLVMBuildURem(g.b, rows, s[1], "");
        call_args[n + LANES_SG_LZ] = LLVMBuildUDiv(g.b, rows, s[1], "");
    }
    call =
        LLVMBuildCall2(g.b, LLVMGlobalGetValueType(sg), sg, call_args, n + LANES_SG_NUM_PARAMS, "");
    if (coroutine)
        LLVMBuildStore(g.b, call, LLVMBuildInBoundsGEP2(g.b, g.ptr, handles, &index, 1, ""));
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < n; i++) {
        LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(sg, i + 1, byval);
        if (a)
            LLVMAddCallSiteAttribute(call, i + 1, a);
    }
    loop_end(&g, &loops[0], nloops == 3 ? w : 1);
    for (unsigned d = 1; d < nloops; d++)
        loop_end(&g, &loops[d], 1);
    if (coroutine)
        emit_resume_rounds(&g, m, fn, handles, count);
    LLVMBuildRetVoid(g.b);
    LLVMDisposeBuilder(g.b);
    return fn;
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

/* A malloc'd message of at most 2 KiB (NULL when out of memory). */
__attribute__((format(printf, 1, 2))) static char *format(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return strdup(buf);
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

/* Instructions past which a kernel's tier 0 is lightly optimized (see below). */
enum { BIG_TIER0 = 5000 };

static const char *name_of(LLVMValueRef f)
{
    size_t len;
    return LLVMGetValueName2(f, &len);
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
        return format("%zu instructions once its calls are inlined (more than %d), the most from "
                      "%.200s (%zu instructions%s): LLVM would take too long; lightly optimized "
                      "instead",
                      s.instructions, BIG_INSTRUCTIONS, name_of(s.biggest), s.biggest_instructions,
                      copies);
    }
    if (s.cases > BIG_SWITCH_CASES)
        return format("a switch of %u cases in %.200s (more than %d): LLVM would take too long; "
                      "lightly optimized instead",
                      s.cases, name_of(s.switch_in), BIG_SWITCH_CASES);
    if (s.cases > VECTOR_SWITCH_CASES)
        return format("a switch of %u cases in %.200s (more than %d) would run every case for "
                      "every sub-group",
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

/* Whether a launcher went through LLVM's pipelines in this process (lanes_launcher_warm_up). */
static atomic_bool optimized_here;

/*
 * A launcher's code, named by what it is made of: the module about to be
 * optimized (the kernel's reach, library and launcher) and how it is
 * compiled. Programs that differ in source but not in that module (the
 * CTS builds its kernels once per memory scope and order, which the CPU's
 * atomics do not tell apart; a kernel in two programs that differ in
 * their other kernels) share one compile and one copy of the code.
 */
struct code {
    struct lanes_cache_key key;
    char name[64]; /* the launcher's symbol: "lanes.code." and the key's first 16 bytes */
};

static void code_name(struct code *c)
{
    int n = snprintf(c->name, sizeof c->name, "lanes.code.");
    for (int i = 0; i < 16; i++)
        n += snprintf(c->name + n, sizeof c->name - (size_t)n, "%02x", c->key.digest[i]);
}

/* The code key of `m`, whose launcher is still named "lanes.launch", compiled so. */
static bool code_key(LLVMModuleRef m, const char *pipeline, enum lanes_codegen codegen,
                     struct code *c)
{
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
    if (!bc)
        return false;
    const void *parts[] = {"code-1", LLVMGetBufferStart(bc), pipeline, &codegen};
    const size_t sizes[] = {6, LLVMGetBufferSize(bc), strlen(pipeline), sizeof codegen};
    lanes_cache_key_of(&c->key, parts, sizes, sizeof parts / sizeof *parts);
    LLVMDisposeMemoryBuffer(bc);
    code_name(c);
    return true;
}

/* What compile_launcher found or made. */
struct compiled {
    struct code code;
    struct lanes_jit_code *loaded; /* the same code, loaded already in this process */
    void *object;                  /* or its object code, from the disk cache or compiled */
    size_t size;
    bool cached; /* the object came from the disk cache */
};

/*
 * The launcher's code: what the kernel reaches specialized for `spec`, the
 * launcher generated, then the same code loaded already or in the disk
 * cache, else optimized for the host and compiled. False with *log saying
 * why.
 */
static bool compile_launcher(const struct lanes_program_module *module,
                             const struct lanes_kernel_info *k,
                             const struct lanes_specialization *spec, struct compiled *out,
                             bool *refused, char **log)
{
    *refused = false;
    lanes_crash_test("launcher");
    const char *dump = getenv("LANES_DUMP");
    double t[6] = {now_ms()};
    char *big = NULL;   /* why the kernel is not vectorized, for its size */
    bool light = false; /* and whether it takes the light path */
    /* What the kernel reaches, never the whole program (compiler/reach.h). */
    const void *reach;
    size_t reach_size;
    if (lanes_reach_bitcode(module, k, &reach, &reach_size, log) != 0)
        return false;
    t[0] = now_ms();
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(reach, reach_size, "kernel", 0);
    LLVMModuleRef m = NULL;
    bool parsed = LLVMParseBitcodeInContext2(ctx, buf, &m) == 0;
    LLVMDisposeMemoryBuffer(buf);
    /* The program's variables at the program's offsets, told apart from the library's. */
    struct lanes_globals_layout globals = {0};
    if (parsed && lanes_globals_from_marks(m, &globals, log) != 0)
        parsed = false;
    /* The kernel's math options (its attributes) choose the library's variants. */
    LLVMValueRef kernel = parsed ? find_function(m, k->name) : NULL;
    unsigned math_mode = lanes_builtins_math_mode(kernel);
    if (parsed && lanes_builtins_link(m, math_mode, LANES_LINK_FIRST, log) != 0)
        parsed = false; /* the log says why */
    char *error = NULL;
    kernel = parsed ? kernel : NULL;
    /* Too big to vectorize: width 1; too big to optimize in reasonable time: the light path. */
    big = kernel ? too_big(kernel, &light) : NULL;
    if (big && spec->width > 1) {
        *log = format("%s\n", big);
        *refused = true;
        goto out;
    }
    bool coroutine = false;
    /* The launcher walks the work-group a vector at a time: one sub-group, or several. */
    struct lanes_specialization walk = *spec;
    LLVMValueRef sg =
        kernel ? lanes_specialize(m, kernel, spec, &globals, &coroutine, &walk.width, refused, log)
               : NULL;
    if (!sg) {
        if (!*log)
            *log = format("lanes: kernel %s: %s\n", k->name, "not found in the program module");
        goto out;
    }
    /* What the vectorizer mapped (sub-group functions, or their vector forms). */
    t[1] = now_ms();
    char vectors[48] = "";
    if (walk.width != spec->width)
        snprintf(vectors, sizeof vectors, " (%u sub-groups a vector)", walk.width / spec->width);
    if (lanes_builtins_link(m, math_mode, LANES_LINK_REST, log) != 0)
        goto out;
    LLVMValueRef launcher = emit_launcher(m, sg, k, &walk, coroutine, "lanes.launch");
    char *invalid = NULL;
    if (spec->width > 1 && LLVMVerifyModule(m, LLVMReturnStatusAction, &invalid)) {
        /* The vectorizer's fault, not the kernel's: it runs at width 1 (lanes_launcher_build). */
        char *nl = strchr(invalid, '\n');
        if (nl)
            *nl = 0;
        *log = format("internal error: the vectorized kernel is not valid IR: %s\n", invalid);
        *refused = true;
        LLVMDisposeMessage(invalid);
        goto out;
    }
    LLVMDisposeMessage(invalid);
    /* Only the launcher is needed from outside: everything else may go. */
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (f != launcher && !LLVMIsDeclaration(f))
            LLVMSetLinkage(f, LLVMInternalLinkage);
    lanes_host_set_attributes(m);
    size_t functions, instructions = lanes_count_instructions(m, &functions);
    t[2] = now_ms();
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
    bool big_tier0 = spec->dynamic && instructions > BIG_TIER0;
    const char *pipeline =
        light           ? "function(sroa,early-cse)"
        : big_tier0     ? "function(sroa,early-cse,simplifycfg,instcombine<no-verify-fixpoint>)"
        : spec->dynamic ? "default<O1>"
                        : "default<O3>";
    enum lanes_codegen codegen = light || big_tier0 ? LANES_CODEGEN_FAST : LANES_CODEGEN_FULL;
    if (!code_key(m, pipeline, codegen, &out->code)) {
        *log = format("lanes: kernel %s: its module could not be written as bitcode\n", k->name);
        goto out;
    }
    LLVMSetValueName2(launcher, out->code.name, strlen(out->code.name));
    if ((out->loaded = lanes_jit_acquire(out->code.name)) ||
        (out->object = lanes_cache_load_object(&out->code.key, &out->size))) {
        out->cached = out->object != NULL;
        if (dump && strstr(dump, "time"))
            fprintf(stderr,
                    "lanes: kernel %s, width %u%s, group %llu x %llu x %llu: specialized in %.2f "
                    "ms, linked %.2f; the same code was %s\n",
                    k->name, spec->width, vectors, (unsigned long long)spec->local_size[0],
                    (unsigned long long)spec->local_size[1],
                    (unsigned long long)spec->local_size[2], t[1] - t[0], now_ms() - t[1],
                    out->loaded ? "loaded" : "in the disk cache");
        goto out;
    }
    atomic_store(&optimized_here, true);
    if (lanes_host_run_passes(m, pipeline, !spec->dynamic, &error) != 0) {
        *log = format("lanes: kernel %s: optimization failed: %s\n", k->name, error);
        goto out;
    }
    lanes_host_compress_scatters(m);
    lanes_llvm19_workarounds(m);
    lanes_host_split_long_blocks(m, LONGEST_BLOCK);
    t[3] = now_ms();
    if (dump && strstr(dump, "final")) {
        char *text = LLVMPrintModuleToString(m);
        fprintf(stderr, "; lanes: kernel %s optimized\n%s\n", k->name, text);
        LLVMDisposeMessage(text);
    }
    if (dump && strstr(dump, "asm")) {
        char *text = lanes_jit_emit_assembly(m);
        fprintf(stderr, "# lanes: kernel %s machine code (width %u)\n%s\n", k->name, spec->width,
                text ? text : "# (no assembly: code generation failed)\n");
        free(text);
    }
    const char *missing = missing_builtin(m);
    if (missing) {
        *log =
            format("lanes: kernel %s calls %s, which is not implemented yet\n", k->name, missing);
        goto out;
    }
    if (!(out->object = lanes_jit_emit_object(m, codegen, &out->size, &error)))
        *log = format("lanes: kernel %s: code generation failed: %s\n", k->name, error);
    t[4] = now_ms();
    if (dump && strstr(dump, "time"))
        fprintf(stderr,
                "lanes: kernel %s, width %u%s, group %llu x %llu x %llu: specialized in %.2f ms, "
                "linked %.2f, optimized %.2f (%zu functions, %zu instructions), compiled %.2f\n",
                k->name, spec->width, vectors, (unsigned long long)spec->local_size[0],
                (unsigned long long)spec->local_size[1], (unsigned long long)spec->local_size[2],
                t[1] - t[0], t[2] - t[1], t[3] - t[2], functions, instructions, t[4] - t[3]);
out:
    free(error);
    free(big);
    lanes_globals_layout_free(&globals);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return out->loaded || out->object;
}

/*
 * The functions the built-in library calls (SLEEF), defined in the JIT at
 * their addresses in this process, once, before the first launcher is
 * loaded: liblanes.so is opened RTLD_LOCAL by the ICD loader, so its
 * dependencies are not in the global scope the JIT searches.
 */
static pthread_once_t runtime_symbols_once = PTHREAD_ONCE_INIT;
static char *runtime_symbols_error;

static void define_runtime_symbols(void)
{
    size_t n;
    const struct lanes_runtime_symbol *syms = lanes_builtins_runtime_symbols(&n);
    struct lanes_jit_symbol *table = malloc((n ? n : 1) * sizeof *table);
    if (!table) {
        runtime_symbols_error = strdup("out of host memory");
        return;
    }
    for (size_t i = 0; i < n; i++)
        table[i] = (struct lanes_jit_symbol){syms[i].name, syms[i].address};
    lanes_jit_define_symbols(table, n, &runtime_symbols_error);
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
    const void *parts[] = {"launcher-7",    digest,       k->name,    spec->local_size,
                           &spec->work_dim, &spec->width, group,      &spec->small_ids,
                           &spec->dynamic,  &spec->rows,  &interleave};
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
                            sizeof interleave};
    lanes_cache_key_of(key, parts, sizes, sizeof parts / sizeof *parts);
}

/* compile_launcher's arguments and results, under lanes_run_safely. */
struct safe_compile {
    const struct lanes_program_module *module;
    const struct lanes_kernel_info *k;
    const struct lanes_specialization *spec;
    struct compiled *out;
    bool refused, ok;
    char *log;
};

static void safe_compile(void *p)
{
    struct safe_compile *c = p;
    c->ok = compile_launcher(c->module, c->k, c->spec, c->out, &c->refused, &c->log);
}

/* compile_launcher, except that a crash of the compiler fails the compile instead of the process.
 */
static bool compile_safely(const struct lanes_program_module *module,
                           const struct lanes_kernel_info *k,
                           const struct lanes_specialization *spec, struct compiled *out,
                           bool *refused, char **log)
{
    struct safe_compile c = {.module = module, .k = k, .spec = spec, .out = out};
    char crash[64];
    if (!lanes_run_safely(safe_compile, &c, crash)) {
        lanes_reach_abandon();
        *refused = false;
        *log = format("lanes: kernel %s: the compiler crashed (%s) while compiling it for "
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
            *why = format("its private memory takes %llu bytes of stack for a sub-group of %u "
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
static bool read_code_record(const char *r, size_t size, struct code *c)
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
    code_name(c);
    return true;
}

static void write_code_record(const struct lanes_cache_key *key, const struct code *c)
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
    struct compiled c = {0};
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
            *log = format("lanes: kernel %s: loading its code failed: %s\n", k->name, error);
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
        *log = format("lanes: kernel %s cannot run: %.1000s\n", k->name, why);
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
        *log = format("lanes: kernel %s: requires sub-groups of %u work-items "
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
        *log = format("lanes: kernel %s: not vectorized at width %u: %.1000s\n", k->name,
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
    if (atomic_load(&optimized_here))
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
    atomic_store(&optimized_here, true);
}
