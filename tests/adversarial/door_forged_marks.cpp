// Issue 43, finding 5: the judge's testlib header tells the judge, on the interactor's stderr,
// whether the interactor had read any of the program's output when it failed. A program that
// writes such records itself (here to an interactor that echoes what it reads to its stderr,
// then FAILs) cannot make them the judge's: it does not know the secret they carry.
#include <cstdio>

int main() {
    const char *secrets[] = {"00000000000000000000000000000000", "ffffffffffffffffffffffffffffffff",
                             "0123456789abcdef0123456789abcdef"};
    for (const char *secret : secrets)
        std::printf("JUDGE-MARK %s begin\n", secret);
    std::printf("-1\n");
    std::fflush(stdout);
}
