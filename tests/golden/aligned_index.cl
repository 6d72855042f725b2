// clpeak's global bandwidth kernel: `int id` is the group's offset plus the
// local id, widened to index the buffer. Lane 0's local id is a multiple of
// W (the launcher walks sub-groups W at a time) and the offset of 16 * 256,
// so the 32-bit index cannot wrap inside a sub-group and its widening stays
// contiguous: vector loads, not gathers (every lane gathered before: 4.2
// GB/s against 22.6 after). Its 16 loads pace the chain of adds, so it runs
// one sub-group a vector (compiler/interleave.c): interleaved, clpeak's
// float4-16 versions ran at a third of the speed.
// RUN: global 4096, local 256, W = 16
#define FETCH_PER_WI 16
kernel void k(global float *A, global float *B)
{
    int id = (get_group_id(0) * get_local_size(0) * FETCH_PER_WI) + get_local_id(0);
    float sum = 0;
    for (int i = 0; i < FETCH_PER_WI; i++) {
        sum += A[id];
        id += get_local_size(0);
    }
    B[get_global_id(0)] = sum;
}
// CHECK: ; lanes shapes: k.sg at width 16
// CHECK: contiguous(1): %idxprom = sext i32 %{{.*}} to i64
// CHECK: contiguous(1): %idxprom.15 = sext i32 %{{.*}} to i64
// CHECK: ; lanes vectorized at width 16
// CHECK-NOT: gather
// CHECK: load <16 x float>
// CHECK-NOT: gather
