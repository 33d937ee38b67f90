/* Touches N MiB (argv[1]) in 1 MiB blocks, then exits 0. Exit 3 when the memory runs out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 16;
    for (long i = 0; i < n; i++) {
        char *p = malloc(1 << 20);
        if (!p) {
            printf("out of memory after %ld MiB\n", i);
            return 3;
        }
        memset(p, (int)(i & 0xff) | 1, 1 << 20);
    }
    printf("touched %ld MiB\n", n);
    return 0;
}
