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
extern "C" void lanes_host_set_codegen_level(LLVMTargetMachineRef tm, int level);

void lanes_host_set_codegen_level(LLVMTargetMachineRef tm, int level)
{
    static const llvm::CodeGenOptLevel levels[] = {
        llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less, llvm::CodeGenOptLevel::Default,
        llvm::CodeGenOptLevel::Aggressive};
    reinterpret_cast<llvm::TargetMachine *>(tm)->setOptLevel(levels[level < 0   ? 0
                                                                    : level > 3 ? 3
                                                                                : level]);
}
