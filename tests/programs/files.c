/* `files read PATH...` / `files write PATH...` / `files list DIR...`: tries each and prints one
 * line per path: "<op> <path> ok <bytes>" or "<op> <path> fail <errno name>". Exits 0. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    if (argc < 2)
        return 2;
    const char *op = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *path = argv[i];
        if (strcmp(op, "read") == 0) {
            int fd = open(path, O_RDONLY | O_NONBLOCK);
            if (fd < 0) {
                printf("read %s fail %s\n", path, strerrorname_np(errno));
                continue;
            }
            char buf[4096];
            ssize_t n = read(fd, buf, sizeof(buf));
            if (n < 0)
                printf("read %s fail %s\n", path, strerrorname_np(errno));
            else
                printf("read %s ok %zd\n", path, n);
            close(fd);
        } else if (strcmp(op, "write") == 0) {
            int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK, 0666);
            if (fd < 0) {
                printf("write %s fail %s\n", path, strerrorname_np(errno));
                continue;
            }
            ssize_t n = write(fd, "1", 1);
            if (n < 0)
                printf("write %s fail %s\n", path, strerrorname_np(errno));
            else
                printf("write %s ok %zd\n", path, n);
            close(fd);
        } else if (strcmp(op, "list") == 0) {
            DIR *d = opendir(path);
            if (!d) {
                printf("list %s fail %s\n", path, strerrorname_np(errno));
                continue;
            }
            struct dirent *e;
            while ((e = readdir(d)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                    printf("entry %s %s\n", path, e->d_name);
            closedir(d);
            printf("list %s ok 0\n", path);
        }
    }
    return 0;
}
