// Eight independent chains of fma a work-item: parallel enough, so the
// sub-group stays one vector of 16 lanes (compiler/interleave.c), though
// its rows of 64 would allow four sub-groups a vector.
// RUN: global 128, local 64, W = 16
kernel void k(global float *out, global const float *in)
{
    size_t i = get_global_id(0);
    float x = in[i];
    float a0 = 0.5f, a1 = 1.5f, a2 = 2.5f, a3 = 3.5f, a4 = 4.5f, a5 = 5.5f, a6 = 6.5f, a7 = 7.5f;
    for (int k = 0; k < 8; k++) {
        a0 = fma(a0, x, (float)k), a1 = fma(a1, x, (float)k), a2 = fma(a2, x, (float)k);
        a3 = fma(a3, x, (float)k), a4 = fma(a4, x, (float)k), a5 = fma(a5, x, (float)k);
        a6 = fma(a6, x, (float)k), a7 = fma(a7, x, (float)k);
    }
    out[i] = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));
}
// CHECK: ; lanes vectorized at width 16
// CHECK-NOT: <64 x float>
// CHECK-NOT: <32 x float>
