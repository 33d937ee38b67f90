/* `memhold MIB spin|sleep`: touches MIB MiB in one process, then spins or sleeps forever, so
 * that a timer ends the run after its peak went past the memory limit. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    long n = atol(argv[1]);
    for (long i = 0; i < n; i++) {
        char *p = malloc(1 << 20);
        if (!p)
            return 3;
        memset(p, (int)(i & 0xff) | 1, 1 << 20);
    }
    volatile unsigned long x = 0;
    if (strcmp(argv[2], "spin") == 0)
        for (;;)
            x++;
    for (;;)
        sleep(1000);
}
