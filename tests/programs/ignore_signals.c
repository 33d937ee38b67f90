/* Ignores or blocks every catchable signal (SIGXCPU and SIGTERM included) and spins forever. */
#include <signal.h>
int main(void) {
    for (int s = 1; s < NSIG; s++)
        signal(s, SIG_IGN);
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, 0);
    volatile unsigned long x = 0;
    for (;;)
        x++;
}
