// Self-contention: 8 threads that each spin 2 ms of every 5 ms on the run's one CPU. They wait
// for each other all the time, so a starvation figure built from the run's own run-queue delay
// grows to several times the wall clock: the old BUSY-on-demand.
#include <chrono>
#include <thread>
#include <vector>

static void spin_for(std::chrono::microseconds span) {
    auto until = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < until) {
    }
}

int main() {
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; i++)
        threads.emplace_back([] {
            for (;;) {
                spin_for(std::chrono::microseconds(2000));
                std::this_thread::sleep_for(std::chrono::microseconds(3000));
            }
        });
    for (auto &t : threads)
        t.join();
}
