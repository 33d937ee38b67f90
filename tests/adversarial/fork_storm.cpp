// Forks until the process cap says no, every child spinning; then the parent spins too.
#include <unistd.h>

int main() {
    for (int i = 0; i < 100000; i++) {
        pid_t pid = fork();
        if (pid == 0)
            for (;;) {
            }
        if (pid < 0)
            break;
    }
    for (;;) {
    }
}
