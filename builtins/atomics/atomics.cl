// SPDX-License-Identifier: MIT
// Atomics (OpenCL C 3.0 6.15.12; the 1.x functions of 6.15.12.x and of the
// cl_khr_{global,local}_int32_{base,extended}_atomics and
// cl_khr_int64_{base,extended}_atomics extensions). On a CPU every one is an
// LLVM atomic instruction: Clang's __opencl_atomic_* built-ins for the C11
// style (the memory order and scope are arguments here; once inlined into a
// kernel they are constants and Clang's switch over them folds away), GCC's
// __atomic_* for the 1.x functions, which are sequentially consistent (an x86
// read-modify-write is a full barrier anyway). Scopes narrower than the
// system only matter to the compiler: there is one coherent memory.
#include "lanes_builtins.h"

#define SEQ __ATOMIC_SEQ_CST
#define DEVICE __OPENCL_MEMORY_SCOPE_DEVICE

// The address spaces of an atomic object: generic, global, local.
#define FOR_OBJECT_SPACES(M, ...) M(, __VA_ARGS__) M(__global, __VA_ARGS__) M(__local, __VA_ARGS__)

// --- OpenCL C 2.0 atomics -------------------------------------------------
// The three forms of a function: (order, scope), (order), neither (seq_cst,
// device scope). F(name, args, call-args) with ORD/SCOPE bound per form.
#define THREE_FORMS(R, name, params, body)                                                          \
    OVL R name##_explicit(params, memory_order order, memory_scope scope)                           \
    {                                                                                               \
        body;                                                                                       \
    }                                                                                               \
    OVL R name##_explicit(params, memory_order order)                                               \
    {                                                                                               \
        const memory_scope scope = DEVICE;                                                          \
        body;                                                                                       \
    }                                                                                               \
    OVL R name(params)                                                                              \
    {                                                                                               \
        const memory_order order = SEQ;                                                             \
        const memory_scope scope = DEVICE;                                                          \
        body;                                                                                       \
    }
#define COMMA ,

// init, load, store, exchange for atomic type A of value type T.
#define BASIC(AS, A, T)                                                                             \
    OVL void atomic_init(volatile AS A *p, T v)                                                    \
    {                                                                                               \
        __opencl_atomic_init(p, v);                                                                 \
    }                                                                                               \
    THREE_FORMS(T, atomic_load, volatile AS A *p,                                                   \
                return __opencl_atomic_load(p, order, scope))                                       \
    THREE_FORMS(void, atomic_store, volatile AS A *p COMMA T v,                                     \
                __opencl_atomic_store(p, v, order, scope))                                          \
    THREE_FORMS(T, atomic_exchange, volatile AS A *p COMMA T v,                                     \
                return __opencl_atomic_exchange(p, v, order, scope))

// compare_exchange_strong/weak with `expected` in address space EAS. The
// comparison goes through a private copy, so that any space works; the
// expected value is written back only on failure, as the specification says.
#define CAS_KIND(AS, EAS, A, T, kind)                                                               \
    OVL bool atomic_compare_exchange_##kind##_explicit(volatile AS A *p, EAS T *expected,           \
                                                        T desired, memory_order success,            \
                                                        memory_order failure, memory_scope scope)   \
    {                                                                                               \
        T e = *expected;                                                                            \
        bool ok =                                                                                   \
            __opencl_atomic_compare_exchange_##kind(p, &e, desired, success, failure, scope);       \
        if (!ok)                                                                                    \
            *expected = e;                                                                          \
        return ok;                                                                                  \
    }                                                                                               \
    OVL bool atomic_compare_exchange_##kind##_explicit(volatile AS A *p, EAS T *expected,           \
                                                        T desired, memory_order success,            \
                                                        memory_order failure)                       \
    {                                                                                               \
        return atomic_compare_exchange_##kind##_explicit(p, expected, desired, success, failure,    \
                                                         DEVICE);                                   \
    }                                                                                               \
    OVL bool atomic_compare_exchange_##kind(volatile AS A *p, EAS T *expected, T desired)           \
    {                                                                                               \
        return atomic_compare_exchange_##kind##_explicit(p, expected, desired, SEQ, SEQ, DEVICE);   \
    }
#define CAS(AS, EAS, A, T) CAS_KIND(AS, EAS, A, T, strong) CAS_KIND(AS, EAS, A, T, weak)
// Generic objects take a generic `expected`; named ones any named space.
#define CAS_SPACES(AS, A, T) CAS_SPACES_##AS(A, T)
#define CAS_SPACES_(A, T) CAS(, , A, T)
#define CAS_SPACES___global(A, T)                                                                   \
    CAS(__global, __global, A, T) CAS(__global, __local, A, T) CAS(__global, __private, A, T)
#define CAS_SPACES___local(A, T)                                                                    \
    CAS(__local, __global, A, T) CAS(__local, __local, A, T) CAS(__local, __private, A, T)

// fetch_<op> with an operand of type V (the value type, or the other
// signedness for the uintptr_t/intptr_t overloads).
#define FETCH(AS, op, A, T, V)                                                                      \
    THREE_FORMS(T, atomic_fetch_##op, volatile AS A *p COMMA V v,                                   \
                return __opencl_atomic_fetch_##op(p, (T)v, order, scope))
#define FETCH_ALL(AS, A, T)                                                                         \
    FETCH(AS, add, A, T, T)                                                                         \
    FETCH(AS, sub, A, T, T) FETCH(AS, or, A, T, T) FETCH(AS, xor, A, T, T) FETCH(AS, and, A, T, T) \
        FETCH(AS, min, A, T, T) FETCH(AS, max, A, T, T)

#define INTEGER_ATOMICS(AS, unused)                                                                 \
    BASIC(AS, atomic_int, int)                                                                      \
    BASIC(AS, atomic_uint, uint)                                                                    \
    BASIC(AS, atomic_long, long)                                                                    \
    BASIC(AS, atomic_ulong, ulong)                                                                  \
    BASIC(AS, atomic_float, float)                                                                  \
    BASIC(AS, atomic_double, double)                                                                \
    CAS_SPACES(AS, atomic_int, int)                                                                 \
    CAS_SPACES(AS, atomic_uint, uint)                                                               \
    CAS_SPACES(AS, atomic_long, long)                                                               \
    CAS_SPACES(AS, atomic_ulong, ulong)                                                             \
    CAS_SPACES(AS, atomic_float, float)                                                             \
    CAS_SPACES(AS, atomic_double, double)                                                           \
    FETCH_ALL(AS, atomic_int, int)                                                                  \
    FETCH_ALL(AS, atomic_uint, uint)                                                                \
    FETCH_ALL(AS, atomic_long, long)                                                                \
    FETCH_ALL(AS, atomic_ulong, ulong)                                                              \
    /* atomic_uintptr_t with ptrdiff_t / intptr_t operands, atomic_intptr_t with uintptr_t */       \
    FETCH(AS, add, atomic_ulong, ulong, long)                                                       \
    FETCH(AS, sub, atomic_ulong, ulong, long)                                                       \
    FETCH(AS, or, atomic_ulong, ulong, long)                                                        \
    FETCH(AS, xor, atomic_ulong, ulong, long)                                                       \
    FETCH(AS, and, atomic_ulong, ulong, long)                                                       \
    FETCH(AS, min, atomic_ulong, ulong, long)                                                       \
    FETCH(AS, max, atomic_ulong, ulong, long)                                                       \
    FETCH(AS, or, atomic_long, long, ulong)                                                         \
    FETCH(AS, xor, atomic_long, long, ulong)                                                        \
    FETCH(AS, and, atomic_long, long, ulong)                                                        \
    FETCH(AS, min, atomic_long, long, ulong)                                                        \
    FETCH(AS, max, atomic_long, long, ulong)                                                        \
    /* atomic_flag (an atomic_int): set is any non-zero value */                                    \
    THREE_FORMS(bool, atomic_flag_test_and_set, volatile AS atomic_flag *p,                         \
                return __opencl_atomic_exchange(p, 1, order, scope) != 0)                           \
    THREE_FORMS(void, atomic_flag_clear, volatile AS atomic_flag *p,                                \
                __opencl_atomic_store(p, 0, order, scope))

FOR_OBJECT_SPACES(INTEGER_ATOMICS, )

// A fence for the work-item's own accesses (scope work_item) is the
// compiler's business only; wider scopes order memory for other threads.
OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order, memory_scope scope)
{
    if (flags == 0 || order == __ATOMIC_RELAXED)
        return;
    if (scope == __OPENCL_MEMORY_SCOPE_WORK_ITEM)
        __c11_atomic_signal_fence(order);
    else
        __c11_atomic_thread_fence(order);
}

// --- OpenCL 1.x atomics ---------------------------------------------------
// prefix_op(volatile AS T *p, ...) returning the old value.
#define LEGACY(prefix, AS, T)                                                                       \
    OVL T prefix##_add(volatile AS T *p, T v)                                                      \
    {                                                                                               \
        return __atomic_fetch_add(p, v, SEQ);                                                       \
    }                                                                                               \
    OVL T prefix##_sub(volatile AS T *p, T v)                                                      \
    {                                                                                               \
        return __atomic_fetch_sub(p, v, SEQ);                                                       \
    }                                                                                               \
    OVL T prefix##_xchg(volatile AS T *p, T v)                                                     \
    {                                                                                               \
        return __atomic_exchange_n(p, v, SEQ);                                                      \
    }                                                                                               \
    OVL T prefix##_inc(volatile AS T *p)                                                           \
    {                                                                                               \
        return __atomic_fetch_add(p, (T)1, SEQ);                                                    \
    }                                                                                               \
    OVL T prefix##_dec(volatile AS T *p)                                                           \
    {                                                                                               \
        return __atomic_fetch_sub(p, (T)1, SEQ);                                                    \
    }                                                                                               \
    OVL T prefix##_cmpxchg(volatile AS T *p, T cmp, T v)                                           \
    {                                                                                               \
        __atomic_compare_exchange_n(p, &cmp, v, false, SEQ, SEQ);                                   \
        return cmp;                                                                                 \
    }                                                                                               \
    OVL T prefix##_min(volatile AS T *p, T v)                                                      \
    {                                                                                               \
        return __atomic_fetch_min(p, v, SEQ);                                                       \
    }                                                                                               \
    OVL T prefix##_max(volatile AS T *p, T v)                                                      \
    {                                                                                               \
        return __atomic_fetch_max(p, v, SEQ);                                                       \
    }                                                                                               \
    OVL T prefix##_and(volatile AS T *p, T v)                                                      \
    {                                                                                               \
        return __atomic_fetch_and(p, v, SEQ);                                                       \
    }                                                                                               \
    OVL T prefix##_or(volatile AS T *p, T v)                                                       \
    {                                                                                               \
        return __atomic_fetch_or(p, v, SEQ);                                                        \
    }                                                                                               \
    OVL T prefix##_xor(volatile AS T *p, T v)                                                      \
    {                                                                                               \
        return __atomic_fetch_xor(p, v, SEQ);                                                       \
    }
// atomic_xchg of a float swaps its bits.
#define LEGACY_FLOAT(AS)                                                                            \
    OVL float atomic_xchg(volatile AS float *p, float v)                                           \
    {                                                                                               \
        return as_float(__atomic_exchange_n((volatile AS uint *)p, as_uint(v), SEQ));               \
    }
#define LEGACY_SPACE(AS)                                                                            \
    LEGACY(atomic, AS, int)                                                                         \
    LEGACY(atomic, AS, uint)                                                                        \
    LEGACY(atom, AS, int)                                                                           \
    LEGACY(atom, AS, uint) LEGACY(atom, AS, long) LEGACY(atom, AS, ulong) LEGACY_FLOAT(AS)
LEGACY_SPACE(__global)
LEGACY_SPACE(__local)
