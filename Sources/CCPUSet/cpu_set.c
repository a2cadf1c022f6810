#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include "cpu_set.h"

int bl_allowed_cpu_count(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
    /* More CPUs than a cpu_set_t holds (1024): ask with a set large enough. */
    for (int cpus = 2048; cpus <= 1 << 16; cpus *= 2) {
        cpu_set_t *large = CPU_ALLOC(cpus);
        if (!large) return 0;
        size_t size = CPU_ALLOC_SIZE(cpus);
        int count = sched_getaffinity(0, size, large) == 0 ? CPU_COUNT_S(size, large) : 0;
        CPU_FREE(large);
        if (count > 0) return count;
    }
    return 0;
}

int bl_current_cpu(void) { return sched_getcpu(); }

int bl_move_off_cpu(int cpu) {
    cpu_set_t allowed;
    if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getcpu() != cpu) return 0;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0;
    if (!CPU_ISSET(cpu, &allowed) || CPU_COUNT(&allowed) < 2) return 0;
    cpu_set_t elsewhere = allowed;
    CPU_CLR(cpu, &elsewhere);
    if (sched_setaffinity(0, sizeof elsewhere, &elsewhere) != 0) return 0;
    sched_setaffinity(0, sizeof allowed, &allowed);
    return 1;
}
