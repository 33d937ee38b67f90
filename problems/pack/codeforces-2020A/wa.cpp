// Deliberately WRONG: treats k = 1 as "one operation" (it needs n operations).
#include <cstdio>

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        long long n, k;
        scanf("%lld %lld", &n, &k);
        long long ops = 0;
        if (k == 1) {
            ops = 1;
        } else {
            while (n > 0) {
                ops += n % k;
                n /= k;
            }
        }
        printf("%lld\n", ops);
    }
}
