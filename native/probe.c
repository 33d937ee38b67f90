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

/* Arms a 20 ms timer on this thread's CPU clock, spins until it fires and reports how far past
 * the deadline the CPU clock was when the signal arrived. */
int judge_probe_cpu_timer(double *overshoot_ms) {
    clockid_t clock = CLOCK_THREAD_CPUTIME_ID;
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGRTMIN);
    if (sigprocmask(SIG_BLOCK, &set, &old) < 0)
        return 0;
    timer_t timer;
    struct sigevent sev = {.sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGRTMIN};
    sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    int ok = 0;
    if (timer_create(clock, &sev, &timer) == 0) {
        struct timespec start, now;
        clock_gettime(clock, &start);
        struct itimerspec its = {.it_value = {.tv_sec = 0, .tv_nsec = 20 * 1000000L}};
        if (timer_settime(timer, 0, &its, NULL) == 0) {
            struct timespec zero = {0, 0};
            siginfo_t info;
            for (;;) {
                if (sigtimedwait(&set, &info, &zero) == SIGRTMIN)
                    break;
                clock_gettime(clock, &now);
                if (elapsed_ms(&start, &now) > 1000)
                    break;
            }
            clock_gettime(clock, &now);
            *overshoot_ms = elapsed_ms(&start, &now) - 20.0;
            ok = *overshoot_ms < 980;
        }
        timer_delete(timer);
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    return ok;
}
