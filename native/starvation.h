/* Whether a run was starved of CPU by work outside it (BUSY), measured so that nothing the
 * run does can make it look starved: see starvation.c. */
#ifndef JUDGE_STARVATION_H
#define JUDGE_STARVATION_H

#include <stdbool.h>
#include <stdint.h>

/* Opens /proc/stat while the host's /proc is still visible (the sandbox's shows processes
 * only). `cpu` is the CPU the runs are pinned to, -1 for all of them. */
void starvation_open(int cpu);

/* The CPU's busy time and the supervisor's own CPU time when a run starts. */
struct starvation_mark {
    bool valid;
    uint64_t busy_ns;       /* the watched CPUs' busy time (every task, interrupts, steal) */
    uint64_t supervisor_ns; /* this process's CPU: the relay, the spawner threads */
    uint64_t reaped_ns;     /* CPU of the processes this process has reaped */
};
void starvation_mark(struct starvation_mark *mark);

/* The CPU this process's reaped children used since the mark: part of the run's own CPU. */
uint64_t starvation_reaped_ns(const struct starvation_mark *since);

/* Since the mark, per watched CPU: the time its CPU served work outside the run, given the
 * run's own CPU time over the same span. 0 when /proc/stat cannot be read. */
uint64_t starvation_outside_ns(const struct starvation_mark *since, uint64_t run_cpu_ns);

#endif
