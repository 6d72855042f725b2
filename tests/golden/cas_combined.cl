// A compare-exchange at a uniform address (a CAS loop on one counter) is
// at most one cmpxchg for the whole sub-group: one atomic load, the active
// lanes' compare-exchanges played in lane order on it with plain
// instructions, then one cmpxchg of the loaded value for the final one,
// again from what it saw if another thread got there first
// (compiler/vectorize/vz_widen.c, combined_cmpxchg).
// RUN: global 64, local 32, W = 16
kernel void k(global int *c, global const int *a)
{
    int v = a[get_global_id(0)], o;
    do {
        o = ((volatile global int *)c)[0];
    } while (atomic_cmpxchg(&c[0], o, o + v) != o);
}
// CHECK: ; lanes vectorized at width 16
// CHECK: vz.cas:
// CHECK-NEXT: load atomic {{(volatile )?}}i32, ptr addrspace(1)
// CHECK: vz.cas.lane:
// CHECK: call i16 @llvm.cttz.i16(i16 %{{.*}}, i1 true)
// CHECK: vz.cas.write:
// CHECK-NEXT: cmpxchg {{(volatile )?}}ptr addrspace(1)
// CHECK-NOT: cmpxchg
