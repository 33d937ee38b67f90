// Computes forever before its first word: past its own CPU limit (FAIL), never the program's.
#include "testlib.h"
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    volatile unsigned long x = 0;
    for (;;) x = x * 6364136223846793005UL + 1;
}
