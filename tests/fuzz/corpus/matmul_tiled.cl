// Tiled matrix product, 2D work-groups fixed by reqd_work_group_size.
#define T 16
__attribute__((reqd_work_group_size(T, T, 1)))
__kernel void matmul(__global const float *A, __global const float *B, __global float *C,
                     int M, int N, int K)
{
    __local float As[T][T];
    __local float Bs[T][T + 1];
    int col = (int)get_global_id(0), row = (int)get_global_id(1);
    int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    float acc = 0.0f;
    for (int t = 0; t < (K + T - 1) / T; t++) {
        int ka = t * T + lx, kb = t * T + ly;
        As[ly][lx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[ly][lx] = (col < N && kb < K) ? B[kb * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll 4
        for (int k = 0; k < T; k++)
            acc = fma(As[ly][k], Bs[k][lx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
