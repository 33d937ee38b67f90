/* Sleeps argv[1] ms without using CPU, then exits 0. */
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {
    long ms = argc > 1 ? atol(argv[1]) : 100000;
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
    return 0;
}
