#define _GNU_SOURCE
/* Asks for 16 pipes of 4 MiB each (F_SETPIPE_SZ): pipe buffers are kernel memory that neither
 * RSS nor RLIMIT_AS counts. Prints "grown N" or "refused ERRNO" for the first refusal. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    for (int i = 0; i < 16; i++) {
        int ends[2];
        if (pipe(ends) < 0)
            return 2;
        if (fcntl(ends[1], F_SETPIPE_SZ, 4 << 20) < 0) {
            printf("refused %s\n", errno == EPERM ? "EPERM" : strerror(errno));
            return 0;
        }
    }
    printf("grown 16\n");
    return 0;
}
