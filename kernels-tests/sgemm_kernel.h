/* SPDX-License-Identifier: MIT */
/*
 * An SGEMM written the way GPU libraries write it for Intel's sub-groups,
 * shared by kernels-tests/test_sgemm.c (correctness) and bench/sgemm.c
 * (speed): C = A B, row-major, A M x K, B K x N, C M x N.
 *
 * A sub-group of SG lanes computes a tile of TM rows x TN * SG columns:
 * lane l holds columns col0 + l + n * SG of rows row0 .. row0 + TM - 1 in
 * acc[TM][TN]. Each step of SG values of k: the tile's TM rows of A come
 * in with one block read each (lane l holds A[row][k + l]); then for each
 * of the SG values of k, TN block reads of B's row and, for each row r,
 * A[row r][k + j] broadcast from lane j with intel_sub_group_shuffle into
 * TN fmas. A work-group is ROWS sub-groups stacked in y
 * (reqd_work_group_size(SG, ROWS, 1)), with intel_reqd_sub_group_size(SG)
 * unless REQD is 0 (a test forcing another width). Work-groups run in bands
 * of Q row blocks: a band walks the columns, each strip of B serving the
 * band's row blocks while it is in cache. Tiles that cross the matrix's
 * border, and the last K % SG values of k, go element by element.
 *
 * Build options: -DSG=<lanes> [-DTM= (6) -DTN= (4) -DQ= (8) -DREQD=0]. With
 * AVX-512, 6 x 4 keeps 24 accumulators and 4 values of B in the 32 vector
 * registers (A's values come from memory as broadcasts).
 *
 * -DHALF=1 makes A and B half (cl_khr_fp16; block reads of ushort, as
 * inference kernels for Intel GPUs read them), the products and sums and C
 * still float; -DHALF=2 makes everything half, each step a half mad (one
 * rounding to half). bench/half.c times both beside the float one.
 */
#ifndef LANES_KERNELS_TESTS_SGEMM_KERNEL_H
#define LANES_KERNELS_TESTS_SGEMM_KERNEL_H

/* Sub-groups of a work-group, stacked in y. */
#define SGEMM_ROWS 4

static const char sgemm_source[] =
    "#ifndef TM\n"
    "#define TM 6\n"
    "#endif\n"
    "#ifndef TN\n"
    "#define TN 4\n"
    "#endif\n"
    "#ifndef Q\n"
    "#define Q 8\n"
    "#endif\n"
    "#ifndef REQD\n"
    "#define REQD 1\n"
    "#endif\n"
    "#ifndef HALF\n"
    "#define HALF 0\n"
    "#endif\n"
    "#define ROWS 4\n"
    "#if HALF\n"
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "typedef half T;\n"
    "#define BLOCK_READ(p) as_half(intel_sub_group_block_read_us((const global ushort *)(p)))\n"
    "#else\n"
    "typedef float T;\n"
    "#define BLOCK_READ(p) as_float(intel_sub_group_block_read((const global uint *)(p)))\n"
    "#endif\n"
    "#if HALF == 2\n"
    "typedef half ACC;\n"
    "#define MAC(a, b, c) mad(a, b, c)\n"
    "#define BLOCK_WRITE(p, v) intel_sub_group_block_write_us((global ushort *)(p), as_ushort(v))\n"
    "#else\n"
    "typedef float ACC;\n"
    "#define MAC(a, b, c) fma((float)(a), (float)(b), c)\n"
    "#define BLOCK_WRITE(p, v) intel_sub_group_block_write((global uint *)(p), as_uint(v))\n"
    "#endif\n"
    "#if REQD\n"
    "__attribute__((intel_reqd_sub_group_size(SG)))\n"
    "#endif\n"
    "__attribute__((reqd_work_group_size(SG, ROWS, 1)))\n"
    "kernel void sgemm(global const T *A, global const T *B, global ACC *C,\n"
    "                  int M, int N, int K)\n"
    "{\n"
    "    const int lane = get_sub_group_local_id();\n"
    "    const int groups_x = get_num_groups(0), groups_y = get_num_groups(1);\n"
    "    const int g = get_group_id(1) * groups_x + get_group_id(0);\n"
    "    const int band = g / (Q * groups_x), in_band = g % (Q * groups_x);\n"
    "    const int q = min(Q, groups_y - band * Q);\n"
    "    const int col0 = (in_band / q) * (SG * TN);\n"
    "    const int row0 = ((band * Q + in_band % q) * ROWS + get_local_id(1)) * TM;\n"
    "    ACC acc[TM][TN];\n"
    "    for (int r = 0; r < TM; r++)\n"
    "        for (int n = 0; n < TN; n++)\n"
    "            acc[r][n] = 0;\n"
    "    const bool inside = row0 + TM <= M && col0 + TN * SG <= N;\n"
    "    int k = 0;\n"
    "    if (inside) {\n"
    "        for (; k + SG <= K; k += SG) {\n"
    "            T a[TM];\n"
    "            for (int r = 0; r < TM; r++)\n"
    "                a[r] = BLOCK_READ(A + (size_t)(row0 + r) * K + k);\n"
    "            for (int j = 0; j < SG; j++) {\n"
    "                T b[TN];\n"
    "                for (int n = 0; n < TN; n++)\n"
    "                    b[n] = BLOCK_READ(B + (size_t)(k + j) * N + col0 + n * SG);\n"
    "                for (int r = 0; r < TM; r++) {\n"
    "                    T ar = intel_sub_group_shuffle(a[r], j);\n"
    "                    for (int n = 0; n < TN; n++)\n"
    "                        acc[r][n] = MAC(ar, b[n], acc[r][n]);\n"
    "                }\n"
    "            }\n"
    "        }\n"
    "    }\n"
    "    for (; k < K; k++)\n"
    "        for (int n = 0; n < TN; n++) {\n"
    "            int col = col0 + n * SG + lane;\n"
    "            T b = col < N ? B[(size_t)k * N + col] : (T)0;\n"
    "            for (int r = 0; r < TM; r++)\n"
    "                if (row0 + r < M)\n"
    "                    acc[r][n] = MAC(A[(size_t)(row0 + r) * K + k], b, acc[r][n]);\n"
    "        }\n"
    "    if (inside) {\n"
    "        for (int r = 0; r < TM; r++)\n"
    "            for (int n = 0; n < TN; n++)\n"
    "                BLOCK_WRITE(C + (size_t)(row0 + r) * N + col0 + n * SG, acc[r][n]);\n"
    "    } else {\n"
    "        for (int r = 0; r < TM; r++)\n"
    "            for (int n = 0; n < TN; n++) {\n"
    "                int col = col0 + n * SG + lane;\n"
    "                if (row0 + r < M && col < N)\n"
    "                    C[(size_t)(row0 + r) * N + col] = acc[r][n];\n"
    "            }\n"
    "    }\n"
    "}\n";

/* The NDRange of an M x N product with tiles of TM x TN * SG: global[2], local[2]. */
static inline void sgemm_range(int m, int n, unsigned sg, unsigned tm, unsigned tn,
                               size_t global[2], size_t local[2])
{
    local[0] = sg;
    local[1] = SGEMM_ROWS;
    global[0] = (size_t)((n + (int)(sg * tn) - 1) / (int)(sg * tn)) * sg;
    global[1] = (size_t)((m + (int)(tm * SGEMM_ROWS) - 1) / (int)(tm * SGEMM_ROWS)) * SGEMM_ROWS;
}

#endif
