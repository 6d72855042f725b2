// Byte dot products without VNNI (LANES_VNNI=0, as on a host without it):
// the library's generic code widens like the kernel's, products of the
// lanes' bytes as vectors, a saturating add on the vector; no instruction
// of VNNI and no call per lane.
// RUN: global 64, local 32, W = 16
kernel void k(global int *out, global const uint *a, global const uint *b)
{
    size_t i = get_global_id(0);
    out[i] = dot_acc_sat_4x8packed_su_int(a[i], b[i], out[i]);
}
// CHECK-NOT: not vectorized
// CHECK: ; lanes vectorized at width 16
// CHECK-NOT: __lanes_dpbusd
// CHECK: mul nsw <16 x i32>
// CHECK: call <16 x i32> @llvm.sadd.sat.v16i32(
// CHECK-NOT: vpdpbusd
