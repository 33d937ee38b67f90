/* Prints the open file descriptors other than the one listing /proc/self/fd. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return 1;
    int own = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (atoi(e->d_name) != own)
            printf("%s\n", e->d_name);
    }
    closedir(d);
    return 0;
}
