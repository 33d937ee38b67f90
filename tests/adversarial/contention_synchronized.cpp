// Self-contention that used to be BUSY on demand: 8 threads wake together at every 5 ms
// boundary and each computes 0.25 ms of its own CPU time. The CPU is less than half used, yet
// each thread waits for the others at every wake-up, several times the wall clock in all.
#include <chrono>
#include <ctime>
#include <thread>
#include <vector>
static double thread_cpu_ms() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
int main() {
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> ts;
    for (int i = 0; i < 8; i++)
        ts.emplace_back([start] {
            for (long period = 1;; period++) {
                std::this_thread::sleep_until(start + std::chrono::microseconds(5000 * period));
                double until = thread_cpu_ms() + 0.25;
                while (thread_cpu_ms() < until) {}
            }
        });
    for (auto &t : ts) t.join();
}
