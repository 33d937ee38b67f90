/* Makes argv[1] zombies (children that exit, never waited for), then exits 0. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 20;
    int made = 0;
    for (int i = 0; i < n; i++) {
        pid_t p = fork();
        if (p == 0)
            _exit(0);
        if (p > 0)
            made++;
    }
    usleep(50000);
    printf("%d zombies\n", made);
    return 0;
}
