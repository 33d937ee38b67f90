// Never reads: writes one endless token to the interactor (OLE).
#include <cstring>
#include <unistd.h>
int main() {
    static char chunk[1 << 16];
    memset(chunk, 'x', sizeof chunk);
    for (;;)
        if (write(1, chunk, sizeof chunk) < 0) return 1;
}
