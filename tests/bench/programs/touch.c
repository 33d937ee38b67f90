/* Touches argv[1] MiB of memory, one write per page, and keeps it until exit. */
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 64;
    size_t size = mib << 20;
    char *p = malloc(size);
    if (!p)
        return 2;
    long page = sysconf(_SC_PAGESIZE);
    for (size_t i = 0; i < size; i += (size_t)page)
        p[i] = 1;
    return p[size / 2] == 1 ? 0 : 1;
}
