/* The run's waits: its pidfd, output pipes, seccomp listener and a timer at the next check in one
 * epoll set (a poll() while output waits for a slow reader), and what each wake-up serves. */
#include "event_loop.h"

#include "log.h"
#include "protocol.h"
#include "run.h"
#include "run_checks.h"
#include "sink.h"
#include "slot.h"
#include "stream_io.h"
#include "sysinfo_answer.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

/* An interaction's relay waits as SCHED_BATCH only while the next check is further off. */
#define RELAY_BATCH_NS (20 * 1000000L)

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
int set_wait_policy(struct run *run, bool batch) {
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
bool serve_events(struct run *run) {
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

/* The wait set and its timer, kept in the kernel for the whole run (see wait_on_set). */
void open_wait_set(struct run *run) {
    run->epoll = epoll_create1(EPOLL_CLOEXEC);
    run->timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
    if (run->epoll < 0 || run->timer < 0)
        set_error(run->res, "wait set: %s", strerror(errno));
}

/* Back to SCHED_OTHER once the run is over (see wait_policy). */
void end_wait_policy(struct run *run) {
    if (set_wait_policy(run, false) < 0)
        set_error(run->res, "scheduling policy: %s", strerror(errno));
}
