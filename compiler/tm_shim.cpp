// SPDX-License-Identifier: MIT
// Why C++: the LLVM-C API creates target machines but cannot set their
// options: the stack-size section (one entry per function: its frame in
// bytes) is a TargetOptions flag, which compiler/jit.c reads to know how
// much stack a launcher needs before it runs on a thread; and the code
// generator's optimization level is fixed at creation.

#include <llvm-c/TargetMachine.h>
#include <llvm/Target/TargetMachine.h>

// Declared in host.h (a C header).
extern "C" void lanes_host_emit_stack_sizes(LLVMTargetMachineRef tm);

void lanes_host_emit_stack_sizes(LLVMTargetMachineRef tm)
{
    // LLVMTargetMachineRef is a TargetMachine * (lib/Target/TargetMachineC.cpp).
    reinterpret_cast<llvm::TargetMachine *>(tm)->Options.EmitStackSizeSection = true;
}

// Declared in host.h.
extern "C" void lanes_host_set_fast_codegen(LLVMTargetMachineRef tm, bool fast);

void lanes_host_set_fast_codegen(LLVMTargetMachineRef tm, bool fast)
{
    reinterpret_cast<llvm::TargetMachine *>(tm)->setOptLevel(
        fast ? llvm::CodeGenOptLevel::None : llvm::CodeGenOptLevel::Aggressive);
}
