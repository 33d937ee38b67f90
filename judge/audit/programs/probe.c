// judge audit: the C probe program, the mode read from stdin (see judge/audit/).
// cpu MS | mem MB | sleep MS
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile uint64_t sink;

static double process_cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Spins until the process's own CPU clock reaches ms: whatever the speed of the CPU, it has then
// used at least ms of CPU time. The clock is read every 32768 rounds of xorshift, ~0.1 ms.
static uint64_t spin_until(double ms) {
    uint64_t x = 7;
    while (process_cpu_ms() < ms)
        for (int i = 0; i < 32768; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
    return x;
}

int main(void) {
    char mode[16] = "";
    double arg = 0;
    if (scanf("%15s %lf", mode, &arg) < 1) return 2;
    if (!strcmp(mode, "cpu")) {
        sink = spin_until(arg);
        printf("ok\nprocess_cpu_ms %.3f\n", process_cpu_ms());
        return 0;
    } else if (!strcmp(mode, "mem")) {
        size_t bytes = (size_t)(arg * 1048576.0);
        if (bytes) {
            char *p = malloc(bytes);
            if (!p) return 3;
            memset(p, 1, bytes);  // every page touched
            sink = p[bytes / 2];
        }
    } else if (!strcmp(mode, "sleep")) {
        struct timespec request = {(time_t)arg / 1000, ((long)arg % 1000) * 1000000L};
        nanosleep(&request, NULL);
    } else {
        return 2;
    }
    puts("ok");
    return 0;
}
