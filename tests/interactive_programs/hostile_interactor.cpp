// Dataset content is untrusted: this interactor tries to get out, then plays one game of
// guess-the-number (n = 1) and reports what it managed. (Calls the policy refuses, a socket or
// a symbolic link, end it at once: tests/test_interactive.py tries those apart.)
#include "testlib.h"

#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static std::string escaped;

static void note(bool managed, const char *what) {
    if (managed)
        escaped += std::string(escaped.empty() ? "" : ", ") + what;
}

int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    note(open("/etc/shadow", O_RDONLY) >= 0, "read /etc/shadow");
    note(open("/etc/judge-escape", O_WRONLY | O_CREAT, 0644) >= 0, "wrote /etc");
    note(open("/usr/judge-escape", O_WRONLY | O_CREAT, 0644) >= 0, "wrote /usr");
    note(mkdir("/judge-escape", 0755) == 0, "wrote /");
    DIR *proc = opendir("/proc");
    int others = 0;
    if (proc) {
        while (dirent *entry = readdir(proc))
            if (atoi(entry->d_name) > 1 && atoi(entry->d_name) != getpid()) others++;
        closedir(proc);
    }
    note(others > 0, "saw other processes");
    note(kill(-1, SIGKILL) == 0, "signalled a process");
    std::cout << 1 << std::endl << 1 << std::endl;
    std::string kind = ouf.readToken("[?!]", "kind");
    ouf.readInt(1, 1, "guess");
    if (!escaped.empty())
        quitf(_wa, "escaped: %s", escaped.c_str());
    quitf(_ok, "contained");
}
