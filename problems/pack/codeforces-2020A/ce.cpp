// Deliberately DOES NOT COMPILE: uses an undeclared variable and misses a semicolon.
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        long long n, k;
        scanf("%lld %lld", &n, &k)
        printf("%lld\n", answer);
    }
}
