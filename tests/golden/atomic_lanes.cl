// An atomic at varying addresses runs once per active lane, in lane order,
// as one loop over the mask's set bits (compiler/vectorize/vz_widen.c,
// lane_loop): one copy of the atomic at any width, not W guarded copies.
// An integer atomicrmw first compares the lanes' addresses with the first
// active lane's (widen_atomicrmw): when they are all the same (a bitmap's
// word shared by the sub-group), it takes one atomic for the sub-group
// instead, as at a uniform address (here an add of 1 times the active
// lanes).
// RUN: global 64, local 32, W = 16
kernel void k(global int *count, global int *old, global const int *a)
{
    size_t i = get_global_id(0);
    if (a[i] > 0)
        old[i] = atomic_add(&count[a[i] & 7], 1);
}
// CHECK: ; lanes vectorized at width 16
// CHECK: icmp eq <16 x ptr addrspace(1)>
// CHECK: call i1 @llvm.vector.reduce.and.v16i1
// CHECK: br i1 %{{.*}}, label %vz.one.address, label %vz.addresses
// CHECK: vz.one.address:
// CHECK: call i16 @llvm.ctpop.i16
// CHECK: atomicrmw {{(volatile )?}}add ptr addrspace(1) %{{.*}}, i32 %{{.*}}
// CHECK: vz.lane:
// CHECK: [[LEFT:%.*]] = phi i16 [
// CHECK: call i16 @llvm.cttz.i16(i16 [[LEFT]], i1 true)
// CHECK: atomicrmw {{(volatile )?}}add ptr addrspace(1) %{{.*}}, i32 1
// CHECK-NOT: atomicrmw
// CHECK: vz.lanes.done:
