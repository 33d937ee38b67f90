// For an interactive problem: a wrong final guess, then a flood of bytes after the interactor
// has given its word.
#include <cstdio>
#include <unistd.h>

int main() {
    int games, n;
    if (scanf("%d %d", &games, &n) != 2)
        return 1;
    printf("! 1\n");
    fflush(stdout);
    static const char junk[] = "! 1\nok\n";
    for (int i = 0; i < 100000; i++)
        if (write(1, junk, sizeof(junk) - 1) < 0)
            break;
    return 0;
}
