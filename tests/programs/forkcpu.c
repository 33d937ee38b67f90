/* `forkcpu N MS`: with SIGCHLD ignored (children are reaped by the kernel, never waited for,
 * so their rusage goes to nobody), forks N short-lived children one after the other, each
 * burning MS ms of its own CPU clock; prints "forked N" and exits 0. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 30;
    double ms = argc > 2 ? atof(argv[2]) : 15;
    signal(SIGCHLD, SIG_IGN);
    int made = 0;
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            volatile unsigned long x = 0;
            while (cpu_ms() < ms)
                for (int j = 0; j < 10000; j++)
                    x += (unsigned long)j;
            _exit(0);
        }
        made++;
        /* With SIGCHLD ignored this blocks until the child is gone, then fails with ECHILD. */
        waitpid(pid, NULL, 0);
    }
    printf("forked %d\n", made);
    return 0;
}
