// clpeak's float16 global bandwidth kernel: its work is on float16 values
// and its 16 loads pace it. A work-item's float16 is one AVX-512 register
// already; at width W each would be W of them, transposed after every load
// and before every store (8.5-11 GB/s at W = 16, against 30-46 a work-item
// at a time; PoCL 29). The policy's width (LANES_WIDTH unset) gives way to
// width 1, through the vectorizer's road for kernels it does not take.
// RUN: global 4096, local 256, W = the policy's
#define FETCH_4(sum, id, A, jumpBy) \
    sum += A[id]; id += jumpBy; sum += A[id]; id += jumpBy; \
    sum += A[id]; id += jumpBy; sum += A[id]; id += jumpBy;
#define FETCH_PER_WI 16
kernel void bandwidth16(global float16 *A, global float *B)
{
    int id = (get_group_id(0) * get_local_size(0) * FETCH_PER_WI) + get_local_id(0);
    float16 sum = 0;
    for (int i = 0; i < 4; i++) {
        FETCH_4(sum, id, A, get_local_size(0));
    }
    float t = (sum.S0) + (sum.S1) + (sum.S2) + (sum.S3) + (sum.S4) + (sum.S5) + (sum.S6) + (sum.S7);
    t += (sum.S8) + (sum.S9) + (sum.SA) + (sum.SB) + (sum.SC) + (sum.SD) + (sum.SE) + (sum.SF);
    B[get_global_id(0)] = t;
}
// CHECK: lanes: kernel bandwidth16, width 1, group 256 x 1 x 1: specialized
// CHECK-NOT: lanes: kernel bandwidth16, width {{[1-9][0-9]+}}, group 256
