/* SPDX-License-Identifier: MIT */
/*
 * IR that LLVM 19's x86 code generation mishandles, made safe by
 * lanes_llvm19_workarounds (compiler/workarounds.c) before it is compiled,
 * each sending the DAG combiner into an endless loop for AVX-512 (reduced
 * with llvm-reduce; llc-19 -mcpu=znver4 still loops on both):
 * - a redundant chain of <32 x i1> lane masks beside a masked gather of
 *   half the lanes (the source fuzzer's finding at W = 32);
 * - <8 x i1> masks made from bytes, combined by or and xor (difftest's
 *   seed 145 at W = 8, a barrier kernel's masks reloaded from its frame).
 * The compiles run under an alarm: a hang fails.
 */
#include "../../compiler/host.h"
#include "../../compiler/workarounds.h"
#include "../../compiler/jit.h"

#include <setjmp.h> /* cmocka needs these first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char endless_combine[] =
    "target triple = \"x86_64-pc-linux-gnu\"\n"
    "declare <32 x i32> @llvm.masked.gather.v32i32.v32p1(<32 x ptr addrspace(1)>, i32 immarg, "
    "<32 x i1>, <32 x i32>)\n"
    "declare void @llvm.masked.scatter.v32i32.v32p1(<32 x i32>, <32 x ptr addrspace(1)>, "
    "i32 immarg, <32 x i1>)\n"
    "define void @f(<32 x i32> %0, <32 x i1> %1, <32 x i1> %2, <32 x i1> %3) #0 {\n"
    "entry:\n"
    "  %4 = and <32 x i1> %1, <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, "
    "i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false, "
    "i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, i1 false, "
    "i1 false, i1 false, i1 false, i1 false, i1 false, i1 false>\n"
    "  %5 = tail call <32 x i32> @llvm.masked.gather.v32i32.v32p1(<32 x ptr addrspace(1)> "
    "zeroinitializer, i32 0, <32 x i1> %4, <32 x i32> zeroinitializer)\n"
    "  %6 = select <32 x i1> %4, <32 x i1> %2, <32 x i1> zeroinitializer\n"
    "  %7 = select <32 x i1> %6, <32 x i1> %1, <32 x i1> zeroinitializer\n"
    "  %narrow = select <32 x i1> %7, <32 x i1> %2, <32 x i1> zeroinitializer\n"
    "  %8 = zext <32 x i1> %narrow to <32 x i32>\n"
    "  %9 = add <32 x i32> %0, %8\n"
    "  tail call void @llvm.masked.scatter.v32i32.v32p1(<32 x i32> %9, <32 x ptr addrspace(1)> "
    "zeroinitializer, i32 0, <32 x i1> %1)\n"
    "  ret void\n"
    "}\n"
    "attributes #0 = { \"target-cpu\"=\"znver4\" }\n";

static const char masks_from_bytes[] =
    "target triple = \"x86_64-pc-linux-gnu\"\n"
    "declare void @llvm.masked.scatter.v8i32.v8p1(<8 x i32>, <8 x ptr addrspace(1)>, i32 immarg, "
    "<8 x i1>)\n"
    "define void @f(i8 %m8, <8 x i1> %x, i8 %c8, <8 x ptr addrspace(1)> %p, ptr %out) #0 {\n"
    "  %m = bitcast i8 %m8 to <8 x i1>\n"
    "  %c = bitcast i8 %c8 to <8 x i1>\n"
    "  %a = or <8 x i1> %c, %m\n"
    "  %b = xor <8 x i1> %m, %x\n"
    "  %r = or <8 x i1> %a, %b\n"
    "  %r8 = bitcast <8 x i1> %r to i8\n"
    "  store i8 %r8, ptr %out\n"
    "  %z = zext <8 x i1> %c to <8 x i32>\n"
    "  call void @llvm.masked.scatter.v8i32.v8p1(<8 x i32> %z, <8 x ptr addrspace(1)> %p, i32 4, "
    "<8 x i1> <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true>)\n"
    "  ret void\n"
    "}\n"
    "attributes #0 = { \"target-cpu\"=\"znver4\" }\n";

static LLVMModuleRef parse(LLVMContextRef ctx, const char *text, size_t size)
{
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, size, "bug.ll");
    LLVMModuleRef m;
    char *error = NULL;
    if (LLVMParseIRInContext(ctx, buf, &m, &error))
        fail_msg("%s", error);
    return m;
}

/* Compiles m under an alarm. */
static void compiles(LLVMModuleRef m)
{
    char *error = NULL;
    alarm(120);
    size_t size = 0;
    void *object = lanes_jit_emit_object(m, LANES_CODEGEN_FULL, &size, &error);
    alarm(0);
    if (!object)
        fail_msg("%s", error);
    assert_true(size > 0);
    free(object);
}

static int count(LLVMValueRef f, LLVMOpcode op)
{
    int n = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            n += LLVMGetInstructionOpcode(i) == op;
    return n;
}

static void masks_from_bytes_compile(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = parse(ctx, masks_from_bytes, sizeof masks_from_bytes - 1);
    LLVMValueRef f = LLVMGetNamedFunction(m, "f");
    lanes_llvm19_workarounds(m);
    /* The two masks made from bytes are loaded from a slot; the mask to byte stays. */
    assert_int_equal(count(f, LLVMBitCast), 1);
    assert_int_equal(count(f, LLVMAlloca), 1);
    compiles(m);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

static void redundant_masks_compile(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = parse(ctx, endless_combine, sizeof endless_combine - 1);
    LLVMValueRef f = LLVMGetNamedFunction(m, "f");
    assert_int_equal(count(f, LLVMSelect), 3);
    lanes_llvm19_workarounds(m);
    /* (m & k) & m and the like: only the first conjunction is left. */
    assert_int_equal(count(f, LLVMSelect), 1);
    compiles(m);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(redundant_masks_compile),
                                       cmocka_unit_test(masks_from_bytes_compile)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
