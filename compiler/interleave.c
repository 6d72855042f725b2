/* SPDX-License-Identifier: MIT */
/*
 * Interleaved sub-groups (passes.h, lanes_interleave). One sub-group is one
 * vector: a kernel whose work-item is one chain of dependent operations
 * (Horner's rule, a hash's rounds, an iteration) keeps one vector
 * instruction in flight, and the arithmetic units wait on its latency. Run
 * k sub-groups of a work-group as one vector of k * W lanes instead, and
 * the code generator gives each of them a register of its own: k
 * independent chains, the same instructions.
 *
 * Only where the sub-group width cannot be seen: a kernel that calls no
 * sub-group function (not even get_sub_group_id: the caller checks that
 * before the work-item functions are lowered), no barrier and no fence,
 * whose work-groups are rows of a multiple of k * W work-items; its lowered
 * work-item functions then read the same at either width. What runs lane
 * by lane (atomics, calls) runs in the same lane order; an atomic combined
 * for a sub-group is combined for k of them, each lane seeing what it
 * would in turn. A kernel calling SLEEF's math stays within 16 lanes (the
 * vectorizer maps it up to 16 only), one with private arrays of more than
 * MAX_PRIVATE bytes a work-item at W.
 *
 * The cost rule, measured with bench_vectorize's chain (one chain of 64
 * dependent fma) and polynomial (8 independent chains) kernels: the block
 * with the most arithmetic sets the kernel's instruction-level parallelism,
 * its operations over its longest dependency chain. Below TARGET_ILP the
 * units starve (an AVX-512 fma has a latency of 4 cycles and 1 or 2 issue
 * a cycle): k is the power of two that brings it to TARGET_ILP, within
 * MAX_LANES lanes.
 */
#include "passes.h"

#include "abi.h"
#include "ir.h"
#include "vectorize/vz_cfg.h"
#include "width.h"
#include "workarounds.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_LANES = 64,      /* the widest vector the vectorizer makes */
    TARGET_ILP = 4,      /* independent operations in flight that keep the units busy */
    MIN_OPERATIONS = 16, /* less arithmetic than this in a block is not worth a wider vector */
    MAX_PRIVATE = 4096,  /* bytes of private arrays per work-item, at most */
};

/* LANES_INTERLEAVE: 0 to use the cost rule, 1 never to interleave, 2 or 4 always where allowed. */
unsigned lanes_interleave_setting(void)
{
    const char *v = getenv("LANES_INTERLEAVE");
    int n = v ? atoi(v) : 0;
    return n == 1 || n == 2 || n == 4 ? (unsigned)n : 0;
}

/* True for an instruction that takes an arithmetic unit's latency. */
static bool arithmetic(LLVMValueRef i)
{
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
    case LLVMFAdd:
    case LLVMFSub:
    case LLVMFMul:
    case LLVMFDiv:
    case LLVMFNeg:
    case LLVMSelect: return true;
    case LLVMCall: return LLVMGetIntrinsicID(LLVMGetCalledValue(i)) != 0;
    default: return false;
    }
}

/*
 * The widest vector `sg` may run at, at most `lanes`: LANES_LLVM19_SLEEF_LANES if it
 * calls SLEEF's math (which runs lane by lane wider), 0 when its private
 * arrays are big.
 */
static unsigned widest(LLVMValueRef sg, unsigned lanes)
{
    uint64_t private_bytes = 0;
    LLVMTargetDataRef td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(sg));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (LLVMIsACallInst(i)) {
                LLVMValueRef callee = LLVMGetCalledValue(i);
                size_t len;
                const char *name = LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : "";
                if (strncmp(name, "Sleef_", 6) == 0 && lanes > LANES_LLVM19_SLEEF_LANES)
                    lanes = LANES_LLVM19_SLEEF_LANES;
            } else if (LLVMIsAAllocaInst(i)) {
                private_bytes += LLVMABISizeOfType(td, LLVMGetAllocatedType(i));
            }
        }
    return private_bytes <= MAX_PRIVATE ? lanes : 0;
}

/* Depths of a block's instructions: open addressing on their addresses. */
struct depths {
    LLVMValueRef *key;
    unsigned *depth;
    size_t mask;
};

static size_t slot(const struct depths *t, LLVMValueRef v)
{
    size_t h = ((uintptr_t)v >> 4) * 0x9e3779b97f4a7c15u;
    for (size_t i = h & t->mask;; i = (i + 1) & t->mask)
        if (!t->key[i] || t->key[i] == v)
            return i;
}

/* Independent operations an instruction of type t makes: one per component of a vector. */
static unsigned components(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
}

/*
 * True when `v` may differ between work-items: it depends on the lane
 * (their ids are computed from it), a load or a phi, or is too deep or too
 * wide to follow (`*budget` instructions in all: an address that is a DAG
 * of shared uniform values would otherwise be walked once per path). A
 * load from such an address is each work-item's own; the others (c[k] of
 * a __constant table) are one scalar load for the whole vector.
 */
static bool per_item(LLVMValueRef v, unsigned depth, unsigned *budget)
{
    if (!LLVMIsAInstruction(v))
        return false;
    if (depth > 12 || !*budget || LLVMIsALoadInst(v) || LLVMIsAPHINode(v))
        return true;
    --*budget;
    if (LLVMIsACallInst(v)) {
        LLVMValueRef f = LLVMGetCalledValue(v);
        size_t len;
        if (LLVMIsAFunction(f) && strcmp(LLVMGetValueName2(f, &len), LANES_LANE_FUNCTION) == 0)
            return true;
    }
    for (int o = 0, n = LLVMGetNumOperands(v); o < n; o++)
        if (per_item(LLVMGetOperand(v, (unsigned)o), depth + 1, budget))
            return true;
    return false;
}

/* What the block with the most arithmetic does. */
struct busiest {
    unsigned ops; /* arithmetic operations, one per component of a vector */
    unsigned
        chain; /* the longest chain of them (operands from other blocks and phis start chains) */
    unsigned loads; /* components loaded from each work-item's own addresses */
    unsigned work;  /* ops + loads */
    unsigned wide;  /* of which on OpenCL vectors of WIDE components or more */
};

enum { WIDE = 8 };              /* float8, float16: half an AVX-512 register or more */
enum { PER_ITEM_BUDGET = 256 }; /* instructions per_item looks at for one load's address */

/* false when out of memory. */
static bool busiest_block(LLVMValueRef sg, struct busiest *best)
{
    *best = (struct busiest){.chain = 1};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb; bb = LLVMGetNextBasicBlock(bb)) {
        size_t n = 0;
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
            n++;
        size_t size = 16;
        while (size < 2 * n)
            size *= 2;
        struct depths t = {calloc(size, sizeof *t.key), calloc(size, sizeof *t.depth), size - 1};
        if (!t.key || !t.depth) {
            free(t.key);
            free(t.depth);
            return false;
        }
        struct busiest b = {0};
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            unsigned d = 0;
            if (!LLVMIsAPHINode(i))
                for (int o = 0, no = LLVMGetNumOperands(i); o < no; o++) {
                    LLVMValueRef op = LLVMGetOperand(i, o);
                    if (!LLVMIsAInstruction(op) || LLVMGetInstructionParent(op) != bb)
                        continue;
                    size_t at = slot(&t, op);
                    if (t.key[at] && t.depth[at] > d)
                        d = t.depth[at];
                }
            unsigned c = components(LLVMTypeOf(i));
            if (arithmetic(i)) {
                d++;
                b.ops += c;
            } else if (LLVMIsALoadInst(i) &&
                       per_item(LLVMGetOperand(i, 0), 0, &(unsigned){PER_ITEM_BUDGET})) {
                b.loads += c;
            } else if (!LLVMIsALoadInst(i)) {
                c = 0;
            }
            b.work += c;
            b.wide += c >= WIDE ? c : 0;
            size_t at = slot(&t, i);
            t.key[at] = i;
            t.depth[at] = d;
            if (d > b.chain)
                b.chain = d;
        }
        free(t.key);
        free(t.depth);
        if (b.ops > best->ops) {
            *best = b;
            if (!best->chain)
                best->chain = 1;
        }
    }
    return true;
}

/*
 * The busiest block's operations (a float4 add is four) over its longest
 * chain, in tenths. A block that loads at least one value of its own per
 * two steps of its chain is paced by memory, not by the chain's latency:
 * as if parallel enough.
 */
static unsigned parallelism_tenths(const struct busiest *b)
{
    if (b->ops < MIN_OPERATIONS || 2 * b->loads >= b->chain)
        return 10 * TARGET_ILP;
    return 10 * b->ops / b->chain;
}

/* A paced block whose work is mostly on vectors of WIDE components or more. */
static bool items_as_vectors(const struct busiest *b)
{
    return b->ops >= MIN_OPERATIONS && 2 * b->wide >= b->work && 2 * b->loads >= b->chain;
}

/*
 * Loops whose body, once vectorized, would be long: each operation on an
 * OpenCL vector of WIDE or more components becomes components * W / 16
 * AVX-512 instructions, where LLVM's unroller counts one. clpeak's float16
 * compute kernel (8 iterations of 16 float16 mad) unrolled in full became
 * 2,048 FMAs in a row at W = 16 and ran at 150-166 GFLOP/s; kept as a loop,
 * 229.
 */
enum { ROLLED_BODY = 128 }; /* AVX-512 instructions of wide-vector work in a body */

void lanes_keep_wide_loops_rolled(LLVMValueRef sg, uint32_t width)
{
    if (width < 2)
        return;
    /* A cheap look first: most kernels have no wide vector. */
    bool any = false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(sg); bb && !any;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !any; i = LLVMGetNextInstruction(i))
            any = components(LLVMTypeOf(i)) >= WIDE;
    struct vz_cfg *cfg = any ? vz_cfg_build(sg) : NULL;
    if (!cfg)
        return;
    for (LLVMBasicBlockRef h = LLVMGetFirstBasicBlock(sg); h; h = LLVMGetNextBasicBlock(h)) {
        if (vz_cfg_loop_of(cfg, h) != h)
            continue; /* not a loop's header */
        uint64_t body = 0;
        for (LLVMBasicBlockRef bb = h; bb; bb = LLVMGetNextBasicBlock(bb)) {
            if (!vz_cfg_loop_contains(cfg, h, bb))
                continue;
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                unsigned c = components(LLVMTypeOf(i));
                if (c >= WIDE && (arithmetic(i) || LLVMIsACallInst(i)))
                    body += (uint64_t)c * width / 16;
            }
        }
        if (body >= ROLLED_BODY)
            vz_cfg_keep_rolled(cfg, h);
    }
    vz_cfg_free(cfg);
}

unsigned lanes_interleave(LLVMValueRef sg, const struct lanes_specialization *spec,
                          bool sub_group_aware, const char **one_item)
{
    *one_item = NULL;
    uint32_t w = spec->width;
    if (w < 2 || sub_group_aware)
        return 1;
    struct busiest b;
    bool looked = false;
    if (!lanes_width_forced()) {
        looked = busiest_block(sg, &b);
        if (looked && items_as_vectors(&b)) {
            *one_item = "its work is on OpenCL vectors of 8 or more components, paced by its "
                        "loads: a work-item's vectors are SIMD vectors already (at width W each "
                        "would be W registers, transposed after every load and before every "
                        "store)";
            return 1;
        }
    }
    unsigned force = lanes_interleave_setting();
    if (spec->dynamic || force == 1)
        return 1;
    unsigned most = widest(sg, MAX_LANES) / w;
    uint64_t row = lanes_spec_group_size(spec, 0);
    while (most > 1 && row % (most * w) != 0)
        most /= 2;
    if (most < 2)
        return 1;
    if (force)
        return force < most ? force : most;
    if (!looked && !busiest_block(sg, &b))
        return 1; /* no memory to look */
    unsigned tenths = parallelism_tenths(&b), k = 1;
    while (k < most && k * tenths < 10 * TARGET_ILP)
        k *= 2;
    return k;
}
