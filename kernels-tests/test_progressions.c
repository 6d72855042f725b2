/* SPDX-License-Identifier: MIT */
/*
 * Indices the vectorizer takes as progressions (lane i holds base + i *
 * stride: one vector load instead of a gather), checked against the host
 * where such a progression could wrap or lose its stride:
 *   - a stride too large for a shape to keep (a hash's multiplier times
 *     the id): varying, whatever its bits;
 *   - 32-bit ids that wrap past INT_MAX or UINT_MAX within a sub-group (an
 *     offset not a multiple of W) or only between sub-groups (a multiple of
 *     W: lane 0's low bits are known zero, so no lane wraps), widened
 *     signed and unsigned;
 *   - clpeak's global bandwidth kernel, `int id = group * size * 16 + lid`
 *     widened to index a buffer: a gather of every lane before the
 *     vectorizer knew that lane 0 is a multiple of W.
 * Local sizes of one sub-group, several, and a partial last one.
 */
#include "kernels.h"

#include <stdint.h>

static const char source[] =
    "kernel void hash(global ulong *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = i * 0x9E3779B97F4A7C15UL;\n"
    "}\n"
    "kernel void wrap_signed(global long *out, global long *aligned) {\n"
    "    size_t i = get_global_id(0);\n"
    "    uint a = (uint)i + 0x7FFFFF08u, b = (uint)i + 0x7FFFFF00u;\n"
    "    out[i] = (long)(int)a;\n"
    "    aligned[i] = (long)(int)b;\n"
    "}\n"
    "kernel void wrap_unsigned(global ulong *out, global ulong *aligned) {\n"
    "    size_t i = get_global_id(0);\n"
    "    uint a = (uint)i * 4u + 0xFFFFFF08u, b = (uint)i * 4u + 0xFFFFFF00u;\n"
    "    out[i] = (ulong)a;\n"
    "    aligned[i] = (ulong)b;\n"
    "}\n"
    "kernel void bandwidth(global const float *a, global float *out) {\n"
    "    int id = (get_group_id(0) * get_local_size(0) * 16) + get_local_id(0);\n"
    "    float sum = 0;\n"
    "    for (int i = 0; i < 16; i++) {\n"
    "        sum += a[id];\n"
    "        id += get_local_size(0);\n"
    "    }\n"
    "    out[get_global_id(0)] = sum;\n"
    "}\n";

enum { N = 640 };

static void check_u64(const char *what, size_t local, const uint64_t *got, const uint64_t *want)
{
    for (size_t i = 0; i < N; i++)
        if (got[i] != want[i]) {
            KT_FAIL("%s, local size %zu: work-item %zu holds %#llx, expected %#llx", what, local, i,
                    (unsigned long long)got[i], (unsigned long long)want[i]);
            return;
        }
}

static void run(cl_program p, size_t local)
{
    uint64_t got[N], got2[N], want[N], want2[N];
    struct kt_arg one[] = {{got, sizeof got, false}};
    KT_CHECK_CL(kt_run_local(p, "hash", N, &local, one, 1));
    for (size_t i = 0; i < N; i++)
        want[i] = (uint64_t)i * 0x9E3779B97F4A7C15u;
    check_u64("i * 0x9E3779B97F4A7C15", local, got, want);

    struct kt_arg two[] = {{got, sizeof got, false}, {got2, sizeof got2, false}};
    KT_CHECK_CL(kt_run_local(p, "wrap_signed", N, &local, two, 2));
    for (size_t i = 0; i < N; i++) {
        want[i] = (uint64_t)(int64_t)(int32_t)(uint32_t)(i + 0x7FFFFF08u);
        want2[i] = (uint64_t)(int64_t)(int32_t)(uint32_t)(i + 0x7FFFFF00u);
    }
    check_u64("(long)(int)(i + 0x7FFFFF08)", local, got, want);
    check_u64("(long)(int)(i + 0x7FFFFF00)", local, got2, want2);

    KT_CHECK_CL(kt_run_local(p, "wrap_unsigned", N, &local, two, 2));
    for (size_t i = 0; i < N; i++) {
        want[i] = (uint32_t)(i * 4u + 0xFFFFFF08u);
        want2[i] = (uint32_t)(i * 4u + 0xFFFFFF00u);
    }
    check_u64("(ulong)(i * 4 + 0xFFFFFF08)", local, got, want);
    check_u64("(ulong)(i * 4 + 0xFFFFFF00)", local, got2, want2);

    static float a[16 * N], out[N];
    for (size_t i = 0; i < 16 * N; i++)
        a[i] = (float)(i % 1000);
    struct kt_arg bw[] = {{a, sizeof a, false}, {out, sizeof out, false}};
    KT_CHECK_CL(kt_run_local(p, "bandwidth", N, &local, bw, 2));
    for (size_t g = 0; g < N / local; g++)
        for (size_t l = 0; l < local; l++) {
            float sum = 0;
            for (size_t i = 0; i < 16; i++)
                sum += a[g * local * 16 + l + i * local];
            if (out[g * local + l] != sum) {
                KT_FAIL("bandwidth, local size %zu: work-item %zu summed %g, expected %g", local,
                        g * local + l, out[g * local + l], sum);
                return;
            }
        }
}

int main(void)
{
    kt_setup();
    cl_program p = kt_build(source, "");
    static const size_t locals[] = {16, 64, 128, 40};
    for (size_t l = 0; l < sizeof locals / sizeof *locals; l++)
        run(p, locals[l]);
    clReleaseProgram(p);
    return kt_teardown();
}
