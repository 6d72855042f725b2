/* SPDX-License-Identifier: MIT */
/*
 * The vectorizer's driver: shapes, then (when some branch diverges)
 * linearization and shapes again, then widening; the vector function
 * takes the scalar one's place. LANES_DUMP=shapes prints every
 * instruction's shape, LANES_DUMP=ir the vectorized function (golden
 * tests read both).
 */
#include "vectorize.h"

#include "vz.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t slot(const struct vz_map *m, const void *key)
{
    uintptr_t h = (uintptr_t)key;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 7) & (m->cap - 1);
}

static void grow(struct vz_map *m)
{
    struct vz_map bigger = {.cap = m->cap ? m->cap * 2 : 64};
    bigger.keys = calloc(bigger.cap, sizeof *bigger.keys);
    bigger.vals = calloc(bigger.cap, sizeof *bigger.vals);
    if (!bigger.keys || !bigger.vals)
        abort(); /* nothing sensible to do without memory in the middle of a compile */
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i])
            vz_map_put(&bigger, m->keys[i], m->vals[i]);
    vz_map_free(m);
    *m = bigger;
}

void vz_map_put(struct vz_map *m, const void *key, uint64_t val)
{
    if (2 * (m->count + 1) > m->cap)
        grow(m);
    for (size_t i = slot(m, key);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i]) {
            m->keys[i] = key;
            m->vals[i] = val;
            m->count++;
            return;
        }
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return;
        }
    }
}

bool vz_map_get(const struct vz_map *m, const void *key, uint64_t *val)
{
    if (!m->cap)
        return false;
    for (size_t i = slot(m, key);; i = (i + 1) & (m->cap - 1)) {
        if (!m->keys[i])
            return false;
        if (m->keys[i] == key) {
            *val = m->vals[i];
            return true;
        }
    }
}

void vz_map_free(struct vz_map *m)
{
    free(m->keys);
    free(m->vals);
    *m = (struct vz_map){0};
}

void vz_refuse(struct vz *v, LLVMValueRef where, const char *what)
{
    if (v->why)
        return;
    char buf[600];
    char *text = where ? LLVMPrintValueToString(where) : NULL;
    if (text) {
        char *s = text;
        while (*s == ' ')
            s++;
        snprintf(buf, sizeof buf, "%s (at `%.300s`)", what, s);
        LLVMDisposeMessage(text);
    } else {
        snprintf(buf, sizeof buf, "%s", what);
    }
    v->why = strdup(buf);
}

LLVMValueRef vz_callee(LLVMValueRef i, const char **name)
{
    LLVMValueRef f = LLVMGetCalledValue(i);
    if (!f || !LLVMIsAFunction(f))
        return NULL;
    size_t len;
    *name = LLVMGetValueName2(f, &len);
    return f;
}

void vz_build_return(struct vz *v, LLVMBuilderRef b)
{
    LLVMTypeRef t = LLVMGetReturnType(LLVMGlobalGetValueType(v->fn));
    if (LLVMGetTypeKind(t) == LLVMVoidTypeKind)
        LLVMBuildRetVoid(b);
    else
        LLVMBuildRet(b, LLVMGetPoison(t));
}

LLVMValueRef vz_function(struct vz *v, const char *name, LLVMTypeRef t)
{
    LLVMValueRef f = LLVMGetNamedFunction(v->m, name);
    return f ? f : LLVMAddFunction(v->m, name, t);
}

/* What LANES_DUMP asks for ("shapes", "ir"), read once. */
static const char *dump(void)
{
    static const char *what;
    static bool read;
    if (!read) {
        what = getenv("LANES_DUMP");
        read = true;
    }
    return what ? what : "";
}

static const char *kind_name(enum vz_kind k)
{
    switch (k) {
    case VZ_UNIFORM: return "uniform";
    case VZ_CONTIGUOUS: return "contiguous";
    case VZ_VARYING: return "varying";
    default: return "unknown";
    }
}

/* One line per instruction that has a value: "<shape>: <instruction>". */
static void print_shapes(struct vz *v)
{
    size_t len;
    fprintf(stderr, "; lanes shapes: %s at width %u%s\n", LLVMGetValueName2(v->fn, &len), v->w,
            v->linearized ? " (linearized)" : "");
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(v->fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
            if (LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMVoidTypeKind)
                continue;
            struct vz_shape s = vz_shape_of(v, i);
            char *text = LLVMPrintValueToString(i);
            const char *t = text;
            while (*t == ' ')
                t++;
            if (s.kind == VZ_CONTIGUOUS)
                fprintf(stderr, "contiguous(%lld): %s\n", (long long)s.stride, t);
            else
                fprintf(stderr, "%s: %s\n", kind_name(s.kind), t);
            LLVMDisposeMessage(text);
        }
}

int lanes_vectorize(LLVMValueRef *sg, const struct lanes_specialization *spec, char **why)
{
    struct vz v = {.fn = *sg, .spec = spec, .w = spec->width};
    v.m = LLVMGetGlobalParent(v.fn);
    v.ctx = LLVMGetModuleContext(v.m);
    v.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(v.m));
    v.b = LLVMCreateBuilderInContext(v.ctx);
    v.i1 = LLVMInt1TypeInContext(v.ctx);
    v.i32 = LLVMInt32TypeInContext(v.ctx);
    v.i64 = LLVMInt64TypeInContext(v.ctx);
    uint64_t items = 1;
    for (unsigned d = 0; d < 3; d++)
        items *= lanes_spec_group_size(spec, d);
    /* Every sub-group full: tier 0 knows it only from whole rows. */
    v.full = spec->dynamic ? lanes_spec_rows(spec) : items % v.w == 0;

    if (strstr(dump(), "scalar")) {
        char *text = LLVMPrintValueToString(v.fn);
        fprintf(stderr, "; lanes: before vectorizing\n%s\n", text);
        LLVMDisposeMessage(text);
    }
    int rc = vz_shapes(&v);
    if (rc == 0 && vz_divergent(&v)) {
        vz_map_free(&v.shapes);
        rc = vz_linearize(&v);
        if (rc == 0 && strstr(dump(), "linear")) {
            char *text = LLVMPrintValueToString(v.fn);
            fprintf(stderr, "; lanes: linearized\n%s\n", text);
            LLVMDisposeMessage(text);
        }
        if (rc == 0)
            rc = vz_shapes(&v);
    }
    if (rc == 0 && strstr(dump(), "shapes"))
        print_shapes(&v);
    if (rc == 0)
        rc = vz_widen(&v);
    char *message = NULL;
    if (rc == 0 && LLVMVerifyModule(v.m, LLVMReturnStatusAction, &message)) {
        /* A bug of the vectorizer's: the kernel still runs, at width 1, and the log says so. */
        char buf[400];
        snprintf(buf, sizeof buf, "internal error: the vectorized function is not valid IR: %.300s",
                 message ? message : "");
        for (char *c = buf; *c; c++)
            if (*c == '\n')
                *c = ' ';
        vz_refuse(&v, NULL, buf);
        if (strstr(dump(), "ir")) {
            char *text = LLVMPrintValueToString(v.vfn);
            fprintf(stderr, "; lanes: invalid vectorized function\n%s\n", text);
            LLVMDisposeMessage(text);
        }
        LLVMDeleteFunction(v.vfn);
        rc = -1;
    }
    LLVMDisposeMessage(message);
    if (rc == 0) {
        size_t len;
        char *name = strdup(LLVMGetValueName2(v.fn, &len));
        LLVMDeleteFunction(v.fn);
        LLVMSetValueName2(v.vfn, name, strlen(name));
        free(name);
        *sg = v.vfn;
        if (strstr(dump(), "ir")) {
            char *text = LLVMPrintValueToString(v.vfn);
            fprintf(stderr, "; lanes vectorized at width %u\n%s\n", v.w, text);
            LLVMDisposeMessage(text);
        }
    } else {
        *why = v.why ? v.why : strdup("unknown reason");
        v.why = NULL;
    }
    free(v.why);
    vz_map_free(&v.shapes);
    vz_map_free(&v.vals);
    vz_map_free(&v.vecs);
    vz_map_free(&v.blocks);
    vz_map_free(&v.block_end);
    vz_map_free(&v.aos);
    LLVMDisposeBuilder(v.b);
    LLVMDisposeTargetData(v.td);
    return rc;
}
