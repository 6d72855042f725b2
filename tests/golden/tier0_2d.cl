// Tier 0 of a 2-D kernel: the local ids come from the linear one by
// multiplying by a reciprocal read at run time (x86 has no vector
// division), never by a division of a vector.
// RUN: global 24x6, local 12x3, W = 16 (LANES_TIER=0)
kernel void k(global int *out)
{
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =
        (int)(get_local_id(1) * 100 + get_local_id(0));
}
// CHECK: define void @lanes.code.
// CHECK-NOT: {{u(div|rem) <16 x}}
// CHECK: udiv i64
// CHECK-NOT: {{u(div|rem) <16 x}}
// CHECK: mul <16 x i64>
// CHECK-NEXT: lshr <16 x i64> %{{[0-9]+}}, <i64 32,
// CHECK-NOT: {{u(div|rem) <16 x}}
// CHECK: ret void
