// Kernels built from helper functions, constants and a kernel calling another.
#define TILE 8
__constant float weights[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

inline int clamp_index(int i, int n)
{
    return clamp(i, 0, n - 1);
}

float blur_at(__global const float *row, int i, int n)
{
    float s = 0.0f;
    for (int k = -2; k <= 2; k++)
        s += weights[k + 2] * row[clamp_index(i + k, n)];
    return s;
}

__kernel void blur_rows(__global const float *img, __global float *out, int width)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    out[y * width + x] = blur_at(img + y * width, x, width);
}

__kernel void blur_twice(__global const float *img, __global float *tmp, __global float *out,
                         int width)
{
    blur_rows(img, tmp, width);
    barrier(CLK_GLOBAL_MEM_FENCE);
    blur_rows(tmp, out, width);
}

uint hash(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

__kernel void noise(__global uint *out, uint seed)
{
    uint h = seed;
    for (int i = 0; i < TILE; i++)
        h = hash(h + (uint)get_global_id(0) * TILE + i);
    out[get_global_id(0)] = h;
}
