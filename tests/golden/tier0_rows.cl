// Tier 0 of a 2-D kernel whose rows are a multiple of W: each sub-group
// lies in one row and is full, as in the shape's own launcher, so the
// launcher walks z, y and x (x by W steps, the bounds read at run time) and
// a kernel indexing by its ids in x loads and stores whole vectors: no
// gathers, scatters or masks, no local id divided out of the linear one.
// RUN: global 64x4, local 16x2, W = 16 (LANES_TIER=0)
kernel void k(global float *out, global const float *a, int ld)
{
    int x = get_global_id(0), y = get_global_id(1);
    int i = y * ld + x;
    out[i] = 2.0f * a[i];
}
// CHECK: define void @lanes.code.
// CHECK: getelementptr inbounds i8, ptr %1, i64 24
// CHECK-NOT: {{gather|scatter|masked|udiv|urem}}
// CHECK: load <16 x float>
// CHECK-NOT: {{gather|scatter|masked|udiv|urem}}
// CHECK: store <16 x float>
// CHECK-NOT: {{gather|scatter|masked|udiv|urem}}
// CHECK: {{^}}}
