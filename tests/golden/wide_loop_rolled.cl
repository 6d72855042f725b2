// clpeak's float16 compute kernel: 8 iterations of 16 float16 mad. Unrolled
// in full before the vectorizer (LLVM's unroller counts a float16 mad as
// one instruction), it became 2,048 FMAs in a row at W = 16 and ran at
// 150-166 GFLOP/s; kept as a loop of 256 (compiler/interleave.c,
// lanes_keep_wide_loops_rolled), at 229-231.
// RUN: global 4096, local 256, W = 16
#define MAD_4(x, y) x = mad(y, x, y); y = mad(x, y, x); x = mad(y, x, y); y = mad(x, y, x);
#define MAD_16(x, y) MAD_4(x, y); MAD_4(x, y); MAD_4(x, y); MAD_4(x, y);
kernel void compute_sp_v16(global float *ptr, float _A)
{
    float16 x = (float16)(_A, (_A + 1), (_A + 2), (_A + 3), (_A + 4), (_A + 5), (_A + 6), (_A + 7),
                          (_A + 8), (_A + 9), (_A + 10), (_A + 11), (_A + 12), (_A + 13), (_A + 14),
                          (_A + 15));
    float16 y = (float16)get_local_id(0);
    for (int i = 0; i < 8; i++) {
        MAD_16(x, y);
    }
    float2 t = (y.S01) + (y.S23) + (y.S45) + (y.S67) + (y.S89) + (y.SAB) + (y.SCD) + (y.SEF);
    ptr[get_global_id(0)] = t.S0 + t.S1;
}
// CHECK: ; lanes vectorized at width 16
// CHECK: phi [16 x <16 x float>]
// CHECK: phi i32 [ 0,
