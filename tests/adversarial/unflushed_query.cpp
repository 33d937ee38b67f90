// For an interactive problem: asks its first question without flushing, then waits for an
// answer that never comes (both programs wait on each other).
#include <cstdio>

int main() {
    int games, n;
    if (scanf("%d %d", &games, &n) != 2)
        return 1;
    printf("? %d\n", n / 2);
    char reply[4];
    return scanf("%3s", reply) == 1 ? 0 : 1;
}
