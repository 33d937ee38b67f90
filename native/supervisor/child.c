/* A run's child: forked in the slot's namespaces (and, with cgroups, born in its run's cgroups)
 * before its request, it resets what it inherited from the init, drops its privileges,
 * installs the policy's seccomp filter and then parks: it makes a call the filter refuses,
 * which the supervisor holds until the request comes. Everything the request decides is given
 * to it without a new syscall allowance: its rlimits (prlimit from the supervisor), its standard
 * input (SECCOMP_IOCTL_NOTIF_ADDFD while it is parked), its arguments and environment (read
 * from the sync socket once released). Then it execs. */
#include "child.h"

#include "cgroups.h"
#include "protocol.h"
#include "seccomp_install.h"
#include "slot.h"
#include "stream_io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SYNC_FD 3

static void child_fail(const char *what) {
    char msg[256];
    int n = snprintf(msg, sizeof(msg), "E%s: %s", what, strerror(errno));
    if (n > 0 && write(SYNC_FD, msg, (size_t)n) < 0) {
        /* Nothing left to report to. */
    }
    _exit(127);
}

static uint64_t thread_cpu_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The highest capability this kernel knows, found once by the init (its children inherit the
 * figure): asking to drop a higher one only fails with EINVAL, one call each. */
static int last_capability = 63;
static bool last_capability_found;

void child_find_last_capability(void) {
    if (last_capability_found)
        return;
    while (last_capability > 0 && prctl(PR_CAPBSET_READ, last_capability, 0, 0, 0) < 0 &&
           errno == EINVAL)
        last_capability--;
    last_capability_found = true;
}

/* A plain clone, not the C library's fork(): the child runs only this file's code until exec,
 * which needs none of what fork() resets for it (the allocator's locks, the thread list, name
 * service and timer state), and resetting it touched pages that each cost a copy-on-write
 * fault. For the same reason the child changes its ids with the raw calls: the library's
 * wrappers would, in a copy of a threaded process, also signal threads the copy does not have. */
pid_t child_fork(void) { return (pid_t)syscall(SYS_clone, SIGCHLD, NULL, NULL, NULL, 0); }

static void drop_capabilities(void) {
    for (int cap = 0; cap <= last_capability; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
            child_fail("drop capability bounding set");
    }
    if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
        child_fail("clear ambient capabilities");
    /* uid 0 inside the namespace (the unprivileged mode) must not regain capabilities on exec. */
    if (prctl(PR_SET_SECUREBITS, 0x2f /* NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED and locks */, 0,
              0, 0) < 0)
        child_fail("securebits");
}

static void clear_capability_sets(void) {
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof(data));
    if (syscall(SYS_capset, &header, data) < 0)
        child_fail("capset");
}

static int move_fd_high(int fd) {
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 16);
    if (high < 0)
        child_fail("dup");
    return high;
}

static void place_fd(int fd, int target) {
    if (dup2(fd, target) < 0)
        child_fail("dup2");
}

static void reset_signals(void) {
    sigset_t none;
    sigemptyset(&none);
    if (sigprocmask(SIG_SETMASK, &none, NULL) < 0)
        _exit(127);
    signal(SIGPIPE, SIG_DFL);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        _exit(127);
}

/* The output pipes, moved above 15 first so that placing one at 1-3 cannot overwrite another
 * that is still to be placed. */
struct child_fds {
    int out, err;
};

static struct child_fds move_descriptors_high(int out_w, int err_w, int sync_fd) {
    int sync_hi = move_fd_high(sync_fd);
    struct child_fds fds = {.out = move_fd_high(out_w), .err = move_fd_high(err_w)};
    place_fd(sync_hi, SYNC_FD);
    /* dup2 clears close-on-exec; the supervisor reads EOF here as "exec succeeded". */
    if (fcntl(SYNC_FD, F_SETFD, FD_CLOEXEC) < 0)
        child_fail("sync descriptor");
    return fds;
}

/* Returns the thread's CPU time when it joined, which the run's cgroup does not count. */
static uint64_t join_run_cgroup(bool born_in_cgroup) {
    if (!born_in_cgroup && cgroup_attach_self() < 0)
        child_fail("join cgroup");
    uint64_t joined_ns = born_in_cgroup ? 0 : thread_cpu_ns();
    if (unshare(CLONE_NEWCGROUP) < 0)
        child_fail("cgroup namespace");
    return joined_ns;
}

static void pin_to_cpu(const struct slot_config *cfg) {
    if (cfg->cpu < 0)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cfg->cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) < 0)
        child_fail("cpu affinity");
}

/* Standard input is /dev/null until the request gives another (the supervisor puts it at 0). */
static void place_standard_streams(struct child_fds fds) {
    int null = open("/dev/null", O_RDONLY);
    if (null < 0)
        child_fail("open /dev/null");
    place_fd(null, 0);
    place_fd(fds.out, 1);
    place_fd(fds.err, 2);
    if (syscall(SYS_close_range, SYNC_FD + 1, ~0u, 0) < 0)
        child_fail("close descriptors");
}

static void enter_working_directory(const struct child_shape *shape) {
    if (setpriority(PRIO_PROCESS, 0, 0) < 0)
        child_fail("priority");
    if (chdir(shape->cwd[0] ? shape->cwd : "/box") < 0)
        child_fail("chdir");
}

static void drop_privileges(const struct slot_config *cfg) {
    drop_capabilities();
    if (cfg->privileged) {
        if (syscall(SYS_setgroups, 0, NULL) < 0 ||
            syscall(SYS_setresgid, INSIDE_RUN_UID, INSIDE_RUN_UID, INSIDE_RUN_UID) < 0 ||
            syscall(SYS_setresuid, INSIDE_RUN_UID, INSIDE_RUN_UID, INSIDE_RUN_UID) < 0)
            child_fail("drop to the run uid");
    } else {
        clear_capability_sets();
    }
}

static int install_filter(const struct child_shape *shape) {
    /* The uid change made us non-dumpable, which would keep the supervisor from taking the
     * seccomp listener with pidfd_getfd; exec recomputes it anyway. */
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0)
        child_fail("dumpable");
    int listener = seccomp_install(shape->bpf, shape->bpf_len);
    if (listener < 0)
        child_fail("install seccomp filter");
    return listener;
}

/* From here on the filter is in force: only read, write, clock_gettime and execve, which every
 * policy allows, and the parking call, which none does. */
static void hand_over_listener(int listener, uint64_t joined_ns) {
    struct handshake hello = {.tag = 'L', .listener = listener};
    hello.setup_ns = thread_cpu_ns();
    hello.setup_in_cgroup_ns = hello.setup_ns - joined_ns;
    if (write(SYNC_FD, &hello, sizeof(hello)) != (ssize_t)sizeof(hello))
        _exit(127);
}

/* seccomp is refused by every policy (judge/sandbox/policy.py ALWAYS_REFUSED), so the call
 * waits in the supervisor's hands; only the supervisor's answer releases it. A filter that let
 * the call through returns 0 or -1, never the go-ahead. */
static void park(void) {
    unsigned int action = SECCOMP_RET_KILL_PROCESS;
    long answer = syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action);
    if (answer != CHILD_PARK_GO) {
        static const char msg[] = "Ethe filter does not refuse the parking call";
        if (write(SYNC_FD, msg, sizeof(msg) - 1) < 0) {
            /* The supervisor sees EOF. */
        }
        _exit(127);
    }
}

/* A short read means the supervisor is gone or broke the protocol: the child has nothing to run. */
static void read_exactly(void *buf, size_t len) {
    if (read_full(SYNC_FD, buf, len) != (int)len)
        _exit(127);
}

/* Splits `count` NUL-terminated strings off `*cursor` into `out` (NULL-terminated). */
static void take_strings(char **cursor, const char *end, char **out, uint32_t count) {
    for (uint32_t i = 0; i < count; i++) {
        size_t len = strnlen(*cursor, (size_t)(end - *cursor));
        if (*cursor + len >= end)
            _exit(127);
        out[i] = *cursor;
        *cursor += len + 1;
    }
    out[count] = NULL;
}

struct launch {
    char *argv[PROTOCOL_MAX_ARGS + 1];
    char *envp[PROTOCOL_MAX_ENV + 1];
    char *paths[CHILD_MAX_PATHS + 1];
};

static void receive_launch(struct launch *launch) {
    static char strings[PROTOCOL_REQUEST_MAX + CHILD_MAX_PATHS * PATH_MAX];
    struct launch_header header;
    read_exactly(&header, sizeof(header));
    if (header.bytes > sizeof(strings) || header.argc < 1 || header.argc > PROTOCOL_MAX_ARGS ||
        header.envc > PROTOCOL_MAX_ENV || header.paths < 1 || header.paths > CHILD_MAX_PATHS)
        _exit(127);
    read_exactly(strings, header.bytes);
    char *cursor = strings;
    const char *end = strings + header.bytes;
    take_strings(&cursor, end, launch->argv, header.argc);
    take_strings(&cursor, end, launch->envp, header.envc);
    take_strings(&cursor, end, launch->paths, header.paths);
}

/* The paths in turn, as execvp goes down PATH: one that is missing or not executable for the
 * run's uid is passed over; the last one's failure is reported. */
static void __attribute__((noreturn)) exec_program(const struct launch *launch) {
    int err = ENOENT;
    for (int i = 0; launch->paths[i]; i++) {
        execve(launch->paths[i], launch->argv, launch->envp);
        err = errno;
        if (err != ENOENT && err != EACCES && err != ENOTDIR)
            break;
    }
    char fail[1 + sizeof(int)];
    fail[0] = 'X';
    memcpy(fail + 1, &err, sizeof(int));
    if (write(SYNC_FD, fail, sizeof(fail)) < 0) {
        /* The supervisor sees EOF and reports it. */
    }
    _exit(127);
}

void child_main(const struct slot_config *cfg, const struct child_shape *shape, int out_w,
                int err_w, int sync_fd, bool born_in_cgroup) {
    reset_signals();
    struct child_fds fds = move_descriptors_high(out_w, err_w, sync_fd);
    uint64_t joined_ns = join_run_cgroup(born_in_cgroup);
    pin_to_cpu(cfg);
    place_standard_streams(fds);
    enter_working_directory(shape);
    drop_privileges(cfg);
    int listener = install_filter(shape);
    hand_over_listener(listener, joined_ns);
    park();
    static struct launch launch;
    receive_launch(&launch);
    exec_program(&launch);
}
