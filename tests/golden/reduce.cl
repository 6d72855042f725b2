// sub_group_reduce_add maps to its vector form, which O3 inlines as a tree
// of halving shuffles and vector adds; the scan to log2(W) shifted adds.
// RUN: global 64, local 16, W = 16
kernel void k(global int *out, global const int *a)
{
    size_t i = get_global_id(0);
    int x = a[i];
    out[i] = sub_group_reduce_add(x) + sub_group_scan_inclusive_add(x);
}
// CHECK: ; lanes vectorized at width 16
// The vector forms, every lane active: the mask is a constant.
// CHECK: call i32 @__lanes_sg16_sub_group_reduce_add_i(ptr %{{.*}}, i32 65535)
// CHECK: call void @__lanes_sg16_sub_group_scan_inclusive_add_i(ptr %{{.*}}, ptr %{{.*}}, i32 65535)
// After O3: one vector load, the reduction tree 16 -> 8 -> 4 -> 2 -> 1 ...
// CHECK: define void @lanes.code.
// CHECK: [[X:%.*]] = load <16 x i32>
// CHECK: add <8 x i32>
// CHECK: add <4 x i32>
// CHECK: add <2 x i32>
// ... and the scan: four steps, each a shuffle by 1, 2, 4, 8 lanes and an add.
// CHECK: shufflevector <16 x i32> <{{.*}}>, <16 x i32> [[X]], <16 x i32> <i32 15, i32 16,
// CHECK: add <16 x i32>
// CHECK: <16 x i32> <i32 14, i32 15,
// CHECK: add <16 x i32>
// CHECK: <16 x i32> <i32 12, i32 13,
// CHECK: add <16 x i32>
// CHECK: <16 x i32> <i32 8, i32 9,
// CHECK: add <16 x i32>
// CHECK: store <16 x i32>
