// SPDX-License-Identifier: MIT
// Why C++: the LLVM-C API has no dominator, post-dominator or loop analyses
// (it can only walk blocks and successors). Rather than write our own, this
// shim runs LLVM's DominatorTree, PostDominatorTree and LoopInfo, so that the
// vectorizer agrees with every LLVM pass about what a loop is, and answers
// through the plain C interface of vz_cfg.h.

#include "vz_cfg.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

using llvm::BasicBlock;
using llvm::Loop;

struct vz_cfg {
    llvm::DominatorTree dt;
    llvm::PostDominatorTree pdt;
    llvm::LoopInfo li;
    std::vector<BasicBlock *> order;               // empty: irreducible or unreachable blocks
    llvm::DenseMap<const BasicBlock *, size_t> at; // position in `order`
    // Loops made larger by vz_cfg_absorb: a block outside its LoopInfo loop
    // that belongs to a loop now (its innermost), and a loop whose parent is
    // another than LoopInfo's.
    llvm::DenseMap<const BasicBlock *, Loop *> owner;
    llvm::DenseMap<const Loop *, Loop *> parent;

    llvm::Function *fn;

    explicit vz_cfg(llvm::Function &f) : dt(f), pdt(f), li(dt), fn(&f)
    {
    }
};

namespace
{

// The innermost loop bb belongs to, absorbed blocks included.
Loop *loop_for(const vz_cfg &cfg, const BasicBlock *bb)
{
    auto it = cfg.owner.find(bb);
    return it != cfg.owner.end() ? it->second : cfg.li.getLoopFor(bb);
}

// The loop enclosing l, as vz_cfg_absorb left it.
Loop *parent_of(const vz_cfg &cfg, const Loop *l)
{
    auto it = cfg.parent.find(l);
    return it != cfg.parent.end() ? it->second : l->getParentLoop();
}

// Whether loop l contains loop m (itself included).
bool encloses(const vz_cfg &cfg, const Loop *l, const Loop *m)
{
    for (; m; m = parent_of(cfg, m))
        if (m == l)
            return true;
    return false;
}

bool contains(const vz_cfg &cfg, const Loop *l, const BasicBlock *bb)
{
    return encloses(cfg, l, loop_for(cfg, bb));
}

// The node standing for block bb among the children of `level` (a loop, or
// the function when null) that contains it: bb, or the header of the child
// loop bb is in.
BasicBlock *node_at(const vz_cfg &cfg, BasicBlock *bb, const Loop *level)
{
    Loop *l = loop_for(cfg, bb);
    if (l == level)
        return bb;
    while (parent_of(cfg, l) != level)
        l = parent_of(cfg, l);
    return l->getHeader();
}

// The blocks of loop l, those absorbed into it or its inner loops included.
std::vector<BasicBlock *> blocks_of(const vz_cfg &cfg, const Loop *l, llvm::Function &fn)
{
    if (cfg.owner.empty())
        return std::vector<BasicBlock *>(l->getBlocks().begin(), l->getBlocks().end());
    std::vector<BasicBlock *> blocks;
    for (BasicBlock &bb : fn)
        if (contains(cfg, l, &bb))
            blocks.push_back(&bb);
    return blocks;
}

// Appends to cfg.order the blocks of `level` (the function when null): a
// topological sort of its children, without the back edges to its header,
// where each child loop is one node, laid out in its place the same way. Of
// the nodes ready, the one first in the function goes first, so that a
// function already in such an order keeps it. False when the children have a
// cycle: one that no loop captures, so the CFG is irreducible.
bool lay_out(vz_cfg &cfg, llvm::Function &fn, const Loop *level,
             llvm::ArrayRef<BasicBlock *> blocks,
             const llvm::DenseMap<const BasicBlock *, unsigned> &rank)
{
    BasicBlock *header = level ? level->getHeader() : nullptr;
    llvm::DenseMap<BasicBlock *, unsigned> preds; // edges not laid out yet
    llvm::DenseMap<BasicBlock *, llvm::SmallVector<BasicBlock *, 2>> succs;
    for (BasicBlock *bb : blocks) {
        BasicBlock *from = node_at(cfg, bb, level);
        preds.try_emplace(from, 0);
        for (BasicBlock *s : llvm::successors(bb)) {
            if (s == header || (level && !contains(cfg, level, s)))
                continue; // a back edge, or an exit: the enclosing level's
            BasicBlock *to = node_at(cfg, s, level);
            if (to == from)
                continue; // inside a child loop
            succs[from].push_back(to);
            preds[to]++;
        }
    }

    using entry = std::pair<unsigned, BasicBlock *>;
    std::priority_queue<entry, std::vector<entry>, std::greater<entry>> ready;
    for (auto &[node, n] : preds)
        if (n == 0)
            ready.push({rank.lookup(node), node});
    size_t done = 0;
    while (!ready.empty()) {
        BasicBlock *node = ready.top().second;
        ready.pop();
        done++;
        Loop *child = loop_for(cfg, node);
        if (child != level) {
            while (parent_of(cfg, child) != level)
                child = parent_of(cfg, child);
            if (!lay_out(cfg, fn, child, blocks_of(cfg, child, fn), rank))
                return false;
        } else {
            cfg.order.push_back(node);
        }
        for (BasicBlock *to : succs.lookup(node))
            if (--preds[to] == 0)
                ready.push({rank.lookup(to), to});
    }
    return done == preds.size();
}

// Fills cfg.order and cfg.at, or leaves them empty when the function has no
// such order.
void linearize(vz_cfg &cfg, llvm::Function &fn)
{
    llvm::DenseMap<const BasicBlock *, unsigned> rank;
    std::vector<BasicBlock *> blocks;
    for (BasicBlock &bb : fn) {
        if (!cfg.dt.isReachableFromEntry(&bb))
            return;
        rank[&bb] = blocks.size();
        blocks.push_back(&bb);
    }
    cfg.order.clear();
    cfg.at.clear();
    cfg.order.reserve(blocks.size());
    if (!lay_out(cfg, fn, nullptr, blocks, rank) || cfg.order.size() != blocks.size()) {
        cfg.order.clear();
        return;
    }
    for (size_t i = 0; i < cfg.order.size(); i++)
        cfg.at[cfg.order[i]] = i;
}

BasicBlock *bb_of(LLVMBasicBlockRef bb)
{
    return llvm::unwrap(bb);
}

LLVMBasicBlockRef ref(BasicBlock *bb)
{
    return bb ? llvm::wrap(bb) : nullptr;
}

// The loop whose header is bb, or null.
Loop *loop_named(vz_cfg *cfg, LLVMBasicBlockRef header)
{
    Loop *l = cfg->li.getLoopFor(bb_of(header));
    return l && l->getHeader() == bb_of(header) ? l : nullptr;
}

} // namespace

extern "C" {

struct vz_cfg *vz_cfg_build(LLVMValueRef fn_ref)
{
    auto *fn = llvm::dyn_cast_or_null<llvm::Function>(llvm::unwrap(fn_ref));
    if (!fn || fn->isDeclaration())
        return nullptr;
    auto *cfg = new vz_cfg(*fn);
    linearize(*cfg, *fn);
    return cfg;
}

void vz_cfg_free(struct vz_cfg *cfg)
{
    delete cfg;
}

bool vz_cfg_dominates(struct vz_cfg *cfg, LLVMBasicBlockRef a, LLVMBasicBlockRef b)
{
    return cfg->dt.dominates(bb_of(a), bb_of(b));
}

bool vz_cfg_post_dominates(struct vz_cfg *cfg, LLVMBasicBlockRef a, LLVMBasicBlockRef b)
{
    return cfg->pdt.dominates(bb_of(a), bb_of(b));
}

LLVMBasicBlockRef vz_cfg_idom(struct vz_cfg *cfg, LLVMBasicBlockRef bb)
{
    llvm::DomTreeNode *node = cfg->dt.getNode(bb_of(bb));
    return node && node->getIDom() ? ref(node->getIDom()->getBlock()) : nullptr;
}

LLVMBasicBlockRef vz_cfg_ipdom(struct vz_cfg *cfg, LLVMBasicBlockRef bb)
{
    llvm::DomTreeNode *node = cfg->pdt.getNode(bb_of(bb));
    // The virtual root joining the exits has no block.
    return node && node->getIDom() ? ref(node->getIDom()->getBlock()) : nullptr;
}

LLVMBasicBlockRef vz_cfg_loop_of(struct vz_cfg *cfg, LLVMBasicBlockRef bb)
{
    Loop *l = loop_for(*cfg, bb_of(bb));
    return l ? ref(l->getHeader()) : nullptr;
}

LLVMBasicBlockRef vz_cfg_parent_loop(struct vz_cfg *cfg, LLVMBasicBlockRef header)
{
    Loop *l = loop_named(cfg, header);
    Loop *p = l ? parent_of(*cfg, l) : nullptr;
    return p ? ref(p->getHeader()) : nullptr;
}

void vz_cfg_keep_rolled(struct vz_cfg *cfg, LLVMBasicBlockRef header)
{
    Loop *l = loop_named(cfg, header);
    if (l)
        l->setLoopAlreadyUnrolled();
}

LLVMMetadataRef vz_cfg_loop_id(struct vz_cfg *cfg, LLVMBasicBlockRef header)
{
    Loop *l = loop_named(cfg, header);
    llvm::MDNode *id = l ? l->getLoopID() : nullptr;
    return id ? llvm::wrap(id) : nullptr;
}

unsigned vz_cfg_loop_depth(struct vz_cfg *cfg, LLVMBasicBlockRef bb)
{
    unsigned depth = 0;
    for (Loop *l = loop_for(*cfg, bb_of(bb)); l; l = parent_of(*cfg, l))
        depth++;
    return depth;
}

bool vz_cfg_loop_contains(struct vz_cfg *cfg, LLVMBasicBlockRef header, LLVMBasicBlockRef bb)
{
    Loop *l = loop_named(cfg, header);
    return l && contains(*cfg, l, bb_of(bb));
}

bool vz_cfg_is_back_edge(struct vz_cfg *cfg, LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
    Loop *l = loop_named(cfg, to);
    if (!l || !contains(*cfg, l, bb_of(from)))
        return false;
    for (BasicBlock *s : llvm::successors(bb_of(from)))
        if (s == bb_of(to))
            return true;
    return false;
}

size_t vz_cfg_linear_order(struct vz_cfg *cfg, LLVMBasicBlockRef *out, size_t cap)
{
    for (size_t i = 0; i < cap && i < cfg->order.size(); i++)
        out[i] = ref(cfg->order[i]);
    return cfg->order.size();
}

size_t vz_cfg_linear_index(struct vz_cfg *cfg, LLVMBasicBlockRef bb)
{
    auto it = cfg->at.find(bb_of(bb));
    return it == cfg->at.end() ? SIZE_MAX : it->second;
}

LLVMBasicBlockRef vz_cfg_loop_last(struct vz_cfg *cfg, LLVMBasicBlockRef header)
{
    Loop *l = loop_named(cfg, header);
    if (!l || cfg->order.empty())
        return nullptr;
    // The loop's blocks are contiguous from its header.
    size_t i = cfg->at.lookup(l->getHeader());
    while (i + 1 < cfg->order.size() && contains(*cfg, l, cfg->order[i + 1]))
        i++;
    return ref(cfg->order[i]);
}

void vz_cfg_absorb(struct vz_cfg *cfg, LLVMBasicBlockRef header, LLVMBasicBlockRef bb)
{
    Loop *l = loop_named(cfg, header);
    BasicBlock *b = bb_of(bb);
    if (!l || contains(*cfg, l, b))
        return;
    Loop *m = loop_for(*cfg, b);
    if (!m || encloses(*cfg, m, l)) {
        cfg->owner[b] = l;
        return;
    }
    // b lies in a loop beside l: the outermost such loop moves into l, whole.
    while (parent_of(*cfg, m) && !encloses(*cfg, parent_of(*cfg, m), l))
        m = parent_of(*cfg, m);
    cfg->parent[m] = l;
}

bool vz_cfg_lay_out(struct vz_cfg *cfg)
{
    linearize(*cfg, *cfg->fn);
    return !cfg->order.empty();
}

} // extern "C"
