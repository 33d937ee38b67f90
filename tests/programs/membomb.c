/* Touches memory without end, in argv[1] processes (default 1). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int procs = argc > 1 ? atoi(argv[1]) : 1;
    for (int i = 1; i < procs; i++)
        if (fork() == 0)
            break;
    for (;;) {
        char *p = malloc(1 << 20);
        if (p)
            memset(p, 1, 1 << 20);
    }
}
