// Wrong: halves the range with the wrong midpoint on ">=", so it never narrows two numbers
// down and runs past 30 questions (the interactor stops it: WA).
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
            int mid = lo + (hi - lo) / 2;
            printf("? %d\n", mid);
            fflush(stdout);
            char reply[4];
            if (scanf("%3s", reply) != 1) return 0;
            if (strcmp(reply, "<") == 0) hi = mid - 1;
            else lo = mid;
        }
        printf("! %d\n", lo);
        fflush(stdout);
    }
    return 0;
}
