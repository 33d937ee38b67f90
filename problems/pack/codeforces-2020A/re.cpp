// Deliberately CRASHES: divides by (k - 1), which is 0 when k = 1 (SIGFPE).
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        long long n, k;
        scanf("%lld %lld", &n, &k);
        long long levels = n / (k - 1);  // "upper bound on the number of digits"
        long long ops = 0;
        while (n > 0 && levels >= 0) {
            ops += n % k;
            n /= k;
        }
        printf("%lld\n", ops);
    }
}
