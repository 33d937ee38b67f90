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
 * So the figure is the busy time of the run's CPU over the run (every task, interrupts and
 * time stolen by a hypervisor) less the run's own CPU time and less the supervisor's own (its
 * relay, its spawner threads: the judge's work for the run). What the run does can only add to
 * its own CPU time, which is subtracted, so it can only lower the figure.
 *
 * Both sides of that subtraction must be measured on one exact clock. The run's CPU time is
 * exact (the cgroup's or the scheduler's nanoseconds); the busy columns of /proc/stat (user,
 * system, ...) are not on a kernel that samples them at its ticks (CONFIG_TICK_CPU_ACCOUNTING):
 * each tick charges its whole length to whatever it finds running. A program that runs only
 * around each tick (the ticks lie on a grid it can see) is charged ~100% of the CPU while it
 * uses a few percent, and the rest looked like outside work (tests/adversarial/tick_aligned.cpp).
 * So the busy time is taken as the wall clock less the CPU's idle time, read on a clock that
 * accounts idleness when it begins and ends:
 *
 *   nohz-idle: /proc/stat's idle and iowait, which a kernel whose tick can stop (NO_HZ, the
 *     default) accounts at idle entry and exit (get_cpu_idle_time_us), an idle period under way
 *     included; /proc/timer_list says whether it does (".nohz : 1"; root only). In 10 ms units.
 *   cpuidle: the residency of each of the CPU's cpuidle states, in microseconds, where the
 *     runs are pinned to one CPU. A state's time grows when the CPU leaves it, so it is read on
 *     the run's CPU itself, which ends any idle period under way; and only when the states cover
 *     the kernel's idle time since boot (not so under idle=poll, which bypasses them).
 *   none: only tick-sampled figures, on which a run can fake outside work. No run is BUSY:
 *     the figure is 0, and a starved run is the TLE of its wall clock.
 *
 * Interrupts the run's own timers raise while its CPU idles are not idle time: a program that
 * sleeps microseconds at a time inflates the figure by ~15% of the wall clock at most (measured
 * on nohz-idle; cpuidle counts them as idle), far from the half BUSY needs. */
#include "starvation.h"

#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

enum { MAX_IDLE_STATES = 16 };

static int stat_fd = -1;
static int watched_cpu = -1;
static uint64_t watched_count = 1;
static uint64_t ns_per_unit = 10000000; /* /proc/stat counts in USER_HZ units */
static enum busy_clock picked = BUSY_CLOCK_NONE;
static char picked_reason[384];
static int state_fds[MAX_IDLE_STATES];
static int state_count;

static uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* ---- /proc/stat -------------------------------------------------------------------------- */

/* The line of the watched CPU ("cpu3 ..."), or the first line (all CPUs) when none is. */
static const char *watched_line(const char *text) {
    if (watched_cpu < 0)
        return strncmp(text, "cpu ", 4) == 0 ? text + 4 : NULL;
    char label[32];
    int n = snprintf(label, sizeof(label), "\ncpu%d ", watched_cpu);
    const char *line = strstr(text, label);
    return line ? line + n : NULL;
}

/* The watched CPUs' idle and iowait time. /proc/stat is regenerated on every read. */
static bool read_stat_idle_ns(uint64_t *idle_ns) {
    static char text[1 << 18];
    ssize_t got = pread(stat_fd, text, sizeof(text) - 1, 0);
    if (got <= 0)
        return false;
    text[got] = '\0';
    const char *line = watched_line(text);
    unsigned long long busy[3], idle, iowait; /* user, nice and system come first */
    if (!line ||
        sscanf(line, "%llu %llu %llu %llu %llu", &busy[0], &busy[1], &busy[2], &idle, &iowait) != 5)
        return false;
    *idle_ns = (uint64_t)(idle + iowait) * ns_per_unit;
    return true;
}

/* Whether the kernel accounts idle time at idle entry and exit: 1 when /proc/timer_list shows
 * a CPU whose tick can stop (tick_nohz_active, which makes /proc/stat read that account),
 * 0 when it shows none, -1 when it cannot be read or says neither (why in `why`). */
static int nohz_idle_accounting(char *why, size_t cap) {
    FILE *list = fopen("/proc/timer_list", "re");
    if (!list) {
        snprintf(why, cap, "/proc/timer_list: %s", strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t size = 0;
    int active = -1, mode;
    while (active < 1 && getline(&line, &size, list) > 0) {
        if (sscanf(line, " .nohz : %d", &mode) == 1 || sscanf(line, " .nohz_mode : %d", &mode) == 1)
            active = mode > 0;
    }
    free(line);
    if (fclose(list) != 0)
        note("close /proc/timer_list: %m");
    if (active < 0)
        snprintf(why, cap, "/proc/timer_list names no tick mode");
    else if (!active)
        snprintf(why, cap, "the tick never stops (nohz off): idle time is sampled at ticks");
    return active;
}

/* ---- cpuidle ----------------------------------------------------------------------------- */

static void close_idle_states(void) {
    for (int i = 0; i < state_count; i++)
        if (close(state_fds[i]) < 0)
            note("close cpuidle state: %m");
    state_count = 0;
}

/* Every state of the CPU, or none: a state left out would count its idle time as busy. */
static bool open_idle_states(int cpu, char *why, size_t cap) {
    for (state_count = 0; state_count < MAX_IDLE_STATES; state_count++) {
        char path[96];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpuidle/state%d/time", cpu,
                 state_count);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT)
            break;
        if (fd < 0) {
            snprintf(why, cap, "%s: %s", path, strerror(errno));
            close_idle_states();
            return false;
        }
        state_fds[state_count] = fd;
    }
    if (state_count == 0)
        snprintf(why, cap, "cpu %d has no cpuidle states", cpu);
    return state_count > 0;
}

static bool sum_idle_states_ns(uint64_t *idle_ns) {
    uint64_t total_us = 0;
    for (int i = 0; i < state_count; i++) {
        char text[32];
        ssize_t got = pread(state_fds[i], text, sizeof(text) - 1, 0);
        if (got <= 0)
            return false;
        text[got] = '\0';
        char *end;
        errno = 0;
        unsigned long long us = strtoull(text, &end, 10);
        if (errno || end == text)
            return false;
        total_us += us;
    }
    *idle_ns = total_us * 1000ull;
    return true;
}

/* The states' residency, read on the watched CPU: a state's time is added when the CPU leaves
 * it, and this process running there means it has. */
static bool read_idle_states_ns(uint64_t *idle_ns) {
    cpu_set_t before, only;
    if (sched_getaffinity(0, sizeof(before), &before) < 0)
        return false;
    CPU_ZERO(&only);
    CPU_SET(watched_cpu, &only);
    bool moved = !CPU_EQUAL(&before, &only);
    if (moved && sched_setaffinity(0, sizeof(only), &only) < 0)
        return false;
    bool read = sched_getcpu() == watched_cpu && sum_idle_states_ns(idle_ns);
    if (moved && sched_setaffinity(0, sizeof(before), &before) < 0) {
        note("cpu affinity back: %m");
        return false;
    }
    return read;
}

/* Whether the states hold (nearly) all of the CPU's idle time since boot, as /proc/stat counts
 * it: idle=poll, for one, idles outside them. */
static bool idle_states_cover_idle(char *why, size_t cap) {
    uint64_t states_ns = 0, stat_ns = 0;
    if (!read_idle_states_ns(&states_ns) || !read_stat_idle_ns(&stat_ns)) {
        snprintf(why, cap, "cpu %d's idle time cannot be read", watched_cpu);
        return false;
    }
    if (stat_ns == 0 || states_ns < stat_ns / 10 * 9) {
        snprintf(why, cap, "cpu %d's cpuidle states hold %llu ms of its %llu ms idle since boot",
                 watched_cpu, (unsigned long long)(states_ns / 1000000),
                 (unsigned long long)(stat_ns / 1000000));
        return false;
    }
    return true;
}

static bool cpuidle_usable(char *why, size_t cap) {
    if (watched_cpu < 0) {
        snprintf(why, cap, "runs are not pinned to one CPU");
        return false;
    }
    if (!open_idle_states(watched_cpu, why, cap))
        return false;
    if (!idle_states_cover_idle(why, cap)) {
        close_idle_states();
        return false;
    }
    return true;
}

/* ---- the clock --------------------------------------------------------------------------- */

static void not_asked(enum busy_clock clock, enum busy_clock best, char *why, size_t cap) {
    snprintf(why, cap, "%s not asked for (--busy-clock %s)", busy_clock_text(clock),
             busy_clock_text(best));
}

static enum busy_clock pick_clock(enum busy_clock best) {
    char no_nohz[192] = "", no_cpuidle[192] = "";
    if (stat_fd < 0) {
        snprintf(picked_reason, sizeof(picked_reason), "/proc/stat cannot be read");
        return BUSY_CLOCK_NONE;
    }
    if (best > BUSY_CLOCK_NOHZ_IDLE)
        not_asked(BUSY_CLOCK_NOHZ_IDLE, best, no_nohz, sizeof(no_nohz));
    else if (nohz_idle_accounting(no_nohz, sizeof(no_nohz)) == 1)
        return BUSY_CLOCK_NOHZ_IDLE;
    if (best > BUSY_CLOCK_CPUIDLE)
        not_asked(BUSY_CLOCK_CPUIDLE, best, no_cpuidle, sizeof(no_cpuidle));
    else if (cpuidle_usable(no_cpuidle, sizeof(no_cpuidle))) {
        snprintf(picked_reason, sizeof(picked_reason), "%s", no_nohz);
        return BUSY_CLOCK_CPUIDLE;
    }
    snprintf(picked_reason, sizeof(picked_reason), "%s; %s", no_nohz, no_cpuidle);
    return BUSY_CLOCK_NONE;
}

void starvation_open(int cpu, enum busy_clock best) {
    watched_cpu = cpu;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    watched_count = cpu >= 0 || online < 1 ? 1 : (uint64_t)online;
    long units = sysconf(_SC_CLK_TCK);
    if (units > 0)
        ns_per_unit = 1000000000ull / (uint64_t)units;
    stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
    picked = pick_clock(best);
    note("BUSY measured on %s%s%s", busy_clock_text(picked), picked_reason[0] ? ": " : "",
         picked_reason);
}

enum busy_clock starvation_clock(const char **reason) {
    *reason = picked_reason;
    return picked;
}

static bool read_idle_on(enum busy_clock clock, uint64_t *idle_ns) {
    switch (clock) {
    case BUSY_CLOCK_NOHZ_IDLE: return read_stat_idle_ns(idle_ns);
    case BUSY_CLOCK_CPUIDLE: return read_idle_states_ns(idle_ns);
    case BUSY_CLOCK_NONE: break;
    }
    return false;
}

/* The watched CPUs' idle time on `clock`, and when it was read. */
static bool read_idle_ns(enum busy_clock clock, uint64_t *idle_ns, uint64_t *at_ns) {
    uint64_t before = now_ns();
    bool read = read_idle_on(clock, idle_ns);
    *at_ns = before + (now_ns() - before) / 2;
    return read;
}

/* ---- a run ------------------------------------------------------------------------------- */

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
    mark->clock = picked;
    if (!read_idle_ns(picked, &mark->idle_ns, &mark->at_ns))
        mark->clock = BUSY_CLOCK_NONE;
    mark->supervisor_ns = own_cpu_ns();
    mark->reaped_ns = reaped_cpu_ns();
}

uint64_t starvation_reaped_ns(const struct starvation_mark *since) {
    return minus(reaped_cpu_ns(), since->reaped_ns);
}

enum busy_clock starvation_outside_ns(const struct starvation_mark *since, uint64_t run_cpu_ns,
                                      uint64_t *outside_ns) {
    uint64_t idle_ns, at_ns;
    *outside_ns = 0;
    if (since->clock == BUSY_CLOCK_NONE || !read_idle_ns(since->clock, &idle_ns, &at_ns))
        return BUSY_CLOCK_NONE;
    uint64_t wall_ns = minus(at_ns, since->at_ns) * watched_count;
    uint64_t busy_ns = minus(wall_ns, minus(idle_ns, since->idle_ns));
    uint64_t judge_ns = minus(own_cpu_ns(), since->supervisor_ns);
    *outside_ns = minus(minus(busy_ns, run_cpu_ns), judge_ns) / watched_count;
    return since->clock;
}
