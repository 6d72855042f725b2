// SPDX-License-Identifier: MIT
// Work-group collective functions (OpenCL C 3.0 6.15.16,
// __opencl_c_work_group_collective_functions): all, any, broadcast, and
// reduce / inclusive scan / exclusive scan with add, min and max, for int,
// uint, long, ulong, float, double and half (cl_khr_fp16).
//
// Every work-item of the work-group reaches a collective with the same
// (uniform) arguments. Each one writes its value to its slot in the
// work-group scratch (compiler/abi.h: a 64-byte head, then one 8-byte
// slot per work-item in local linear id order); after a barrier the first
// work-item combines the slots, in id order, into the head (reduce) or in
// place (scans); after a second barrier every work-item reads its result.
// The second barrier also keeps the next collective from overwriting the
// scratch before every work-item has read this one's result, so the
// collectives can follow one another with nothing in between.
//
// Why one work-item combines: today every work-item is its own sub-group
// (W = 1) and the work-items of a work-group run one after another on one
// worker thread, so a tree over several work-items would gain no
// parallelism and cost more barriers (each one a coroutine suspension per
// work-item). The barriers come from this library: after inlining,
// compiler/specialize.c finds them like a barrier written in the kernel,
// and the kernel becomes a coroutine kernel (compiler/coroutine.c).
//
// Integer add wraps (done in the unsigned twin type); float add is summed
// in id order, which OpenCL allows (any order is). min and max on floats
// follow fmin and fmax. Identities: 0 for add, the type's largest value
// for min and its smallest for max (+-INFINITY for float, double and half).
#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

// The work-group scratch; compiler/workitem.c lowers the call to wg->scratch.
__local ulong *__lanes_wg_scratch(void) __attribute__((const));

// The number of work-items in this (possibly smaller, last) work-group.
static size_t wg_items(void)
{
    return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define HEAD(T) ((__local T *)__lanes_wg_scratch())
#define SLOTS(T) ((__local T *)(__lanes_wg_scratch() + 8))
#define SYNC() barrier(CLK_LOCAL_MEM_FENCE)

// The operations: ADD_<T> wraps for the integer types.
#define ADD_int(a, b) ((int)((uint)(a) + (uint)(b)))
#define ADD_uint(a, b) ((a) + (b))
#define ADD_long(a, b) ((long)((ulong)(a) + (ulong)(b)))
#define ADD_ulong(a, b) ((a) + (b))
#define ADD_float(a, b) ((a) + (b))
#define ADD_double(a, b) ((a) + (b))
#define ADD_half(a, b) ((a) + (b))
#define OP_add(T, a, b) ADD_##T(a, b)
#define OP_min(T, a, b) min(a, b)
#define OP_max(T, a, b) max(a, b)

#define MIN_float (-INFINITY)
#define MAX_float INFINITY
#define MIN_double (-(double)INFINITY)
#define MAX_double ((double)INFINITY)
#define MIN_half (-(half)INFINITY)
#define MAX_half ((half)INFINITY)
#define ID_add(T) ((T)0)
#define ID_min(T) MAX_##T
#define ID_max(T) MIN_##T

#define COLLECTIVES(T, op)                                                                         \
    OVL T work_group_reduce_##op(T x)                                                              \
    {                                                                                              \
        size_t id = get_local_linear_id();                                                         \
        SLOTS(T)[id] = x;                                                                          \
        SYNC();                                                                                    \
        if (id == 0) {                                                                             \
            __local T *s = SLOTS(T);                                                               \
            T acc = s[0];                                                                          \
            for (size_t i = 1, n = wg_items(); i < n; i++)                                         \
                acc = OP_##op(T, acc, s[i]);                                                       \
            *HEAD(T) = acc;                                                                        \
        }                                                                                          \
        SYNC();                                                                                    \
        return *HEAD(T);                                                                           \
    }                                                                                              \
    OVL T work_group_scan_inclusive_##op(T x)                                                      \
    {                                                                                              \
        size_t id = get_local_linear_id();                                                         \
        SLOTS(T)[id] = x;                                                                          \
        SYNC();                                                                                    \
        if (id == 0) {                                                                             \
            __local T *s = SLOTS(T);                                                               \
            T acc = s[0];                                                                          \
            for (size_t i = 1, n = wg_items(); i < n; i++)                                         \
                s[i] = acc = OP_##op(T, acc, s[i]);                                                \
        }                                                                                          \
        SYNC();                                                                                    \
        return SLOTS(T)[id];                                                                       \
    }                                                                                              \
    OVL T work_group_scan_exclusive_##op(T x)                                                      \
    {                                                                                              \
        size_t id = get_local_linear_id();                                                         \
        SLOTS(T)[id] = x;                                                                          \
        SYNC();                                                                                    \
        if (id == 0) {                                                                             \
            __local T *s = SLOTS(T);                                                               \
            T acc = ID_##op(T);                                                                    \
            for (size_t i = 0, n = wg_items(); i < n; i++) {                                       \
                T next = OP_##op(T, acc, s[i]);                                                    \
                s[i] = acc;                                                                        \
                acc = next;                                                                        \
            }                                                                                      \
        }                                                                                          \
        SYNC();                                                                                    \
        return SLOTS(T)[id];                                                                       \
    }

// The work-item whose local linear id is `target` publishes its value.
#define BROADCAST(T)                                                                               \
    static T broadcast_##T(T x, size_t target)                                                     \
    {                                                                                              \
        if (get_local_linear_id() == target)                                                       \
            *HEAD(T) = x;                                                                          \
        SYNC();                                                                                    \
        T v = *HEAD(T);                                                                            \
        SYNC();                                                                                    \
        return v;                                                                                  \
    }                                                                                              \
    OVL T work_group_broadcast(T x, size_t lx)                                                     \
    {                                                                                              \
        return broadcast_##T(x, lx);                                                               \
    }                                                                                              \
    OVL T work_group_broadcast(T x, size_t lx, size_t ly)                                          \
    {                                                                                              \
        return broadcast_##T(x, ly * get_local_size(0) + lx);                                      \
    }                                                                                              \
    OVL T work_group_broadcast(T x, size_t lx, size_t ly, size_t lz)                               \
    {                                                                                              \
        return broadcast_##T(x, (lz * get_local_size(1) + ly) * get_local_size(0) + lx);           \
    }

#define FAMILY(T) COLLECTIVES(T, add) COLLECTIVES(T, min) COLLECTIVES(T, max) BROADCAST(T)
FAMILY(int)
FAMILY(uint)
FAMILY(long)
FAMILY(ulong)
FAMILY(float)
FAMILY(double)
FAMILY(half)

// all: no work-item has a zero predicate (their minimum as 0/1 is 1); any: one has.
OVL int work_group_all(int predicate)
{
    return work_group_reduce_min(predicate != 0);
}

OVL int work_group_any(int predicate)
{
    return work_group_reduce_max(predicate != 0);
}
