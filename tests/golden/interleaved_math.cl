// A math built-in on an OpenCL vector per work-item as wide as SLEEF's
// vector (16 floats with AVX-512, 8 with AVX2): called on each lane's value
// as the kernel wrote it, so that between the loads and the stores of the
// sub-group's block there is no transpose, only the calls (16 of 16 floats
// or 32 of 8).
// RUN: global 64, local 16, W = 16 (final IR)
kernel void k(global float16 *out, global const float16 *in)
{
    size_t i = get_global_id(0);
    out[i] = sin(in[i]);
}
// CHECK: ; lanes: kernel k optimized
// CHECK: load <{{16|8}} x float>
// CHECK-NOT: <16 x i32> <i32 0, i32 16, i32 32,
// CHECK-COUNT-16: call <{{16|8}} x float> @Sleef_finz_sinf{{16|8}}_u10{{avx512f|avx2}}(
// CHECK-NOT: <16 x i32> <i32 0, i32 16, i32 32,
// CHECK: store <{{16|8}} x float>
