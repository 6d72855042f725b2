// Stream compaction with the Khronos ballot (bench_scan's compact): each
// kept float goes to base + sub_group_ballot_exclusive_scan of the ballot of
// its condition, so the active lanes store one after another in lane order.
// lanes_host_compress_scatters (compiler/host.c) makes the scatter a
// compression into a register and a masked store of its low lanes (the
// index is a uint: the lanes whose index wraps round are compressed apart).
// RUN: global 64, local 16, W = 16
kernel void k(global float *out, global const float *in, uint base)
{
    float x = in[get_global_id(0)];
    uint4 kept = sub_group_ballot(x > 0.0f);
    if (x > 0.0f)
        out[base + sub_group_ballot_exclusive_scan(kept)] = x;
}
// CHECK: ; lanes: kernel k optimized
// CHECK-NOT: call void @llvm.masked.scatter
// CHECK: call <16 x float> @llvm.x86.avx512.mask.compress.v16f32(
// CHECK: call void @llvm.masked.store.v16f32
// CHECK-NOT: call void @llvm.masked.scatter
