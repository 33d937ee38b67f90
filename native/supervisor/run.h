/* One run's state, which the steps of a run (spawn.c) share: the launch, the event loop, the
 * checks. */
#ifndef JUDGE_RUN_H
#define JUDGE_RUN_H

#include "child.h"
#include "sink.h"
#include "starvation.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

struct slot_config;
struct run_request;
struct run_result;

/* What every wait of a run watches (see event_loop.c's wait_on_set). */
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

/* Whether a limit, a refused syscall or a failure has ended the run. */
bool stopped(const struct run *run);
/* The run's failure (SE): the first one stands. */
void set_error(struct run_result *res, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A failure once the child exists: it is killed at once rather than left to reach exec. */
void abandon_child(struct run *run, const char *what);

#endif
