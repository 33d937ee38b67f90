/* `connect tcp PORT [HOST]`: TCP connect to HOST (127.0.0.1) PORT; `connect unix NAME`: connect
 * to the abstract unix socket NAME. Prints "connected" or "fail <errno>"; exits 0 either way. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <stddef.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    int fd;
    int rc;
    if (strcmp(argv[1], "unix") == 0) {
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0) {
            printf("socket fail %s\n", strerrorname_np(errno));
            return 0;
        }
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        size_t len = strlen(argv[2]);
        memcpy(sa.sun_path + 1, argv[2], len);
        rc = connect(fd, (struct sockaddr *)&sa, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len));
    } else {
        fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) {
            printf("socket fail %s\n", strerrorname_np(errno));
            return 0;
        }
        struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[2]))};
        inet_pton(AF_INET, argc > 3 ? argv[3] : "127.0.0.1", &sa.sin_addr);
        rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
    }
    if (rc == 0) {
        printf("connected\n");
        if (write(fd, "escaped\n", 8) < 0)
            return 0;
    } else {
        printf("fail %s\n", strerrorname_np(errno));
    }
    return 0;
}
