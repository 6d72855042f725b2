// A sub-group function on a path that leaves a loop (docs/architecture.md,
// the rule for sub-group functions): lanes 3, 7, ... leave in iteration 0
// and reduce among themselves; lanes 2, 6, ... in iteration 1. The exit's
// block runs inside the linearized loop, before its "some lane goes on"
// test, not once after it with the lanes of both iterations.
// RUN: global 200, local 100, W = 16
kernel void k(global const uint *in_v, global uint *out_v)
{
    size_t gid = get_global_id(0);
    uint lid = get_sub_group_local_id();
    uint v = in_v[gid];
    for (uint i0 = 0u; i0 < 2u; i0++) {
        if (((lid + i0) & 3u) == 3u) {
            v += (uint)sub_group_non_uniform_reduce_min((int)(0xfffffffdu * (i0 * i0)));
            break;
        }
    }
    out_v[gid] = v;
}
// CHECK: ; lanes: linearized
// CHECK: call i32 @_Z32sub_group_non_uniform_reduce_mini({{.*}}){{.*}}, !lanes.exit_of
// CHECK: call i1 @__lanes.any(
// CHECK-NOT: sub_group_non_uniform_reduce_min
// CHECK: store i32
