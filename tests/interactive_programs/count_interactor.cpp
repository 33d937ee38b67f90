#include "testlib.h"
#include <iostream>
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    int n = inf.readInt();
    std::cout << n << std::endl;
    int k = ouf.readInt();
    std::vector<int> picked = ouf.readInts(k, 1, n, "picked");
    if (k != 2)
        quitf(_wa, "expected 2 numbers, found %d", k);
    quitf(_ok, "%d numbers", k);
}
