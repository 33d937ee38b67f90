#define _GNU_SOURCE
/* Fills /tmp with 8 MiB files until a write fails; prints the errno name and the MiB written.
 * Exit 0 when the failure is ENOSPC or EFBIG (the expected bounds), 5 otherwise. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(void) {
    signal(SIGXFSZ, SIG_IGN);
    static char buf[1 << 16];
    memset(buf, 'z', sizeof(buf));
    long written = 0;
    for (int f = 0; f < 1000; f++) {
        char name[64];
        snprintf(name, sizeof(name), "/tmp/fill%d", f);
        int fd = open(name, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0) {
            printf("open %s errno=%s MiB=%ld\n", name, strerrorname_np(errno), written >> 20);
            return errno == ENOSPC ? 0 : 5;
        }
        for (int i = 0; i < 128; i++) {
            ssize_t n = write(fd, buf, sizeof(buf));
            if (n < 0) {
                printf("write errno=%s MiB=%ld\n", strerrorname_np(errno), written >> 20);
                return errno == ENOSPC || errno == EFBIG ? 0 : 5;
            }
            written += n;
        }
        close(fd);
    }
    printf("no limit MiB=%ld\n", written >> 20);
    return 5;
}
