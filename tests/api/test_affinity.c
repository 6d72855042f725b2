/* SPDX-License-Identifier: MIT */
/*
 * Sub-devices by affinity domain. The test reads the machine's topology from
 * sysfs itself (the reference) and checks that each domain splits the
 * device into exactly the groups of CPUs sharing it (one group when all
 * share it), that the workers are
 * then pinned one per CPU, and that kernels run on every sub-device. Run
 * with the default worker count (one per CPU); with LANES_NUM_THREADS set
 * to another count no domain may be offered, which the second run checks.
 */
#include "common.h"

#include <dirent.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#define GET(dev, param, var)                                                                       \
    assert_int_equal(clGetDeviceInfo(dev, param, sizeof(var), &(var), NULL), CL_SUCCESS)

enum { NUMA, L4, L3, L2, L1, DOMAINS, MAX_CPUS = 256 };
static const cl_device_affinity_domain bit[DOMAINS] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

/* The CPUs of the affinity mask and, per domain, the key shared inside one domain. */
static struct {
    unsigned n;
    unsigned id[MAX_CPUS];
    char key[MAX_CPUS][DOMAINS][64]; /* "" when unknown */
} topo;

static bool read_text(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(out, (int)size, f) != NULL;
    fclose(f);
    out[strcspn(out, "\n")] = '\0';
    return ok;
}

static void read_topology(void)
{
    cpu_set_t set;
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    for (unsigned c = 0; c < CPU_SETSIZE && topo.n < MAX_CPUS; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        unsigned i = topo.n++;
        topo.id[i] = c;
        char path[160], buf[64];
        for (int node = 0; node < 1024; node++) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/node%d", c, node);
            if (access(path, F_OK) == 0) {
                snprintf(topo.key[i][NUMA], 64, "node%d", node);
                break;
            }
        }
        for (int k = 0; k < 16; k++) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/cache/index%d/type", c, k);
            if (!read_text(path, buf, sizeof buf))
                break;
            if (strcmp(buf, "Instruction") == 0)
                continue;
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/cache/index%d/level", c, k);
            assert_true(read_text(path, buf, sizeof buf));
            int level = atoi(buf);
            snprintf(path, sizeof path,
                     "/sys/devices/system/cpu/cpu%u/cache/index%d/shared_cpu_list", c, k);
            if (level >= 1 && level <= 4)
                read_text(path, topo.key[i][L1 - (level - 1)], 64);
        }
    }
}

/* Distinct keys of domain d among the CPUs (0 when some CPU's is unknown). */
static unsigned groups_of(int d)
{
    unsigned n = 0;
    for (unsigned i = 0; i < topo.n; i++) {
        if (!topo.key[i][d][0])
            return 0;
        bool seen = false;
        for (unsigned j = 0; j < i; j++)
            seen |= strcmp(topo.key[j][d], topo.key[i][d]) == 0;
        n += !seen;
    }
    return n;
}

static cl_device_affinity_domain expected_domains(void)
{
    cl_device_affinity_domain bits = 0;
    for (int d = 0; d < DOMAINS; d++)
        if (groups_of(d))
            bits |= bit[d];
    return topo.n < 2 || !bits ? 0 : bits | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
}

/* Threads of this process allowed on exactly one CPU: the pinned workers. */
static unsigned pinned_threads(void)
{
    DIR *dir = opendir("/proc/self/task");
    assert_non_null(dir);
    unsigned n = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.')
            continue;
        char path[300], line[256];
        snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
                const char *v = line + 18 + strspn(line + 18, " \t");
                n += strpbrk(v, ",-") == NULL;
            }
        fclose(f);
    }
    closedir(dir);
    return n;
}

/* Runs x[i] += 3 over 64 Ki items on `dev` and checks the result. */
static void run_kernel_on(cl_device_id dev)
{
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    const char *src = "kernel void k(global int *x) { x[get_global_id(0)] += 3; }";
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    assert_int_equal(clBuildProgram(p, 1, &dev, NULL, NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, "k", &err);
    assert_int_equal(err, CL_SUCCESS);
    enum { N = 1 << 16 };
    static int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
    cl_mem m =
        clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    assert_int_equal(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t global = N, local = 64;
    for (int rep = 0; rep < 4; rep++)
        assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL),
                         CL_SUCCESS);
    assert_int_equal(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], i + 12);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
}

/* Every domain the machine has partitions into its groups, or fails when it does not split. */
static void domains(void **state)
{
    (void)state;
    cl_device_id root = lanes_test_device();
    cl_device_affinity_domain offered;
    GET(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, offered);
    assert_int_equal(offered, expected_domains());
    if (!offered) {
        print_message("no affinity domain on this machine (%u CPUs)\n", topo.n);
        return;
    }
    cl_device_partition_property schemes[3];
    size_t size;
    assert_int_equal(
        clGetDeviceInfo(root, CL_DEVICE_PARTITION_PROPERTIES, sizeof schemes, schemes, &size),
        CL_SUCCESS);
    assert_int_equal(size, sizeof schemes);
    assert_int_equal(schemes[2], CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);

    int next = -1; /* the domain NEXT_PARTITIONABLE must pick */
    for (int d = 0; d < DOMAINS; d++) {
        const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                      (cl_device_partition_property)bit[d], 0};
        unsigned groups = groups_of(d);
        cl_uint n = 0;
        cl_int err = clCreateSubDevices(root, props, 0, NULL, &n);
        if (!groups) {
            assert_int_equal(err, CL_INVALID_VALUE);
            continue;
        }
        /* A domain all CPUs share gives one sub-device of all of them. */
        if (next < 0 && groups >= 2)
            next = d;
        assert_int_equal(err, CL_SUCCESS);
        assert_int_equal(n, groups);
        cl_device_id *sub = calloc(n, sizeof *sub);
        assert_int_equal(clCreateSubDevices(root, props, n, sub, NULL), CL_SUCCESS);
        cl_uint total = 0;
        for (cl_uint i = 0; i < n; i++) {
            cl_uint cu;
            GET(sub[i], CL_DEVICE_MAX_COMPUTE_UNITS, cu);
            total += cu;
            cl_device_partition_property type[3];
            assert_int_equal(
                clGetDeviceInfo(sub[i], CL_DEVICE_PARTITION_TYPE, sizeof type, type, &size),
                CL_SUCCESS);
            assert_int_equal(size, sizeof props);
            assert_memory_equal(type, props, sizeof props);
            /* Its own domains are finer ones only, so partitioning again ends. */
            cl_device_affinity_domain own;
            GET(sub[i], CL_DEVICE_PARTITION_AFFINITY_DOMAIN, own);
            for (int coarser = 0; coarser <= d; coarser++)
                assert_int_equal(own & bit[coarser], 0);
        }
        assert_int_equal(total, topo.n);
        print_message("domain %d: %u sub-devices\n", d, n);
        /* Every domain's sub-device runs kernels on its own workers. */
        for (cl_uint i = 0; i < n; i++)
            run_kernel_on(sub[i]);
        /* The workers are pinned: one thread per CPU allowed on that CPU only. */
        assert_true(pinned_threads() >= topo.n);
        for (cl_uint i = 0; i < n; i++)
            assert_int_equal(clReleaseDevice(sub[i]), CL_SUCCESS);
        free(sub);
    }

    const cl_device_partition_property np[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                               CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
    cl_uint n = 0;
    cl_int err = clCreateSubDevices(root, np, 0, NULL, &n);
    if (next < 0) {
        assert_int_equal(err, CL_DEVICE_PARTITION_FAILED);
        return;
    }
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(n, groups_of(next));
    cl_device_id *sub = calloc(n, sizeof *sub);
    assert_int_equal(clCreateSubDevices(root, np, n, sub, NULL), CL_SUCCESS);
    for (cl_uint i = 0; i < n; i++) {
        /* CL_DEVICE_PARTITION_TYPE names the domain that was used. */
        cl_device_partition_property type[3];
        assert_int_equal(
            clGetDeviceInfo(sub[i], CL_DEVICE_PARTITION_TYPE, sizeof type, type, &size),
            CL_SUCCESS);
        assert_int_equal(type[0], CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
        assert_int_equal(type[1], bit[next]);
        /* A sub-device by domain partitions further by count, and its parts run kernels. */
        cl_uint cu;
        GET(sub[i], CL_DEVICE_MAX_COMPUTE_UNITS, cu);
        if (cu >= 2) {
            const cl_device_partition_property eq[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
            cl_device_id part[2];
            assert_int_equal(clCreateSubDevices(sub[i], eq, 2, part, NULL), CL_SUCCESS);
            run_kernel_on(part[0]);
            clReleaseDevice(part[0]);
            clReleaseDevice(part[1]);
        } else {
            cl_device_affinity_domain none;
            GET(sub[i], CL_DEVICE_PARTITION_AFFINITY_DOMAIN, none);
            assert_int_equal(none, 0);
        }
        assert_int_equal(clReleaseDevice(sub[i]), CL_SUCCESS);
    }
    free(sub);
}

static void bad_domains(void **state)
{
    (void)state;
    cl_device_id root = lanes_test_device(), sub[MAX_CPUS];
    const cl_device_partition_property two[] = {
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
        CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE | CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, 0};
    const cl_device_partition_property none[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0, 0};
    const cl_device_partition_property bogus[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 1 << 12,
                                                  0};
    assert_int_equal(clCreateSubDevices(root, two, MAX_CPUS, sub, NULL), CL_INVALID_VALUE);
    assert_int_equal(clCreateSubDevices(root, none, MAX_CPUS, sub, NULL), CL_INVALID_VALUE);
    assert_int_equal(clCreateSubDevices(root, bogus, MAX_CPUS, sub, NULL), CL_INVALID_VALUE);
    /* A share by count is any workers, not a place: it offers no domain. */
    if (topo.n >= 2) {
        const cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
                                                       CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
        const cl_device_partition_property l1[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                   CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE, 0};
        assert_int_equal(clCreateSubDevices(root, counts, 2, sub, NULL), CL_SUCCESS);
        cl_device_affinity_domain offered;
        GET(sub[0], CL_DEVICE_PARTITION_AFFINITY_DOMAIN, offered);
        assert_int_equal(offered, 0);
        assert_int_equal(clCreateSubDevices(sub[0], l1, 2, sub + 2, NULL), CL_INVALID_VALUE);
        clReleaseDevice(sub[0]);
        clReleaseDevice(sub[1]);
    }
    /* Too small an output array. */
    const cl_device_partition_property np[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                               CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
    cl_uint n = 0;
    if (clCreateSubDevices(root, np, 0, NULL, &n) == CL_SUCCESS)
        assert_int_equal(clCreateSubDevices(root, np, n - 1, sub, NULL), CL_INVALID_VALUE);
}

/* With a worker count other than one per CPU, workers are no places: nothing offered. */
static void not_offered(void **state)
{
    (void)state;
    cl_device_id root = lanes_test_device();
    cl_device_affinity_domain offered;
    GET(root, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, offered);
    assert_int_equal(offered, 0);
    const cl_device_partition_property np[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                               CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, 0};
    cl_device_id sub[4];
    assert_int_equal(clCreateSubDevices(root, np, 4, sub, NULL), CL_INVALID_VALUE);
    assert_int_equal(pinned_threads(), 0);
}

int main(void)
{
    read_topology();
    const char *threads = getenv("LANES_NUM_THREADS");
    if (threads && strtoul(threads, NULL, 10) != topo.n) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(not_offered)};
        return cmocka_run_group_tests(tests, NULL, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(domains),
        cmocka_unit_test(bad_domains),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
