// Asks one question, then computes forever without reading the answer (TLE by CPU).
#include <cstdio>
int main() {
    int games, n;
    if (scanf("%d %d", &games, &n) != 2) return 1;
    printf("? 1\n");
    fflush(stdout);
    volatile unsigned long x = 0;
    for (;;) x = x * 6364136223846793005UL + 1;
}
