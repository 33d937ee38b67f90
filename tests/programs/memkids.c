/* `memkids N MIB SECONDS`: forks N children that each touch MIB MiB and hold it for SECONDS
 * (all alive at once); the parent waits for them and exits 0 ("held") when every child ended
 * well, 1 when one was killed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 6;
    long mib = argc > 2 ? atol(argv[2]) : 60;
    int seconds = argc > 3 ? atoi(argv[3]) : 3;
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid < 0)
            return 4;
        if (pid == 0) {
            for (long m = 0; m < mib; m++) {
                char *p = malloc(1 << 20);
                if (!p)
                    _exit(3);
                memset(p, 1, 1 << 20);
            }
            sleep((unsigned)seconds);
            _exit(0);
        }
    }
    int failed = 0, status;
    while (wait(&status) > 0)
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            failed = 1;
    if (!failed)
        printf("held %d x %ld MiB\n", n, mib);
    return failed;
}
