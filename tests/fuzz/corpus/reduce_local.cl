// Work-group sums through local memory: a tree of halvings between barriers.
__kernel void reduce_sum(__global const int *in, __global int *out, __local int *scratch)
{
    size_t lid = get_local_id(0);
    size_t n = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}

__kernel void reduce_max_fixed(__global const float *in, __global float *out)
{
    __local float tile[64];
    size_t lid = get_local_id(0);
    tile[lid % 64] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        float m = -INFINITY;
        for (int i = 0; i < 64 && i < (int)get_local_size(0); i++)
            m = fmax(m, tile[i]);
        out[get_group_id(0)] = m;
    }
}
