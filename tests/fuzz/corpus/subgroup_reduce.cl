// options: -cl-std=CL3.0
// Sub-group reductions, scans and broadcasts over the work-items of a row.
__kernel void sg_sums(__global const int *in, __global int *sums, __global int *prefix)
{
    size_t gid = get_global_id(0);
    int x = in[gid];
    int total = sub_group_reduce_add(x);
    prefix[gid] = sub_group_scan_exclusive_add(x);
    if (get_sub_group_local_id() == 0)
        sums[gid / get_max_sub_group_size()] = total;
}

__kernel void sg_minmax(__global const float *in, __global float *out)
{
    size_t gid = get_global_id(0);
    float v = in[gid];
    float lo = sub_group_reduce_min(v);
    float hi = sub_group_scan_inclusive_max(v);
    float first = sub_group_broadcast(v, 0);
    out[gid] = (hi - lo) * first + (float)get_sub_group_id() + (float)get_num_sub_groups();
    if (sub_group_all(v > 0.0f) && sub_group_any(v > 100.0f))
        out[gid] = -out[gid];
}
