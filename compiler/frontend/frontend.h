/* SPDX-License-Identifier: MIT */
/*
 * The Clang frontend bridge: OpenCL C source -> LLVM module, in-process.
 * The only C++ of the frontend lives behind this header (clang_bridge.cpp).
 */
#ifndef LANES_COMPILER_FRONTEND_H
#define LANES_COMPILER_FRONTEND_H

#include <llvm-c/Types.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A file held in memory; nothing is read from or written to disk for it. */
struct lanes_frontend_file {
    const char *name; /* path as written in #include / shown in diagnostics, e.g. "input.cl" */
    const char *text; /* contents, not necessarily NUL-terminated */
    size_t size;      /* length of `text` in bytes */
};

/* What to compile and how. The bridge appends its own fixed arguments after
 * `args` (see clang_bridge.cpp), so the caller's choices cannot break them. */
struct lanes_frontend_request {
    /* clang -cc1 arguments: -cl-std=, -cl-ext=, -D, -I, -cl-*, -w, -Werror, ... */
    const char *const *args;
    size_t num_args;                           /* number of entries in `args` */
    struct lanes_frontend_file source;         /* the program; name NULL means "input.cl" */
    const struct lanes_frontend_file *headers; /* in-memory headers (clCompileProgram) */
    size_t num_headers;                        /* number of entries in `headers` */
    const char *triple;                        /* target triple; NULL = the host's */
    const char *cpu;                           /* LLVM CPU name; NULL = the host CPU */
    const char *features; /* comma-separated "+f,-g" LLVM features; NULL = the host CPU's */
};

/* The outcome of one compile; the caller owns `module` and `log`. */
struct lanes_frontend_result {
    LLVMModuleRef module; /* the program in the caller's context; NULL on failure */
    char *log;            /* diagnostics as Clang prints them, malloc'd, "" when none */
    /*
     * The files the compile read from disk (headers found through -I,
     * Clang's own), a line "<SHA-256 of what was read, hex> <path>" each,
     * malloc'd, "" when none; NULL on failure.
     */
    char *deps;
};

/* Compiles OpenCL C to an LLVM module in `ctx`; returns 0 on success.
 * Thread-safe for distinct contexts: concurrent calls must not share `ctx`. */
int lanes_frontend_compile(LLVMContextRef ctx, const struct lanes_frontend_request *req,
                           struct lanes_frontend_result *out);

/*
 * Registers LLVM's native target and assembly printer, once per process:
 * the only place Lanes does (compiler/host.h's lanes_host_init_targets
 * calls it). LLVM's target registry has no lock, and Clang looks the target
 * up in every compile, so lanes_frontend_compile registers first: a lookup
 * racing a registration on another thread can find a target whose fields
 * are not written yet and call through a null pointer.
 */
void lanes_frontend_init_targets(void);

#ifdef __cplusplus
}
#endif

#endif
