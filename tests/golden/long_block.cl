// A hash's rounds unrolled into one basic block of about 2,400
// instructions: the code generator gets it in blocks of at most 1,000
// (compiler/launcher.c, LONGEST_BLOCK), each branching to the next, since
// its instruction schedulers take time quadratic in a block's length.
// RUN: global 64, local 16, W = 16
kernel void k(global uint *out)
{
    size_t i = get_global_id(0);
    uint y = out[i];
#pragma unroll
    for (uint s = 0; s < 600; s++) {
        y = y * (2654435761u + 2 * s) + s;
        y ^= y >> (s % 13 + 3);
    }
    out[i] = y;
}
// CHECK: ; lanes: kernel k optimized
// CHECK: lanes.split:
// CHECK: lanes.split{{[0-9]+}}:
