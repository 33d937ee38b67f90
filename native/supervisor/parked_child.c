/* The supervisor's half of the parked child (child.c is the child's): the one child forked ahead
 * of the next request and parked in its filter, which a run takes over when its request has the
 * child's shape, and which is discarded and forked anew when it has not. */
#include "parked_child.h"

#include "cgroups.h"
#include "child.h"
#include "log.h"
#include "run.h"
#include "run_figures.h"
#include "slot.h"
#include "spawner.h"
#include "stream_io.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* The parked child, if it has this request's shape; otherwise one forked for it now. */
int have_parked_child(const struct slot_config *cfg, const struct run_request *req,
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
void adopt_parked_child(struct run *run) {
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

/* The next run's child (none for a one-shot slot), of this run's shape (the next request usually
 * has it), once every process of the run is reaped (init's kill(-1) would reach it before). Right
 * after the run when the next run's cgroup is ready (on v1 its spawner forks it while the reply
 * goes out), else after the reply (`wait`). A failure of the cgroup is the next run's error; one of
 * the fork only a note, since the request forks its child itself if none is parked. */
void fork_next_child(const struct slot_config *cfg, const struct run_request *req, bool wait) {
    if (cfg->one_shot || !parked.repeats || parked.exists || parked.error[0])
        return;
    int ready = cgroup_next_child_ready(wait, parked.error, sizeof(parked.error));
    char fork_err[256];
    if (ready == 1 && fork_parked_start(cfg, req, fork_err, sizeof(fork_err)) < 0)
        note("fork the next run's child: %s", fork_err);
}

/* A failure while forking the next run's child, which the next after_run reports (once). */
int take_parked_error(char *err, size_t errcap) {
    if (!parked.error[0])
        return 0;
    snprintf(err, errcap, "%s", parked.error);
    parked.error[0] = '\0';
    return -1;
}
