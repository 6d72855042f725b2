/* SPDX-License-Identifier: MIT */
/* Facts about the machine read from the OS: CPUs, clock, caches, memory. */
#ifndef LANES_RUNTIME_MACHINE_H
#define LANES_RUNTIME_MACHINE_H

#include <stdint.h>

struct lanes_cache {
    unsigned level; /* 0 when unknown */
    uint64_t size;  /* bytes */
    unsigned line;  /* bytes */
};

/* Affinity domains, in the order OpenCL's NEXT_PARTITIONABLE walks them. */
enum lanes_domain {
    LANES_DOMAIN_NUMA,
    LANES_DOMAIN_L4,
    LANES_DOMAIN_L3,
    LANES_DOMAIN_L2,
    LANES_DOMAIN_L1,
    LANES_NUM_DOMAINS
};

/* One CPU the process may run on, and the domains it belongs to. */
struct lanes_cpu {
    unsigned id;                   /* the kernel's CPU number */
    int domain[LANES_NUM_DOMAINS]; /* an id shared by the CPUs of one domain, -1 unknown */
};

struct lanes_machine {
    char cpu_model[128];     /* "model name" of /proc/cpuinfo */
    char cpu_vendor[32];     /* "vendor_id", e.g. GenuineIntel */
    uint32_t pci_vendor;     /* PCI vendor id of the CPU maker, 0 if unknown */
    unsigned cpus;           /* CPUs this process may run on */
    struct lanes_cpu *cpu;   /* those CPUs in increasing order; NULL if unknown */
    unsigned clock_mhz;      /* maximum clock */
    uint64_t memory;         /* physical memory, bytes */
    struct lanes_cache l1d;  /* first-level data cache of one core */
    struct lanes_cache l2;   /* second level, per core */
    struct lanes_cache last; /* last-level data or unified cache */
};

/* Reads the facts once and returns them; never fails (falls back to safe values). */
const struct lanes_machine *lanes_machine(void);

#endif
