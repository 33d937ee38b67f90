// Added to the reference (sol.cpp) by the test: before the program plays, it looks for the
// interactor (its input, its answer file, its output file, its binary, its process) and
// signals every process it may. Anything found makes it exit 42 (RE); a dead interactor could
// not accept it.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static void found(const char *what) {
    fprintf(stderr, "found %s\n", what);
    exit(42);
}

static struct LooksForTheInteractor {
    LooksForTheInteractor() {
        const char *paths[] = {"/box/input.txt", "/box/answer.txt", "/box/tout.txt",
                               "/interactor", "/interactor/code.exe", "/judge/testlib"};
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
    }
} looks_for_the_interactor;
