// A loop that lanes leave at different iterations (Mandelbrot's): its
// counter is the same in every lane while it runs, but the value of the
// rotated loop's exit test, computed from it in a region, is not. The
// branch on it must join the region rather than stay a branch on a vector,
// which the verifier rejected (the kernel then ran at width 1).
// RUN: global 64, local 16, W = 16
kernel void k(global int *out, int width, float x0, float y0, float dx, float dy, int max_iter)
{
    int px = get_global_id(0), py = get_global_id(1);
    float cr = x0 + (float)px * dx, ci = y0 + (float)py * dy;
    float zr = 0.0f, zi = 0.0f;
    int n = 0;
    while (n < max_iter) {
        float zr2 = zr * zr, zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
            break;
        float t = zr2 - zi2 + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        n++;
    }
    out[py * width + px] = n;
}
// CHECK: ; lanes shapes: k.sg at width 16 (linearized)
// CHECK: ; lanes vectorized at width 16
// CHECK: call i1 @llvm.vector.reduce.or.v16i1(
// CHECK: store <16 x i32>
