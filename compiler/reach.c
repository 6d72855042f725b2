/* SPDX-License-Identifier: MIT */
/*
 * A kernel's reach, taken from its program's bitcode without reading the
 * rest of it: the bitcode is loaded lazily (function bodies stay unread),
 * the program's variable layout is computed from the whole module and
 * marked on its variables, and LLVM's linker in link-only-needed mode
 * (link_shim.cpp) copies the kernel into an empty module with what it
 * references, transitively. Only the bodies the kernel reaches are ever
 * parsed: the reach of a memset kernel in a program of 200,000
 * instructions is taken in a few milliseconds, where copying the program
 * and deleting all but the kernel took half a second per compile.
 */
#include "reach.h"

#include "crash.h"
#include "globals.h"
#include "ir.h"
#include "link_shim.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EMPTY, BUSY, DONE };

/* One kernel's reach: taken by one thread (BUSY) while the others wait for it. */
struct slot {
    atomic_int state;
    void *bitcode;
    size_t size;
};

struct lanes_reaches {
    pthread_mutex_t lock; /* with `done`, for threads waiting on a BUSY slot */
    pthread_cond_t done;
    size_t n;
    struct slot slots[];
};

void lanes_reaches_free(struct lanes_reaches *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        free(r->slots[i].bitcode);
    pthread_cond_destroy(&r->done);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

/* pm's table of reaches, made at the first need of any kernel's; NULL when out of memory. */
static struct lanes_reaches *reaches_of(const struct lanes_program_module *pm)
{
    /* The table is a cache: filling it leaves the module what it was. */
    _Atomic(struct lanes_reaches *) *field = (_Atomic(struct lanes_reaches *) *)&pm->reaches;
    struct lanes_reaches *r = atomic_load(field);
    if (r)
        return r;
    struct lanes_reaches *fresh = calloc(1, sizeof *fresh + pm->num_kernels * sizeof *fresh->slots);
    if (!fresh)
        return NULL;
    fresh->n = pm->num_kernels;
    for (size_t i = 0; i < fresh->n; i++)
        atomic_init(&fresh->slots[i].state, EMPTY);
    pthread_mutex_init(&fresh->lock, NULL);
    pthread_cond_init(&fresh->done, NULL);
    if (atomic_compare_exchange_strong(field, &r, fresh))
        return fresh;
    lanes_reaches_free(fresh); /* another thread's came first: r is it */
    return r;
}

/* Milliseconds on a monotonic clock, for LANES_DUMP=time. */
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static char *message(const char *fmt, const char *kernel, const char *detail)
{
    char buf[1024];
    snprintf(buf, sizeof buf, fmt, kernel, detail);
    return strdup(buf);
}

/* Writes what kernel `name` of pm reaches into s (bitcode, malloc'd); 0, or -1 with *log. */
static int extract(const struct lanes_program_module *pm, const char *name, struct slot *s,
                   char **log)
{
    /*
     * LANES_CRASH_TEST=reach: before anything is allocated, so that the
     * sanitizers' leak check has nothing to report (a real crash abandons
     * what the extraction allocated, by design).
     */
    lanes_crash_test("reach");
    double t0 = now_ms();
    LLVMContextRef ctx = LLVMContextCreate();
    /* The lazy module owns the buffer, which borrows pm's bytes. */
    LLVMMemoryBufferRef buf =
        LLVMCreateMemoryBufferWithMemoryRange(pm->bitcode, pm->bitcode_size, "program", 0);
    LLVMModuleRef src = NULL, dst = NULL;
    char *error = NULL;
    int rc = -1;
    if (LLVMGetBitcodeModuleInContext2(ctx, buf, &src) != 0) {
        src = NULL;
        *log = message("lanes: kernel %s: %s\n", name, "the program's bitcode is unreadable");
        goto out;
    }
    /* Offsets in the program's block are the program's, whatever one kernel uses of it. */
    struct lanes_globals_layout layout;
    if (lanes_globals_layout(src, &layout, log) != 0)
        goto out;
    lanes_globals_mark(&layout);
    lanes_globals_layout_free(&layout);
    LLVMValueRef kernel = LLVMGetNamedFunction(src, name);
    if (!kernel || LLVMIsDeclaration(kernel)) {
        *log = message("lanes: kernel %s: %s\n", name, "not found in the program module");
        goto out;
    }
    size_t len;
    const char *id = LLVMGetModuleIdentifier(src, &len);
    char *id_copy = strndup(id, len);
    dst = LLVMModuleCreateWithNameInContext(id_copy ? id_copy : "program", ctx);
    free(id_copy);
    const char *file = LLVMGetSourceFileName(src, &len);
    LLVMSetSourceFileName(dst, file, len);
    LLVMSetTarget(dst, LLVMGetTarget(src));
    LLVMSetDataLayout(dst, LLVMGetDataLayoutStr(src));
    /* A declaration of the kernel is what the linker brings a definition for. */
    LLVMAddFunction(dst, name, LLVMGlobalGetValueType(kernel));
    int linked = lanes_link_only_needed(dst, src, NULL, &error);
    src = NULL; /* consumed */
    if (linked != 0) {
        *log = message("lanes: kernel %s: taking it from its program: %s\n", name,
                       error ? error : "linking failed");
        goto out;
    }
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(dst);
    s->size = bc ? LLVMGetBufferSize(bc) : 0;
    s->bitcode = bc ? malloc(s->size ? s->size : 1) : NULL;
    if (s->bitcode) {
        memcpy(s->bitcode, LLVMGetBufferStart(bc), s->size);
        rc = 0;
    } else {
        *log = message("lanes: kernel %s: %s\n", name, "out of host memory taking its reach");
    }
    if (bc)
        LLVMDisposeMemoryBuffer(bc);
    const char *dump = getenv("LANES_DUMP");
    if (rc == 0 && dump && strstr(dump, "time")) {
        size_t functions, instructions = lanes_count_instructions(dst, &functions);
        fprintf(stderr,
                "lanes: kernel %s: its reach (%zu function%s, %zu instructions) taken from the "
                "program (%zu bytes of bitcode) in %.2f ms\n",
                name, functions, functions == 1 ? "" : "s", instructions, pm->bitcode_size,
                now_ms() - t0);
    }
out:
    free(error);
    if (dst)
        LLVMDisposeModule(dst);
    if (src)
        LLVMDisposeModule(src);
    LLVMContextDispose(ctx);
    return rc;
}

/* The slot this thread is filling: after a crash, lanes_reach_abandon gives it back. */
static _Thread_local struct {
    struct lanes_reaches *table;
    struct slot *slot;
} filling;

/* Marks `s` EMPTY or DONE and wakes the threads waiting for it. */
static void finish(struct lanes_reaches *r, struct slot *s, int state)
{
    pthread_mutex_lock(&r->lock);
    atomic_store(&s->state, state);
    pthread_cond_broadcast(&r->done);
    pthread_mutex_unlock(&r->lock);
}

void lanes_reach_abandon(void)
{
    if (filling.slot)
        finish(filling.table, filling.slot, EMPTY);
    filling.slot = NULL;
}

int lanes_reach_bitcode(const struct lanes_program_module *pm, const struct lanes_kernel_info *k,
                        const void **bitcode, size_t *size, char **log)
{
    size_t index = pm->num_kernels;
    if (k >= pm->kernels && k < pm->kernels + pm->num_kernels)
        index = (size_t)(k - pm->kernels);
    for (size_t i = 0; i < pm->num_kernels && index == pm->num_kernels; i++)
        if (strcmp(pm->kernels[i].name, k->name) == 0)
            index = i;
    if (index == pm->num_kernels) {
        *log = message("lanes: kernel %s: %s\n", k->name, "not found in the program module");
        return -1;
    }
    struct lanes_reaches *r = reaches_of(pm);
    if (!r) {
        *log = message("lanes: kernel %s: %s\n", k->name, "out of host memory taking its reach");
        return -1;
    }
    struct slot *s = &r->slots[index];
    for (;;) {
        int state = atomic_load(&s->state);
        if (state == DONE)
            break;
        if (state == EMPTY && atomic_compare_exchange_strong(&s->state, &state, BUSY)) {
            filling.table = r, filling.slot = s;
            int rc = extract(pm, pm->kernels[index].name, s, log);
            filling.slot = NULL;
            finish(r, s, rc == 0 ? DONE : EMPTY);
            if (rc != 0)
                return -1;
            break;
        }
        pthread_mutex_lock(&r->lock);
        while (atomic_load(&s->state) == BUSY)
            pthread_cond_wait(&r->done, &r->lock);
        pthread_mutex_unlock(&r->lock);
    }
    *bitcode = s->bitcode;
    *size = s->size;
    return 0;
}

/* Measuring: a node per function reached, its call sites as edges (one per call). */
struct node {
    LLVMValueRef fn;
    size_t own;    /* its instructions */
    size_t copies; /* call paths from the kernel: the copies inlining makes */
    size_t first_edge, num_edges;
    unsigned char state;
};

struct graph {
    struct node *nodes;
    size_t n;
    size_t *table; /* node index + 1 by function address, open addressing; 0 empty */
    size_t mask;
    size_t *edges;
    size_t num_edges, edges_cap;
};

static size_t sat_add(size_t a, size_t b)
{
    size_t r;
    return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

static size_t sat_mul(size_t a, size_t b)
{
    size_t r;
    return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

/* The node of `fn`, added when new. */
static size_t node_of(struct graph *g, LLVMValueRef fn)
{
    size_t h = (size_t)(((uintptr_t)fn >> 4) * 0x9E3779B97F4A7C15ull) & g->mask;
    while (g->table[h] && g->nodes[g->table[h] - 1].fn != fn)
        h = (h + 1) & g->mask;
    if (!g->table[h]) {
        g->nodes[g->n] = (struct node){.fn = fn};
        g->table[h] = ++g->n;
    }
    return g->table[h] - 1;
}

/* Reads node v: its instructions, switches and calls; false when out of memory. */
static bool read_node(struct graph *g, size_t v, struct lanes_reach_size *size)
{
    g->nodes[v].first_edge = g->num_edges;
    size_t own = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(g->nodes[v].fn); b;
         b = LLVMGetNextBasicBlock(b)) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
        if (t && LLVMGetInstructionOpcode(t) == LLVMSwitch &&
            LLVMGetNumSuccessors(t) - 1 > size->cases) { /* the default is a successor too */
            size->cases = LLVMGetNumSuccessors(t) - 1;
            size->switch_in = g->nodes[v].fn;
        }
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
            own++;
            LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
            if (!callee || !LLVMIsAFunction(callee) || LLVMIsDeclaration(callee))
                continue;
            if (g->num_edges == g->edges_cap) {
                size_t cap = g->edges_cap ? 2 * g->edges_cap : 64;
                size_t *grown = realloc(g->edges, cap * sizeof *grown);
                if (!grown)
                    return false;
                g->edges = grown, g->edges_cap = cap;
            }
            g->edges[g->num_edges++] = node_of(g, callee);
        }
    }
    g->nodes[v].own = own;
    g->nodes[v].num_edges = g->num_edges - g->nodes[v].first_edge;
    return true;
}

int lanes_reach_measure(LLVMValueRef kernel, struct lanes_reach_size *size)
{
    *size = (struct lanes_reach_size){0};
    size_t functions = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(LLVMGetGlobalParent(kernel)); f;
         f = LLVMGetNextFunction(f))
        functions++;
    size_t slots = 2;
    while (slots < 2 * functions)
        slots *= 2;
    struct graph g = {.mask = slots - 1};
    g.nodes = calloc(functions, sizeof *g.nodes);
    g.table = calloc(slots, sizeof *g.table);
    size_t *order = calloc(functions, sizeof *order), *stack = calloc(functions, sizeof *stack),
           *next = calloc(functions, sizeof *next);
    bool ok = g.nodes && g.table && order && stack && next;
    if (ok)
        node_of(&g, kernel);
    /* Every function reached, read once: nodes found are appended and read in turn. */
    for (size_t v = 0; ok && v < g.n; v++)
        ok = read_node(&g, v, size);
    /*
     * Post-order by a depth-first walk with an explicit stack (a long chain
     * of calls must not exhaust the driver's); OpenCL C has no recursion,
     * and an edge back to a function on the stack is ignored.
     */
    size_t done = 0, top = 0;
    if (ok) {
        stack[top++] = 0;
        g.nodes[0].state = 1;
    }
    while (top) {
        size_t u = stack[top - 1];
        struct node *nu = &g.nodes[u];
        if (next[u] < nu->num_edges) {
            size_t w = g.edges[nu->first_edge + next[u]++];
            if (g.nodes[w].state == 0) {
                g.nodes[w].state = 1;
                stack[top++] = w;
            }
            continue;
        }
        nu->state = 2;
        order[done++] = u;
        top--;
    }
    /* Callers before callees: each call site passes its caller's copies on to the callee. */
    if (ok)
        g.nodes[0].copies = 1;
    for (size_t k = done; k-- > 0;) {
        const struct node *nu = &g.nodes[order[k]];
        for (size_t e = 0; e < nu->num_edges; e++) {
            struct node *nw = &g.nodes[g.edges[nu->first_edge + e]];
            nw->copies = sat_add(nw->copies, nu->copies);
        }
    }
    size_t most = 0;
    for (size_t v = 0; ok && v < g.n; v++) {
        const struct node *nv = &g.nodes[v];
        size_t added = sat_mul(nv->own, nv->copies);
        size->instructions = sat_add(size->instructions, added);
        if (added > most || !size->biggest) {
            most = added;
            size->biggest = nv->fn;
            size->biggest_instructions = nv->own;
            size->biggest_copies = nv->copies;
        }
    }
    free(next);
    free(stack);
    free(order);
    free(g.edges);
    free(g.table);
    free(g.nodes);
    return ok ? 0 : -1;
}
