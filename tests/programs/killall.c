/* kill(-1, SIGKILL), kill(1, SIGKILL), then SIGKILL to every thread of pid 1 (the slot's init
 * and, on cgroup v1, its spawner threads): must harm nothing outside the run. Prints the
 * results and exits 0 (it survives its own kill(-1)). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void) {
    int a = kill(-1, SIGKILL);
    int ea = errno;
    int b = kill(1, SIGKILL);
    int eb = errno;
    printf("kill(-1)=%d %s\nkill(1)=%d %s\n", a, a ? strerrorname_np(ea) : "-", b,
           b ? strerrorname_np(eb) : "-");
    DIR *tasks = opendir("/proc/1/task");
    struct dirent *task;
    while (tasks && (task = readdir(tasks))) {
        long tid = strtol(task->d_name, NULL, 10);
        if (tid <= 0)
            continue;
        int c = (int)syscall(SYS_tgkill, 1, tid, SIGKILL);
        int ec = errno;
        printf("tgkill(1, %ld)=%d %s\n", tid, c, c ? strerrorname_np(ec) : "-");
    }
    if (tasks)
        closedir(tasks);
    return 0;
}
