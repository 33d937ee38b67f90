// Looks for the interactor (its input, its answer file, its output file, its binary, its
// process) and signals every process it may, then plays as the reference. Anything found
// makes it exit 42 (RE) before it plays; a dead interactor could not accept it.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static void found(const char *what) {
    fprintf(stderr, "found %s\n", what);
    exit(42);
}

int main() {
    const char *paths[] = {"/box/input.txt", "/box/answer.txt", "/box/tout.txt", "/interactor",
                           "/interactor/code.exe", "/judge/testlib"};
    for (const char *path : paths) {
        struct stat info;
        if (stat(path, &info) == 0) found(path);
    }
    DIR *proc = opendir("/proc");
    if (proc) {
        while (struct dirent *entry = readdir(proc)) {
            int pid = atoi(entry->d_name);
            if (pid > 1 && pid != getpid()) found("another process");
        }
        closedir(proc);
    }
    kill(-1, SIGKILL);
    for (int pid = 2; pid < 4096; pid++)
        if (pid != getpid() && kill(pid, SIGKILL) == 0) found("a process to signal");
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int game = 0; game < games; game++) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        int lo = 1, hi = n;
        while (lo < hi) {
            int mid = lo + (hi - lo + 1) / 2;
            printf("? %d\n", mid);
            fflush(stdout);
            char reply[4];
            if (scanf("%3s", reply) != 1) return 1;
            if (strcmp(reply, "<") == 0) hi = mid - 1;
            else lo = mid;
        }
        printf("! %d\n", lo);
        fflush(stdout);
    }
    return 0;
}
