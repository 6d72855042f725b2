/* SPDX-License-Identifier: MIT */
/*
 * What every part of the vectorizer shares (vz.h): the map from LLVM
 * values to shapes and to their widened forms, the refusal record, and
 * small IR helpers. No file of vectorize/ that this one serves is needed
 * here: the driver (vectorize.c) calls the parts, the parts call this.
 */
#include "vz.h"

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
