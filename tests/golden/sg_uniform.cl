// Sub-group functions in uniform control flow of full sub-groups pay nothing
// for the active-lane mask: it is the constant of every lane, which O3 folds
// into the forms. The ballot is one comparison into a mask register's bits
// (AVX-512); the non-uniform reduction is the uniform one's tree.
// RUN: global 64, local 16, W = 16
kernel void k(global int *out, global const int *a)
{
    size_t i = get_global_id(0);
    int x = a[i];
    out[i] = sub_group_non_uniform_reduce_max(x) + (int)sub_group_ballot(x > 3).x +
             sub_group_elect() + sub_group_broadcast_first(x);
}
// CHECK: ; lanes vectorized at width 16
// CHECK: call i32 @__lanes_sg16_sub_group_reduce_max_i(ptr %{{.*}}, i32 65535)
// CHECK: call <4 x i32> @__lanes_sg16_sub_group_ballot_i(i32 %{{.*}}, i32 65535)
// CHECK: call void @__lanes_sg16_sub_group_elect_v(ptr %{{.*}}, i32 65535)
// CHECK: call i32 @__lanes_sg16_sub_group_broadcast_first_i(ptr %{{.*}}, i32 65535)
// CHECK-LABEL: lanes.code.
// CHECK-NOT: kand
// CHECK: vpcmp{{[a-z]+}}d {{.*}}, %k[[K:[0-7]]]
// CHECK-NOT: kand
// CHECK: kmovw %k[[K]],
// CHECK-NOT: kand
// CHECK: ret
