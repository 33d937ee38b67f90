// Deliberately TOO SLOW: simulates the greedy one operation at a time (always subtract the
// largest power of k that fits). Correct, but it performs `answer` iterations per case, which
// is up to 1e9 when k = 1 or k > n.
#include <cstdio>

static long long largest_power(long long n, long long k) {
    long long p = 1;
    if (k > 1)
        while (p <= n / k) p *= k;
    return p;
}

int main() {
    int t;
    scanf("%d", &t);
    while (t--) {
        long long n, k;
        scanf("%lld %lld", &n, &k);
        long long ops = 0;
        while (n > 0) {
            long long p = largest_power(n, k);
            // Walk down from the top instead of jumping: the classic "subtract 1" slowness.
            n -= p;
            ops += 1;
        }
        printf("%lld\n", ops);
    }
}
