/* SPDX-License-Identifier: MIT */
/*
 * The host CPU as LLVM sees it: the ISA the JIT will target, its target
 * machine and attributes, and LLVM's passes run for it.
 */
#ifndef LANES_COMPILER_HOST_H
#define LANES_COMPILER_HOST_H

#include <llvm-c/TargetMachine.h>
#include <llvm-c/Types.h>
#include <stdbool.h>

/* Vector instruction set levels that change code generation and policy. */
enum lanes_isa {
    LANES_ISA_GENERIC, /* x86-64 baseline: SSE2 */
    LANES_ISA_SSE4,    /* SSE4.1/4.2 */
    LANES_ISA_AVX2,    /* AVX2 + FMA */
    LANES_ISA_AVX512,  /* AVX-512 F, BW, DQ, VL */
};

/* Byte dot products in hardware (vpdpbusd), at the widest register they take. */
enum lanes_vnni {
    LANES_VNNI_NONE,
    LANES_VNNI_AVX,    /* AVX-VNNI: 256-bit vectors */
    LANES_VNNI_AVX512, /* AVX-512 VNNI with VL: 512-bit vectors (and 256) */
};

struct lanes_host {
    char cpu_name[64]; /* LLVM's name, e.g. "sapphirerapids" */
    enum lanes_isa isa;
    unsigned vector_bytes; /* widest native vector register */
    bool fma;              /* fused multiply-add in hardware */
    bool f16c;             /* half <-> float conversions in hardware */
    bool avx512fp16; /* half arithmetic in hardware (AVX-512 FP16), used: LANES_FP16_NATIVE=1 */
    enum lanes_vnni vnni; /* byte dot products in hardware; LANES_VNNI=0 forces none */
    char isa_key[96];     /* CPU name and a digest of its features: code built for one key
                             runs on any host with the same key */
    const char *features; /* LLVM's feature string of the host ("+avx2,-avx512f,..."), kept */
};

/* Reads the host CPU through LLVM's host detection (done once, cached). */
const struct lanes_host *lanes_host(void);

/* A short name of an ISA level for logs and device strings. */
const char *lanes_isa_name(enum lanes_isa isa);

/* Initializes LLVM's native target and assembly printer (once; thread-safe; frontend.h). */
void lanes_host_init_targets(void);

/*
 * The calling thread's target machine for the host CPU (LLVM's host
 * detection), made at its first use and disposed when the thread exits:
 * creating one parses the whole feature string, a fifth of what compiling
 * a small kernel cost. Not to be disposed by the caller, nor shared with
 * another thread. NULL when LLVM has no target for the host.
 */
LLVMTargetMachineRef lanes_host_target_machine(void);

/*
 * Makes `tm` emit a .stack_sizes section in the objects it writes (each
 * function's frame size; compiler/tm_shim.cpp, C++ for TargetOptions).
 */
void lanes_host_emit_stack_sizes(LLVMTargetMachineRef tm);

/*
 * Sets `tm`'s code generator's optimization level: 0 none (linear time:
 * for kernels too big for the others), 1 less, 2 default, 3 aggressive
 * (the target machine's own).
 */
void lanes_host_set_codegen_level(LLVMTargetMachineRef tm, int level);

/*
 * Splits the basic blocks of `m` longer than `most` instructions into
 * blocks of `most`, each branching to the next: LLVM's instruction
 * schedulers take time quadratic in a block's length.
 */
void lanes_host_split_long_blocks(LLVMModuleRef m, unsigned most);

/* Sets the options of LLVM's code generator Lanes needs, once a process (tm_shim.cpp). */
void lanes_host_tune_code_generator(void);

/*
 * Stamps the host CPU and its features on every function of `m`, replacing
 * what Clang put there (ARCHITECTURE.md §8: they override the JIT's target).
 */
void lanes_host_set_attributes(LLVMModuleRef m);

/*
 * Runs `pipeline` (e.g. "default<O3>") on `m` with the host's target
 * machine, whose triple and data layout `m` takes; returns 0 or -1 with
 * *error set (malloc'd). Without `loop_transforms`, the pipeline's loop
 * unrolling and loop and SLP vectorization are off (code compiled for
 * a short life, in less time).
 */
int lanes_host_run_passes(LLVMModuleRef m, const char *pipeline, bool loop_transforms,
                          char **error);

#endif
