// SPDX-License-Identifier: MIT
// Intel's sub-group extensions (cl_intel_subgroups, _short, _char, _long,
// cl_intel_subgroup_local_block_io), declared for programs by
// compiler/frontend/lanes_extensions.h. Every function here is code of one
// work-item, made of the Khronos sub-group functions (builtins/subgroup/
// subgroup.cl), which the vectorizer maps to vector code with the active
// lanes, and of get_sub_group_local_id and get_max_sub_group_size:
//
// - the shuffles are sub_group_shuffle (a permute); _down and _up are
//   sub_group_lanes_shuffle2, the library's own two-source permute of
//   current and next (or previous and current);
// - a block read or write of n values is n plain accesses of p[id + k *
//   max_sub_group_size]: with p the same for the whole sub-group, each is
//   one contiguous vector load or store (masked in a partial sub-group);
// - the intel_ collectives of 8- and 16-bit types are the Khronos ones.
//
// In a file of its own so that the Khronos functions, defined at width 1 in
// subgroup.cl, stay calls here until the vectorizer has seen them.

#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// The Khronos functions used (declaring a name here hides Clang's own
// declarations of it, so every overload used is declared).
#define KHR(T)                                                                                     \
    OVL T sub_group_shuffle(T x, uint index);                                                      \
    OVL T sub_group_shuffle_xor(T x, uint mask);                                                   \
    OVL T sub_group_lanes_shuffle2(T a, T b, uint index, uint size);
KHR(char)
KHR(uchar)
KHR(short)
KHR(ushort)
KHR(int)
KHR(uint)
KHR(long)
KHR(ulong)
KHR(float)
KHR(double)
KHR(half)

#define LANE get_sub_group_local_id()
#define MAX get_max_sub_group_size()

// --- Shuffles ------------------------------------------------------------

#define SHUFFLES(T)                                                                                \
    OVL T intel_sub_group_shuffle(T data, uint sub_group_local_id)                                 \
    {                                                                                              \
        return sub_group_shuffle(data, sub_group_local_id);                                        \
    }                                                                                              \
    OVL T intel_sub_group_shuffle_xor(T data, uint value)                                          \
    {                                                                                              \
        return sub_group_shuffle_xor(data, value);                                                 \
    }                                                                                              \
    /* Lane id + delta of current ++ next. */                                                      \
    OVL T intel_sub_group_shuffle_down(T current, T next, uint delta)                              \
    {                                                                                              \
        return sub_group_lanes_shuffle2(current, next, LANE + delta, MAX);                         \
    }                                                                                              \
    /* Lane id - delta of current, or of previous before the start: of previous ++ current. */     \
    OVL T intel_sub_group_shuffle_up(T previous, T current, uint delta)                            \
    {                                                                                              \
        return sub_group_lanes_shuffle2(previous, current, LANE - delta + MAX, MAX);               \
    }

// An OpenCL vector one component at a time.
#define PARTS_2(f, ...) f(__VA_ARGS__, s0), f(__VA_ARGS__, s1)
#define PARTS_3(f, ...) PARTS_2(f, __VA_ARGS__), f(__VA_ARGS__, s2)
#define PARTS_4(f, ...) PARTS_3(f, __VA_ARGS__), f(__VA_ARGS__, s3)
#define PARTS_8(f, ...)                                                                            \
    PARTS_4(f, __VA_ARGS__), f(__VA_ARGS__, s4), f(__VA_ARGS__, s5), f(__VA_ARGS__, s6),           \
        f(__VA_ARGS__, s7)
#define PARTS_16(f, ...)                                                                           \
    PARTS_8(f, __VA_ARGS__), f(__VA_ARGS__, s8), f(__VA_ARGS__, s9), f(__VA_ARGS__, sa),           \
        f(__VA_ARGS__, sb), f(__VA_ARGS__, sc), f(__VA_ARGS__, sd), f(__VA_ARGS__, se),            \
        f(__VA_ARGS__, sf)
#define ONE_OF(f, a, s) f((a).s)
#define ONE_OF_A(f, a, u, s) f((a).s, u)
#define ONE_OF_AB(f, a, b, u, s) f((a).s, (b).s, u)

#define VECTOR_SHUFFLES(T, n)                                                                      \
    OVL T##n intel_sub_group_shuffle(T##n data, uint id)                                           \
    {                                                                                              \
        return (T##n)(PARTS_##n(ONE_OF_A, intel_sub_group_shuffle, data, id));                     \
    }                                                                                              \
    OVL T##n intel_sub_group_shuffle_xor(T##n data, uint value)                                    \
    {                                                                                              \
        return (T##n)(PARTS_##n(ONE_OF_A, intel_sub_group_shuffle_xor, data, value));              \
    }                                                                                              \
    OVL T##n intel_sub_group_shuffle_down(T##n current, T##n next, uint delta)                     \
    {                                                                                              \
        return (T##n)(PARTS_##n(ONE_OF_AB, intel_sub_group_shuffle_down, current, next, delta));   \
    }                                                                                              \
    OVL T##n intel_sub_group_shuffle_up(T##n previous, T##n current, uint delta)                   \
    {                                                                                              \
        return (T##n)(PARTS_##n(ONE_OF_AB, intel_sub_group_shuffle_up, previous, current, delta)); \
    }

#define ALL_SHUFFLES(T)                                                                            \
    SHUFFLES(T)                                                                                    \
    VECTOR_SHUFFLES(T, 2)                                                                          \
    VECTOR_SHUFFLES(T, 3)                                                                          \
    VECTOR_SHUFFLES(T, 4) VECTOR_SHUFFLES(T, 8) VECTOR_SHUFFLES(T, 16)

ALL_SHUFFLES(char)
ALL_SHUFFLES(uchar)
ALL_SHUFFLES(short)
ALL_SHUFFLES(ushort)
ALL_SHUFFLES(int)
ALL_SHUFFLES(uint)
ALL_SHUFFLES(float)
SHUFFLES(long)
SHUFFLES(ulong)
SHUFFLES(double)
SHUFFLES(half)

// --- Block reads and writes ------------------------------------------------

// Value k of this work-item: p[id + k * max_sub_group_size], as a uniform
// pointer indexed by the lane (so that no 32-bit sum can wrap between lanes).
#define AT(p, k) ((p) + (size_t)(k)*MAX)[LANE]
#define READ_2(p) AT(p, 0), AT(p, 1)
#define READ_4(p) READ_2(p), AT(p, 2), AT(p, 3)
#define READ_8(p) READ_4(p), AT(p, 4), AT(p, 5), AT(p, 6), AT(p, 7)
#define READ_16(p)                                                                                 \
    READ_8(p), AT(p, 8), AT(p, 9), AT(p, 10), AT(p, 11), AT(p, 12), AT(p, 13), AT(p, 14), AT(p, 15)

#define BLOCK_N(AS, T, SUFFIX, n)                                                                  \
    OVL T##n intel_sub_group_block_read##SUFFIX##n(const AS T *p)                                  \
    {                                                                                              \
        return (T##n)(READ_##n(p));                                                                \
    }                                                                                              \
    OVL void intel_sub_group_block_write##SUFFIX##n(AS T *p, T##n data)                            \
    {                                                                                              \
        for (uint k = 0; k < n; k++)                                                               \
            AT(p, k) = data[k];                                                                    \
    }

#define BLOCK(AS, T, SUFFIX)                                                                       \
    OVL T intel_sub_group_block_read##SUFFIX(const AS T *p)                                        \
    {                                                                                              \
        return AT(p, 0);                                                                           \
    }                                                                                              \
    OVL void intel_sub_group_block_write##SUFFIX(AS T *p, T data)                                  \
    {                                                                                              \
        AT(p, 0) = data;                                                                           \
    }                                                                                              \
    BLOCK_N(AS, T, SUFFIX, 2) BLOCK_N(AS, T, SUFFIX, 4) BLOCK_N(AS, T, SUFFIX, 8)

#define BLOCK16(AS, T, SUFFIX) BLOCK(AS, T, SUFFIX) BLOCK_N(AS, T, SUFFIX, 16)

BLOCK(__global, uint, )
BLOCK(__global, uint, _ui)
BLOCK16(__global, ushort, _us)
BLOCK16(__global, uchar, _uc)
BLOCK(__global, ulong, _ul)
BLOCK(__local, uint, )
BLOCK(__local, uint, _ui)
BLOCK16(__local, ushort, _us)
BLOCK16(__local, uchar, _uc)
BLOCK(__local, ulong, _ul)

// --- Block prefetches (cl_intel_subgroup_buffer_prefetch) -----------------

// The cache lines of the block a block read of n values would read, each
// prefetched by one lane (lane l: lines l, l + W, ...).
#define PREFETCH_N(T, SUFFIX, n, count)                                                            \
    OVL void intel_sub_group_block_prefetch##SUFFIX##n(const __global T *p)                        \
    {                                                                                              \
        ulong first = (ulong)p >> 6, last = ((ulong)p + (count)*MAX * sizeof(T) - 1) >> 6;         \
        for (ulong line = first + LANE; line <= last; line += MAX)                                 \
            __builtin_prefetch((const void *)(line << 6));                                         \
    }
#define PREFETCH(T, SUFFIX)                                                                        \
    PREFETCH_N(T, SUFFIX, , 1)                                                                     \
    PREFETCH_N(T, SUFFIX, 2, 2) PREFETCH_N(T, SUFFIX, 4, 4) PREFETCH_N(T, SUFFIX, 8, 8)

PREFETCH(uchar, _uc)
PREFETCH_N(uchar, _uc, 16, 16)
PREFETCH(ushort, _us)
PREFETCH_N(ushort, _us, 16, 16)
PREFETCH(uint, _ui)
PREFETCH(ulong, _ul)

// --- The intel_ collectives of cl_intel_subgroups_short and _char ----------

#define COLLECTIVE(T, op)                                                                          \
    OVL T sub_group_reduce_##op(T x);                                                              \
    OVL T sub_group_scan_inclusive_##op(T x);                                                      \
    OVL T sub_group_scan_exclusive_##op(T x);                                                      \
    OVL T intel_sub_group_reduce_##op(T x)                                                         \
    {                                                                                              \
        return sub_group_reduce_##op(x);                                                           \
    }                                                                                              \
    OVL T intel_sub_group_scan_inclusive_##op(T x)                                                 \
    {                                                                                              \
        return sub_group_scan_inclusive_##op(x);                                                   \
    }                                                                                              \
    OVL T intel_sub_group_scan_exclusive_##op(T x)                                                 \
    {                                                                                              \
        return sub_group_scan_exclusive_##op(x);                                                   \
    }

#define COLLECTIVES(T)                                                                             \
    OVL T sub_group_broadcast(T x, uint id);                                                       \
    OVL T intel_sub_group_broadcast(T x, uint sub_group_local_id)                                  \
    {                                                                                              \
        return sub_group_broadcast(x, sub_group_local_id);                                         \
    }                                                                                              \
    COLLECTIVE(T, add) COLLECTIVE(T, min) COLLECTIVE(T, max)

COLLECTIVES(char)
COLLECTIVES(uchar)
COLLECTIVES(short)
COLLECTIVES(ushort)
