/* Burns CPU. `spin iters N`: N million loop iterations, then prints a checksum and exits 0.
 * `spin ms N`: until the process CPU clock reaches N ms (N < 0: forever). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 3)
        return 2;
    volatile unsigned long x = 0;
    long n = atol(argv[2]);
    if (strcmp(argv[1], "iters") == 0) {
        for (long m = 0; m < n; m++)
            for (unsigned long i = 0; i < 1000000UL; i++)
                x += i ^ (unsigned long)m;
    } else {
        while (n < 0 || cpu_ms() < (double)n)
            for (unsigned long i = 0; i < 100000UL; i++)
                x += i;
    }
    printf("%lu\n", (unsigned long)x);
    return 0;
}
