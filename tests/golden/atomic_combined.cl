// An integer atomic at a uniform address is one atomic for the whole
// sub-group (compiler/vectorize/vz_widen.c, combined_atomic). With the same
// operand in every lane (a compaction counter) it is closed-form: one add
// of the operand times the active lanes (ctpop of the mask), each lane's
// old value the result plus the operand times the active lanes below it.
// With a varying operand, a loop over the active lanes combines the
// operands in lane order with plain adds before one atomicrmw adds the sum.
// RUN: global 64, local 32, W = 16
kernel void k(global int *count, global int *out, global const int *a)
{
    size_t i = get_global_id(0);
    if (a[i] > 0)
        out[atomic_inc(count)] = a[i];
    out[64 + i] = atomic_add(&count[1], a[i]);
}
// CHECK: ; lanes vectorized at width 16
// CHECK: call i16 @llvm.ctpop.i16
// CHECK: call <16 x i16> @llvm.ctpop.v16i16
// CHECK: atomicrmw {{(volatile )?}}add ptr addrspace(1) %{{.*}}, i32 %{{.*}}
// CHECK: vz.combine:
// CHECK: call i16 @llvm.cttz.i16(i16 %{{.*}}, i1 true)
// CHECK: vz.combined:
// CHECK-NEXT: atomicrmw {{(volatile )?}}add ptr addrspace(1) %{{.*}}, i32 %{{.*}}
// CHECK-NOT: atomicrmw
