/* judge-supervisor: one long-lived process per worker slot. It creates the slot's namespaces and
 * root once, then serves run requests from the Python side over a SOCK_SEQPACKET socket:
 * every program is forked here, by a small process, never by Python
 * (docs/design/3-isolation.md §3.1, supervisor).
 *
 * Process tree (docs/design/2-process-tree.md §2, process tree):
 *                python -> outer supervisor (host namespaces: uid maps, cgroup directories)
 *                            -> init (pid 1 of the sandbox's namespaces: serves the requests)
 *                                 -> the program of each run */
#include "cgroups.h"
#include "log.h"
#include "mounts.h"
#include "network.h"
#include "protocol.h"
#include "slot.h"
#include "spawn.h"
#include "starvation.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* The slot's init, once it exists, as a pidfd: the parent-death signal kills it, and once it
 * is reaped the pidfd can reach no other process that got its pid. */
static volatile sig_atomic_t init_pidfd = -1;

enum { SWEEP_DELAY_MS = 200, SWEEP_RETRIES = 6 };

/* SIGTERM: the judge thread that started this supervisor is gone, or someone asks the slot to
 * stop. The init goes at once; main() then reaps it and removes the slot's cgroup directories,
 * which a supervisor killed outright would leave behind. */
static void on_parent_death(int sig) {
    (void)sig;
    if (init_pidfd >= 0 && syscall(SYS_pidfd_send_signal, init_pidfd, SIGKILL, NULL, 0) < 0) {
        /* Gone already: main() is reaping it. */
    }
}

static void usage(void) {
    die("usage: judge-supervisor --sock FD --slot N [--cpu C] [--box DIR [--box-writable] | "
        "--box-tmpfs-mb MB] [--tmp-mb MB] [--cgroup auto|v1|v2|none] [--bind HOST[=INSIDE]]... "
        "[--busy-clock auto|nohz-idle|cpuidle|none] [--parent-pid PID] [--delivery-ms MS] "
        "[--one-shot] [--verbose]");
}

static long parse_number(const char *text, long min, long max) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || *end || v < min || v > max)
        usage();
    return v;
}

static const struct option options[] = {
    {"sock", required_argument, NULL, 's'},
    {"slot", required_argument, NULL, 'n'},
    {"cpu", required_argument, NULL, 'c'},
    {"box", required_argument, NULL, 'b'},
    {"box-writable", no_argument, NULL, 'w'},
    {"tmp-mb", required_argument, NULL, 't'},
    {"cgroup", required_argument, NULL, 'g'},
    {"bind", required_argument, NULL, 'B'},
    {"busy-clock", required_argument, NULL, 'k'},
    {"parent-pid", required_argument, NULL, 'p'},
    {"delivery-ms", required_argument, NULL, 'd'},
    {"box-tmpfs-mb", required_argument, NULL, 'T'},
    {"verbose", no_argument, NULL, 'v'},
    {"one-shot", no_argument, NULL, 'o'}, /* one run, then the slot ends */
    {NULL, 0, NULL, 0},
};

static void set_defaults(struct slot_config *cfg) {
    memset(cfg, 0, sizeof(*cfg));
    cfg->sock = -1;
    cfg->cpu = -1;
    cfg->tmp_mb = 64;
    cfg->delivery_ms = 60000;
    cfg->cgroup_auto = true;
    cfg->best_busy_clock = BUSY_CLOCK_NOHZ_IDLE;
}

/* --cgroup auto|v1|v2|none */
static void take_cgroup_mode(struct slot_config *cfg, const char *mode) {
    cfg->cgroup_auto = strcmp(mode, "auto") == 0;
    if (strcmp(mode, "v1") == 0)
        cfg->cgroup = CGROUP_V1;
    else if (strcmp(mode, "v2") == 0)
        cfg->cgroup = CGROUP_V2;
    else if (strcmp(mode, "none") == 0)
        cfg->cgroup = CGROUP_NONE;
    else if (!cfg->cgroup_auto)
        usage();
}

/* --busy-clock auto|nohz-idle|cpuidle|none: the best clock BUSY's figure may be measured on
 * (auto: the best the host offers); a worse one is taken when the host lacks it. */
static void take_busy_clock(struct slot_config *cfg, const char *name) {
    if (strcmp(name, "auto") == 0) {
        cfg->best_busy_clock = BUSY_CLOCK_NOHZ_IDLE;
        return;
    }
    for (int i = 0; i < protocol_busy_clock_count; i++)
        if (strcmp(name, protocol_busy_clocks[i].text) == 0) {
            cfg->best_busy_clock = (enum busy_clock)i;
            return;
        }
    usage();
}

/* --bind HOST or --bind HOST=INSIDE, both absolute. */
static void take_bind(struct slot_config *cfg, char *spec) {
    char *target = strchr(spec, '=');
    if (target)
        *target++ = '\0';
    else
        target = spec;
    if (cfg->nbinds >= MAX_BINDS || spec[0] != '/' || target[0] != '/' ||
        strcmp(target, "/") == 0 || strncmp(target, "/tmp", 4) == 0 ||
        strncmp(target, "/proc", 5) == 0 || strncmp(target, "/dev", 4) == 0)
        usage();
    cfg->binds[cfg->nbinds] = spec;
    cfg->bind_targets[cfg->nbinds++] = target;
}

static void take_option(struct slot_config *cfg, int opt, char *value) {
    switch (opt) {
    case 's': cfg->sock = (int)parse_number(value, 0, 1 << 20); break;
    case 'n': cfg->slot = (int)parse_number(value, 0, PROTOCOL_SLOT_COUNT - 1); break;
    case 'p': cfg->parent_pid = (pid_t)parse_number(value, 1, INT_MAX); break;
    case 'c': cfg->cpu = (int)parse_number(value, -1, CPU_SETSIZE - 1); break;
    case 'b': cfg->box = value; break;
    case 'w': cfg->box_writable = true; break;
    case 'v': cfg->verbose = verbose_notes = true; break;
    case 'o': cfg->one_shot = true; break;
    case 'd': cfg->delivery_ms = (uint64_t)parse_number(value, 0, 86400000); break;
    case 't': cfg->tmp_mb = (unsigned)parse_number(value, 1, 1 << 20); break;
    case 'T': cfg->box_tmpfs_mb = (unsigned)parse_number(value, 1, 1 << 20); break;
    case 'g': take_cgroup_mode(cfg, value); break;
    case 'B': take_bind(cfg, value); break;
    case 'k': take_busy_clock(cfg, value); break;
    default: usage();
    }
}

static void parse_args(int argc, char **argv, struct slot_config *cfg) {
    set_defaults(cfg);
    int opt;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1)
        take_option(cfg, opt, optarg);
    if (cfg->sock < 0 || optind != argc || (cfg->box_tmpfs_mb && (cfg->box || cfg->box_writable)))
        usage();
    if (cfg->box && cfg->box[0] != '/')
        die("--box must be an absolute path");
}

static void write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        die("open %s: %m", path);
    ssize_t n = write(fd, text, strlen(text));
    if (n != (ssize_t)strlen(text))
        die("write %s: %m", path);
    close(fd);
}

static void map_ids(pid_t child, const struct slot_config *cfg) {
    char path[64], map[128];
    if (cfg->privileged) {
        unsigned host = PROTOCOL_HOST_UID_BASE + (unsigned)cfg->slot;
        snprintf(map, sizeof(map), "0 0 1\n%d %u 1\n", INSIDE_RUN_UID, host);
        snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)child);
        write_file(path, map);
        snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)child);
        write_file(path, map);
    } else {
        snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)child);
        snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)geteuid());
        write_file(path, map);
        snprintf(path, sizeof(path), "/proc/%d/setgroups", (int)child);
        write_file(path, "deny");
        snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)child);
        snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)getegid());
        write_file(path, map);
    }
}

/* With a tmpfs box the judge reaches the box through a descriptor sent with the ready message:
 * the tmpfs exists only in the sandbox's mount namespace. */
static int send_ready(const struct slot_config *cfg) {
    const char *busy_clock_reason;
    enum busy_clock busy_clock = starvation_clock(&busy_clock_reason);
    struct slot_ready ready = {
        .protocol = PROTOCOL_VERSION,
        .cgroup = cgroup_mode_name(cfg->cgroup),
        .uid = cfg->privileged ? "separate" : "mapped-self",
        .priority = cfg->priority_raised ? "raised" : "normal",
        .cgroup_reason = cfg->cgroup_reason,
        .busy_clock = busy_clock_text(busy_clock),
        .busy_clock_reason = busy_clock_reason,
    };
    if (!cfg->box_tmpfs_mb)
        return write_ready(cfg->sock, &ready, -1);
    int box = open("/box", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (box < 0)
        die("open /box: %m");
    int sent = write_ready(cfg->sock, &ready, box);
    if (close(box) < 0)
        die("close /box: %m");
    return sent;
}

/* An interaction's program waits on every write it relays: a relay on another CPU costs each
 * query two cross-CPU wake-ups (a round trip through both slots ~70 microseconds, pinned ~25),
 * charged to the programs' CPU time. A program that only writes is better served by a relay on
 * another CPU, which drains the pipe in batches instead of preempting it at each write. */
static void relay_on(const cpu_set_t *cpus) {
    if (sched_setaffinity(0, sizeof(*cpus), cpus) < 0)
        die("cpu affinity: %m");
}

/* One request's run, from the slot's CPU when it is an interaction's (see relay_on). */
static void run_logged(const struct slot_config *cfg, const struct run_request *req,
                       struct run_result *res, const cpu_set_t *own_cpus,
                       const cpu_set_t *slot_cpu) {
    note("run %s: cpu %llu ms, wall %llu ms, memory %llu MiB", req->argv[0],
         (unsigned long long)req->cpu_ms, (unsigned long long)req->wall_ms,
         (unsigned long long)(req->memory_bytes >> 20));
    bool pinned = req->relay_on_cpu && cfg->cpu >= 0;
    if (pinned)
        relay_on(slot_cpu);
    run_program(cfg, req, res);
    if (pinned)
        relay_on(own_cpus);
    note("ran %s: exit %d, signal %d, cpu %.3f ms, wall %.3f ms, memory %llu KiB, "
         "killed by %s%s%s",
         req->argv[0], res->exit_code, res->signal, (double)res->cpu_ns / 1e6,
         (double)res->wall_ns / 1e6, (unsigned long long)(res->memory_bytes >> 10),
         res->killed_by ? res->killed_by : "-", res->error[0] ? "; error: " : "", res->error);
}

static void __attribute__((noreturn)) serve(struct slot_config *cfg) {
    static char buffer[PROTOCOL_REQUEST_MAX];
    char pending_error[512] = "";
    cpu_set_t own_cpus, slot_cpu;
    if (sched_getaffinity(0, sizeof(own_cpus), &own_cpus) < 0)
        die("cpu affinity: %m");
    CPU_ZERO(&slot_cpu);
    if (cfg->cpu >= 0)
        CPU_SET(cfg->cpu, &slot_cpu);
    if (sethostname("judge", 5) < 0)
        die("sethostname: %m");
    bring_up_loopback();
    starvation_open(cfg->cpu, cfg->best_busy_clock);
    setup_root(cfg);
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
        die("prctl dumpable: %m");
    signal(SIGPIPE, SIG_IGN);
    if (send_ready(cfg) < 0)
        _exit(1);
    /* The first run's cgroup, made while the judge prepares its request. */
    if (cgroup_serve_begin(cfg, pending_error, sizeof(pending_error)) == 0 &&
        (cgroup_prepare(0, 0) < 0 || cgroup_prepare_after_next(0, 0) < 0))
        snprintf(pending_error, sizeof(pending_error), "prepare cgroup: %s", strerror(errno));
    for (;;) {
        struct run_request req;
        int rc = read_request(cfg->sock, buffer, sizeof(buffer), &req);
        if (rc == 0)
            _exit(0);
        struct run_result res;
        if (rc < 0) {
            /* read_request closed what came with it; the slot serves the next request. */
            run_result_init(&res);
            snprintf(res.error, sizeof(res.error), "malformed request");
        } else {
            run_logged(cfg, &req, &res, &own_cpus, &slot_cpu);
        }
        /* A failure between runs is reported with the next run, which it would spoil. */
        if (pending_error[0] && !res.error[0])
            snprintf(res.error, sizeof(res.error), "%s", pending_error);
        pending_error[0] = '\0';
        /* A one-shot slot ends with its run: what after_run would clean goes with the slot. */
        if (write_result(cfg->sock, &res) < 0 || cfg->one_shot)
            _exit(0);
        if (rc > 0)
            after_run(cfg, &req, pending_error, sizeof(pending_error));
    }
}

static const char *copy_of(const char *text) {
    char *copy = strdup(text);
    if (!copy)
        die("strdup: %m");
    return copy;
}

/* This process becomes pid 1 of the programs' pid namespace, and anyone there can read
 * /proc/1/cmdline: the host paths of the box and of the binds must not be in it. The
 * configuration keeps its own copies; the argument area is zeroed. The supervisor's parent
 * (outside the namespace) keeps its command line for the host's tools. */
static void hide_arguments(int argc, char **argv, struct slot_config *cfg) {
    if (cfg->box)
        cfg->box = copy_of(cfg->box);
    for (int i = 0; i < cfg->nbinds; i++) {
        cfg->binds[i] = copy_of(cfg->binds[i]);
        cfg->bind_targets[i] = copy_of(cfg->bind_targets[i]);
    }
    char *start = argv[0];
    char *end = argv[argc - 1] + strlen(argv[argc - 1]);
    memset(start, 0, (size_t)(end - start));
}

/* The parent's death (PR_SET_PDEATHSIG follows the thread that started us, not the judge
 * process) is SIGTERM, held back until the init exists and handled: the slot's cgroup
 * directories must go with it. Returns the signal mask to restore once the init exists. */
static sigset_t watch_parent(const struct slot_config *cfg) {
    sigset_t parent_death, unblocked;
    if (sigemptyset(&parent_death) < 0 || sigaddset(&parent_death, SIGTERM) < 0 ||
        sigprocmask(SIG_BLOCK, &parent_death, &unblocked) < 0)
        die("sigprocmask: %m");
    struct sigaction on_term = {.sa_handler = on_parent_death};
    if (sigaction(SIGTERM, &on_term, NULL) < 0)
        die("sigaction: %m");
    if (prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0) < 0)
        die("prctl: %m");
    /* The parent may have died before PR_SET_PDEATHSIG was in place. The parent's pid is
     * given, not assumed to differ from 1: a judge can be a container's PID 1. */
    if (cfg->parent_pid && getppid() != cfg->parent_pid)
        die("parent already gone");
    return unblocked;
}

/* A raised priority lets the supervisor preempt a program spinning on the same CPU the moment
 * its CPU timer fires, instead of waiting for the end of the program's time slice. It takes
 * CAP_SYS_NICE, which a container may not grant: then the kill waits for the end of the time
 * slice instead (the ready message says so). The programs are put back to the normal
 * priority. */
static void raise_priority(struct slot_config *cfg) {
    cfg->privileged = geteuid() == 0;
    cfg->priority_raised = cfg->privileged && setpriority(PRIO_PROCESS, 0, -10) == 0;
}

static void create_slot_cgroup(struct slot_config *cfg) {
    char err[512] = "";
    if (cgroup_slot_create(cfg, err, sizeof(err)) < 0)
        die("%s", err);
    note("slot %d: cgroup %s%s%s, %s, cpu %d, priority %s", cfg->slot,
         cgroup_mode_name(cfg->cgroup), cfg->cgroup_reason[0] ? " (" : "",
         cfg->cgroup_reason[0] ? cfg->cgroup_reason : "", cfg->privileged ? "root" : "unprivileged",
         cfg->cpu, cfg->priority_raised ? "raised" : "normal");
}

/* The init's side of the clone: it waits at the gate until its uid map is written, then
 * serves. */
static void __attribute__((noreturn)) become_init(int argc, char **argv, struct slot_config *cfg,
                                                  const int gate[2], const sigset_t *unblocked) {
    close(gate[1]);
    struct sigaction by_default = {.sa_handler = SIG_DFL};
    if (sigaction(SIGTERM, &by_default, NULL) < 0 || sigprocmask(SIG_SETMASK, unblocked, NULL) < 0)
        die("signals: %m");
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        die("prctl: %m");
    char go;
    if (read(gate[0], &go, 1) != 1)
        _exit(1);
    close(gate[0]);
    hide_arguments(argc, argv, cfg);
    serve(cfg);
}

/* The init as a pidfd, and the parent's death handled from here on; a failure leaves no init
 * and no cgroup behind. */
static void hold_init(pid_t child, const sigset_t *unblocked) {
    init_pidfd = (int)syscall(SYS_pidfd_open, child, 0);
    if (init_pidfd >= 0 && sigprocmask(SIG_SETMASK, unblocked, NULL) == 0)
        return;
    int saved = errno;
    kill(child, SIGKILL);
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {
    }
    cgroup_slot_destroy();
    errno = saved;
    die("slot init: %m");
}

/* Clones the init into the slot's new namespaces, maps its ids and lets it start serving. */
static pid_t start_init(int argc, char **argv, struct slot_config *cfg, const sigset_t *unblocked) {
    int gate[2];
    if (pipe2(gate, O_CLOEXEC) < 0)
        die("pipe: %m");
    long flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |
                 CLONE_NEWUTS | SIGCHLD;
    pid_t child = (pid_t)syscall(SYS_clone, flags, NULL, NULL, NULL, 0);
    if (child < 0) {
        cgroup_slot_destroy();
        die("cannot create namespaces: %m");
    }
    if (child == 0)
        become_init(argc, argv, cfg, gate, unblocked);
    close(gate[0]);
    hold_init(child, unblocked);
    map_ids(child, cfg);
    if (write(gate[1], "g", 1) != 1)
        die("gate: %m");
    close(gate[1]);
    return child;
}

/* Waits up to `ms` for the init to exit; true when it has. */
static bool init_exits_within(int ms) {
    struct pollfd init_exit = {.fd = init_pidfd, .events = POLLIN};
    int ready;
    while ((ready = poll(&init_exit, 1, ms)) < 0 && errno == EINTR) {
    }
    return ready > 0;
}

/* The directories of dead slots are swept once the slot's start and its first run are past
 * (or the slot is gone already: a one-shot's), not beside them: on a small machine the sweep
 * would take a CPU from the slot's start-up. A dead slot whose last processes are still being
 * reaped cannot be removed yet, so the sweep is tried again, further apart each time, while
 * this slot lives; whatever is still left is the next slot's to sweep. */
static void sweep_after_start(void) {
    bool init_gone = init_exits_within(SWEEP_DELAY_MS);
    int delay_ms = SWEEP_DELAY_MS;
    for (int attempt = 0; cgroup_sweep_stale() > 0 && !init_gone && attempt < SWEEP_RETRIES;
         attempt++) {
        init_gone = init_exits_within(delay_ms);
        delay_ms *= 2;
    }
}

int main(int argc, char **argv) {
    struct slot_config cfg;
    parse_args(argc, argv, &cfg);
    log_report_to(cfg.sock);
    if (fcntl(cfg.sock, F_SETFD, FD_CLOEXEC) < 0)
        die("socket: %m");
    sigset_t unblocked = watch_parent(&cfg);
    raise_priority(&cfg);
    create_slot_cgroup(&cfg);
    pid_t init = start_init(argc, argv, &cfg, &unblocked);
    close(cfg.sock);
    log_report_to(-1);
    sweep_after_start();

    int status = 0;
    while (waitpid(init, &status, 0) < 0 && errno == EINTR) {
    }
    cgroup_slot_destroy();
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
