/* `memfd write`: writes to a memfd until a write fails (prints the errno; exit 0 for EFBIG or
 * ENOSPC or ENOMEM). `memfd map N`: ftruncate a memfd to N MiB, map it and touch every page.
 * `memfd many N`: fills one memfd after another (each until a write fails) until N MiB are
 * held in all; prints "held N" and exits 0 when it got there, 7 when a memfd cannot be made. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(int argc, char **argv) {
    signal(SIGXFSZ, SIG_IGN);
    if (argc > 2 && strcmp(argv[1], "many") == 0) {
        long want = atol(argv[2]) << 20, held = 0;
        static char chunk[1 << 16];
        memset(chunk, 'n', sizeof(chunk));
        while (held < want) {
            int m = memfd_create("many", 0);
            if (m < 0) {
                printf("memfd_create errno=%s held=%ld\n", strerrorname_np(errno), held >> 20);
                return 7;
            }
            long before = held;
            while (held < want && write(m, chunk, sizeof(chunk)) == (ssize_t)sizeof(chunk))
                held += (long)sizeof(chunk);
            if (held == before) {
                printf("stuck errno=%s held=%ld\n", strerrorname_np(errno), held >> 20);
                return 7;
            }
        }
        printf("held %ld\n", held >> 20);
        return 0;
    }
    int fd = memfd_create("fill", 0);
    if (fd < 0) {
        printf("memfd_create errno=%s\n", strerrorname_np(errno));
        return 6;
    }
    if (argc > 2 && strcmp(argv[1], "map") == 0) {
        size_t size = (size_t)atol(argv[2]) << 20;
        if (ftruncate(fd, (off_t)size) < 0) {
            printf("ftruncate errno=%s\n", strerrorname_np(errno));
            return errno == EFBIG ? 0 : 5;
        }
        char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            return 6;
        for (size_t i = 0; i < size; i += 4096)
            p[i] = 1;
        printf("touched\n");
        return 0;
    }
    static char buf[1 << 16];
    memset(buf, 'm', sizeof(buf));
    long written = 0;
    for (;;) {
        ssize_t n = write(fd, buf, sizeof(buf));
        if (n < 0) {
            printf("write errno=%s MiB=%ld\n", strerrorname_np(errno), written >> 20);
            return errno == EFBIG || errno == ENOSPC || errno == ENOMEM ? 0 : 5;
        }
        written += n;
    }
}
