/* SPDX-License-Identifier: MIT */
/*
 * One LLJIT per process, created on first use. Every module added to it
 * carries unique symbol names (the caller's business), so all share the main
 * JITDylib; the C runtime (memcpy, memset) is found in the process, what
 * is not in its global scope is defined by the caller (lanes_jit_define_symbols).
 */
#include "jit.h"

#include "host.h"

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/TargetMachine.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static LLVMOrcLLJITRef jit;
static char *jit_error;
static pthread_once_t jit_once = PTHREAD_ONCE_INIT;

/* Takes the message out of an LLVM error as a malloc'd string. */
static char *take_error(LLVMErrorRef e)
{
    char *msg = LLVMGetErrorMessage(e);
    char *copy = strdup(msg ? msg : "unknown LLVM error");
    LLVMDisposeErrorMessage(msg);
    return copy;
}

static void create_jit(void)
{
    lanes_host_init_targets();
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
}

int lanes_jit_define_symbols(const struct lanes_jit_symbol *symbols, size_t count, char **error)
{
    pthread_once(&jit_once, create_jit);
    if (!jit) {
        *error = strdup(jit_error ? jit_error : "the JIT could not be created");
        return -1;
    }
    if (count == 0)
        return 0;
    LLVMOrcCSymbolMapPair *pairs = calloc(count, sizeof *pairs);
    if (!pairs) {
        *error = strdup("out of host memory");
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit, symbols[i].name);
        pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)symbols[i].address;
        pairs[i].Sym.Flags.GenericFlags =
            LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, count);
    free(pairs); /* the unit holds its own references to the names */
    LLVMErrorRef e = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(jit), mu);
    if (e) {
        LLVMOrcDisposeMaterializationUnit(mu);
        *error = take_error(e);
        return -1;
    }
    return 0;
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
    LLVMTargetMachineRef tm = lanes_host_target_machine();
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
    return object;
}

char *lanes_jit_emit_assembly(LLVMModuleRef m)
{
    LLVMTargetMachineRef tm = lanes_host_target_machine();
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
