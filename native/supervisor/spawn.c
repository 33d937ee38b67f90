/* One run: release the program's child (forked ahead and set up, child.c) with the request's
 * limits, input and arguments, watch its CPU clock, wall clock, output and refused syscalls, then
 * kill everything it left behind and collect figures. This file is the sequence; each mechanism
 * is its own file: the parked child (parked_child.c), the handshake that launches it (launch.c,
 * run_limits.c), the waits (event_loop.c), the checks (run_checks.c) and the figures
 * (run_figures.c), all on one struct run (run.h). */
#include "spawn.h"

#include "cgroups.h"
#include "event_loop.h"
#include "launch.h"
#include "log.h"
#include "mounts.h"
#include "parked_child.h"
#include "protocol.h"
#include "run.h"
#include "run_checks.h"
#include "run_figures.h"
#include "sink.h"
#include "slot.h"
#include "stream_io.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static void kill_everything(void) {
    cgroup_kill_all();
    /* As init of the pid namespace, kill(-1) reaches every other process of the run. */
    if (kill(-1, SIGKILL) < 0 && errno != ESRCH) {
        /* Nothing else can be done from here; reaping below still proceeds. */
    }
}

static void close_request_fds(const struct run_request *req) {
    if (req->stdin_fd >= 0)
        close(req->stdin_fd);
    if (req->stdout_fd >= 0)
        close(req->stdout_fd);
    if (req->stderr_fd >= 0)
        close(req->stderr_fd);
}

void set_error(struct run_result *res, const char *fmt, ...) {
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

bool stopped(const struct run *run) { return run->res->killed_by || run->res->error[0]; }

/* A failure once the child exists: it is killed at once rather than left to reach exec. */
void abandon_child(struct run *run, const char *what) {
    set_error(run->res, "%s: %s", what, strerror(errno));
    if (kill(run->child, SIGKILL) < 0) {
        /* Already gone; it is reaped with the rest. */
    }
}

static void open_sinks(struct run *run) {
    sink_open(&run->sinks[0], run->out, run->req->stdout_fd, run->req->output_bytes);
    sink_open(&run->sinks[1], run->err, run->req->stderr_fd, run->req->stderr_bytes);
}

/* Until the main process exits or a limit, a refused syscall or a failure stops the run. */
static void watch(struct run *run) {
    schedule_checks(run);
    open_wait_set(run);
    while (!stopped(run) && !serve_events(run))
        run_due_checks(run, now_ns());
    end_wait_policy(run);
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
    account_rusage(run->res, &ru, &run->rusage_cpu);
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
            account_rusage(run->res, &ru, &run->rusage_cpu);
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
    res->cpu_ns = saturating_sub(res->cpu_ns, setup);
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
    if (take_parked_error(err, errcap) < 0)
        return -1;
    if (cgroup_cleanup(err, errcap) < 0)
        return -1;
    if (reset_tmp(cfg) < 0) {
        snprintf(err, errcap, "reset /tmp: %s", strerror(errno));
        return -1;
    }
    return 0;
}
