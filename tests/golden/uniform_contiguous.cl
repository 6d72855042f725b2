// A uniform load stays one scalar load; a contiguous one is one vector load.
// RUN: global 64, local 16, W = 16
kernel void k(global float *out, global const float *a, global const float *scale)
{
    size_t i = get_global_id(0);
    out[i] = a[i] * scale[0];
}
// CHECK: ; lanes shapes: k.sg at width 16
// CHECK-NOT: (linearized)
// CHECK-DAG: uniform: %{{.*}} = load float, ptr addrspace(1) %2
// CHECK-DAG: contiguous(4): %{{.*}} = getelementptr inbounds float, ptr addrspace(1) %1
// CHECK-DAG: varying: %{{.*}} = load float, ptr addrspace(1) %{{.*}}
// CHECK: ; lanes vectorized at width 16
// CHECK-DAG: load float, ptr addrspace(1) %2
// CHECK-DAG: load <16 x float>, ptr addrspace(1) %{{.*}}
// CHECK-DAG: store <16 x float> %{{.*}}, ptr addrspace(1) %{{.*}}
// CHECK-NOT: gather
