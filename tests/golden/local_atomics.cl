// Atomics on __local memory are plain loads and stores: a work-group runs
// on one thread and its lanes take turns (compiler/local_atomics.c). So are
// those on a generic pointer made from a __local one, in a function the
// kernel calls. Atomics on __global memory stay atomics.
// RUN: global 64, local 64, W = 16
void add_to(atomic_int *p, int v)
{
    atomic_fetch_add_explicit(p, v, memory_order_relaxed, memory_scope_work_group);
}

kernel void k(global int *out, global atomic_int *g, global const int *a)
{
    local atomic_int c[8];
    local int h[8];
    local long w[8];
    size_t l = get_local_id(0);
    if (l < 8) {
        atomic_init(&c[l], 0);
        h[l] = 0;
        w[l] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = a[l];
    atomic_fetch_max(&c[x & 7], x);
    add_to(&c[(x >> 3) & 7], 2);
    atomic_inc(&h[x & 7]);
    atomic_cmpxchg(&h[(x >> 4) & 7], 5, 6);
    atom_xchg(&w[x & 7], (long)x);
    atomic_fetch_sub(g, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 8)
        out[l] = atomic_load(&c[l]) + h[l] + (int)w[l];
}
// CHECK: ; lanes shapes: k.sg at width 16
// CHECK-LABEL: lanes.code.
// CHECK-NOT: {{cmpxchg|load atomic|store atomic|atomicrmw (volatile )?(max|add|xchg)}}
// CHECK: atomicrmw volatile sub ptr addrspace({{[14]}})
// CHECK-NOT: {{cmpxchg|load atomic|store atomic|atomicrmw (volatile )?(max|add|xchg)}}
