// Output without end: the output limit must stop it.
#include <cstring>
#include <unistd.h>

int main() {
    static char block[1 << 16];
    memset(block, '9', sizeof(block));
    for (;;)
        if (write(1, block, sizeof(block)) < 0)
            return 1;
}
