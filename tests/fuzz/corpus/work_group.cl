// options: -cl-std=CL3.0
// Work-group collectives and an asynchronous copy into local memory.
__kernel void normalise(__global const float *in, __global float *out)
{
    float v = in[get_global_id(0)];
    float total = work_group_reduce_add(v);
    float first = work_group_broadcast(v, 0);
    float before = work_group_scan_exclusive_add(v);
    int any_neg = work_group_any(v < 0.0f);
    out[get_global_id(0)] = (total != 0.0f ? v / total : 0.0f) + first * before + any_neg;
}

__kernel void staged(__global const int *in, __global int *out, __local int *stage)
{
    size_t n = get_local_size(0);
    event_t e = async_work_group_copy(stage, in + get_group_id(0) * n, n, 0);
    wait_group_events(1, &e);
    int m = work_group_reduce_max(stage[n - 1 - get_local_id(0)]);
    out[get_global_id(0)] = m - stage[get_local_id(0)];
    prefetch(in + get_global_id(0), 4);
}
