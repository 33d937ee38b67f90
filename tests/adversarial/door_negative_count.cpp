// Issue 43, finding 5: a negative count where the jury reads a count, then that many numbers
// (testlib's readInts(k) FAILs on k < 0). A FAIL the output provokes must be WA, never a judge
// failure that leaves the metrics.
#include <cstdio>

int main() {
    std::printf("-1\n");
    std::fflush(stdout);
}
