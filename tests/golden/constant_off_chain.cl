// A chain of dependent additions with a constant in each step, as in a
// hash's rounds (a = b + rotate(a + K + f(b, c, d), s)), on a work-item's
// uint16 at width 1 (a work-group of one work-item, as hashcat launches
// on CPUs). LLVM 19's DAG combiner would move each `+ K` after `+ f`,
// onto the chain (compiler/workarounds.c, constant_off_chain): the
// constants go through an empty inline asm in the entry block instead.
// RUN: global 64, local 1, W = the policy's (1)
kernel void k(global uint16 *out, global const uint16 *in)
{
    size_t i = get_global_id(0);
    uint16 a = in[i], b = a ^ (uint16)0x12345678, c = a + (uint16)7, d = a - (uint16)3;
    for (int r = 0; r < 64; r++) {
        uint16 t = a + (uint16)0xd76aa478 + ((b & c) | (~b & d));
        a = d;
        d = c;
        c = b;
        b = b + rotate(t, (uint16)7);
    }
    out[i] = a + b + c + d;
}
// CHECK: lanes: kernel k optimized
// CHECK: asm "", "=v,0"(<16 x i32> <i32 -680876936
