// judge audit: the program of the interaction probes (see judge/audit/). It reads the number of
// round trips, then sends each number it is given straight back, flushed. Given 0 it waits
// for input that never comes.
#include <cstdio>

int main() {
    int rounds;
    if (scanf("%d", &rounds) != 1)
        return 1;
    if (rounds == 0) {
        int never;
        return scanf("%d", &never) == 1 ? 0 : 1;
    }
    for (int round = 0; round < rounds; round++) {
        int value;
        if (scanf("%d", &value) != 1)
            return 1;
        printf("%d\n", value);
        fflush(stdout);
    }
    return 0;
}
