#include "testlib.h"
#include <csignal>
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    std::cout << 1 << std::endl;
    raise(SIGSEGV);
    quitf(_ok, "unreachable");
}
