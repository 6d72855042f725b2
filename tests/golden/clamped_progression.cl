// A progression clamped against uniform bounds (InstCombine makes
// clamp(i - 1, 0, n - 1) smin(smax(i, 1) - 1, n - 1)): where no min or max
// changed a lane's value, one vector load at the unclamped progression;
// else the gather.
// RUN: global 64, local 16, W = 8
kernel void k(global float *out, global const float *a, int n)
{
    int i = get_global_id(0);
    out[i] = a[clamp(i - 1, 0, n - 1)] + a[clamp(i + 1, 0, n - 1)];
}
// CHECK: ; lanes vectorized at width 8
// CHECK: [[MAX:%[0-9]+]] = call <8 x i32> @llvm.smax.v8i32(<8 x i32> [[I:%[0-9]+]],
// CHECK: [[MIN:%[0-9]+]] = call <8 x i32> @llvm.smin.v8i32(<8 x i32> [[DEC:%[0-9]+]],
// CHECK: icmp ne <8 x i32> [[MAX]], [[I]]
// CHECK: icmp ne <8 x i32> [[MIN]], [[DEC]]
// CHECK: [[BITES:%[0-9]+]] = call i1 @llvm.vector.reduce.or.v8i1
// CHECK: br i1 [[BITES]], label %vz.clamped, label %vz.unclamped
// CHECK: vz.unclamped:
// CHECK: load <8 x float>
// CHECK: vz.clamped:
// CHECK: @llvm.masked.gather.v8f32
// CHECK: vz.join:
// CHECK-NEXT: phi <8 x float>
// CHECK: vz.unclamped1:
// CHECK: load <8 x float>
// CHECK: vz.clamped2:
// CHECK: @llvm.masked.gather.v8f32
