/* Forks forever; every process keeps forking and spinning. */
#include <unistd.h>
int main(void) {
    volatile unsigned long x = 0;
    for (;;) {
        fork();
        for (int i = 0; i < 100000; i++)
            x += (unsigned long)i;
    }
}
