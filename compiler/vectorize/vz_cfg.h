/* SPDX-License-Identifier: MIT */
/*
 * The CFG analyses of the whole-function vectorizer: dominators,
 * post-dominators and natural loops of one function (LLVM's own, through the
 * C++ shim vz_cfg.cpp), and the linear order linearization lays blocks out in.
 * The answers describe the function as it was when built: rebuild after
 * changing its CFG. Blocks unreachable from the entry belong to no loop and,
 * as in LLVM, are dominated by every block.
 */
#ifndef LANES_COMPILER_VECTORIZE_VZ_CFG_H
#define LANES_COMPILER_VECTORIZE_VZ_CFG_H

#include <llvm-c/Core.h>

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vz_cfg; /* dominators, post-dominators and loops of one function */

/* Analyses of fn as it is now; NULL when fn is no function with a body. */
struct vz_cfg *vz_cfg_build(LLVMValueRef fn);
/* Frees what vz_cfg_build made (NULL is allowed). */
void vz_cfg_free(struct vz_cfg *cfg);

/* Whether every path from the entry to b goes through a (a dominates itself). */
bool vz_cfg_dominates(struct vz_cfg *cfg, LLVMBasicBlockRef a, LLVMBasicBlockRef b);
/* Whether every path from b to a function exit goes through a (a post-dominates itself). */
bool vz_cfg_post_dominates(struct vz_cfg *cfg, LLVMBasicBlockRef a, LLVMBasicBlockRef b);
/* The immediate dominator of bb; NULL for the entry and unreachable blocks. */
LLVMBasicBlockRef vz_cfg_idom(struct vz_cfg *cfg, LLVMBasicBlockRef bb);
/* The immediate post-dominator of bb; NULL when none (exits, virtual root). */
LLVMBasicBlockRef vz_cfg_ipdom(struct vz_cfg *cfg, LLVMBasicBlockRef bb);

/* Loops are named by their header block. */

/* The header of the innermost loop containing bb, or NULL. */
LLVMBasicBlockRef vz_cfg_loop_of(struct vz_cfg *cfg, LLVMBasicBlockRef bb);
/* The header of the loop enclosing loop `header`, or NULL (also when header is no loop's). */
LLVMBasicBlockRef vz_cfg_parent_loop(struct vz_cfg *cfg, LLVMBasicBlockRef header);
/*
 * Marks loop `header` not to be unrolled (llvm.loop.unroll.disable in its
 * loop id, LLVM's Loop::setLoopAlreadyUnrolled); nothing for no loop's.
 */
void vz_cfg_keep_rolled(struct vz_cfg *cfg, LLVMBasicBlockRef header);
/* The loop id of loop `header` (its llvm.loop metadata), or NULL when it has none. */
LLVMMetadataRef vz_cfg_loop_id(struct vz_cfg *cfg, LLVMBasicBlockRef header);
/* The number of loops containing bb: 0 outside every loop. */
unsigned vz_cfg_loop_depth(struct vz_cfg *cfg, LLVMBasicBlockRef bb);
/* Whether loop `header` contains bb (false when header is no loop's header). */
bool vz_cfg_loop_contains(struct vz_cfg *cfg, LLVMBasicBlockRef header, LLVMBasicBlockRef bb);
/* Whether from -> to is an edge and to is the header of a loop containing from. */
bool vz_cfg_is_back_edge(struct vz_cfg *cfg, LLVMBasicBlockRef from, LLVMBasicBlockRef to);

/*
 * The blocks of fn in an order where every edge that is not a loop back edge goes
 * forward, and the blocks of every loop are contiguous with the header first
 * (the order linearization lays a function out in). Writes up to `cap` blocks,
 * returns the number of blocks of the function, or 0 when the CFG is irreducible
 * or has blocks unreachable from the entry (callers then refuse to vectorize).
 * Among the orders that qualify, it keeps the function's own block order
 * wherever it can.
 */
size_t vz_cfg_linear_order(struct vz_cfg *cfg, LLVMBasicBlockRef *out, size_t cap);
/* The position of bb in the linear order, or SIZE_MAX when there is no linear order. */
size_t vz_cfg_linear_index(struct vz_cfg *cfg, LLVMBasicBlockRef bb);
/* The last block of loop `header` in the linear order (NULL without one, or for no loop). */
LLVMBasicBlockRef vz_cfg_loop_last(struct vz_cfg *cfg, LLVMBasicBlockRef header);

/*
 * Makes bb, a block outside loop `header`, part of that loop (and of the
 * loops around it) for every answer above: a block of an exit path that
 * runs in the iteration that takes it (vz_divergence.c). When bb lies in a
 * loop that does not contain `header`, that loop (the outermost such) moves
 * inside loop `header`, whole. The dominator trees are untouched, and so is
 * the function; vz_cfg_lay_out computes the linear order again.
 */
void vz_cfg_absorb(struct vz_cfg *cfg, LLVMBasicBlockRef header, LLVMBasicBlockRef bb);
/* The linear order anew, with the loops as they are now; false when there is none. */
bool vz_cfg_lay_out(struct vz_cfg *cfg);

#ifdef __cplusplus
}
#endif

#endif
