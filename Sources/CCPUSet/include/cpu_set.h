#ifndef BLURLABEL_CPU_SET_H
#define BLURLABEL_CPU_SET_H
/* The CPUs this process may run on (taskset, a container's cpuset): glibc's sched_getaffinity,
   a GNU extension that Swift's Glibc module does not declare (it needs _GNU_SOURCE). */

/* How many CPUs the calling thread may run on; 0 if the system cannot say. */
int bl_allowed_cpu_count(void);

#endif
