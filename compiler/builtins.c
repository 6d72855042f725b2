/* SPDX-License-Identifier: MIT */
/*
 * The built-in library as programs see it: three bitcode modules embedded
 * by cmake/builtins.cmake, one per x86-64 level, because the IR signature of
 * a vector argument follows the target (byval without AVX, <8 x float> with
 * it, <16 x float> by value with AVX-512). A program is compiled for the
 * host CPU, so the library of the host's level is the one whose signatures
 * match its calls.
 */
#include "builtins.h"

#include "host.h"
#include "jit.h"
#include "link_shim.h"

#include <llvm-c/BitReader.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const char lanes_builtins_v2[], lanes_builtins_v2_end[];
extern const char lanes_builtins_v3[], lanes_builtins_v3_end[];
extern const char lanes_builtins_v4[], lanes_builtins_v4_end[];

/* SLEEF's functions are only referenced by address, so their C types do not matter here. */
#define LANES_RUNTIME_SYMBOL(name) extern void name(void);
#include "runtime_symbols.inc"
#undef LANES_RUNTIME_SYMBOL

static const struct lanes_runtime_symbol runtime_symbols[] = {
#define LANES_RUNTIME_SYMBOL(name) {#name, (void *)name},
#include "runtime_symbols.inc"
#undef LANES_RUNTIME_SYMBOL
};

const struct lanes_runtime_symbol *lanes_builtins_runtime_symbols(size_t *count)
{
    *count = sizeof runtime_symbols / sizeof *runtime_symbols;
    return runtime_symbols;
}

int lanes_builtins_is_runtime_symbol(const char *name)
{
    for (size_t i = 0; i < sizeof runtime_symbols / sizeof *runtime_symbols; i++)
        if (strcmp(runtime_symbols[i].name, name) == 0)
            return 1;
    return 0;
}

static bool has_feature(const char *features, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = features; (p = strstr(p, name)) != NULL; p += n)
        if (p > features && p[-1] == '+' && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

/*
 * The library for the host, or NULL with a reason: the level follows
 * lanes_host()'s ISA, and the vector ABI the host's features imply (widest
 * register Clang passes vectors in) must be that library's.
 */
static const char *library_for_host(size_t *size, const char **why)
{
    enum lanes_isa isa = lanes_host()->isa;
    char *features = LLVMGetHostCPUFeatures();
    unsigned abi_bytes = has_feature(features, "avx512f") ? 64
                         : has_feature(features, "avx")   ? 32
                                                          : 16;
    LLVMDisposeMessage(features);
    const char *start = lanes_builtins_v2, *end = lanes_builtins_v2_end;
    unsigned level_bytes = 16;
    if (isa == LANES_ISA_AVX512)
        start = lanes_builtins_v4, end = lanes_builtins_v4_end, level_bytes = 64;
    else if (isa == LANES_ISA_AVX2)
        start = lanes_builtins_v3, end = lanes_builtins_v3_end, level_bytes = 32;
    if (abi_bytes != level_bytes) {
        *why = "lanes: no built-in library matches this CPU's vector calling convention "
               "(AVX without AVX2 and FMA, or AVX-512F without BW, DQ and VL)\n";
        return NULL;
    }
    *size = (size_t)(end - start);
    return start;
}

int lanes_builtins_link(LLVMModuleRef m, char **log)
{
    size_t size = 0;
    const char *why = NULL;
    const char *bitcode = library_for_host(&size, &why);
    if (!bitcode) {
        *log = strdup(why);
        return -1;
    }
    /* The buffer borrows the embedded bytes; the lazy module owns the buffer. */
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRange(bitcode, size, "lanes-builtins", 0);
    LLVMModuleRef lib = NULL;
    if (LLVMGetBitcodeModuleInContext2(LLVMGetModuleContext(m), buf, &lib)) {
        *log = strdup("lanes: the embedded built-in library cannot be read\n");
        return -1;
    }
    char *error = NULL;
    if (lanes_link_only_needed(m, lib, &error) != 0) {
        char buf2[1024];
        snprintf(buf2, sizeof buf2, "lanes: linking the built-in library: %s\n",
                 error ? error : "failed");
        free(error);
        *log = strdup(buf2);
        return -1;
    }
    /* Library functions were compiled for a generic level: make them the program's. */
    lanes_jit_set_host_attributes(m);
    return 0;
}
