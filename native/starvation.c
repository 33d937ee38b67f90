/* Whether a run was starved of CPU: how much of its CPU's time went to work outside the run,
 * the bound on how long the run can be said to have waited for others (spawn.c takes the
 * smaller of this and its threads' run-queue delay, which says nothing of others but tells a
 * program that wanted the CPU from one that slept).
 *
 * A run stopped by the wall clock before its CPU limit is BUSY when something else took its
 * CPU: the judge cannot tell whether it fits its limit. The figure must be one the run cannot
 * inflate, or a failing program could make itself BUSY and leave the metrics. The run's own
 * threads waiting for each other (the scheduler's run-queue delay) is such a figure: eight
 * threads that each spin part of the time wait for each other several times the wall clock.
 * So the figure is the busy time of the run's CPU over the run (from /proc/stat: every task,
 * interrupts and time stolen by a hypervisor) less the run's own CPU time and less the
 * supervisor's own (its relay, its spawner threads: the judge's work for the run). What the
 * run does can only add to its own CPU time, which is subtracted, so it can only lower the
 * figure. /proc/stat counts in clock ticks (10 ms); BUSY needs half a wall clock of at least
 * two seconds, far above that grain. */
#include "starvation.h"

#include "log.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int stat_fd = -1;
static int watched_cpu = -1;
static uint64_t watched_count = 1;
static uint64_t ns_per_tick = 10000000;

void starvation_open(int cpu) {
    watched_cpu = cpu;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    watched_count = cpu >= 0 || online < 1 ? 1 : (uint64_t)online;
    long ticks = sysconf(_SC_CLK_TCK);
    if (ticks > 0)
        ns_per_tick = 1000000000ull / (uint64_t)ticks;
    stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
    if (stat_fd < 0)
        note("/proc/stat: %m; no run can be found starved of CPU (none is BUSY)");
}

static uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* The line of the watched CPU ("cpu3 ..."), or the first line (all CPUs) when none is. */
static const char *watched_line(const char *text) {
    if (watched_cpu < 0)
        return strncmp(text, "cpu ", 4) == 0 ? text + 4 : NULL;
    char label[32];
    int n = snprintf(label, sizeof(label), "\ncpu%d ", watched_cpu);
    const char *line = strstr(text, label);
    return line ? line + n : NULL;
}

/* /proc/stat is regenerated on every read from offset 0. */
static bool read_busy_ns(uint64_t *busy_ns) {
    static char text[1 << 18];
    ssize_t got = pread(stat_fd, text, sizeof(text) - 1, 0);
    if (got <= 0)
        return false;
    text[got] = '\0';
    const char *line = watched_line(text);
    unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
    if (!line || sscanf(line, "%llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system,
                        &idle, &iowait, &irq, &softirq, &steal) != 8)
        return false;
    *busy_ns = (uint64_t)(user + nice + system + irq + softirq + steal) * ns_per_tick;
    return true;
}

static uint64_t own_cpu_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t reaped_cpu_ns(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
        return 0;
    return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ull +
           (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull;
}

void starvation_mark(struct starvation_mark *mark) {
    mark->valid = stat_fd >= 0 && read_busy_ns(&mark->busy_ns);
    mark->supervisor_ns = own_cpu_ns();
    mark->reaped_ns = reaped_cpu_ns();
}

uint64_t starvation_reaped_ns(const struct starvation_mark *since) {
    return minus(reaped_cpu_ns(), since->reaped_ns);
}

uint64_t starvation_outside_ns(const struct starvation_mark *since, uint64_t run_cpu_ns) {
    uint64_t busy_ns;
    if (!since->valid || !read_busy_ns(&busy_ns))
        return 0;
    uint64_t judge_ns = minus(own_cpu_ns(), since->supervisor_ns);
    uint64_t outside = minus(minus(minus(busy_ns, since->busy_ns), run_cpu_ns), judge_ns);
    return outside / watched_count;
}
