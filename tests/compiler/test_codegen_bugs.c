/* SPDX-License-Identifier: MIT */
/*
 * IR that LLVM 19's x86 code generation mishandles, made safe by
 * lanes_host_avoid_codegen_bugs (compiler/host.c) before it is compiled:
 * a redundant chain of <32 x i1> lane masks beside a masked gather of half
 * the lanes, which sent the DAG combiner into an endless loop for AVX-512
 * (the source fuzzer's finding at W = 32, reduced with llvm-reduce; llc-19
 * still loops on it). The compile runs under an alarm: a hang fails.
 */
#include "../../compiler/host.h"
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

static int selects_of_masks(LLVMValueRef f)
{
    int n = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            n += LLVMGetInstructionOpcode(i) == LLVMSelect;
    return n;
}

static void redundant_masks_compile(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
        endless_combine, sizeof endless_combine - 1, "endless_combine.ll");
    LLVMModuleRef m;
    char *error = NULL;
    if (LLVMParseIRInContext(ctx, buf, &m, &error))
        fail_msg("%s", error);
    LLVMValueRef f = LLVMGetNamedFunction(m, "f");
    assert_int_equal(selects_of_masks(f), 3);
    lanes_host_avoid_codegen_bugs(m);
    /* (m & k) & m and the like: only the first conjunction is left. */
    assert_int_equal(selects_of_masks(f), 1);
    alarm(120);
    size_t size = 0;
    void *object = lanes_jit_emit_object(m, LANES_CODEGEN_FULL, &size, &error);
    alarm(0);
    if (!object)
        fail_msg("%s", error);
    assert_true(size > 0);
    free(object);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(redundant_masks_compile)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
