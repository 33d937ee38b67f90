// Asks one question, then aborts (RE).
#include <cstdio>
#include <cstdlib>
int main() {
    int games, n;
    if (scanf("%d %d", &games, &n) != 2) return 1;
    printf("? 1\n");
    fflush(stdout);
    abort();
}
