/* SPDX-License-Identifier: MIT */
/*
 * From a kernel to its sub-group function (ARCHITECTURE.md §1, §3): inline
 * everything, move the body into a function that also receives the
 * work-group state, then lower the work-item built-ins and give the
 * kernel's __local variables their place in the work-group's local memory.
 */
#include "specialize.h"

#include "host.h"
#include "ir.h"
#include "names.h"
#include "passes.h"
#include "vectorize/vectorize.h"

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AS_LOCAL 3

static void remove_fn_attr(LLVMValueRef f, const char *name)
{
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                   LLVMGetEnumAttributeKindForName(name, strlen(name)));
}

/* OpenCL C has no recursion: every call of a defined function can be inlined. */
static int inline_everything(LLVMModuleRef m, char **log)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        remove_fn_attr(f, "noinline");
        remove_fn_attr(f, "optnone");
        lanes_add_fn_attr(f, "alwaysinline");
    }
    char *error = NULL;
    if (lanes_host_run_passes(m, "always-inline", true, &error) != 0) {
        *log = lanes_format("lanes: inlining failed: %s\n", error);
        free(error);
        return -1;
    }
    return 0;
}

/* Copies every attribute of parameter `from_index` of `from` onto `to`. */
static void copy_param_attrs(LLVMValueRef from, unsigned from_index, LLVMValueRef to,
                             unsigned to_index)
{
    unsigned n = LLVMGetAttributeCountAtIndex(from, from_index);
    if (!n)
        return;
    LLVMAttributeRef attrs[n];
    LLVMGetAttributesAtIndex(from, from_index, attrs);
    for (unsigned i = 0; i < n; i++)
        LLVMAddAttributeAtIndex(to, to_index, attrs[i]);
}

static LLVMValueRef lower_lane_call(LLVMValueRef call, const char *callee, void *ctx)
{
    (void)ctx;
    return strcmp(callee, LANES_LANE_FUNCTION) == 0 ? LLVMConstNull(LLVMTypeOf(call)) : NULL;
}

/* Replaces every LANES_LANE_FUNCTION call in `sg` by 0 (a sub-group of one work-item). */
static void lower_lane(LLVMValueRef sg)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(LLVMGetGlobalParent(sg)));
    lanes_replace_calls(sg, b, lower_lane_call, NULL);
    LLVMDisposeBuilder(b);
}

/* The kernel's body, moved into its sub-group function (enum lanes_sg_param) returning `ret`. */
static LLVMValueRef move_into_sg(LLVMModuleRef m, LLVMValueRef kernel, LLVMTypeRef ret)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned n = LLVMCountParams(kernel);
    LLVMTypeRef params[n + LANES_SG_NUM_PARAMS];
    for (unsigned i = 0; i < n; i++)
        params[i] = LLVMTypeOf(LLVMGetParam(kernel, i));
    params[n + LANES_SG_WG] = LLVMPointerTypeInContext(ctx, 0);
    for (unsigned p = LANES_SG_FIRST; p < LANES_SG_NUM_PARAMS; p++)
        params[n + p] = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef type = LLVMFunctionType(ret, params, n + LANES_SG_NUM_PARAMS, 0);
    size_t len;
    char name[300];
    snprintf(name, sizeof name, "%.200s.sg", LLVMGetValueName2(kernel, &len));
    LLVMValueRef sg = LLVMAddFunction(m, name, type);
    LLVMSetLinkage(sg, LLVMInternalLinkage);
    copy_param_attrs(kernel, (unsigned)LLVMAttributeFunctionIndex, sg,
                     (unsigned)LLVMAttributeFunctionIndex);
    for (unsigned i = 0; i < n; i++)
        copy_param_attrs(kernel, i + 1, sg, i + 1);
    while (LLVMGetFirstBasicBlock(kernel)) {
        LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kernel);
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(sg, bb);
    }
    for (unsigned i = 0; i < n; i++)
        LLVMReplaceAllUsesWith(LLVMGetParam(kernel, i), LLVMGetParam(sg, i));
    LLVMDeleteFunction(kernel);
    if (LLVMGetTypeKind(ret) != LLVMVoidTypeKind) {
        /* A coroutine-to-be: valid IR until compiler/coroutine.c replaces every return. */
        LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
            if (t && LLVMIsAReturnInst(t)) {
                LLVMPositionBuilderBefore(b, t);
                LLVMBuildRet(b, LLVMGetPoison(ret));
                LLVMInstructionEraseFromParent(t);
            }
        }
        LLVMDisposeBuilder(b);
    }
    return sg;
}

/*
 * `sg`, a coroutine-to-be, as a function returning void (taking its name,
 * blocks and attributes): it turned out to have no barrier and no yield.
 */
static LLVMValueRef return_void(LLVMModuleRef m, LLVMValueRef sg)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned n = LLVMCountParams(sg);
    LLVMTypeRef params[n];
    for (unsigned i = 0; i < n; i++)
        params[i] = LLVMTypeOf(LLVMGetParam(sg, i));
    size_t len;
    char *name = strdup(LLVMGetValueName2(sg, &len));
    LLVMValueRef f =
        LLVMAddFunction(m, "", LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, n, 0));
    LLVMSetLinkage(f, LLVMGetLinkage(sg));
    copy_param_attrs(sg, (unsigned)LLVMAttributeFunctionIndex, f,
                     (unsigned)LLVMAttributeFunctionIndex);
    for (unsigned i = 0; i < n; i++) {
        copy_param_attrs(sg, i + 1, f, i + 1);
        LLVMReplaceAllUsesWith(LLVMGetParam(sg, i), LLVMGetParam(f, i));
    }
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    while (LLVMGetFirstBasicBlock(sg)) {
        LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg);
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(f, bb);
        LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
        if (t && LLVMIsAReturnInst(t)) {
            LLVMPositionBuilderBefore(b, t);
            LLVMBuildRetVoid(b);
            LLVMInstructionEraseFromParent(t);
        }
    }
    LLVMDisposeBuilder(b);
    LLVMDeleteFunction(sg);
    if (name)
        LLVMSetValueName2(f, name, strlen(name));
    free(name);
    return f;
}

/* The instruction before which a use in `user` can be computed. */
static LLVMValueRef insertion_point(LLVMValueRef user, LLVMValueRef used)
{
    if (!LLVMIsAPHINode(user))
        return user;
    for (unsigned i = 0; i < LLVMCountIncoming(user); i++)
        if (LLVMGetIncomingValue(user, i) == used)
            return LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(user, i));
    return user;
}

/* True when constant expression `ce` refers to `v`, directly or through other expressions. */
static bool refers_to(LLVMValueRef ce, LLVMValueRef v)
{
    for (int i = 0; i < LLVMGetNumOperands(ce); i++) {
        LLVMValueRef op = LLVMGetOperand(ce, (unsigned)i);
        if (op == v || (LLVMIsAConstantExpr(op) && refers_to(op, v)))
            return true;
    }
    return false;
}

/*
 * An instruction computing constant expression `ce` (a GEP, a cast or a
 * binary operation) before its use in `user`, with `old` replaced by `now`
 * in it; NULL for other kinds.
 */
static LLVMValueRef materialize(LLVMBuilderRef b, LLVMValueRef user, LLVMValueRef ce,
                                LLVMValueRef old, LLVMValueRef now)
{
    unsigned n = (unsigned)LLVMGetNumOperands(ce);
    LLVMValueRef ops[n ? n : 1];
    for (unsigned i = 0; i < n; i++) {
        ops[i] = LLVMGetOperand(ce, i);
        if (ops[i] == old)
            ops[i] = now;
        else if (LLVMIsAConstantExpr(ops[i]) && refers_to(ops[i], old) &&
                 !(ops[i] = materialize(b, user, ops[i], old, now)))
            return NULL;
    }
    LLVMPositionBuilderBefore(b, insertion_point(user, ce));
    LLVMOpcode op = LLVMGetConstOpcode(ce);
    if (op == LLVMGetElementPtr) {
        LLVMValueRef v =
            LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(ce), ops[0], ops + 1, n - 1, "");
        LLVMSetIsInBounds(v, LLVMIsInBounds(ce));
        return v;
    }
    if (op >= LLVMTrunc && op <= LLVMAddrSpaceCast)
        return LLVMBuildCast(b, op, ops[0], LLVMTypeOf(ce), "");
    /* Pointer differences, e.g. &s.field - &s (a sub of two ptrtoints). */
    if (op >= LLVMAdd && op <= LLVMXor && n == 2)
        return LLVMBuildBinOp(b, op, ops[0], ops[1], "");
    return NULL;
}

/* True for a constant that is no global and that only dead constants use (an old initializer). */
static bool dead_constant(LLVMValueRef c)
{
    if (!LLVMIsAConstant(c) || LLVMIsAGlobalValue(c))
        return false;
    for (LLVMUseRef u = LLVMGetFirstUse(c); u; u = LLVMGetNextUse(u))
        if (!dead_constant(LLVMGetUser(u)))
            return false;
    return true;
}

/*
 * Makes every instruction that uses `old`, directly or through constant
 * expressions (GEPs and casts), use `now` instead; `now` need not be a
 * constant. `c` is `old` or an expression using it. False when a use is of
 * another kind or outside `now`'s function. `old` keeps its dead constant
 * users: GlobalDCE removes both.
 */
static bool replace_in_instructions(LLVMBuilderRef b, LLVMValueRef c, LLVMValueRef old,
                                    LLVMValueRef now)
{
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(now));
    size_t n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(c); u; u = LLVMGetNextUse(u))
        n++;
    LLVMValueRef users[n ? n : 1];
    n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(c); u; u = LLVMGetNextUse(u))
        users[n++] = LLVMGetUser(u);
    for (size_t k = 0; k < n; k++) {
        LLVMValueRef user = users[k];
        if (LLVMIsAConstantExpr(user)) {
            if (!replace_in_instructions(b, user, old, now))
                return false;
            continue;
        }
        if (dead_constant(user))
            continue;
        if (!LLVMIsAInstruction(user) ||
            LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) != fn)
            return false; /* a global's initializer, or another function */
        for (unsigned i = 0; i < (unsigned)LLVMGetNumOperands(user); i++) {
            if (LLVMGetOperand(user, i) != c)
                continue;
            LLVMValueRef v = c == old ? now : materialize(b, user, c, old, now);
            if (!v)
                return false;
            LLVMSetOperand(user, i, v);
        }
    }
    return true;
}

/*
 * The kernel's __local variables (Clang names them "<kernel>.<variable>")
 * become slices of wg->local_mem, laid out as compiler/program.c counts them.
 */
static int lower_static_locals(LLVMModuleRef m, LLVMValueRef sg, const char *kernel, char **log)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMValueRef entry = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(sg));
    LLVMValueRef base = NULL;
    size_t n = strlen(kernel);
    uint64_t offset = 0;
    int rc = 0;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m), next; g && rc == 0; g = next) {
        next = LLVMGetNextGlobal(g);
        size_t len;
        const char *name = LLVMGetValueName2(g, &len);
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != AS_LOCAL || len <= n || name[n] != '.' ||
            strncmp(name, kernel, n) != 0)
            continue;
        if (!base) {
            LLVMPositionBuilderBefore(b, entry);
            LLVMValueRef idx = LLVMConstInt(i64, LANES_WG_LOCAL_MEM, 0);
            LLVMValueRef slot =
                LLVMBuildInBoundsGEP2(b, i8, lanes_sg_param(sg, LANES_SG_WG), &idx, 1, "");
            base = LLVMBuildLoad2(b, LLVMPointerTypeInContext(ctx, 0), slot, "local_mem");
        }
        unsigned align = LLVMGetAlignment(g);
        if (align)
            offset = (offset + align - 1) / align * align;
        LLVMPositionBuilderBefore(b, entry);
        LLVMValueRef idx = LLVMConstInt(i64, offset, 0);
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, base, &idx, 1, "");
        p = LLVMBuildAddrSpaceCast(b, p, LLVMTypeOf(g), name);
        offset += LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
        if (!replace_in_instructions(b, g, g, p)) {
            *log = lanes_format("lanes: cannot place the __local variable %s\n", name);
            rc = -1;
        }
    }
    LLVMDisposeBuilder(b);
    LLVMDisposeTargetData(td);
    return rc;
}

/*
 * Deletes every defined function but `keep` that nothing uses any more:
 * after inlining, the other kernels and every callee. The variables'
 * remaining uses are then all in `keep`.
 */
static void drop_other_functions(LLVMModuleRef m, LLVMValueRef keep)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
            next = LLVMGetNextFunction(f);
            if (f != keep && !LLVMIsDeclaration(f) && !LLVMGetFirstUse(f)) {
                LLVMDeleteFunction(f);
                changed = true;
            }
        }
    }
}

/* True when `p` (a variable, or an address computed from it) is only read through. */
static bool only_read(LLVMValueRef p)
{
    for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (dead_constant(user))
            continue;
        if (LLVMIsAConstantExpr(user)) {
            LLVMOpcode op = LLVMGetConstOpcode(user);
            if ((op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast) ||
                LLVMGetOperand(user, 0) != p || !only_read(user))
                return false;
            continue;
        }
        if (!LLVMIsAInstruction(user))
            return false;
        switch (LLVMGetInstructionOpcode(user)) {
        case LLVMLoad: break;
        case LLVMGetElementPtr:
        case LLVMBitCast:
        case LLVMAddrSpaceCast:
            if (LLVMGetOperand(user, 0) != p || !only_read(user))
                return false;
            break;
        case LLVMCall: {
            /* The source of a copy (Clang copies aggregates with memcpy). */
            LLVMValueRef callee = LLVMGetCalledValue(user);
            size_t len;
            const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
            if ((strncmp(name, "llvm.memcpy", 11) != 0 && strncmp(name, "llvm.memmove", 12) != 0) ||
                LLVMGetOperand(user, 0) == p || LLVMGetOperand(user, 1) != p)
                return false;
            break;
        }
        default: return false;
        }
    }
    return true;
}

/*
 * The program's variables become addresses in wg->globals, the block of
 * the program object running the kernel (compiler/globals.h). A constant
 * the kernel only reads keeps its definition here instead, so that O3 folds
 * it and knows it never changes: its address is never seen, so this copy
 * cannot be told from the block's.
 */
static int lower_program_variables(LLVMModuleRef m, LLVMValueRef sg,
                                   const struct lanes_globals_layout *globals, char **log)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
    LLVMValueRef entry = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(sg));
    /* Their initializers are the block's business: dropping them leaves only uses in code. */
    bool copy[globals->count ? globals->count : 1];
    for (size_t i = 0; i < globals->count; i++) {
        const struct lanes_global_var *v = &globals->vars[i];
        copy[i] = false;
        if (!v->copyable)
            LLVMSetInitializer(v->var, LLVMConstNull(LLVMGlobalGetValueType(v->var)));
    }
    LLVMValueRef base = NULL;
    int rc = 0;
    for (size_t i = 0; i < globals->count && rc == 0; i++) {
        const struct lanes_global_var *v = &globals->vars[i];
        if (v->copyable && only_read(v->var)) {
            copy[i] = true;
            continue;
        }
        if (!LLVMGetFirstUse(v->var))
            continue;
        if (!base) {
            LLVMPositionBuilderBefore(b, entry);
            base = lanes_build_invariant_load(b, lanes_sg_param(sg, LANES_SG_WG), LANES_WG_GLOBALS,
                                              LLVMPointerTypeInContext(ctx, 0), "globals");
        }
        LLVMPositionBuilderBefore(b, entry);
        LLVMValueRef idx = LLVMConstInt(i64, v->offset, 0);
        LLVMValueRef p = LLVMBuildInBoundsGEP2(b, i8, base, &idx, 1, "");
        size_t len;
        const char *name = LLVMGetValueName2(v->var, &len);
        p = LLVMBuildAddrSpaceCast(b, p, LLVMTypeOf(v->var), name);
        if (!replace_in_instructions(b, v->var, v->var, p)) {
            *log = lanes_format("lanes: cannot place the program-scope variable %s\n", name);
            rc = -1;
        }
    }
    /* What stays is dead (GlobalDCE drops it), or a copy that must not be written to. */
    for (size_t i = 0; i < globals->count; i++)
        if (!copy[i])
            LLVMSetInitializer(globals->vars[i].var,
                               LLVMConstNull(LLVMGlobalGetValueType(globals->vars[i].var)));
    LLVMDisposeBuilder(b);
    return rc;
}

/*
 * True when `fn` calls a sub-group function (a query, a collective, a
 * shuffle, ...), a fence or a work-group barrier: then it sees how many
 * work-items a sub-group has.
 */
static bool sub_group_aware(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            size_t len;
            const char *callee = lanes_called_name(i, &len);
            if (!callee)
                continue;
            enum lanes_name q = lanes_name_lookup(callee, len);
            if ((q >= LANES_NAME_SUB_GROUP_SIZE && q <= LANES_NAME_SUB_GROUP_LOCAL_ID) ||
                q == LANES_NAME_BARRIER || q == LANES_NAME_FENCE ||
                lanes_name_deferred(callee, len))
                return true;
        }
    return false;
}

/* True when `fn` calls a work-group barrier (directly; callees are inlined first). */
static bool has_barrier(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            if (lanes_is_barrier(i))
                return true;
    return false;
}

/*
 * With one sub-group per work-group, a barrier only orders memory: it
 * becomes a fence (else it stays, for compiler/coroutine.c). Fences stay
 * fences.
 */
static void lower_fences(LLVMValueRef sg, bool keep_barriers)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(sg));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            size_t len;
            const char *name = lanes_called_name(i, &len);
            enum lanes_name what = name ? lanes_name_lookup(name, len) : LANES_NAME_NONE;
            if (what != LANES_NAME_FENCE && (what != LANES_NAME_BARRIER || keep_barriers))
                continue;
            LLVMPositionBuilderBefore(b, i);
            LLVMBuildFence(b, LLVMAtomicOrderingAcquireRelease, 0, "");
            LLVMInstructionEraseFromParent(i);
        }
    LLVMDisposeBuilder(b);
}

/*
 * Before the analyses of the vectorizer: the frontend's IR, inlined, still
 * holds every local variable in memory and many trivial blocks. None of
 * these passes moves a convergent call across a branch (jump threading
 * never duplicates a block that has one). Jump threading removes Clang's
 * cleanup destination slots (a phi of constants and a switch on it after a
 * break out of a scope with locals), which would otherwise become an exit
 * code blended in every iteration of a linearized loop. Small loops of a
 * constant trip count are unrolled in full, and SROA runs again, so that a
 * work-item's private array indexed by their counters (a GPU kernel's
 * register tile, float acc[4][4]) becomes values, not memory the vectorizer
 * would reach with gathers and scatters; unrolling only in full keeps every
 * convergent call where all the lanes that reached the loop meet it.
 */
/*
 * `#pragma unroll N` with a large N on a loop: LLVM's unroller honours the
 * count over clean_up's options, and a body copied N times costs the
 * vectorizer and the passes after it time that grows faster than N (a
 * count of 1000 took minutes; the source fuzzer's find), and at width 1 the
 * launcher's copies of the kernel multiply it. Past this count the hint is
 * dropped, with the loop's other hints (performance hints only: the
 * kernel's results do not depend on them).
 */
enum { MAX_UNROLL_PRAGMA = 32 };

static void drop_large_unroll_counts(LLVMValueRef fn)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    unsigned loop = LLVMGetMDKindIDInContext(ctx, "llvm.loop", 9);
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
        LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
        LLVMValueRef id = term ? LLVMGetMetadata(term, loop) : NULL;
        if (!id)
            continue;
        unsigned n = LLVMGetMDNodeNumOperands(id);
        LLVMValueRef *ops = malloc(n * sizeof *ops);
        if (!ops)
            continue;
        LLVMGetMDNodeOperands(id, ops);
        bool large = false;
        for (unsigned i = 1; i < n && !large; i++) { /* 0 is the node itself */
            if (!ops[i] || !LLVMIsAMDNode(ops[i]) || LLVMGetMDNodeNumOperands(ops[i]) != 2)
                continue;
            LLVMValueRef hint[2];
            LLVMGetMDNodeOperands(ops[i], hint);
            unsigned len = 0;
            const char *name = hint[0] ? LLVMGetMDString(hint[0], &len) : NULL;
            large = name && len == 22 && memcmp(name, "llvm.loop.unroll.count", 22) == 0 &&
                    hint[1] && LLVMIsAConstantInt(hint[1]) &&
                    LLVMConstIntGetZExtValue(hint[1]) > MAX_UNROLL_PRAGMA;
        }
        free(ops);
        if (large)
            LLVMSetMetadata(term, loop, NULL);
    }
}

/* Whether `fn` still keeps an array in memory (an alloca of an array type). */
static bool has_private_array(LLVMValueRef fn)
{
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == LLVMAlloca &&
                LLVMGetTypeKind(LLVMGetAllocatedType(i)) == LLVMArrayTypeKind)
                return true;
    return false;
}

static int clean_up(LLVMModuleRef m, LLVMValueRef sg, char **log)
{
    char *error = NULL;
    const char *passes = "function(sroa,early-cse,simplifycfg,instcombine<no-verify-fixpoint>,"
                         "jump-threading,simplifycfg,"
                         "loop-unroll<O3;no-partial;no-runtime;no-upperbound;no-profile-peeling>,"
                         "instcombine<no-verify-fixpoint>,simplifycfg,sroa)";
    /*
     * The unroller weighs a loop before the ones it holds were unrolled and
     * their arrays became values: a register tile's loop over its rows, whose
     * columns' loop it held, can weigh too much then and little after (an
     * Intel-style GEMM on half, float acc[6][4], stayed in memory: gathers
     * and scatters, 40 times slower). While an array stays in memory, one
     * more round.
     */
    const char *again =
        "function(loop-unroll<O3;no-partial;no-runtime;no-upperbound;no-profile-peeling>,"
        "instcombine<no-verify-fixpoint>,simplifycfg,sroa)";
    if (lanes_host_run_passes(m, passes, true, &error) != 0 ||
        (has_private_array(sg) && lanes_host_run_passes(m, again, true, &error) != 0)) {
        *log = lanes_format("lanes: cleaning up failed: %s\n", error);
        free(error);
        return -1;
    }
    return 0;
}

int lanes_specialize(LLVMModuleRef m, LLVMValueRef kernel, const struct lanes_specialization *spec,
                     const struct lanes_globals_layout *globals, struct lanes_specialized *out,
                     char **log)
{
    *out = (struct lanes_specialized){.vector_width = spec->width};
    size_t len;
    char *name = strdup(LLVMGetValueName2(kernel, &len));
    if (!name || inline_everything(m, log) != 0) {
        free(name);
        return -1;
    }
    lanes_make_division_safe(kernel);
    /* The launch's image formats: the clean-up (or O3) deletes the other formats' code. */
    lanes_fold_image_formats(kernel, spec);
    uint64_t items = 1;
    for (unsigned d = 0; d < 3; d++)
        items *= lanes_spec_group_size(spec, d);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    /*
     * Sub-groups that may wait on each other (independent forward progress,
     * compiler/yield.c) suspend in their loops of atomic or volatile accesses.
     */
    bool several = spec->dynamic || items > spec->width;
    bool spins = several && lanes_spin_loops(kernel, false) > 0;
    out->coroutine = several && (spins || has_barrier(kernel));
    out->aware = spec->width > 1 && sub_group_aware(kernel);
    LLVMValueRef sg = move_into_sg(
        m, kernel, out->coroutine ? LLVMPointerTypeInContext(ctx, 0) : LLVMVoidTypeInContext(ctx));
    out->sg = sg;
    /*
     * Barriers stay calls through the vectorizer even when they will be
     * fences: a convergent call keeps the clean-up passes from threading
     * branches across it, which would split the lanes between copies of it.
     */
    lower_fences(sg, out->coroutine || spec->width > 1);
    lanes_lower_workitem(sg, spec);
    lanes_lower_printf(sg);
    drop_other_functions(m, sg);
    int rc = lower_static_locals(m, sg, name, log);
    if (rc == 0)
        rc = lower_program_variables(m, sg, globals, log);
    drop_large_unroll_counts(sg);
    /* The vectorizer needs it; the generic space's queries fold on what SROA makes visible. */
    bool generic = lanes_calls_generic(sg);
    if (rc == 0 && (spec->width > 1 || generic)) {
        lanes_keep_wide_loops_rolled(sg, spec->width);
        if (spec->width > 1)
            lanes_mark_exit_paths(sg);
        rc = clean_up(m, sg, log);
    }
    if (rc == 0 && generic)
        lanes_lower_generic(sg);
    /* After clean_up's SROA: a pointer passed to an inlined function is no longer in memory. */
    if (rc == 0 && spec->width > 1)
        lanes_localize_atomics(sg);
    /*
     * After clean_up (SROA shows what a loop's conditions read, unrolling
     * removes loops): with no yield and no barrier, no coroutine after all.
     */
    if (rc == 0 && spins) {
        out->yields = lanes_spin_loops(sg, true) > 0;
        if (!out->yields && !has_barrier(sg)) {
            out->sg = sg = return_void(m, sg);
            out->coroutine = false;
        }
    }
    free(name);
    return rc;
}

int lanes_specialize_vectorize(struct lanes_specialized *s, const struct lanes_specialization *spec,
                               char **log)
{
    /* Latency-bound kernels: several sub-groups as one vector (compiler/interleave.c). */
    struct lanes_specialization wide = *spec;
    const char *items = NULL;
    /* Sub-groups that progress apart cannot share a vector. */
    wide.width *= lanes_interleave(s->sg, spec, s->aware || s->yields, &items);
    s->vector_width = wide.width;
    if (items) {
        /* Not a refusal but a choice; it takes the same road to width 1 (launcher.c). */
        *log = strdup(items);
        s->refused = true;
        return -1;
    }
    if (lanes_vectorize(&s->sg, &wide, log) != 0) {
        s->refused = true;
        return -1;
    }
    return 0;
}

void lanes_specialize_lower(struct lanes_specialized *s, const struct lanes_specialization *spec)
{
    lower_lane(s->sg);
    lanes_lower_local_atomics(s->sg);
    if (!s->coroutine && spec->width > 1)
        lower_fences(s->sg, false);
    if (s->coroutine)
        lanes_make_coroutine(s->sg, s->yields);
}
