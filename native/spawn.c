/* One run: fork the program inside the slot's namespaces, confine it, watch its CPU clock, wall
 * clock, output and refused syscalls, then kill everything it left behind and collect figures. */
#include "supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SYNC_FD 3
/* Without a memory cgroup the run's resident memory is sampled this often. */
#define MEMORY_WATCH_NS (5 * 1000000ull)


uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t timeval_ns(struct timeval tv) {
    return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

static uint64_t clock_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) < 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* What the child reports before it execs: its seccomp listener, and the CPU its own set-up
 * used (in all, and since it joined the run's cgroup), which is the sandbox's, not the
 * program's, and is taken off the run's figure. */
struct handshake {
    char tag;                 /* 'L' */
    int listener;
    uint64_t setup_ns;        /* thread CPU from fork to exec */
    uint64_t setup_in_cgroup_ns;
} __attribute__((packed));

/* ---- the child: runs in the slot's namespaces, ends in execve ---- */

static void child_fail(const char *what) {
    char msg[256];
    int n = snprintf(msg, sizeof(msg), "E%s: %s", what, strerror(errno));
    if (n > 0 && write(SYNC_FD, msg, (size_t)n) < 0) {
        /* Nothing left to report to. */
    }
    _exit(127);
}

static void set_limit(int resource, uint64_t soft, uint64_t hard, const char *what) {
    struct rlimit rl = {.rlim_cur = soft, .rlim_max = hard};
    if (setrlimit(resource, &rl) < 0)
        child_fail(what);
}

static void drop_capabilities(void) {
    for (int cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
            child_fail("drop capability bounding set");
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
        child_fail("clear ambient capabilities");
    /* uid 0 inside the namespace (the unprivileged mode) must not regain capabilities on exec. */
    if (prctl(PR_SET_SECUREBITS, 0x2f /* NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED and locks */,
              0, 0, 0) < 0)
        child_fail("securebits");
}

static void clear_capability_sets(void) {
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof(data));
    if (syscall(SYS_capset, &header, data) < 0)
        child_fail("capset");
}

static const char *resolve_program(const struct run_request *req, char *buf, size_t cap) {
    const char *name = req->argv[0];
    if (strchr(name, '/'))
        return name;
    const char *path = "/usr/local/bin:/usr/bin:/bin";
    for (int i = 0; i < req->envc; i++)
        if (strncmp(req->envp[i], "PATH=", 5) == 0)
            path = req->envp[i] + 5;
    while (*path) {
        size_t len = strcspn(path, ":");
        if (snprintf(buf, cap, "%.*s/%s", (int)len, path, name) < (int)cap &&
            access(buf, X_OK) == 0)
            return buf;
        path += len;
        if (*path == ':')
            path++;
    }
    return name;
}

static int move_fd_high(int fd) {
    if (fd < 0)
        return -1;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 16);
    if (high < 0)
        child_fail("dup");
    return high;
}

static void place_fd(int fd, int target) {
    if (fd < 0)
        return;
    if (dup2(fd, target) < 0)
        child_fail("dup2");
}

static void __attribute__((noreturn))
child_main(const struct slot_config *cfg, const struct run_request *req, int out_w, int err_w,
           int sync_fd, bool born_in_cgroup) {
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) < 0)
        _exit(127);
    signal(SIGPIPE, SIG_DFL);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        _exit(127);

    int sync_hi = move_fd_high(sync_fd);
    int in_hi = move_fd_high(req->stdin_fd);
    int out_hi = move_fd_high(out_w);
    int err_hi = move_fd_high(err_w);
    place_fd(sync_hi, SYNC_FD);
    /* dup2 clears close-on-exec; the supervisor reads EOF here as "exec succeeded". */
    if (fcntl(SYNC_FD, F_SETFD, FD_CLOEXEC) < 0)
        child_fail("sync descriptor");
    if (!born_in_cgroup && cgroup_attach_self() < 0)
        child_fail("join cgroup");
    uint64_t joined_ns = born_in_cgroup ? 0 : clock_ns(CLOCK_THREAD_CPUTIME_ID);
    if (unshare(CLONE_NEWCGROUP) < 0)
        child_fail("cgroup namespace");
    if (cfg->cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cfg->cpu, &set);
        if (sched_setaffinity(0, sizeof(set), &set) < 0)
            child_fail("cpu affinity");
    }
    if (in_hi >= 0) {
        place_fd(in_hi, 0);
    } else {
        int null = open("/dev/null", O_RDONLY);
        if (null < 0)
            child_fail("open /dev/null");
        place_fd(null, 0);
    }
    place_fd(out_hi, 1);
    place_fd(err_hi, 2);
    if (syscall(SYS_close_range, SYNC_FD + 1, ~0u, 0) < 0)
        child_fail("close descriptors");

    uint64_t cpu_seconds = req->cpu_ms / 1000 + (req->cpu_ms % 1000 != 0) + 1;
    set_limit(RLIMIT_CPU, cpu_seconds, cpu_seconds + 1, "RLIMIT_CPU");
    set_limit(RLIMIT_STACK, req->memory_bytes, req->memory_bytes, "RLIMIT_STACK");
    set_limit(RLIMIT_FSIZE, req->file_size_bytes, req->file_size_bytes, "RLIMIT_FSIZE");
    set_limit(RLIMIT_NOFILE, req->open_files, req->open_files, "RLIMIT_NOFILE");
    set_limit(RLIMIT_CORE, 0, 0, "RLIMIT_CORE");
    set_limit(RLIMIT_MSGQUEUE, 0, 0, "RLIMIT_MSGQUEUE");
    set_limit(RLIMIT_NPROC, req->processes, req->processes, "RLIMIT_NPROC");
    if (req->address_space_bytes)
        set_limit(RLIMIT_AS, req->address_space_bytes, req->address_space_bytes, "RLIMIT_AS");

    if (setpriority(PRIO_PROCESS, 0, 0) < 0)
        child_fail("priority");
    if (chdir(req->cwd ? req->cwd : "/box") < 0)
        child_fail("chdir");
    char program_buf[PATH_MAX];
    const char *program = resolve_program(req, program_buf, sizeof(program_buf));

    drop_capabilities();
    if (cfg->privileged) {
        if (setgroups(0, NULL) < 0 || setresgid(INSIDE_RUN_UID, INSIDE_RUN_UID, INSIDE_RUN_UID) < 0 ||
            setresuid(INSIDE_RUN_UID, INSIDE_RUN_UID, INSIDE_RUN_UID) < 0)
            child_fail("drop to the run uid");
    } else {
        clear_capability_sets();
    }

    /* The uid change made us non-dumpable, which would keep the supervisor from taking the
     * seccomp listener with pidfd_getfd; exec recomputes it anyway. */
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
        child_fail("dumpable");
    int listener = seccomp_install(req->bpf, req->bpf_len);
    if (listener < 0)
        child_fail("install seccomp filter");
    /* From here on only read, write, clock_gettime and execve: the filter is in force. */
    struct handshake hello = {.tag = 'L', .listener = listener};
    hello.setup_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    hello.setup_in_cgroup_ns = hello.setup_ns - joined_ns;
    char go;
    if (write(SYNC_FD, &hello, sizeof(hello)) != (ssize_t)sizeof(hello) ||
        read(SYNC_FD, &go, 1) != 1)
        _exit(127);
    execve(program, req->argv, req->envp);
    int err = errno;
    char fail[1 + sizeof(int)];
    fail[0] = 'X';
    memcpy(fail + 1, &err, sizeof(int));
    if (write(SYNC_FD, fail, sizeof(fail)) < 0) {
        /* The supervisor sees EOF and reports it. */
    }
    _exit(127);
}

/* ---- the supervisor side ---- */

static void kill_everything(void) {
    cgroup_kill_all();
    /* As init of the pid namespace, kill(-1) reaches every other process of the run. */
    if (kill(-1, SIGKILL) < 0 && errno != ESRCH) {
        /* Nothing else can be done from here; reaping below still proceeds. */
    }
}

static void account(struct run_result *res, const struct rusage *ru, uint64_t *rusage_cpu) {
    *rusage_cpu += timeval_ns(ru->ru_utime) + timeval_ns(ru->ru_stime);
    uint64_t rss = (uint64_t)ru->ru_maxrss * 1024u;
    if (rss > res->memory_bytes)
        res->memory_bytes = rss;
}

/* What the scheduler says of a run's threads, from schedstat: the CPU time they got, and the
 * time they were ready to run but waited for a CPU (the tick-based figures of /proc/<pid>/stat
 * would round each process down by up to 10 ms). */
struct sched_figures {
    uint64_t cpu_ns;
    uint64_t waiting_ns;
};

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
        int fd = open(file, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        if (n <= 0)
            continue;
        buf[n] = '\0';
        unsigned long long cpu, waiting;
        if (sscanf(buf, "%llu %llu", &cpu, &waiting) != 2)
            continue;
        sum->cpu_ns += cpu;
        sum->waiting_ns += waiting;
    }
    closedir(tasks);
}

static uint64_t process_rss_bytes(long pid) {
    char path[64], buf[128];
    snprintf(path, sizeof(path), "/proc/%ld/statm", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof(buf) - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    unsigned long long size_pages, resident_pages;
    if (sscanf(buf, "%llu %llu", &size_pages, &resident_pages) != 2)
        return 0;
    return (uint64_t)resident_pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* The scheduler's figures and resident memory of every live process of the run, from /proc:
 * the no-cgroup mode's view (this is the sandbox's own /proc, where the init is pid 1). */
static void scan_live_processes(struct sched_figures *sched, uint64_t *rss_bytes) {
    DIR *dir = opendir("/proc");
    if (!dir)
        return;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end || pid <= 1)
            continue;
        if (sched)
            add_process_schedstat(pid, sched);
        if (rss_bytes)
            *rss_bytes += process_rss_bytes(pid);
    }
    closedir(dir);
}

static uint64_t minus(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* Limits come from the request: arithmetic on them saturates instead of wrapping. */
static uint64_t saturating_mul(uint64_t a, uint64_t b) {
    uint64_t product;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

static uint64_t saturating_add(uint64_t a, uint64_t b) {
    uint64_t sum;
    return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

/* The run's CPU time so far, less the child's set-up before exec. */
static uint64_t program_cpu_ns(clockid_t main_clock, const struct handshake *hello) {
    uint64_t used = 0;
    if (cgroup_cpu_ns(&used) == 0) {
        used = minus(used, hello->setup_in_cgroup_ns);
    } else {
        struct sched_figures sched = {0, 0};
        scan_live_processes(&sched, NULL);
        used = minus(sched.cpu_ns, hello->setup_ns);
    }
    uint64_t main_ns = minus(clock_ns(main_clock), hello->setup_ns);
    return main_ns > used ? main_ns : used;
}

/* fork(), or on cgroup v2 clone3 with CLONE_INTO_CGROUP: the child starts in the run's
 * cgroup, which saves the migration of a task into it. */
static pid_t fork_child(bool *born_in_cgroup) {
    int run_dir = cgroup_run_dir_v2();
    if (run_dir >= 0) {
        struct clone_args args;
        memset(&args, 0, sizeof(args));
        args.flags = CLONE_INTO_CGROUP;
        args.exit_signal = SIGCHLD;
        args.cgroup = (uint64_t)run_dir;
        long pid = syscall(SYS_clone3, &args, sizeof(args));
        if (pid >= 0) {
            *born_in_cgroup = true;
            return (pid_t)pid;
        }
        /* Older kernels, or a cgroup clone3 cannot enter: fork and join from the child. */
    }
    *born_in_cgroup = false;
    return fork();
}

static int read_full(int fd, void *buf, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = read(fd, (char *)buf + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return (int)done;
        done += (size_t)n;
    }
    return (int)done;
}

static void close_request_fds(const struct run_request *req) {
    if (req->stdin_fd >= 0)
        close(req->stdin_fd);
    if (req->stdout_fd >= 0)
        close(req->stdout_fd);
    if (req->stderr_fd >= 0)
        close(req->stderr_fd);
}

static void set_error(struct run_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_error(struct run_result *res, const char *fmt, ...) {
    if (res->error[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->error, sizeof(res->error), fmt, ap);
    va_end(ap);
}

void run_program(const struct slot_config *cfg, const struct run_request *req,
                 struct run_result *res) {
    memset(res, 0, sizeof(*res));
    res->exit_code = -1;
    res->syscall_nr = -1;
    res->cpu_source = "rusage";
    res->memory_source = "rusage";

    int out[2] = {-1, -1}, err[2] = {-1, -1}, sync[2] = {-1, -1};
    struct sink sinks[2];
    sink_open(&sinks[0], -1, -1, 0);
    sink_open(&sinks[1], -1, -1, 0);
    int pidfd = -1, listener = -1;
    uint64_t rusage_cpu = 0;
    struct handshake hello = {0};

    if (cgroup_run_begin(req, res->error, sizeof(res->error)) < 0)
        goto done;
    if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sync) < 0) {
        set_error(res, "pipes: %s", strerror(errno));
        goto done;
    }

    uint64_t start = now_ns();
    bool born_in_cgroup;
    pid_t child = fork_child(&born_in_cgroup);
    if (child < 0) {
        set_error(res, "fork: %s", strerror(errno));
        goto done;
    }
    if (child == 0)
        child_main(cfg, req, out[1], err[1], sync[1], born_in_cgroup);
    close(out[1]);
    close(err[1]);
    close(sync[1]);
    out[1] = err[1] = sync[1] = -1;

    pidfd = (int)syscall(SYS_pidfd_open, child, 0);
    clockid_t clock;
    if (pidfd < 0 || clock_getcpuclockid(child, &clock) != 0) {
        set_error(res, "pidfd or CPU clock: %s", strerror(errno));
        kill(child, SIGKILL);
    }

    /* Handshake: the child reports its seccomp listener, we take it, then it may exec. */
    char msg[256];
    int got = read_full(sync[0], msg, sizeof(hello));
    if (got == (int)sizeof(hello) && msg[0] == 'L' && !res->error[0]) {
        memcpy(&hello, msg, sizeof(hello));
        listener = (int)syscall(SYS_pidfd_getfd, pidfd, hello.listener, 0);
        if (listener < 0) {
            set_error(res, "seccomp listener: %s", strerror(errno));
            kill(child, SIGKILL);
        } else if (write(sync[0], "G", 1) != 1) {
            set_error(res, "handshake: %s", strerror(errno));
            kill(child, SIGKILL);
        } else {
            got = read_full(sync[0], msg, 1 + sizeof(int));
            if (got == 1 + (int)sizeof(int) && msg[0] == 'X') {
                int exec_errno;
                memcpy(&exec_errno, msg + 1, sizeof(int));
                /* judge/sandbox/result.py's CANNOT_EXECUTE: the CLI calls this bad usage. */
                set_error(res, "cannot execute %s: %s", req->argv[0], strerror(exec_errno));
            }
        }
    } else if (got > 0 && msg[0] == 'E') {
        ssize_t more = read(sync[0], msg + got, sizeof(msg) - 1 - (size_t)got);
        if (more > 0)
            got += (int)more;
        msg[got] = '\0';
        set_error(res, "sandbox setup: %s", msg + 1);
    } else if (!res->error[0]) {
        set_error(res, "sandbox setup: the child ended before exec");
    }

    sink_open(&sinks[0], out[0], req->stdout_fd, req->output_bytes);
    sink_open(&sinks[1], err[0], req->stderr_fd, req->stderr_bytes);
    fcntl(out[0], F_SETFL, O_NONBLOCK);
    fcntl(err[0], F_SETFL, O_NONBLOCK);

    uint64_t wall_deadline = saturating_add(start, saturating_mul(req->wall_ms, 1000000ull));
    uint64_t cpu_limit = saturating_mul(req->cpu_ms, 1000000ull);
    uint64_t cores = cfg->cpu >= 0 ? 1 : (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t next_cpu_check = saturating_add(start, cpu_limit / cores);
    /* Without a memory cgroup nothing stops a memory hog but this watch (and RLIMIT_AS far
     * above the limit, a safety net for the host). */
    uint64_t next_memory_check = cfg->cgroup == CGROUP_NONE ? start + MEMORY_WATCH_NS : UINT64_MAX;
    bool exited = false;
    while (!exited && !res->killed_by && !res->error[0]) {
        struct pollfd pfd[6] = {
            {.fd = pidfd, .events = POLLIN},
            {.fd = sink_wants_input(&sinks[0]) ? out[0] : -1, .events = POLLIN},
            {.fd = sink_wants_input(&sinks[1]) ? err[0] : -1, .events = POLLIN},
            {.fd = listener, .events = POLLIN},
            {.fd = sink_wants_room(&sinks[0]) ? sinks[0].to : -1, .events = POLLOUT},
            {.fd = sink_wants_room(&sinks[1]) ? sinks[1].to : -1, .events = POLLOUT},
        };
        uint64_t now = now_ns();
        uint64_t wake = wall_deadline < next_cpu_check ? wall_deadline : next_cpu_check;
        if (next_memory_check < wake)
            wake = next_memory_check;
        uint64_t wait = wake > now ? wake - now : 0;
        struct timespec ts = {.tv_sec = (time_t)(wait / 1000000000ull),
                              .tv_nsec = (long)(wait % 1000000000ull)};
        int n = ppoll(pfd, 6, &ts, NULL);
        if (n < 0 && errno != EINTR) {
            set_error(res, "poll: %s", strerror(errno));
            break;
        }
        if (pfd[4].revents)
            sink_flush(&sinks[0]);
        if (pfd[5].revents)
            sink_flush(&sinks[1]);
        if (pfd[1].revents && sink_drain(&sinks[0]))
            res->killed_by = "output";
        if (pfd[2].revents)
            sink_drain(&sinks[1]);
        if (pfd[3].revents & POLLIN) {
            struct seccomp_notif notif;
            memset(&notif, 0, sizeof(notif));
            if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &notif) == 0)
                res->syscall_nr = notif.data.nr;
            res->killed_by = "seccomp";
        }
        if (pfd[0].revents & POLLIN)
            exited = true;
        now = now_ns();
        if (!exited && !res->killed_by && now >= wall_deadline) {
            /* How long the run was ready but got no CPU tells a starved program (a busy
             * machine) from a slow or sleeping one. */
            struct sched_figures sched = {0, 0};
            scan_live_processes(&sched, NULL);
            res->waiting_ns = sched.waiting_ns;
            res->killed_by = "wall-timer";
        }
        if (!exited && !res->killed_by && now >= next_cpu_check) {
            /* The CPU limit is checked on a schedule rather than with a POSIX CPU timer: seen
             * from another process, CPU clocks and timers advance only at scheduler ticks
             * (4 ms here) either way. Runs are pinned to one CPU, so the run's CPU time grows
             * no faster than the wall clock: the next check is due when the remaining budget
             * could be spent, and the checks converge on the limit within a tick. */
            uint64_t used = program_cpu_ns(clock, &hello);
            if (used >= cpu_limit) {
                res->killed_by = "cpu-timer";
            } else {
                uint64_t step = (cpu_limit - used) / cores;
                next_cpu_check = saturating_add(now, step > 1000000ull ? step : 1000000ull);
            }
        }
        if (!exited && !res->killed_by && now >= next_memory_check) {
            uint64_t resident = 0;
            scan_live_processes(NULL, &resident);
            if (resident > res->memory_bytes)
                res->memory_bytes = resident;
            if (resident > req->memory_bytes)
                res->killed_by = "memory";
            next_memory_check = now + MEMORY_WATCH_NS;
        }
    }
    if (res->killed_by || res->error[0])
        kill_everything();

    int status = 0;
    struct rusage ru;
    pid_t waited;
    do {
        waited = wait4(child, &status, 0, &ru);
    } while (waited < 0 && errno == EINTR);
    res->wall_ns = now_ns() - start;
    if (waited == child) {
        account(res, &ru, &rusage_cpu);
        if (WIFEXITED(status))
            res->exit_code = WEXITSTATUS(status);
        else if (WIFSIGNALED(status))
            res->signal = WTERMSIG(status);
    }
    /* Whatever the main process left behind dies with it. The kill is repeated before every
     * wait: a process forked while the previous kill was under way is caught by the next. */
    for (;;) {
        kill_everything();
        pid_t pid = wait4(-1, &status, __WALL, &ru);
        if (pid > 0) {
            account(res, &ru, &rusage_cpu);
            continue;
        }
        if (errno == EINTR)
            continue;
        break;
    }
    /* What the pipes still hold, then what waits for a slow reader, within one delivery time. */
    uint64_t delivery_deadline = saturating_add(now_ns(), saturating_mul(cfg->delivery_ms, 1000000ull));
    for (int i = 0; i < 2; i++) {
        for (;;) {
            if (sink_drain(&sinks[i]) && i == 0 && !res->killed_by)
                res->killed_by = "output";
            if (sinks[i].closed || sink_wants_input(&sinks[i]))
                break;
            sink_finish(&sinks[i], 1, delivery_deadline);
        }
    }
    sink_finish(sinks, 2, delivery_deadline);
    res->undelivered_bytes = sinks[0].undelivered + sinks[1].undelivered;
    res->output_bytes = sinks[0].seen;
    res->stderr_bytes = sinks[1].seen;
    res->cpu_ns = rusage_cpu;
    if (res->signal == SIGSYS && !res->killed_by)
        res->killed_by = "seccomp";

done:
    cgroup_run_end(res);
    uint64_t setup = res->cpu_source && strncmp(res->cpu_source, "cgroup", 6) == 0
                         ? hello.setup_in_cgroup_ns : hello.setup_ns;
    res->cpu_ns = minus(res->cpu_ns, setup);
    res->setup_ns = setup;
    sink_close(&sinks[0]);
    sink_close(&sinks[1]);
    int fds[] = {out[0], out[1], err[0], err[1], sync[0], sync[1], pidfd, listener};
    for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
        if (fds[i] >= 0)
            close(fds[i]);
    close_request_fds(req);
}

/* The work between two runs, done after the reply so that it is off the critical path:
 * remove the finished run's cgroup, reset /tmp, and prepare the next run's cgroup. */
int after_run(const struct slot_config *cfg, const struct run_request *req, char *err,
              size_t errcap) {
    if (cgroup_cleanup(err, errcap) < 0)
        return -1;
    if (reset_tmp(cfg) < 0) {
        snprintf(err, errcap, "reset /tmp: %s", strerror(errno));
        return -1;
    }
    if (cgroup_prepare(req->memory_bytes, req->processes) < 0) {
        snprintf(err, errcap, "prepare cgroup: %s", strerror(errno));
        return -1;
    }
    return 0;
}
