// Self-contention with processes: 8 forked children spin 2 ms of every 5 ms.
#include <chrono>
#include <thread>
#include <unistd.h>

static void spin_for(std::chrono::microseconds span) {
    auto until = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < until) {
    }
}

int main() {
    for (int i = 0; i < 7; i++)
        if (fork() == 0)
            break;
    for (;;) {
        spin_for(std::chrono::microseconds(2000));
        std::this_thread::sleep_for(std::chrono::microseconds(3000));
    }
}
