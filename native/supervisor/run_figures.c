/* A run's figures as the kernel gives them: rusage of what was reaped, the scheduler's view of
 * live processes from /proc (no-cgroup mode), the CPU so far, /tmp's use; and the saturating
 * arithmetic the limits are computed with. */
#include "run_figures.h"

#include "cgroups.h"
#include "child.h"
#include "slot.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

uint64_t timeval_ns(struct timeval tv) {
    return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

static uint64_t clock_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) < 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void account_rusage(struct run_result *res, const struct rusage *ru, uint64_t *rusage_cpu) {
    *rusage_cpu += timeval_ns(ru->ru_utime) + timeval_ns(ru->ru_stime);
    uint64_t rss = (uint64_t)ru->ru_maxrss * 1024u;
    if (rss > res->memory_bytes)
        res->memory_bytes = rss;
}

/* A small /proc file as a string; false when the process is gone or the file empty. */
static bool read_proc_file(const char *path, char *buf, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    return true;
}

static void add_process_schedstat(long pid, struct sched_figures *sum) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%ld/task", pid);
    DIR *tasks = opendir(path);
    if (!tasks)
        return;
    struct dirent *task;
    while ((task = readdir(tasks))) {
        if (task->d_name[0] == '.')
            continue;
        char file[128], buf[128];
        snprintf(file, sizeof(file), "/proc/%ld/task/%.32s/schedstat", pid, task->d_name);
        if (!read_proc_file(file, buf, sizeof(buf)))
            continue;
        unsigned long long cpu, waiting;
        if (sscanf(buf, "%llu %llu", &cpu, &waiting) != 2)
            continue;
        sum->cpu_ns += cpu;
        sum->waiting_ns += waiting;
    }
    closedir(tasks);
}

/* cutime and cstime, the 16th and 17th fields, after the command name in parentheses. */
static void add_reaped_children_cpu(long pid, struct sched_figures *sum) {
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    if (!read_proc_file(path, buf, sizeof(buf)))
        return;
    const char *after_name = strrchr(buf, ')');
    long long children_user, children_system;
    if (!after_name ||
        sscanf(after_name + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %lld %lld",
               &children_user, &children_system) != 2 ||
        children_user < 0 || children_system < 0)
        return;
    long ticks = sysconf(_SC_CLK_TCK);
    sum->reaped_ns += (uint64_t)(children_user + children_system) * 1000000000ull /
                      (uint64_t)(ticks > 0 ? ticks : 100);
}

static uint64_t process_rss_bytes(long pid) {
    char path[64], buf[128];
    snprintf(path, sizeof(path), "/proc/%ld/statm", pid);
    if (!read_proc_file(path, buf, sizeof(buf)))
        return 0;
    unsigned long long size_pages, resident_pages;
    if (sscanf(buf, "%llu %llu", &size_pages, &resident_pages) != 2)
        return 0;
    return (uint64_t)resident_pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* The scheduler's figures and resident memory of every live process of the run, from /proc:
 * the no-cgroup mode's view (this is the sandbox's own /proc, where the init is pid 1). */
void scan_live_processes(struct sched_figures *sched, uint64_t *rss_bytes) {
    DIR *dir = opendir("/proc");
    if (!dir)
        return;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end || pid <= 1)
            continue;
        if (sched) {
            add_process_schedstat(pid, sched);
            add_reaped_children_cpu(pid, sched);
        }
        if (rss_bytes)
            *rss_bytes += process_rss_bytes(pid);
    }
    closedir(dir);
}

uint64_t saturating_sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* Limits come from the request: arithmetic on them saturates instead of wrapping. */
uint64_t saturating_mul(uint64_t a, uint64_t b) {
    uint64_t product;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

uint64_t saturating_add(uint64_t a, uint64_t b) {
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

/* The run's CPU time so far, less the child's set-up before exec. */
uint64_t program_cpu_ns(clockid_t main_clock, const struct handshake *hello) {
    uint64_t used = 0;
    if (cgroup_cpu_ns(&used) == 0) {
        used = saturating_sub(used, hello->setup_in_cgroup_ns);
    } else {
        struct sched_figures sched = {0, 0, 0};
        scan_live_processes(&sched, NULL);
        used = saturating_sub(sched.cpu_ns, hello->setup_ns);
    }
    uint64_t main_ns = saturating_sub(clock_ns(main_clock), hello->setup_ns);
    return main_ns > used ? main_ns : used;
}

/* Files in the run's /tmp (a tmpfs emptied between runs) are memory no RSS and no address
 * space limit counts: without a memory cgroup the watchdog adds them itself. */
uint64_t tmp_used_bytes(void) {
    struct statfs fs;
    if (statfs("/tmp", &fs) < 0)
        return 0;
    return (uint64_t)(fs.f_blocks - fs.f_bfree) * (uint64_t)fs.f_bsize;
}
