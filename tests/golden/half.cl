// Half precision (cl_khr_fp16, under LANES_FP16=1) at vector speed: half
// values widen to <16 x half> (the code generator computes each operation
// in float, rounded to half), the library's half math is its float code
// around SLEEF's vector calls, and a sub-group reduction of half maps to its
// vector form. Nothing falls back to one call per lane.
// RUN: global 64, local 16, W = 16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global half *out, global const half *a, global const half *b)
{
    size_t i = get_global_id(0);
    half x = a[i], y = b[i];
    half s = x / y + x * y;
    out[i] = sin(s) + sub_group_reduce_max(x);
}
// CHECK-NOT: not vectorized
// CHECK: ; lanes vectorized at width 16
// CHECK: load <16 x half>
// CHECK: fdiv <16 x half>
// CHECK-NOT: Sleef_finz_sinf1_
// CHECK: call <{{16|8}} x float> @Sleef_finz_sinf{{16|8}}_u10{{avx512f|avx2}}(
// CHECK: call {{.*}}half @__lanes_sg16_sub_group_reduce_max_Dh(
// CHECK: store <16 x half>
