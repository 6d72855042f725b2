// SPDX-License-Identifier: MIT
// Build tool: splits a linked built-in library into the chunked blob of
// builtins_blob.h. Why C++: copying a subset of a module's definitions into
// a new module (CloneModule with a definition filter) has no LLVM-C
// equivalent.
//
//   lanes-builtins-split in.bc out.blob
//
// Every overload of one name stays in one chunk (the vectorizer's sin(float)
// -> sin(float16) mapping never needs a second chunk); names are packed in
// sorted order into chunks of at least kChunkFunctions definitions, so that
// the blob holds a few hundred small modules rather than thousands of tiny
// ones. Functions called across chunks stay declarations: the run-time link
// follows them (compiler/builtins.c).

#include "builtins_blob.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace
{

constexpr size_t kChunkFunctions = 16;

// The identifier of an Itanium-mangled name, or the name itself.
std::string base_name(llvm::StringRef name)
{
    if (!name.starts_with("_Z"))
        return name.str();
    size_t i = 2, len = 0;
    while (i < name.size() && name[i] >= '0' && name[i] <= '9')
        len = len * 10 + static_cast<size_t>(name[i++] - '0');
    if (len == 0 || i + len > name.size())
        return name.str();
    return name.substr(i, len).str();
}

// Removes declarations and local definitions nothing uses, until none is left.
void drop_unused(llvm::Module &m)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (auto it = m.begin(); it != m.end();) {
            llvm::Function &f = *it++;
            if (f.use_empty() && (f.isDeclaration() || f.hasLocalLinkage())) {
                f.eraseFromParent();
                changed = true;
            }
        }
        for (auto it = m.global_begin(); it != m.global_end();) {
            llvm::GlobalVariable &g = *it++;
            if (g.use_empty() && (g.isDeclaration() || g.hasLocalLinkage())) {
                g.eraseFromParent();
                changed = true;
            }
        }
    }
}

void put32(std::string &out, size_t at, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s in.bc out.blob\n", argv[0]);
        return 2;
    }
    llvm::LLVMContext ctx;
    llvm::SMDiagnostic diag;
    std::unique_ptr<llvm::Module> lib = llvm::parseIRFile(argv[1], diag, ctx);
    if (!lib) {
        diag.print(argv[0], llvm::errs());
        return 1;
    }
    // Names with their external definitions; locals go wherever they are used.
    std::map<std::string, std::vector<const llvm::GlobalValue *>> by_name;
    for (const llvm::Function &f : *lib)
        if (!f.isDeclaration() && !f.hasLocalLinkage())
            by_name[base_name(f.getName())].push_back(&f);
    for (const llvm::GlobalVariable &g : lib->globals())
        if (!g.isDeclaration() && !g.hasLocalLinkage())
            by_name[base_name(g.getName())].push_back(&g);

    std::vector<std::set<const llvm::GlobalValue *>> chunks;
    std::vector<std::pair<std::string, uint32_t>> names;
    for (auto &[name, defs] : by_name) {
        if (chunks.empty() || chunks.back().size() >= kChunkFunctions)
            chunks.emplace_back();
        chunks.back().insert(defs.begin(), defs.end());
        names.emplace_back(name, static_cast<uint32_t>(chunks.size() - 1));
    }

    std::vector<llvm::SmallVector<char, 0>> bitcode(chunks.size());
    for (size_t c = 0; c < chunks.size(); c++) {
        llvm::ValueToValueMapTy map;
        const auto &members = chunks[c];
        std::unique_ptr<llvm::Module> part =
            llvm::CloneModule(*lib, map, [&members](const llvm::GlobalValue *gv) {
                return gv->hasLocalLinkage() || members.count(gv) != 0;
            });
        drop_unused(*part);
        llvm::raw_svector_ostream os(bitcode[c]);
        llvm::WriteBitcodeToFile(*part, os);
    }

    // header | chunk table | name table | string pool | bitcode (16-aligned)
    std::string out(sizeof(lanes_builtins_header), '\0');
    std::memcpy(out.data(), LANES_BUILTINS_MAGIC, 8);
    put32(out, 8, static_cast<uint32_t>(chunks.size()));
    put32(out, 12, static_cast<uint32_t>(names.size()));
    size_t chunk_table = out.size();
    out.resize(out.size() + chunks.size() * sizeof(lanes_builtins_chunk));
    size_t name_table = out.size();
    out.resize(out.size() + names.size() * sizeof(lanes_builtins_name));
    for (size_t i = 0; i < names.size(); i++) { // std::map order: sorted by bytes
        size_t at = name_table + i * sizeof(lanes_builtins_name);
        put32(out, at, static_cast<uint32_t>(out.size()));
        put32(out, at + 4, static_cast<uint32_t>(names[i].first.size()));
        put32(out, at + 8, names[i].second);
        out += names[i].first;
    }
    for (size_t c = 0; c < chunks.size(); c++) {
        out.resize((out.size() + 15) & ~static_cast<size_t>(15));
        put32(out, chunk_table + c * 8, static_cast<uint32_t>(out.size()));
        put32(out, chunk_table + c * 8 + 4, static_cast<uint32_t>(bitcode[c].size()));
        out.append(bitcode[c].data(), bitcode[c].size());
    }
    std::FILE *f = std::fopen(argv[2], "wb");
    if (!f || std::fwrite(out.data(), 1, out.size(), f) != out.size() || std::fclose(f) != 0) {
        std::perror(argv[2]);
        return 1;
    }
    return 0;
}
