// A half-full sub-group at W = 32 (16 work-items): O3 turns `mask & <16 x
// true, 16 x false>` into a shuffle of the <32 x i1> mask with constant
// lanes, which LLVM 19's x86 code generation miscompiles (the high lanes stay
// on: NaNs, and stores past the buffer). lanes_llvm19_workarounds
// (compiler/workarounds.c) rewrites it as and/or with constants before code
// generation.
// RUN: global 32, local 16, W = 32
kernel void k(global const double *a, global const double *b, global float *r, global int *o)
{
    int i = get_global_id(0), q1, q2;
    double x = a[i], y = b[i];
    r[i] = (float)remquo(x, y, &q1);
    r[i + 32] = (float)remquo(x, y, &q2);
    o[i] = q1;
    o[i + 32] = q2;
}
// CHECK: ; lanes: kernel k optimized
// CHECK-NOT: shufflevector <32 x i1>
// CHECK: and <32 x i1> %{{.*}}, <i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 true, i1 false,
// CHECK-NOT: shufflevector <32 x i1>
