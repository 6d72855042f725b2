/* SPDX-License-Identifier: MIT */
/* Reads /proc and /sys once; every number has a fallback for sandboxes. */
#include "machine.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct lanes_machine machine;
static pthread_once_t machine_once = PTHREAD_ONCE_INIT;

/* Copies the value of the first "key : value" line of /proc/cpuinfo. */
static void cpuinfo_field(const char *key, char *out, size_t size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, n) != 0 || (line[n] != ' ' && line[n] != '\t'))
            continue;
        char *v = strchr(line, ':');
        if (!v)
            continue;
        v += 1 + strspn(v + 1, " \t");
        v[strcspn(v, "\n")] = '\0';
        snprintf(out, size, "%s", v);
        break;
    }
    fclose(f);
}

/* Reads the first line of a sysfs file; false when absent. */
static int read_line(const char *path, char *out, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fgets(out, (int)size, f) != NULL;
    fclose(f);
    if (ok)
        out[strcspn(out, "\n")] = '\0';
    return ok;
}

/* "48K", "2048K", "105M" -> bytes. */
static uint64_t parse_size(const char *s)
{
    char *end;
    uint64_t n = strtoull(s, &end, 10);
    switch (*end) {
    case 'K': return n << 10;
    case 'M': return n << 20;
    case 'G': return n << 30;
    }
    return n;
}

static void read_caches(void)
{
    for (int i = 0; i < 16; i++) {
        char path[128], type[32], buf[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if (!read_line(path, type, sizeof type))
            break;
        if (strcmp(type, "Instruction") == 0)
            continue;
        struct lanes_cache c = {0};
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (read_line(path, buf, sizeof buf))
            c.level = (unsigned)atoi(buf);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (read_line(path, buf, sizeof buf))
            c.size = parse_size(buf);
        snprintf(path, sizeof path,
                 "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
        if (read_line(path, buf, sizeof buf))
            c.line = (unsigned)atoi(buf);
        if (c.level == 1)
            machine.l1d = c;
        else if (c.level == 2)
            machine.l2 = c;
        if (c.level >= machine.last.level)
            machine.last = c;
    }
    /* Typical x86-64 values when sysfs says nothing. */
    if (!machine.l1d.size)
        machine.l1d = (struct lanes_cache){1, 32 << 10, 64};
    if (!machine.l2.size)
        machine.l2 = (struct lanes_cache){2, 256 << 10, 64};
    if (!machine.last.size)
        machine.last = machine.l2;
    if (!machine.last.line)
        machine.last.line = 64;
}

/*
 * The domains of one CPU: its NUMA node, and for each data or unified cache
 * level the lowest CPU sharing that cache (every CPU of a domain agrees on it).
 */
static void read_domains(struct lanes_cpu *c)
{
    char path[160], buf[256];
    for (int d = 0; d < LANES_NUM_DOMAINS; d++)
        c->domain[d] = -1;
    for (int node = 0; node < 1024; node++) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/node%d", c->id, node);
        if (access(path, F_OK) == 0) {
            c->domain[LANES_DOMAIN_NUMA] = node;
            break;
        }
    }
    for (int i = 0; i < 16; i++) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/cache/index%d/type", c->id, i);
        if (!read_line(path, buf, sizeof buf))
            break;
        if (strcmp(buf, "Instruction") == 0)
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/cache/index%d/level", c->id, i);
        int level = read_line(path, buf, sizeof buf) ? atoi(buf) : 0;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/cache/index%d/shared_cpu_list",
                 c->id, i);
        if (level >= 1 && level <= 4 && read_line(path, buf, sizeof buf))
            c->domain[LANES_DOMAIN_L1 - (level - 1)] = atoi(buf); /* "0-3,8-11" starts low */
    }
}

/* The CPUs of the affinity mask with their domains; left NULL when unreadable. */
static void read_topology(const cpu_set_t *set)
{
    machine.cpu = calloc(machine.cpus, sizeof *machine.cpu);
    if (!machine.cpu)
        return;
    unsigned n = 0;
    for (unsigned id = 0; id < CPU_SETSIZE && n < machine.cpus; id++)
        if (CPU_ISSET(id, set))
            machine.cpu[n++].id = id;
    if (n != machine.cpus) {
        free(machine.cpu);
        machine.cpu = NULL;
        return;
    }
    for (unsigned i = 0; i < n; i++)
        read_domains(&machine.cpu[i]);
}

static unsigned read_clock_mhz(void)
{
    char buf[64];
    if (read_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", buf, sizeof buf))
        return (unsigned)(strtoull(buf, NULL, 10) / 1000);
    cpuinfo_field("cpu MHz", buf, sizeof buf);
    unsigned mhz = (unsigned)strtod(buf, NULL);
    return mhz ? mhz : 1000;
}

static void detect(void)
{
    snprintf(machine.cpu_model, sizeof machine.cpu_model, "x86-64 CPU");
    cpuinfo_field("model name", machine.cpu_model, sizeof machine.cpu_model);
    cpuinfo_field("vendor_id", machine.cpu_vendor, sizeof machine.cpu_vendor);
    if (strcmp(machine.cpu_vendor, "GenuineIntel") == 0)
        machine.pci_vendor = 0x8086;
    else if (strcmp(machine.cpu_vendor, "AuthenticAMD") == 0)
        machine.pci_vendor = 0x1022;

    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        machine.cpus = (unsigned)CPU_COUNT(&set);
        if (machine.cpus)
            read_topology(&set);
    }
    if (!machine.cpus) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        machine.cpus = n > 0 ? (unsigned)n : 1;
    }

    machine.clock_mhz = read_clock_mhz();
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    machine.memory = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : (uint64_t)1 << 30;
    read_caches();
}

const struct lanes_machine *lanes_machine(void)
{
    pthread_once(&machine_once, detect);
    return &machine;
}
