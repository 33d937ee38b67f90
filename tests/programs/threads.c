/* argv[1] threads each burn argv[2] ms of their own CPU clock (< 0: forever), then exit 0. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long budget_ms;

static void *burn(void *arg) {
    (void)arg;
    volatile unsigned long x = 0;
    for (;;) {
        struct timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        if (budget_ms >= 0 && ts.tv_sec * 1000L + ts.tv_nsec / 1000000L >= budget_ms)
            break;
        for (int i = 0; i < 100000; i++)
            x += (unsigned long)i;
    }
    return NULL;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 2;
    budget_ms = argc > 2 ? atol(argv[2]) : 300;
    pthread_t t[64];
    if (n > 64)
        n = 64;
    for (int i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, burn, NULL) != 0) {
            perror("pthread_create");
            return 4;
        }
    for (int i = 0; i < n; i++)
        pthread_join(t[i], NULL);
    printf("%d threads done\n", n);
    return 0;
}
