// An index loaded from memory makes the address varying: a gather.
// RUN: global 64, local 16, W = 8
kernel void k(global float *out, global const float *a, global const int *idx)
{
    size_t i = get_global_id(0);
    out[i] = a[idx[i]];
}
// CHECK: ; lanes vectorized at width 8
// CHECK: load <8 x i32>
// CHECK: call <8 x float> @llvm.masked.gather.v8f32
// CHECK: store <8 x float>
