// Reference: exact integer sums (sum and sum of squares in 128 bits), one square root at the end.
#include <cmath>
#include <cstdio>

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 0;
    __int128 s = 0, q = 0;
    for (int i = 0; i < n; i++) {
        long long x;
        scanf("%lld", &x);
        s += x;
        q += (__int128)x * x;
    }
    // n^2 sigma^2 = n*q - s^2, an exact non-negative integer.
    __int128 num = (__int128)n * q - s * s;
    long double mean = (long double)s / n;
    long double sigma = sqrtl((long double)num) / n;
    printf("%.10Lf %.10Lf\n", mean, sigma);
}
