/* SPDX-License-Identifier: MIT */
/*
 * SPIR-V to a program's LLVM module: the translator runs as a child process
 * on files in a private temporary folder (its LLVM 15 would otherwise share
 * the process with LLVM 19: docs/spirv.md), and its bitcode, which LLVM 19
 * reads, is reshaped into what the Clang bridge makes of the same kernel.
 */
#include "spirv.h"
#include "spirv_lower.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The translator's path, found by cmake/spirv.cmake; "" when it was not. */
#ifndef LANES_LLVM_SPIRV
#define LANES_LLVM_SPIRV ""
#endif

/* Its library, where the translation is (cmake/spirv.cmake); "" when not found. */
#ifndef LANES_LLVM_SPIRV_LIB
#define LANES_LLVM_SPIRV_LIB ""
#endif

extern char **environ;

/* Appends `line` to the malloc'd log *log (NULL: empty); kept as it was when out of memory. */
static void lanes_log_append(char **log, const char *line)
{
    size_t old = *log ? strlen(*log) : 0;
    char *grown = realloc(*log, old + strlen(line) + 1);
    if (grown) {
        strcpy(grown + old, line);
        *log = grown;
    }
}

void lanes_spirv_identity(char out[512])
{
    const char *paths[] = {LANES_LLVM_SPIRV, LANES_LLVM_SPIRV_LIB};
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (paths[i][0] && stat(paths[i], &st) == 0 && at < 256)
            at += (size_t)snprintf(out + at, 512 - at, "%lld.%ld %lld %llu;",
                                   (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                                   (long long)st.st_size, (unsigned long long)st.st_ino);
    }
}

bool lanes_spirv_enabled(void)
{
    const char *v = getenv("LANES_SPIRV");
    /* A translator removed since the build takes SPIR-V away, as one never found does. */
    return v && strcmp(v, "1") == 0 && LANES_LLVM_SPIRV[0] != '\0' &&
           access(LANES_LLVM_SPIRV, X_OK) == 0;
}

bool lanes_spirv_is_spirv(const void *il, size_t size)
{
    if (!il || size < 20 || size % 4 != 0) /* the header alone is 5 words */
        return false;
    const unsigned char *b = il;
    uint32_t le = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    uint32_t be = b[3] | (uint32_t)b[2] << 8 | (uint32_t)b[1] << 16 | (uint32_t)b[0] << 24;
    return le == 0x07230203u || be == 0x07230203u;
}

/* Word `i` of a SPIR-V module, in its byte order. */
static uint32_t word(const unsigned char *b, size_t i, bool swap)
{
    const unsigned char *w = b + 4 * i;
    return swap ? (uint32_t)w[0] << 24 | (uint32_t)w[1] << 16 | (uint32_t)w[2] << 8 | w[3]
                : (uint32_t)w[3] << 24 | (uint32_t)w[2] << 16 | (uint32_t)w[1] << 8 | w[0];
}

enum {
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_SPEC_CONSTANT_TRUE = 48,
    OP_SPEC_CONSTANT_FALSE = 49,
    OP_SPEC_CONSTANT = 50,
    OP_DECORATE = 71,
    DECORATION_SPEC_ID = 1,
};

/*
 * The first instruction of `il` with opcode `op` (or `op2`), at least
 * `min_words` long and whose word `at` is `value`: its index, or 0.
 */
static size_t find(const unsigned char *b, size_t n, bool swap, uint32_t op, uint32_t op2,
                   uint32_t min_words, uint32_t at, uint32_t value)
{
    for (size_t i = 5; i < n;) {
        uint32_t w = word(b, i, swap), count = w >> 16, code = w & 0xffff;
        if (count == 0 || count > n - i)
            return 0;
        if ((code == op || code == op2) && count >= min_words && word(b, i + at, swap) == value)
            return i;
        i += count;
    }
    return 0;
}

bool lanes_spirv_spec_constant(const void *il, size_t size, uint32_t spec_id,
                               struct lanes_spirv_spec *out)
{
    if (!lanes_spirv_is_spirv(il, size))
        return false;
    const unsigned char *b = il;
    size_t n = size / 4;
    bool swap = word(b, 0, false) != 0x07230203u;
    /* OpDecorate %target SpecId <spec_id>, then the constant %target, then its type. */
    uint32_t target = 0;
    bool found = false;
    for (size_t i = 5; i < n && !found;) {
        uint32_t w = word(b, i, swap), count = w >> 16;
        if (count == 0 || count > n - i)
            return false;
        if ((w & 0xffff) == OP_DECORATE && count >= 4 &&
            word(b, i + 2, swap) == DECORATION_SPEC_ID && word(b, i + 3, swap) == spec_id) {
            target = word(b, i + 1, swap);
            found = true;
        }
        i += count;
    }
    if (!found)
        return false;
    out->id = spec_id;
    if (find(b, n, swap, OP_SPEC_CONSTANT_TRUE, OP_SPEC_CONSTANT_FALSE, 3, 2, target)) {
        out->size = 1;
        snprintf(out->type, sizeof out->type, "i1");
        return true;
    }
    size_t c = find(b, n, swap, OP_SPEC_CONSTANT, OP_SPEC_CONSTANT, 4, 2, target);
    if (!c)
        return false;
    uint32_t type = word(b, c + 1, swap);
    size_t t = find(b, n, swap, OP_TYPE_INT, OP_TYPE_FLOAT, 3, 1, type);
    if (!t)
        return false;
    bool is_float = (word(b, t, swap) & 0xffff) == OP_TYPE_FLOAT;
    uint32_t width = word(b, t + 2, swap);
    if (width != 16 && width != 32 && width != 64 && (is_float || width != 8))
        return false;
    out->size = width / 8;
    snprintf(out->type, sizeof out->type, "%c%u", is_float ? 'f' : 'i', (unsigned)width);
    return true;
}

/* 2 to the power `e`, exactly (small |e|; no libm). */
static double pow2(int e)
{
    double v = 1;
    for (; e > 0; e--)
        v *= 2;
    for (; e < 0; e++)
        v /= 2;
    return v;
}

/* A half's value as a double (exact). */
static double half_value(uint16_t h)
{
    int e = h >> 10 & 0x1f;
    double m = h & 0x3ff, v;
    if (e == 0x1f)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = m * pow2(-24);
    else
        v = (m + 1024) * pow2(e - 25);
    return h & 0x8000 ? -v : v;
}

char *lanes_spirv_spec_arg(const struct lanes_spirv_spec *specs, size_t n)
{
    if (!n)
        return NULL;
    char *arg = malloc(16 + n * 48), *p = arg;
    if (!arg)
        return NULL;
    p += sprintf(p, "--spec-const=");
    for (size_t i = 0; i < n; i++) {
        const struct lanes_spirv_spec *s = &specs[i];
        p += sprintf(p, "%s%u:%s:", i ? " " : "", (unsigned)s->id, s->type);
        /* Integers in unsigned decimal, floats in hexadecimal: both exact. */
        if (s->type[0] == 'f') {
            double v;
            if (s->size == 2) {
                v = half_value((uint16_t)s->bits);
            } else if (s->size == 4) {
                float f;
                uint32_t u = (uint32_t)s->bits;
                memcpy(&f, &u, sizeof f);
                v = f;
            } else {
                memcpy(&v, &s->bits, sizeof v);
            }
            p += sprintf(p, "%a", v);
        } else {
            uint64_t mask = s->size == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * s->size)) - 1;
            uint64_t v = s->type[1] == '1' && s->type[2] == '\0' ? s->bits != 0 : s->bits & mask;
            p += sprintf(p, "%llu", (unsigned long long)v);
        }
    }
    return arg;
}

/* Writes all of `data` to a new file `path`; 0 or -1. */
static int write_file(const char *path, const void *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    const char *p = data;
    while (size) {
        ssize_t n = write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            close(fd);
            return -1;
        }
        p += n;
        size -= (size_t)n;
    }
    return close(fd);
}

/* The text of file `path` appended to *log (what the translator printed). */
static void append_file(char **log, const char *path)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return;
    char buf[1024];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf - 1, f)) > 0) {
        buf[n] = '\0';
        lanes_log_append(log, buf);
    }
    fclose(f);
}

/*
 * Runs `llvm-spirv -r` on dir/in.spv into dir/out.bc, with the
 * specialization constants of `spec_arg` (may be NULL), its output in
 * dir/messages; 0 when it exited with status 0.
 */
static int run_translator(const char dir[1024], const char *spec_arg, char **log)
{
    char in[1100], out[1100], messages[1100];
    snprintf(in, sizeof in, "%s/in.spv", dir);
    snprintf(out, sizeof out, "%s/out.bc", dir);
    snprintf(messages, sizeof messages, "%s/messages", dir);
    posix_spawn_file_actions_t actions;
    if (posix_spawn_file_actions_init(&actions) != 0)
        return -1;
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, messages, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    /* The application's descriptors stay its own (a pipe's reader would wait for the child). */
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    /* OpenCL 2.0 names for the built-ins (the ones the library defines), not __spirv_* calls. */
    char *argv[] = {(char *)LANES_LLVM_SPIRV, "-r", "--spirv-target-env=CL2.0", in, "-o", out,
                    (char *)spec_arg,         NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, LANES_LLVM_SPIRV, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        char line[1200];
        snprintf(line, sizeof line, "lanes: cannot run the SPIR-V translator %s: %s\n",
                 LANES_LLVM_SPIRV, strerror(rc));
        lanes_log_append(log, line);
        return -1;
    }
    int status = 0;
    pid_t w;
    while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    append_file(log, messages);
    unlink(messages);
    /* An application ignoring SIGCHLD reaps children itself: then the output file tells. */
    bool ok = w < 0 ? access(out, R_OK) == 0 : WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) {
        char line[128];
        if (w >= 0 && WIFSIGNALED(status))
            snprintf(line, sizeof line, "lanes: the SPIR-V translator died of signal %d\n",
                     WTERMSIG(status));
        else
            snprintf(line, sizeof line, "lanes: the SPIR-V translator refused the module\n");
        lanes_log_append(log, line);
    }
    return ok ? 0 : -1;
}

static void add_enum_attribute(LLVMContextRef ctx, LLVMValueRef f, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    if (!LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind))
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(ctx, kind, 0));
}

static void remove_enum_attribute(LLVMValueRef f, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
}

/*
 * Reshapes the translator's module into the Clang bridge's form (compare
 * LANES_DUMP=after:parse of both):
 * - built-ins under Clang's names for address spaces (rename_builtins);
 * - the host's triple and data layout instead of spir64's;
 * - the C calling convention instead of spir_func: the built-in library is
 *   compiled for the host, and a call whose convention differs from its
 *   callee's is undefined (LLVM turns it into `unreachable`); kernels keep
 *   spir_kernel, as Clang's do;
 * - every function convergent, as Clang makes every OpenCL C function
 *   (the translator drops it from some sub-group built-ins, which the
 *   clean-up before the vectorizer could then move across branches), and
 *   none `noinline` or `optnone` (the translator's output of -O0 input);
 * - a kernel without arguments still has its kernel_arg_addr_space node,
 *   by which compiler/kernel_info.c finds kernels.
 */
/*
 * The translator mangles an address space in a built-in's name by its
 * number (`PU3AS1f`, a pointer to global float), Clang by its OpenCL name
 * (`PU8CLglobal f`), and the built-in library has Clang's names. Each is
 * one vendor qualifier, so the substitution numbers of the rest stay right.
 */
static const struct {
    const char *from, *to;
} address_space_names[] = {
    {"U3AS1", "U8CLglobal"},
    {"U3AS2", "U10CLconstant"},
    {"U3AS3", "U7CLlocal"},
    {"U3AS4", "U9CLgeneric"},
};

/* Clang's mangled name for a built-in the translator declared as `name` (malloc'd), or NULL. */
static char *clang_name(const char *name, size_t len)
{
    if (len < 2 || strncmp(name, "_Z", 2) != 0 || !memmem(name, len, "U3AS", 4))
        return NULL;
    char *out = malloc(len * 3 + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < len;) {
        size_t n = sizeof address_space_names / sizeof *address_space_names, k = 0;
        while (k < n && !(len - i >= 5 && memcmp(name + i, address_space_names[k].from, 5) == 0))
            k++;
        if (k < n) {
            o += sprintf(o, "%s", address_space_names[k].to);
            i += 5;
        } else {
            *o++ = name[i++];
        }
    }
    *o = '\0';
    return out;
}

/* Renames the translator's built-in declarations to Clang's names, merging duplicates. */
static void rename_builtins(LLVMModuleRef m)
{
    LLVMValueRef next;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = next) {
        next = LLVMGetNextFunction(f);
        if (!LLVMIsDeclaration(f))
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(f, &len);
        char *to = clang_name(name, len);
        if (!to)
            continue;
        LLVMValueRef same = LLVMGetNamedFunction(m, to);
        if (same && same != f) {
            LLVMReplaceAllUsesWith(f, same);
            LLVMDeleteFunction(f);
        } else {
            LLVMSetValueName2(f, to, strlen(to));
        }
        free(to);
    }
}

static void normalize(LLVMModuleRef m, const char *triple, const char *data_layout)
{
    LLVMSetTarget(m, triple);
    LLVMSetDataLayout(m, data_layout);
    rename_builtins(m);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned arg_md = LLVMGetMDKindIDInContext(ctx, "kernel_arg_addr_space", 21);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        if (LLVMGetIntrinsicID(f))
            continue;
        if (LLVMGetFunctionCallConv(f) == LLVMSPIRFUNCCallConv)
            LLVMSetFunctionCallConv(f, LLVMCCallConv);
        if (LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv && !LLVMIsDeclaration(f)) {
            size_t n;
            LLVMValueMetadataEntry *all = LLVMGlobalCopyAllMetadata(f, &n);
            bool has = false;
            for (size_t i = 0; i < n; i++)
                has |= LLVMValueMetadataEntriesGetKind(all, (unsigned)i) == arg_md;
            LLVMDisposeValueMetadataEntries(all);
            if (!has)
                LLVMGlobalSetMetadata(f, arg_md, LLVMMDNodeInContext2(ctx, NULL, 0));
        }
        remove_enum_attribute(f, "noinline");
        remove_enum_attribute(f, "optnone");
        add_enum_attribute(ctx, f, "convergent");
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
                if (LLVMIsACallInst(i) && LLVMGetInstructionCallConv(i) == LLVMSPIRFUNCCallConv)
                    LLVMSetInstructionCallConv(i, LLVMCCallConv);
    }
}

int lanes_spirv_translate(LLVMContextRef ctx, const void *il, size_t size, const char *spec_arg,
                          const char *triple, const char *data_layout, LLVMModuleRef *out,
                          char **log)
{
    *out = NULL;
    if (!lanes_spirv_is_spirv(il, size)) {
        lanes_log_append(log, "lanes: the program's IL is not a SPIR-V module\n");
        return -1;
    }
    /* A folder of our own: nothing another process makes can take the files' names. */
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp || strlen(tmp) > 1000)
        tmp = "/tmp";
    char dir[1024], path[1100];
    snprintf(dir, sizeof dir, "%s/lanes-spirv-XXXXXX", tmp);
    if (!mkdtemp(dir)) {
        lanes_log_append(log, "lanes: cannot make a temporary folder for the SPIR-V translator\n");
        return -1;
    }
    snprintf(path, sizeof path, "%s/in.spv", dir);
    /* SPIR-V 1.4 instructions the translator cannot read, rewritten (spirv_lower.c). */
    uint32_t *aligned = malloc(size), *lowered = NULL;
    size_t lowered_words = 0;
    if (aligned) {
        memcpy(aligned, il, size);
        if (lanes_spirv_lower(aligned, size / 4, &lowered, &lowered_words) != 0)
            lowered = NULL;
    }
    int rc = lowered ? write_file(path, lowered, lowered_words * 4) : write_file(path, il, size);
    free(aligned);
    free(lowered);
    if (rc != 0)
        lanes_log_append(log, "lanes: cannot write the SPIR-V module to a temporary file\n");
    if (rc == 0)
        rc = run_translator(dir, spec_arg, log);
    unlink(path);
    snprintf(path, sizeof path, "%s/out.bc", dir);
    LLVMMemoryBufferRef buf = NULL;
    char *message = NULL;
    if (rc == 0 && LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &message) != 0) {
        lanes_log_append(log, "lanes: cannot read the SPIR-V translator's output: ");
        lanes_log_append(log, message ? message : "");
        lanes_log_append(log, "\n");
        rc = -1;
    }
    LLVMDisposeMessage(message);
    unlink(path);
    rmdir(dir);
    if (rc != 0)
        return -1;
    LLVMModuleRef m = NULL;
    rc = LLVMParseBitcodeInContext2(ctx, buf, &m) ? -1 : 0;
    LLVMDisposeMemoryBuffer(buf);
    if (rc != 0) {
        lanes_log_append(log, "lanes: LLVM cannot read the SPIR-V translator's bitcode\n");
        return -1;
    }
    normalize(m, triple, data_layout);
    *out = m;
    return 0;
}
