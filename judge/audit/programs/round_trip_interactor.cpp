// judge audit: the interactor of the interaction probes (see judge/audit/). Its input is the
// number of round trips. It sends that number, then each round's index, and times, on its own
// monotonic clock, how long the program takes to send the index back: from before the write
// to after the read of the answer. The times (ns, one a line) go to its output file.
// With 0 round trips it waits for a number the program never sends: the idleness probe.
#include "testlib.h"

#include <time.h>

static long long now_ns() {
    timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    return at.tv_sec * 1000000000LL + at.tv_nsec;
}

int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    int rounds = inf.readInt(0, 100000, "rounds");
    std::cout << rounds << std::endl;
    if (rounds == 0)
        quitf(_wa, "the program answered %d to nothing", ouf.readInt());
    std::vector<long long> took(rounds);
    for (int round = 0; round < rounds; round++) {
        long long sent = now_ns();
        std::cout << round << std::endl;
        int answer = ouf.readInt();
        took[round] = now_ns() - sent;
        if (answer != round)
            quitf(_wa, "round %d: the program answered %d", round, answer);
    }
    for (long long ns : took)
        tout << ns << "\n";
    quitf(_ok, "%d round trips", rounds);
}
