// Touches memory until something stops it.
#include <cstdlib>
#include <cstring>

int main() {
    for (;;) {
        char *block = static_cast<char *>(malloc(1 << 20));
        if (!block)
            return 1;
        memset(block, 1, 1 << 20);
    }
}
