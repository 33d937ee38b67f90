/* Burns CPU for a fixed amount of work: argv[1] iterations of a dependent chain. */
#include <stdlib.h>
int main(int argc, char **argv) {
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000000ul;
    volatile unsigned long x = 1;
    for (unsigned long i = 0; i < n; i++)
        x = x * 6364136223846793005ul + 1442695040888963407ul;
    return (int)(x & 0);
}
