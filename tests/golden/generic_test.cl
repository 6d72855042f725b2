// A generic pointer whose origin the IR does not show (here made from an
// integer the host wrote) is classified by its address at run time: inside
// the process's __local region (wg fields at 192 and 200) or its private
// region (208 and 216), else global: a vector subtraction and
// comparison for each region (compiler/generic.c, runtime/exec/wgmem.h).
// RUN: global 64, local 16, W = 16
kernel void k(global int *out, global const ulong *addresses)
{
    size_t i = get_global_id(0);
    int *p = (int *)addresses[i];
    out[i] = (to_local(p) != 0) | (to_private(p) != 0) << 1 | get_fence(p) << 4;
}
// CHECK: ; lanes: kernel k optimized
// CHECK-LABEL: define void @lanes.code.
// CHECK-DAG: getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 192
// CHECK-DAG: getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 200
// CHECK-DAG: getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 208
// CHECK-DAG: getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 216
// CHECK: icmp {{ult|uge}} <16 x i64>
// CHECK: icmp {{ult|uge}} <16 x i64>
// CHECK: ret void
