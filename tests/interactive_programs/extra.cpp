// The reference, then 1 MiB more after the last answer, when the interactor has ended or is
// ending: bytes nobody reads, which change nothing (AC).
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
            fflush(stdout);
            char reply[4];
            if (scanf("%3s", reply) != 1) return 1;
            if (strcmp(reply, "<") == 0) hi = mid - 1;
            else lo = mid;
        }
        printf("! %d\n", lo);
        fflush(stdout);
    }
    for (int i = 0; i < 1024; i++)
        printf("%01023d\n", i);
    return 0;
}
