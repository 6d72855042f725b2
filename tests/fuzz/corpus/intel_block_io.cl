// options: -cl-std=CL3.0
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
// A GPU-style kernel: block reads and writes of whole sub-groups, shuffles by lane.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void block_scale(__global const uint *src, __global uint *dst, uint rows)
{
    uint group_base = get_group_id(0) * get_local_size(0) * 4;
    uint sg_base = group_base + get_sub_group_id() * get_max_sub_group_size() * 4;
    for (uint r = 0; r < rows; r++) {
        uint4 v = intel_sub_group_block_read4(src + sg_base + r * 1024);
        uint lane = get_sub_group_local_id();
        v.x += intel_sub_group_shuffle(v.y, (lane + 1) % 16);
        v.w ^= intel_sub_group_shuffle_xor(v.z, 3);
        intel_sub_group_block_write4(dst + sg_base + r * 1024, v * 3u);
    }
}

__attribute__((reqd_work_group_size(8, 4, 1)))
__kernel void block_rows(__global const uint *src, __global float *dst)
{
    size_t row = get_global_id(1);
    uint v = intel_sub_group_block_read(src + row * 64 + get_group_id(0) * 8);
    float f = as_float(v);
    float n = intel_sub_group_shuffle_down(f, f, 1);
    float p = intel_sub_group_shuffle_up(f, f, 2);
    dst[get_global_id(0) + row * get_global_size(0)] = f + n - p;
}
