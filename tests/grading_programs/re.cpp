// Crashes with a null write: RE by signal.
#include <cstdio>
int main() {
    volatile int *p = nullptr;
    *p = 1;
    printf("unreachable\n");
}
