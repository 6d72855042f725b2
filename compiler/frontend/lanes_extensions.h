/* SPDX-License-Identifier: MIT */
/*
 * OpenCL C, not C: the built-ins of extensions that Clang's built-in tables
 * (-fdeclare-opencl-builtins) do not declare. Embedded in liblanes.so; the
 * frontend (clang_bridge.cpp) includes it before a program only when the
 * program's -cl-ext turns on one of the extensions below and the program
 * may call one of their built-ins (all named intel_...). Each family is
 * declared only when its extension's macro is defined.
 *
 * cl_intel_subgroups also names the khr sub-group functions
 * (get_sub_group_size, sub_group_broadcast, sub_group_reduce_add, ...):
 * Clang's tables declare those when cl_intel_subgroups is on, and none of
 * them may be declared here, since Clang consults its tables only for a name
 * that has no declaration yet (one declaration here would hide all the
 * table's overloads of that name).
 *
 * The image forms of the block reads and writes (image2d_t, int2 byte
 * coordinate) are declared when the device supports images
 * (__IMAGE_SUPPORT__), on read_write images too where the language has them.
 */
#ifndef LANES_EXTENSIONS_H
#define LANES_EXTENSIONS_H

/* As Clang's opencl-c.h declares the sub-group functions. */
#define LANES_SG __attribute__((overloadable, convergent))

/* intel_sub_group_shuffle, _down, _up and _xor on T. */
#define LANES_SHUFFLES(T)                                                                          \
    T LANES_SG intel_sub_group_shuffle(T data, uint sub_group_local_id);                           \
    T LANES_SG intel_sub_group_shuffle_down(T current, T next, uint delta);                        \
    T LANES_SG intel_sub_group_shuffle_up(T previous, T current, uint delta);                      \
    T LANES_SG intel_sub_group_shuffle_xor(T data, uint value);

/* The shuffles on scalar T and its vectors of 2, 4, 8 and 16. */
#define LANES_SHUFFLES_VECTORS(T)                                                                  \
    LANES_SHUFFLES(T)                                                                              \
    LANES_SHUFFLES(T##2) LANES_SHUFFLES(T##4) LANES_SHUFFLES(T##8) LANES_SHUFFLES(T##16)

/* The same and the 3-vector, which cl_intel_subgroups (revision 8) and
 * cl_intel_subgroups_short (revision 3) list, cl_intel_subgroups_char not. */
#define LANES_SHUFFLES_VECTORS3(T) LANES_SHUFFLES_VECTORS(T) LANES_SHUFFLES(T##3)

/* The reduction and the two scans of OP on T, with the intel_ prefix that
 * cl_intel_subgroups_short and _char give their 8- and 16-bit forms. */
#define LANES_COLLECTIVE(T, OP)                                                                    \
    T LANES_SG intel_sub_group_reduce_##OP(T x);                                                   \
    T LANES_SG intel_sub_group_scan_exclusive_##OP(T x);                                           \
    T LANES_SG intel_sub_group_scan_inclusive_##OP(T x);

/* Broadcast, reductions and scans on T. */
#define LANES_COLLECTIVES(T)                                                                       \
    T LANES_SG intel_sub_group_broadcast(T x, uint sub_group_local_id);                            \
    LANES_COLLECTIVE(T, add) LANES_COLLECTIVE(T, min) LANES_COLLECTIVE(T, max)

/*
 * intel_sub_group_block_read<SUFFIX><N> and _write<SUFFIX><N> of N values of
 * T per work-item through a pointer to address space AS (N empty: one).
 */
#define LANES_BLOCK_IO_N(AS, T, SUFFIX, N)                                                         \
    T##N LANES_SG intel_sub_group_block_read##SUFFIX##N(const AS T *p);                            \
    void LANES_SG intel_sub_group_block_write##SUFFIX##N(AS T *p, T##N data);

/* Block reads and writes of 1, 2, 4 and 8 values. */
#define LANES_BLOCK_IO(AS, T, SUFFIX)                                                              \
    LANES_BLOCK_IO_N(AS, T, SUFFIX, )                                                              \
    LANES_BLOCK_IO_N(AS, T, SUFFIX, 2)                                                             \
    LANES_BLOCK_IO_N(AS, T, SUFFIX, 4) LANES_BLOCK_IO_N(AS, T, SUFFIX, 8)

/* The same and 16 values. */
#define LANES_BLOCK_IO16(AS, T, SUFFIX)                                                            \
    LANES_BLOCK_IO(AS, T, SUFFIX) LANES_BLOCK_IO_N(AS, T, SUFFIX, 16)

/* The image forms: N values of T per work-item from rows of a 2D image. */
#define LANES_IMAGE_BLOCK_IO_Q(R, W, T, SUFFIX, N)                                                 \
    T##N LANES_SG intel_sub_group_block_read##SUFFIX##N(R image2d_t image, int2 byte_coord);       \
    void LANES_SG intel_sub_group_block_write##SUFFIX##N(W image2d_t image, int2 byte_coord,       \
                                                         T##N data);
#if defined(__opencl_c_read_write_images) && __OPENCL_C_VERSION__ >= 200
#define LANES_IMAGE_BLOCK_IO_N(T, SUFFIX, N)                                                       \
    LANES_IMAGE_BLOCK_IO_Q(read_only, write_only, T, SUFFIX, N)                                    \
    LANES_IMAGE_BLOCK_IO_Q(read_write, read_write, T, SUFFIX, N)
#else
#define LANES_IMAGE_BLOCK_IO_N(T, SUFFIX, N)                                                       \
    LANES_IMAGE_BLOCK_IO_Q(read_only, write_only, T, SUFFIX, N)
#endif
#ifdef __IMAGE_SUPPORT__
#define LANES_IMAGE_BLOCK_IO(T, SUFFIX)                                                            \
    LANES_IMAGE_BLOCK_IO_N(T, SUFFIX, )                                                            \
    LANES_IMAGE_BLOCK_IO_N(T, SUFFIX, 2)                                                           \
    LANES_IMAGE_BLOCK_IO_N(T, SUFFIX, 4) LANES_IMAGE_BLOCK_IO_N(T, SUFFIX, 8)
#else
#define LANES_IMAGE_BLOCK_IO(T, SUFFIX)
#endif

#ifdef cl_intel_subgroups
LANES_SHUFFLES_VECTORS3(float)
LANES_SHUFFLES_VECTORS3(int)
LANES_SHUFFLES_VECTORS3(uint)
LANES_SHUFFLES(long)
LANES_SHUFFLES(ulong)
#ifdef cl_khr_fp16
/* A half parameter needs the pragma; off again after, as a program starts. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
LANES_SHUFFLES(half)
#pragma OPENCL EXTENSION cl_khr_fp16 : disable
#endif
#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
LANES_SHUFFLES(double)
#endif
LANES_BLOCK_IO(__global, uint, )
LANES_IMAGE_BLOCK_IO(uint, )
#endif

#ifdef cl_intel_subgroups_short
LANES_SHUFFLES_VECTORS3(short)
LANES_SHUFFLES_VECTORS3(ushort)
LANES_COLLECTIVES(short)
LANES_COLLECTIVES(ushort)
/* 16 values since the extension's version 1.1.0. */
LANES_BLOCK_IO16(__global, ushort, _us)
LANES_IMAGE_BLOCK_IO(ushort, _us)
#endif

#ifdef cl_intel_subgroups_char
LANES_SHUFFLES_VECTORS(char)
LANES_SHUFFLES_VECTORS(uchar)
LANES_COLLECTIVES(char)
LANES_COLLECTIVES(uchar)
LANES_BLOCK_IO16(__global, uchar, _uc)
LANES_IMAGE_BLOCK_IO(uchar, _uc)
#endif

#ifdef cl_intel_subgroups_long
LANES_BLOCK_IO(__global, ulong, _ul)
LANES_IMAGE_BLOCK_IO(ulong, _ul)
#endif

/* The _ui aliases of the uint block functions, which the char, short and
 * long extensions each add "for naming consistency". */
#if defined(cl_intel_subgroups_short) || defined(cl_intel_subgroups_char) ||                       \
    defined(cl_intel_subgroups_long)
LANES_BLOCK_IO(__global, uint, _ui)
LANES_IMAGE_BLOCK_IO(uint, _ui)
#endif

/* __local forms of every block function the program has, uint ones both
 * with and without the suffix. */
#ifdef cl_intel_subgroup_local_block_io
LANES_BLOCK_IO(__local, uint, )
LANES_BLOCK_IO(__local, uint, _ui)
#ifdef cl_intel_subgroups_short
LANES_BLOCK_IO16(__local, ushort, _us)
#endif
#ifdef cl_intel_subgroups_char
LANES_BLOCK_IO16(__local, uchar, _uc)
#endif
#ifdef cl_intel_subgroups_long
LANES_BLOCK_IO(__local, ulong, _ul)
#endif
#endif

/* Prefetches of the block a block read of the same arguments would read. */
#ifdef cl_intel_subgroup_buffer_prefetch
#define LANES_PREFETCH_N(T, SUFFIX, N)                                                             \
    void LANES_SG intel_sub_group_block_prefetch##SUFFIX##N(const __global T *p);
#define LANES_PREFETCH(T, SUFFIX)                                                                  \
    LANES_PREFETCH_N(T, SUFFIX, )                                                                  \
    LANES_PREFETCH_N(T, SUFFIX, 2) LANES_PREFETCH_N(T, SUFFIX, 4) LANES_PREFETCH_N(T, SUFFIX, 8)
LANES_PREFETCH(uchar, _uc)
LANES_PREFETCH_N(uchar, _uc, 16)
LANES_PREFETCH(ushort, _us)
LANES_PREFETCH_N(ushort, _us, 16)
LANES_PREFETCH(uint, _ui)
LANES_PREFETCH(ulong, _ul)
#undef LANES_PREFETCH_N
#undef LANES_PREFETCH
#endif

/* The program sees none of the helper macros (LANES_EXTENSIONS_H tells it, and
 * the tests, that the header is there). */
#undef LANES_SG
#undef LANES_SHUFFLES
#undef LANES_SHUFFLES_VECTORS
#undef LANES_SHUFFLES_VECTORS3
#undef LANES_COLLECTIVE
#undef LANES_COLLECTIVES
#undef LANES_BLOCK_IO_N
#undef LANES_BLOCK_IO
#undef LANES_BLOCK_IO16

#endif
