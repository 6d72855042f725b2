/* SPDX-License-Identifier: MIT */
/*
 * A program module's life outside the build and link (compiler/modules.h):
 * made from the bitcode of an earlier build (its kernels' metadata and its
 * variables read back), its variables' first values, freed.
 */
#include "modules.h"

#include "calls.h"
#include "globals.h"
#include "kernel_info.h"
#include "reach.h"
#include "sha256.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds a line of our own to a Clang log. */
void lanes_log_append(char **log, const char *line)
{
    size_t old = *log ? strlen(*log) : 0;
    char *grown = realloc(*log, old + strlen(line) + 1);
    if (grown) {
        strcpy(grown + old, line);
        *log = grown;
    }
}

/*
 * The size of the module's block of program-scope variables. An executable
 * is also checked: every variable it uses is defined, within the device's
 * limit, and its initializer can be written (lanes_program_init_globals).
 */
int lanes_module_read_globals(LLVMModuleRef m, struct lanes_program_module *pm, bool executable,
                              char **log)
{
    struct lanes_globals_layout layout;
    char *error = NULL;
    if (lanes_globals_layout(m, &layout, &error) != 0) {
        lanes_log_append(log, error);
        free(error);
        return -1;
    }
    int rc = 0;
    char line[512];
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); executable && g && rc == 0;
         g = LLVMGetNextGlobal(g)) {
        size_t len;
        const char *name = LLVMGetValueName2(g, &len);
        unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
        if ((as == 1 || as == 2) && LLVMIsDeclaration(g) && LLVMGetFirstUse(g)) {
            snprintf(line, sizeof line,
                     "error: program-scope variable '%s' is declared but not defined\n", name);
            lanes_log_append(log, line);
            rc = -1;
        }
    }
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    for (size_t i = 0; executable && i < layout.count && rc == 0; i++) {
        LLVMValueRef g = layout.vars[i].var;
        unsigned long long size = LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 1 &&
            size > LANES_MAX_GLOBAL_VARIABLE_SIZE) {
            size_t len;
            snprintf(line, sizeof line,
                     "error: program-scope variable '%s' is %llu bytes, more than "
                     "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE (%zu)\n",
                     LLVMGetValueName2(g, &len), size, LANES_MAX_GLOBAL_VARIABLE_SIZE);
            lanes_log_append(log, line);
            rc = -1;
        }
    }
    LLVMDisposeTargetData(td);
    if (rc == 0 && executable && lanes_globals_write(m, &layout, NULL, &error) != 0) {
        lanes_log_append(log, error);
        free(error);
        rc = -1;
    }
    pm->globals_size = layout.size;
    pm->globals_align = layout.align;
    pm->global_variables_size = layout.global_size;
    lanes_globals_layout_free(&layout);
    return rc;
}

/* The digest of pm's bitcode, computed once: every launcher's key starts from it. */
void lanes_module_digest(struct lanes_program_module *pm)
{
    struct lanes_sha256 h;
    lanes_sha256_init(&h);
    lanes_sha256_update(&h, pm->bitcode, pm->bitcode_size);
    lanes_sha256_final(&h, pm->bitcode_digest);
}

struct lanes_program_module *lanes_program_module_from_bitcode(const void *bitcode, size_t size)
{
    struct lanes_program_module *pm = calloc(1, sizeof *pm);
    if (!pm || !(pm->bitcode = malloc(size ? size : 1))) {
        free(pm);
        return NULL;
    }
    memcpy(pm->bitcode, bitcode, size);
    pm->bitcode_size = size;
    lanes_module_digest(pm);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRange(pm->bitcode, size, "program", 0);
    LLVMModuleRef m = NULL;
    char *log = NULL;
    int rc = LLVMParseBitcodeInContext2(ctx, buf, &m) ? -1 : 0;
    struct lanes_calls *calls = rc == 0 ? lanes_calls_of(m) : NULL;
    if (rc == 0)
        rc = calls && !lanes_calls_recursion(calls) ? lanes_read_kernels(m, pm, calls) : -1;
    lanes_calls_free(calls);
    if (rc == 0)
        rc = lanes_module_read_globals(m, pm, false, &log);
    free(log);
    if (m)
        LLVMDisposeModule(m);
    LLVMDisposeMemoryBuffer(buf);
    LLVMContextDispose(ctx);
    if (rc != 0) {
        lanes_program_module_free(pm);
        return NULL;
    }
    return pm;
}

int lanes_program_init_globals(const struct lanes_program_module *pm, void *block, char **error)
{
    *error = NULL;
    LLVMContextRef ctx = LLVMContextCreate();
    /*
     * Loaded lazily: the variables and their initializers are read, the
     * functions' bodies never are (the module owns the buffer, which
     * borrows pm's bytes).
     */
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRange(pm->bitcode, pm->bitcode_size, "program", 0);
    LLVMModuleRef m = NULL;
    struct lanes_globals_layout layout = {0};
    int rc = -1;
    if (LLVMGetBitcodeModuleInContext2(ctx, buf, &m) != 0) {
        m = NULL;
        *error = strdup("lanes: the program's bitcode is unreadable\n");
    } else if (lanes_globals_layout(m, &layout, error) == 0 && layout.size != pm->globals_size)
        *error = strdup("lanes: the program's variables changed their layout\n");
    else if (!*error)
        rc = lanes_globals_write(m, &layout, block, error);
    lanes_globals_layout_free(&layout);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return rc;
}

void lanes_program_module_free(struct lanes_program_module *m)
{
    if (!m)
        return;
    for (size_t k = 0; k < m->num_kernels; k++) {
        struct lanes_kernel_info *ki = &m->kernels[k];
        for (size_t i = 0; ki->args && i < ki->num_args; i++) {
            free(ki->args[i].type_name);
            free(ki->args[i].name);
        }
        free(ki->args);
        free(ki->name);
        free(ki->attributes);
    }
    free(m->kernels);
    free(m->bitcode);
    lanes_reaches_free(m->reaches);
    free(m);
}
