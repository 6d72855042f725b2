// Math built-ins run as SLEEF's vector code at the sub-group's width
// (compiler/vectorize/vz_math.c), in divergent code too: the widest code of
// the host's level that fits in W, called W / width times (at W = 16: one
// call of 16 floats and two of 8 doubles with AVX-512; two of 8 floats and
// four of 4 doubles with AVX2), never SLEEF's scalar code once per lane.
// RUN: global 64, local 32, W = 16
kernel void k(global float *out, global const float *a, global double *d)
{
    size_t i = get_global_id(0);
    float x = a[i];
    if (x > 0.5f)
        x = sin(x);
    out[i] = x;
    d[i] = exp((double)x);
}
// CHECK: ; lanes vectorized at width 16
// CHECK-NOT: Sleef_finz_sinf1_
// CHECK: call <{{16|8}} x float> @Sleef_finz_sinf{{16|8}}_u10{{avx512f|avx2}}(
// CHECK-NOT: Sleef_finz_expd1_
// CHECK: [[A:%.*]] = shufflevector <16 x double> [[X:%.*]], <16 x double> poison, <{{8|4}} x i32> <i32 0, i32 1,
// CHECK-NEXT: call <{{8|4}} x double> @Sleef_finz_expd{{8|4}}_u10{{avx512f|avx2}}(<{{8|4}} x double> [[A]])
// CHECK: call <{{8|4}} x double> @Sleef_finz_expd{{8|4}}_u10{{avx512f|avx2}}(
