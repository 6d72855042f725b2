/* SPDX-License-Identifier: MIT */
/*
 * Atomics under contention: every work-item of many work-groups (run by all
 * the workers at once) updates the same global locations, and every
 * work-item of a work-group the same local ones, with the 1.x functions
 * (atomic_*, atom_* of the int32 and int64 extensions) and the OpenCL C 2.0
 * ones (every operation, the _explicit forms with orders and scopes,
 * compare-exchange loops, atomic_flag as a lock, generic pointers). The
 * results are compared with sums, minima, maxima and bit patterns computed
 * on the host; the old values returned by fetch_add must be a permutation.
 */
#include "kernels.h"

enum { GLOBAL = 1 << 15, LOCAL = 64, GROUPS = GLOBAL / LOCAL };

/* OpenCL C 1.2: the 1.x functions, 64-bit ones through their extension pragmas. */
static const char legacy_source[] =
    "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "kernel void legacy(global int *ci, global uint *cu, global long *cl, global int *old,\n"
    "                   global const int *val, global float *cf) {\n"
    "    size_t g = get_global_id(0);\n"
    "    int v = val[g];\n"
    "    old[g] = atomic_inc(&ci[0]);\n"
    "    for (int i = 0; i < 16; i++) /* more contention */\n"
    "        atomic_add(&ci[1], 3);\n"
    "    atomic_sub(&ci[2], 2);\n"
    "    atomic_dec(&ci[3]);\n"
    "    int o;\n"
    "    do { o = ((volatile global int *)ci)[4]; } while (atomic_cmpxchg(&ci[4], o, o + v) != "
    "o);\n"
    "    atomic_min(&ci[5], v);\n"
    "    atomic_max(&ci[6], v);\n"
    "    atomic_xchg(&ci[7], (int)g);\n"
    "    atom_add(&ci[8], v);\n"
    "    atom_min(&ci[9], v);\n"
    "    atomic_min(&cu[0], (uint)v);\n"
    "    atomic_max(&cu[1], (uint)v);\n"
    "    atomic_or(&cu[2], 1u << (g % 32));\n"
    "    atomic_xor(&cu[3], (uint)v);\n"
    "    atomic_and(&cu[4], ~(1u << (g % 32)));\n"
    "    atom_or(&cu[5], 1u << (g % 31));\n"
    "    atom_add(&cl[0], (long)v << 20);\n"
    "    atom_inc(&cl[1]);\n"
    "    atom_dec(&cl[2]);\n"
    "    atom_sub(&cl[3], (long)v);\n"
    "    atom_min(&cl[4], (long)v * 1000003L);\n"
    "    atom_max(&cl[5], (long)v * 1000003L);\n"
    "    atom_xor(&cl[6], (long)v << 31);\n"
    "    atom_or(&cl[7], 1L << (g % 64));\n"
    "    atom_and(&cl[8], ~(1L << (g % 64)));\n"
    "    long lo;\n"
    "    do { lo = ((volatile global long *)cl)[9]; } while (atom_cmpxchg(&cl[9], lo, lo + v) != "
    "lo);\n"
    "    atom_xchg(&cl[10], (long)g);\n"
    "    atomic_xchg(&cf[0], (float)g);\n"
    "}\n";

/* OpenCL C 3.0 with the atomics features: global objects. */
static const char c11_source[] =
    /* through a generic pointer when the device has them */
    "#ifdef __opencl_c_generic_address_space\n"
    "void bump(volatile atomic_int *p) { atomic_fetch_add(p, 1); }\n"
    "#else\n"
    "void __attribute__((overloadable)) bump(volatile global atomic_int *p) {\n"
    "    atomic_fetch_add(p, 1);\n"
    "}\n"
    "void __attribute__((overloadable)) bump(volatile local atomic_int *p) {\n"
    "    atomic_fetch_add(p, 1);\n"
    "}\n"
    "#endif\n"
    "kernel void c11(global atomic_int *ai, global atomic_uint *au, global atomic_long *al,\n"
    "                global int *old, global const int *val, global atomic_flag *lock,\n"
    "                global int *plain, global atomic_float *af) {\n"
    "    size_t g = get_global_id(0);\n"
    "    int v = val[g];\n"
    "    old[g] = atomic_fetch_add(&ai[0], 1);\n"
    "    for (int i = 0; i < 16; i++)\n"
    "        atomic_fetch_add_explicit(&ai[1], 2, memory_order_relaxed);\n"
    "    atomic_fetch_sub_explicit(&ai[2], 1, memory_order_acq_rel, memory_scope_device);\n"
    "    atomic_fetch_min(&ai[3], v);\n"
    "    atomic_fetch_max_explicit(&ai[4], v, memory_order_seq_cst, memory_scope_all_devices);\n"
    "    int e = atomic_load(&ai[5]);\n"
    "    while (!atomic_compare_exchange_weak(&ai[5], &e, e + v))\n"
    "        ;\n"
    "    int e2 = atomic_load_explicit(&ai[6], memory_order_acquire);\n"
    "    while (!atomic_compare_exchange_strong_explicit(&ai[6], &e2, e2 ^ v, "
    "memory_order_acq_rel,\n"
    "                                                    memory_order_relaxed, "
    "memory_scope_device))\n"
    "        ;\n"
    "    atomic_exchange(&ai[7], (int)g);\n"
    "    bump(&ai[8]);\n"
    "    atomic_store_explicit(&ai[9], 7, memory_order_release, memory_scope_work_group);\n"
    "    atomic_fetch_or(&au[0], 1u << (g % 32));\n"
    "    atomic_fetch_xor_explicit(&au[1], (uint)v, memory_order_relaxed, "
    "memory_scope_work_item);\n"
    "    atomic_fetch_and(&au[2], ~(1u << (g % 32)));\n"
    "    atomic_fetch_min(&au[3], (uint)v);\n"
    "    atomic_fetch_max(&au[4], (uint)v);\n"
    "    atomic_fetch_add(&al[0], (long)v << 20);\n"
    "    atomic_fetch_sub(&al[1], (long)v);\n"
    "    atomic_fetch_min(&al[2], (long)v * 1000003L);\n"
    "    atomic_fetch_max(&al[3], (long)v * 1000003L);\n"
    "    long le = atomic_load(&al[4]);\n"
    "    while (!atomic_compare_exchange_strong(&al[4], &le, le + v))\n"
    "        ;\n"
    /*
     * Work-items of a sub-group have no forward progress of their own: the
     * holder of a lock releases it in the iteration that took it, so that
     * lanes spinning beside it in lockstep cannot starve it.
     */
    "    for (bool done = false; !done;)\n"
    "        if (!atomic_flag_test_and_set_explicit(lock, memory_order_acquire, "
    "memory_scope_device)) {\n"
    "            plain[0] += 1;\n"
    "            plain[1] += v;\n"
    "            atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);\n"
    "            done = true;\n"
    "        }\n"
    "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);\n"
    "    float fe = atomic_load(&af[0]);\n"
    "    while (!atomic_compare_exchange_weak(&af[0], &fe, fe + (float)(v & 15)))\n"
    "        ;\n"
    "    atomic_exchange(&af[1], (float)g);\n"
    "}\n"
    /* local objects: every work-item of a work-group on the same counters */
    "kernel void local_c11(global int *out, global long *out64, global const int *val) {\n"
    "    local atomic_int a[4];\n"
    "    local int c[4];\n"
    "    local long cl[2];\n"
    "    local uint bits;\n"
    "    local atomic_flag lock;\n"
    "    local int plain;\n"
    "    size_t l = get_local_id(0), grp = get_group_id(0);\n"
    "    int v = val[get_global_id(0)];\n"
    "    if (l == 0) {\n"
    "        for (int i = 0; i < 4; i++) atomic_init(&a[i], 0);\n"
    "        c[0] = 0; c[1] = INT_MAX; c[2] = INT_MIN; c[3] = 0;\n"
    "        cl[0] = 0; cl[1] = 0; bits = 0; plain = 0;\n"
    "        atomic_flag_clear(&lock);\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    atomic_fetch_add(&a[0], 1);\n"
    "    bump(&a[1]);\n"
    "    atomic_fetch_max_explicit(&a[2], v, memory_order_relaxed, memory_scope_work_group);\n"
    "    int e = atomic_load_explicit(&a[3], memory_order_relaxed, memory_scope_work_group);\n"
    "    while (!atomic_compare_exchange_weak_explicit(&a[3], &e, e + v, memory_order_relaxed,\n"
    "                                                  memory_order_relaxed))\n"
    "        ;\n"
    "    atomic_inc(&c[0]);\n"
    "    atomic_min(&c[1], v);\n"
    "    atomic_max(&c[2], v);\n"
    "    int o;\n"
    "    do { o = ((volatile local int *)c)[3]; } while (atomic_cmpxchg(&c[3], o, o + v) != o);\n"
    "    atom_add(&cl[0], (long)v << 32);\n"
    "    atom_inc(&cl[1]);\n"
    "    atomic_or(&bits, 1u << (l % 32));\n"
    "    for (bool done = false; !done;)\n"
    "        if (!atomic_flag_test_and_set(&lock)) {\n"
    "            plain += v;\n"
    "            atomic_flag_clear(&lock);\n"
    "            done = true;\n"
    "        }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l == 0) {\n"
    "        global int *r = out + grp * 10;\n"
    "        r[0] = atomic_load(&a[0]); r[1] = atomic_load(&a[1]); r[2] = atomic_load(&a[2]);\n"
    "        r[3] = atomic_load(&a[3]); r[4] = c[0]; r[5] = c[1]; r[6] = c[2]; r[7] = c[3];\n"
    "        r[8] = (int)bits; r[9] = plain;\n"
    "        out64[grp * 2] = cl[0]; out64[grp * 2 + 1] = cl[1];\n"
    "    }\n"
    "}\n";

static int val[GLOBAL];
static int old[GLOBAL];

/* The old values of GLOBAL increments of one counter from 0: each exactly once. */
static void check_permutation(const char *what)
{
    static unsigned char seen[GLOBAL];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < GLOBAL; i++) {
        if (old[i] < 0 || old[i] >= GLOBAL || seen[old[i]]++) {
            KT_FAIL("%s: old value %d at %d repeated or out of range", what, old[i], i);
            return;
        }
    }
}

#define EXPECT(what, got, want)                                                                    \
    do {                                                                                           \
        long long g_ = (long long)(got), w_ = (long long)(want);                                   \
        if (g_ != w_)                                                                              \
            KT_FAIL("%s = %lld, want %lld", what, g_, w_);                                         \
    } while (0)

static void test_legacy(void)
{
    cl_program p = kt_build(legacy_source, "-cl-std=CL1.2");
    int ci[10] = {0, 0, 0, 0, 0, INT32_MAX, INT32_MIN, -1, 0, INT32_MAX};
    unsigned cu[6] = {UINT32_MAX, 0, 0, 0, UINT32_MAX, 0};
    int64_t cl[11] = {0, 0, 0, 0, INT64_MAX, INT64_MIN, 0, 0, -1, 0, -1};
    float cf[1] = {-1.0f};
    struct kt_arg args[] = {{ci, sizeof ci, false},   {cu, sizeof cu, false},
                            {cl, sizeof cl, false},   {old, sizeof old, false},
                            {val, sizeof val, false}, {cf, sizeof cf, false}};
    size_t local = LOCAL;
    if (kt_run_local(p, "legacy", GLOBAL, &local, args, 6) != CL_SUCCESS) {
        KT_FAIL("legacy did not run");
        clReleaseProgram(p);
        return;
    }
    int64_t sum = 0, lsum20 = 0, lxor = 0;
    int vmin = INT32_MAX, vmax = INT32_MIN;
    unsigned umin = UINT32_MAX, umax = 0, uxor = 0;
    uint32_t isum = 0;
    for (int i = 0; i < GLOBAL; i++) {
        sum += val[i];
        isum += (uint32_t)val[i];
        lsum20 += (int64_t)val[i] * (1 << 20);
        lxor ^= (int64_t)((uint64_t)(int64_t)val[i] << 31);
        vmin = val[i] < vmin ? val[i] : vmin;
        vmax = val[i] > vmax ? val[i] : vmax;
        umin = (unsigned)val[i] < umin ? (unsigned)val[i] : umin;
        umax = (unsigned)val[i] > umax ? (unsigned)val[i] : umax;
        uxor ^= (unsigned)val[i];
    }
    check_permutation("atomic_inc");
    EXPECT("atomic_inc", ci[0], GLOBAL);
    EXPECT("atomic_add", ci[1], 48 * GLOBAL);
    EXPECT("atomic_sub", ci[2], -2 * GLOBAL);
    EXPECT("atomic_dec", ci[3], -GLOBAL);
    EXPECT("atomic_cmpxchg loop", (uint32_t)ci[4], isum);
    EXPECT("atomic_min", ci[5], vmin);
    EXPECT("atomic_max", ci[6], vmax);
    if (ci[7] < 0 || ci[7] >= GLOBAL)
        KT_FAIL("atomic_xchg left %d", ci[7]);
    EXPECT("atom_add (int)", (uint32_t)ci[8], isum);
    EXPECT("atom_min (int)", ci[9], vmin);
    EXPECT("atomic_min (uint)", cu[0], umin);
    EXPECT("atomic_max (uint)", cu[1], umax);
    EXPECT("atomic_or", cu[2], UINT32_MAX);
    EXPECT("atomic_xor", cu[3], uxor);
    EXPECT("atomic_and", cu[4], 0);
    EXPECT("atom_or (uint)", cu[5], 0x7fffffffu);
    EXPECT("atom_add (long)", cl[0], lsum20);
    EXPECT("atom_inc (long)", cl[1], GLOBAL);
    EXPECT("atom_dec (long)", cl[2], -GLOBAL);
    EXPECT("atom_sub (long)", cl[3], -sum);
    EXPECT("atom_min (long)", cl[4], (int64_t)vmin * 1000003);
    EXPECT("atom_max (long)", cl[5], (int64_t)vmax * 1000003);
    EXPECT("atom_xor (long)", cl[6], lxor);
    EXPECT("atom_or (long)", cl[7], -1);
    EXPECT("atom_and (long)", cl[8], 0);
    EXPECT("atom_cmpxchg loop (long)", cl[9], sum);
    if (cl[10] < 0 || cl[10] >= GLOBAL)
        KT_FAIL("atom_xchg (long) left %lld", (long long)cl[10]);
    if (cf[0] < 0 || cf[0] >= GLOBAL || cf[0] != (float)(int)cf[0])
        KT_FAIL("atomic_xchg (float) left %g", cf[0]);
    clReleaseProgram(p);
}

static void test_c11(void)
{
    cl_program p = kt_build(c11_source, "-cl-std=CL3.0");
    int ai[10] = {0, 0, 0, INT32_MAX, INT32_MIN, 0, 0, -1, 0, 0};
    unsigned au[5] = {0, 0, UINT32_MAX, UINT32_MAX, 0};
    int64_t al[5] = {0, 0, INT64_MAX, INT64_MIN, 0};
    int lock = 0, plain[2] = {0, 0};
    float af[2] = {0.0f, -1.0f};
    struct kt_arg args[] = {{ai, sizeof ai, false},       {au, sizeof au, false},
                            {al, sizeof al, false},       {old, sizeof old, false},
                            {val, sizeof val, false},     {&lock, sizeof lock, false},
                            {plain, sizeof plain, false}, {af, sizeof af, false}};
    size_t local = LOCAL;
    if (kt_run_local(p, "c11", GLOBAL, &local, args, 8) != CL_SUCCESS) {
        KT_FAIL("c11 did not run");
        clReleaseProgram(p);
        return;
    }
    int64_t sum = 0, sum20 = 0;
    uint32_t isum = 0, ixor = 0, umin = UINT32_MAX, umax = 0;
    int vmin = INT32_MAX, vmax = INT32_MIN;
    double fsum = 0;
    for (int i = 0; i < GLOBAL; i++) {
        sum += val[i];
        sum20 += (int64_t)val[i] * (1 << 20);
        isum += (uint32_t)val[i];
        ixor ^= (uint32_t)val[i];
        vmin = val[i] < vmin ? val[i] : vmin;
        vmax = val[i] > vmax ? val[i] : vmax;
        umin = (uint32_t)val[i] < umin ? (uint32_t)val[i] : umin;
        umax = (uint32_t)val[i] > umax ? (uint32_t)val[i] : umax;
        fsum += val[i] & 15;
    }
    check_permutation("atomic_fetch_add");
    EXPECT("atomic_fetch_add", ai[0], GLOBAL);
    EXPECT("atomic_fetch_add_explicit (relaxed)", ai[1], 32 * GLOBAL);
    EXPECT("atomic_fetch_sub_explicit (acq_rel, device)", ai[2], -GLOBAL);
    EXPECT("atomic_fetch_min", ai[3], vmin);
    EXPECT("atomic_fetch_max_explicit (seq_cst, all_devices)", ai[4], vmax);
    EXPECT("atomic_compare_exchange_weak loop", (uint32_t)ai[5], isum);
    EXPECT("atomic_compare_exchange_strong_explicit loop", (uint32_t)ai[6], ixor);
    if (ai[7] < 0 || ai[7] >= GLOBAL)
        KT_FAIL("atomic_exchange left %d", ai[7]);
    EXPECT("atomic_fetch_add (generic pointer)", ai[8], GLOBAL);
    EXPECT("atomic_store_explicit", ai[9], 7);
    EXPECT("atomic_fetch_or", au[0], UINT32_MAX);
    EXPECT("atomic_fetch_xor_explicit", au[1], ixor);
    EXPECT("atomic_fetch_and", au[2], 0);
    EXPECT("atomic_fetch_min (uint)", au[3], umin);
    EXPECT("atomic_fetch_max (uint)", au[4], umax);
    EXPECT("atomic_fetch_add (long)", al[0], sum20);
    EXPECT("atomic_fetch_sub (long)", al[1], -sum);
    EXPECT("atomic_fetch_min (long)", al[2], (int64_t)vmin * 1000003);
    EXPECT("atomic_fetch_max (long)", al[3], (int64_t)vmax * 1000003);
    EXPECT("atomic_compare_exchange_strong loop (long)", al[4], sum);
    EXPECT("atomic_flag lock: count", plain[0], GLOBAL);
    EXPECT("atomic_flag lock: sum", (uint32_t)plain[1], isum);
    EXPECT("atomic_flag released", lock, 0);
    if (af[0] != (float)fsum)
        KT_FAIL("atomic_compare_exchange_weak loop (float) = %g, want %g", af[0], fsum);
    if (af[1] < 0 || af[1] >= GLOBAL || af[1] != (float)(int)af[1])
        KT_FAIL("atomic_exchange (float) left %g", af[1]);

    static int out[GROUPS * 10];
    static int64_t out64[GROUPS * 2];
    struct kt_arg largs[] = {
        {out, sizeof out, false}, {out64, sizeof out64, false}, {val, sizeof val, false}};
    if (kt_run_local(p, "local_c11", GLOBAL, &local, largs, 3) != CL_SUCCESS) {
        KT_FAIL("local_c11 did not run");
        clReleaseProgram(p);
        return;
    }
    for (int grp = 0; grp < GROUPS; grp++) {
        const int *v = val + grp * LOCAL, *r = out + grp * 10;
        int lmax = INT32_MIN, lmin = INT32_MAX;
        uint32_t lsum = 0;
        for (int i = 0; i < LOCAL; i++) {
            lmax = v[i] > lmax ? v[i] : lmax;
            lmin = v[i] < lmin ? v[i] : lmin;
            lsum += (uint32_t)v[i];
        }
        int64_t l64 = (int64_t)((uint64_t)lsum << 32);
        int before = kt_failures;
        EXPECT("local atomic_fetch_add", r[0], LOCAL);
        EXPECT("local atomic_fetch_add (generic pointer)", r[1], LOCAL);
        EXPECT("local atomic_fetch_max_explicit", r[2], lmax > 0 ? lmax : 0);
        EXPECT("local atomic_compare_exchange_weak_explicit loop", (uint32_t)r[3], lsum);
        EXPECT("local atomic_inc", r[4], LOCAL);
        EXPECT("local atomic_min", r[5], lmin);
        EXPECT("local atomic_max", r[6], lmax);
        EXPECT("local atomic_cmpxchg loop", (uint32_t)r[7], lsum);
        EXPECT("local atomic_or", (uint32_t)r[8], UINT32_MAX);
        EXPECT("local atomic_flag lock", (uint32_t)r[9], lsum);
        EXPECT("local atom_add (long)", (uint64_t)out64[grp * 2] & 0xffffffff00000000ull,
               (uint64_t)l64);
        EXPECT("local atom_inc (long)", out64[grp * 2 + 1], LOCAL);
        if (kt_failures != before)
            break;
    }
    clReleaseProgram(p);
}

/* atomic_double (cl_khr_fp64 with the 64-bit atomics): init, load, store, exchange, CAS. */
static void test_double(void)
{
    cl_program p =
        kt_build("kernel void d(global atomic_double *ad, global const int *val) {\n"
                 "    size_t g = get_global_id(0);\n"
                 "    double e = atomic_load(&ad[0]);\n"
                 "    while (!atomic_compare_exchange_strong(&ad[0], &e, e + (val[g] & 15)))\n"
                 "        ;\n"
                 "    atomic_exchange(&ad[1], (double)g);\n"
                 "    if (g == 0) atomic_store(&ad[2], 0.5);\n"
                 "}\n",
                 "-cl-std=CL3.0");
    double ad[3] = {0.0, -1.0, 0.0};
    struct kt_arg args[] = {{ad, sizeof ad, false}, {val, sizeof val, false}};
    size_t local = LOCAL;
    KT_CHECK_CL(kt_run_local(p, "d", GLOBAL, &local, args, 2));
    double sum = 0;
    for (int i = 0; i < GLOBAL; i++)
        sum += val[i] & 15;
    if (ad[0] != sum)
        KT_FAIL("atomic_compare_exchange_strong loop (double) = %g, want %g", ad[0], sum);
    if (ad[1] < 0 || ad[1] >= GLOBAL || ad[1] != (double)(int)ad[1] || ad[2] != 0.5)
        KT_FAIL("atomic_exchange / atomic_store (double) left %g %g", ad[1], ad[2]);
    clReleaseProgram(p);
}

/*
 * Exchanges on one location: the old values returned and the value left
 * must be the initial value and every work-item's own, each once, whether
 * every lane exchanges or only some (a sub-group's exchanges are combined
 * into one, each lane getting the previous active lane's value). With the
 * same operand in every work-item (combined without a loop), exactly one
 * work-item sees the initial value of a max, an or or an exchange.
 */
static const char chain_source[] =
    "kernel void chain(global int *x, global int *old, global int *old2) {\n"
    "    int g = (int)get_global_id(0);\n"
    "    old[g] = atomic_xchg(&x[0], g + 1);\n"
    "    old2[g] = -1;\n"
    "    if (g % 3 != 0)\n"
    "        old2[g] = atomic_xchg(&x[1], g + 1);\n"
    "    if (atomic_max(&x[2], 7) == 5) atomic_inc(&x[4]);\n"
    "    if (atomic_or(&x[3], 4) == 1) atomic_inc(&x[5]);\n"
    "    if (atomic_xchg(&x[6], 9) == 3) atomic_inc(&x[7]);\n"
    "    if (g % 5 == 0) atomic_sub(&x[8], 2);\n"
    "}\n";

static int old2[GLOBAL];

/* Whether old[i] for the i that `took` part, and `left`, are 0 and every i + 1 that took part. */
static bool chain_ok(const int *olds, int left, bool every)
{
    static unsigned char seen[GLOBAL + 1];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < GLOBAL; i++) {
        bool took = every || i % 3 != 0;
        if (!took)
            continue;
        if (olds[i] < 0 || olds[i] > GLOBAL || seen[olds[i]]++)
            return false;
    }
    if (left < 0 || left > GLOBAL || seen[left]++)
        return false;
    for (int i = 0; i <= GLOBAL; i++)
        if (seen[i] != (i == 0 || every || (i - 1) % 3 != 0))
            return false;
    return true;
}

static void test_exchange_chain(void)
{
    cl_program p = kt_build(chain_source, "-cl-std=CL1.2");
    int x[9] = {0, 0, 5, 1, 0, 0, 3, 0, 0};
    struct kt_arg args[] = {
        {x, sizeof x, false}, {old, sizeof old, false}, {old2, sizeof old2, false}};
    size_t local = LOCAL;
    if (kt_run_local(p, "chain", GLOBAL, &local, args, 3) != CL_SUCCESS) {
        KT_FAIL("chain did not run");
    } else {
        if (!chain_ok(old, x[0], true))
            KT_FAIL("atomic_xchg by every work-item: old values and %d are not a chain", x[0]);
        if (!chain_ok(old2, x[1], false))
            KT_FAIL("atomic_xchg by two in three: old values and %d are not a chain", x[1]);
        EXPECT("atomic_max (same operand)", x[2], 7);
        EXPECT("work-items seeing atomic_max's initial value", x[4], 1);
        EXPECT("atomic_or (same operand)", x[3], 5);
        EXPECT("work-items seeing atomic_or's initial value", x[5], 1);
        EXPECT("atomic_xchg (same operand)", x[6], 9);
        EXPECT("work-items seeing atomic_xchg's initial value", x[7], 1);
        EXPECT("atomic_sub by one in five", x[8], -2 * ((GLOBAL + 4) / 5));
    }
    clReleaseProgram(p);
}

/*
 * Bitmaps: each work-item sets and clears its own bit of a word that the
 * work-items of its sub-group share (the CTS's fetch_orand and fetch_xor2),
 * so the addresses are varying but the same in every lane when it runs: one
 * combined atomic for the sub-group, chosen at run time. Every old value
 * must show the work-item's bit as it left it. Bytes of 8 bits shared by
 * fewer lanes than a sub-group take the lane loop at W > 8; a half of the
 * lanes (odd ones) and 64-bit words cover partial masks and wide types.
 */
enum { WORDS = GLOBAL / 32 };
static const char bitmap_source[] =
    "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
    "kernel void bitmap(global uint *w, global int *wrong, global ulong *wl, int iters) {\n"
    "    int g = (int)get_global_id(0), c = 0;\n"
    "    uint bit = 1u << (g % 32);\n"
    "    global uint *a = w + g / 32, *b = w + WORDS + g / 32;\n"
    "    for (int i = 0; i < iters; i++) {\n"
    "        if (atomic_or(a, bit) & bit) c++;\n"
    "        if (!(atomic_and(a, ~bit) & bit)) c++;\n"
    "        if (atomic_xor(b, bit) & bit) c++;\n"
    "        if (!(atomic_xor(b, bit) & bit)) c++;\n"
    "    }\n"
    "    wrong[g] = c;\n"
    "    if (g & 1)\n"
    "        atomic_or(&w[2 * WORDS + g / 32], bit);\n"
    "    if (g % 3 == 0)\n"
    "        atomic_or(&w[3 * WORDS + g / 8], 1u << (g % 8));\n"
    "    atom_or(&wl[g / 64], 1ul << (g % 64));\n"
    "}\n";

static void test_bitmap(void)
{
    char options[64];
    snprintf(options, sizeof options, "-cl-std=CL1.2 -DWORDS=%d", WORDS);
    cl_program p = kt_build(bitmap_source, options);
    static uint32_t w[3 * WORDS + GLOBAL / 8];
    static uint64_t wl[GLOBAL / 64];
    memset(w, 0, sizeof w);
    memset(wl, 0, sizeof wl);
    int iters = 20;
    struct kt_arg args[] = {{w, sizeof w, false},
                            {old, sizeof old, false},
                            {wl, sizeof wl, false},
                            {&iters, sizeof iters, true}};
    size_t local = LOCAL;
    if (kt_run_local(p, "bitmap", GLOBAL, &local, args, 4) != CL_SUCCESS) {
        KT_FAIL("bitmap did not run");
        clReleaseProgram(p);
        return;
    }
    for (int i = 0; i < GLOBAL; i++)
        if (old[i]) {
            KT_FAIL("bitmap: work-item %d saw another's change to its bit %d times", i, old[i]);
            break;
        }
    for (int k = 0; k < WORDS; k++) {
        EXPECT("bitmap: or then and", w[k], 0);
        EXPECT("bitmap: xor twice", w[WORDS + k], 0);
        EXPECT("bitmap: odd work-items' bits", w[2 * WORDS + k], 0xaaaaaaaau);
    }
    for (int k = 0; k < GLOBAL / 8; k++) {
        uint32_t want = 0;
        for (int b = 0; b < 8; b++)
            want |= (uint32_t)((8 * k + b) % 3 == 0) << b;
        EXPECT("bitmap: bytes of every third work-item", w[3 * WORDS + k], want);
    }
    for (int k = 0; k < GLOBAL / 64; k++)
        EXPECT("bitmap: 64-bit words", wl[k] == ~0ull, 1);
    clReleaseProgram(p);
}

int main(void)
{
    kt_setup();
    for (int i = 0; i < GLOBAL; i++)
        val[i] = (int)(kt_random() >> 32);
    test_legacy();
    test_c11();
    test_double();
    test_exchange_chain();
    test_bitmap();
    printf("atomics: %d work-items in work-groups of %d, %d failure(s)\n", GLOBAL, LOCAL,
           kt_failures);
    return kt_teardown();
}
