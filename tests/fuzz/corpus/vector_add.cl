// Element-wise sums of two arrays, with a bounds check for ragged ranges.
__kernel void vector_add(__global const float *a, __global const float *b, __global float *c,
                         uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}

__kernel void vector_axpy(float alpha, __global const float4 *x, __global float4 *y)
{
    size_t i = get_global_id(0);
    y[i] = mad((float4)(alpha), x[i], y[i]);
}
