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
 *     vectorizer knew that lane 0 is a multiple of W;
 *   - progressions clamped to uniform bounds (a stencil's neighbours at the
 *     edges, signed and unsigned, 32 and 64 bits, negative and larger
 *     strides, float4 rows, under a divergent branch, bounds that bite in
 *     the middle of a sub-group): a vector load where no bound bites, else
 *     the gather (compiler/vectorize/vz_memory.c).
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
    "}\n"
    "kernel void clamped(global const float *a, global const float4 *a4, global float *out,\n"
    "                    int n, int m) {\n"
    "    int i = get_global_id(0);\n"
    "    float s = a[clamp(i - 1, 0, n - 1)] + 2.0f * a[i] + 4.0f * a[clamp(i + 1, 0, n - 1)];\n"
    "    s += 8.0f * a[clamp(n - 1 - i, 0, m)];\n"
    "    s += 16.0f * a[clamp(2 * i - 3, 0, 2 * n - 1)];\n"
    "    s += 32.0f * a[min((uint)i + 5u, (uint)m)];\n"
    "    s += 64.0f * a[clamp((long)get_global_id(0) - 2, 5L, (long)m)];\n"
    "    float4 v = a4[clamp(i - 1, 0, n / 4 - 1)];\n"
    "    s += 128.0f * (v.x + v.y + v.z + v.w);\n"
    "    if (a[i] > 500.0f)\n"
    "        s += 256.0f * a[clamp(i + 3, 0, m)];\n"
    "    int k = (int)((uint)i + 0x7FFFFFF8u);\n"
    "    s += 512.0f * a[max(k, 0x7FFFFFF0) - 0x7FFFFFF0];\n"
    "    out[i] = s;\n"
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

static int clampi(long x, long lo, long hi)
{
    return (int)(x < lo ? lo : x > hi ? hi : x);
}

/* The kernel `clamped` with bounds n (the size) and m (a bound inside it). */
static void run_clamped(cl_program p, size_t local, int m)
{
    static float a[2 * N], out[N];
    for (size_t i = 0; i < 2 * N; i++)
        a[i] = (float)((i * 37) % 1000);
    int n = N;
    struct kt_arg args[] = {{a, sizeof a, false},
                            {a, sizeof a, false},
                            {out, sizeof out, false},
                            {&n, sizeof n, true},
                            {&m, sizeof m, true}};
    KT_CHECK_CL(kt_run_local(p, "clamped", N, &local, args, 5));
    for (int i = 0; i < N; i++) {
        float s = a[clampi(i - 1, 0, n - 1)] + 2.0f * a[i] + 4.0f * a[clampi(i + 1, 0, n - 1)];
        s += 8.0f * a[clampi(n - 1 - i, 0, m)];
        s += 16.0f * a[clampi(2L * i - 3, 0, 2L * n - 1)];
        s += 32.0f * a[(uint32_t)i + 5u < (uint32_t)m ? (uint32_t)i + 5u : (uint32_t)m];
        s += 64.0f * a[clampi(i - 2L, 5, m)];
        const float *v = a + 4 * clampi(i - 1, 0, n / 4 - 1);
        s += 128.0f * (v[0] + v[1] + v[2] + v[3]);
        if (a[i] > 500.0f)
            s += 256.0f * a[clampi(i + 3, 0, m)];
        int32_t k = (int32_t)((uint32_t)i + 0x7FFFFFF8u);
        s += 512.0f * a[(k > 0x7FFFFFF0 ? k : 0x7FFFFFF0) - 0x7FFFFFF0];
        if (out[i] != s) {
            KT_FAIL("clamped (m = %d), local size %zu: work-item %d computed %g, expected %g", m,
                    local, i, out[i], s);
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
    for (size_t l = 0; l < sizeof locals / sizeof *locals; l++) {
        run_clamped(p, locals[l], N - 1);
        run_clamped(p, locals[l], 301); /* bites inside sub-groups */
    }
    clReleaseProgram(p);
    return kt_teardown();
}
