#ifndef BLURLABEL_CPU_SET_H
#define BLURLABEL_CPU_SET_H
/* The CPUs this process may run on (taskset, a container's cpuset) and the one a thread runs on:
   glibc's sched_getaffinity, sched_setaffinity and sched_getcpu, GNU extensions that Swift's Glibc
   module does not declare (they need _GNU_SOURCE). */

/* How many CPUs the calling thread may run on; 0 if the system cannot say. */
int bl_allowed_cpu_count(void);

/* The CPU the calling thread is running on (a vDSO call, no system call); -1 if unknown. */
int bl_current_cpu(void);

/* Moves the calling thread off `cpu` when it runs there and may run on another CPU: narrows its
   affinity to leave `cpu` out (the kernel migrates the thread before the call returns), then
   gives the affinity back as it was, so the thread stays where it went and may go anywhere again
   later. 1 if it moved. */
int bl_move_off_cpu(int cpu);

#endif
