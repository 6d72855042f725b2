/* SPDX-License-Identifier: MIT */
/*
 * Building and linking program modules: the Clang bridge, the built-in
 * library's link, the program's variables, then the kernels' metadata
 * (compiler/kernel_info.c).
 * Each build uses its own LLVM context, so builds on different threads never
 * share one.
 */
#include "program.h"
#include "width.h"

#include "builtins.h"
#include "cache.h"
#include "calls.h"
#include "crash.h"
#include "globals.h"
#include "kernel_info.h"
#include "host.h"
#include "reach.h"
#include "sha256.h"
#include "frontend/frontend.h"
#include "frontend/spirv.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Program-scope variables belong to their program object: their storage is
 * a block per program (compiler/globals.h), never the JIT's. Internal
 * linkage in the executable's module also keeps two programs' variables of
 * the same name apart in the one JIT.
 */
static void internalize_variables(LLVMModuleRef m)
{
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
        size_t len;
        const char *name = LLVMGetValueName2(g, &len);
        if (LLVMIsDeclaration(g) || strncmp(name, "llvm.", 5) == 0)
            continue;
        switch (LLVMGetLinkage(g)) {
        case LLVMExternalLinkage:
        case LLVMCommonLinkage:
        case LLVMWeakAnyLinkage:
        case LLVMWeakODRLinkage:
        case LLVMLinkOnceAnyLinkage:
        case LLVMLinkOnceODRLinkage: LLVMSetLinkage(g, LLVMInternalLinkage); break;
        default: break;
        }
    }
}

/* -cl-ext=-all,+name,... : exactly the device's extensions and features. */
static char *cl_ext_arg(const struct lanes_language *lang)
{
    size_t len = 16;
    for (size_t i = 0; i < lang->num_extensions; i++)
        len += strlen(lang->extensions[i].name) + 2;
    for (size_t i = 0; i < lang->num_features; i++)
        len += strlen(lang->features[i].name) + 2;
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    p += sprintf(p, "-cl-ext=-all");
    for (size_t i = 0; i < lang->num_extensions; i++)
        p += sprintf(p, ",+%s", lang->extensions[i].name);
    for (size_t i = 0; i < lang->num_features; i++)
        p += sprintf(p, ",+%s", lang->features[i].name);
    return s;
}

/* Serializes `m` into `pm` and reads its kernels; 0 or -1 (with a log line). */
static int finish_module(LLVMModuleRef m, struct lanes_program_module *pm, bool executable,
                         char **log)
{
    /* OpenCL C has no recursion: a cycle of calls fails the build, naming its functions. */
    struct lanes_calls *calls = lanes_calls_of(m);
    if (!calls) {
        lanes_log_append(log, "lanes: out of host memory reading the calls\n");
        return -1;
    }
    const char *recursion = lanes_calls_recursion(calls);
    if (recursion) {
        lanes_log_append(log, recursion);
        lanes_calls_free(calls);
        return -1;
    }
    int rc = lanes_read_kernels(m, pm, calls);
    lanes_calls_free(calls);
    if (rc != 0) {
        lanes_log_append(log, "lanes: cannot read the kernels' argument metadata\n");
        return -1;
    }
    /* A sub-group size the device does not offer fails the build (cl_intel_required_subgroup_size).
     */
    for (size_t i = 0; i < pm->num_kernels; i++) {
        const struct lanes_kernel_info *k = &pm->kernels[i];
        if (k->reqd_sub_group_size && !lanes_sub_group_size_offered(k->reqd_sub_group_size)) {
            size_t sizes[3];
            unsigned n = lanes_sub_group_sizes(sizes);
            char line[512], list[64] = "";
            for (unsigned j = 0; j < n; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%zu", j ? ", " : "",
                         sizes[j]);
            snprintf(line, sizeof line,
                     "lanes: kernel %s: intel_reqd_sub_group_size(%u) is not a sub-group size "
                     "of this device (%s)\n",
                     k->name, k->reqd_sub_group_size, list);
            lanes_log_append(log, line);
            rc = -1;
        }
    }
    if (rc != 0)
        return -1;
    if (executable && lanes_builtins_check_undefined(m, log) != 0)
        return -1;
    /* An executable's variables are its own: launchers of other programs share the JIT. */
    if (executable)
        internalize_variables(m);
    if (lanes_module_read_globals(m, pm, executable, log) != 0)
        return -1;
    LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(m);
    pm->bitcode_size = LLVMGetBufferSize(buf);
    pm->bitcode = malloc(pm->bitcode_size);
    if (pm->bitcode) {
        memcpy(pm->bitcode, LLVMGetBufferStart(buf), pm->bitcode_size);
        lanes_module_digest(pm);
    }
    LLVMDisposeMemoryBuffer(buf);
    return pm->bitcode ? 0 : -1;
}

struct lanes_program_module *lanes_program_build(const char *source, size_t size,
                                                 const struct lanes_options *options,
                                                 const struct lanes_language *language, char **log)
{
    return lanes_program_compile(source, size, NULL, 0, options, language, true, log);
}

/* A crash while compiling, as a build log: while `doing`, with `crash` (the signal). */
static char *crash_log(const char *doing, const char *crash)
{
    char buf[320];
    if (!strcmp(crash, LANES_RUN_EXITING)) {
        snprintf(buf, sizeof buf, "lanes: not %s: the process is exiting\n", doing);
        return strdup(buf);
    }
    snprintf(buf, sizeof buf,
             "lanes: the compiler crashed (%s) while %s; the build failed, the process goes on "
             "(please report the source and options)\n",
             crash, doing);
    return strdup(buf);
}

static struct lanes_program_module *
compile_unsafe(const char *source, size_t size, const struct lanes_frontend_file *headers,
               size_t num_headers, const struct lanes_options *options,
               const struct lanes_language *language, bool executable, char **log)
{
    *log = NULL;
    lanes_crash_test("compile");
    /* Only plain builds are cached: embedded headers are not part of the key. */
    bool cacheable = executable && num_headers == 0;
    struct lanes_cache_key key;
    lanes_cache_key(&key, source, size, options, language);
    struct lanes_program_module *cached = cacheable ? lanes_cache_load(&key, log) : NULL;
    if (cached)
        return cached;
    char *ext = cl_ext_arg(language);
    size_t n = options->num_clang_args;
    const char **args = malloc((n + 5) * sizeof *args);
    struct lanes_program_module *pm = calloc(1, sizeof *pm);
    if (!ext || !args || !pm) {
        free(ext), free(args), free(pm);
        *log = strdup("out of host memory\n");
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        args[i] = options->clang_args[i];
    args[n++] = ext;
    /* Clang leaves __OPENCL_VERSION__ (the device's OpenCL version) to the platform. */
    char version[40];
    if (language->opencl_version) {
        snprintf(version, sizeof version, "-D__OPENCL_VERSION__=%u",
                 CL_VERSION_MAJOR(language->opencl_version) * 100 +
                     CL_VERSION_MINOR(language->opencl_version) * 10);
        args[n++] = version;
    }
    /* Kernel argument names are always kept; clGetKernelArgInfo shows them only on request. */
    args[n++] = "-cl-kernel-arg-info";
    /* fma(float) is one instruction where the CPU has FMA (CL_FP_FMA in the fp config). */
    if (lanes_host()->fma)
        args[n++] = "-DFP_FAST_FMAF=1";
    /* The specification's macro of a device with images, which Clang leaves to the platform. */
    for (size_t i = 0; i < language->num_features; i++)
        if (strcmp(language->features[i].name, "__opencl_c_images") == 0)
            args[n++] = "-D__IMAGE_SUPPORT__=1";

    LLVMContextRef ctx = LLVMContextCreate();
    struct lanes_frontend_request req = {.args = args,
                                         .num_args = n,
                                         .source = {"input.cl", source, size},
                                         .headers = headers,
                                         .num_headers = num_headers};
    struct lanes_frontend_result res = {0};
    int rc = lanes_frontend_compile(ctx, &req, &res);
    *log = res.log;
    char *deps = res.deps;
    if (rc == 0)
        rc = finish_module(res.module, pm, executable, log);
    if (res.module)
        LLVMDisposeModule(res.module);
    LLVMContextDispose(ctx);
    free(ext);
    free(args);
    if (rc != 0) {
        free(deps);
        lanes_program_module_free(pm);
        return NULL;
    }
    if (cacheable)
        lanes_cache_store(&key, pm, *log, deps);
    free(deps);
    return pm;
}

/* Collects the linker's messages into the link log. */
static void link_diagnostic(LLVMDiagnosticInfoRef info, void *ctx)
{
    char *msg = LLVMGetDiagInfoDescription(info);
    lanes_log_append(ctx, "error: ");
    lanes_log_append(ctx, msg);
    lanes_log_append(ctx, "\n");
    LLVMDisposeMessage(msg);
}

static void set_attribute(LLVMContextRef ctx, LLVMValueRef f, const char *key, const char *value)
{
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateStringAttribute(ctx, key, (unsigned)strlen(key), value, (unsigned)strlen(value)));
}

/* Marks a function of a library made without -enable-link-options. */
static const char fixed_key[] = "lanes-no-link-options";

/*
 * The math options of a link (OpenCL 3.0 5.8.5.2: -cl-denorms-are-zero,
 * -cl-no-signed-zeros, -cl-unsafe-math-optimizations, -cl-finite-math-only,
 * -cl-fast-relaxed-math) on every function an executable's link defines, as
 * the attributes Clang gives a function compiled with them: the code
 * generator reads them, and so does the built-in library's link
 * (compiler/builtins.c), which picks its math variants from the kernel's.
 * Options only add freedoms: a function compiled with one keeps it. The
 * functions of a library linked without -enable-link-options are marked
 * when it is made, and later links leave them as compiled.
 */
static void apply_link_math_options(LLVMModuleRef m, bool executable, const struct lanes_options *o)
{
    if (!o)
        return;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        if (!executable) {
            if (!o->enable_link_options)
                set_attribute(ctx, f, fixed_key, "");
            continue;
        }
        if (LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, fixed_key,
                                          sizeof fixed_key - 1))
            continue;
        if (o->unsafe_math) {
            set_attribute(ctx, f, "unsafe-fp-math", "true");
            set_attribute(ctx, f, "approx-func-fp-math", "true");
        }
        if (o->unsafe_math || o->no_signed_zeros)
            set_attribute(ctx, f, "no-signed-zeros-fp-math", "true");
        if (o->finite_math_only) {
            set_attribute(ctx, f, "no-nans-fp-math", "true");
            set_attribute(ctx, f, "no-infs-fp-math", "true");
        }
        if (o->denorms_are_zero)
            set_attribute(ctx, f, "denormal-fp-math-f32", "preserve-sign,preserve-sign");
    }
}

static struct lanes_program_module *link_unsafe(const struct lanes_program_module *const *inputs,
                                                size_t n, bool executable,
                                                const struct lanes_options *options, char **log)
{
    lanes_crash_test("link");
    *log = strdup("");
    struct lanes_program_module *pm = calloc(1, sizeof *pm);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(ctx, link_diagnostic, log);
    LLVMModuleRef dest = NULL;
    int rc = pm && *log ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(
            inputs[i]->bitcode, inputs[i]->bitcode_size, "input", 0);
        LLVMModuleRef m = NULL;
        if (LLVMParseBitcodeInContext2(ctx, buf, &m) != 0)
            rc = -1;
        else if (!dest)
            dest = m;
        else if (LLVMLinkModules2(dest, m)) /* consumes m; reports through the handler */
            rc = -1;
        LLVMDisposeMemoryBuffer(buf);
    }
    if (rc == 0) {
        apply_link_math_options(dest, executable, options);
        rc = finish_module(dest, pm, executable, log);
    }
    if (dest)
        LLVMDisposeModule(dest);
    LLVMContextDispose(ctx);
    if (rc != 0) {
        lanes_program_module_free(pm);
        return NULL;
    }
    return pm;
}

/*
 * A SPIR-V program (compiler/frontend/spirv.h) into a program module: the module the
 * translator makes takes the place of Clang's, and the build's math options
 * become function attributes as a link's do. Cached as builds from source
 * are, under a key of its own kind that names the translator's files.
 */
static struct lanes_program_module *compile_il_unsafe(const void *il, size_t size,
                                                      const char *spec_arg,
                                                      const struct lanes_options *options,
                                                      const struct lanes_language *language,
                                                      bool executable, char **log)
{
    *log = NULL;
    lanes_crash_test("compile");
    struct lanes_cache_key source_key, key;
    lanes_cache_key(&source_key, il, size, options, language);
    char translator[512];
    lanes_spirv_identity(translator);
    const void *parts[] = {"spirv", source_key.digest, translator, spec_arg ? spec_arg : ""};
    const size_t sizes[] = {5, sizeof source_key.digest, strlen(translator),
                            spec_arg ? strlen(spec_arg) : 0};
    lanes_cache_key_of(&key, parts, sizes, 4);
    struct lanes_program_module *cached = executable ? lanes_cache_load(&key, log) : NULL;
    if (cached)
        return cached;
    free(*log);
    *log = strdup("");
    struct lanes_program_module *pm = calloc(1, sizeof *pm);
    if (!pm || !*log) {
        free(pm);
        return NULL;
    }
    /* The host's triple and data layout, which the Clang bridge's modules have. */
    LLVMTargetMachineRef tm = lanes_host_target_machine();
    if (!tm) {
        lanes_log_append(log, "lanes: LLVM has no target for this host\n");
        lanes_program_module_free(pm);
        return NULL;
    }
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    char *layout = LLVMCopyStringRepOfTargetData(td);
    LLVMDisposeTargetData(td);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = NULL;
    int rc = lanes_spirv_translate(ctx, il, size, spec_arg, triple, layout, &m, log);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(layout);
    if (rc == 0) {
        apply_link_math_options(m, true, options);
        rc = finish_module(m, pm, executable, log);
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    if (rc != 0) {
        lanes_program_module_free(pm);
        return NULL;
    }
    if (executable)
        lanes_cache_store(&key, pm, *log, "");
    return pm;
}

/* The arguments and results of compile_unsafe or link_unsafe, run under lanes_run_safely. */
struct safe_call {
    const char *source;
    const void *il;
    const char *spec_arg;
    size_t size;
    const struct lanes_frontend_file *headers;
    size_t num_headers;
    const struct lanes_program_module *const *inputs;
    size_t n;
    const struct lanes_options *options;
    const struct lanes_language *language;
    bool executable;
    struct lanes_program_module *result;
    char *log;
};

static void safe_compile(void *p)
{
    struct safe_call *c = p;
    c->result = compile_unsafe(c->source, c->size, c->headers, c->num_headers, c->options,
                               c->language, c->executable, &c->log);
}

static void safe_compile_il(void *p)
{
    struct safe_call *c = p;
    c->result = compile_il_unsafe(c->il, c->size, c->spec_arg, c->options, c->language,
                                  c->executable, &c->log);
}

static void safe_link(void *p)
{
    struct safe_call *c = p;
    c->result = link_unsafe(c->inputs, c->n, c->executable, c->options, &c->log);
}

struct lanes_program_module *
lanes_program_compile(const char *source, size_t size, const struct lanes_frontend_file *headers,
                      size_t num_headers, const struct lanes_options *options,
                      const struct lanes_language *language, bool executable, char **log)
{
    struct safe_call c = {.source = source,
                          .size = size,
                          .headers = headers,
                          .num_headers = num_headers,
                          .options = options,
                          .language = language,
                          .executable = executable};
    char crash[64];
    if (!lanes_run_safely(safe_compile, &c, crash)) {
        *log = crash_log("compiling the program", crash);
        return NULL;
    }
    *log = c.log;
    return c.result;
}

struct lanes_program_module *
lanes_program_compile_il(const void *il, size_t size, const struct lanes_spirv_spec *specs,
                         size_t num_specs, const struct lanes_options *options,
                         const struct lanes_language *language, bool executable, char **log)
{
    char *spec_arg = lanes_spirv_spec_arg(specs, num_specs);
    if (num_specs && !spec_arg) {
        *log = strdup("lanes: out of host memory\n");
        return NULL;
    }
    struct safe_call c = {.il = il,
                          .spec_arg = spec_arg,
                          .size = size,
                          .options = options,
                          .language = language,
                          .executable = executable};
    char crash[64];
    bool ran = lanes_run_safely(safe_compile_il, &c, crash);
    free(spec_arg);
    if (!ran) {
        *log = crash_log("translating the SPIR-V program", crash);
        return NULL;
    }
    *log = c.log;
    return c.result;
}

struct lanes_program_module *lanes_program_link(const struct lanes_program_module *const *inputs,
                                                size_t n, bool executable,
                                                const struct lanes_options *options, char **log)
{
    struct safe_call c = {.inputs = inputs, .n = n, .executable = executable, .options = options};
    char crash[64];
    if (!lanes_run_safely(safe_link, &c, crash)) {
        *log = crash_log("linking the program", crash);
        return NULL;
    }
    *log = c.log;
    return c.result;
}
