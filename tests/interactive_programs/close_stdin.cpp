// Closes its stdin, then plays blind: one question and a guess of 5, whatever the answers.
// The interactor's answers go nowhere; it must still end with its own word (WA), not die.
#include <cstdio>
#include <unistd.h>
int main() {
    close(0);
    printf("? 5\n");
    fflush(stdout);
    printf("! 5\n");
    fflush(stdout);
    return 0;
}
