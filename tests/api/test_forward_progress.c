/* SPDX-License-Identifier: MIT */
/*
 * Independent forward progress of sub-groups (cl_khr_subgroups): in a
 * work-group of several sub-groups, sub-group 0 spins until the last
 * sub-group sets a flag, in __local and in __global memory, with no barrier
 * between them: atomic loads, volatile loads (by one work-item: a divergent
 * loop) and compare-exchange loops. A spin mixed with barriers, and
 * sub-groups looping on atomics for different counts before a barrier
 * (none may pass it before all reached it), check that a yield never lets a
 * sub-group through a barrier early.
 *
 * Each width (the policy's, 1, 8, 16, 32) runs in a process of its own
 * (LANES_WIDTH is read once per process), on tier 0 and on each shape's
 * own launcher; a process that does not end within a time limit, as a
 * sub-group spinning forever would, fails the test instead of hanging it.
 */
#include "kernel_fixture.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * `want` differs from one launch and work-group to the next, so that a
 * __local flag left in the arena by an earlier work-group never matches.
 * Each work-item writes 1 to out when it saw what it waited for, 2 when it
 * set the flags, 3 when it had nothing to do.
 */
static const char *src =
    "#define PROLOGUE \\\n"
    "    int grp = (int)get_group_id(0), want = salt * 4096 + grp + 1; \\\n"
    "    uint sg = get_sub_group_id(), last = get_num_sub_groups() - 1; \\\n"
    "    int r = 3;\n"
    "kernel void spin_atomic(global atomic_int *gflag, global int *out, int salt) {\n"
    "    local atomic_int lflag;\n"
    "    PROLOGUE\n"
    "    if (sg == 0) {\n"
    "        while (atomic_load_explicit(&gflag[grp], memory_order_acquire) != want)\n"
    "            ;\n"
    "        while (atomic_load_explicit(&lflag, memory_order_acquire) != want)\n"
    "            ;\n"
    "        r = 1;\n"
    "    } else if (sg == last) {\n"
    "        atomic_store_explicit(&lflag, want, memory_order_release);\n"
    "        atomic_store_explicit(&gflag[grp], want, memory_order_release);\n"
    "        r = 2;\n"
    "    }\n"
    "    out[get_global_id(0)] = r;\n"
    "}\n"
    "kernel void spin_volatile(volatile global int *gflag, global int *out, int salt) {\n"
    "    local int flag;\n"
    "    volatile local int *lflag = &flag;\n"
    "    PROLOGUE\n"
    "    if (get_local_id(0) == 0) {\n" /* one work-item spins: a divergent loop */
    "        while (gflag[grp] != want)\n"
    "            ;\n"
    "        while (*lflag != want)\n"
    "            ;\n"
    "        r = 1;\n"
    "    } else if (sg == last && get_sub_group_local_id() == 0) {\n"
    "        *lflag = want;\n"
    "        gflag[grp] = want;\n"
    "        r = 2;\n"
    "    }\n"
    "    out[get_global_id(0)] = r;\n"
    "}\n"
    "kernel void spin_cmpxchg(global int *gflag, global int *out, int salt) {\n"
    "    local int lflag;\n"
    "    PROLOGUE\n"
    "    if (sg == 0 && get_sub_group_local_id() == 0) {\n"
    "        while (atomic_cmpxchg(&gflag[grp], want, -want) != want)\n"
    "            ;\n"
    "        while (atomic_cmpxchg(&lflag, want, -want) != want)\n"
    "            ;\n"
    "        r = 1;\n"
    "    } else if (sg == last) {\n"
    "        atomic_xchg(&lflag, want);\n"
    "        atomic_xchg(&gflag[grp], want);\n"
    "        r = 2;\n"
    "    }\n"
    "    out[get_global_id(0)] = r;\n"
    "}\n"
    /* A spin between barriers: after the second, every work-item sees the flag set. */
    "kernel void spin_between_barriers(global int *gflag, global int *out, int salt) {\n"
    "    local atomic_int lflag;\n"
    "    PROLOGUE\n"
    "    if (get_local_id(0) == 0)\n"
    "        atomic_store_explicit(&lflag, 0, memory_order_relaxed);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (sg == 0) {\n"
    "        while (atomic_load_explicit(&lflag, memory_order_acquire) != want)\n"
    "            ;\n"
    "    } else if (sg == last) {\n"
    "        atomic_store_explicit(&lflag, want, memory_order_release);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    r = atomic_load_explicit(&lflag, memory_order_relaxed) == want ? 1 : 0;\n"
    "    out[get_global_id(0)] = r;\n"
    "}\n"
    /*
     * Sub-group s adds 1 to a counter (s + 1) * 700 times, in a loop that
     * also reads a flag nobody sets (atomics in its condition: a yield
     * point), then waits at a barrier: after it, the counter holds every
     * sub-group's additions, whoever reached the barrier first.
     */
    "kernel void loops_then_barrier(global atomic_int *gflag, global int *out, int salt) {\n"
    "    local atomic_int count;\n"
    "    PROLOGUE\n"
    "    if (get_local_id(0) == 0)\n"
    "        atomic_store_explicit(&count, 0, memory_order_relaxed);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (get_sub_group_local_id() == 0)\n"
    "        for (uint i = 0; i < (sg + 1) * 700 && !atomic_load(gflag + grp); i++)\n"
    "            atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int n = (int)(last + 1);\n"
    "    r = atomic_load_explicit(&count, memory_order_relaxed) == 350 * n * (n + 1) ? 1 : 0;\n"
    "    out[get_global_id(0)] = r;\n"
    "}\n";

enum { GROUPS = 3, LOCAL = 64 };

/* Runs kernel `name` on the tier LANES_TIER says (a new program: nothing built yet); checks out. */
static void run(const char *name, int salt)
{
    cl_kernel k = kernel_of(src, name, "-cl-std=CL3.0");
    int zero[GROUPS] = {0}, out[GROUPS * LOCAL];
    cl_mem flags = buffer(sizeof zero, zero), mo = buffer(sizeof out, NULL);
    assert_int_equal(clSetKernelArg(k, 0, sizeof flags, &flags), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, sizeof mo, &mo), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, sizeof salt, &salt), CL_SUCCESS);
    size_t global = GROUPS * LOCAL, local = LOCAL;
    assert_int_equal(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(queue, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                     CL_SUCCESS);
    size_t sgs = 0;
    assert_int_equal(clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                             sizeof local, &local, sizeof sgs, &sgs, NULL),
                     CL_SUCCESS);
    size_t width = (LOCAL + sgs - 1) / sgs;
    bool barriers = strstr(name, "barrier") != NULL;
    for (size_t i = 0; i < GROUPS * LOCAL; i++) {
        size_t lid = i % LOCAL, sg = lid / width;
        int expect = 3;
        if (barriers)
            expect = 1;
        else if (strcmp(name, "spin_volatile") == 0)
            expect = lid == 0 ? 1 : sg == sgs - 1 && lid % width == 0 ? 2 : 3;
        else if (strcmp(name, "spin_cmpxchg") == 0)
            expect = sg == 0 && lid % width == 0 ? 1 : sg == sgs - 1 ? 2 : 3;
        else
            expect = sg == 0 ? 1 : sg == sgs - 1 ? 2 : 3;
        if (out[i] != expect)
            fail_msg("%s (%zu sub-groups of %zu): work-item %zu wrote %d, not %d", name, sgs, width,
                     i, out[i], expect);
    }
    clReleaseMemObject(flags);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
}

static const char *const kernels[] = {"spin_atomic", "spin_volatile", "spin_cmpxchg",
                                      "spin_between_barriers", "loops_then_barrier"};

/* Every kernel on tier 0, then on its shape's own launcher. */
static void spins_end(void **state)
{
    (void)state;
    int salt = 1;
    for (int tier = 0; tier < 2; tier++) {
        setenv("LANES_TIER", tier ? "1" : "0", 1);
        for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
            run(kernels[i], salt++);
    }
    unsetenv("LANES_TIER");
}

/*
 * The device lists cl_khr_subgroups: OpenCL C 3.0 programs see its macro,
 * and its pragma passes -Werror (OpenCL C 1.2 programs do not: Clang takes
 * it from OpenCL C 2.0 on, as the extension was written for).
 */
static void extension_macro(void **state)
{
    (void)state;
    static const char *macro =
        "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n"
        "#ifndef cl_khr_subgroups\n"
        "#error no cl_khr_subgroups\n"
        "#endif\n"
        "kernel void k(global uint *o) { o[0] = get_max_sub_group_size(); }\n";
    clReleaseProgram(program_of(macro, "-cl-std=CL3.0 -Werror"));
}

/* Runs this program's kernels at LANES_WIDTH=`width` ("" for the policy's) in a new process. */
static void in_a_process(const char *width)
{
    fflush(NULL);
    pid_t pid = fork(); /* then exec: Lanes' threads do not survive a fork */
    assert_true(pid >= 0);
    if (pid == 0) {
        if (*width)
            setenv("LANES_WIDTH", width, 1);
        else
            unsetenv("LANES_WIDTH");
        execl("/proc/self/exe", "test_forward_progress", "--kernels", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    pid_t done = 0;
    for (int waited = 0; waited < 1200 && (done = waitpid(pid, &status, WNOHANG)) == 0; waited++)
        usleep(100 * 1000);
    if (done == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        fail_msg("LANES_WIDTH=%s: the kernels did not end within 2 minutes (a spin never ended)",
                 width);
    }
    assert_int_equal(done, pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("LANES_WIDTH=%s: the process ended with status %#x", width, status);
}

static void policy_width(void **state)
{
    (void)state;
    in_a_process("");
}

static void width_1(void **state)
{
    (void)state;
    in_a_process("1");
}

static void width_8(void **state)
{
    (void)state;
    in_a_process("8");
}

static void width_16(void **state)
{
    (void)state;
    in_a_process("16");
}

static void width_32(void **state)
{
    (void)state;
    in_a_process("32");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--kernels") == 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(spins_end),
                                           cmocka_unit_test(extension_macro)};
        return cmocka_run_group_tests(tests, setup, teardown);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(policy_width), cmocka_unit_test(width_1),  cmocka_unit_test(width_8),
        cmocka_unit_test(width_16),     cmocka_unit_test(width_32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
