// OpenCL vector types per work-item ("array of structures"): lane i's float4
// lies right after lane i-1's, so the sub-group's 16 float4 are one block of
// 64 floats: loads of whole vector registers in ascending order (16 floats
// with AVX-512, 8 with AVX2), shuffles to the four components' vectors, and
// back for the stores; no gathers or scatters.
// RUN: global 64, local 16, W = 16
kernel void k(global float4 *out, global const float4 *in)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * (float4)(1.0f, 2.0f, 3.0f, 4.0f);
}
// CHECK: ; lanes vectorized at width 16
// CHECK: load <{{16|8}} x float>
// CHECK: shufflevector <64 x float> %{{.*}}, <64 x float> poison, <16 x i32> <i32 0, i32 4, i32 8,
// CHECK: store <{{16|8}} x float>
// CHECK-NOT: gather
// CHECK-NOT: scatter
