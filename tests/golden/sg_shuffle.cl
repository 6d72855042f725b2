// sub_group_shuffle with an index per lane maps to its vector form, which is
// the CPU's permute: at W = 32 two two-register permutes (vpermi2d with
// AVX-512; vpermd and blends with AVX2), no per-lane extracts or inserts.
// In a divergent branch the same form serves: the mask only picks the lanes
// that store.
// RUN: global 64, local 32, W = 32
kernel void k(global int *out, global const int *a, global const uint *index)
{
    size_t i = get_global_id(0);
    int x = a[i];
    out[i] = sub_group_shuffle(x, index[i]);
    if (x > 0)
        out[i + 64] = sub_group_shuffle_xor(x, 5u);
}
// CHECK: ; lanes vectorized at width 32
// CHECK-DAG: call void @__lanes_sg32_sub_group_shuffle_ij(ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, i32 -1)
// CHECK-DAG: call void @__lanes_sg32_sub_group_shuffle_xor_ij(ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, i32 %{{.*}})
// CHECK-LABEL: lanes.code.
// CHECK-NOT: {{vpextr|vpinsr|vpgather}}
// CHECK: vperm
// CHECK-NOT: {{vpextr|vpinsr|vpgather}}
// CHECK: ret
