/* SPDX-License-Identifier: MIT */
/* Program objects: source or binary, and the result of building it. */
#ifndef LANES_RUNTIME_PROGRAM_H
#define LANES_RUNTIME_PROGRAM_H

#include "../compiler/launcher.h"
#include "object.h"

#include <pthread.h>

struct lanes_program_module;
struct lanes_spirv_spec;
/*
 * One specialization of a kernel of a program, kept by the program in a
 * list that only grows (until the program is freed or built again): readers
 * walk it without a lock. `build` is held while the launcher compiles, so
 * that one thread compiles it and the others that need it wait, while the
 * rest of the program (its queries, other specializations) goes on.
 */
struct lanes_launcher_entry {
    struct lanes_launcher_entry *next;
    const struct lanes_kernel_info *kernel;
    struct lanes_specialization spec;
    pthread_mutex_t build;
    atomic_int ready; /* launcher is set (release); 0 before, or after a failure */
    /* Tiers (lanes_launchers_for_launch): launches that ran tier 0 for it, and its state. */
    atomic_uint uses;
    atomic_bool not_cached; /* neither this process nor the disk cache had it */
    atomic_bool queued;     /* handed to the background compiler */
    /* Its width is spec.width, or 1 when the vectorizer refused; its code reference is ours. */
    struct lanes_launcher launcher;
};

/*
 * The storage of a program object's program-scope variables: one block per
 * executable, made at each build or link, initialized from the module
 * (compiler/globals.h). Every kernel command using it keeps it, so that it
 * outlives a rebuild or a release of the program while commands run.
 */
struct lanes_globals {
    atomic_uint keep;
    char *data; /* aligned as the module asks, lazily zeroed pages */
    void *map;  /* the mapping data lies in */
    size_t map_size;
};

struct _cl_program {
    struct lanes_object obj; /* refs: the application's references; valid while it exists */
    atomic_uint keep; /* the runtime's: 1 while refs > 0, plus kernels and background builds */
    cl_context context;
    char *source; /* NUL-terminated; NULL for programs made from binaries */
    size_t source_size;
    void *il; /* SPIR-V of clCreateProgramWithIL, as given; NULL for the others */
    size_t il_size;
    pthread_mutex_t lock; /* guards everything below */
    cl_build_status status;
    cl_program_binary_type binary_type;
    char *options;                       /* of the last build, "" before one */
    char *log;                           /* of the last build, "" before one */
    struct lanes_program_module *module; /* NULL until built */
    struct lanes_spirv_spec *specs;      /* specialization constants set, for the next builds */
    size_t num_specs;
    bool kernel_arg_info;     /* built with -cl-kernel-arg-info */
    bool uniform_work_groups; /* OpenCL C 1.x or -cl-uniform-work-group-size */
    /* Compiled specializations (runtime/ndrange.c): read without the lock, grown under it. */
    _Atomic(struct lanes_launcher_entry *) launchers;
    struct lanes_globals *globals; /* of the executable; NULL when it has no variables */
    atomic_uint kernels;           /* kernel objects attached */
};
LANES_OBJECT_FIRST(struct _cl_program);

/* True when `p` is a live program. */
static inline bool lanes_program_valid(cl_program p)
{
    return lanes_object_is(p, LANES_KIND_PROGRAM);
}

/* Takes one of the runtime's references (a kernel, a build in the background). */
/* A new program of `context` in state CL_BUILD_NONE; NULL when out of memory. */
cl_program lanes_program_new(cl_context context);

/* Replaces a malloc'd string field, keeping the old one when out of memory. */
void lanes_string_replace(char **field, const char *value);

/* Frees a program's table of launchers (the list behind p->launchers). */
void lanes_program_free_launchers(struct lanes_launcher_entry *list);

void lanes_program_retain(cl_program p);

/* Drops one of the runtime's references; the last frees the program. */
void lanes_program_release(cl_program p);

/* clRetainProgram, clReleaseProgram (object.h); the latter false when the application holds none.
 */
void lanes_program_retain_handle(cl_program p);
bool lanes_program_release_handle(cl_program p);

/*
 * A new block of the variables of executable `m`, with their initial
 * values; NULL in *out when `m` has none. Returns 0, or -1 with a build log
 * line in *error (malloc'd).
 */
int lanes_globals_create(const struct lanes_program_module *m, struct lanes_globals **out,
                         char **error);

/* Keeps a block alive; lanes_globals_unkeep lets go (NULL is allowed in both). */
void lanes_globals_keep(struct lanes_globals *g);
void lanes_globals_unkeep(struct lanes_globals *g);

#endif
