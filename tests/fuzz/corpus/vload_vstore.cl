// Unaligned vector loads and stores, half conversions and swizzles.
__kernel void transpose4(__global const float *in, __global float *out, uint stride)
{
    size_t i = get_global_id(0);
    float4 a = vload4(i, in);
    float4 b = vload4(i, in + stride);
    float8 ab = (float8)(a.xz, b.yw, a.wzyx);
    vstore8(ab, i, out);
    vstore_half4_rte(a * 0.5f, i, (__global half *)(out + 8 * get_global_size(0)));
}

__kernel void halves(__global const half *h, __global float2 *out)
{
    size_t i = get_global_id(0);
    float2 f = vload_half2(i, h);
    out[i] = f.yx + (float2)(vload_half(i * 2 + 1, h), 1.0f);
    int3 k = convert_int3_sat_rte(vload3(i, (__global const float *)out) * 1e6f);
    out[i].x += (float)(k.x + k.y - k.z);
}
