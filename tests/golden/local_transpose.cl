// A tiled transpose with int indices from get_local_id and get_group_id:
// (int)get_local_id(0) keeps its no-wrap flags, so the row load, the store
// into the tile and the column store stay vector accesses; only the read
// across the tile (a stride of 17 floats) is a gather.
// RUN: global 64,64, local 16,16, W = 16
kernel void k(global float *out, global const float *in, int side)
{
    local float tile[16][17];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_group_id(0) * 16, gy = get_group_id(1) * 16;
    tile[ly][lx] = in[(gy + ly) * side + gx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(gx + ly) * side + gy + lx] = tile[lx][ly];
}
// CHECK: ; lanes shapes: k.sg at width 16
// CHECK-DAG: contiguous(4): %{{.*}} = getelementptr inbounds float, ptr addrspace(1) %1
// CHECK-DAG: contiguous(4): %{{.*}} = getelementptr inbounds [16 x [17 x float]]
// CHECK-DAG: contiguous(68): %{{.*}} = getelementptr inbounds [16 x [17 x float]]
// CHECK-DAG: contiguous(4): %{{.*}} = getelementptr inbounds float, ptr addrspace(1) %0
// CHECK: ; lanes vectorized at width 16
// CHECK-DAG: load <16 x float>, ptr addrspace(1)
// CHECK-DAG: store <16 x float> %{{.*}}, ptr addrspace(3)
// CHECK-DAG: call <16 x float> @llvm.masked.gather.v16f32.v16p3
// CHECK-DAG: store <16 x float> %{{.*}}, ptr addrspace(1)
// CHECK-NOT: scatter
