// SPDX-License-Identifier: MIT
// vloadn and vstoren (OpenCL C 3.0 6.15.11) for every element type (half with
// cl_khr_fp16), width
// and address space: one vector access at the element type's alignment
// (three scalar ones for width 3, whose vector type is four elements long).
#include "lanes_builtins.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define ACCESS(n, T, AS)                                                                           \
    OVL T##n vload##n(size_t o, const AS T *p)                                                     \
    {                                                                                              \
        return *(const AS packed_##T##n *)(p + o * n);                                             \
    }
#define STORE(n, T, AS)                                                                            \
    OVL void vstore##n(T##n v, size_t o, AS T *p)                                                  \
    {                                                                                              \
        *(AS packed_##T##n *)(p + o * n) = v;                                                      \
    }
#define ACCESS3(T, AS)                                                                             \
    OVL T##3 vload3(size_t o, const AS T *p)                                                       \
    {                                                                                              \
        const AS T *q = p + o * 3;                                                                 \
        return (T##3)(q[0], q[1], q[2]);                                                           \
    }
#define STORE3(T, AS)                                                                              \
    OVL void vstore3(T##3 v, size_t o, AS T *p)                                                    \
    {                                                                                              \
        AS T *q = p + o * 3;                                                                       \
        q[0] = v.x, q[1] = v.y, q[2] = v.z;                                                        \
    }

#define LOADS(T, AS) ACCESS(2, T, AS) ACCESS3(T, AS) ACCESS(4, T, AS) ACCESS(8, T, AS) ACCESS(16, T, AS)
#define STORES(T, AS) STORE(2, T, AS) STORE3(T, AS) STORE(4, T, AS) STORE(8, T, AS) STORE(16, T, AS)
#define PACKED(n, T) typedef T##n __attribute__((aligned(sizeof(T)))) packed_##T##n;
#define VLOAD_TYPE(T)                                                                              \
    PACKED(2, T) PACKED(4, T) PACKED(8, T) PACKED(16, T)                                           \
    LOADS(T, __global) LOADS(T, __local) LOADS(T, __constant) LOADS(T, __private)                  \
    LOADS(T, __generic) STORES(T, __global) STORES(T, __local) STORES(T, __private)                \
    STORES(T, __generic)

VLOAD_TYPE(char)
VLOAD_TYPE(uchar)
VLOAD_TYPE(short)
VLOAD_TYPE(ushort)
VLOAD_TYPE(int)
VLOAD_TYPE(uint)
VLOAD_TYPE(long)
VLOAD_TYPE(ulong)
VLOAD_TYPE(float)
VLOAD_TYPE(double)
VLOAD_TYPE(half) /* cl_khr_fp16: vloadn and vstoren of half itself */
