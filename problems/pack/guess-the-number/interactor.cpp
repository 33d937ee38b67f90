#include "testlib.h"
#include <iostream>

int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    int games = inf.readInt();
    std::cout << games << std::endl;
    long long total = 0;
    for (int game = 1; game <= games; game++) {
        int n = inf.readInt();
        int secret = inf.readInt();
        std::cout << n << std::endl;
        int queries = 0;
        while (true) {
            std::string kind = ouf.readToken("[?!]", "kind");
            int guess = ouf.readInt(1, n, "guess");
            if (kind == "!") {
                if (guess != secret)
                    quitf(_wa, "game %d: guessed %d, the number was %d", game, guess, secret);
                break;
            }
            if (++queries > 30)
                quitf(_wa, "game %d: more than 30 queries", game);
            std::cout << (secret < guess ? "<" : ">=") << std::endl;
        }
        total += queries;
    }
    tout << total << std::endl;
    quitf(_ok, "%d games guessed with %lld queries", games, total);
}
