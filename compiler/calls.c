/* SPDX-License-Identifier: MIT */
/*
 * One depth-first walk of the call graph, with an explicit stack (a long
 * chain of calls in a program must not exhaust the driver's own stack):
 * an edge to a function still on the stack closes a cycle; a function
 * reaches printf once all its callees are done.
 */
#include "calls.h"

#include "names.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Cycles named in the log; any more are counted. */
#define MAX_CYCLES_NAMED 16

enum { WHITE, GREY, BLACK };

struct node {
    LLVMValueRef fn;
    size_t *callees; /* distinct defined functions it calls */
    size_t num_callees;
    bool calls_printf; /* directly */
    bool reaches_printf;
    uint8_t state;
    size_t depth; /* its place on the walk's stack while GREY */
};

struct lanes_calls {
    size_t n;
    struct node *nodes;
    struct entry {
        LLVMValueRef fn;
        size_t index;
    } * sorted; /* by function, for lookups */
    char *recursion;
    size_t len, cap;
    unsigned cycles;
};

static int by_fn(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct entry *)a)->fn;
    uintptr_t y = (uintptr_t)((const struct entry *)b)->fn;
    return (x > y) - (x < y);
}

static int by_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The node of `f`, or SIZE_MAX when `f` is not a function of the graph. */
static size_t index_of(const struct lanes_calls *c, LLVMValueRef f)
{
    struct entry key = {f, 0};
    const struct entry *e = bsearch(&key, c->sorted, c->n, sizeof key, by_fn);
    return e ? e->index : SIZE_MAX;
}

/* Appends `s` (of `len` bytes) to the recursion log; false when out of memory. */
static bool append(struct lanes_calls *c, const char *s, size_t len)
{
    if (c->len + len + 1 > c->cap) {
        size_t cap = (c->len + len + 1) * 2;
        char *grown = realloc(c->recursion, cap);
        if (!grown)
            return false;
        c->recursion = grown;
        c->cap = cap;
    }
    memcpy(c->recursion + c->len, s, len);
    c->len += len;
    c->recursion[c->len] = '\0';
    return true;
}

/* Names the cycle made of stack[from..top] and the edge back to stack[from]. */
static bool name_cycle(struct lanes_calls *c, const size_t *stack, size_t from, size_t top)
{
    if (c->cycles++ >= MAX_CYCLES_NAMED)
        return true;
    static const char head[] = "error: recursion is not allowed in OpenCL C: ";
    bool ok = append(c, head, sizeof head - 1);
    for (size_t i = from; ok && i <= top; i++) {
        size_t len;
        const char *name = LLVMGetValueName2(c->nodes[stack[i]].fn, &len);
        ok = append(c, name, len) && append(c, " -> ", 4);
    }
    size_t len;
    const char *name = LLVMGetValueName2(c->nodes[stack[from]].fn, &len);
    return ok && append(c, name, len) && append(c, "\n", 1);
}

/* Fills in the callees of every node; false when out of memory. */
static bool read_edges(struct lanes_calls *c)
{
    size_t *buf = NULL, cap = 0;
    bool ok = true;
    for (size_t v = 0; ok && v < c->n; v++) {
        struct node *node = &c->nodes[v];
        size_t n = 0;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(node->fn); ok && bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); ok && i;
                 i = LLVMGetNextInstruction(i)) {
                LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
                if (!callee || !LLVMIsAFunction(callee))
                    continue;
                size_t len;
                const char *name = LLVMGetValueName2(callee, &len);
                if (lanes_name_lookup(name, len) == LANES_NAME_PRINTF)
                    node->calls_printf = true;
                size_t w = index_of(c, callee);
                if (w == SIZE_MAX)
                    continue;
                if (n == cap) {
                    size_t *grown = realloc(buf, (cap = cap ? cap * 2 : 16) * sizeof *buf);
                    if (!grown) {
                        ok = false;
                        break;
                    }
                    buf = grown;
                }
                buf[n++] = w;
            }
        if (!ok || n == 0)
            continue;
        /* Each callee once, however many calls. */
        qsort(buf, n, sizeof *buf, by_index);
        size_t u = 0;
        for (size_t k = 0; k < n; k++)
            if (u == 0 || buf[u - 1] != buf[k])
                buf[u++] = buf[k];
        node->callees = malloc(u * sizeof *node->callees);
        ok = node->callees != NULL;
        if (ok) {
            memcpy(node->callees, buf, u * sizeof *buf);
            node->num_callees = u;
        }
    }
    free(buf);
    return ok;
}

/* The walk: cycles named, printf reach computed; false when out of memory. */
static bool walk(struct lanes_calls *c)
{
    size_t *stack = malloc((c->n ? c->n : 1) * sizeof *stack);
    size_t *next = malloc((c->n ? c->n : 1) * sizeof *next); /* the next callee to visit */
    bool ok = stack && next;
    for (size_t root = 0; ok && root < c->n; root++) {
        if (c->nodes[root].state != WHITE)
            continue;
        size_t top = 0;
        stack[0] = root;
        next[0] = 0;
        c->nodes[root].state = GREY;
        c->nodes[root].depth = 0;
        for (;;) {
            struct node *v = &c->nodes[stack[top]];
            if (next[top] < v->num_callees) {
                size_t w = v->callees[next[top]++];
                struct node *callee = &c->nodes[w];
                if (callee->state == WHITE) {
                    callee->state = GREY;
                    callee->depth = ++top;
                    stack[top] = w;
                    next[top] = 0;
                } else if (callee->state == GREY && !name_cycle(c, stack, callee->depth, top)) {
                    ok = false;
                    break;
                }
                continue;
            }
            v->reaches_printf = v->calls_printf;
            for (size_t k = 0; k < v->num_callees; k++)
                v->reaches_printf |= c->nodes[v->callees[k]].reaches_printf;
            v->state = BLACK;
            if (top-- == 0)
                break;
        }
    }
    if (ok && c->cycles > MAX_CYCLES_NAMED) {
        char line[96];
        int len = snprintf(line, sizeof line, "error: and %u more cycles of calls\n",
                           c->cycles - MAX_CYCLES_NAMED);
        ok = append(c, line, (size_t)len);
    }
    free(stack);
    free(next);
    return ok;
}

struct lanes_calls *lanes_calls_of(LLVMModuleRef m)
{
    struct lanes_calls *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        c->n += !LLVMIsDeclaration(f);
    c->nodes = calloc(c->n ? c->n : 1, sizeof *c->nodes);
    c->sorted = malloc((c->n ? c->n : 1) * sizeof *c->sorted);
    if (!c->nodes || !c->sorted) {
        lanes_calls_free(c);
        return NULL;
    }
    size_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f)) {
            c->nodes[n].fn = f;
            c->sorted[n] = (struct entry){f, n};
            n++;
        }
    qsort(c->sorted, c->n, sizeof *c->sorted, by_fn);
    if (!read_edges(c) || !walk(c)) {
        lanes_calls_free(c);
        return NULL;
    }
    return c;
}

void lanes_calls_free(struct lanes_calls *c)
{
    if (!c)
        return;
    for (size_t i = 0; c->nodes && i < c->n; i++)
        free(c->nodes[i].callees);
    free(c->nodes);
    free(c->sorted);
    free(c->recursion);
    free(c);
}

const char *lanes_calls_recursion(const struct lanes_calls *c)
{
    return c->cycles ? c->recursion : NULL;
}

bool lanes_calls_reach_printf(const struct lanes_calls *c, LLVMValueRef f)
{
    size_t v = index_of(c, f);
    return v != SIZE_MAX && c->nodes[v].reaches_printf;
}
