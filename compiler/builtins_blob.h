/* SPDX-License-Identifier: MIT */
/*
 * The layout of an embedded built-in library, as compiler/builtins_split.cpp
 * writes it at build time and compiler/builtins.c reads it: the library
 * split into small bitcode modules (chunks), each holding every overload of
 * a few built-in names, and a sorted index from name to chunk. A program
 * parses only the chunks of the names it calls, so that linking costs what
 * it uses, not the size of the library.
 *
 *   header | chunks[num_chunks] | names[num_names] | string pool | bitcode...
 *
 * All offsets are from the start of the blob; integers are little-endian.
 */
#ifndef LANES_COMPILER_BUILTINS_BLOB_H
#define LANES_COMPILER_BUILTINS_BLOB_H

#include <stdint.h>

#define LANES_BUILTINS_MAGIC "LNSBLTN1"

struct lanes_builtins_header {
    char magic[8];
    uint32_t num_chunks;
    uint32_t num_names;
};

/* One bitcode module: its offset (16-aligned) and size. */
struct lanes_builtins_chunk {
    uint32_t offset;
    uint32_t size;
};

/*
 * A built-in name: the identifier of an Itanium-mangled function (`sin` for
 * `_Z3sinDv4_f`) or an unmangled name, and its chunk. Sorted by the bytes
 * of the name (shorter first on a common prefix).
 */
struct lanes_builtins_name {
    uint32_t offset; /* of the name (not NUL-terminated) */
    uint32_t length;
    uint32_t chunk;
};

#endif
