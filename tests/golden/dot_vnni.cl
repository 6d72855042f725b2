// Byte dot products on a host with VNNI (compiler/vectorize/vz_dot.c):
// each call of the library's __lanes_dpbusd(s) becomes vpdpbusd(s) on 16
// lanes' dwords, twice at W = 32. The mixed-signedness saturating form is
// one vpdpbusds; the signed one two vpdpbusd (the bytes biased by 128, then
// the bias taken off). Registered only where /proc/cpuinfo lists VNNI.
// RUN: global 64, local 32, W = 32
kernel void k(global int *out, global const uint *a, global const uint *b,
              global const uchar4 *ua, global const char4 *sb)
{
    size_t i = get_global_id(0);
    int acc = out[i];
    acc = dot_acc_sat_4x8packed_us_int(a[i], b[i], acc);
    acc += dot_4x8packed_ss_int(a[i], b[i]);
    out[i] = dot_acc_sat(ua[i], sb[i], acc);
}
// CHECK-NOT: not vectorized
// CHECK: ; lanes vectorized at width 32
// CHECK-NOT: call {{.*}}@_Z{{[0-9]+}}__lanes_dpbusd
// CHECK: call <{{16|8}} x i32> @llvm.x86.avx512.vpdpbusds.{{512|256}}(
// CHECK: call <{{16|8}} x i32> @llvm.x86.avx512.vpdpbusd.{{512|256}}(
// CHECK-NOT: call {{.*}}@_Z{{[0-9]+}}__lanes_dpbusd
// CHECK: vpdpbusds
// CHECK: vpdpbusd
