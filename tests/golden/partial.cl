// Work-groups of 20 at W = 16: the second sub-group has 4 lanes, so
// memory accesses are masked by the entry mask; in one row, a lane's local
// id is its local linear id, so they stay contiguous (no gathers).
// RUN: global 40, local 20, W = 16
kernel void k(global int *out, global const int *a)
{
    size_t i = get_global_id(0);
    out[i] = a[i] + 1;
}
// CHECK: ; lanes vectorized at width 16
// CHECK: %entry.mask = icmp ult <16 x i64> <i64 0, i64 1,
// CHECK: call <16 x i32> @llvm.masked.load.v16i32
// CHECK: call void @llvm.masked.store.v16i32
