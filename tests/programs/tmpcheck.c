/* Prints how many entries /tmp holds, then leaves a marker file and a directory in it. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
int main(void) {
    DIR *d = opendir("/tmp");
    if (!d)
        return 1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    printf("entries %d\n", n);
    FILE *f = fopen("/tmp/marker", "w");
    if (!f || fputs("left behind\n", f) < 0 || fclose(f) != 0)
        return 2;
    if (mkdir("/tmp/dir", 0755) != 0)
        return 3;
    return 0;
}
