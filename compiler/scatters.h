/* SPDX-License-Identifier: MIT */
/* Stream compaction's scatters as compressed stores (compiler/scatters.c). */
#ifndef LANES_COMPILER_SCATTERS_H
#define LANES_COMPILER_SCATTERS_H

#include <llvm-c/Types.h>

/*
 * Rewrites, after the last optimization, the scatters whose active lanes
 * store one after another in lane order (stream compaction with
 * sub_group_ballot_exclusive_scan) as compressions into a register and a
 * store of its low lanes: with AVX-512 only, where vcompressps does it.
 */
void lanes_compress_scatters(LLVMModuleRef m);

#endif
