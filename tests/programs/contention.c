/* Self-contention: N threads (or processes) wake together at every 5 ms boundary and each
 * computes 0.25 ms of its own CPU time. The CPU is less than half used, yet every one of them
 * waits for the others at every wake-up: summed, the run's threads wait several times the wall
 * clock. A starvation figure built from that wait made this program BUSY on demand.
 *   contention threads|processes COUNT */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct timespec start;

static double thread_cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *compete(void *unused) {
    (void)unused;
    for (long period = 1;; period++) {
        long long at = start.tv_nsec + period * 5000000LL;
        struct timespec wake = {start.tv_sec + at / 1000000000LL, at % 1000000000LL};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake, NULL);
        double until = thread_cpu_ms() + 0.25;
        while (thread_cpu_ms() < until) {
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    int count = argc > 2 ? atoi(argv[2]) : 8;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (argc > 1 && strcmp(argv[1], "processes") == 0) {
        for (int i = 1; i < count; i++)
            if (fork() == 0)
                break;
        compete(NULL);
    }
    pthread_t threads[64];
    for (int i = 0; i < count && i < 64; i++)
        pthread_create(&threads[i], NULL, compete, NULL);
    pthread_join(threads[0], NULL);
    return 0;
}
