/* Writes to stdout forever (argv[1] < 0) or argv[1] MiB then exits 0; argv[2] picks the fd;
 * with argv[3] = "spin" it burns CPU forever after writing instead of exiting. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    static char buf[1 << 16];
    memset(buf, 'x', sizeof(buf));
    long chunks = argc > 1 ? atol(argv[1]) * 16 : -1;
    int fd = argc > 2 ? atoi(argv[2]) : 1;
    for (long i = 0; chunks < 0 || i < chunks; i++)
        if (write(fd, buf, sizeof(buf)) < 0)
            return 1;
    if (argc > 3 && strcmp(argv[3], "spin") == 0)
        for (volatile unsigned long x = 0;; x++) {
        }
    return 0;
}
