// SPDX-License-Identifier: MIT
// The sub-group functions made of others: the broadcasts of OpenCL vectors
// (cl_khr_subgroup_extended_types' sub_group_broadcast,
// cl_khr_subgroup_ballot's sub_group_non_uniform_broadcast), one call of the
// scalar function per component, and sub_group_rotate, a shuffle; the
// vectorizer maps the calls they make to vector forms. In a file of their
// own so that the functions they call, defined in subgroup.cl, are not
// inlined here at width 1 before the vectorizer sees the calls.

#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// An OpenCL vector one component at a time, each a call of the scalar
// function, which the vectorizer maps (a vector's argument, under the
// x86-64 ABI an i32 for a char4 or memory for a double16, would hide the
// components from it).
#define COMPONENTS_2(f, x, id) f((x).s0, id), f((x).s1, id)
#define COMPONENTS_3(f, x, id) COMPONENTS_2(f, x, id), f((x).s2, id)
#define COMPONENTS_4(f, x, id) COMPONENTS_2(f, (x).lo, id), COMPONENTS_2(f, (x).hi, id)
#define COMPONENTS_8(f, x, id) COMPONENTS_4(f, (x).lo, id), COMPONENTS_4(f, (x).hi, id)
#define COMPONENTS_16(f, x, id) COMPONENTS_8(f, (x).lo, id), COMPONENTS_8(f, (x).hi, id)
#define VECTOR_MOVE(f, n, T)                                                                       \
    OVL T##n f(T##n x, uint id)                                                                    \
    {                                                                                              \
        return (T##n)(COMPONENTS_##n(f, x, id));                                                   \
    }
#define VECTOR_MOVES(n, k, T, ...)                                                                 \
    VECTOR_MOVE(sub_group_broadcast, n, T) VECTOR_MOVE(sub_group_non_uniform_broadcast, n, T)

// sub_group_rotate: the value of lane (id + delta) modulo the maximum
// sub-group size, which is the width but for a work-group smaller than it
// (24 work-items at W = 32 rotate through 24 lanes), so a shuffle by that
// index (the size is a constant of the launch).
#define ROTATE(T)                                                                                  \
    OVL T sub_group_rotate(T x, int delta)                                                         \
    {                                                                                              \
        int m = (int)get_max_sub_group_size(), d = delta % m;                                      \
        return sub_group_shuffle(x, (uint)(((int)get_sub_group_local_id() + d + m) % m));          \
    }

// The scalar functions (a definition here of the same name hides Clang's
// declarations of them).
#define BROADCASTS(T)                                                                              \
    OVL T sub_group_broadcast(T x, uint id);                                                       \
    OVL T sub_group_non_uniform_broadcast(T x, uint id);                                           \
    OVL T sub_group_shuffle(T x, uint id);                                                         \
    FOR_VECTOR_WIDTHS(VECTOR_MOVES, T)                                                             \
    ROTATE(T)
BROADCASTS(char)
BROADCASTS(uchar)
BROADCASTS(short)
BROADCASTS(ushort)
BROADCASTS(int)
BROADCASTS(uint)
BROADCASTS(long)
BROADCASTS(ulong)
BROADCASTS(float)
BROADCASTS(double)
BROADCASTS(half)
