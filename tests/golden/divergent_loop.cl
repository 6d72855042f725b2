// A loop whose trip count differs between lanes runs while a lane is left,
// under a mask; after it (partial linearization) every lane is back, and the
// store needs no mask.
// RUN: global 64, local 16, W = 16
kernel void k(global int *out, global const float *c)
{
    size_t i = get_global_id(0);
    float x = 0.0f, y = c[i];
    int n = 0;
    while (x * x < 4.0f && n < 256) {
        x = x * x - y;
        n++;
    }
    out[i] = n;
}
// CHECK: ; lanes shapes: k.sg at width 16 (linearized)
// CHECK: varying: %{{.*}} = call i1 @__lanes.block_mask(
// CHECK: uniform: %{{.*}} = call i1 @__lanes.any(
// CHECK: ; lanes vectorized at width 16
// CHECK: phi <16 x i1>
// CHECK: fmul <16 x float>
// CHECK: call i1 @llvm.vector.reduce.or.v16i1(
// CHECK-NOT: masked.store
// CHECK: store <16 x i32>
