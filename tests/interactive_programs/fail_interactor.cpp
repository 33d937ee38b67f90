#include "testlib.h"
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    quitf(_fail, "the jury's data is broken");
}
