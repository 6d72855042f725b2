/* SPDX-License-Identifier: MIT */
/*
 * Kernels that test_spirv.c runs twice, built as OpenCL C and as the
 * SPIR-V that clang-15 and llvm-spirv-15 make of this file at build time:
 * the results must be the same bits.
 */
kernel void vadd(global const float *a, global const float *b, global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

/* A sub-group reduction and a shuffle from the next lane (wrapping around). */
kernel void sg(global const int *a, global int *out)
{
    size_t i = get_global_id(0);
    int v = a[i];
    int s = sub_group_reduce_add(v);
    uint next = (get_sub_group_local_id() + 1) % get_sub_group_size();
    int sh = sub_group_shuffle(v, next);
    out[i] = s * 1000 + sh;
}

/* Local memory across a barrier: each work-item reads its mirror's value. */
kernel void mirror(global const float *a, global float *out, local float *tmp)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    tmp[l] = a[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[n - 1 - l] * 2.0f + (float)l;
}

/*
 * Built-ins taking pointers, whose names the translator mangles with
 * address space numbers: vload4 from global memory, atomic_inc on local.
 */
kernel void pointers(global const float *a, global float *out)
{
    local int count;
    size_t i = get_global_id(0);
    if (get_local_id(0) == 0)
        count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&count);
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 v = vload4(i / 4, a);
    out[i] = v.x + v.y * 2.0f + v.z * 3.0f + v.w * 4.0f + (float)count;
}
