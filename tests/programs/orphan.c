/* Double fork + setsid: the grandchild ignores the usual signals and spins forever; the main
 * process prints its pid and exits 0 at once. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    int fds[2];
    if (pipe(fds) < 0)
        return 1;
    pid_t child = fork();
    if (child == 0) {
        setsid();
        pid_t grandchild = fork();
        if (grandchild == 0) {
            signal(SIGHUP, SIG_IGN);
            signal(SIGTERM, SIG_IGN);
            signal(SIGINT, SIG_IGN);
            close(fds[0]);
            close(fds[1]);
            volatile unsigned long x = 0;
            for (;;)
                x++;
        }
        if (write(fds[1], &grandchild, sizeof(grandchild)) < 0)
            _exit(1);
        _exit(0);
    }
    pid_t grandchild = 0;
    close(fds[1]);
    if (read(fds[0], &grandchild, sizeof(grandchild)) != sizeof(grandchild))
        return 1;
    waitpid(child, NULL, 0);
    printf("orphan %d\n", (int)grandchild);
    return 0;
}
