// A work-item that is one chain of dependent fma (Horner's rule, 32 steps):
// one sub-group would keep one vector instruction in flight. Its rows are 64
// work-items and it cannot tell its sub-group width, so four sub-groups of
// 16 run as one vector of 64 lanes (compiler/interleave.c): four
// independent chains, four registers with AVX-512.
// RUN: global 128, local 64, W = 16
kernel void k(global float *out, global const float *in)
{
    size_t i = get_global_id(0);
    float x = in[i], a = 0.5f;
    for (int k = 0; k < 32; k++)
        a = fma(a, x, (float)k);
    out[i] = a;
}
// CHECK: ; lanes vectorized at width 64
// CHECK: call <64 x float> @llvm.fma.v64f32
