/* SPDX-License-Identifier: MIT */
/*
 * Sub-group functions on the paths that leave a loop (docs/architecture.md,
 * Divergence): each runs with the lanes that reach it together in SIMT
 * order, in the iteration that takes the exit; code after the loop runs
 * with every lane that left it, whichever iteration it left in. The host
 * model runs each kernel's sub-groups in lock-step: an iteration with the
 * lanes still in the loop, a branch side with the lanes taking it. Work-
 * groups of 100 (a partial sub-group at every width) and of 40, in 1-D;
 * the sub-groups are the work-items of local ids k * M .. k * M + M - 1,
 * M as the kernel reports get_max_sub_group_size().
 */
#include "kernels.h"

#define GLOBAL 200

static const char *source =
    "uint data(uint g) { return (g * 2654435761u) >> 27; }\n"
    /* The review's case: lanes leaving in iteration 0 reduce apart from those of iteration 1. */
    "kernel void brk(global uint *out, global uint *w) {\n"
    "    uint gid = get_global_id(0), lid = get_sub_group_local_id();\n"
    "    uint v = data(gid);\n"
    "    for (uint i = 0u; i < 2u; i++) {\n"
    "        if (((lid + i) & 3u) == 3u) {\n"
    "            v += (uint)sub_group_non_uniform_reduce_min((int)(0xfffffffdu * (i * i)));\n"
    "            break;\n"
    "        }\n"
    "    }\n"
    "    out[gid] = v;\n"
    "    w[gid] = get_max_sub_group_size();\n"
    "}\n"
    /* A return from the loop, then a ballot after it over the lanes that did not return. */
    "kernel void ret(global uint *out, global uint *w) {\n"
    "    uint gid = get_global_id(0), lid = get_sub_group_local_id();\n"
    "    w[gid] = get_max_sub_group_size();\n"
    "    for (uint i = 0u; i < 4u; i++) {\n"
    "        if ((lid * 3u + i) % 5u == 0u) {\n"
    "            out[gid] = i * 100u + sub_group_ballot_bit_count(sub_group_ballot(1));\n"
    "            return;\n"
    "        }\n"
    "    }\n"
    "    out[gid] = 1000u + sub_group_non_uniform_reduce_add(1u);\n"
    "}\n"
    /* Leaving an inner loop, in each iteration of an outer one. */
    "kernel void nested(global uint *out, global uint *w) {\n"
    "    uint gid = get_global_id(0), lid = get_sub_group_local_id();\n"
    "    uint v = 0u;\n"
    "    for (uint j = 0u; j < 3u; j++)\n"
    "        for (uint i = 0u; i < 4u; i++)\n"
    "            if ((lid + i + 2u * j) % 5u == 0u) {\n"
    "                v += sub_group_non_uniform_scan_inclusive_add(1u) * (j + 1u) * (i + 7u);\n"
    "                break;\n"
    "            }\n"
    "    out[gid] = v;\n"
    "    w[gid] = get_max_sub_group_size();\n"
    "}\n"
    /* A branch on the exit path before its reduction. */
    "kernel void forked(global uint *out, global uint *w) {\n"
    "    uint gid = get_global_id(0), lid = get_sub_group_local_id();\n"
    "    uint v = lid * 13u;\n"
    "    for (uint i = 0u; i < 3u; i++) {\n"
    "        if (((lid >> 1) + i) % 3u == 0u) {\n"
    "            if (lid & 1u)\n"
    "                v += 7u;\n"
    "            else\n"
    "                v += 11u;\n"
    "            v += sub_group_non_uniform_reduce_add(v) + i;\n"
    "            break;\n"
    "        }\n"
    "    }\n"
    "    out[gid] = v;\n"
    "    w[gid] = get_max_sub_group_size();\n"
    "}\n"
    /* After a loop left in different iterations: every lane, together. */
    "kernel void after(global uint *out, global uint *w) {\n"
    "    uint gid = get_global_id(0), lid = get_sub_group_local_id();\n"
    "    uint v = 0u;\n"
    "    for (uint i = 0u; i < 8u; i++) {\n"
    "        if ((lid * 7u + i) % 6u == 0u)\n"
    "            break;\n"
    "        v += i + 1u;\n"
    "    }\n"
    "    out[gid] = sub_group_non_uniform_reduce_add(v) * 1000u + v;\n"
    "    w[gid] = get_max_sub_group_size();\n"
    "}\n"
    /* A path that continues: within the loop, in each iteration. */
    "kernel void cont(global uint *out, global uint *w) {\n"
    "    uint gid = get_global_id(0), lid = get_sub_group_local_id();\n"
    "    uint v = 0u;\n"
    "    for (uint i = 0u; i < 3u; i++) {\n"
    "        if ((lid + i) & 1u) {\n"
    "            v += sub_group_non_uniform_reduce_max(lid + i);\n"
    "            continue;\n"
    "        }\n"
    "        v += 1u;\n"
    "    }\n"
    "    out[gid] = v;\n"
    "    w[gid] = get_max_sub_group_size();\n"
    "}\n"
    /* Trip counts of each lane's own, a data-dependent exit, and elect on its path. */
    "kernel void elect(global uint *out, global uint *w) {\n"
    "    uint gid = get_global_id(0), lid = get_sub_group_local_id();\n"
    "    uint v = 0u, n = lid % 5u + 1u;\n"
    "    for (uint i = 0u; i < n; i++) {\n"
    "        if ((data(gid) + i) % 4u == 1u) {\n"
    "            v = 100u * (uint)sub_group_elect() + sub_group_non_uniform_reduce_add(1u) + i;\n"
    "            break;\n"
    "        }\n"
    "    }\n"
    "    out[gid] = v;\n"
    "    w[gid] = get_max_sub_group_size();\n"
    "}\n";

static uint32_t data(uint32_t g)
{
    return (g * 2654435761u) >> 27;
}

enum kernel { BRK, RET, NESTED, FORKED, AFTER, CONT, ELECT, NUM_KERNELS };
static const char *names[NUM_KERNELS] = {"brk",   "ret",  "nested", "forked",
                                         "after", "cont", "elect"};

/*
 * The host model of kernel `k` for the sub-group of `n` lanes whose first
 * work-item is `g0` (its lanes' local ids in the sub-group are 0..n-1).
 */
static void model(enum kernel k, uint32_t g0, unsigned n, uint32_t *out)
{
    bool active[64];
    uint32_t v[64];
    for (unsigned l = 0; l < n; l++) {
        active[l] = true;
        v[l] = 0;
    }
    switch (k) {
    case BRK:
        for (unsigned l = 0; l < n; l++)
            v[l] = data(g0 + l);
        for (uint32_t i = 0; i < 2; i++) {
            int32_t m = INT32_MAX;
            for (unsigned l = 0; l < n; l++)
                if (active[l] && ((l + i) & 3) == 3 && (int32_t)(0xfffffffdu * (i * i)) < m)
                    m = (int32_t)(0xfffffffdu * (i * i));
            for (unsigned l = 0; l < n; l++)
                if (active[l] && ((l + i) & 3) == 3) {
                    v[l] += (uint32_t)m;
                    active[l] = false;
                }
        }
        break;
    case RET:
        for (uint32_t i = 0; i < 4; i++) {
            uint32_t count = 0;
            for (unsigned l = 0; l < n; l++)
                count += active[l] && (l * 3 + i) % 5 == 0;
            for (unsigned l = 0; l < n; l++)
                if (active[l] && (l * 3 + i) % 5 == 0) {
                    v[l] = i * 100 + count;
                    active[l] = false;
                }
        }
        {
            uint32_t count = 0;
            for (unsigned l = 0; l < n; l++)
                count += active[l];
            for (unsigned l = 0; l < n; l++)
                if (active[l])
                    v[l] = 1000 + count;
        }
        break;
    case NESTED:
        for (uint32_t j = 0; j < 3; j++) {
            for (unsigned l = 0; l < n; l++)
                active[l] = true;
            for (uint32_t i = 0; i < 4; i++) {
                uint32_t scan = 0;
                for (unsigned l = 0; l < n; l++)
                    if (active[l] && (l + i + 2 * j) % 5 == 0) {
                        scan++;
                        v[l] += scan * (j + 1) * (i + 7);
                        active[l] = false;
                    }
            }
        }
        break;
    case FORKED:
        for (unsigned l = 0; l < n; l++)
            v[l] = l * 13;
        for (uint32_t i = 0; i < 3; i++) {
            bool take[64];
            uint32_t sum = 0;
            for (unsigned l = 0; l < n; l++) {
                take[l] = active[l] && ((l >> 1) + i) % 3 == 0;
                if (take[l])
                    v[l] += (l & 1) ? 7 : 11;
            }
            for (unsigned l = 0; l < n; l++)
                sum += take[l] ? v[l] : 0;
            for (unsigned l = 0; l < n; l++)
                if (take[l]) {
                    v[l] += sum + i;
                    active[l] = false;
                }
        }
        break;
    case AFTER: {
        for (unsigned l = 0; l < n; l++)
            for (uint32_t i = 0; i < 8 && (l * 7 + i) % 6 != 0; i++)
                v[l] += i + 1;
        uint32_t sum = 0;
        for (unsigned l = 0; l < n; l++)
            sum += v[l];
        for (unsigned l = 0; l < n; l++)
            v[l] += sum * 1000;
        break;
    }
    case CONT:
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t max = 0;
            for (unsigned l = 0; l < n; l++)
                if ((l + i) & 1)
                    max = l + i > max ? l + i : max;
            for (unsigned l = 0; l < n; l++)
                v[l] += (l + i) & 1 ? max : 1;
        }
        break;
    case ELECT:
        for (uint32_t i = 0; i < 5; i++) {
            bool take[64];
            uint32_t count = 0;
            int first = -1;
            for (unsigned l = 0; l < n; l++) {
                take[l] = active[l] && i < l % 5 + 1 && (data(g0 + l) + i) % 4 == 1;
                count += take[l];
                if (take[l] && first < 0)
                    first = (int)l;
            }
            for (unsigned l = 0; l < n; l++)
                if (take[l]) {
                    v[l] = 100u * ((int)l == first) + count + i;
                    active[l] = false;
                }
        }
        break;
    default: break;
    }
    for (unsigned l = 0; l < n; l++)
        out[l] = v[l];
}

static void check(cl_program p, enum kernel k, size_t local)
{
    uint32_t out[GLOBAL], w[GLOBAL], want[GLOBAL];
    memset(out, 0, sizeof out);
    memset(w, 0, sizeof w);
    struct kt_arg args[] = {{out, sizeof out, false}, {w, sizeof w, false}};
    if (kt_run_local(p, names[k], GLOBAL, &local, args, 2) != CL_SUCCESS) {
        kt_failures++;
        return;
    }
    unsigned m = w[0];
    if (m < 1 || m > 64) {
        fprintf(stderr, "FAIL %s: sub-group size %u\n", names[k], m);
        kt_failures++;
        return;
    }
    for (size_t g = 0; g < GLOBAL; g += local)
        for (size_t s = 0; s < local; s += m)
            model(k, (uint32_t)(g + s), (unsigned)(local - s < m ? local - s : m), want + g + s);
    int shown = 0;
    for (size_t g = 0; g < GLOBAL; g++)
        if (out[g] != want[g] && shown++ < 4)
            fprintf(stderr, "FAIL %s local %zu W %u: work-item %zu gives %u, expected %u\n",
                    names[k], local, m, g, out[g], want[g]);
    if (shown)
        kt_failures++;
}

int main(void)
{
    kt_setup();
    if (!kt_has_extension("cl_khr_subgroup_non_uniform_arithmetic") ||
        !kt_has_extension("cl_khr_subgroup_ballot")) {
        fprintf(stderr, "skipped: the device lacks the sub-group extensions\n");
        return kt_teardown();
    }
    cl_program p = kt_build(source, "-cl-std=CL3.0");
    const size_t locals[] = {100, 40};
    for (size_t s = 0; s < sizeof locals / sizeof *locals; s++)
        for (int k = 0; k < NUM_KERNELS; k++)
            check(p, (enum kernel)k, locals[s]);
    clReleaseProgram(p);
    return kt_teardown();
}
