/* Probes of the kernel features the sandbox relies on. Each returns 1 when the feature works,
 * 0 when it does not (errno says why). They run in a forked child where they change state. */
#include "probe.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int in_child(int (*probe)(void)) {
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0)
        _exit(probe() ? 0 : 1);
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return 0;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int try_userns(void) { return unshare(CLONE_NEWUSER) == 0; }

static int try_seccomp(void) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return 0;
    /* SECCOMP_GET_ACTION_AVAIL asks without installing anything. */
    uint32_t action = SECCOMP_RET_USER_NOTIF;
    return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

int judge_probe_userns(void) { return in_child(try_userns); }

int judge_probe_seccomp(void) { return in_child(try_seccomp); }

int judge_probe_pidfd(void) {
    long fd = syscall(SYS_pidfd_open, getpid(), 0);
    if (fd < 0)
        return 0;
    close((int)fd);
    return 1;
}

static double elapsed_ms(const struct timespec *a, const struct timespec *b) {
    return (double)(b->tv_sec - a->tv_sec) * 1e3 + (double)(b->tv_nsec - a->tv_nsec) / 1e6;
}

static void __attribute__((noreturn)) spin_then_wait_and_tell(int ready) {
    struct timespec start, now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    do
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    while (elapsed_ms(&start, &now) < 20.0);
    if (write(ready, "x", 1) != 1)
        _exit(1);
    for (;;)
        pause();
}

/* What the supervisor does to watch a run's CPU time: a child spins 20 ms of CPU, and its CPU
 * clock, read from the parent through clock_getcpuclockid, must show it. Reports the reading. */
int judge_probe_cpu_clock(double *read_ms) {
    int ready[2];
    if (pipe(ready) < 0)
        return 0;
    pid_t child = fork();
    if (child < 0) {
        close(ready[0]);
        close(ready[1]);
        return 0;
    }
    if (child == 0) {
        close(ready[0]);
        spin_then_wait_and_tell(ready[1]);
    }
    close(ready[1]);
    char done;
    int ok = 0;
    clockid_t clock;
    struct timespec used;
    if (read(ready[0], &done, 1) == 1 && clock_getcpuclockid(child, &clock) == 0 &&
        clock_gettime(clock, &used) == 0) {
        *read_ms = (double)used.tv_sec * 1e3 + (double)used.tv_nsec / 1e6;
        ok = *read_ms >= 15.0;
    }
    close(ready[0]);
    kill(child, SIGKILL);
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {
    }
    return ok;
}
