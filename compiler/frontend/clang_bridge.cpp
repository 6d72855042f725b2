// SPDX-License-Identifier: MIT
// Why C++: Clang has no C API for code generation (libclang only parses), so
// turning OpenCL C into an LLVM module in-process needs clang::CompilerInstance.
// This file is the whole of it; everything after it works on the LLVM-C API.

#include "frontend.h"

#include <clang/Basic/Stack.h>
#include <clang/Basic/Version.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/TextDiagnosticBuffer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Serialization/ASTReader.h>
#include <clang/Serialization/ASTWriter.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <list>
#include <mutex>
#include <string>
#include <vector>

namespace {

// In-memory files live here. A directory of its own (not the process's
// working directory) lets `#include <h>` reach them through one -I without
// exposing real files, while `#include "h"` finds them next to the source
// and diagnostics keep the names the caller gave.
constexpr const char *memory_dir = "/lanes-memory";
// The precompiled opencl-c.h and the empty file it was built from (the
// reader checks that this one still exists, so every compile gets it).
constexpr const char *pch_path = "/lanes-memory/.lanes-opencl-c.pch";
constexpr const char *pch_stub_path = "/lanes-memory/.lanes-opencl-c-pch.cl";
// At most this many PCHs (3-4 MB each) per process; other option sets
// parse opencl-c.h as text.
constexpr size_t max_pchs = 8;

// Everything that is the same for every compile of the process.
struct process_info {
    std::string resource_dir; // empty when opencl-c.h cannot be found
    std::string triple, cpu;
    std::vector<std::string> features;
    llvm::StringSet<> header_identifiers; // every identifier of opencl-c{,-base}.h
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

// A -D or -U of a name the default headers mention can change what they
// declare, so such macros must be part of the PCH; others cannot.
void scan_identifiers(const std::string &path, llvm::StringSet<> &out)
{
    auto buf = llvm::MemoryBuffer::getFile(path);
    if (!buf)
        return;
    llvm::StringRef text = (*buf)->getBuffer();
    for (size_t i = 0; i < text.size();) {
        char c = text[i];
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            size_t j = i + 1;
            while (j < text.size() &&
                   (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
                j++;
            out.insert(text.slice(i, j));
            i = j;
        } else {
            i++;
        }
    }
}

const process_info &get_process_info()
{
    static process_info info;
    static std::once_flag once;
    std::call_once(once, [] {
        info.resource_dir = find_resource_dir();
        info.triple = llvm::sys::getProcessTriple();
        info.cpu = std::string(llvm::sys::getHostCPUName());
        // Same construction as the clang driver's -march=native; sorted so
        // that the arguments, and the PCH keys made of them, are stable.
        for (const auto &f : llvm::sys::getHostCPUFeatures())
            info.features.push_back((f.second ? "+" : "-") + f.first().str());
        std::sort(info.features.begin(), info.features.end());
        if (!info.resource_dir.empty()) {
            scan_identifiers(info.resource_dir + "/include/opencl-c.h", info.header_identifiers);
            scan_identifiers(info.resource_dir + "/include/opencl-c-base.h",
                             info.header_identifiers);
        }
    });
    return info;
}

using arg_vector = std::vector<std::string>;

// The arguments the bridge fixes, after the caller's so that those cannot
// override them. `bad_feature` tells of a feature without its +/- sign.
arg_vector fixed_args(const process_info &proc, const lanes_frontend_request &req,
                      bool &bad_feature)
{
    arg_vector a = {"-triple", req.triple ? req.triple : proc.triple,
                    "-target-cpu", req.cpu ? req.cpu : proc.cpu};
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
                       // Keeps OpenCL address spaces apart on a CPU triple:
                       // private 0, global 1, constant 2, local 3, generic 4.
                       "-ffake-address-space-map", "-disable-llvm-passes", "-disable-O0-optnone",
                       "-x", "cl"});
    return a;
}

// OpenCL C's usual -O2 code generation (TBAA, lifetime markers, none of the
// `noinline` that -O0 puts on every function) with no LLVM pass run here:
// the compiler optimizes after linking the builtins. A caller's -O wins.
constexpr const char *default_opt = "-O2";

// The caller's arguments that may change what opencl-c.h declares: all but
// include paths, warning switches, -cl-kernel-arg-info and macros the
// headers never mention. Whatever is left out here must not matter to the
// PCH; whatever is kept only costs a PCH of its own.
arg_vector pch_caller_args(const arg_vector &caller, const process_info &proc)
{
    auto joined_or_separate = [](llvm::StringRef a, const char *flag) {
        return a.starts_with(flag) ? (a.size() > std::strlen(flag) ? 1 : 2) : 0;
    };
    bool macros_matter = false;
    arg_vector kept, macros;
    for (size_t i = 0; i < caller.size(); i++) {
        llvm::StringRef a = caller[i];
        int n = 0;
        for (const char *flag : {"-I", "-isystem", "-iquote", "-idirafter"})
            if ((n = joined_or_separate(a, flag)))
                break;
        if (n) {
            i += n - 1;
            continue;
        }
        if (a == "-w" || a.starts_with("-W") || a == "-cl-kernel-arg-info")
            continue;
        n = joined_or_separate(a, "-D");
        if (!n)
            n = joined_or_separate(a, "-U");
        if (n) {
            llvm::StringRef def = n == 1 ? a.drop_front(2)
                                  : i + 1 < caller.size() ? llvm::StringRef(caller[i + 1])
                                                          : llvm::StringRef();
            macros_matter |= proc.header_identifiers.contains(def.split('=').first);
            for (int k = 0; k < n && i < caller.size(); k++)
                macros.push_back(caller[i++]);
            i--;
            continue;
        }
        kept.push_back(caller[i]);
    }
    // One macro of theirs may expand into another: all or none.
    if (macros_matter)
        kept.insert(kept.end(), macros.begin(), macros.end());
    return kept;
}

// Precompiled opencl-c.h per option set, built on the second compile that
// asks for it, so that a process compiling once never pays for one.
struct pch_entry {
    std::string key;
    unsigned uses = 0;
    bool building = false, failed = false;
    std::shared_ptr<const std::string> data;
};

std::mutex pch_mutex;
std::list<pch_entry> pch_entries; // guarded by pch_mutex

// The PCH for `key` if there is one; else sets `build` when this caller
// should build it (and then publish it, even as a failure).
std::shared_ptr<const std::string> pch_lookup(const std::string &key, bool &build)
{
    std::lock_guard<std::mutex> lock(pch_mutex);
    build = false;
    auto e = std::find_if(pch_entries.begin(), pch_entries.end(),
                          [&](const pch_entry &x) { return x.key == key; });
    if (e == pch_entries.end()) {
        if (pch_entries.size() < max_pchs)
            pch_entries.push_back(pch_entry{key, 1, false, false, nullptr});
        return nullptr;
    }
    e->uses++;
    if (!e->data && !e->building && !e->failed && e->uses >= 2)
        build = e->building = true;
    return e->data;
}

void pch_publish(const std::string &key, std::shared_ptr<const std::string> data)
{
    std::lock_guard<std::mutex> lock(pch_mutex);
    for (pch_entry &e : pch_entries) {
        if (e.key == key) {
            e.building = false;
            e.failed = !data;
            e.data = std::move(data);
        }
    }
}

// What -emit-pch does, but into memory rather than into a file.
class memory_pch_action : public clang::ASTFrontendAction {
public:
    std::shared_ptr<clang::PCHBuffer> buffer = std::make_shared<clang::PCHBuffer>();

private:
    std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci,
                                                          llvm::StringRef) override
    {
        return std::make_unique<clang::PCHGenerator>(
            ci.getPreprocessor(), ci.getModuleCache(), pch_path, /*isysroot=*/"", buffer,
            ci.getFrontendOpts().ModuleFileExtensions, /*AllowASTWithErrors=*/false,
            bool(ci.getFrontendOpts().IncludeTimestamps));
    }
    clang::TranslationUnitKind getTranslationUnitKind() override
    {
        return clang::TU_Prefix;
    }
    bool hasASTFileSupport() const override
    {
        return false;
    }
    bool BeginSourceFileAction(clang::CompilerInstance &ci) override
    {
        ci.getLangOpts().CompilingPCH = true;
        return true;
    }
};

void report(clang::DiagnosticsEngine &diags, llvm::StringRef message)
{
    diags.Report(diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0")) << message;
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
    memory->addFile(pch_stub_path, 0, llvm::MemoryBuffer::getMemBuffer("", pch_stub_path));
    return overlay;
}

// Precompiles the default header with `args` (the compile's own arguments
// less the ones that cannot matter). NULL when that fails.
std::shared_ptr<const std::string> build_pch(const arg_vector &args)
{
    std::string log; // the program's log will tell of any real problem
    llvm::raw_string_ostream log_stream(log);
    clang::CompilerInstance ci;
    if (!set_up(ci, args, log_stream))
        return nullptr;
    llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory;
    ci.createFileManager(make_file_system(memory));
    memory_pch_action action;
    if (!ci.ExecuteAction(action) || !action.buffer->IsComplete)
        return nullptr;
    const auto &data = action.buffer->Data;
    // A std::string keeps a NUL after the end, as MemoryBuffer likes.
    return std::make_shared<const std::string>(data.begin(), data.end());
}

// Asks Clang whether it would take the PCH at pch_path for `ci`, so that a
// mismatch means parsing opencl-c.h as text rather than an error. The
// language options must first be adjusted to the target, as ExecuteAction
// will do; that is done on copies, quietly, so nothing is reported twice.
bool pch_acceptable(clang::CompilerInstance &ci)
{
    clang::DiagnosticsEngine quiet(new clang::DiagnosticIDs(), new clang::DiagnosticOptions(),
                                   new clang::IgnoringDiagConsumer());
    auto target_opts = std::make_shared<clang::TargetOptions>(ci.getTargetOpts());
    llvm::IntrusiveRefCntPtr<clang::TargetInfo> target(
        clang::TargetInfo::CreateTargetInfo(quiet, target_opts));
    if (!target)
        return false;
    clang::LangOptions lang_opts = ci.getLangOpts();
    target->adjust(quiet, lang_opts);
    return clang::ASTReader::isAcceptableASTFile(
        pch_path, ci.getFileManager(), ci.getModuleCache(), ci.getPCHContainerReader(), lang_opts,
        ci.getTargetOpts(), ci.getPreprocessorOpts(), ci.getHeaderSearchOpts().ModuleCachePath);
}

// The body of lanes_frontend_compile; diagnostics go to `log`.
std::unique_ptr<llvm::Module> compile(llvm::LLVMContext &ctx, const lanes_frontend_request &req,
                                      llvm::raw_ostream &log, bool &used_pch)
{
    const process_info &proc = get_process_info();
    const std::string source_name =
        req.source.name && *req.source.name ? req.source.name : "input.cl";

    arg_vector caller;
    for (size_t i = 0; i < req.num_args; i++)
        caller.push_back(req.args[i] ? req.args[i] : "");
    bool bad_feature;
    const arg_vector fixed = fixed_args(proc, req, bad_feature);

    arg_vector args = {default_opt};
    args.insert(args.end(), caller.begin(), caller.end());
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
        report(diags, "target features must read +name or -name, got '" +
                          std::string(req.features) + "'");
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

    // opencl-c.h precompiled when a PCH for these options exists and Clang
    // itself finds it acceptable; otherwise parsed as text. Same result.
    std::shared_ptr<const std::string> pch;
    if (ci.getPreprocessorOpts().ImplicitPCHInclude.empty()) {
        arg_vector pch_args = {default_opt};
        arg_vector relevant = pch_caller_args(caller, proc);
        pch_args.insert(pch_args.end(), relevant.begin(), relevant.end());
        pch_args.insert(pch_args.end(), fixed.begin(), fixed.end());
        pch_args.insert(pch_args.end(), {"-emit-pch", pch_stub_path});
        std::string key;
        for (const std::string &a : pch_args)
            key.append(a).push_back('\0');
        bool build;
        pch = pch_lookup(key, build);
        if (build)
            pch_publish(key, pch = build_pch(pch_args));
    }
    if (pch) {
        memory->addFileNoOwn(pch_path, 0, llvm::MemoryBufferRef(*pch, pch_path));
        used_pch = pch_acceptable(ci);
        if (used_pch)
            ci.getPreprocessorOpts().ImplicitPCHInclude = pch_path;
    }

    // The action generates into the caller's context, so the module needs
    // no copy and belongs to the caller from the start.
    clang::EmitLLVMOnlyAction action(&ctx);
    if (!ci.ExecuteAction(action))
        return nullptr;
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

extern "C" int lanes_frontend_compile(LLVMContextRef ctx, const struct lanes_frontend_request *req,
                                      struct lanes_frontend_result *out)
{
    if (!out)
        return -1;
    out->module = nullptr;
    out->log = nullptr;
    out->used_pch = 0;
    if (!ctx || !req || (req->num_args && !req->args) || (req->num_headers && !req->headers) ||
        (req->source.size && !req->source.text)) {
        out->log = copy_string("error: invalid arguments to lanes_frontend_compile\n");
        return -1;
    }

    // Lets Clang notice deep recursion on this thread before it overflows.
    clang::noteBottomOfStack();
    std::string log;
    llvm::raw_string_ostream log_stream(log);
    bool used_pch = false;
    std::unique_ptr<llvm::Module> module = compile(*llvm::unwrap(ctx), *req, log_stream, used_pch);
    log_stream.flush();

    out->log = copy_string(log);
    out->used_pch = used_pch;
    if (!module || !out->log)
        return -1;
    out->module = llvm::wrap(module.release());
    return 0;
}
