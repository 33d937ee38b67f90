// Reads the input, then never finishes: TLE on any problem.
#include <cstdio>
int main() {
    char buffer[4096];
    while (fread(buffer, 1, sizeof buffer, stdin) > 0) {}
    volatile unsigned long x = 0;
    for (;;) x = x * 3 + 1;
}
