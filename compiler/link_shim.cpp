// SPDX-License-Identifier: MIT
// Why C++: the LLVM-C API links modules only whole (LLVMLinkModules2), which
// would copy every function of the built-in library into every program
// (ARCHITECTURE.md §8). Linker::LinkOnlyNeeded, as `llvm-link --only-needed`
// does, exists in C++ only. What it links stays external, so that a function
// linked from a later module binds to it; compiler/builtins.c internalizes
// the library's functions once every module is in.

#include "link_shim.h"

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace
{

// Collects the linker's messages instead of LLVM's default of printing them
// (and exiting on errors).
struct collect_diagnostics : llvm::DiagnosticHandler {
    std::string *out;
    explicit collect_diagnostics(std::string *o) : out(o)
    {
    }
    bool handleDiagnostics(const llvm::DiagnosticInfo &di) override
    {
        if (di.getSeverity() == llvm::DS_Error) {
            llvm::raw_string_ostream os(*out);
            llvm::DiagnosticPrinterRawOStream printer(os);
            di.print(printer);
            os << "\n";
        }
        return true;
    }
};

} // namespace

extern "C" int lanes_link_only_needed(LLVMModuleRef dst_ref, LLVMModuleRef src_ref,
                                      bool (*skip)(const char *name, size_t length), char **error)
{
    llvm::Module &dst = *llvm::unwrap(dst_ref);
    std::unique_ptr<llvm::Module> src(llvm::unwrap(src_ref));
    // Unmaterialized bodies are dropped without being read, and with them
    // what the library's optimizer inferred from them: a width-1 sub-group
    // function `returned` its operand and touched no memory, which would
    // let LLVM fold or move the call the vectorizer must see where it is.
    // Declarations of them (another chunk's calls) carry the same inferences.
    if (skip)
        for (llvm::Function &f : *src) {
            if (!skip(f.getName().data(), f.getName().size()))
                continue;
            if (!f.isDeclaration())
                f.deleteBody();
            for (unsigned a = 0; a < f.arg_size(); a++)
                f.removeParamAttr(a, llvm::Attribute::Returned);
            for (llvm::Attribute::AttrKind k :
                 {llvm::Attribute::Memory, llvm::Attribute::WillReturn, llvm::Attribute::NoSync,
                  llvm::Attribute::NoFree, llvm::Attribute::Speculatable})
                f.removeFnAttr(k);
            f.addFnAttr(llvm::Attribute::Convergent);
        }
    llvm::LLVMContext &ctx = dst.getContext();
    // The library is built for the generic x86-64 triple: take the program's
    // so that the linker has nothing to warn about.
    src->setTargetTriple(dst.getTargetTriple());
    src->setDataLayout(dst.getDataLayout());

    std::string messages;
    auto previous = ctx.getDiagnosticHandler();
    ctx.setDiagnosticHandler(std::make_unique<collect_diagnostics>(&messages));
    bool failed = llvm::Linker::linkModules(dst, std::move(src), llvm::Linker::LinkOnlyNeeded);
    ctx.setDiagnosticHandler(std::move(previous));
    if (!failed)
        return 0;
    if (messages.empty())
        messages = "linking the built-in library failed";
    *error = static_cast<char *>(std::malloc(messages.size() + 1));
    if (*error)
        std::memcpy(*error, messages.c_str(), messages.size() + 1);
    return -1;
}
