// Threads that give the CPU away all the time: sched_yield storms beside 1 ms sleeps.
#include <sched.h>
#include <thread>
#include <vector>

int main() {
    std::vector<std::thread> threads;
    for (int i = 0; i < 6; i++)
        threads.emplace_back([i] {
            for (;;) {
                if (i % 2)
                    sched_yield();
                else
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
    for (auto &t : threads)
        t.join();
}
