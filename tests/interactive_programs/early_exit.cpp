// Reads the number of games and leaves: the interactor finds the end of its input (PE).
#include <cstdio>
int main() {
    int games;
    return scanf("%d", &games) == 1 ? 0 : 1;
}
