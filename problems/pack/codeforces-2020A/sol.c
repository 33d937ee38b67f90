#include <stdio.h>

int main(void) {
    int t;
    if (scanf("%d", &t) != 1)
        return 1;
    while (t--) {
        long long n, k, ops = 0;
        if (scanf("%lld %lld", &n, &k) != 2)
            return 1;
        if (k == 1) {
            ops = n;
        } else {
            for (; n > 0; n /= k)
                ops += n % k;
        }
        printf("%lld\n", ops);
    }
    return 0;
}
