/* Spawner threads (cgroup v1): a run's child is born in the run's cgroups instead of moving in.
 *
 * On cgroup v1 a task joins a cgroup by a write to its tasks or cgroup.procs file, which takes
 * the kernel's cgroup_threadgroup_rwsem for writing; when the previous such write is older than
 * an RCU grace period, that waits for a whole grace period (about 10 ms of wall time here, no
 * CPU). A run whose child moved itself into its cgroups paid that on its wall time whenever the
 * runs were spaced out (a Python test of 30 ms, say). A child inherits the cgroups of the thread
 * that forks it, so the slot's init keeps two threads that each move into the cgroups of a run
 * to come, long before its request arrives, and wait there: the request's child is forked by
 * that thread and starts inside. Two, because a thread leaves its run's cgroups only once the
 * run's figures are read, while the next run's thread must already be in place. A thread moves
 * itself alone (enter_run_cgroups), which the kernel does without that lock: a slot's first
 * run, whose thread moves in just before it, pays no grace period either.
 *
 * A thread of init is spared by init's kill(-1) and is no child to reap; it counts as one task
 * in the pids controller (the limit is raised by one) and the CPU it spends inside the run's
 * cgroups (the fork) is taken off the run's figure. Hand-offs go through pipes, which also
 * order the memory the two threads share; no lock of the C library is shared with init. */
#include "spawner.h"

#include "cgroup_dirs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { COMMAND_JOIN = 'J', COMMAND_FORK = 'F', REPLY_JOINED = 'j', REPLY_FORKED = 'f' };

struct spawner {
    pthread_t thread;
    clockid_t clock;   /* the thread's CPU clock, read by init */
    int command[2];    /* init -> thread */
    int reply[2];      /* thread -> init */
    bool join_pending; /* a join was asked for and its reply not yet read (init's side) */
    /* The join: the run directories to enter, then the directory left behind to remove. */
    int run_fds[CGROUP_V1_COUNT]; /* the CPU accounting hierarchy's last */
    int slot_fds[CGROUP_V1_COUNT];
    int count;
    char dir[32];           /* the run directory it is in (or on its way to) */
    char leave[32];         /* the one it left, to remove */
    uint64_t joined_cpu_ns; /* the thread's CPU clock once it was in */
    char error[256];
    /* The fork: the child's entry point, and the outcome. */
    void (*child)(void *);
    void *child_arg;
    pid_t pid;
    int fork_errno;
};

static struct spawner spawners[2];

static uint64_t thread_cpu_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) < 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int write_byte(int fd, char byte) {
    for (;;) {
        ssize_t n = write(fd, &byte, 1);
        if (n == 1)
            return 0;
        if (n < 0 && errno != EINTR)
            return -1;
    }
}

static int read_byte(int fd, char *byte) {
    for (;;) {
        ssize_t n = read(fd, byte, 1);
        if (n == 1)
            return 0;
        if (n == 0 || errno != EINTR)
            return -1;
    }
}

/* "0" in a v1 tasks file moves the writing thread alone: the kernel (5.16 on) then leaves
 * cgroup_threadgroup_rwsem alone, and with it the RCU grace period (5-14 ms of wall here)
 * that taking it for writing costs after a quiet spell. Its own tid written there takes the
 * lock like a whole process's move. */
static void enter_run_cgroups(struct spawner *s) {
    s->error[0] = '\0';
    for (int i = 0; i < s->count; i++) {
        int fd = openat(s->run_fds[i], "tasks", O_WRONLY | O_CLOEXEC);
        if (fd < 0 || write(fd, "0", 1) != 1) {
            snprintf(s->error, sizeof(s->error), "spawner: join run cgroup: %s", strerror(errno));
            if (fd >= 0)
                close(fd);
            return;
        }
        close(fd);
    }
    s->joined_cpu_ns = thread_cpu_ns(s->clock);
}

/* The directory left behind held a run that is dead and reaped: it goes now. */
static void remove_left_directory(struct spawner *s) {
    if (s->leave[0] && !s->error[0])
        remove_run_dir(s->slot_fds, s->count, s->leave, s->error, sizeof(s->error));
    s->leave[0] = '\0';
}

static void *serve_init(void *arg) {
    struct spawner *s = arg;
    char command;
    while (read_byte(s->command[0], &command) == 0) {
        if (command == COMMAND_JOIN) {
            enter_run_cgroups(s);
            remove_left_directory(s);
            if (write_byte(s->reply[1], REPLY_JOINED) < 0)
                break;
        } else if (command == COMMAND_FORK) {
            /* A plain clone, as child_fork() in child.c explains. */
            pid_t pid = (pid_t)syscall(SYS_clone, SIGCHLD, NULL, NULL, NULL, 0);
            if (pid == 0)
                s->child(s->child_arg); /* never returns */
            s->pid = pid;
            s->fork_errno = pid < 0 ? errno : 0;
            if (write_byte(s->reply[1], REPLY_FORKED) < 0)
                break;
        }
    }
    return NULL;
}

/* On the slot's CPU: the memory cgroup charges in batches kept per CPU, and a fork charged on
 * another CPU than the program's own charges would add a batch (256 KiB) to the run's peak. */
static int pin_spawners(int cpu, pthread_attr_t *attr) {
    if (cpu < 0)
        return 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

/* `count` threads, at most two: a one-shot slot's single run needs one. */
int spawners_start(int cpu, int count, char *err, size_t errcap) {
    sigset_t all, previous;
    sigfillset(&all);
    /* Signals are init's: the threads start with every one blocked. */
    if (pthread_sigmask(SIG_SETMASK, &all, &previous) != 0) {
        snprintf(err, errcap, "spawner: signal mask");
        return -1;
    }
    pthread_attr_t attr;
    int rc = pthread_attr_init(&attr) != 0 || pin_spawners(cpu, &attr) != 0 ? -1 : 0;
    if (rc < 0)
        snprintf(err, errcap, "spawner: thread attributes");
    for (int i = 0; i < count && i < 2 && rc == 0; i++) {
        struct spawner *s = &spawners[i];
        memset(s, 0, sizeof(*s));
        int created = -1;
        if (pipe2(s->command, O_CLOEXEC) < 0 || pipe2(s->reply, O_CLOEXEC) < 0 ||
            (created = pthread_create(&s->thread, &attr, serve_init, s)) != 0 ||
            (created = pthread_getcpuclockid(s->thread, &s->clock)) != 0) {
            snprintf(err, errcap, "spawner thread: %s", strerror(created > 0 ? created : errno));
            rc = -1;
        }
    }
    pthread_attr_destroy(&attr);
    if (pthread_sigmask(SIG_SETMASK, &previous, NULL) != 0 && rc == 0) {
        snprintf(err, errcap, "spawner: signal mask");
        rc = -1;
    }
    return rc;
}

struct spawner *spawner_get(int index) {
    return &spawners[index & 1];
}

int spawner_send_join(struct spawner *s, const int run_fds[], const int slot_fds[], int count,
                      const char *name) {
    /* The thread reads what follows once told: an earlier join must be over first. */
    char unused[8];
    if (spawner_wait_joined(s, unused, sizeof(unused)) < 0 && s->join_pending)
        return -1;
    for (int i = 0; i < count; i++) {
        s->run_fds[i] = run_fds[i];
        s->slot_fds[i] = slot_fds[i];
    }
    s->count = count;
    snprintf(s->leave, sizeof(s->leave), "%s", s->dir);
    snprintf(s->dir, sizeof(s->dir), "%s", name);
    if (write_byte(s->command[1], COMMAND_JOIN) < 0)
        return -1;
    s->join_pending = true;
    return 0;
}

int spawner_wait_joined(struct spawner *s, char *err, size_t errcap) {
    if (s->join_pending) {
        char reply;
        if (read_byte(s->reply[0], &reply) < 0 || reply != REPLY_JOINED) {
            snprintf(err, errcap, "spawner: no reply to a join");
            return -1;
        }
        s->join_pending = false;
    }
    if (s->error[0]) {
        snprintf(err, errcap, "%s", s->error);
        s->error[0] = '\0';
        return -1;
    }
    return 0;
}

/* Whether the thread is in its run's directories, or has failed to get there: a wait for its
 * join would not block. */
bool spawner_join_done(const struct spawner *s) {
    struct pollfd reply = {.fd = s->reply[0], .events = POLLIN};
    return !s->join_pending || poll(&reply, 1, 0) > 0;
}

/* The fork is asked for here and its outcome read by spawner_fork_finish, so that the caller
 * goes on meanwhile. Until then the child's descriptors must stay open: the thread shares the
 * init's table, and the child copies it as it is at the fork. */
int spawner_fork_start(struct spawner *s, void (*child)(void *), void *arg) {
    s->child = child;
    s->child_arg = arg;
    return write_byte(s->command[1], COMMAND_FORK);
}

pid_t spawner_fork_finish(struct spawner *s) {
    char reply;
    if (read_byte(s->reply[0], &reply) < 0 || reply != REPLY_FORKED)
        return -1;
    errno = s->fork_errno;
    return s->pid;
}

uint64_t spawner_cpu_in_cgroup_ns(const struct spawner *s) {
    uint64_t now = thread_cpu_ns(s->clock);
    return now > s->joined_cpu_ns ? now - s->joined_cpu_ns : 0;
}
