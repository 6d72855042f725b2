// options: -cl-std=CL3.0
// Histograms with 1.x atomics on local and global memory, and C11-style atomics.
__kernel void histogram(__global const uchar *data, __global uint *bins, uint n)
{
    __local uint local_bins[256];
    for (uint i = get_local_id(0); i < 256; i += get_local_size(0))
        local_bins[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_local_id(0); i < 256; i += get_local_size(0))
        atomic_add(&bins[i], local_bins[i]);
}

__kernel void counters(__global atomic_int *count, __global int *mins, __global const int *in)
{
    int v = in[get_global_id(0)];
    int before = atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_device);
    atomic_min(mins, v);
    if (before == 0)
        atomic_xchg(mins + 1, v);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
}
