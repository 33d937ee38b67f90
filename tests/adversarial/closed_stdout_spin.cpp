// Closes its standard output and then computes until stopped.
#include <unistd.h>

int main() {
    close(1);
    volatile unsigned long n = 0;
    for (;;)
        n = n + 1;
}
