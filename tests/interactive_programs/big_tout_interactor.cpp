// Writes an endless output file: stopped by its file size limit (FAIL), on a tmpfs box.
#include "testlib.h"
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    std::string line(1 << 20, 'x');
    for (;;)
        tout << line << std::endl;
}
