// to_global, to_local, to_private and get_fence fold at compile time when
// the pointer's origin shows: a __global argument, a __local variable, a
// private array, through a helper taking generic pointers and a select of
// two private ones (compiler/generic.c). No test of the address is left:
// wg's region fields (offsets 192 to 216) are never read.
// RUN: global 64, local 16, W = 16
int classify(int *p)
{
    return (to_global(p) != 0) | (to_local(p) != 0) << 1 | (to_private(p) != 0) << 2 |
           get_fence(p) << 4;
}

kernel void k(global int *out)
{
    local int l[16];
    int p[4], q[4];
    size_t i = get_global_id(0);
    l[i & 15] = 1;
    p[i & 3] = 2;
    q[i & 3] = 3;
    int *s = (i & 1) ? p : q;
    out[i] = classify(&out[i]) | classify(&l[i & 15]) << 8 | classify(&p[i & 3]) << 16 |
             classify(s) << 24;
    out[i + 64] = get_fence(&out[i]) | get_fence(&l[i & 15]) << 4 | get_fence(s) << 8;
}
// CHECK: ; lanes: kernel k optimized
// CHECK-LABEL: define void @lanes.code.
// CHECK-NOT: getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 {{192|200|208|216}}{{$}}
// CHECK: store <16 x i32> <i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530, i32 530>
// CHECK-NOT: getelementptr inbounds i8, ptr %{{[0-9]+}}, i64 {{192|200|208|216}}{{$}}
// CHECK: ret void
