/* SPDX-License-Identifier: MIT */
/*
 * What the vectorizer's analyses and transforms share (in the manner of
 * RV's VectorizationInfo): the function being vectorized, the width, the
 * shape of every value, and the maps of the widening.
 */
#ifndef LANES_COMPILER_VECTORIZE_VZ_H
#define LANES_COMPILER_VECTORIZE_VZ_H

#include "../abi.h"
#include "vz_cfg.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stdint.h>

/* A map from LLVM objects (values, blocks) to 64-bit values: open addressing. */
struct vz_map {
    const void **keys;
    uint64_t *vals;
    size_t cap, count;
};

void vz_map_put(struct vz_map *m, const void *key, uint64_t val);
bool vz_map_get(const struct vz_map *m, const void *key, uint64_t *val);
void vz_map_free(struct vz_map *m);

static inline void vz_map_put_value(struct vz_map *m, const void *key, LLVMValueRef v)
{
    vz_map_put(m, key, (uint64_t)(uintptr_t)v);
}

static inline LLVMValueRef vz_map_value(const struct vz_map *m, const void *key)
{
    uint64_t v;
    return vz_map_get(m, key, &v) ? (LLVMValueRef)(uintptr_t)v : NULL;
}

/*
 * The shape of a value across the lanes of a sub-group (RV's lattice):
 * the same in all (uniform: stays scalar), lane i holding base + i * stride
 * (contiguous; for pointers in bytes), or anything (varying: a vector).
 */
enum vz_kind { VZ_UNKNOWN, VZ_UNIFORM, VZ_CONTIGUOUS, VZ_VARYING };

/* Contiguous integers whose lanes' values are base + i * stride with no wrap (signed, unsigned). */
enum { VZ_EXACT_SIGNED = 1, VZ_EXACT_UNSIGNED = 2 };

struct vz_shape {
    enum vz_kind kind;
    unsigned exact; /* VZ_EXACT_* bits, for contiguous integers */
    int64_t stride; /* at most VZ_MAX_STRIDE in magnitude */
    /*
     * Low bits known to be zero in the value (uniform) or in lane 0's value
     * (contiguous); 64 when it is zero. A progression whose lane 0 is a
     * multiple of W * stride fills an aligned block and cannot wrap.
     */
    unsigned tz;
};

/* Progressions of larger strides are varying (a shape packs into 64 bits). */
#define VZ_MAX_STRIDE ((INT64_C(1) << 47) - 1)

/* Names the vectorizer gives meaning to in the scalar function it rewrites. */
#define VZ_ANY_FUNCTION "__lanes.any"               /* i1 (i1): some active lane's value is true */
#define VZ_BLOCK_MASK_FUNCTION "__lanes.block_mask" /* i1 (i1): marks a block's mask */

struct vz {
    LLVMModuleRef m;
    LLVMContextRef ctx;
    LLVMTargetDataRef td;
    LLVMValueRef fn;                         /* the scalar sub-group function */
    const struct lanes_specialization *spec; /* what the launcher promises (NULL: nothing) */
    unsigned w;
    bool full;       /* every sub-group has W lanes: no entry mask */
    bool linearized; /* divergent control flow was linearized: each block has a mask */
    struct vz_map shapes;
    struct vz_map synced; /* phis where lanes a divergent branch or loop split meet: varying */
    char *why;            /* the refusal, once one is found */

    /* Widening. */
    LLVMValueRef vfn;
    LLVMBuilderRef b;
    struct vz_map vals;   /* scalar value -> lane 0's scalar (uniform, contiguous) or the vector */
    struct vz_map vecs;   /* contiguous scalar value -> its vector */
    struct vz_map blocks; /* scalar block -> its first block in vfn */
    struct vz_map block_end; /* scalar block -> the vfn block its code ends in */
    struct vz_map
        aos; /* OpenCL vector value -> its lanes' values end to end, where one was built */
    LLVMValueRef entry_mask; /* <W x i1>, NULL when every lane is active */
    LLVMValueRef cur_mask;   /* the mask of the block being widened (NULL: every lane) */
    LLVMTypeRef i1, i32, i64;
};

/* The shape of `v` (constants, globals and arguments are uniform). */
struct vz_shape vz_shape_of(struct vz *v, LLVMValueRef value);
void vz_set_shape(struct vz *v, LLVMValueRef value, struct vz_shape s);

/* The shape instruction i has from its operands' shapes as they stand (one step, not stored). */
struct vz_shape vz_shape_transfer(struct vz *v, LLVMValueRef i);

/* Computes the shape of every instruction of v->fn; -1 with v->why on an unsupported one. */
int vz_shapes(struct vz *v);

/* True when a conditional branch or switch of v->fn has a condition that is not uniform. */
bool vz_divergent(struct vz *v);

struct vz_cfg;

/*
 * What the divergence analysis (vz_divergence.c) finds: the branches that
 * may split the lanes, the loops they may leave in different iterations
 * (value: the loop's depth), and how many blocks of exit paths it made
 * part of their loops in the vz_cfg it was given.
 */
struct vz_divergence {
    struct vz_map branches; /* block -> 1: its conditional branch diverges */
    struct vz_map loops;    /* header -> depth: the loop is divergent */
    size_t absorbed;
};

/*
 * Analyses v->fn (in loop-simplify and LCSSA form, its shapes computed)
 * with cfg, its CFG analyses: fills *d, adds to v->synced and computes the
 * shapes again, and makes exit paths part of their loops in cfg (whose
 * linear order it computes again). -1 with v->why when it cannot.
 */
int vz_divergence(struct vz *v, struct vz_cfg *cfg, struct vz_divergence *d);
/* The loop id (as a value) a sub-group call on the exit path of that loop is marked with, or
 * NULL (vz_exit_paths.c). */
LLVMValueRef vz_exit_of(LLVMValueRef call);
bool vz_divergence_branch(const struct vz_divergence *d, LLVMBasicBlockRef bb);
void vz_divergence_free(struct vz_divergence *d);

/* Rewrites v->fn so that its blocks run one after another under lane masks (vz_linearize.c). */
int vz_linearize(struct vz *v);

/* Builds v->vfn, the vector form of v->fn (vz_widen.c); -1 with v->why. */
int vz_widen(struct vz *v);

/* Records the first refusal: "<what> (in <where>)". */
void vz_refuse(struct vz *v, LLVMValueRef where, const char *what);

/* The function called by call instruction `i` if it is direct, else NULL; its name in *name. */
LLVMValueRef vz_callee(LLVMValueRef i, const char **name);

/* The distance between the lanes' copies of private variable `alloca` (its size, aligned). */
uint64_t vz_alloca_stride(struct vz *v, LLVMValueRef alloca);

/* True when call `i` reads and writes no memory: its result depends on its arguments only. */
bool vz_pure_call(LLVMValueRef i);

/*
 * A return from v->fn built with `b`: `ret void`, or poison where the
 * function returns the handle of a coroutine-to-be (compiler/coroutine.c
 * replaces every return).
 */
void vz_build_return(struct vz *v, LLVMBuilderRef b);

/*
 * The vector form of a sub-group function (vz_subgroup.c): its result is
 * uniform ('u': returned) or varying ('v': stored through a first pointer
 * parameter); each operand is passed as a pointer to its vector ('v'), as
 * the scalar of a uniform value ('u'), or, for an integer predicate, as an
 * i32 of its lanes' truth ('b': bit l set when lane l's value is non-zero);
 * a last i32 holds the active lanes.
 */
struct vz_sg_form {
    char result;
    const char *params;
};

/* True, with *form, when the function `name` (mangled) has a vector form. */
bool vz_sg_form(const char *name, struct vz_sg_form *form);

/* True when `name` (mangled) is a sub-group function, with a vector form or not. */
bool vz_sg_function(const char *name);

/* The name of the vector form at width w of sub-group function `name`. */
bool vz_sg_form_name(const char *name, unsigned w, char *out, size_t size);

/* A declaration of `name` of type `t` in v->m (added when missing). */
LLVMValueRef vz_function(struct vz *v, const char *name, LLVMTypeRef t);

/*
 * The vector form of a call of SLEEF's scalar code `name` (vz_math.c): in
 * `out`, the name of SLEEF's code of the same function and accuracy at
 * *chunk elements (the widest of the host's level that divides w), which
 * the library calls too; false when there is none.
 */
bool vz_math_form(const char *name, unsigned w, char *out, size_t size, unsigned *chunk);

/*
 * The vector form of a call of the library's byte dot product of one dword
 * `name` (vz_dot.c): in *intrinsic, the host's VNNI instruction on *chunk
 * dwords (a divisor of w); false when the host has none or w is narrower.
 */
bool vz_dot_form(const char *name, unsigned w, const char **intrinsic, unsigned *chunk);

#endif
