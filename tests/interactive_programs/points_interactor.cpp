// Asks the program for a score and gives it as points.
#include "testlib.h"
int main(int argc, char *argv[]) {
    registerInteraction(argc, argv);
    std::cout << "score?" << std::endl;
    double score = ouf.readDouble(0, 1, "score");
    quitp(score, "as asked");
}
