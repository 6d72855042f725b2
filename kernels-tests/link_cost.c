/* SPDX-License-Identifier: MIT */
/*
 * What linking the built-in library costs a launch: a kernel calling three
 * built-ins is parsed and linked again and again (each time into a fresh
 * context, as a launch does); prints the mean time and checks that only
 * what the kernel needs came along, internal.
 */
#include "compiler/builtins.h"
#include "compiler/options.h"
#include "compiler/program.h"

#include <llvm-c/BitReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char source[] = "kernel void k(global float16 *f, global int4 *i, global float *g) {\n"
                             "    size_t x = get_global_id(0);\n"
                             "    f[x] = sin(f[x]);\n"
                             "    i[x] = clz(i[x]);\n"
                             "    i[x].x += convert_int_sat_rte(g[x]);\n"
                             "}\n";

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void)
{
    static const cl_name_version versions[] = {{CL_MAKE_VERSION(1, 2, 0), "OpenCL C"}};
    struct lanes_options o;
    if (lanes_options_parse("", LANES_OPTIONS_BUILD, versions, 1, &o) != 0)
        return 1;
    struct lanes_language lang = {0};
    char *log = NULL;
    struct lanes_program_module *pm = lanes_program_build(source, strlen(source), &o, &lang, &log);
    lanes_options_free(&o);
    if (!pm) {
        fprintf(stderr, "build failed: %s\n", log ? log : "");
        return 1;
    }
    free(log);
    enum { RUNS = 50 };
    double parse_only = 0, total = 0;
    unsigned defined = 0, exported = 0;
    for (int run = 0; run < RUNS; run++) {
        double t0 = now();
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMMemoryBufferRef buf =
            LLVMCreateMemoryBufferWithMemoryRange(pm->bitcode, pm->bitcode_size, "p", 0);
        LLVMModuleRef m = NULL;
        if (LLVMParseBitcodeInContext2(ctx, buf, &m) != 0)
            return 1;
        LLVMDisposeMemoryBuffer(buf);
        double t1 = now();
        char *err = NULL;
        if (lanes_builtins_link(m, 0, LANES_LINK_REST, &err) != 0) {
            fprintf(stderr, "%s", err);
            return 1;
        }
        double t2 = now();
        if (run > 0) { /* the first run pays for one-time initialization */
            parse_only += t1 - t0;
            total += t2 - t1;
        }
        defined = exported = 0;
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
            if (!LLVMIsDeclaration(f)) {
                defined++;
                exported += LLVMGetLinkage(f) != LLVMInternalLinkage;
            }
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
    printf("program parse %.3f ms, built-in link %.3f ms (mean of %d); %u functions defined, "
           "%u external\n",
           1e3 * parse_only / (RUNS - 1), 1e3 * total / (RUNS - 1), RUNS - 1, defined, exported);
    lanes_program_module_free(pm);
    /* the kernel, sin(float16), clz(int4), convert_int_sat_rte(float) and what they call */
    return defined >= 4 && defined <= 8 && exported == 1 ? 0 : 1;
}
