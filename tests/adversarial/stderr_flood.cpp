// Keeps the judge's relay busy: an endless stream of small writes to stderr, which is not
// counted as output, while the program itself computes nothing.
#include <unistd.h>

int main() {
    static const char line[] = "ok 1 numbers\n";
    for (;;)
        if (write(2, line, sizeof(line) - 1) < 0)
            return 1;
}
