// SPDX-License-Identifier: MIT
// Why C++: the LLVM-C API creates target machines but cannot set their
// options: the stack-size section (one entry per function: its frame in
// bytes) is a TargetOptions flag, which compiler/jit.c reads to know how
// much stack a launcher needs before it runs on a thread; the code
// generator's optimization level is fixed at creation; its passes' own
// options are reachable only by parsing a command line; and it has no
// call that splits a basic block.

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>

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

// Declared in host.h.
extern "C" void lanes_host_split_long_blocks(LLVMModuleRef m, unsigned most);

void lanes_host_split_long_blocks(LLVMModuleRef m, unsigned most)
{
    // Each part ends in a branch to the next: the code generator sees the
    // same instructions in blocks it selects and schedules one at a time.
    for (llvm::Function &f : *llvm::unwrap(m)) {
        if (f.isDeclaration())
            continue;
        llvm::SmallVector<llvm::BasicBlock *, 16> work;
        for (llvm::BasicBlock &bb : f)
            work.push_back(&bb);
        while (!work.empty()) {
            llvm::BasicBlock *bb = work.pop_back_val();
            if (bb->size() <= most)
                continue;
            // Past the phis, and past the entry block's allocas (which stay static).
            auto it = bb->getFirstNonPHIOrDbgOrAlloca();
            unsigned n = 0;
            for (; it != bb->end() && n < most; ++it)
                n++;
            if (it == bb->end() || it->isTerminator() || std::next(it) == bb->end())
                continue;
            work.push_back(bb->splitBasicBlock(it, "lanes.split"));
        }
    }
}

// Declared in host.h.
extern "C" void lanes_host_tune_code_generator(void);

void lanes_host_tune_code_generator(void)
{
    static std::once_flag once;
    std::call_once(once, [] {
        // X86's domain reassignment moves chains of scalar integer
        // operations into AVX-512 mask registers, in time superlinear in a
        // block's size: a kernel of 13,000 scalar instructions (a hash's
        // rounds at width 1) spent 24 s of its 27 s of code generation in
        // it. Process-wide, like every option of LLVM's passes.
        llvm::StringMap<llvm::cl::Option *> &options = llvm::cl::getRegisteredOptions();
        auto it = options.find("disable-x86-domain-reassignment");
        if (it != options.end())
            it->second->addOccurrence(0, it->first(), "true");
    });
}
