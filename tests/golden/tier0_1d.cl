// The launcher of every local size (tier 0) of a 1-D kernel: it reads the
// work-group's size from its lanes_wg (offset 24) and walks the sub-groups
// by their linear index, the last one masked; in one row the local id is the
// linear one, so memory stays contiguous (masked loads, no gathers).
// RUN: global 40, local 20, W = 16 (LANES_TIER=0)
kernel void k(global int *out, global const int *a)
{
    size_t i = get_global_id(0);
    out[i] = a[i] + 1;
}
// CHECK: define void @lanes.code.
// CHECK: getelementptr inbounds i8, ptr %1, i64 24
// CHECK: %items = mul
// CHECK: call <16 x i32> @llvm.masked.load.v16i32
// CHECK-NOT: gather
// CHECK: call void @llvm.masked.store.v16i32
// CHECK-NOT: scatter
// CHECK: ret void
