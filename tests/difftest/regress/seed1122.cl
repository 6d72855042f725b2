// Regression (difftest --seed 1122, reduced by hand): a uniform load in a
// divergent branch, guarded by "some lane active", gave poison when no lane
// was; cos() of it (a noundef parameter) made that path UB, so LLVM assumed
// some lane active and stored unconditionally (W = 8, a sub-group of 1 lane).
// Run: difftest --seed 1122 --count 1 --widths 8 --kernel seed1122.cl
// difftest seed 1122, fails at width 8
// 1D global 3 local 1
// depth 3, block 5, expr 3, features: if switch loops return arrays division float math int-builtins select vectors atomics gather 2d
#pragma OPENCL FP_CONTRACT OFF
#define NIN 1024
#define SLOTS (3 + 2)
#define GA 4
#define GO 2
#define IX(e) ((uint)(e) & (NIN - 1u))
#define IXP(e) ((uint)(e) & 7u)
#define ADD(a, b) ((int)((uint)(a) + (uint)(b)))
#define SUB(a, b) ((int)((uint)(a) - (uint)(b)))
#define MUL(a, b) ((int)((uint)(a) * (uint)(b)))
#define SHL(a, b) ((int)((uint)(a) << ((uint)(b) & 31u)))
#define DIV(a, b) ((a) / ((b) ^ zero))
#define REM(a, b) ((a) % ((b) ^ zero))
__kernel void k1122(__global const int *ia, __global const uint *ub,
    __global const float *fc, __global int *oi, __global uint *ou,
    __global float *of, __global int *og, __global int *grp, int zero)
{
    const int gid = (int)(get_global_id(1) * get_global_size(0) + get_global_id(0));
    const int lid = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
    const int lsize = (int)(get_local_size(0) * get_local_size(1));
    const int grpid = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0));
    int i0 = ia[gid], i1 = ia[IX(gid + 7)], i2 = lid;
    uint u0 = ub[gid], u1 = ub[IX(gid * 3)], u2 = (uint)grpid;
    float f0 = fc[gid], f1 = fc[IX(gid + 1)], f2 = (float)lid * 0.5f;
    int pa[8];
    for (int k = 0; k < 8; k++)
        pa[k] = ia[IX(gid * 8 + k)];
    i1 ^= atomic_max(&grp[grpid * GA + 0], (i2 || mad_sat(ADD(89, pa[IXP(i1)]), SHL(i2, i2), (int)563u)));
    if (i1) {
    } else {
        switch ((SHL(DIV((i2 & 7), -1), SHL((pa[IXP(i1)] || pa[IXP(i1)]), (int)(uint)get_local_id(1)))) & 3) {
        case 0: {
            of[gid * SLOTS + 4] = (cos(fc[IX(gid)]) / fmax(fmax(20.609f, f1), (0.5f / f2)));
        } break;
        }
    }
}
