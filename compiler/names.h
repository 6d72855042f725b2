/* SPDX-License-Identifier: MIT */
/*
 * The functions the compiler recognizes by name and lowers itself, in one
 * table (compiler/names.c): the work-item functions, the generic address
 * space's, printf, barriers and fences; and the family the vectorizer maps
 * to vector forms by name, which the first link of the library leaves out.
 */
#ifndef LANES_COMPILER_NAMES_H
#define LANES_COMPILER_NAMES_H

#include <llvm-c/Types.h>
#include <stdbool.h>
#include <stddef.h>

/* What a recognized function is, grouped by the pass that lowers it. */
enum lanes_name {
    LANES_NAME_NONE,
    /* The work-item functions and the library's __lanes_wg_scratch (compiler/workitem.c). */
    LANES_NAME_WORK_DIM,
    LANES_NAME_GLOBAL_SIZE,
    LANES_NAME_GLOBAL_ID,
    LANES_NAME_LOCAL_SIZE,
    LANES_NAME_ENQUEUED_LOCAL_SIZE,
    LANES_NAME_LOCAL_ID,
    LANES_NAME_NUM_GROUPS,
    LANES_NAME_GROUP_ID,
    LANES_NAME_GLOBAL_OFFSET,
    LANES_NAME_GLOBAL_LINEAR_ID,
    LANES_NAME_LOCAL_LINEAR_ID,
    LANES_NAME_SUB_GROUP_SIZE,
    LANES_NAME_MAX_SUB_GROUP_SIZE,
    LANES_NAME_NUM_SUB_GROUPS,
    LANES_NAME_ENQUEUED_NUM_SUB_GROUPS,
    LANES_NAME_SUB_GROUP_ID,
    LANES_NAME_SUB_GROUP_LOCAL_ID,
    LANES_NAME_WG_SCRATCH,
    /* The generic address space's functions (compiler/generic.c). */
    LANES_NAME_TO_GLOBAL,
    LANES_NAME_TO_LOCAL,
    LANES_NAME_TO_PRIVATE,
    LANES_NAME_GET_FENCE,
    /* printf (compiler/printf.c). */
    LANES_NAME_PRINTF,
    /* Work-group barriers: suspensions (compiler/coroutine.c), or fences. */
    LANES_NAME_BARRIER,
    /* Fences, and sub_group_barrier (a sub-group runs in lockstep) (compiler/specialize.c). */
    LANES_NAME_FENCE,
};

/* What the function called `name` (`length` bytes, as LLVM names it) is to the compiler. */
enum lanes_name lanes_name_lookup(const char *name, size_t length);

/* True when instruction `i` is a call of a work-group barrier. */
bool lanes_is_barrier(LLVMValueRef i);

/* True when instruction `i` is a yield point (LANES_YIELD_FUNCTION, compiler/yield.c). */
bool lanes_is_yield(LLVMValueRef i);

/*
 * The identifier of an Itanium-mangled name (`sin` of `_Z3sinDv4_f`) and
 * its length in *n, or NULL when `name` is not mangled.
 */
const char *lanes_mangled_identifier(const char *name, size_t length, size_t *n);

/*
 * True when `name` (mangled) is of the family the vectorizer maps to vector
 * forms by name (sub_group_* of scalars): the first link of the library
 * leaves them out (compiler/builtins.c), the vectorizer knows them
 * (vectorize/vz_subgroup.c).
 */
bool lanes_name_deferred(const char *name, size_t length);

/*
 * True for the library's byte dot products of one dword, __lanes_dpbusd and
 * __lanes_dpbusds (builtins/integer/dot.cl), which the vectorizer maps to
 * the host's VNNI instructions: like the deferred family, left out of the
 * first link.
 */
bool lanes_name_dot_form(const char *name, size_t length);

/* True for a name the first link leaves out: deferred, or a dot form. */
bool lanes_name_linked_late(const char *name, size_t length);

#endif
