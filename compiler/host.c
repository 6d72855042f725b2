/* SPDX-License-Identifier: MIT */
/*
 * Host CPU detection through LLVM, so that the device queries, the sub-group
 * width policy and the JIT's target machine all see the same CPU; and the
 * target machine, attributes and pass runs that compile for it.
 */
#include "host.h"

#include "sha256.h"
#include "frontend/frontend.h"

#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct lanes_host host;
static pthread_once_t host_once = PTHREAD_ONCE_INIT;

/* True when the comma-separated LLVM feature list enables `feature`. */
static bool has_feature(const char *features, const char *feature)
{
    char want[64];
    snprintf(want, sizeof want, "+%s", feature);
    size_t n = strlen(want);
    for (const char *p = features; (p = strstr(p, want)) != NULL; p += n) {
        if ((p == features || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return true;
    }
    return false;
}

static void detect(void)
{
    char *name = LLVMGetHostCPUName();
    char *f = LLVMGetHostCPUFeatures();
    snprintf(host.cpu_name, sizeof host.cpu_name, "%s", name);

    host.fma = has_feature(f, "fma");
    host.f16c = has_feature(f, "f16c");
    host.avx512fp16 = has_feature(f, "avx512fp16");
    /*
     * AVX-512 FP16's native half vectors are untested (no such host has
     * run the tests): unless LANES_FP16_NATIVE=1 asks for them, half
     * computes in float on those hosts too (F16C, which they have), and
     * LLVM is told the feature is off.
     */
    const char *native = getenv("LANES_FP16_NATIVE");
    if (host.avx512fp16 && !(native && strcmp(native, "1") == 0)) {
        host.avx512fp16 = false;
        for (char *p = f; (p = strstr(p, "+avx512fp16")) != NULL; p++)
            if ((p == f || p[-1] == ',') && (p[11] == ',' || p[11] == '\0'))
                *p = '-';
    }
    if (has_feature(f, "avx512f") && has_feature(f, "avx512bw") && has_feature(f, "avx512dq") &&
        has_feature(f, "avx512vl")) {
        host.isa = LANES_ISA_AVX512;
        host.vector_bytes = 64;
    } else if (has_feature(f, "avx2") && host.fma) {
        host.isa = LANES_ISA_AVX2;
        host.vector_bytes = 32;
    } else if (has_feature(f, "sse4.1")) {
        host.isa = LANES_ISA_SSE4;
        host.vector_bytes = 16;
    } else {
        host.isa = LANES_ISA_GENERIC;
        host.vector_bytes = 16;
    }
    /*
     * LANES_VNNI=0 takes the generic code of the dot products (to measure
     * the instructions' gain); the ISA key says so, so that the disk cache
     * keeps the two apart.
     */
    const char *vnni = getenv("LANES_VNNI");
    bool vnni_off = vnni && strcmp(vnni, "0") == 0;
    if (vnni_off)
        host.vnni = LANES_VNNI_NONE;
    else if (host.isa == LANES_ISA_AVX512 && has_feature(f, "avx512vnni"))
        host.vnni = LANES_VNNI_AVX512;
    else if (has_feature(f, "avxvnni") && host.isa >= LANES_ISA_AVX2)
        host.vnni = LANES_VNNI_AVX;
    else
        host.vnni = LANES_VNNI_NONE;
    unsigned char digest[32];
    struct lanes_sha256 h;
    lanes_sha256_init(&h);
    lanes_sha256_update(&h, f, strlen(f));
    lanes_sha256_final(&h, digest);
    int n = snprintf(host.isa_key, sizeof host.isa_key, "%.60s/", host.cpu_name);
    for (int i = 0; i < 8 && n + 2 < (int)sizeof host.isa_key; i++)
        n += snprintf(host.isa_key + n, sizeof host.isa_key - (size_t)n, "%02x", digest[i]);
    if (vnni_off && n + 9 < (int)sizeof host.isa_key)
        snprintf(host.isa_key + n, sizeof host.isa_key - (size_t)n, "/novnni");
    LLVMDisposeMessage(name);
    host.features = f; /* kept for the process: asked for at every compile */
}

const struct lanes_host *lanes_host(void)
{
    pthread_once(&host_once, detect);
    return &host;
}

const char *lanes_isa_name(enum lanes_isa isa)
{
    switch (isa) {
    case LANES_ISA_AVX512: return "AVX-512";
    case LANES_ISA_AVX2: return "AVX2";
    case LANES_ISA_SSE4: return "SSE4";
    case LANES_ISA_GENERIC: break;
    }
    return "SSE2";
}

void lanes_host_init_targets(void)
{
    lanes_frontend_init_targets(); /* one registration for the process: frontend.h says why */
}

static pthread_key_t tm_key;
static pthread_once_t tm_key_once = PTHREAD_ONCE_INIT;

static void dispose_tm(void *tm)
{
    LLVMDisposeTargetMachine(tm);
}

static void make_tm_key(void)
{
    pthread_key_create(&tm_key, dispose_tm);
}

LLVMTargetMachineRef lanes_host_target_machine(void)
{
    pthread_once(&tm_key_once, make_tm_key);
    LLVMTargetMachineRef tm = pthread_getspecific(tm_key);
    if (tm)
        return tm;
    lanes_host_init_targets();
    lanes_host_tune_code_generator();
    const struct lanes_host *h = lanes_host();
    char *triple = LLVMGetDefaultTargetTriple(), *msg = NULL;
    LLVMTargetRef target;
    if (LLVMGetTargetFromTriple(triple, &target, &msg) == 0)
        tm = LLVMCreateTargetMachine(target, triple, h->cpu_name, h->features,
                                     LLVMCodeGenLevelAggressive, LLVMRelocPIC,
                                     LLVMCodeModelJITDefault);
    LLVMDisposeMessage(msg);
    LLVMDisposeMessage(triple);
    if (tm)
        lanes_host_emit_stack_sizes(tm); /* read by compiler/jit.c */
    if (tm && pthread_setspecific(tm_key, tm) != 0) {
        LLVMDisposeTargetMachine(tm);
        tm = NULL;
    }
    return tm;
}

void lanes_host_set_attributes(LLVMModuleRef m)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    const char *cpu = lanes_host()->cpu_name, *features = lanes_host()->features;
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
}

int lanes_host_run_passes(LLVMModuleRef m, const char *pipeline, bool loop_transforms, char **error)
{
    LLVMTargetMachineRef tm = lanes_host_target_machine();
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
    if (!loop_transforms) {
        LLVMPassBuilderOptionsSetLoopUnrolling(opts, 0);
        LLVMPassBuilderOptionsSetLoopVectorization(opts, 0);
        LLVMPassBuilderOptionsSetSLPVectorization(opts, 0);
    }
    LLVMErrorRef e = LLVMRunPasses(m, pipeline, tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (e) {
        char *msg = LLVMGetErrorMessage(e);
        *error = strdup(msg ? msg : "unknown LLVM error");
        LLVMDisposeErrorMessage(msg);
        return -1;
    }
    return 0;
}
