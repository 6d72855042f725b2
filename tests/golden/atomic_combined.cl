// An integer atomic at a uniform address (a counter every active lane
// bumps, as in stream compaction) is one atomic for the whole sub-group:
// a loop over the active lanes combines their operands in lane order with
// plain adds, one atomicrmw adds the sum, and each lane's old value is the
// atomic's result plus what the lanes before it added
// (compiler/vectorize/vz_widen.c, combined_atomic).
// RUN: global 64, local 32, W = 16
kernel void k(global int *count, global int *out, global const int *a)
{
    size_t i = get_global_id(0);
    if (a[i] > 0)
        out[atomic_inc(count)] = a[i];
}
// CHECK: ; lanes vectorized at width 16
// CHECK: vz.combine:
// CHECK: call i16 @llvm.cttz.i16(i16 %{{.*}}, i1 true)
// CHECK: vz.combined:
// CHECK-NEXT: atomicrmw {{(volatile )?}}add ptr addrspace(1) %{{.*}}, i32 %{{.*}}
// CHECK-NOT: atomicrmw
// CHECK: vz.combine.done:
// CHECK-NOT: atomicrmw
