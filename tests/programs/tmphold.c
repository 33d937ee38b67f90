/* Writes argv[1] MiB into a file of /tmp (a tmpfs: memory no RSS counts) with write(), holds it
 * for argv[2] ms (default 300), then exits 0. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    long mib = argc > 1 ? atol(argv[1]) : 128;
    long hold_ms = argc > 2 ? atol(argv[2]) : 300;
    static char block[1 << 20];
    memset(block, 7, sizeof(block));
    int fd = open("/tmp/held", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        return 2;
    for (long i = 0; i < mib; i++)
        if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
            return 3;
    struct timespec hold = {hold_ms / 1000, (hold_ms % 1000) * 1000000L};
    nanosleep(&hold, NULL);
    return 0;
}
