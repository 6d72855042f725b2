// abs of a negated comparison, which InstCombine folds to abs of an i1
// (difftest found it): llvm.abs's second operand is a flag
// (is_int_min_poison), an immediate that stays a scalar i1 when the first
// becomes a vector of lanes, and the kernel is vectorized.
// RUN: global 64, local 16, W = 16
kernel void k(global int *out, global const int *in)
{
    size_t i = get_global_id(0);
    int a = in[i];
    out[i] = abs(-(a > 3));
}
// CHECK-NOT: not vectorized
// CHECK: ; lanes vectorized at width 16
// CHECK: call <16 x i1> @llvm.abs.v16i1(<16 x i1> %{{.*}}, i1 false)
