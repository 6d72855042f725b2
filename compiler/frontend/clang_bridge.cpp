// SPDX-License-Identifier: MIT
// Why C++: Clang has no C API for code generation (libclang only parses), so
// turning OpenCL C into an LLVM module in-process needs clang::CompilerInstance.
// This file is the whole of it; everything after it works on the LLVM-C API.

#include "frontend.h"

#include <clang/Basic/Stack.h>
#include <clang/Basic/Version.h>
#include <clang/Basic/DiagnosticDriver.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Sema/Sema.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/SHA256.h>
#include <clang/Driver/Options.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>
#include <llvm-c/Target.h>

#include <dlfcn.h>

#include <algorithm>
#include <mutex>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// compiler/frontend/lanes_extensions.h, embedded by lanes_extensions.S:
// its bytes, then a NUL, then the end symbol.
extern "C" const char lanes_extensions_header[], lanes_extensions_header_end[];

namespace
{

// In-memory files live here. A directory of its own (not the process's
// working directory) lets `#include <h>` reach them through one -I without
// exposing real files, while `#include "h"` finds them next to the source
// and diagnostics keep the names the caller gave.
constexpr const char *memory_dir = "/lanes-memory";
// Everything that is the same for every compile of the process.
struct process_info {
    std::string resource_dir; // empty when opencl-c.h cannot be found
    std::string triple, cpu;
    std::vector<std::string> features;
};

bool has_opencl_header(llvm::StringRef dir)
{
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, "include", "opencl-c.h");
    return llvm::sys::fs::exists(path);
}

// Clang's resource directory: the one baked in from Clang's CMake package,
// else <dir of libclang-cpp>/clang/<major>, which follows a relocated install.
std::string find_resource_dir()
{
    if (has_opencl_header(LANES_CLANG_RESOURCE_DIR))
        return LANES_CLANG_RESOURCE_DIR;
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&clang::noteBottomOfStack), &info) && info.dli_fname) {
        llvm::SmallString<256> lib;
        if (!llvm::sys::fs::real_path(info.dli_fname, lib)) {
            llvm::sys::path::remove_filename(lib);
            llvm::sys::path::append(lib, "clang", CLANG_VERSION_MAJOR_STRING);
            if (has_opencl_header(lib))
                return std::string(lib);
        }
    }
    return {};
}

process_info *make_process_info()
{
    auto *info = new process_info;
    info->resource_dir = find_resource_dir();
    info->triple = llvm::sys::getProcessTriple();
    info->cpu = std::string(llvm::sys::getHostCPUName());
    // Same construction as the clang driver's -march=native, sorted so that
    // the arguments are stable.
    for (const auto &f : llvm::sys::getHostCPUFeatures())
        info->features.push_back((f.second ? "+" : "-") + f.first().str());
    std::sort(info->features.begin(), info->features.end());
    return info;
}

// Made once, thread-safely, and never destroyed: a host thread may still
// compile while the process exits.
const process_info &get_process_info()
{
    static const process_info *info = make_process_info();
    return *info;
}

using arg_vector = std::vector<std::string>;

// The arguments the bridge fixes, after the caller's so that those cannot
// override them. `bad_feature` tells of a feature without its +/- sign.
arg_vector fixed_args(const process_info &proc, const lanes_frontend_request &req,
                      bool &bad_feature)
{
    arg_vector a = {"-triple", req.triple ? req.triple : proc.triple, "-target-cpu",
                    req.cpu ? req.cpu : proc.cpu};
    bad_feature = false;
    if (req.features) {
        llvm::SmallVector<llvm::StringRef, 64> list;
        llvm::StringRef(req.features).split(list, ',', -1, /*KeepEmpty=*/false);
        for (llvm::StringRef f : list) {
            bad_feature |= !f.starts_with("+") && !f.starts_with("-");
            a.insert(a.end(), {"-target-feature", f.str()});
        }
    } else {
        for (const std::string &f : proc.features)
            a.insert(a.end(), {"-target-feature", f});
    }
    a.insert(a.end(), {"-resource-dir", proc.resource_dir, "-internal-isystem",
                       proc.resource_dir + "/include", "-finclude-default-header",
                       // The built-ins from Clang's tables (opencl-c-base.h plus
                       // declarations made on lookup) rather than opencl-c.h: a
                       // fraction of the time, and they follow the OpenCL C 3.0
                       // feature macros, where opencl-c.h declares image functions
                       // even with __opencl_c_images off.
                       "-fdeclare-opencl-builtins",
                       // Keeps OpenCL address spaces apart on a CPU triple:
                       // private 0, global 1, constant 2, local 3, generic 4.
                       "-ffake-address-space-map", "-disable-llvm-passes", "-disable-O0-optnone",
                       "-x", "cl"});
    return a;
}

// The state of each of `names` after the caller's -cl-ext arguments, read
// as Clang reads them: in order, "+name" on, "-name" off, "+all"/"-all" all.
std::vector<bool> cl_ext_state(const arg_vector &caller, const char *const *names, size_t count)
{
    std::vector<bool> on(count, false);
    for (const std::string &arg : caller) {
        llvm::StringRef a(arg);
        if (!a.consume_front("-cl-ext="))
            continue;
        llvm::SmallVector<llvm::StringRef, 32> items;
        a.split(items, ',', -1, /*KeepEmpty=*/false);
        for (llvm::StringRef item : items) {
            bool plus = item.consume_front("+");
            if (!plus)
                item.consume_front("-");
            for (size_t i = 0; i < count; i++)
                if (item == "all" || item == names[i])
                    on[i] = plus;
        }
    }
    return on;
}

// Features whose macros opencl-c-base.h alone defines, and only for SPIR
// targets: Clang's -cl-ext accepts them but defines nothing, and its tables
// declare their built-ins (the atomics without _explicit, the work-group
// collectives) only when the macro is defined. The last -cl-ext of the
// caller decides; each feature it turns on becomes a -D.
arg_vector header_only_feature_defines(const arg_vector &caller)
{
    static const char *const header_only[] = {
        "__opencl_c_atomic_scope_device", "__opencl_c_atomic_scope_all_devices",
        "__opencl_c_work_group_collective_functions", "__opencl_c_read_write_images",
        // Clang 19 defines neither these extensions' macros nor their
        // features' on any target but SPIR, at any version; its tables
        // declare the built-ins when the macros are defined.
        "cl_khr_integer_dot_product", "__opencl_c_integer_dot_product_input_4x8bit",
        "__opencl_c_integer_dot_product_input_4x8bit_packed", "cl_khr_extended_bit_ops"};
    constexpr size_t count = sizeof header_only / sizeof *header_only;
    const std::vector<bool> on = cl_ext_state(caller, header_only, count);
    arg_vector defines;
    for (size_t i = 0; i < count; i++)
        if (on[i])
            defines.push_back(std::string("-D") + header_only[i] + "=1");
    return defines;
}

// The extensions whose built-ins Clang's tables lack, declared by
// lanes_extensions.h. Clang 19 defines the macros of the first two itself,
// from OpenCL C 1.2 on; it accepts the others in -cl-ext but defines
// nothing, so the bridge defines them, under the same condition since they
// require cl_intel_subgroups.
constexpr const char *header_extensions[] = {"cl_intel_subgroups",
                                             "cl_intel_subgroups_short",
                                             "cl_intel_subgroups_char",
                                             "cl_intel_subgroups_long",
                                             "cl_intel_subgroup_local_block_io",
                                             "cl_intel_subgroup_buffer_prefetch",
                                             "cl_intel_required_subgroup_size"};
constexpr size_t clang_defined_header_extensions = 2;

// The Khronos sub-group extensions: Clang 19 knows their built-ins (its
// tables declare them when the macro is defined) but defines the macros in
// opencl-c-base.h for SPIR targets only, from OpenCL C 2.0 on. The bridge
// defines those the caller's -cl-ext turns on, under the same condition,
// and lets their pragma pass (emit_action).
constexpr const char *subgroup_extensions[] = {
    "cl_khr_subgroup_extended_types",   "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",           "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",          "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate"};

// Clang warns on `#pragma OPENCL EXTENSION <name> : enable` for any name
// its own table does not mark as taking the pragma, on every target; the
// Khronos sub-group extensions need no pragma, Intel's newer ones are not in
// the table, but programs written for other drivers enable them anyway, and
// one built with -Werror must compile. The action accepts the pragma for
// each such extension the caller's -cl-ext turns on.
//
// It also lists the files the compile read from disk (headers of -I
// directories, Clang's own), each with the SHA-256 of what it read: a
// cached build stays good only while they are unchanged.
class emit_action : public clang::EmitLLVMOnlyAction
{
  public:
    emit_action(llvm::LLVMContext *ctx, std::vector<std::string> pragmas,
                llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory)
        : EmitLLVMOnlyAction(ctx), pragmas_(std::move(pragmas)), memory_(std::move(memory))
    {
    }

    // Lines "<sha256 in hex> <path>\n", one per file read from disk.
    const std::string &dependencies() const
    {
        return deps_;
    }

  protected:
    void ExecuteAction() override
    {
        clang::CompilerInstance &ci = getCompilerInstance();
        if (!pragmas_.empty() && ci.hasASTConsumer() && !ci.hasSema())
            ci.createSema(getTranslationUnitKind(), nullptr);
        if (ci.hasSema())
            for (const std::string &name : pragmas_)
                ci.getSema().getOpenCLOptions().acceptsPragma(name);
        EmitLLVMOnlyAction::ExecuteAction();
    }

    void EndSourceFileAction() override
    {
        clang::SourceManager &sm = getCompilerInstance().getSourceManager();
        for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it) {
            llvm::StringRef name = it->first.getName();
            std::optional<llvm::MemoryBufferRef> text = it->second->getBufferIfLoaded();
            if (!text || (memory_ && memory_->exists(name)))
                continue;
            llvm::SHA256 h;
            h.update(llvm::arrayRefFromStringRef(text->getBuffer()));
            std::array<uint8_t, 32> digest = h.final();
            deps_ += llvm::toHex(digest, /*LowerCase=*/true) + " " + name.str() + "\n";
        }
        EmitLLVMOnlyAction::EndSourceFileAction();
    }

  private:
    std::vector<std::string> pragmas_;
    llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory_;
    std::string deps_;
};

// Extensions of other drivers' programs whose pragma Clang 19 does not know
// (it knows cl_intel_subgroups and cl_intel_subgroups_short): accepted,
// when -cl-ext turns them on, at every OpenCL C version.
constexpr const char *pragma_only_extensions[] = {"cl_intel_subgroups_char",
                                                  "cl_intel_subgroups_long",
                                                  "cl_intel_subgroup_local_block_io",
                                                  "cl_intel_required_subgroup_size",
                                                  "cl_intel_subgroup_buffer_prefetch",
                                                  "cl_khr_integer_dot_product",
                                                  "cl_khr_extended_bit_ops"};

// Those of them the caller's -cl-ext turns on, for a program of OpenCL C 2.0 or later.
std::vector<std::string> subgroup_extensions_on(const clang::CompilerInstance &ci,
                                                const arg_vector &caller)
{
    constexpr size_t count = sizeof subgroup_extensions / sizeof *subgroup_extensions;
    std::vector<std::string> names;
    if (ci.getLangOpts().getOpenCLCompatibleVersion() < 200)
        return names;
    const std::vector<bool> on = cl_ext_state(caller, subgroup_extensions, count);
    for (size_t i = 0; i < count; i++)
        if (on[i])
            names.emplace_back(subgroup_extensions[i]);
    return names;
}

// Where the header lives in the in-memory file system: a directory no -I
// names, so that programs can neither include it again nor shadow it.
constexpr const char *extensions_header_path = "/lanes-builtin/lanes_extensions.h";

// Whether the program may name a built-in of lanes_extensions.h. Its ~300
// declarations cost 5 ms, more than the rest of a small program's parse,
// and every name in it begins with "intel": a program that never spells
// that, in its source or its arguments (-D ones, say; -cl-ext names the
// extensions), cannot call one, unless it includes a file (#include, or
// Clang's #import), not read here.
bool may_call_extension_builtins(const lanes_frontend_request &req, const arg_vector &caller)
{
    auto mentions = [](llvm::StringRef text) {
        return text.contains("intel") || text.contains("include") || text.contains("import");
    };
    if (mentions(llvm::StringRef(req.source.text ? req.source.text : "",
                                 req.source.text ? req.source.size : 0)))
        return true;
    return std::any_of(caller.begin(), caller.end(), [&](const std::string &arg) {
        return !llvm::StringRef(arg).starts_with("-cl-ext=") && mentions(arg);
    });
}

// Adds to `ci` what the extensions of lanes_extensions.h that the caller's
// -cl-ext turns on need: the macros Clang does not define and, when the
// program may call their built-ins, the header. Returns whether it is
// included; no extension on, nothing is done (no cost).
bool add_extensions_header(clang::CompilerInstance &ci, const lanes_frontend_request &req,
                           const arg_vector &caller)
{
    constexpr size_t count = sizeof header_extensions / sizeof *header_extensions;
    const std::vector<bool> on = cl_ext_state(caller, header_extensions, count);
    if (std::find(on.begin(), on.end(), true) == on.end() ||
        ci.getLangOpts().getOpenCLCompatibleVersion() < 120)
        return false;
    clang::PreprocessorOptions &pp = ci.getPreprocessorOpts();
    for (size_t i = clang_defined_header_extensions; i < count; i++)
        if (on[i])
            pp.addMacroDef(std::string(header_extensions[i]) + "=1");
    if (!may_call_extension_builtins(req, caller))
        return false;
    // After -finclude-default-header's opencl-c-base.h, whose types it uses.
    pp.Includes.push_back(extensions_header_path);
    return true;
}

// OpenCL C's usual -O2 code generation (TBAA, lifetime markers, none of the
// `noinline` that -O0 puts on every function) with no LLVM pass run here:
// the compiler optimizes after linking the builtins. A caller's -O wins.
constexpr const char *default_opt = "-O2";

void report(clang::DiagnosticsEngine &diags, llvm::StringRef message)
{
    diags.Report(diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")) << message;
}

// The caller's arguments alone, checked as cc1 would parse them, so that a
// flag missing its value at the end cannot swallow one of the fixed
// arguments, and a stray input file is named. Errors go to `log`.
bool check_caller_args(const arg_vector &caller, llvm::raw_ostream &log)
{
    std::vector<const char *> argv;
    for (const std::string &a : caller)
        argv.push_back(a.c_str());
    unsigned missing_index = 0, missing_count = 0;
    llvm::opt::InputArgList list = clang::driver::getDriverOptTable().ParseArgs(
        argv, missing_index, missing_count,
        llvm::opt::Visibility(clang::driver::options::CC1Option));
    llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> opts(new clang::DiagnosticOptions());
    clang::TextDiagnosticPrinter printer(log, opts.get());
    clang::DiagnosticsEngine diags(new clang::DiagnosticIDs(), opts, &printer, false);
    if (missing_count)
        diags.Report(clang::diag::err_drv_missing_argument)
            << list.getArgString(missing_index) << missing_count;
    for (const llvm::opt::Arg *a : list.filtered(clang::driver::options::OPT_INPUT))
        report(diags,
               "unexpected input file '" + std::string(a->getValue()) + "' among the arguments");
    return !diags.hasErrorOccurred();
}

// Parses `args` into `ci` with diagnostics printed to `log`, and takes out
// of the invocation whatever does not belong in somebody else's process:
// files written, stderr output, colours, deliberate leaks. False on errors.
bool set_up(clang::CompilerInstance &ci, const arg_vector &args, llvm::raw_ostream &log)
{
    // Parse into a buffer first, as cc1 does: the options that say how to
    // print diagnostics (-w, -Werror, ...) are only known afterwards.
    auto invocation = std::make_shared<clang::CompilerInvocation>();
    clang::TextDiagnosticBuffer parse_diags_buffer;
    bool ok;
    {
        llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> ids(new clang::DiagnosticIDs());
        llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> opts(new clang::DiagnosticOptions());
        clang::DiagnosticsEngine parse_diags(ids, opts, &parse_diags_buffer, false);
        std::vector<const char *> argv;
        for (const std::string &a : args)
            argv.push_back(a.c_str());
        ok = clang::CompilerInvocation::CreateFromArgs(*invocation, argv, parse_diags);
    }

    clang::DiagnosticOptions &diag_opts = invocation->getDiagnosticOpts();
    diag_opts.ShowColors = false;
    diag_opts.VerifyDiagnostics = false;
    diag_opts.DiagnosticLogFile.clear();
    diag_opts.DiagnosticSerializationFile.clear();
    clang::FrontendOptions &fe_opts = invocation->getFrontendOpts();
    fe_opts.DisableFree = false;
    fe_opts.ShowStats = false;
    fe_opts.StatsFile.clear();
    fe_opts.ShowHelp = false;
    fe_opts.ShowVersion = false;
    invocation->getCodeGenOpts().DisableFree = false;
    invocation->getCodeGenOpts().TimePasses = false;
    invocation->getDependencyOutputOpts() = clang::DependencyOutputOptions();
    invocation->getHeaderSearchOpts().Verbose = false;

    ci.setInvocation(invocation);
    ci.createDiagnostics(new clang::TextDiagnosticPrinter(log, &ci.getDiagnosticOpts()));
    ci.setVerboseOutputStream(log); // "1 error generated." and friends
    clang::DiagnosticsEngine &diags = ci.getDiagnostics();
    parse_diags_buffer.FlushDiagnostics(diags);

    if (!fe_opts.LLVMArgs.empty())
        report(diags, "'-mllvm' is not supported: it would set process-wide LLVM options");
    if (!fe_opts.Plugins.empty() || !fe_opts.AddPluginActions.empty())
        report(diags, "Clang plugins are not supported");
    if (fe_opts.Inputs.size() != 1)
        report(diags, "unexpected input file among the frontend arguments");
    return ok && !diags.hasErrorOccurred();
}

// A file system where `memory` (working directory memory_dir) overlays the
// real one, so that -I directories on disk keep working.
llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
make_file_system(llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> &memory)
{
    memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    auto overlay =
        llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
    overlay->pushOverlay(memory);
    memory->setCurrentWorkingDirectory(memory_dir);
    return overlay;
}

// The body of lanes_frontend_compile; diagnostics go to `log`.
std::unique_ptr<llvm::Module> compile(llvm::LLVMContext &ctx, const lanes_frontend_request &req,
                                      llvm::raw_ostream &log, std::string &deps)
{
    const process_info &proc = get_process_info();
    const std::string source_name =
        req.source.name && *req.source.name ? req.source.name : "input.cl";

    arg_vector caller;
    for (size_t i = 0; i < req.num_args; i++)
        caller.push_back(req.args[i] ? req.args[i] : "");
    if (!check_caller_args(caller, log))
        return nullptr;
    bool bad_feature;
    const arg_vector fixed = fixed_args(proc, req, bad_feature);

    arg_vector args = {default_opt};
    args.insert(args.end(), caller.begin(), caller.end());
    const arg_vector defines = header_only_feature_defines(caller);
    args.insert(args.end(), defines.begin(), defines.end());
    args.insert(args.end(), fixed.begin(), fixed.end());
    if (req.num_headers)
        args.insert(args.end(), {"-I", memory_dir});
    args.push_back(source_name);

    clang::CompilerInstance ci;
    bool ok = set_up(ci, args, log);
    clang::DiagnosticsEngine &diags = ci.getDiagnostics();
    if (proc.resource_dir.empty())
        report(diags, "cannot find Clang's resource directory (include/opencl-c.h); looked in "
                      "'" LANES_CLANG_RESOURCE_DIR "' and next to libclang-cpp");
    if (bad_feature)
        report(diags,
               "target features must read +name or -name, got '" + std::string(req.features) + "'");
    if (!ok || diags.hasErrorOccurred()) {
        ci.getDiagnosticClient().finish();
        return nullptr;
    }

    llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory;
    auto file_system = make_file_system(memory);
    // Copies, because the lexer needs a NUL after the last byte.
    auto add_file = [&](const lanes_frontend_file &f, const std::string &name) {
        llvm::StringRef text(f.text ? f.text : "", f.text ? f.size : 0);
        if (!memory->addFile(name, 0, llvm::MemoryBuffer::getMemBufferCopy(text, name)))
            report(diags, "in-memory file '" + name + "' is given twice with different contents");
    };
    const std::vector<std::string> subgroup_names = subgroup_extensions_on(ci, caller);
    for (const std::string &name : subgroup_names)
        ci.getPreprocessorOpts().addMacroDef(name + "=1");
    std::vector<std::string> pragmas = subgroup_names;
    {
        constexpr size_t count = sizeof pragma_only_extensions / sizeof *pragma_only_extensions;
        const std::vector<bool> on = cl_ext_state(caller, pragma_only_extensions, count);
        for (size_t i = 0; i < count; i++)
            if (on[i])
                pragmas.emplace_back(pragma_only_extensions[i]);
    }
    if (add_extensions_header(ci, req, caller)) {
        // First, so that a caller's file of the same name is the one refused.
        // Embedded with a NUL after its last byte: no copy needed.
        llvm::StringRef text(lanes_extensions_header,
                             lanes_extensions_header_end - lanes_extensions_header - 1);
        memory->addFile(extensions_header_path, 0,
                        llvm::MemoryBuffer::getMemBuffer(text, extensions_header_path));
    }
    add_file(req.source, source_name);
    for (size_t i = 0; i < req.num_headers; i++) {
        const lanes_frontend_file &h = req.headers[i];
        if (!h.name || !*h.name)
            report(diags, "in-memory header " + std::to_string(i) + " has no name");
        else
            add_file(h, h.name);
    }
    if (diags.hasErrorOccurred()) {
        ci.getDiagnosticClient().finish();
        return nullptr;
    }
    ci.createFileManager(file_system);

    // The action generates into the caller's context, so the module needs
    // no copy and belongs to the caller from the start.
    emit_action action(&ctx, std::move(pragmas), memory);
    if (!ci.ExecuteAction(action))
        return nullptr;
    deps = action.dependencies();
    return action.takeModule();
}

char *copy_string(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p)
        std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

} // namespace

extern "C" void lanes_frontend_init_targets(void)
{
    static std::once_flag once;
    std::call_once(once, [] {
        LLVMInitializeNativeTarget();
        LLVMInitializeNativeAsmPrinter();
    });
}

extern "C" int lanes_frontend_compile(LLVMContextRef ctx, const struct lanes_frontend_request *req,
                                      struct lanes_frontend_result *out)
{
    if (!out)
        return -1;
    out->module = nullptr;
    out->log = nullptr;
    out->deps = nullptr;
    if (!ctx || !req || (req->num_args && !req->args) || (req->num_headers && !req->headers) ||
        (req->source.size && !req->source.text)) {
        out->log = copy_string("error: invalid arguments to lanes_frontend_compile\n");
        return -1;
    }

    // Clang's back-end step looks the target up (EmitBackendOutput): it must
    // not race the registration on another thread (frontend.h).
    lanes_frontend_init_targets();
    // Lets Clang notice deep recursion on this thread before it overflows.
    clang::noteBottomOfStack();
    std::string log;
    llvm::raw_string_ostream log_stream(log);
    std::string deps;
    std::unique_ptr<llvm::Module> module = compile(*llvm::unwrap(ctx), *req, log_stream, deps);
    log_stream.flush();

    out->log = copy_string(log);
    out->deps = copy_string(deps);
    if (!module || !out->log || !out->deps)
        return -1;
    out->module = llvm::wrap(module.release());
    return 0;
}
