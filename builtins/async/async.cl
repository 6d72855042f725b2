// SPDX-License-Identifier: MIT
// Async copies between global and local memory, wait_group_events and
// prefetch (OpenCL C 3.0 6.15.13) for every integer and floating element type
// and vector width.
//
// Every work-item of the work-group reaches a copy with the same arguments.
// The copy is done at once, whole, by the work-item of local linear id 0,
// and wait_group_events is a work-group barrier, after which every
// work-item sees the data. Why not divide the copy among the work-items:
// the work-items of a work-group run one after another on one worker
// thread (W = 1 today; with the vectorizer, the sub-groups in turn), so
// dividing gains no parallelism and turns one memcpy, which streams at the
// machine's copy bandwidth, into as many short copies as there are
// work-items plus index arithmetic. The event carries nothing (the copy is
// complete when the call returns), so a copy returns the event it was given
// (0 or the one it is to join). The barrier in wait_group_events comes from
// this library: after inlining, compiler/specialize.c finds it like a
// barrier written in the kernel, and the kernel becomes a coroutine kernel.
#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define FIRST() (get_local_linear_id() == 0)

#define COPIES(T, DST, SRC)                                                                        \
    OVL event_t async_work_group_copy(DST T *dst, const SRC T *src, size_t n, event_t e)           \
    {                                                                                              \
        if (FIRST())                                                                               \
            __builtin_memcpy((void *)dst, (const void *)src, n * sizeof(T));                       \
        return e;                                                                                  \
    }
#define STRIDED(T)                                                                                 \
    OVL event_t async_work_group_strided_copy(__local T *dst, const __global T *src, size_t n,     \
                                              size_t stride, event_t e)                            \
    {                                                                                              \
        if (FIRST())                                                                               \
            for (size_t i = 0; i < n; i++)                                                         \
                dst[i] = src[i * stride];                                                          \
        return e;                                                                                  \
    }                                                                                              \
    OVL event_t async_work_group_strided_copy(__global T *dst, const __local T *src, size_t n,     \
                                              size_t stride, event_t e)                            \
    {                                                                                              \
        if (FIRST())                                                                               \
            for (size_t i = 0; i < n; i++)                                                         \
                dst[i * stride] = src[i];                                                          \
        return e;                                                                                  \
    }

// A hint: the cache lines of the range are prefetched, at most an L1 data
// cache's worth (32 KiB): more would evict its own beginning. x86-64 lines are 64 bytes.
#define PREFETCH(T)                                                                                \
    OVL void prefetch(const __global T *p, size_t n)                                               \
    {                                                                                              \
        const __global char *c = (const __global char *)p;                                         \
        size_t bytes = n * sizeof(T) < 32768 ? n * sizeof(T) : 32768;                             \
        for (size_t o = 0; o < bytes; o += 64)                                                     \
            __builtin_prefetch((const void *)(c + o));                                             \
    }

#define ASYNC(n, k, T)                                                                             \
    COPIES(T##n, __local, __global)                                                                \
    COPIES(T##n, __global, __local) STRIDED(T##n) PREFETCH(T##n)
#define ASYNC_TYPE(T) FOR_WIDTHS(ASYNC, T)

ASYNC_TYPE(char)
ASYNC_TYPE(uchar)
ASYNC_TYPE(short)
ASYNC_TYPE(ushort)
ASYNC_TYPE(int)
ASYNC_TYPE(uint)
ASYNC_TYPE(long)
ASYNC_TYPE(ulong)
ASYNC_TYPE(float)
ASYNC_TYPE(double)
ASYNC_TYPE(half) /* cl_khr_fp16 */

// Both spellings of the event list: OpenCL C 2.0+ with the generic address
// space passes a generic pointer, other programs a private one.
OVL void wait_group_events(int num_events, __generic event_t *events)
{
    (void)num_events;
    (void)events;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

OVL void wait_group_events(int num_events, __private event_t *events)
{
    (void)num_events;
    (void)events;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
