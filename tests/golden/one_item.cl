// A work-group of one work-item is one sub-group of one work-item at any
// width: the width policy runs it at width 1, with no idle lanes
// (compiler/width.c), where a larger group of the same kernel gets the
// preferred width. Checked in LANES_DUMP=time's line for the launcher.
// RUN: global 64, local 1, W = the policy's
kernel void k(global int *out, global const int *in)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * 3 + (int)get_max_sub_group_size();
}
// CHECK: lanes: kernel k, width 1, group 1 x 1 x 1:
// CHECK-NOT: width {{8|16|32}}
