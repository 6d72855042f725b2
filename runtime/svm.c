/* SPDX-License-Identifier: MIT */
/* The per-context registry of SVM allocations. */
#include "svm.h"

#include "context.h"

#include <stdint.h>
#include <stdlib.h>

void *lanes_svm_alloc(cl_context c, cl_svm_mem_flags flags, size_t size, size_t alignment)
{
    struct lanes_svm_alloc *a = malloc(sizeof *a);
    if (!a)
        return NULL;
    size_t rounded = (size + alignment - 1) & ~(alignment - 1);
    if (rounded < size || !(a->base = aligned_alloc(alignment, rounded))) {
        free(a);
        return NULL;
    }
    a->size = size;
    a->flags = flags;
    pthread_mutex_lock(&c->lock);
    a->next = c->svm;
    c->svm = a;
    pthread_mutex_unlock(&c->lock);
    return a->base;
}

bool lanes_svm_free(cl_context c, void *ptr)
{
    pthread_mutex_lock(&c->lock);
    struct lanes_svm_alloc **at = &c->svm;
    while (*at && (*at)->base != ptr)
        at = &(*at)->next;
    struct lanes_svm_alloc *a = *at;
    if (a)
        *at = a->next;
    pthread_mutex_unlock(&c->lock);
    if (!a)
        return false;
    free(a->base);
    free(a);
    return true;
}

bool lanes_svm_find(cl_context c, const void *ptr, char **base, size_t *size)
{
    uintptr_t p = (uintptr_t)ptr;
    bool found = false;
    pthread_mutex_lock(&c->lock);
    for (struct lanes_svm_alloc *a = c->svm; a && !found; a = a->next) {
        if (p >= (uintptr_t)a->base && p - (uintptr_t)a->base < a->size) {
            found = true;
            if (base)
                *base = a->base;
            if (size)
                *size = a->size;
        }
    }
    pthread_mutex_unlock(&c->lock);
    return found;
}

void lanes_svm_free_all(cl_context c)
{
    for (struct lanes_svm_alloc *a = c->svm, *next; a; a = next) {
        next = a->next;
        free(a->base);
        free(a);
    }
    c->svm = NULL;
}
