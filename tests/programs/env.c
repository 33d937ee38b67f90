/* Prints its environment, one variable a line. */
#include <stdio.h>
extern char **environ;
int main(void) {
    for (char **e = environ; *e; e++)
        printf("%s\n", *e);
    return 0;
}
