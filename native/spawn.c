/* One run: release the program's child (forked ahead and set up, child.c) with the request's
 * limits, input and arguments, watch its CPU clock, wall clock, output and refused syscalls, then
 * kill everything it left behind and collect figures. */
#include "spawn.h"

#include "cgroups.h"
#include "child.h"
#include "log.h"
#include "mounts.h"
#include "protocol.h"
#include "sink.h"
#include "slot.h"
#include "spawner.h"
#include "starvation.h"
#include "stream_io.h"
#include "sysinfo_answer.h"

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
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Without a memory cgroup the run's resident memory is sampled this often. */
#define MEMORY_WATCH_NS (5 * 1000000ull)
/* An interaction's relay waits as SCHED_BATCH only while the next check is further off. */
#define RELAY_BATCH_NS (20 * 1000000L)

static uint64_t timeval_ns(struct timeval tv) {
    return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000ull;
}

static uint64_t clock_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) < 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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

/* What the scheduler says of a run's threads, from schedstat: the CPU time they got (the
 * tick-based figures of /proc/<pid>/stat would round each process down by up to 10 ms) and
 * the time they were ready to run but waited for a CPU; and, from /proc/<pid>/stat, what the
 * children each process reaped used. */
struct sched_figures {
    uint64_t cpu_ns;
    uint64_t waiting_ns;
    uint64_t reaped_ns;
};

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
        if (sched) {
            add_process_schedstat(pid, sched);
            add_reaped_children_cpu(pid, sched);
        }
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
        struct sched_figures sched = {0, 0, 0};
        scan_live_processes(&sched, NULL);
        used = minus(sched.cpu_ns, hello->setup_ns);
    }
    uint64_t main_ns = minus(clock_ns(main_clock), hello->setup_ns);
    return main_ns > used ? main_ns : used;
}

/* ---- the child for the next run: forked ahead of its request, parked in its filter ---- */

/* One child at a time waits for the next request (child.c), forked once the last run is over
 * (init's kill(-1) at the end of a run would reach it otherwise). */
static struct parked {
    bool exists;
    const struct slot_config *cfg;
    struct child_shape shape;
    pid_t pid;
    bool born_in_cgroup;
    int pidfd, out, err, sync;            /* the supervisor's ends */
    int child_out, child_err, child_sync; /* the child's ends, until it is forked */
    struct spawner *forking;              /* the spawner whose fork's outcome is still unread */
    clockid_t clock;
    char error[256]; /* a failure while forking it after a run, reported with the next run */
    /* Whether the next run is likely to take a child of the last one's shape. A slot whose runs
     * alternate shapes (a checker between tests) would otherwise fork a child after every run
     * only to kill it at the next: parking stops at a discard and starts again once two
     * requests in a row have the same shape. */
    bool repeats;
} parked = {.pidfd = -1, .out = -1, .err = -1, .sync = -1, .repeats = true};

static void __attribute__((noreturn)) parked_child(void *unused) {
    (void)unused;
    child_main(parked.cfg, &parked.shape, parked.child_out, parked.child_err, parked.child_sync,
               parked.born_in_cgroup);
}

/* A fork (child_fork), or on cgroup v2 clone3 with CLONE_INTO_CGROUP: a child born in the run's
 * cgroup, which saves the migration of a task into it (on v1 the spawner thread waiting there forks
 * it). */
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
    return child_fork();
}

static void close_fd(int *fd) {
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static bool shape_matches(const struct child_shape *shape, const struct run_request *req) {
    const char *cwd = req->cwd ? req->cwd : "";
    return shape->bpf_len == req->bpf_len && memcmp(shape->bpf, req->bpf, req->bpf_len) == 0 &&
           strcmp(shape->cwd, cwd) == 0;
}

static int take_shape(struct child_shape *shape, const struct run_request *req) {
    const char *cwd = req->cwd ? req->cwd : "";
    if (req->bpf_len > sizeof(shape->bpf) || strlen(cwd) >= sizeof(shape->cwd)) {
        errno = E2BIG;
        return -1;
    }
    memcpy(shape->bpf, req->bpf, req->bpf_len);
    shape->bpf_len = req->bpf_len;
    snprintf(shape->cwd, sizeof(shape->cwd), "%s", cwd);
    return 0;
}

static void forget_parked(void) {
    close_fd(&parked.child_out);
    close_fd(&parked.child_err);
    close_fd(&parked.child_sync);
    close_fd(&parked.pidfd);
    close_fd(&parked.out);
    close_fd(&parked.err);
    close_fd(&parked.sync);
    parked.exists = false;
}

/* The fork is over: the child's ends are closed here, the supervisor's kept. */
static int fork_parked_done(pid_t pid, int fork_errno, char *err, size_t errcap) {
    close_fd(&parked.child_out);
    close_fd(&parked.child_err);
    close_fd(&parked.child_sync);
    if (pid < 0) {
        snprintf(err, errcap, "fork: %s", strerror(fork_errno));
        forget_parked();
        return -1;
    }
    parked.pid = pid;
    parked.pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (parked.pidfd < 0 || clock_getcpuclockid(pid, &parked.clock) != 0) {
        snprintf(err, errcap, "pidfd or CPU clock: %s", strerror(errno));
        if (kill(pid, SIGKILL) < 0 || waitpid(pid, NULL, 0) < 0) {
            /* Gone already, or reaped with the next run's leftovers. */
        }
        forget_parked();
        return -1;
    }
    return 0;
}

/* Reads the outcome of a spawner's fork, if one is under way. */
static int fork_parked_finish(char *err, size_t errcap) {
    if (!parked.forking)
        return 0;
    pid_t pid = spawner_fork_finish(parked.forking);
    parked.forking = NULL;
    return fork_parked_done(pid, errno, err, errcap);
}

/* A parked child of another shape: killed and reaped before its run begins. Its CPU time is in
 * the run's cgroup, and is taken off the run's figure like a set-up's. */
static void discard_parked(void) {
    struct handshake hello;
    bool said_hello =
        read_full(parked.sync, &hello, sizeof(hello)) == (int)sizeof(hello) && hello.tag == 'L';
    if (kill(parked.pid, SIGKILL) < 0) {
        /* Already gone: reaped below all the same. */
    }
    int status;
    struct rusage ru;
    pid_t waited;
    do {
        waited = wait4(parked.pid, &status, 0, &ru);
    } while (waited < 0 && errno == EINTR);
    if (waited == parked.pid) {
        uint64_t used = timeval_ns(ru.ru_utime) + timeval_ns(ru.ru_stime);
        uint64_t outside = said_hello ? hello.setup_ns - hello.setup_in_cgroup_ns : 0;
        if (parked.born_in_cgroup || said_hello)
            cgroup_discount_cpu(used > outside ? used - outside : 0);
    }
    forget_parked();
}

/* Forks the child for a request of this shape into the next run's cgroup; it sets itself up
 * while the supervisor goes on. A spawner's fork is finished by fork_parked_finish. */
static int fork_parked_start(const struct slot_config *cfg, const struct run_request *req,
                             char *err, size_t errcap) {
    int out[2] = {-1, -1}, errp[2] = {-1, -1}, sync[2] = {-1, -1};
    if (take_shape(&parked.shape, req) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
        pipe2(errp, O_CLOEXEC) < 0 ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sync) < 0 ||
        fcntl(out[0], F_SETFL, O_NONBLOCK) < 0 || fcntl(errp[0], F_SETFL, O_NONBLOCK) < 0) {
        snprintf(err, errcap, "run channels: %s", strerror(errno));
        for (int i = 0; i < 2; i++) {
            close_fd(&out[i]);
            close_fd(&errp[i]);
            close_fd(&sync[i]);
        }
        return -1;
    }
    child_find_last_capability();
    parked.cfg = cfg;
    parked.exists = true;
    parked.out = out[0];
    parked.err = errp[0];
    parked.sync = sync[0];
    parked.child_out = out[1];
    parked.child_err = errp[1];
    parked.child_sync = sync[1];
    struct spawner *spawner = cgroup_run_spawner();
    if (spawner) {
        parked.born_in_cgroup = true;
        if (spawner_fork_start(spawner, parked_child, NULL) < 0)
            return fork_parked_done(-1, errno, err, errcap);
        parked.forking = spawner;
        return 0;
    }
    pid_t pid = fork_child(&parked.born_in_cgroup);
    if (pid == 0)
        parked_child(NULL);
    return fork_parked_done(pid, errno, err, errcap);
}

static void close_request_fds(const struct run_request *req) {
    if (req->stdin_fd >= 0)
        close(req->stdin_fd);
    if (req->stdout_fd >= 0)
        close(req->stdout_fd);
    if (req->stderr_fd >= 0)
        close(req->stderr_fd);
}

static void set_error(struct run_result *res, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_error(struct run_result *res, const char *fmt, ...) {
    if (res->error[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->error, sizeof(res->error), fmt, ap);
    va_end(ap);
}

/* The result of a run that never started, until the run says more. */
void run_result_init(struct run_result *res) {
    memset(res, 0, sizeof(*res));
    res->exit_code = -1;
    res->syscall_nr = -1;
    res->cpu_source = "rusage";
    res->memory_source = "rusage";
    res->busy_clock = busy_clock_text(BUSY_CLOCK_NONE);
}

/* What every wait of a run watches (see wait_on_set). */
enum { WATCH_PIDFD, WATCH_STDOUT, WATCH_STDERR, WATCH_LISTENER, WATCH_TIMER, WATCH_COUNT };

/* One run's state, from the request to the figures of its reply. */
struct run {
    const struct slot_config *cfg;
    const struct run_request *req;
    struct run_result *res;
    int out, err, sync;   /* the program's stdout and stderr; the handshake socket */
    struct sink sinks[2]; /* stdout, stderr */
    pid_t child;
    bool born_in_cgroup;
    int pidfd, listener;
    int epoll;                 /* the WATCH_ entries, kept in the kernel between waits */
    bool watched[WATCH_COUNT]; /* which of them the set holds now */
    int timer;                 /* a timerfd armed at the next check (see arm_timer) */
    uint64_t timer_at;
    bool batch;      /* waiting as SCHED_BATCH (see wait_policy) */
    clockid_t clock; /* the main process's CPU clock */
    struct handshake hello;
    bool released; /* the child had the go-ahead */
    uint64_t start;
    struct starvation_mark starvation; /* the run's CPU and the supervisor's, at the start */
    uint64_t rusage_cpu;               /* of every process reaped */
    uint64_t wall_deadline, cpu_limit, cores;
    uint64_t next_cpu_check, next_memory_check;
};

static void begin_run(struct run *run, const struct slot_config *cfg, const struct run_request *req,
                      struct run_result *res) {
    memset(run, 0, sizeof(*run));
    run->cfg = cfg;
    run->req = req;
    run->res = res;
    run->out = run->err = run->sync = -1;
    sink_open(&run->sinks[0], -1, -1, 0);
    sink_open(&run->sinks[1], -1, -1, 0);
    run->child = -1;
    run->pidfd = run->listener = run->epoll = run->timer = -1;

    run_result_init(res);
}

static bool stopped(const struct run *run) { return run->res->killed_by || run->res->error[0]; }

/* A failure once the child exists: it is killed at once rather than left to reach exec. */
static void abandon_child(struct run *run, const char *what) {
    set_error(run->res, "%s: %s", what, strerror(errno));
    if (kill(run->child, SIGKILL) < 0) {
        /* Already gone; it is reaped with the rest. */
    }
}

/* The parked child, if it has this request's shape; otherwise one forked for it now. */
static int have_parked_child(const struct slot_config *cfg, const struct run_request *req,
                             struct run_result *res) {
    if (fork_parked_finish(res->error, sizeof(res->error)) < 0)
        res->error[0] = '\0'; /* a new child is forked below, and reports a failure that lasts */
    if (parked.exists && shape_matches(&parked.shape, req))
        return 0;
    if (parked.exists) {
        discard_parked();
        parked.repeats = false;
    } else if (!parked.repeats) {
        parked.repeats = shape_matches(&parked.shape, req); /* the last request's shape */
    }
    if (fork_parked_start(cfg, req, res->error, sizeof(res->error)) < 0)
        return -1;
    return fork_parked_finish(res->error, sizeof(res->error));
}

/* The run takes over the parked child and its channels. */
static void adopt_parked_child(struct run *run) {
    run->child = parked.pid;
    run->born_in_cgroup = parked.born_in_cgroup;
    run->pidfd = parked.pidfd;
    run->clock = parked.clock;
    run->out = parked.out;
    run->err = parked.err;
    run->sync = parked.sync;
    parked.pidfd = parked.out = parked.err = parked.sync = -1;
    parked.exists = false;
    run->start = now_ns();
}

/* The child said why its set-up failed, or ended without a word. */
static void report_setup_failure(struct run *run, char *msg, int got, size_t cap) {
    if (got > 0 && msg[0] == 'E') {
        ssize_t more = read(run->sync, msg + got, cap - 1 - (size_t)got);
        if (more > 0)
            got += (int)more;
        msg[got] = '\0';
        set_error(run->res, "sandbox setup: %s", msg + 1);
    } else {
        set_error(run->res, "sandbox setup: the child ended before exec");
    }
    if (kill(run->child, SIGKILL) < 0) {
        /* Gone already. */
    }
}

/* The child reports its seccomp listener once its filter is in force; the supervisor takes it. */
static bool take_seccomp_listener(struct run *run) {
    char msg[256];
    int got = read_full(run->sync, msg, sizeof(run->hello));
    if (got != (int)sizeof(run->hello) || msg[0] != 'L') {
        report_setup_failure(run, msg, got, sizeof(msg));
        return false;
    }
    memcpy(&run->hello, msg, sizeof(run->hello));
    run->listener = (int)syscall(SYS_pidfd_getfd, run->pidfd, run->hello.listener, 0);
    if (run->listener < 0) {
        abandon_child(run, "seccomp listener");
        return false;
    }
    return true;
}

/* The child's parking call, the only one it makes before exec that its filter refuses. */
static bool receive_park(struct run *run, struct seccomp_notif *notif) {
    struct pollfd pfd[2] = {{.fd = run->listener, .events = POLLIN},
                            {.fd = run->sync, .events = POLLIN}};
    int ready;
    do {
        ready = poll(pfd, 2, -1);
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) {
        abandon_child(run, "poll");
        return false;
    }
    if (!(pfd[0].revents & POLLIN)) {
        char msg[256];
        report_setup_failure(run, msg, read_full(run->sync, msg, 1), sizeof(msg));
        return false;
    }
    memset(notif, 0, sizeof(*notif));
    if (ioctl(run->listener, SECCOMP_IOCTL_NOTIF_RECV, notif) < 0) {
        abandon_child(run, "seccomp notification");
        return false;
    }
    if (notif->pid != (__u32)run->child || notif->data.nr != SYS_seccomp) {
        errno = EPROTO;
        abandon_child(run, "sandbox setup: a refused call before exec");
        return false;
    }
    return true;
}

/* The request's rlimits, set on the parked child from here: it could not set them itself
 * without calls its filter may refuse. */
static bool limit_child(struct run *run) {
    const struct run_request *req = run->req;
    uint64_t cpu_seconds = req->cpu_ms / 1000 + (req->cpu_ms % 1000 != 0) + 1;
    const struct {
        int resource;
        uint64_t soft, hard;
        const char *name;
    } limits[] = {
        {RLIMIT_CPU, cpu_seconds, cpu_seconds + 1, "RLIMIT_CPU"},
        {RLIMIT_STACK, req->memory_bytes, req->memory_bytes, "RLIMIT_STACK"},
        {RLIMIT_FSIZE, req->file_size_bytes, req->file_size_bytes, "RLIMIT_FSIZE"},
        {RLIMIT_NOFILE, req->open_files, req->open_files, "RLIMIT_NOFILE"},
        {RLIMIT_CORE, 0, 0, "RLIMIT_CORE"},
        {RLIMIT_MSGQUEUE, 0, 0, "RLIMIT_MSGQUEUE"},
        {RLIMIT_NPROC, req->processes, req->processes, "RLIMIT_NPROC"},
        {RLIMIT_AS, req->address_space_bytes, req->address_space_bytes, "RLIMIT_AS"},
    };
    for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
        if (limits[i].resource == RLIMIT_AS && !req->address_space_bytes)
            continue;
        struct rlimit rl = {.rlim_cur = limits[i].soft, .rlim_max = limits[i].hard};
        if (prlimit(run->child, (enum __rlimit_resource)limits[i].resource, &rl, NULL) < 0) {
            char what[64];
            snprintf(what, sizeof(what), "sandbox setup: %s", limits[i].name);
            abandon_child(run, what);
            return false;
        }
    }
    return true;
}

/* The request's standard input, put at the parked child's descriptor 0 in place of /dev/null. */
static bool give_stdin(struct run *run, const struct seccomp_notif *notif) {
    if (run->req->stdin_fd < 0)
        return true;
    struct seccomp_notif_addfd addfd = {
        .id = notif->id,
        .flags = SECCOMP_ADDFD_FLAG_SETFD,
        .srcfd = (__u32)run->req->stdin_fd,
        .newfd = 0,
        .newfd_flags = 0,
    };
    if (ioctl(run->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0) {
        abandon_child(run, "sandbox setup: standard input");
        return false;
    }
    return true;
}

static bool put_string(char *buf, size_t cap, size_t *at, const char *s) {
    size_t len = strlen(s) + 1;
    if (len > cap - *at)
        return false;
    memcpy(buf + *at, s, len);
    *at += len;
    return true;
}

/* The paths the child tries in turn: the program's own, or its name on every PATH entry and
 * then the bare name. */
static bool put_paths(const struct run_request *req, char *buf, size_t cap, size_t *at,
                      uint32_t *count) {
    const char *name = req->argv[0];
    *count = 1;
    if (strchr(name, '/'))
        return put_string(buf, cap, at, name);
    const char *path = "/usr/local/bin:/usr/bin:/bin";
    for (int i = 0; i < req->envc; i++)
        if (strncmp(req->envp[i], "PATH=", 5) == 0)
            path = req->envp[i] + 5;
    while (*path && *count < CHILD_MAX_PATHS) {
        size_t len = strcspn(path, ":");
        char candidate[PATH_MAX];
        if (snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, path, name) <
            (int)sizeof(candidate)) {
            if (!put_string(buf, cap, at, candidate))
                return false;
            ++*count;
        }
        path += len;
        if (*path == ':')
            path++;
    }
    return put_string(buf, cap, at, name);
}

/* The launch message (child.h): 0 when it does not fit. */
static size_t build_launch(const struct run_request *req, char *buf, size_t cap) {
    struct launch_header header = {.argc = (uint32_t)req->argc, .envc = (uint32_t)req->envc};
    size_t at = sizeof(header);
    for (int i = 0; i < req->argc; i++)
        if (!put_string(buf, cap, &at, req->argv[i]))
            return 0;
    for (int i = 0; i < req->envc; i++)
        if (!put_string(buf, cap, &at, req->envp[i]))
            return 0;
    if (!put_paths(req, buf, cap, &at, &header.paths))
        return 0;
    header.bytes = (uint32_t)(at - sizeof(header));
    memcpy(buf, &header, sizeof(header));
    return at;
}

/* Releases the parked call with the go-ahead; the launch message goes before it when the
 * socket's buffer surely holds it (the child finds it at once), else after. */
static bool send_go(struct run *run, const struct seccomp_notif *notif) {
    static char launch[PROTOCOL_REQUEST_MAX + CHILD_MAX_PATHS * PATH_MAX];
    size_t len = build_launch(run->req, launch, sizeof(launch));
    if (len == 0) {
        errno = E2BIG;
        abandon_child(run, "sandbox setup: arguments");
        return false;
    }
    bool first = len <= 65536;
    if (first && write_full(run->sync, launch, len) < 0) {
        abandon_child(run, "sandbox setup: launch");
        return false;
    }
    run->start = now_ns();
    starvation_mark(&run->starvation);
    run->res->busy_clock = busy_clock_text(run->starvation.clock);
    struct seccomp_notif_resp go = {.id = notif->id, .val = CHILD_PARK_GO, .error = 0, .flags = 0};
    if (ioctl(run->listener, SECCOMP_IOCTL_NOTIF_SEND, &go) < 0) {
        abandon_child(run, "sandbox setup: go-ahead");
        return false;
    }
    if (!first && write_full(run->sync, launch, len) < 0) {
        abandon_child(run, "sandbox setup: launch");
        return false;
    }
    return true;
}

/* After the go-ahead the child either execs (EOF on the socket) or says why it could not; read
 * once the main process is reaped, when the answer is there (the socket closes at exec). */
static void read_exec_outcome(struct run *run) {
    if (run->sync < 0 || !run->released)
        return;
    char msg[1 + sizeof(int)];
    int got = read_full(run->sync, msg, sizeof(msg));
    if (got == (int)sizeof(msg) && msg[0] == 'X') {
        int exec_errno;
        memcpy(&exec_errno, msg + 1, sizeof(int));
        /* judge/sandbox/result.py's CANNOT_EXECUTE: the CLI calls this bad usage. */
        set_error(run->res, "cannot execute %s: %s", run->req->argv[0], strerror(exec_errno));
    }
}

/* The parked child gets the request's limits, standard input, arguments and environment,
 * then the go-ahead, and execs. */
static void start_child(struct run *run) {
    adopt_parked_child(run);
    struct seccomp_notif notif;
    run->released = take_seccomp_listener(run) && receive_park(run, &notif) && limit_child(run) &&
                    give_stdin(run, &notif) && send_go(run, &notif);
}

static void open_sinks(struct run *run) {
    sink_open(&run->sinks[0], run->out, run->req->stdout_fd, run->req->output_bytes);
    sink_open(&run->sinks[1], run->err, run->req->stderr_fd, run->req->stderr_bytes);
}

static void schedule_checks(struct run *run) {
    run->wall_deadline = saturating_add(run->start, saturating_mul(run->req->wall_ms, 1000000ull));
    run->cpu_limit = saturating_mul(run->req->cpu_ms, 1000000ull);
    run->cores = run->cfg->cpu >= 0 ? 1 : (uint64_t)sysconf(_SC_NPROCESSORS_ONLN);
    run->next_cpu_check = saturating_add(run->start, run->cpu_limit / run->cores);
    /* Without a memory cgroup nothing stops a memory hog but this watch (and RLIMIT_AS far
     * above the limit, a safety net for the host). */
    run->next_memory_check =
        run->cfg->cgroup == CGROUP_NONE ? run->start + MEMORY_WATCH_NS : UINT64_MAX;
}

static uint64_t next_check_at(const struct run *run) {
    uint64_t wake =
        run->wall_deadline < run->next_cpu_check ? run->wall_deadline : run->next_cpu_check;
    return run->next_memory_check < wake ? run->next_memory_check : wake;
}

static struct timespec ns_timespec(uint64_t ns) {
    return (struct timespec){.tv_sec = (time_t)(ns / 1000000000ull),
                             .tv_nsec = (long)(ns % 1000000000ull)};
}

static struct timespec time_to_next_check(const struct run *run) {
    uint64_t wake = next_check_at(run);
    uint64_t now = now_ns();
    return ns_timespec(wake > now ? wake - now : 0);
}

/* A call outside the allow-list: sysinfo is answered with the run's own figures; any other
 * is refused and ends the run (RF). */
static void serve_seccomp_notice(struct run *run) {
    struct seccomp_notif notif;
    memset(&notif, 0, sizeof(notif));
    bool received = ioctl(run->listener, SECCOMP_IOCTL_NOTIF_RECV, &notif) == 0;
    if (received && is_sysinfo_call(&notif)) {
        answer_sysinfo(run->listener, &notif, run->req->memory_bytes,
                       (now_ns() - run->start) / 1000000000ull);
        return;
    }
    if (received)
        run->res->syscall_nr = notif.data.nr;
    run->res->killed_by = killed_by_text(KILLED_BY_SECCOMP);
}

/* What one wait found. */
struct ready {
    bool exited, out, err, out_room, err_room;
    short listener; /* its poll events */
};

static int entry_fd(const struct run *run, int which) {
    switch (which) {
    case WATCH_PIDFD: return run->pidfd;
    case WATCH_STDOUT: return run->out;
    case WATCH_STDERR: return run->err;
    case WATCH_TIMER: return run->timer;
    default: return run->listener;
    }
}

/* Whether an entry needs watching: not a pipe that reached its end (always readable) or holds
 * as much as may wait for a reader, nor a listener already closed. */
static bool wants_watch(const struct run *run, int which) {
    if (which == WATCH_STDOUT || which == WATCH_STDERR)
        return sink_wants_input(&run->sinks[which - WATCH_STDOUT]);
    return entry_fd(run, which) >= 0;
}

/* The wait set follows wants_watch, one epoll_ctl per change (a few a run). */
static int sync_wait_set(struct run *run) {
    for (int which = 0; which < WATCH_COUNT; which++) {
        bool wanted = wants_watch(run, which);
        if (wanted == run->watched[which])
            continue;
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)which};
        if (epoll_ctl(run->epoll, wanted ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, entry_fd(run, which),
                      &ev) < 0)
            return -1;
        run->watched[which] = wanted;
    }
    return 0;
}

static void unwatch_listener(struct run *run) {
    if (run->watched[WATCH_LISTENER] &&
        epoll_ctl(run->epoll, EPOLL_CTL_DEL, run->listener, NULL) < 0) {
        /* The listener is closed next, which takes it out of the set as well. */
    }
    run->watched[WATCH_LISTENER] = false;
    close_fd(&run->listener);
}

/* The next check's time is a timer of the set, re-armed only when that time moves (after a
 * check), instead of a timeout armed and cancelled at every wait. */
static int arm_timer(struct run *run) {
    uint64_t at = next_check_at(run);
    if (at == run->timer_at)
        return 0;
    struct itimerspec when = {.it_interval = {0, 0}, .it_value = ns_timespec(at)};
    if (timerfd_settime(run->timer, TFD_TIMER_ABSTIME, &when, NULL) < 0)
        return -1;
    run->timer_at = at;
    return 0;
}

/* The timer fired: what is due is checked next; its count is read so that it stops reading
 * as ready even if the next check's time does not move. */
static void take_timer(struct run *run) {
    uint64_t expirations;
    if (read(run->timer, &expirations, sizeof(expirations)) < 0) {
        /* EAGAIN: re-armed since it fired. */
    }
}

/* A run's pipes are drained at every wake, and a poll() over all its descriptors would set up
 * and tear down a wait on each of them at every message (an interaction's query, which the
 * other program waits for): the set stays in the kernel instead. */
static int wait_on_set(struct run *run, struct ready *got) {
    if (sync_wait_set(run) < 0 || arm_timer(run) < 0)
        return -1;
    struct epoll_event events[WATCH_COUNT];
    int n = epoll_pwait2(run->epoll, events, WATCH_COUNT, NULL, NULL);
    if (n < 0)
        return errno == EINTR ? 0 : -1;
    for (int i = 0; i < n; i++) {
        switch (events[i].data.u32) {
        case WATCH_PIDFD: got->exited = events[i].events & EPOLLIN; break;
        case WATCH_STDOUT: got->out = true; break;
        case WATCH_STDERR: got->err = true; break;
        case WATCH_TIMER: take_timer(run); break;
        default: got->listener = (short)events[i].events; break;
        }
    }
    return 0;
}

/* While output waits for a slow reader, the readers' descriptors join the wait; they may be one
 * and the same (a terminal for both streams), which a poll() takes and an epoll set does not. */
static int poll_with_readers(struct run *run, const struct timespec *timeout, struct ready *got) {
    struct sink *sinks = run->sinks;
    enum { P_PIDFD, P_STDOUT, P_STDERR, P_LISTENER, P_STDOUT_ROOM, P_STDERR_ROOM, P_COUNT };
    struct pollfd pfd[P_COUNT] = {
        [P_PIDFD] = {.fd = run->pidfd, .events = POLLIN},
        [P_STDOUT] = {.fd = wants_watch(run, WATCH_STDOUT) ? run->out : -1, .events = POLLIN},
        [P_STDERR] = {.fd = wants_watch(run, WATCH_STDERR) ? run->err : -1, .events = POLLIN},
        [P_LISTENER] = {.fd = run->listener, .events = POLLIN},
        [P_STDOUT_ROOM] = {.fd = sink_wants_room(&sinks[0]) ? sinks[0].to : -1, .events = POLLOUT},
        [P_STDERR_ROOM] = {.fd = sink_wants_room(&sinks[1]) ? sinks[1].to : -1, .events = POLLOUT},
    };
    if (ppoll(pfd, P_COUNT, timeout, NULL) < 0)
        return errno == EINTR ? 0 : -1;
    got->exited = pfd[P_PIDFD].revents & POLLIN;
    got->out = pfd[P_STDOUT].revents;
    got->err = pfd[P_STDERR].revents;
    got->listener = pfd[P_LISTENER].revents;
    got->out_room = pfd[P_STDOUT_ROOM].revents;
    got->err_room = pfd[P_STDERR_ROOM].revents;
    return 0;
}

/* Failing to wait as SCHED_BATCH only costs time; failing to come back is reported, since the
 * next runs' checks would no longer preempt their programs. */
static int set_wait_policy(struct run *run, bool batch) {
    struct sched_param param = {0};
    if (batch == run->batch)
        return 0;
    if (sched_setscheduler(0, batch ? SCHED_BATCH : SCHED_OTHER, &param) < 0)
        return -1;
    run->batch = batch;
    return 0;
}

/* An interaction's relay shares the slot's CPU with both programs, and at its raised priority
 * its wake-up for a message preempts the writer, which was about to block on the answer
 * anyway: a switch out and back in for nothing, at every query. Waiting as SCHED_BATCH, whose
 * wake-ups preempt nobody, it runs once the writer blocks. It waits so only while the next
 * check is more than a few ticks off, so that a CPU, wall or memory check still stops a
 * spinning program the moment it is due. */
static void wait_policy(struct run *run, const struct timespec *timeout) {
    bool far = timeout->tv_sec > 0 || timeout->tv_nsec >= RELAY_BATCH_NS;
    if (run->req->relay_on_cpu && run->cfg->cpu >= 0 && set_wait_policy(run, far) < 0 && !far)
        set_error(run->res, "scheduling policy: %s", strerror(errno));
}

/* Waits until the next check is due or something happens; returns true once the main process
 * has exited. */
static bool serve_events(struct run *run) {
    struct sink *sinks = run->sinks;
    struct timespec timeout = time_to_next_check(run);
    wait_policy(run, &timeout);
    struct ready got = {false, false, false, false, false, 0};
    bool readers = sink_wants_room(&sinks[0]) || sink_wants_room(&sinks[1]);
    if ((readers ? poll_with_readers(run, &timeout, &got) : wait_on_set(run, &got)) < 0) {
        set_error(run->res, "poll: %s", strerror(errno));
        return false;
    }
    if (got.out_room)
        sink_flush(&sinks[0]);
    if (got.err_room)
        sink_flush(&sinks[1]);
    if (got.out && sink_pass(&sinks[0]))
        run->res->killed_by = killed_by_text(KILLED_BY_OUTPUT);
    if (got.err)
        sink_pass(&sinks[1]);
    if (got.listener & POLLIN)
        serve_seccomp_notice(run);
    else if (got.listener)
        /* Hung up: the filter has no task left (the program is exiting). The listener stays
         * readable-at-EOF from now on, and waiting on it again would spin this raised-priority
         * process on the exiting program's CPU until the program became a zombie, which it
         * cannot while it is preempted (milliseconds of wall time per run). */
        unwatch_listener(run);
    return got.exited;
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

/* Files in the run's /tmp (a tmpfs emptied between runs) are memory no RSS and no address
 * space limit counts: without a memory cgroup the watchdog adds them itself. */
static uint64_t tmp_used_bytes(void) {
    struct statfs fs;
    if (statfs("/tmp", &fs) < 0)
        return 0;
    return (uint64_t)(fs.f_blocks - fs.f_bfree) * (uint64_t)fs.f_bsize;
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

/* Until the main process exits or a limit, a refused syscall or a failure stops the run. */
static void watch(struct run *run) {
    schedule_checks(run);
    run->epoll = epoll_create1(EPOLL_CLOEXEC);
    run->timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (run->epoll < 0 || run->timer < 0)
        set_error(run->res, "wait set: %s", strerror(errno));
    while (!stopped(run) && !serve_events(run)) {
        uint64_t now = now_ns();
        check_wall_clock(run, now);
        check_cpu_time(run, now);
        check_memory(run, now);
    }
    if (set_wait_policy(run, false) < 0)
        set_error(run->res, "scheduling policy: %s", strerror(errno));
}

static void reap_main_process(struct run *run) {
    int status = 0;
    struct rusage ru;
    pid_t waited;
    do {
        waited = wait4(run->child, &status, 0, &ru);
    } while (waited < 0 && errno == EINTR);
    run->res->wall_ns = now_ns() - run->start;
    if (waited != run->child)
        return;
    account(run->res, &ru, &run->rusage_cpu);
    if (WIFEXITED(status))
        run->res->exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        run->res->signal = WTERMSIG(status);
}

/* Whatever the main process left behind dies with it. The kill is repeated before every wait:
 * a process forked while the previous kill was under way is caught by the next. */
static void reap_leftovers(struct run *run) {
    for (;;) {
        kill_everything();
        int status;
        struct rusage ru;
        pid_t pid = wait4(-1, &status, __WALL, &ru);
        if (pid > 0) {
            account(run->res, &ru, &run->rusage_cpu);
            continue;
        }
        if (errno == EINTR)
            continue;
        return;
    }
}

/* What the pipes still hold, then what waits for a slow reader, within one delivery time. */
static void deliver_output(struct run *run) {
    uint64_t deadline = saturating_add(now_ns(), saturating_mul(run->cfg->delivery_ms, 1000000ull));
    for (int i = 0; i < 2; i++) {
        for (;;) {
            if (sink_drain(&run->sinks[i]) && i == 0 && !run->res->killed_by)
                run->res->killed_by = killed_by_text(KILLED_BY_OUTPUT);
            if (run->sinks[i].closed || sink_wants_input(&run->sinks[i]))
                break;
            sink_finish(&run->sinks[i], 1, deadline);
        }
    }
    sink_finish(run->sinks, 2, deadline);
}

static void record_figures(struct run *run) {
    struct run_result *res = run->res;
    res->undelivered_bytes = run->sinks[0].undelivered + run->sinks[1].undelivered;
    res->output_bytes = run->sinks[0].seen;
    res->stderr_bytes = run->sinks[1].seen;
    res->cpu_ns = run->rusage_cpu;
    if (run->cfg->cgroup == CGROUP_NONE) {
        /* What the run left in /tmp counts too, however briefly the watchdog saw it. */
        uint64_t left_in_tmp = tmp_used_bytes();
        if (left_in_tmp > res->memory_bytes)
            res->memory_bytes = left_in_tmp;
        res->memory_source = "rusage+tmpfs";
    }
    if (res->signal == SIGSYS && !res->killed_by)
        res->killed_by = killed_by_text(KILLED_BY_SECCOMP);
}

/* The child's set-up before exec is the sandbox's CPU, not the program's. */
static void take_off_setup(struct run *run) {
    struct run_result *res = run->res;
    uint64_t setup = res->cpu_source && strncmp(res->cpu_source, "cgroup", 6) == 0
                         ? run->hello.setup_in_cgroup_ns
                         : run->hello.setup_ns;
    res->cpu_ns = minus(res->cpu_ns, setup);
    res->setup_ns = setup;
}

static void release_run(struct run *run) {
    sink_close(&run->sinks[0]);
    sink_close(&run->sinks[1]);
    close_fd(&run->out);
    close_fd(&run->err);
    close_fd(&run->sync);
    close_fd(&run->pidfd);
    close_fd(&run->listener);
    close_fd(&run->epoll);
    close_fd(&run->timer);
    close_request_fds(run->req);
}

/* The next run's child (none for a one-shot slot), of this run's shape (the next request usually
 * has it), once every process of the run is reaped (init's kill(-1) would reach it before). Right
 * after the run when the next run's cgroup is ready (on v1 its spawner forks it while the reply
 * goes out), else after the reply (`wait`). A failure of the cgroup is the next run's error; one of
 * the fork only a note, since the request forks its child itself if none is parked. */
static void fork_next_child(const struct slot_config *cfg, const struct run_request *req,
                            bool wait) {
    if (cfg->one_shot || !parked.repeats || parked.exists || parked.error[0])
        return;
    int ready = cgroup_next_child_ready(wait, parked.error, sizeof(parked.error));
    char fork_err[256];
    if (ready == 1 && fork_parked_start(cfg, req, fork_err, sizeof(fork_err)) < 0)
        note("fork the next run's child: %s", fork_err);
}

void run_program(const struct slot_config *cfg, const struct run_request *req,
                 struct run_result *res) {
    struct run run;
    begin_run(&run, cfg, req, res);
    if (cgroup_run_begin(req, res->error, sizeof(res->error)) == 0 &&
        have_parked_child(cfg, req, res) == 0) {
        start_child(&run);
        open_sinks(&run);
        if (cgroup_prepare_after_next(req->memory_bytes, req->processes) < 0)
            note("prepare the cgroup after next: %s", strerror(errno));
        watch(&run);
        if (stopped(&run))
            kill_everything();
        reap_main_process(&run);
        read_exec_outcome(&run);
        reap_leftovers(&run);
        deliver_output(&run);
        record_figures(&run);
    }
    cgroup_run_end(res);
    take_off_setup(&run);
    release_run(&run);
    if (!res->error[0])
        fork_next_child(cfg, req, false);
}

/* The work between two runs, done after the reply so that it is off the critical path: the next
 * run's child is forked (if run_program could not) into the next run's cgroup first, so that
 * it sets itself up while the rest is done and the next request comes; then the finished run's
 * cgroup is removed and /tmp reset. */
int after_run(const struct slot_config *cfg, const struct run_request *req, char *err,
              size_t errcap) {
    if (cgroup_prepare(req->memory_bytes, req->processes) < 0) {
        snprintf(err, errcap, "prepare cgroup: %s", strerror(errno));
        return -1;
    }
    fork_next_child(cfg, req, true);
    if (parked.error[0]) {
        snprintf(err, errcap, "%s", parked.error);
        parked.error[0] = '\0';
        return -1;
    }
    if (cgroup_cleanup(err, errcap) < 0)
        return -1;
    if (reset_tmp(cfg) < 0) {
        snprintf(err, errcap, "reset /tmp: %s", strerror(errno));
        return -1;
    }
    return 0;
}
