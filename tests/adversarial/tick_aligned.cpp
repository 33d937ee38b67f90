// BUSY through tick sampling. On a kernel that samples CPU time at its ticks
// (CONFIG_TICK_CPU_ACCOUNTING), the busy time of a CPU in /proc/stat (user, system, ...) is
// the count of ticks that found a task on it. The ticks fall on a grid this program can see:
// the kernel aligns them to multiples of the tick on CLOCK_MONOTONIC (tick_init_jiffy_update),
// and CLOCK_MONOTONIC_COARSE's resolution is the tick. So it runs only in a short window
// around each tick and sleeps the rest: the ticks charge its CPU with ~100% busy while it uses
// a few percent, and a starvation figure that subtracts its exact CPU time from the sampled
// busy time sees the rest as work outside the run. Its 32 threads wake together, so they wait
// for each other at every tick (the run-queue delay the figure is also bounded by).
//   tick_aligned [threads] [offset in µs from the tick; default 0: around it]
// With an offset of half a tick it does the same work away from the ticks (the control).
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static int64_t tick_ns = 4000000;
static int64_t offset_ns; // where the window is, from the tick
static const int64_t LEAD_NS = 150000, LAG_NS = 100000;

static int64_t now_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(int64_t at) {
    struct timespec ts = {(time_t)(at / 1000000000), (long)(at % 1000000000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
    }
}

// Every thread: asleep until just before the next window, then on the CPU until just after
// it (the tick came and found this thread or a sibling running). The first thread woken spins
// through the window; the others, woken with it, wait for it and find the window past.
static void *straddle(void *) {
    for (;;) {
        int64_t now = now_ns(CLOCK_MONOTONIC);
        int64_t tick = (now / tick_ns + 1) * tick_ns + offset_ns;
        if (tick - LEAD_NS <= now)
            tick += tick_ns;
        sleep_until(tick - LEAD_NS);
        while (now_ns(CLOCK_MONOTONIC) < tick + LAG_NS) {
        }
    }
    return nullptr;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 32;
    offset_ns = argc > 2 ? atoll(argv[2]) * 1000 : 0;
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0 && res.tv_nsec > 0)
        tick_ns = res.tv_nsec;
    pthread_t ids[256];
    for (int i = 1; i < threads && i < 256; i++)
        pthread_create(&ids[i], nullptr, straddle, nullptr);
    straddle(nullptr);
}
