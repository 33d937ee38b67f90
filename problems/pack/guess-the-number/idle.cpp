// Wrong: the reference without the flushes. Its first question stays in its buffer, both
// programs wait on each other, and the judge stops it: TLE, killed by "idle".
#include <cstdio>
#include <cstring>

int main() {
    int games;
    if (scanf("%d", &games) != 1) return 1;
    for (int game = 0; game < games; game++) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        int lo = 1, hi = n;
        while (lo < hi) {
            int mid = lo + (hi - lo + 1) / 2;
            printf("? %d\n", mid);
            char reply[4];
            if (scanf("%3s", reply) != 1) return 1;
            if (strcmp(reply, "<") == 0) hi = mid - 1;
            else lo = mid;
        }
        printf("! %d\n", lo);
    }
    return 0;
}
