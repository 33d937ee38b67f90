/* run_figures.c: a run's CPU, memory and waiting figures, and saturating arithmetic. */
#ifndef JUDGE_RUN_FIGURES_H
#define JUDGE_RUN_FIGURES_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

struct rusage;
struct run_result;
struct handshake;

/* What the scheduler says of a run's threads, from schedstat: the CPU time they got (the
 * tick-based figures of /proc/<pid>/stat would round each process down by up to 10 ms) and
 * the time they were ready to run but waited for a CPU; and, from /proc/<pid>/stat, what the
 * children each process reaped used. */
struct sched_figures {
    uint64_t cpu_ns;
    uint64_t waiting_ns;
    uint64_t reaped_ns;
};

uint64_t timeval_ns(struct timeval tv);
/* Adds a reaped process's CPU to `rusage_cpu` and its peak RSS to the result's memory. */
void account_rusage(struct run_result *res, const struct rusage *ru, uint64_t *rusage_cpu);
/* The scheduler's figures and resident memory of every live process of the run, from /proc:
 * the no-cgroup mode's view (this is the sandbox's own /proc, where the init is pid 1). */
void scan_live_processes(struct sched_figures *sched, uint64_t *rss_bytes);
/* The run's CPU time so far, less the child's set-up before exec. */
uint64_t program_cpu_ns(clockid_t main_clock, const struct handshake *hello);
/* Files in the run's /tmp (a tmpfs emptied between runs) are memory no RSS and no address
 * space limit counts: without a memory cgroup the watchdog adds them itself. */
uint64_t tmp_used_bytes(void);

/* Limits come from the request: arithmetic on them saturates instead of wrapping. */
uint64_t saturating_mul(uint64_t a, uint64_t b);
uint64_t saturating_add(uint64_t a, uint64_t b);
uint64_t saturating_sub(uint64_t a, uint64_t b); /* 0 rather than below */

#endif
