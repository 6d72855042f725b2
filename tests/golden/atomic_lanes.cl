// An atomic at a varying address runs once per active lane, in lane order,
// as one loop over the mask's set bits (compiler/vectorize/vz_widen.c,
// lane_loop): one copy of the atomic at any width, not W guarded copies.
// RUN: global 64, local 32, W = 16
kernel void k(global int *count, global int *old, global const int *a)
{
    size_t i = get_global_id(0);
    if (a[i] > 0)
        old[i] = atomic_add(&count[a[i] & 7], 1);
}
// CHECK: ; lanes vectorized at width 16
// CHECK: vz.lane:
// CHECK: [[LEFT:%.*]] = phi i16 [
// CHECK: call i16 @llvm.cttz.i16(i16 [[LEFT]], i1 true)
// CHECK: atomicrmw {{(volatile )?}}add ptr addrspace(1)
// CHECK-NOT: atomicrmw
// CHECK: vz.lanes.done:
