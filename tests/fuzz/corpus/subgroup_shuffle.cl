// options: -cl-std=CL3.0
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle_relative : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_clustered_reduce : enable
// Butterfly sums, neighbour differences and ballots inside one sub-group.
__kernel void sg_butterfly(__global const float *in, __global float *out)
{
    uint lane = get_sub_group_local_id();
    float v = in[get_global_id(0)];
    for (uint m = get_max_sub_group_size() / 2; m > 0; m >>= 1)
        v += sub_group_shuffle_xor(v, m);
    float left = sub_group_shuffle_up(v, 1);
    float right = sub_group_shuffle_down(v, 1);
    out[get_global_id(0)] = (lane == 0 ? v : left) - right + sub_group_shuffle(v, lane ^ 1u);
}

__kernel void sg_ballot(__global const int *flags, __global uint *counts, __global int *partial)
{
    int f = flags[get_global_id(0)];
    uint4 mask = sub_group_ballot(f != 0);
    uint n = sub_group_ballot_bit_count(mask);
    if (f & 1)
        partial[get_global_id(0)] = sub_group_non_uniform_reduce_add(f);
    else
        partial[get_global_id(0)] = sub_group_clustered_reduce_max(f, 4);
    if (sub_group_elect())
        counts[get_global_id(0) / get_max_sub_group_size()] =
            n + sub_group_ballot_find_lsb(mask);
}
