/* kill(-1, SIGKILL), then kill(1, SIGKILL): must harm nothing outside the run. Prints the
 * results and exits 0 (it survives its own kill(-1)). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
int main(void) {
    int a = kill(-1, SIGKILL);
    int ea = errno;
    int b = kill(1, SIGKILL);
    int eb = errno;
    printf("kill(-1)=%d %s\nkill(1)=%d %s\n", a, a ? strerrorname_np(ea) : "-", b,
           b ? strerrorname_np(eb) : "-");
    return 0;
}
