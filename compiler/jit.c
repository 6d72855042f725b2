/* SPDX-License-Identifier: MIT */
/*
 * One LLJIT per process, created on first use. Every module added to it
 * carries unique symbol names (the caller's business), so all share the main
 * JITDylib; the C runtime (memcpy, memset) is found in the process.
 */
#include "jit.h"

#include "builtins.h"
#include "host.h"

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static LLVMOrcLLJITRef jit;
static char *jit_error;
static pthread_once_t jit_once = PTHREAD_ONCE_INIT;
static pthread_once_t targets_once = PTHREAD_ONCE_INIT;

static void init_targets(void)
{
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
}

/* Takes the message out of an LLVM error as a malloc'd string. */
static char *take_error(LLVMErrorRef e)
{
    char *msg = LLVMGetErrorMessage(e);
    char *copy = strdup(msg ? msg : "unknown LLVM error");
    LLVMDisposeErrorMessage(msg);
    return copy;
}

LLVMTargetMachineRef lanes_jit_target_machine(void)
{
    pthread_once(&targets_once, init_targets);
    char *triple = LLVMGetDefaultTargetTriple(), *cpu = LLVMGetHostCPUName(),
         *features = LLVMGetHostCPUFeatures(), *msg = NULL;
    LLVMTargetRef target;
    LLVMTargetMachineRef tm = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &msg) == 0)
        tm = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelAggressive,
                                     LLVMRelocPIC, LLVMCodeModelJITDefault);
    LLVMDisposeMessage(msg);
    LLVMDisposeMessage(triple);
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    return tm;
}

void lanes_jit_set_host_attributes(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        const struct {
            const char *key, *value;
        } attrs[] = {{"target-cpu", cpu}, {"target-features", features}};
        for (size_t i = 0; i < 2; i++)
            LLVMAddAttributeAtIndex(
                f, LLVMAttributeFunctionIndex,
                LLVMCreateStringAttribute(ctx, attrs[i].key, (unsigned)strlen(attrs[i].key),
                                          attrs[i].value, (unsigned)strlen(attrs[i].value)));
        /* Clang's "0" would forbid wide vector registers in arguments and returns. */
        LLVMRemoveStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, "min-legal-vector-width",
                                         22);
    }
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
}

int lanes_jit_optimize(LLVMModuleRef m, const char *pipeline, char **error)
{
    LLVMTargetMachineRef tm = lanes_jit_target_machine();
    if (!tm) {
        *error = strdup("no LLVM target for the host");
        return -1;
    }
    char *triple = LLVMGetTargetMachineTriple(tm);
    LLVMSetTarget(m, triple);
    LLVMDisposeMessage(triple);
    LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
    LLVMSetModuleDataLayout(m, td);
    LLVMDisposeTargetData(td);
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef e = LLVMRunPasses(m, pipeline, tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    LLVMDisposeTargetMachine(tm);
    if (e) {
        *error = take_error(e);
        return -1;
    }
    return 0;
}

/*
 * The functions the built-in library calls (SLEEF), defined at their
 * addresses in this process: liblanes.so is opened RTLD_LOCAL by the ICD
 * loader, so its dependencies are not in the global scope the process
 * generator searches.
 */
static LLVMErrorRef define_runtime_symbols(void)
{
    size_t n;
    const struct lanes_runtime_symbol *syms = lanes_builtins_runtime_symbols(&n);
    if (n == 0)
        return NULL;
    LLVMOrcCSymbolMapPair *pairs = calloc(n, sizeof *pairs);
    if (!pairs)
        return LLVMCreateStringError("out of host memory");
    for (size_t i = 0; i < n; i++) {
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit, syms[i].name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)syms[i].address;
        pairs[i].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, n);
    free(pairs); /* the unit holds its own references to the names */
    LLVMErrorRef e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit), mu);
    if (e)
        LLVMOrcDisposeMaterializationUnit(mu);
    return e;
}

static void create_jit(void)
{
    pthread_once(&targets_once, init_targets);
    LLVMOrcJITTargetMachineBuilderRef jtmb;
    LLVMErrorRef e = LLVMOrcJITTargetMachineBuilderDetectHost(&jtmb);
    if (e) {
        jit_error = take_error(e);
        return;
    }
    LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
    LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb);
    if ((e = LLVMOrcCreateLLJIT(&jit, builder))) {
        jit_error = take_error(e);
        jit = NULL;
        return;
    }
    LLVMOrcDefinitionGeneratorRef gen;
    if ((e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
             &gen, LLVMOrcLLJITGetGlobalPrefix(jit), NULL, NULL))) {
        jit_error = take_error(e);
        return;
    }
    LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit), gen);
    if ((e = define_runtime_symbols()))
        jit_error = take_error(e);
}

void *lanes_jit_lookup(const char *symbol)
{
    pthread_once(&jit_once, create_jit);
    LLVMOrcExecutorAddress addr = 0;
    if (!jit)
        return NULL;
    /* A failed lookup reports the missing symbol as an error: expected here, and dropped. */
    LLVMErrorRef e = LLVMOrcLLJITLookup(jit, &addr, symbol);
    if (e) {
        LLVMConsumeError(e);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}

void *lanes_jit_emit_object(LLVMModuleRef m, size_t *size, char **error)
{
    LLVMTargetMachineRef tm = lanes_jit_target_machine();
    if (!tm) {
        *error = strdup("no LLVM target for the host");
        return NULL;
    }
    char *msg = NULL;
    LLVMMemoryBufferRef buf = NULL;
    void *object = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &msg, &buf)) {
        *error = strdup(msg ? msg : "code generation failed");
    } else {
        *size = LLVMGetBufferSize(buf);
        if ((object = malloc(*size)))
            memcpy(object, LLVMGetBufferStart(buf), *size);
        else
            *error = strdup("out of host memory");
        LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeMessage(msg);
    LLVMDisposeTargetMachine(tm);
    return object;
}

char *lanes_jit_emit_assembly(LLVMModuleRef m)
{
    LLVMTargetMachineRef tm = lanes_jit_target_machine();
    if (!tm)
        return NULL;
    /* Code generation changes the module it runs on: a copy, so that `m` stays as it was. */
    LLVMModuleRef copy = LLVMCloneModule(m);
    char *msg = NULL, *text = NULL;
    LLVMMemoryBufferRef buf = NULL;
    if (!LLVMTargetMachineEmitToMemoryBuffer(tm, copy, LLVMAssemblyFile, &msg, &buf)) {
        size_t size = LLVMGetBufferSize(buf);
        if ((text = malloc(size + 1))) {
            memcpy(text, LLVMGetBufferStart(buf), size);
            text[size] = '\0';
        }
        LLVMDisposeMemoryBuffer(buf);
    }
    LLVMDisposeMessage(msg);
    LLVMDisposeModule(copy);
    LLVMDisposeTargetMachine(tm);
    return text;
}

void *lanes_jit_add_object(const void *object, size_t size, const char *symbol, char **error)
{
    pthread_once(&jit_once, create_jit);
    if (!jit) {
        *error = strdup(jit_error ? jit_error : "the JIT could not be created");
        return NULL;
    }
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRangeCopy(object, size, "lanes-launcher.o");
    LLVMErrorRef e = LLVMOrcLLJITAddObjectFile(jit, LLVMOrcLLJITGetMainJITDylib(jit), buf);
    if (e) { /* the JIT owns the buffer even then */
        *error = take_error(e);
        return NULL;
    }
    LLVMOrcExecutorAddress addr = 0;
    if ((e = LLVMOrcLLJITLookup(jit, &addr, symbol))) {
        *error = take_error(e);
        return NULL;
    }
    return (void *)(uintptr_t)addr;
}
