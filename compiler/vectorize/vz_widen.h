/* SPDX-License-Identifier: MIT */
/*
 * What the rooms of the widening share (internal to compiler/vectorize/):
 * vz_widen.c dispatches instruction by instruction to the helpers below,
 * each defined in the file its group names.
 */
#ifndef LANES_COMPILER_VECTORIZE_VZ_WIDEN_H
#define LANES_COMPILER_VECTORIZE_VZ_WIDEN_H

#include "vz.h"

#include <llvm-c/Core.h>

/* Values (vz_values.c). */

/* The vector form of scalar type t (NULL when there is none). */
LLVMTypeRef vz_vec_type(struct vz *v, LLVMTypeRef t);
/* The number of components of an aggregate (vector types count their elements), 0 for scalars. */
unsigned vz_components(LLVMTypeRef t);
/* The type of component k of aggregate t. */
LLVMTypeRef vz_component_type(LLVMTypeRef t, unsigned k);
/* A call of intrinsic `name` at the overloaded types `overloads`, built where the builder is. */
LLVMValueRef vz_intrinsic(struct vz *v, const char *name, LLVMTypeRef *overloads, size_t n,
                          LLVMValueRef *args, unsigned nargs);
/* x in every lane (x of scalar type t, or an aggregate: the same aggregate of splats). */
LLVMValueRef vz_splat(struct vz *v, LLVMValueRef x);
/* <0, s, 2s, ...> of integer type t. */
LLVMValueRef vz_iota(struct vz *v, LLVMTypeRef t, int64_t stride);
/* Lane 0's value of contiguous `base` plus lane * stride, as a vector. */
LLVMValueRef vz_progression(struct vz *v, LLVMValueRef base, int64_t stride);
/* The scalar standing for `x` (uniform: its value; contiguous: lane 0's). */
LLVMValueRef vz_scalar(struct vz *v, LLVMValueRef x);
/* The vector form of `x`, whatever its shape (built where the builder is). */
LLVMValueRef vz_vector(struct vz *v, LLVMValueRef x);
/* Lane idx of `x` as a scalar of x's type. */
LLVMValueRef vz_lane_of(struct vz *v, LLVMValueRef x, LLVMValueRef idx);
/* `vec` (a vector form of type t's) with lane idx set to scalar `x`. */
LLVMValueRef vz_set_lane(struct vz *v, LLVMValueRef vec, LLVMTypeRef t, LLVMValueRef idx,
                         LLVMValueRef x);

/* Lanes (vz_lanes.c). */

/* The lanes the current block runs under (NULL: all of them). */
LLVMValueRef vz_mask(struct vz *v);
/* True when some lane of `m` is on (m NULL: true). */
LLVMValueRef vz_any(struct vz *v, LLVMValueRef m);
/* A new block at the end of the vector function (the builder stays where it is). */
LLVMBasicBlockRef vz_new_block(struct vz *v, const char *name);

/*
 * Runs what `body` builds only when `cond` holds; returns the value it
 * built (or `otherwise` when it did not run) as a phi.
 */
struct vz_guard {
    LLVMBasicBlockRef from, then, join;
};

/* Opens a guard: what is built next runs only when `cond` holds. */
struct vz_guard vz_guard_begin(struct vz *v, LLVMValueRef cond);
/* Closes guard g: `value` where it ran, `otherwise` where it did not, as a phi (NULL: none). */
LLVMValueRef vz_guard_end(struct vz *v, struct vz_guard *g, LLVMValueRef value,
                          LLVMValueRef otherwise);
/* A copy of scalar instruction `i` with its operands replaced by lane idx's (NULL: the scalars). */
LLVMValueRef vz_clone_with(struct vz *v, LLVMValueRef i, LLVMValueRef idx);
/* A private slot for one <W x T> in the vector function's entry block, aligned for vectors. */
LLVMValueRef vz_entry_slot(struct vz *v, LLVMTypeRef t);

/*
 * A lane loop's stack slot: W elements of a scalar type, one lane's at a
 * time. Integers of no whole number of bytes (a mask's i1) are kept as the
 * next whole bytes, since a <W x i1> in memory is W bits, not W elements.
 */
struct vz_lane_slot {
    LLVMValueRef at;
    LLVMTypeRef t;  /* the scalar type */
    LLVMTypeRef st; /* the type of its elements in memory */
};

/* A lane slot of scalar type t in the entry block. */
struct vz_lane_slot vz_lane_slot(struct vz *v, LLVMTypeRef t);
/* Stores the vector x of type <W x s->t> into s, a lane per element. */
void vz_lane_slot_fill(struct vz *v, const struct vz_lane_slot *s, LLVMValueRef x);
/* The <W x s->t> held in s. */
LLVMValueRef vz_lane_slot_vector(struct vz *v, const struct vz_lane_slot *s);
/* Lane idx's element of s. */
LLVMValueRef vz_lane_slot_load(struct vz *v, const struct vz_lane_slot *s, LLVMValueRef idx);
/* Sets lane idx's element of s to `x`. */
void vz_lane_slot_store(struct vz *v, const struct vz_lane_slot *s, LLVMValueRef idx,
                        LLVMValueRef x);

/*
 * A loop over the set bits of a lane mask, lowest first. vz_lanes_begin ends
 * the current block with a branch into the loop (when `skip` is not NULL,
 * only if some bit is set, else to `skip`), opens its `body` with the phis
 * of `n` more values (starting at `init`, in `phi`) and gives the lane's
 * index; vz_lanes_end sets their next values and goes back while bits are
 * left, else on to `exit`.
 */
struct vz_lanes {
    LLVMValueRef bits, left, idx;
    LLVMValueRef phi[2];
    unsigned n;
    LLVMBasicBlockRef from, end; /* the blocks the loop is entered and left from */
};

/* The mask as a W-bit integer, a bit per lane (all lanes when m is NULL). */
LLVMValueRef vz_mask_word(struct vz *v, LLVMValueRef m);
/* True when some bit of `bits` is set. */
LLVMValueRef vz_any_bit(struct vz *v, LLVMValueRef bits);
/* Enters a loop over the set bits of `bits` (struct vz_lanes). */
void vz_lanes_begin(struct vz *v, struct vz_lanes *L, LLVMValueRef bits, LLVMBasicBlockRef skip,
                    LLVMBasicBlockRef body, unsigned n, const LLVMValueRef *init);
/* Ends the loop of L: the phis' `next` values, on to `exit` when no bit is left. */
void vz_lanes_end(struct vz *v, struct vz_lanes *L, LLVMBasicBlockRef exit,
                  const LLVMValueRef *next);
/* Runs `i` once per lane in lane order (only the active ones when `masked`): the results. */
LLVMValueRef vz_per_lane(struct vz *v, LLVMValueRef i, bool masked);
/* Lanes of an <W x i1> as a bit mask (bit l: lane l). */
LLVMValueRef vz_lane_bits(struct vz *v, LLVMValueRef m);
/* The active lanes as a bit mask (bit l: lane l). */
LLVMValueRef vz_mask_bits(struct vz *v);
/* The value of `x` in the first active lane (lane 0 when none is). */
LLVMValueRef vz_first_active(struct vz *v, LLVMValueRef x);

/* Memory (vz_memory.c). */

/* Scalar type t's accesses: bytes of memory per lane, when it has no padding bits. */
bool vz_plain_scalar(struct vz *v, LLVMTypeRef t);
/* Elements [first, first + n) of vector x. */
LLVMValueRef vz_slice(struct vz *v, LLVMValueRef x, unsigned first, unsigned n);
/* The vectors parts[0, count), each of n elements, end to end (count a power of two). */
LLVMValueRef vz_concat(struct vz *v, LLVMValueRef *parts, unsigned count, unsigned n);
/* The vector form of OpenCL vector type t as the W lanes' values end to end. */
LLVMValueRef vz_interleave(struct vz *v, LLVMTypeRef t, LLVMValueRef val);
/* The inverse of vz_interleave: each component's <W x e> picked out of `all`. */
LLVMValueRef vz_deinterleave(struct vz *v, LLVMTypeRef t, LLVMValueRef all);
/* A load of a uniform, contiguous or varying address. */
LLVMValueRef vz_widen_load(struct vz *v, LLVMValueRef i);

/* Strips what could turn lane 0's value into poison when lane 0 is off (linearized code). */
void vz_drop_poison_flags(LLVMValueRef c);
/* A store of any value at a uniform, contiguous or varying address. */
void vz_widen_store(struct vz *v, LLVMValueRef i);

/* Calls (vz_calls.c). */

/* The vector form of call `call`: the call resolver's one entry (NULL: none, or refused). */
LLVMValueRef vz_widen_call(struct vz *v, LLVMValueRef call);

/* Atomics (vz_atomics.c). */

/* An atomicrmw: one for the sub-group where the active lanes share an address, else per lane. */
LLVMValueRef vz_widen_atomicrmw(struct vz *v, LLVMValueRef i);
/* A cmpxchg at a uniform address, as at most one for the sub-group (NULL: not uniform). */
LLVMValueRef vz_combined_cmpxchg(struct vz *v, LLVMValueRef i);

/* Elementwise operations (vz_widen.c). */

/* Copies the wrap, exact and fast-math flags of instruction `from` onto `to`. */
void vz_copy_flags(LLVMValueRef from, LLVMValueRef to);

#endif
