// Reference: the answer is the sum of the digits of n written in base k (n itself when k = 1).
#include <cstdio>

int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        long long n, k;
        scanf("%lld %lld", &n, &k);
        long long ops = 0;
        if (k == 1) {
            ops = n;
        } else {
            while (n > 0) {
                ops += n % k;
                n /= k;
            }
        }
        printf("%lld\n", ops);
    }
    return 0;
}
