/* SPDX-License-Identifier: MIT */
/* The benchmarks' C baselines: one thread pinned to each CPU of the process's affinity mask. */
#ifndef LANES_BENCH_PINNED_H
#define LANES_BENCH_PINNED_H

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

/* The CPUs of the affinity mask in cpu[] (CPU 0 when it cannot be read): how many. */
static inline int bench_cpus(int cpu[CPU_SETSIZE])
{
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) != 0) {
        CPU_ZERO(&mask);
        CPU_SET(0, &mask);
    }
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &mask))
            cpu[n++] = c;
    return n;
}

/*
 * fn(chunks + j * size) on a thread pinned to cpu[j], for each j < n, and
 * all of them joined (thread creation included, as launching is in a kernel's).
 */
static inline void bench_run_pinned(void *(*fn)(void *), void *chunks, size_t size, const int *cpu,
                                    int n)
{
    pthread_t *tid = calloc((size_t)n, sizeof *tid);
    if (!tid)
        exit(1);
    for (int j = 0; j < n; j++) {
        pthread_attr_t attr;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu[j], &one);
        pthread_attr_init(&attr);
        pthread_attr_setaffinity_np(&attr, sizeof one, &one);
        if (pthread_create(&tid[j], &attr, fn, (char *)chunks + (size_t)j * size) != 0)
            exit(1);
        pthread_attr_destroy(&attr);
    }
    for (int j = 0; j < n; j++)
        pthread_join(tid[j], NULL);
    free(tid);
}

#endif
