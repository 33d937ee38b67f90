// Never reads: writes one endless line to a program that never reads either. Stopped at its own
// output limit (FAIL), never the program's.
#include "testlib.h"
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    std::string chunk(1 << 16, 'x');
    for (;;)
        std::cout << chunk;
}
