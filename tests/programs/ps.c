/* Lists the processes it can see in /proc: "pid comm uid" per line. */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    DIR *d = opendir("/proc");
    if (!d)
        return 1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], comm[64] = "?", line[256];
        snprintf(path, sizeof(path), "/proc/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fgets(comm, sizeof(comm), f))
                comm[strcspn(comm, "\n")] = 0;
            fclose(f);
        }
        long uid = -1;
        snprintf(path, sizeof(path), "/proc/%s/status", e->d_name);
        f = fopen(path, "r");
        if (f) {
            while (fgets(line, sizeof(line), f))
                if (sscanf(line, "Uid: %ld", &uid) == 1)
                    break;
            fclose(f);
        }
        printf("%s %s %ld\n", e->d_name, comm, uid);
    }
    closedir(d);
    return 0;
}
