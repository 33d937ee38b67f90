/* Dies by the signal in argv[1]. */
#include <signal.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    raise(argc > 1 ? atoi(argv[1]) : SIGSEGV);
    return 0;
}
