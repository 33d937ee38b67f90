/* The checks that stop a run: its wall clock (and whether it was starved), its CPU time and,
 * without a memory cgroup, its memory, each on its own schedule. */
#include "run_checks.h"

#include "cgroups.h"
#include "protocol.h"
#include "run.h"
#include "run_figures.h"
#include "slot.h"
#include "starvation.h"

#include <unistd.h>

/* Without a memory cgroup the run's resident memory is sampled this often. */
#define MEMORY_WATCH_NS (5 * 1000000ull)

void schedule_checks(struct run *run) {
    run->wall_deadline = saturating_add(run->start, saturating_mul(run->req->wall_ms, 1000000ull));
    run->cpu_limit = saturating_mul(run->req->cpu_ms, 1000000ull);
    run->cores = run->cfg->cpu >= 0 ? 1 : (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
    run->next_cpu_check = saturating_add(run->start, run->cpu_limit / run->cores);
    /* Without a memory cgroup nothing stops a memory hog but this watch (and RLIMIT_AS far
     * above the limit, a safety net for the host). */
    run->next_memory_check =
        run->cfg->cgroup == CGROUP_NONE ? run->start + MEMORY_WATCH_NS : UINT64_MAX;
}

uint64_t next_check_at(const struct run *run) {
    uint64_t wake =
        run->wall_deadline < run->next_cpu_check ? run->wall_deadline : run->next_cpu_check;
    return run->next_memory_check < wake ? run->next_memory_check : wake;
}

/* All the CPU the run's processes have used so far, the ones already reaped included. */
static uint64_t run_cpu_so_far_ns(const struct run *run, const struct sched_figures *live) {
    uint64_t used = 0;
    if (cgroup_cpu_ns(&used) == 0)
        return used;
    return live->cpu_ns + live->reaped_ns + starvation_reaped_ns(&run->starvation);
}

static void check_wall_clock(struct run *run, uint64_t now) {
    if (stopped(run) || now < run->wall_deadline)
        return;
    /* A starved program (a busy machine) from a slow or sleeping one: the time its threads
     * waited for a CPU, but never more than its CPU served work outside the run. The wait
     * alone a program can inflate (its threads waiting for each other); the outside work it
     * cannot, and it says nothing of a program that sleeps. */
    struct sched_figures live = {0, 0, 0};
    scan_live_processes(&live, NULL);
    uint64_t outside;
    enum busy_clock clock =
        starvation_outside_ns(&run->starvation, run_cpu_so_far_ns(run, &live), &outside);
    run->res->busy_clock = busy_clock_text(clock);
    run->res->waiting_ns = live.waiting_ns < outside ? live.waiting_ns : outside;
    run->res->killed_by = killed_by_text(KILLED_BY_WALL_TIMER);
}

/* The CPU limit is checked on a schedule rather than with a POSIX CPU timer: seen from another
 * process, CPU clocks and timers advance only at scheduler ticks (4 ms here) either way. Runs
 * are pinned to one CPU, so the run's CPU time grows no faster than the wall clock: the next
 * check is due when the remaining budget could be spent, and the checks converge on the limit
 * within a tick. */
static void check_cpu_time(struct run *run, uint64_t now) {
    if (stopped(run) || now < run->next_cpu_check)
        return;
    uint64_t used = program_cpu_ns(run->clock, &run->hello);
    if (used >= run->cpu_limit) {
        run->res->killed_by = killed_by_text(KILLED_BY_CPU_TIMER);
        return;
    }
    uint64_t step = (run->cpu_limit - used) / run->cores;
    run->next_cpu_check = saturating_add(now, step > 1000000ull ? step : 1000000ull);
}

static void check_memory(struct run *run, uint64_t now) {
    if (stopped(run) || now < run->next_memory_check)
        return;
    uint64_t resident = tmp_used_bytes();
    scan_live_processes(NULL, &resident);
    if (resident > run->res->memory_bytes)
        run->res->memory_bytes = resident;
    if (resident > run->req->memory_bytes)
        run->res->killed_by = killed_by_text(KILLED_BY_MEMORY);
    run->next_memory_check = now + MEMORY_WATCH_NS;
}

/* Whatever is due of the wall, CPU and memory checks. */
void run_due_checks(struct run *run, uint64_t now) {
    check_wall_clock(run, now);
    check_cpu_time(run, now);
    check_memory(run, now);
}
