/* Prints what sysinfo(2) says and what glibc's sysconf makes of it. With argv[1] = "bad",
 * calls sysinfo with a bad pointer and prints the errno. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "bad") == 0) {
        int rc = sysinfo((struct sysinfo *)16);
        printf("rc=%d errno=%s\n", rc, rc < 0 ? strerror(errno) : "-");
        return 0;
    }
    struct sysinfo info;
    if (sysinfo(&info) < 0)
        return 2;
    printf("loads=%lu,%lu,%lu procs=%u totalram=%llu freeram=%llu uptime=%ld\n", info.loads[0],
           info.loads[1], info.loads[2], (unsigned)info.procs,
           (unsigned long long)info.totalram * info.mem_unit,
           (unsigned long long)info.freeram * info.mem_unit, info.uptime);
    printf("phys_pages=%ld pagesize=%ld nprocs=%ld\n", sysconf(_SC_PHYS_PAGES),
           sysconf(_SC_PAGESIZE), sysconf(_SC_NPROCESSORS_ONLN));
    return 0;
}
