// intel_sub_group_block_read8 in a kernel that requires 8 lanes (the width
// policy takes the kernel's intel_reqd_sub_group_size): the library reads
// value k of lane i at p[i + k * 8], a uniform pointer indexed by the lane,
// so each value is one contiguous vector load (no gathers), and the block
// write is eight vector stores. A shuffle with an index per lane is a
// permute.
// RUN: global 64, local 16, W = 8 (the kernel's own)
__attribute__((intel_reqd_sub_group_size(8)))
kernel void k(global uint *out, global const uint *in, global const uint *index)
{
    const global uint *p = in + get_group_id(0) * 128 + get_sub_group_id() * 64;
    uint8 v = intel_sub_group_block_read8(p);
    v.s3 = intel_sub_group_shuffle(v.s3, index[get_global_id(0)]);
    intel_sub_group_block_write8(out + get_group_id(0) * 128 + get_sub_group_id() * 64, v * 2u);
}
// CHECK: ; lanes vectorized at width 8
// CHECK-LABEL: lanes.code.
// CHECK-NOT: {{vpgather|vpscatter|vpextr|vpinsr}}
// CHECK: vmovdqu {{.*}}, %ymm
// CHECK-NOT: {{vpgather|vpscatter|vpextr|vpinsr}}
// CHECK: vperm
// CHECK-NOT: {{vpgather|vpscatter|vpextr|vpinsr}}
// CHECK: vmovdqu %ymm
// CHECK-NOT: {{vpgather|vpscatter|vpextr|vpinsr}}
// CHECK: ret
