// Wrong: gives up at once and claims there is no pair.
#include <cstdio>
int main() { puts("-1"); }
