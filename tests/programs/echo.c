/* Copies stdin to stdout. */
#include <unistd.h>
int main(void) {
    char buf[65536];
    ssize_t n;
    while ((n = read(0, buf, sizeof(buf))) > 0)
        if (write(1, buf, (size_t)n) != n)
            return 1;
    return n < 0 ? 1 : 0;
}
