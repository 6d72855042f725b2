/* SPDX-License-Identifier: MIT */
/* Helpers on LLVM IR that the passes share (compiler/ir.h). */
#include "ir.h"

#include <llvm-c/Core.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LLVMValueRef lanes_sg_param(LLVMValueRef sg, enum lanes_sg_param p)
{
    return LLVMGetParam(sg, LLVMCountParams(sg) - LANES_SG_NUM_PARAMS + (unsigned)p);
}

void lanes_add_fn_attr(LLVMValueRef f, const char *name)
{
    LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(f));
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, kind, 0));
}

static LLVMValueRef lane_function(LLVMModuleRef m)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, LANES_LANE_FUNCTION);
    if (f)
        return f;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    f = LLVMAddFunction(m, LANES_LANE_FUNCTION,
                        LLVMFunctionType(LLVMInt32TypeInContext(ctx), NULL, 0, 0));
    /* Reads nothing and always gives the same lane: CSE may merge the calls. */
    lanes_add_fn_attr(f, "nounwind");
    lanes_add_fn_attr(f, "willreturn");
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName("memory", 6), 0));
    return f;
}

LLVMValueRef lanes_build_lane(LLVMBuilderRef b, LLVMValueRef sg)
{
    LLVMValueRef f = lane_function(LLVMGetGlobalParent(sg));
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, NULL, 0, "lane");
}

const char *lanes_called_name(LLVMValueRef i, size_t *length)
{
    LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
    if (!callee || !LLVMIsAFunction(callee))
        return NULL;
    return LLVMGetValueName2(callee, length);
}

void lanes_replace_calls(LLVMValueRef f, LLVMBuilderRef b, lanes_call_lowering lower, void *ctx)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb)) {
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
            next = LLVMGetNextInstruction(i);
            size_t len;
            const char *callee = lanes_called_name(i, &len);
            if (!callee)
                continue;
            LLVMPositionBuilderBefore(b, i);
            LLVMValueRef v = lower(i, callee, ctx);
            if (!v)
                continue;
            LLVMReplaceAllUsesWith(i, v);
            LLVMInstructionEraseFromParent(i);
        }
    }
}

LLVMValueRef lanes_build_intrinsic(LLVMModuleRef m, LLVMBuilderRef b, const char *name,
                                   LLVMTypeRef overload, LLVMValueRef *args, unsigned n)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    size_t count = overload ? 1 : 0;
    LLVMValueRef f = LLVMGetIntrinsicDeclaration(m, id, &overload, count);
    LLVMTypeRef t = LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, &overload, count);
    return LLVMBuildCall2(b, t, f, args, n, "");
}

LLVMValueRef lanes_build_invariant_load(LLVMBuilderRef b, LLVMValueRef base,
                                        unsigned long long offset, LLVMTypeRef type,
                                        const char *name)
{
    LLVMContextRef ctx = LLVMGetTypeContext(type);
    LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(ctx), offset, 0);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(b, LLVMInt8TypeInContext(ctx), base, &idx, 1, "");
    LLVMValueRef v = LLVMBuildLoad2(b, type, p, name);
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(ctx, "invariant.load", 14),
                    LLVMMDNodeInContext(ctx, NULL, 0));
    return v;
}

size_t lanes_count_instructions(LLVMModuleRef m, size_t *functions)
{
    size_t bodies = 0, instructions = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        bodies += !LLVMIsDeclaration(f);
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
                instructions++;
    }
    if (functions)
        *functions = bodies;
    return instructions;
}

char *lanes_format(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return strdup(buf);
}
