/* Whether a run was starved of CPU by work outside it (BUSY), measured so that nothing the
 * run does can make it look starved: see starvation.c. */
#ifndef JUDGE_STARVATION_H
#define JUDGE_STARVATION_H

#include "protocol.h"

#include <stdbool.h>
#include <stdint.h>

/* Opens /proc/stat while the host's /proc is still visible (the sandbox's shows processes
 * only) and picks the exact clock the slot measures idle time on: the best the host offers, no
 * better than `best`. `cpu` is the CPU the runs are pinned to, -1 for all of them. */
void starvation_open(int cpu, enum busy_clock best);

/* The clock picked, and why no better one (empty for nohz-idle). */
enum busy_clock starvation_clock(const char **reason);

/* The CPU's idle time and the supervisor's own CPU time when a run starts. */
struct starvation_mark {
    enum busy_clock clock;  /* BUSY_CLOCK_NONE: no exact clock, or it could not be read */
    uint64_t at_ns;         /* when the idle time was read (CLOCK_MONOTONIC) */
    uint64_t idle_ns;       /* the watched CPUs' idle time (idle and iowait) on that clock */
    uint64_t supervisor_ns; /* this process's CPU: the relay, the spawner threads */
    uint64_t reaped_ns;     /* CPU of the processes this process has reaped */
};
void starvation_mark(struct starvation_mark *mark);

/* The CPU this process's reaped children used since the mark: part of the run's own CPU. */
uint64_t starvation_reaped_ns(const struct starvation_mark *since);

/* Since the mark, per watched CPU: the time its CPU served work outside the run, given the
 * run's own CPU time over the same span; returns the clock it was measured on. 0 on
 * BUSY_CLOCK_NONE: no run is starved without an exact clock. */
enum busy_clock starvation_outside_ns(const struct starvation_mark *since, uint64_t run_cpu_ns,
                                      uint64_t *outside_ns);

#endif
