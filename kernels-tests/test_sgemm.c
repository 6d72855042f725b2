/* SPDX-License-Identifier: MIT */
/*
 * The SGEMM of sgemm_kernel.h (Intel's sub-groups: block reads of A and B,
 * A broadcast with intel_sub_group_shuffle, intel_reqd_sub_group_size and
 * reqd_work_group_size(SG, 4, 1)) against a host SGEMM, at sizes that are
 * and are not multiples of its tiles (the element-by-element edges) and
 * with two tile shapes, for every sub-group size the device offers
 * (CL_DEVICE_SUB_GROUP_SIZES_INTEL). The inputs are multiples of 1/8 below
 * 1 in magnitude, so every sum is exact in float: the result must equal
 * the reference bit for bit. Under LANES_WIDTH the kernel is built for that
 * width instead, without intel_reqd_sub_group_size.
 */
#include "kernels.h"
#include "sgemm_kernel.h"

#include <CL/cl_ext.h>

static const int sizes[][3] = {{1, 1, 1},      {37, 75, 29},   {64, 64, 64},
                               {100, 130, 70}, {129, 257, 47}, {16, 256, 32}};
static const unsigned tiles[][2] = {{6, 4}, {8, 2}};

static float input(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return (float)((int)((*seed >> 16) % 17) - 8) / 8.0f;
}

static void check(unsigned sg, bool reqd, unsigned tm, unsigned tn, const int *size)
{
    int m = size[0], n = size[1], k = size[2];
    float *a = malloc((size_t)m * k * sizeof(float)), *b = malloc((size_t)k * n * sizeof(float));
    float *c = malloc((size_t)m * n * sizeof(float));
    unsigned seed = (unsigned)(m * 7 + n * 13 + k);
    for (int i = 0; i < m * k; i++)
        a[i] = input(&seed);
    for (int i = 0; i < k * n; i++)
        b[i] = input(&seed);
    for (int i = 0; i < m * n; i++)
        c[i] = -12345.0f;
    char *options =
        kt_format("-cl-std=CL3.0 -DSG=%u -DTM=%u -DTN=%u -DREQD=%d", sg, tm, tn, reqd ? 1 : 0);
    cl_program p = kt_build(sgemm_source, options);
    if (reqd) {
        cl_kernel kernel = clCreateKernel(p, "sgemm", NULL);
        size_t compiled = 0;
        KT_CHECK_CL(clGetKernelSubGroupInfo(kernel, kt.dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL,
                                            0, NULL, sizeof compiled, &compiled, NULL));
        if (compiled != sg)
            KT_FAIL("sg %u: CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL is %zu", sg, compiled);
        clReleaseKernel(kernel);
    }
    size_t global[2], local[2];
    sgemm_range(m, n, sg, tm, tn, global, local);
    struct kt_arg args[] = {
        {a, (size_t)m * k * sizeof(float), false},
        {b, (size_t)k * n * sizeof(float), false},
        {c, (size_t)m * n * sizeof(float), false},
        {&m, sizeof m, true},
        {&n, sizeof n, true},
        {&k, sizeof k, true},
    };
    cl_int err = kt_run_nd(p, "sgemm", 2, global, local, args, 6);
    if (err != CL_SUCCESS)
        KT_FAIL("%s, %dx%dx%d: launch error %d", options, m, n, k, err);
    int bad = 0;
    for (int r = 0; r < m && err == CL_SUCCESS; r++)
        for (int col = 0; col < n; col++) {
            float want = 0.0f;
            for (int i = 0; i < k; i++)
                want += a[(size_t)r * k + i] * b[(size_t)i * n + col];
            float got = c[(size_t)r * n + col];
            if (got != want && bad++ < 3)
                KT_FAIL("%s, %dx%dx%d: C[%d][%d] = %g, want %g", options, m, n, k, r, col, got,
                        want);
        }
    clReleaseProgram(p);
    free(options);
    free(a), free(b), free(c);
}

int main(void)
{
    kt_setup();
    size_t offered[8];
    size_t bytes = 0;
    KT_CHECK_CL(
        clGetDeviceInfo(kt.dev, CL_DEVICE_SUB_GROUP_SIZES_INTEL, sizeof offered, offered, &bytes));
    const char *forced = getenv("LANES_WIDTH");
    unsigned list[8], count = 0;
    bool reqd = !(forced && atoi(forced) > 0);
    if (reqd)
        for (size_t i = 0; i < bytes / sizeof(size_t); i++)
            list[count++] = (unsigned)offered[i];
    else
        list[count++] = (unsigned)atoi(forced); /* the width forced on every kernel */
    for (unsigned s = 0; s < count; s++)
        for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++)
            for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
                check(list[s], reqd, tiles[t][0], tiles[t][1], sizes[z]);
    printf("sgemm: %u sub-group size%s x %zu tiles x %zu sizes%s\n", count, count > 1 ? "s" : "",
           sizeof tiles / sizeof *tiles, sizeof sizes / sizeof *sizes,
           reqd ? "" : " (LANES_WIDTH forced)");
    return kt_teardown();
}
