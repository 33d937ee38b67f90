// Reads the first game, then touches far more memory than the limit (MLE).
#include <cstdio>
#include <cstdlib>
#include <cstring>
int main() {
    int games, n;
    if (scanf("%d %d", &games, &n) != 2) return 1;
    for (int i = 0; i < 64; i++) {
        char *block = static_cast<char *>(malloc(64 << 20));
        if (!block) return 2;
        memset(block, i + 1, 64 << 20);
    }
    return 0;
}
