// A 2D five-point stencil on ints and chars, with vector types and select.
__kernel void stencil(__global const short *src, __global short *dst, int w, int h)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x <= 0 || y <= 0 || x >= w - 1 || y >= h - 1)
        return;
    int c = src[y * w + x];
    int s = src[(y - 1) * w + x] + src[(y + 1) * w + x] + src[y * w + x - 1] + src[y * w + x + 1];
    dst[y * w + x] = convert_short_sat(4 * c - s);
}

__kernel void threshold(__global const uchar4 *px, __global uchar4 *out, uchar level)
{
    uchar4 p = px[get_global_id(0)];
    char4 mask = convert_char4(p > (uchar4)(level));
    out[get_global_id(0)] = select((uchar4)(0), (uchar4)(255), mask) | rotate(p, (uchar4)(1));
    out[get_global_id(0)].w = max(p.w, (uchar)(popcount(p.x) + clz(p.y)));
}
