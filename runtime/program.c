/* SPDX-License-Identifier: MIT */
/*
 * Program objects: their making and references, the table of their
 * kernels' launchers (filled by runtime/launchers.c, freed here with the
 * program or its module), and their program-scope variables.
 */
#include "program.h"

#include "../compiler/jit.h"
#include "../compiler/program.h"
#include "context.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A new program of `context` in state CL_BUILD_NONE; NULL when out of memory. */
cl_program lanes_program_new(cl_context context)
{
    cl_program p = calloc(1, sizeof *p);
    char *options = strdup(""), *log = strdup("");
    if (!p || !options || !log || !lanes_object_init(&p->obj, LANES_KIND_PROGRAM)) {
        free(p), free(options), free(log);
        return NULL;
    }
    lanes_context_retain(context);
    p->context = context;
    atomic_init(&p->keep, 1);
    pthread_mutex_init(&p->lock, NULL);
    p->status = CL_BUILD_NONE;
    p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    p->options = options;
    p->log = log;
    return p;
}

/* Replaces a malloc'd string field, keeping the old one when out of memory. */
void lanes_string_replace(char **field, const char *value)
{
    char *s = strdup(value ? value : "");
    if (s) {
        free(*field);
        *field = s;
    }
}

void lanes_program_retain(cl_program p)
{
    atomic_fetch_add_explicit(&p->keep, 1, memory_order_relaxed);
}

void lanes_program_retain_handle(cl_program p)
{
    if (lanes_object_retain_handle(&p->obj))
        lanes_program_retain(p);
}

bool lanes_program_release_handle(cl_program p)
{
    int last = lanes_object_release_handle(&p->obj);
    if (last > 0)
        lanes_program_release(p);
    return last >= 0;
}

void lanes_program_release(cl_program p)
{
    if (atomic_fetch_sub_explicit(&p->keep, 1, memory_order_acq_rel) != 1)
        return;
    lanes_object_discard(&p->obj); /* the handle turns invalid when the object goes */
    lanes_program_free_launchers(atomic_load(&p->launchers));
    lanes_globals_unkeep(p->globals);
    lanes_program_module_free(p->module);
    free(p->source);
    free(p->il);
    free(p->specs);
    free(p->options);
    free(p->log);
    pthread_mutex_destroy(&p->lock);
    cl_context c = p->context;
    free(p);
    lanes_context_release(c);
}

int lanes_globals_create(const struct lanes_program_module *m, struct lanes_globals **out,
                         char **error)
{
    *out = NULL;
    *error = NULL;
    if (m->globals_size == 0)
        return 0;
    /*
     * Anonymous pages: zeroed, and only touched ones cost memory (a large
     * array without initializer is common). Page-aligned; a larger
     * alignment takes that much more address space.
     */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t align = m->globals_align > page ? m->globals_align : page;
    struct lanes_globals *g = calloc(1, sizeof *g);
    if (g) {
        g->map_size = (m->globals_size + page - 1) / page * page + (align - page);
        g->map =
            mmap(NULL, g->map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    if (!g || g->map == MAP_FAILED) {
        free(g);
        *error = strdup("lanes: out of host memory for the program-scope variables\n");
        return -1;
    }
    g->data = (char *)(((uintptr_t)g->map + align - 1) / align * align);
    atomic_init(&g->keep, 1);
    if (lanes_program_init_globals(m, g->data, error) != 0) {
        lanes_globals_unkeep(g);
        return -1;
    }
    *out = g;
    return 0;
}

void lanes_globals_keep(struct lanes_globals *g)
{
    if (g)
        atomic_fetch_add_explicit(&g->keep, 1, memory_order_relaxed);
}

void lanes_globals_unkeep(struct lanes_globals *g)
{
    if (!g || atomic_fetch_sub_explicit(&g->keep, 1, memory_order_acq_rel) != 1)
        return;
    munmap(g->map, g->map_size);
    free(g);
}

void lanes_program_free_launchers(struct lanes_launcher_entry *list)
{
    while (list) {
        struct lanes_launcher_entry *next = list->next;
        pthread_mutex_destroy(&list->build);
        lanes_jit_release(list->launcher.code);
        free(list);
        list = next;
    }
}
